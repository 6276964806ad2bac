/*
 * csvreader: result files read back one row at a time (libcsv).
 *
 * Reads the CSV that writer_csv() writes: a header line, then rows, fields
 * quoted where needed. Every cell comes back as the exact text that was
 * written (only spaces, never tabs, are trimmed around unquoted fields, and
 * the writer quotes fields with edge spaces), so writing the cells again
 * gives the same bytes. Memory is one line and one row at a time, whatever
 * the file's size, so a sweep of millions of points resumes and merges in
 * little memory. A line, and a row (its quoted newlines included), may be
 * at most CSVREADER_LINE_MAX bytes: the reader stops there, so /dev/zero or
 * a file without newlines costs that much memory and no more. Never prints.
 */
#ifndef CLUSTERSIM_OUTPUT_CSVREADER_H
#define CLUSTERSIM_OUTPUT_CSVREADER_H

#include <csv.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

/* The longest line, and the longest row, a CSV input may have: 1 MiB. A
 * result row is a few kilobytes (a cell is cut at 1023 bytes when written). */
#define CSVREADER_LINE_MAX ((size_t)1 << 20)

struct csvtable_row {
	char **cells;     /* owned */
	size_t ncells;
	size_t line;      /* line of the file where the row ends, from 1 */
	bool terminated;  /* false: the file ends inside this row (no final newline) */
};

/* Free a row's cells; the row is empty afterwards. */
void csvtable_row_release(struct csvtable_row *r);

enum csvtable_mode {
	/* Any defect is an error: malformed quoting, a NUL byte, no header, a row
	 * whose field count differs from the header's, no final newline. */
	CSVTABLE_STRICT,
	/* For files a killed run may have cut short: read up to the first
	 * defect (a line or row over the bound is one) and keep what came
	 * before, rows of any length included (the caller checks them). Never
	 * fails on content. */
	CSVTABLE_SALVAGE
};

struct csvreader {
	FILE *f;
	bool own_file;            /* close f with the reader (a caller may set it after opening a stream) */
	enum csvtable_mode mode;
	const char *what;         /* borrowed: "part", "results" */
	char *shown;              /* the file's name in messages (owned) */
	struct csv_parser parser;
	char *linebuf;            /* the line being fed (text_read_line's buffer) */
	size_t linecap;
	size_t line;              /* line being fed to the parser, from 1 */
	size_t line_max;          /* bound on a line and on a row, in bytes */
	size_t row_bytes;         /* the current row's fields so far, a byte each for its commas */
	uint64_t bytes;           /* bytes read so far */
	bool at_end;              /* no more input: the parser is finished */
	/* the row being parsed, and the rows parsed but not yet taken */
	char **cells;
	size_t ncells, cellcap;
	struct csvtable_row *queue;
	size_t qhead, qlen, qcap;
	/* the header: NULL in salvage mode when the file has none */
	char **header;
	size_t ncols;
};

/*
 * Open `file` ("-" = standard input) and read its header. `what` names the
 * input in messages ("part 'a.csv': line 7: ..."). In strict mode a file
 * without a complete header line is an error; in salvage mode r->header is
 * NULL then. Returns 0, or -1 with err set (an input error, or a runtime
 * one when the file cannot be read) and nothing left open.
 */
int csvreader_open(struct csvreader *r, const char *file, enum csvtable_mode mode, const char *what,
		   struct cs_error *err);

/* The same over an open stream (borrowed: not closed by csvreader_close). */
int csvreader_open_stream(struct csvreader *r, FILE *f, const char *file, enum csvtable_mode mode,
			  const char *what, struct cs_error *err);

/* csvreader_open_stream() with another bound than CSVREADER_LINE_MAX on a
 * line and a row (merge's own temporary files, whose rows carry an extra
 * cell). */
int csvreader_open_stream_max(struct csvreader *r, FILE *f, const char *file, enum csvtable_mode mode,
			      const char *what, size_t line_max, struct cs_error *err);

/* The next row into *row (the caller owns its cells): 1, or 0 at the end
 * (in salvage mode also at the first defect), or -1 with err set: an input
 * error naming the file and the line (a line or a row over the bound among
 * them), or a runtime one when the file cannot be read. */
int csvreader_next(struct csvreader *r, struct csvtable_row *row, struct cs_error *err);

/* Close the file (when opened by name) and free everything. */
void csvreader_close(struct csvreader *r);

/*
 * Parse a row_id cell: a decimal integer without sign or leading zeros that
 * fits 63 bits. Returns false for anything else.
 */
bool csvtable_row_id(const char *cell, uint64_t *out);

#endif
