/*
 * rowset: a table of result rows with named columns, before formatting.
 *
 * Models produce numbers; cli/ fills a rowset; the writers in writer.h turn
 * it into an aligned table, CSV or JSON. A cell is empty, text, an integer or
 * a real. A real may be set to a NaN or an infinity, so that the row writer
 * (output/results.c) can find it and turn the row into an `error` row
 * naming the column; reading one out (rowset_format, rowset_number) is a
 * bug and asserts, so nothing prints "nan" or "inf". Reals are printed
 * with six significant digits by text_format_real(), so output is the same
 * bytes on every run.
 */
#ifndef CLUSTERSIM_OUTPUT_ROWSET_H
#define CLUSTERSIM_OUTPUT_ROWSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cell_type { CELL_EMPTY, CELL_TEXT, CELL_INT, CELL_REAL };

/* What a column's values are, for the writers: how a table shows them (a
 * person reads it) and which JSON type a text cell is. CSV and JSON numbers
 * never depend on it. A new rowset's columns are all UNIT_NONE (shown as
 * rowset_format() prints them); output/results.h says which column is what. */
enum cell_unit {
	UNIT_NONE,      /* as rowset_format() prints it */
	UNIT_TEXT,      /* words */
	UNIT_ID,        /* an identifier that is a number (row_id, seed): digits only */
	UNIT_BOOL,      /* "true" or "false": a JSON boolean */
	UNIT_COUNT,     /* a count: thousands separators in a table */
	UNIT_NUMBER,    /* a measure in the unit its name says: 4 significant digits */
	UNIT_USD,       /* dollars: $ and thousands separators */
	UNIT_HOURS,     /* hours: minutes, hours or days in a table */
	UNIT_FRACTION,  /* a fraction of 1: percent in a table */
	UNIT_COUNT_OF   /* not a unit: how many there are */
};

typedef struct rowset rowset;

/* New rowset with copies of the NULL-terminated column names. Caller frees. */
rowset *rowset_new(const char *const columns[]);

/* Same from a counted array. */
rowset *rowset_new_n(const char *const columns[], size_t ncols);
void rowset_free(rowset *rs);

size_t rowset_ncols(const rowset *rs);
size_t rowset_nrows(const rowset *rs);
const char *rowset_column(const rowset *rs, size_t col);

/* Index of a column by name, or -1. */
long rowset_find(const rowset *rs, const char *name);

/* Append an empty row; returns its index. */
size_t rowset_add_row(rowset *rs);

/* Set a cell of the last row by column name (the column must exist). */
void rowset_text(rowset *rs, const char *col, const char *text);
void rowset_int(rowset *rs, const char *col, int64_t v);
void rowset_real(rowset *rs, const char *col, double v);

/* Set a cell by position. */
void rowset_set_text(rowset *rs, size_t row, size_t col, const char *text);
void rowset_set_int(rowset *rs, size_t row, size_t col, int64_t v);
void rowset_set_real(rowset *rs, size_t row, size_t col, double v);

/* A column's unit (UNIT_NONE until set). */
void rowset_set_unit(rowset *rs, size_t col, enum cell_unit unit);
enum cell_unit rowset_unit(const rowset *rs, size_t col);

enum cell_type rowset_type(const rowset *rs, size_t row, size_t col);

/* The cell as output text ("" when empty). */
void rowset_format(const rowset *rs, size_t row, size_t col, char *buf, size_t size);

/* Numeric value of a cell (0 for empty or text). */
double rowset_number(const rowset *rs, size_t row, size_t col);

/* The first column of row that holds a non-finite real (a NaN or an
 * infinity), or -1 when none does; *count how many such cells the row has. */
long rowset_first_nonfinite(const rowset *rs, size_t row, size_t *count);

/* Empty a cell. */
void rowset_set_empty(rowset *rs, size_t row, size_t col);

/* Drop the rows from nrows on (nrows <= rowset_nrows(rs)). */
void rowset_truncate(rowset *rs, size_t nrows);

/* A new rowset with only the named columns, in that order (copies of the
 * cells and of the columns' units). Returns NULL when a name is not a column, with *bad set to it. */
rowset *rowset_select(const rowset *rs, const char *const names[], size_t n, const char **bad);

/* Text of a text cell, or NULL. */
const char *rowset_get_text(const rowset *rs, size_t row, size_t col);

/* Value of an integer cell (exact, unlike rowset_number), or 0. */
int64_t rowset_get_int(const rowset *rs, size_t row, size_t col);

/* Copy cell (srow, scol) of src to (drow, dcol) of dst, keeping its type. */
void rowset_copy_cell(rowset *dst, size_t drow, size_t dcol, const rowset *src, size_t srow, size_t scol);

#endif
