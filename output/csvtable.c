#include "csvtable.h"

#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/text.h"
#include "util/xalloc.h"

/* ---- parsing ------------------------------------------------------------- */

struct parse_state {
	struct csvtable *t;
	char **cells;       /* the row being read */
	size_t n, cap;
	size_t line;        /* line being fed to the parser, from 1 */
	bool have_header;
	bool header_terminated;
};

static void free_cells(char **cells, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(cells[i]);
	free(cells);
}

static void on_field(void *field, size_t len, void *data)
{
	struct parse_state *st = data;
	if (st->n == st->cap) {
		st->cap = st->cap ? 2 * st->cap : 16;
		st->cells = xreallocarray(st->cells, st->cap, sizeof *st->cells);
	}
	st->cells[st->n++] = xstrndup(field != NULL ? field : "", field != NULL ? len : 0);
}

/* c is the character that ended the row, or -1 when csv_fini() ended it. */
static void on_row(int c, void *data)
{
	struct parse_state *st = data;
	struct csvtable *t = st->t;

	if (!st->have_header) {
		t->header = st->cells;
		t->ncols = st->n;
		st->have_header = true;
		st->header_terminated = c != -1;
	} else {
		struct csvtable_row *r;
		if (t->nrows == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 64;
			t->rows = xreallocarray(t->rows, t->cap, sizeof *t->rows);
		}
		r = &t->rows[t->nrows++];
		r->cells = st->cells;
		r->ncells = st->n;
		r->line = st->line;
		r->terminated = c != -1;
	}
	st->cells = NULL;
	st->n = st->cap = 0;
}

/* Only the space character is trimmed around unquoted fields: libcsv's
 * default also trims tabs, which writer_csv() does not quote. */
static int is_space(unsigned char c)
{
	return c == ' ';
}

static void *csv_xrealloc(void *p, size_t n)
{
	return xreallocarray(p, n ? n : 1, 1);
}

void csvtable_release(struct csvtable *t)
{
	if (t->header != NULL)
		free_cells(t->header, t->ncols);
	for (size_t i = 0; i < t->nrows; i++)
		free_cells(t->rows[i].cells, t->rows[i].ncells);
	free(t->rows);
	memset(t, 0, sizeof *t);
}

static size_t line_of(const char *buf, size_t pos)
{
	size_t line = 1;
	for (size_t i = 0; i < pos; i++)
		line += buf[i] == '\n';
	return line;
}

int csvtable_parse(struct csvtable *t, const char *buf, size_t len, enum csvtable_mode mode,
		   const char *what, const char *file, struct cs_error *err)
{
	const char *shown = strcmp(file, "-") == 0 ? "<stdin>" : file;
	bool strict = mode == CSVTABLE_STRICT;
	struct parse_state st = { .t = t, .line = 1 };
	struct csv_parser p;
	const char *nul;
	size_t pos = 0;
	bool cut = false;

	memset(t, 0, sizeof *t);
	nul = memchr(buf, '\0', len);
	if (nul != NULL) {
		if (strict) {
			error_set(err, "%s '%s': line %zu: contains a NUL byte, not CSV text", what, shown,
				  line_of(buf, (size_t)(nul - buf)));
			return -1;
		}
		len = (size_t)(nul - buf);
	}
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		error_runtime(err, "%s '%s': cannot start the CSV parser", what, shown);
		return -1;
	}
	csv_set_space_func(&p, is_space);
	csv_set_realloc_func(&p, csv_xrealloc);
	csv_set_free_func(&p, free);

	/* Feed one line at a time so that messages can give line numbers. */
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl != NULL ? (size_t)(nl - (buf + pos)) + 1 : len - pos;
		if (csv_parse(&p, buf + pos, n, on_field, on_row, &st) != n) {
			if (strict) {
				error_set(err, "%s '%s': line %zu: malformed CSV: %s", what, shown, st.line,
					  csv_strerror(csv_error(&p)));
				goto fail;
			}
			cut = true;
			break;
		}
		pos += n;
		if (nl != NULL)
			st.line++;
	}
	if (!cut && csv_fini(&p, on_field, on_row, &st) != 0) {
		if (strict) {
			error_set(err, "%s '%s': line %zu: a quoted field is not closed at the end of the file",
				  what, shown, st.line);
			goto fail;
		}
	}
	/* A row cut by a parse error never reached on_row(). */
	free_cells(st.cells, st.n);
	st.cells = NULL;
	st.n = 0;
	csv_free(&p);

	if (!st.have_header || !st.header_terminated) {
		if (strict) {
			error_set(err, "%s '%s': %s", what, shown,
				  st.have_header ? "the header line has no newline at the end"
						 : "no header line (an empty file)");
			csvtable_release(t);
			return -1;
		}
		csvtable_release(t);
		return 0;
	}
	if (strict) {
		for (size_t i = 0; i < t->nrows; i++) {
			const struct csvtable_row *r = &t->rows[i];
			if (r->ncells != t->ncols) {
				error_set(err, "%s '%s': line %zu: %zu fields, but the header has %zu", what, shown,
					  r->line, r->ncells, t->ncols);
				csvtable_release(t);
				return -1;
			}
			if (!r->terminated) {
				error_set(err, "%s '%s': line %zu: the last row has no newline at the end: the file may be cut short",
					  what, shown, r->line);
				csvtable_release(t);
				return -1;
			}
		}
	}
	return 0;
