/*
 * csvmerge: sweep parts (or any result files with one header and a row_id
 * column) merged into one CSV, sorted by row_id, in memory independent of
 * the files' sizes.
 *
 * Rows are ordered by row_id, ties keeping part order and then row order; a
 * row that repeats a row of an earlier part with the same row_id is dropped,
 * so a part given twice or a shard rerun adds nothing, while rows repeated
 * within one part are kept. Parts sorted by row_id (as sweep writes them)
 * are read once more and merged as they stream; a part that is not sorted
 * is first cut into sorted runs in temporary files. Standard input, read
 * only once, is checked as it streams and copied to a temporary file (at
 * most CSVMERGE_SPOOL_MAX bytes of it): nothing may be written before every
 * part is known to be good. Every temporary file is unlinked as soon as it
 * is made, so none outlives the process, however it ends. Memory: a row per
 * part or run, one row_id's rows, and one run while it is sorted; a line or
 * a row is at most CSVREADER_LINE_MAX bytes. Never prints.
 */
#ifndef CLUSTERSIM_OUTPUT_CSVMERGE_H
#define CLUSTERSIM_OUTPUT_CSVMERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/csvreader.h"
#include "util/error.h"

/* The most merge copies from standard input: 4 GiB (a part given by name
 * has no bound). */
#define CSVMERGE_SPOOL_MAX ((uint64_t)4 << 30)

/* One row of a row_id group, for csvmerge_dedupe(). */
struct csvmerge_ref {
	uint64_t id;
	size_t part, row;                 /* which part, which row of it */
	const struct csvtable_row *r;
	size_t cls;                       /* scratch: rows with equal cells share a class */
	bool keep;                        /* set by csvmerge_dedupe() */
};

/*
 * Decide which rows of one row_id group (in part, then row order) stay:
 * for each set of equal rows, the part with the most copies decides how
 * many are kept, so a row repeated within a part stays and one repeated
 * across parts goes.
 */
void csvmerge_dedupe(struct csvmerge_ref *g, size_t n);

/* Part `name`'s header against the first part's: the same columns in the
 * same order, else an input error naming both. */
int csvmerge_same_header(char *const *header, size_t ncols, const char *name, char *const *first,
			 size_t first_ncols, const char *first_name, struct cs_error *err);

/* The row_id column of a header into *col, else an input error. */
int csvmerge_id_column(char *const *header, size_t ncols, const char *name, size_t *col,
		       struct cs_error *err);

/* The row's row_id into *id, else an input error naming the part and line. */
int csvmerge_row_id(const struct csvtable_row *row, size_t col, const char *name, uint64_t *id,
		    struct cs_error *err);

/*
 * Merge the parts named in names[0..n) ("-" = standard input, at most once)
 * into `output` (NULL or "-" = standard output; else written atomically).
 * Input errors (a part that is not CSV, headers that differ, a bad row_id,
 * a line or a row over CSVREADER_LINE_MAX, standard input over
 * CSVMERGE_SPOOL_MAX) name the part and the line, as reading in strict mode
 * does; nothing is written then. Returns 0, or -1 with err set.
 */
int csvmerge_files(const char *const names[], size_t n, const char *output, struct cs_error *err);

/* csvmerge_files() with another bound than CSVMERGE_SPOOL_MAX on standard
 * input's copy (for tests). */
int csvmerge_files_max(const char *const names[], size_t n, const char *output, uint64_t spool_max,
		       struct cs_error *err);

#endif
