#include "rowset.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"
#include "util/xalloc.h"

struct cell {
	enum cell_type type;
	union {
		char *text;
		int64_t i;
		double r;
	} v;
};

struct rowset {
	char **cols;
	enum cell_unit *units;  /* one per column */
	size_t ncols;
	struct cell *cells; /* nrows x ncols */
	size_t nrows, cap_rows;
};

rowset *rowset_new_n(const char *const columns[], size_t ncols)
{
	rowset *rs = xcalloc(1, sizeof *rs);
	rs->ncols = ncols;
	rs->cols = xcalloc(ncols ? ncols : 1, sizeof *rs->cols);
	rs->units = xcalloc(ncols ? ncols : 1, sizeof *rs->units);
	for (size_t i = 0; i < ncols; i++)
		rs->cols[i] = xstrdup(columns[i]);
	return rs;
}

rowset *rowset_new(const char *const columns[])
{
	size_t n = 0;
	while (columns[n] != NULL)
		n++;
	return rowset_new_n(columns, n);
}

static struct cell *cell_at(const rowset *rs, size_t row, size_t col)
{
	assert(row < rs->nrows && col < rs->ncols);
	return &rs->cells[row * rs->ncols + col];
}

static void cell_clear(struct cell *c)
{
	if (c->type == CELL_TEXT)
		free(c->v.text);
	c->type = CELL_EMPTY;
}

void rowset_free(rowset *rs)
{
	if (rs == NULL)
		return;
	for (size_t i = 0; i < rs->nrows * rs->ncols; i++)
		cell_clear(&rs->cells[i]);
	for (size_t i = 0; i < rs->ncols; i++)
		free(rs->cols[i]);
	free(rs->cols);
	free(rs->units);
	free(rs->cells);
	free(rs);
}

size_t rowset_ncols(const rowset *rs) { return rs->ncols; }
size_t rowset_nrows(const rowset *rs) { return rs->nrows; }

const char *rowset_column(const rowset *rs, size_t col)
{
	assert(col < rs->ncols);
	return rs->cols[col];
}

void rowset_set_unit(rowset *rs, size_t col, enum cell_unit unit)
{
	assert(col < rs->ncols && unit < UNIT_COUNT_OF);
	rs->units[col] = unit;
}

enum cell_unit rowset_unit(const rowset *rs, size_t col)
{
	assert(col < rs->ncols);
	return rs->units[col];
}

long rowset_find(const rowset *rs, const char *name)
{
	for (size_t i = 0; i < rs->ncols; i++)
		if (strcmp(rs->cols[i], name) == 0)
			return (long)i;
	return -1;
}

size_t rowset_add_row(rowset *rs)
{
	if (rs->nrows == rs->cap_rows) {
		rs->cap_rows = xgrow_cap(rs->cap_rows, rs->nrows + 1, 16);
		rs->cells = xreallocarray(rs->cells, rs->cap_rows * (rs->ncols ? rs->ncols : 1), sizeof *rs->cells);
	}
	memset(&rs->cells[rs->nrows * rs->ncols], 0, rs->ncols * sizeof *rs->cells);
	return rs->nrows++;
}

static size_t col_index(const rowset *rs, const char *col)
{
	long i = rowset_find(rs, col);
	assert(i >= 0 && "unknown column");
	return (size_t)i;
}

void rowset_set_text(rowset *rs, size_t row, size_t col, const char *text)
{
	struct cell *c = cell_at(rs, row, col);
	char *copy = xstrdup(text);  /* before clearing: text may be this cell's */
	cell_clear(c);
	c->type = CELL_TEXT;
	c->v.text = copy;
}

void rowset_set_int(rowset *rs, size_t row, size_t col, int64_t v)
{
	struct cell *c = cell_at(rs, row, col);
	cell_clear(c);
	c->type = CELL_INT;
	c->v.i = v;
}

void rowset_set_real(rowset *rs, size_t row, size_t col, double v)
{
	struct cell *c = cell_at(rs, row, col);
	cell_clear(c);
	c->type = CELL_REAL;
	c->v.r = v;
}

void rowset_text(rowset *rs, const char *col, const char *text)
{
	assert(rs->nrows > 0);
	rowset_set_text(rs, rs->nrows - 1, col_index(rs, col), text);
}

