#include "csvtable.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/csvmerge.h"
#include "util/text.h"
#include "util/xalloc.h"

void csvtable_release(struct csvtable *t)
{
	if (t->header != NULL) {
		for (size_t c = 0; c < t->ncols; c++)
			free(t->header[c]);
		free(t->header);
	}
	for (size_t i = 0; i < t->nrows; i++)
		csvtable_row_release(&t->rows[i]);
	free(t->rows);
	memset(t, 0, sizeof *t);
}

/* Every row of an open reader into t, which then takes the header. */
static int read_all(struct csvreader *r, struct csvtable *t, struct cs_error *err)
{
	struct csvtable_row row;
	int rc;

	memset(t, 0, sizeof *t);
	while ((rc = csvreader_next(r, &row, err)) > 0) {
		if (t->nrows == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 64;
			t->rows = xreallocarray(t->rows, t->cap, sizeof *t->rows);
		}
		t->rows[t->nrows++] = row;
	}
	t->header = r->header;
	t->ncols = r->ncols;
	r->header = NULL;
	if (rc < 0) {
		csvtable_release(t);
		return -1;
	}
	return 0;
}

int csvtable_parse(struct csvtable *t, const char *buf, size_t len, enum csvtable_mode mode,
		   const char *what, const char *file, struct cs_error *err)
{
	struct csvreader r;
	/* fmemopen of no bytes is not portable: an empty buffer is an empty stream */
	static const char nothing[1] = "";
	FILE *f = fmemopen((void *)(len > 0 ? buf : nothing), len > 0 ? len : 1, "r");
	int rc;

	memset(t, 0, sizeof *t);
	if (f == NULL)
		return error_runtime(err, "%s '%s': cannot read: %s", what, file, strerror(errno));
	if (len == 0)
		fgetc(f);  /* past the stand-in byte: at the end */
	rc = csvreader_open_stream(&r, f, file, mode, what, err);
	if (rc == 0) {
		rc = read_all(&r, t, err);
		csvreader_close(&r);
	}
	fclose(f);
	return rc;
}

int csvtable_load(struct csvtable *t, const char *file, enum csvtable_mode mode, const char *what,
		  struct cs_error *err)
{
	struct csvreader r;
	int rc;

	memset(t, 0, sizeof *t);
	if (csvreader_open(&r, file, mode, what, err) < 0)
		return -1;
	rc = read_all(&r, t, err);
	csvreader_close(&r);
	return rc;
}

/* ---- merging ------------------------------------------------------------- */

static int cmp_order(const void *a, const void *b)
{
	const struct csvmerge_ref *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->part != y->part)
		return x->part < y->part ? -1 : 1;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return 0;
}

rowset *csvtable_merge(const struct csvtable *parts, const char *const names[], size_t n,
		       struct cs_error *err)
{
	struct csvmerge_ref *refs;
	size_t total = 0, k = 0, id_col = 0;
	bool found = false;
	rowset *rs;

	if (n == 0) {
		error_set(err, "merge: no parts to merge");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (parts[i].header == NULL) {
			error_set(err, "merge: '%s': no header line", names[i]);
			return NULL;
		}
	}
	for (size_t i = 1; i < n; i++) {
		if (parts[i].ncols != parts[0].ncols) {
			error_set(err, "merge: '%s': the header has %zu columns, that of '%s' has %zu",
				  names[i], parts[i].ncols, names[0], parts[0].ncols);
			return NULL;
		}
		for (size_t c = 0; c < parts[0].ncols; c++) {
			if (strcmp(parts[i].header[c], parts[0].header[c]) != 0) {
				char qa[96], qb[96];
				text_quote(parts[i].header[c], qa, sizeof qa);
				text_quote(parts[0].header[c], qb, sizeof qb);
				error_set(err, "merge: '%s': the header differs from that of '%s': column %zu is %s, not %s",
					  names[i], names[0], c + 1, qa, qb);
				return NULL;
			}
		}
	}
	for (size_t c = 0; c < parts[0].ncols && !found; c++) {
		if (strcmp(parts[0].header[c], "row_id") == 0) {
			id_col = c;
			found = true;
		}
	}
	if (!found) {
		error_set(err, "merge: '%s': no row_id column in the header", names[0]);
		return NULL;
	}

	for (size_t i = 0; i < n; i++)
		total += parts[i].nrows;
	refs = xcalloc(total ? total : 1, sizeof *refs);
	for (size_t i = 0; i < n; i++) {
		for (size_t r = 0; r < parts[i].nrows; r++) {
			const struct csvtable_row *row = &parts[i].rows[r];
			struct csvmerge_ref *m = &refs[k++];
			if (row->ncells != parts[i].ncols || !csvtable_row_id(row->cells[id_col], &m->id)) {
				char q[96];
				text_quote(row->ncells > id_col ? row->cells[id_col] : "", q, sizeof q);
				error_set(err, "merge: '%s': line %zu: row_id %s is not a non-negative integer",
					  names[i], row->line, q);
				free(refs);
				return NULL;
			}
			m->part = i;
			m->row = r;
			m->r = row;
		}
	}
	qsort(refs, total, sizeof *refs, cmp_order);
	for (size_t g = 0; g < total;) {
		size_t e = g + 1;
		while (e < total && refs[e].id == refs[g].id)
			e++;
		csvmerge_dedupe(refs + g, e - g);
		g = e;
	}

	rs = rowset_new_n((const char *const *)parts[0].header, parts[0].ncols);
	for (size_t i = 0; i < total; i++) {
		size_t row;
		if (!refs[i].keep)
			continue;
		row = rowset_add_row(rs);
		for (size_t c = 0; c < parts[0].ncols; c++)
			rowset_set_text(rs, row, c, refs[i].r->cells[c]);
	}
	free(refs);
	return rs;
}
