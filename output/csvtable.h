/*
 * csvtable: result files read back (libcsv), and sweep parts merged.
 *
 * Reads the CSV that writer_csv() writes: a header line, then rows, fields
 * quoted where needed. Every cell comes back as the exact text that was
 * written (only spaces, never tabs, are trimmed around unquoted fields, and
 * the writer quotes fields with edge spaces), so writing the cells again
 * with writer_csv() gives the same bytes. This module never prints.
 */
#ifndef CLUSTERSIM_OUTPUT_CSVTABLE_H
#define CLUSTERSIM_OUTPUT_CSVTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/rowset.h"
#include "util/error.h"

/* Largest CSV file read: far above any sweep's results. */
#define CSVTABLE_MAX_BYTES ((size_t)1 << 30)

struct csvtable_row {
	char **cells;     /* owned */
	size_t ncells;
	size_t line;      /* line of the file where the row ends, from 1 */
	bool terminated;  /* false: the file ends inside this row (no final newline) */
};

struct csvtable {
	char **header;    /* owned; NULL when the file had no complete header */
	size_t ncols;
	struct csvtable_row *rows;  /* owned */
	size_t nrows, cap;
};

enum csvtable_mode {
	/* Any defect is an error: malformed quoting, a NUL byte, no header, a row
	 * whose field count differs from the header's, no final newline. */
	CSVTABLE_STRICT,
	/* For files a killed run may have cut short: read up to the first
	 * defect and keep what came before, rows of any length included (the
	 * caller checks them). Never fails on content. */
	CSVTABLE_SALVAGE
};

/*
 * Parse len bytes at buf into *t (initialized here). `what` and `file` name
 * the input in messages ("part 'a.csv': line 7: ..."). Returns 0, or -1 with
 * err set (an input error) and *t released.
 */
int csvtable_parse(struct csvtable *t, const char *buf, size_t len, enum csvtable_mode mode,
		   const char *what, const char *file, struct cs_error *err);

/* Read `file` ("-" = standard input) and parse it. A file that cannot be
 * opened or read is an input error naming it; err->kind says which. */
int csvtable_load(struct csvtable *t, const char *file, enum csvtable_mode mode, const char *what,
		  struct cs_error *err);

void csvtable_release(struct csvtable *t);

/*
 * Parse a row_id cell: a decimal integer without sign or leading zeros that
 * fits 63 bits. Returns false for anything else.
 */
bool csvtable_row_id(const char *cell, uint64_t *out);

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