fail:
	free_cells(st.cells, st.n);
	csv_free(&p);
	csvtable_release(t);
	return -1;
}

int csvtable_load(struct csvtable *t, const char *file, enum csvtable_mode mode, const char *what,
		  struct cs_error *err)
{
	const char *shown = strcmp(file, "-") == 0 ? "<stdin>" : file;
	size_t n = 0;
	bool too_big;
	char *buf;
	FILE *f;
	int rc;

	memset(t, 0, sizeof *t);
	if (strcmp(file, "-") == 0) {
		f = stdin;
	} else {
		struct stat st;
		f = fopen(file, "rb");
		if (f == NULL)
			return error_set(err, "%s '%s': cannot open: %s", what, shown, strerror(errno));
		if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
			fclose(f);
			return error_set(err, "%s '%s': is a directory", what, shown);
		}
	}
	buf = text_read_stream(f, CSVTABLE_MAX_BYTES, &n, &too_big);
	if (too_big) {
		if (f != stdin)
			fclose(f);
		free(buf);
		return error_set(err, "%s '%s': larger than %zu MiB", what, shown, CSVTABLE_MAX_BYTES >> 20);
	}
	if (ferror(f)) {
		int e = errno;
		if (f != stdin)
			fclose(f);
		free(buf);
		return error_runtime(err, "%s '%s': cannot read: %s", what, shown, strerror(e ? e : EIO));
	}
	if (f != stdin)
		fclose(f);
	rc = csvtable_parse(t, buf, n, mode, what, file, err);
	free(buf);
	return rc;
}

bool csvtable_row_id(const char *cell, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = strlen(cell);

	if (n == 0 || n > 18 || strspn(cell, "0123456789") != n || (cell[0] == '0' && n > 1))
		return false;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (uint64_t)(cell[i] - '0');
	*out = v;
	return true;
}

/* ---- merging ------------------------------------------------------------- */

struct merge_ref {
	uint64_t id;
	size_t part, row;
	const struct csvtable_row *r;
	size_t cls;    /* rows with equal cells share a class within a row_id */
	bool keep;
};

static int cmp_order(const void *a, const void *b)
{
	const struct merge_ref *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->part != y->part)
		return x->part < y->part ? -1 : 1;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return 0;
}

static int cmp_cells(const struct csvtable_row *a, const struct csvtable_row *b)
{
	for (size_t c = 0; c < a->ncells && c < b->ncells; c++) {
		int d = strcmp(a->cells[c], b->cells[c]);
		if (d != 0)
			return d;
	}
	return a->ncells < b->ncells ? -1 : a->ncells > b->ncells;
}

static int cmp_content(const void *a, const void *b)
{
	const struct merge_ref *x = *(const struct merge_ref *const *)a;
	const struct merge_ref *y = *(const struct merge_ref *const *)b;
	int d = cmp_cells(x->r, y->r);
	if (d != 0)
		return d;
	return x < y ? -1 : x > y;
}

/*
 * Decide which rows of one row_id group (already in part, then row order)
 * stay. For each class of equal rows, K copies are kept so far; in the next
 * part the first K copies repeat earlier ones and are dropped, the rest are
 * kept, so each class ends with as many copies as the part that has most.
 */
static void dedupe_group(struct merge_ref *g, size_t n)
{
	struct merge_ref **byc;
	size_t *kept, *cur_part, *cur_count, ncls = 0;

	if (n == 1) {
		g[0].keep = true;
		return;
	}
	byc = xcalloc(n, sizeof *byc);
	for (size_t i = 0; i < n; i++)
		byc[i] = &g[i];
	qsort(byc, n, sizeof *byc, cmp_content);
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && cmp_cells(byc[i - 1]->r, byc[i]->r) != 0)
			ncls++;
		byc[i]->cls = ncls;
	}
	ncls++;
	kept = xcalloc(ncls, sizeof *kept);
	cur_part = xcalloc(ncls, sizeof *cur_part);
	cur_count = xcalloc(ncls, sizeof *cur_count);
	for (size_t c = 0; c < ncls; c++)
		cur_part[c] = (size_t)-1;
	for (size_t i = 0; i < n; i++) {
		size_t c = g[i].cls;
		if (cur_part[c] != g[i].part) {
			cur_part[c] = g[i].part;
			cur_count[c] = 0;
		}
		cur_count[c]++;
		g[i].keep = cur_count[c] > kept[c];
		if (g[i].keep)
			kept[c]++;
	}
	free(byc);
	free(kept);
	free(cur_part);
	free(cur_count);
}

rowset *csvtable_merge(const struct csvtable *parts, const char *const names[], size_t n,
		       struct cs_error *err)
{
	struct merge_ref *refs;
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
			struct merge_ref *m = &refs[k++];
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
		dedupe_group(refs + g, e - g);
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
