#include "rowcodec.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void put(struct rowcodec_buf *b, const void *data, size_t n)
{
	b->p = xgrow(b->p, &b->cap, b->n + n, 1, 4096);
	memcpy(b->p + b->n, data, n);
	b->n += n;
}

static void put_u64(struct rowcodec_buf *b, uint64_t v)
{
	put(b, &v, sizeof v);
}

void rowcodec_encode(struct rowcodec_buf *b, uint64_t key, const rowset *rs)
{
	uint64_t body;

	b->n = 0;
	put_u64(b, 0);  /* the body length, filled in at the end */
	put_u64(b, key);
	put_u64(b, rowset_nrows(rs));
	for (size_t r = 0; r < rowset_nrows(rs); r++) {
		for (size_t c = 0; c < rowset_ncols(rs); c++) {
			unsigned char tag = (unsigned char)rowset_type(rs, r, c);
			put(b, &tag, 1);
			if (tag == CELL_TEXT) {
				const char *t = rowset_get_text(rs, r, c);
				put_u64(b, strlen(t));
				put(b, t, strlen(t));
			} else if (tag == CELL_INT) {
				int64_t v = rowset_get_int(rs, r, c);
				put(b, &v, sizeof v);
			} else if (tag == CELL_REAL) {
				double v = rowset_number(rs, r, c);
				put(b, &v, sizeof v);
			}
		}
	}
	body = b->n - sizeof body;
	memcpy(b->p, &body, sizeof body);
}

struct reader {
	const unsigned char *p;
	size_t n, at;
	bool bad;
};

static void take(struct reader *rd, void *out, size_t n)
{
	if (rd->bad || rd->n - rd->at < n) {
		rd->bad = true;
		memset(out, 0, n);
		return;
	}
	memcpy(out, rd->p + rd->at, n);
	rd->at += n;
}

rowset *rowcodec_decode(const unsigned char *body, size_t n, const char *const cols[], size_t ncols,
			uint64_t *key)
{
	struct reader rd = { .p = body, .n = n };
	rowset *rs = rowset_new_n(cols, ncols);
	uint64_t nrows;

	take(&rd, key, sizeof *key);
	take(&rd, &nrows, sizeof nrows);
	/* every cell takes at least its tag byte */
	if (!rd.bad && (ncols == 0 ? nrows != 0 : nrows > (rd.n - rd.at) / ncols))
		rd.bad = true;
	for (uint64_t r = 0; r < nrows && !rd.bad; r++) {
		size_t row = rowset_add_row(rs);
		for (size_t c = 0; c < ncols && !rd.bad; c++) {
			unsigned char tag;
			take(&rd, &tag, 1);
			if (tag == CELL_TEXT) {
				uint64_t len;
				take(&rd, &len, sizeof len);
				if (rd.bad || len > rd.n - rd.at) {
					rd.bad = true;
					break;
				}
				char *t = xstrndup((const char *)rd.p + rd.at, (size_t)len);
				rd.at += (size_t)len;
				rowset_set_text(rs, row, c, t);
				free(t);
			} else if (tag == CELL_INT) {
				int64_t v;
				take(&rd, &v, sizeof v);
				rowset_set_int(rs, row, c, v);
			} else if (tag == CELL_REAL) {
				double v;
				take(&rd, &v, sizeof v);
				/* rowsets hold finite reals only; anything else is damage */
				if (!rd.bad && !(v - v == 0))
					rd.bad = true;
				else
					rowset_set_real(rs, row, c, v);
			} else if (tag != CELL_EMPTY) {
				rd.bad = true;
			}
		}
	}
	if (rd.bad || rd.at != rd.n) {
		rowset_free(rs);
		return NULL;
	}
	return rs;
}