void rowset_int(rowset *rs, const char *col, int64_t v)
{
	assert(rs->nrows > 0);
	rowset_set_int(rs, rs->nrows - 1, col_index(rs, col), v);
}

void rowset_real(rowset *rs, const char *col, double v)
{
	assert(rs->nrows > 0);
	rowset_set_real(rs, rs->nrows - 1, col_index(rs, col), v);
}

enum cell_type rowset_type(const rowset *rs, size_t row, size_t col)
{
	return cell_at(rs, row, col)->type;
}

void rowset_format(const rowset *rs, size_t row, size_t col, char *buf, size_t size)
{
	const struct cell *c = cell_at(rs, row, col);
	switch (c->type) {
	case CELL_EMPTY:
		buf[0] = '\0';
		break;
	case CELL_TEXT:
		snprintf(buf, size, "%s", c->v.text);
		break;
	case CELL_INT:
		snprintf(buf, size, "%" PRId64, c->v.i);
		break;
	case CELL_REAL:
		text_format_real(c->v.r, buf, size);  /* asserts a finite value */
		break;
	}
}

long rowset_first_nonfinite(const rowset *rs, size_t row, size_t *count)
{
	long first = -1;
	*count = 0;
	for (size_t col = 0; col < rs->ncols; col++) {
		const struct cell *c = cell_at(rs, row, col);
		if (c->type == CELL_REAL && !isfinite(c->v.r)) {
			if (first < 0)
				first = (long)col;
			(*count)++;
		}
	}
	return first;
}

void rowset_set_empty(rowset *rs, size_t row, size_t col)
{
	cell_clear(cell_at(rs, row, col));
}

void rowset_truncate(rowset *rs, size_t nrows)
{
	assert(nrows <= rs->nrows);
	for (size_t row = nrows; row < rs->nrows; row++)
		for (size_t col = 0; col < rs->ncols; col++)
			cell_clear(cell_at(rs, row, col));
	rs->nrows = nrows;
}

double rowset_number(const rowset *rs, size_t row, size_t col)
{
	const struct cell *c = cell_at(rs, row, col);
	if (c->type == CELL_INT)
		return (double)c->v.i;
	if (c->type == CELL_REAL) {
		assert(isfinite(c->v.r));  /* output/results.c turned such a row into an error row */
		return c->v.r;
	}
	return 0.0;
}

const char *rowset_get_text(const rowset *rs, size_t row, size_t col)
{
	const struct cell *c = cell_at(rs, row, col);
	return c->type == CELL_TEXT ? c->v.text : NULL;
}

int64_t rowset_get_int(const rowset *rs, size_t row, size_t col)
{
	const struct cell *c = cell_at(rs, row, col);
	return c->type == CELL_INT ? c->v.i : 0;
}

void rowset_copy_cell(rowset *dst, size_t drow, size_t dcol, const rowset *src, size_t srow, size_t scol)
{
	const struct cell *c = cell_at(src, srow, scol);
	switch (c->type) {
	case CELL_TEXT: rowset_set_text(dst, drow, dcol, c->v.text); break;
	case CELL_INT: rowset_set_int(dst, drow, dcol, c->v.i); break;
	case CELL_REAL: rowset_set_real(dst, drow, dcol, c->v.r); break;
	case CELL_EMPTY: cell_clear(cell_at(dst, drow, dcol)); break;
	}
}

rowset *rowset_select(const rowset *rs, const char *const names[], size_t n, const char **bad)
{
	long *idx = xcalloc(n ? n : 1, sizeof *idx);
	rowset *out;
	for (size_t k = 0; k < n; k++) {
		idx[k] = rowset_find(rs, names[k]);
		if (idx[k] < 0) {
			*bad = names[k];
			free(idx);
			return NULL;
		}
	}
	out = rowset_new_n(names, n);
	for (size_t k = 0; k < n; k++)
		out->units[k] = rs->units[idx[k]];
	for (size_t r = 0; r < rs->nrows; r++) {
		size_t row = rowset_add_row(out);
		for (size_t k = 0; k < n; k++) {
			rowset_copy_cell(out, row, k, rs, r, (size_t)idx[k]);
		}
	}
	free(idx);
	return out;
}
