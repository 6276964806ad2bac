#include "csvtable.h"

#include <errno.h>
#include <inttypes.h>
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

/* Every row of an open reader into t, which then takes the header; at
 * most max_bytes of the file. */
static int read_all(struct csvreader *r, struct csvtable *t, uint64_t max_bytes, struct cs_error *err)
{
	struct csvtable_row row;
	int rc;

	memset(t, 0, sizeof *t);
	while ((rc = csvreader_next(r, &row, err)) > 0) {
		if (r->bytes > max_bytes) {
			size_t line = row.line;
			csvtable_row_release(&row);
			rc = 0;
			if (r->mode == CSVTABLE_STRICT) {
				char mib[32] = "";
				if (max_bytes >= (1u << 20))
					snprintf(mib, sizeof mib, " (%" PRIu64 " MiB)", max_bytes >> 20);
				rc = error_set(err, "%s '%s': line %zu: more than %" PRIu64 " bytes%s, the most a file "
					       "read whole may hold", r->what, r->shown, line, max_bytes, mib);
			}
			break;
		}
		t->rows = xgrow(t->rows, &t->cap, t->nrows + 1, sizeof *t->rows, 64);
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
		rc = read_all(&r, t, CSVTABLE_MAX_BYTES, err);
		csvreader_close(&r);
	}
	fclose(f);
	return rc;
}

int csvtable_load_max(struct csvtable *t, const char *file, enum csvtable_mode mode, const char *what,
		      uint64_t max_bytes, struct cs_error *err)
{
	struct csvreader r;
	int rc;

	memset(t, 0, sizeof *t);
	if (csvreader_open(&r, file, mode, what, err) < 0)
		return -1;
	rc = read_all(&r, t, max_bytes, err);
	csvreader_close(&r);
	return rc;
}

int csvtable_load(struct csvtable *t, const char *file, enum csvtable_mode mode, const char *what,
		  struct cs_error *err)
{
	return csvtable_load_max(t, file, mode, what, CSVTABLE_MAX_BYTES, err);
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

/* Every part has a header, the same as part 0's, with a row_id column. */
static int check_parts(const struct csvtable *parts, const char *const names[], size_t n, size_t *id_col,
		       struct cs_error *err)
{
	if (n == 0)
		return error_set(err, "merge: no parts to merge");
	for (size_t i = 0; i < n; i++)
		if (parts[i].header == NULL)
			return error_set(err, "merge: '%s': no header line", names[i]);
	for (size_t i = 1; i < n; i++)
		if (csvmerge_same_header(parts[i].header, parts[i].ncols, names[i], parts[0].header, parts[0].ncols,
					 names[0], err) < 0)
			return -1;
	return csvmerge_id_column(parts[0].header, parts[0].ncols, names[0], id_col, err);
}

/* One reference per row of every part, with its row_id; NULL on a bad row. */
static struct csvmerge_ref *collect_rows(const struct csvtable *parts, const char *const names[], size_t n,
					 size_t id_col, size_t *total, struct cs_error *err)
{
	struct csvmerge_ref *refs;
	size_t k = 0;

	*total = 0;
	for (size_t i = 0; i < n; i++)
		*total += parts[i].nrows;
	refs = xcalloc(*total ? *total : 1, sizeof *refs);
	for (size_t i = 0; i < n; i++) {
		for (size_t r = 0; r < parts[i].nrows; r++) {
			const struct csvtable_row *row = &parts[i].rows[r];
			struct csvmerge_ref *m = &refs[k++];
			if (row->ncells != parts[i].ncols) {
				error_set(err, "merge: '%s': line %zu: %zu fields, but the header has %zu", names[i],
					  row->line, row->ncells, parts[i].ncols);
				free(refs);
				return NULL;
			}
			if (csvmerge_row_id(row, id_col, names[i], &m->id, err) < 0) {
				free(refs);
				return NULL;
			}
			m->part = i;
			m->row = r;
			m->r = row;
		}
	}
	return refs;
}

rowset *csvtable_merge(const struct csvtable *parts, const char *const names[], size_t n,
		       struct cs_error *err)
{
	struct csvmerge_ref *refs;
	size_t total, id_col;
	rowset *rs;

	if (check_parts(parts, names, n, &id_col, err) < 0 ||
	    (refs = collect_rows(parts, names, n, id_col, &total, err)) == NULL)
		return NULL;
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
		if (!refs[i].keep)
			continue;
		size_t row = rowset_add_row(rs);
		for (size_t c = 0; c < parts[0].ncols; c++)
			rowset_set_text(rs, row, c, refs[i].r->cells[c]);
	}
	free(refs);
	return rs;
}
