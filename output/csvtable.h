/*
 * csvtable: a whole result file in memory, read with csvreader, and parts
 * merged in memory.
 *
 * For small inputs and tests (and `plot`, which needs every row at once);
 * `merge` and `sweep --resume` read files of any size one row at a time
 * (csvreader, csvmerge). A file read whole may be at most CSVTABLE_MAX_BYTES,
 * besides csvreader's bound on a line. Never prints.
 */
#ifndef CLUSTERSIM_OUTPUT_CSVTABLE_H
#define CLUSTERSIM_OUTPUT_CSVTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/csvreader.h"
#include "output/rowset.h"
#include "util/error.h"

/* The most a file read whole may hold: 256 MiB of CSV (in memory it takes a
 * few times that, a cell at a time). */
#define CSVTABLE_MAX_BYTES ((uint64_t)256 << 20)

struct csvtable {
	char **header;    /* owned; NULL when the file had no complete header */
	size_t ncols;
	struct csvtable_row *rows;  /* owned */
	size_t nrows, cap;
};

/*
 * Parse len bytes at buf into *t (initialized here). `what` and `file` name
 * the input in messages ("part 'a.csv': line 7: ..."). Returns 0, or -1 with
 * err set (an input error) and *t released.
 */
int csvtable_parse(struct csvtable *t, const char *buf, size_t len, enum csvtable_mode mode,
		   const char *what, const char *file, struct cs_error *err);

/* Read `file` ("-" = standard input) and parse it. A file that cannot be
 * opened is an input error naming it, one that cannot be read a runtime one.
 * A file over CSVTABLE_MAX_BYTES is an input error in strict mode; in
 * salvage mode the rows before the bound are kept. */
int csvtable_load(struct csvtable *t, const char *file, enum csvtable_mode mode, const char *what,
		  struct cs_error *err);

/* csvtable_load() with another bound than CSVTABLE_MAX_BYTES (for tests). */
int csvtable_load_max(struct csvtable *t, const char *file, enum csvtable_mode mode, const char *what,
		      uint64_t max_bytes, struct cs_error *err);

void csvtable_release(struct csvtable *t);

/*
 * Merge the parts (read in CSVTABLE_STRICT mode) into one rowset of text
 * cells: the headers must be identical and hold a row_id column; rows are
 * sorted by row_id, ties keeping part order and then row order; a row that
 * repeats a row of an earlier part with the same row_id is dropped (so a part
 * given twice, or a shard rerun, adds nothing; rows repeated within one part
 * are kept). names[i] names parts[i] in messages. Returns a new rowset (caller
 * frees), or NULL with err set (an input error).
 */
rowset *csvtable_merge(const struct csvtable *parts, const char *const names[], size_t n,
		       struct cs_error *err);

#endif
