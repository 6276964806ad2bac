/*
 * fuzz_merge_csv: bytes -> the CSV reader of `clustersim merge` and --resume.
 *
 * The input is read in both modes of csvtable_parse(). Salvage mode never
 * fails on content. When strict mode accepts it, the input is merged with
 * itself (every row repeats, so each is kept once per copy in one part) and
 * written with writer_csv(); reading that output back must give the merged
 * cells exactly: the reader and the writer agree on quoting.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/csvtable.h"
#include "output/writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Longest cell writer_csv() writes whole (its cell buffer is 1024 bytes). */
#define CELL_WHOLE 1023

static void check_round_trip(const rowset *rs)
{
	struct cs_error err;
	struct csvtable back;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (mem == NULL || writer_csv(mem, rs) != 0 || fclose(mem) != 0)
		abort();
	error_clear(&err);
	if (csvtable_parse(&back, buf, len, CSVTABLE_STRICT, "part", "round-trip", &err) != 0) {
		/* Only a one-column table with an empty cell is lost: its line is empty. */
		if (rowset_ncols(rs) != 1)
			abort();
		free(buf);
		return;
	}
	if (back.ncols != rowset_ncols(rs))
		abort();
	for (size_t c = 0; c < back.ncols; c++)
		if (strlen(rowset_column(rs, c)) <= CELL_WHOLE && strcmp(back.header[c], rowset_column(rs, c)) != 0)
			abort();
	if (rowset_ncols(rs) > 1 && back.nrows != rowset_nrows(rs))
		abort();
	for (size_t r = 0; r < back.nrows && rowset_ncols(rs) > 1; r++) {
		for (size_t c = 0; c < back.ncols; c++) {
			const char *want = rowset_get_text(rs, r, c);
			if (strlen(want) <= CELL_WHOLE && strcmp(back.rows[r].cells[c], want) != 0)
				abort();
		}
	}
	csvtable_release(&back);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cs_error err;
	struct csvtable t;

	error_clear(&err);
	if (csvtable_parse(&t, (const char *)data, size, CSVTABLE_SALVAGE, "results", "fuzz.csv", &err) != 0)
		abort();
	csvtable_release(&t);

	if (csvtable_parse(&t, (const char *)data, size, CSVTABLE_STRICT, "part", "fuzz.csv", &err) == 0) {
		const struct csvtable parts[2] = { t, t };
		const char *const names[2] = { "a.csv", "b.csv" };
		rowset *rs = csvtable_merge(parts, names, 2, &err);
		if (rs != NULL) {
			if (rowset_nrows(rs) != t.nrows)  /* part b repeats part a: nothing added */
				abort();
			check_round_trip(rs);
			rowset_free(rs);
		}
		csvtable_release(&t);
	}
	return 0;
}
