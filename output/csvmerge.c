#include "csvmerge.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/outfile.h"
#include "output/writer.h"
#include "util/text.h"
#include "util/xalloc.h"

/* Rows of an unsorted part sorted in memory at a time before they go to a
 * run file: bounds memory by run size, not by file size. */
enum { RUN_ROWS = 1 << 16 };

/* The bound on a line of merge's own temporary files: a part's bound and
 * room for the cell a run adds (a row's index, at most 20 digits and a
 * comma); their rows are never longer than the part's (the writer quotes
 * only where CSV needs it). */
#define TEMP_LINE_MAX (CSVREADER_LINE_MAX + 64)

/* ---- which rows of a row_id group stay ----------------------------------- */

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
	const struct csvmerge_ref *x = *(const struct csvmerge_ref *const *)a;
	const struct csvmerge_ref *y = *(const struct csvmerge_ref *const *)b;
	int d = cmp_cells(x->r, y->r);
	if (d != 0)
		return d;
	return x < y ? -1 : x > y;
}

void csvmerge_dedupe(struct csvmerge_ref *g, size_t n)
{
	struct csvmerge_ref **byc;
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
	/* K copies kept so far: the next part's first K repeat them */
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

/* ---- the parts ----------------------------------------------------------- */

struct part {
	const char *name;        /* as given */
	FILE *spool;             /* standard input's copy (owned), or NULL for a part read by name */
	bool sorted;             /* row_ids never decrease */
	size_t nrows;
};

/* A stream of rows in (row_id, part, row) order: a sorted part, or one run
 * of an unsorted part (whose file holds the row index as an extra first
 * cell). */
struct source {
	struct csvreader rd;
	size_t part;
	bool is_run;
	bool has_row;
	struct csvtable_row row;  /* current row (the run's extra cell removed) */
	uint64_t id;
	size_t index;             /* the row's place in its part */
	size_t next_index;        /* for a sorted part: rows read so far */
};

struct merge {
	const char *const *names;
	size_t n;
	struct part *parts;
	size_t id_col, ncols;
	char **header;           /* part 0's (owned) */
	struct source *src;
	size_t nsrc, srccap;
	uint64_t spool_max;      /* bound on standard input's copy, in bytes */
};

/*
 * A new temporary file under $TMPDIR (else /tmp), open for writing and
 * reading back, and already unlinked: it has no name, so nothing is left
 * behind however the process ends (even SIGKILL), and the space goes back
 * when it is closed. NULL with a runtime error when it cannot be made.
 */
static FILE *temp_file(struct cs_error *err)
{
	const char *dir = getenv("TMPDIR");
	char *path = xasprintf("%s/clustersim-merge.XXXXXX", dir != NULL && dir[0] ? dir : "/tmp");
	int fd = mkstemp(path), e = errno;
	FILE *f = NULL;

	if (fd >= 0) {
		unlink(path);  /* at once: from here it is only an open file */
		f = fdopen(fd, "w+");
		e = errno;
		if (f == NULL)
			close(fd);
	}
	if (f == NULL)
		error_runtime(err, "merge: cannot create a temporary file in '%s': %s", path, strerror(e));
	free(path);
	return f;
}

/*
 * Standard input can be read only once: check it as it streams (strict CSV,
 * a row_id column, a row_id in every row, each line and row within the
 * reader's bound) and copy its rows into an unlinked temporary file, at
 * most m->spool_max bytes of it. Its defects are named with the lines of
 * standard input, so the later passes over the copy find none.
 */
static int spool_stdin(struct merge *m, struct part *p, struct cs_error *err)
{
	struct csvreader rd;
	struct csvtable_row row;
	size_t id_col = 0;
	uint64_t id;
	int rc;
	FILE *f = temp_file(err);

	if (f == NULL)
		return -1;
	p->spool = f;
	if (csvreader_open_stream(&rd, stdin, "-", CSVTABLE_STRICT, "part", err) < 0)
		return -1;
	rc = csvmerge_id_column(rd.header, rd.ncols, p->name, &id_col, err);
	if (rc == 0 && writer_csv_cells(f, rd.header, rd.ncols) < 0)
		rc = error_runtime(err, "merge: cannot write the copy of standard input: %s",
				   strerror(errno ? errno : EIO));
	while (rc == 0 && (rc = csvreader_next(&rd, &row, err)) > 0) {
		rc = csvmerge_row_id(&row, id_col, p->name, &id, err);
		if (rc == 0 && writer_csv_cells(f, row.cells, row.ncells) < 0)
			rc = error_runtime(err, "merge: cannot write the copy of standard input: %s",
					   strerror(errno ? errno : EIO));
		if (rc == 0 && rd.bytes > m->spool_max) {
			char mib[32] = "";
			if (m->spool_max >= (1u << 20))
				snprintf(mib, sizeof mib, " (%" PRIu64 " MiB)", m->spool_max >> 20);
			rc = error_set(err, "merge: '<stdin>': line %zu: more than %" PRIu64 " bytes%s, the most "
				       "merge copies from standard input: give the part by name", row.line,
				       m->spool_max, mib);
		}
		csvtable_row_release(&row);
	}
	csvreader_close(&rd);
	if (rc == 0 && fflush(f) != 0)
		rc = error_runtime(err, "merge: cannot write the copy of standard input: %s",
				   strerror(errno ? errno : EIO));
	return rc < 0 ? -1 : 0;
}

/* Open part i for reading (standard input through its copy, named as
 * standard input in messages). */
static int open_part(const struct merge *m, size_t i, struct csvreader *rd, struct cs_error *err)
{
	FILE *f = m->parts[i].spool;

	if (f == NULL)
		return csvreader_open(rd, m->names[i], CSVTABLE_STRICT, "part", err);
	/* one reader at a time reads the copy, each from its start */
	if (fseeko(f, 0, SEEK_SET) != 0)
		return error_runtime(err, "merge: cannot read the copy of standard input: %s", strerror(errno));
	return csvreader_open_stream_max(rd, f, "-", CSVTABLE_STRICT, "part", TEMP_LINE_MAX, err);
}

int csvmerge_same_header(char *const *header, size_t ncols, const char *name, char *const *first,
			 size_t first_ncols, const char *first_name, struct cs_error *err)
{
	if (ncols != first_ncols)
		return error_set(err, "merge: '%s': the header has %zu columns, that of '%s' has %zu",
				 name, ncols, first_name, first_ncols);
	for (size_t c = 0; c < first_ncols; c++) {
		if (strcmp(header[c], first[c]) != 0) {
			char qa[96], qb[96];
			text_quote(header[c], qa, sizeof qa);
			text_quote(first[c], qb, sizeof qb);
			return error_set(err, "merge: '%s': the header differs from that of '%s': column %zu is %s, not %s",
					 name, first_name, c + 1, qa, qb);
		}
	}
	return 0;
}

int csvmerge_id_column(char *const *header, size_t ncols, const char *name, size_t *col,
		       struct cs_error *err)
{
	for (size_t c = 0; c < ncols; c++)
		if (strcmp(header[c], "row_id") == 0) {
			*col = c;
			return 0;
		}
	return error_set(err, "merge: '%s': no row_id column in the header", name);
}

int csvmerge_row_id(const struct csvtable_row *row, size_t col, const char *name, uint64_t *id,
		    struct cs_error *err)
{
	if (row->ncells > col && csvtable_row_id(row->cells[col], id))
		return 0;
	char q[96];
	text_quote(row->ncells > col ? row->cells[col] : "", q, sizeof q);
	return error_set(err, "merge: '%s': line %zu: row_id %s is not a non-negative integer", name,
			 row->line, q);
}

/* The header of part i, checked against part 0's (which it becomes for
 * i = 0). */
static int check_header(struct merge *m, size_t i, const struct csvreader *rd, struct cs_error *err)
{
	if (i > 0)
		return csvmerge_same_header(rd->header, rd->ncols, m->names[i], m->header, m->ncols, m->names[0], err);
	m->ncols = rd->ncols;
	m->header = xcalloc(rd->ncols + 1, sizeof *m->header);
	for (size_t c = 0; c < rd->ncols; c++)
		m->header[c] = xstrdup(rd->header[c]);
	return 0;
}

/* First pass over every part: each is CSV, the headers agree, every
 * row_id is one; which parts are sorted. */
static int scan_parts(struct merge *m, struct cs_error *err)
{
	for (size_t i = 0; i < m->n; i++) {
		struct csvreader rd;
		if (open_part(m, i, &rd, err) < 0)
			return -1;
		if (check_header(m, i, &rd, err) < 0) {
			csvreader_close(&rd);
			return -1;
		}
		csvreader_close(&rd);
	}
	if (csvmerge_id_column(m->header, m->ncols, m->names[0], &m->id_col, err) < 0)
		return -1;
	for (size_t i = 0; i < m->n; i++) {
		struct csvreader rd;
		struct csvtable_row row;
		uint64_t id, last = 0;
		int rc;
		if (open_part(m, i, &rd, err) < 0)
			return -1;
		m->parts[i].sorted = true;
		while ((rc = csvreader_next(&rd, &row, err)) > 0) {
			rc = csvmerge_row_id(&row, m->id_col, m->names[i], &id, err);
			csvtable_row_release(&row);
			if (rc < 0)
				break;
			if (m->parts[i].nrows > 0 && id < last)
				m->parts[i].sorted = false;
			last = id;
			m->parts[i].nrows++;
		}
		csvreader_close(&rd);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static struct source *new_source(struct merge *m)
{
	m->src = xgrow(m->src, &m->srccap, m->nsrc + 1, sizeof *m->src, 8);
	struct source *s = &m->src[m->nsrc++];
	memset(s, 0, sizeof *s);
	return s;
}

/* Advance a source to its next row (has_row false at its end). */
static int source_next(struct merge *m, struct source *s, struct cs_error *err)
{
	int rc;
	if (s->has_row)
		csvtable_row_release(&s->row);
	s->has_row = false;
	rc = csvreader_next(&s->rd, &s->row, err);
	if (rc <= 0)
		return rc;
	if (s->is_run) {
		/* the run's first cell is the row's place in its part */
		s->index = (size_t)strtoull(s->row.cells[0], NULL, 10);
		free(s->row.cells[0]);
		memmove(s->row.cells, s->row.cells + 1, (s->row.ncells - 1) * sizeof *s->row.cells);
		s->row.ncells--;
	} else {
		s->index = s->next_index++;
	}
	s->has_row = true;
	csvtable_row_id(s->row.cells[m->id_col], &s->id);  /* checked by scan_parts */
	return 1;
}

struct run_row {
	uint64_t id;
	size_t index;
	struct csvtable_row row;
};

static int cmp_run_row(const void *a, const void *b)
{
	const struct run_row *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Sort up to RUN_ROWS rows and write them as one run file, a source (which
 * owns the file). */
static int write_run(struct merge *m, size_t part, struct run_row *rows, size_t n, struct cs_error *err)
{
	FILE *f = temp_file(err);
	char **cells;
	char index[24];
	int rc = 0;

	if (f == NULL)
		return -1;
	cells = xcalloc(m->ncols + 1, sizeof *cells);
	qsort(rows, n, sizeof *rows, cmp_run_row);
	static char run_column[] = "run";
	cells[0] = run_column;
	for (size_t c = 0; c < m->ncols; c++)
		cells[c + 1] = m->header[c];
	rc = writer_csv_cells(f, cells, m->ncols + 1);
	for (size_t i = 0; i < n && rc == 0; i++) {
		snprintf(index, sizeof index, "%zu", rows[i].index);
		cells[0] = index;
		for (size_t c = 0; c < m->ncols; c++)
			cells[c + 1] = rows[i].row.cells[c];
		rc = writer_csv_cells(f, cells, m->ncols + 1);
	}
	free(cells);
	if (rc != 0 || fflush(f) != 0 || fseeko(f, 0, SEEK_SET) != 0) {
		int e = errno ? errno : EIO;
		fclose(f);
		return error_runtime(err, "merge: cannot write a temporary file: %s", strerror(e));
	}
	struct source *s = new_source(m);
	s->part = part;
	s->is_run = true;
	if (csvreader_open_stream_max(&s->rd, f, "run", CSVTABLE_STRICT, "run", TEMP_LINE_MAX, err) < 0) {
		fclose(f);
		m->nsrc--;
		return -1;
	}
	s->rd.own_file = true;  /* closed with the reader */
	return source_next(m, s, err) < 0 ? -1 : 0;
}

/* An unsorted part cut into sorted runs of at most RUN_ROWS rows. */
static int cut_runs(struct merge *m, size_t part, struct cs_error *err)
{
	struct csvreader rd;
	struct run_row *rows = xcalloc(RUN_ROWS, sizeof *rows);
	size_t n = 0, index = 0;
	int rc;

	if (open_part(m, part, &rd, err) < 0) {
		free(rows);
		return -1;
	}
	while ((rc = csvreader_next(&rd, &rows[n].row, err)) > 0) {
		csvtable_row_id(rows[n].row.cells[m->id_col], &rows[n].id);
		rows[n].index = index++;
		if (++n == RUN_ROWS) {
			rc = write_run(m, part, rows, n, err);
			for (size_t i = 0; i < n; i++)
				csvtable_row_release(&rows[i].row);
			n = 0;
			if (rc < 0)
				break;
		}
	}
	if (rc == 0 && n > 0)
		rc = write_run(m, part, rows, n, err);
	for (size_t i = 0; i < n; i++)
		csvtable_row_release(&rows[i].row);
	free(rows);
	csvreader_close(&rd);
	return rc < 0 ? -1 : 0;
}

static int open_sources(struct merge *m, struct cs_error *err)
{
	for (size_t i = 0; i < m->n; i++) {
		if (m->parts[i].nrows == 0)
			continue;
		if (!m->parts[i].sorted) {
			if (cut_runs(m, i, err) < 0)
				return -1;
			continue;
		}
		struct source *s = new_source(m);
		s->part = i;
		if (open_part(m, i, &s->rd, err) < 0) {
			m->nsrc--;
			return -1;
		}
		if (source_next(m, s, err) < 0)
			return -1;
	}
	return 0;
}

/* The source whose row comes first in (row_id, part, row) order, or NULL. */
static struct source *first_source(struct merge *m)
{
	struct source *best = NULL;
	for (size_t i = 0; i < m->nsrc; i++) {
		struct source *s = &m->src[i];
		if (!s->has_row)
			continue;
		if (best == NULL || s->id < best->id ||
		    (s->id == best->id && (s->part < best->part || (s->part == best->part && s->index < best->index))))
			best = s;
	}
	return best;
}

/* Take every row with the smallest row_id, keep those that stay, write them. */
static int merge_group(struct merge *m, FILE *out, struct source *s, struct cs_error *err)
{
	uint64_t id = s->id;
	struct csvtable_row *rows = NULL;
	struct csvmerge_ref *refs = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	while (s != NULL && s->id == id) {
		if (n == cap) {
			cap = xgrow_cap(cap, n + 1, 16);
			rows = xreallocarray(rows, cap, sizeof *rows);
			refs = xreallocarray(refs, cap, sizeof *refs);
		}
		rows[n] = s->row;  /* taken: the source forgets it */
		refs[n] = (struct csvmerge_ref){ .id = id, .part = s->part, .row = s->index };
		n++;
		s->has_row = false;
		if (source_next(m, s, err) < 0) {
			rc = -1;
			break;
		}
		s = first_source(m);
	}
	if (rc == 0) {
		for (size_t i = 0; i < n; i++)
			refs[i].r = &rows[i];
		csvmerge_dedupe(refs, n);
		for (size_t i = 0; i < n && rc == 0; i++)
			if (refs[i].keep && writer_csv_cells(out, rows[i].cells, rows[i].ncells) < 0)
				rc = error_runtime(err, "merge: cannot write the result: %s", strerror(errno ? errno : EIO));
	}
	for (size_t i = 0; i < n; i++)
		csvtable_row_release(&rows[i]);
	free(rows);
	free(refs);
	return rc;
}

static void merge_release(struct merge *m)
{
	for (size_t i = 0; i < m->nsrc; i++) {
		if (m->src[i].has_row)
			csvtable_row_release(&m->src[i].row);
		csvreader_close(&m->src[i].rd);
	}
	free(m->src);
	for (size_t i = 0; i < m->n; i++)
		if (m->parts[i].spool != NULL)
			fclose(m->parts[i].spool);
	free(m->parts);
	if (m->header != NULL)
		for (size_t c = 0; c < m->ncols; c++)
			free(m->header[c]);
	free(m->header);
}

int csvmerge_files_max(const char *const names[], size_t n, const char *output, uint64_t spool_max,
		       struct cs_error *err)
{
	struct merge m = { .names = names, .n = n, .spool_max = spool_max };
	struct outfile out = { 0 };
	int rc = -1;

	if (n == 0)
		return error_set(err, "merge: no parts to merge");
	m.parts = xcalloc(n, sizeof *m.parts);
	for (size_t i = 0; i < n; i++) {
		m.parts[i].name = names[i];
		if (strcmp(names[i], "-") == 0 && spool_stdin(&m, &m.parts[i], err) < 0)
			goto out;
	}
	if (scan_parts(&m, err) < 0 || open_sources(&m, err) < 0)
		goto out;
	if (outfile_open(&out, output, err) < 0)
		goto out;
	if (writer_csv_cells(out.f, m.header, m.ncols) < 0) {
		outfile_abort(&out);
		error_runtime(err, "merge: cannot write the result: %s", strerror(errno ? errno : EIO));
		goto out;
	}
	for (struct source *s = first_source(&m); s != NULL; s = first_source(&m)) {
		if (merge_group(&m, out.f, s, err) < 0) {
			outfile_abort(&out);
			goto out;
		}
	}
	rc = outfile_commit(&out, err);
out:
	merge_release(&m);
	return rc;
}

int csvmerge_files(const char *const names[], size_t n, const char *output, struct cs_error *err)
{
	return csvmerge_files_max(names, n, output, CSVMERGE_SPOOL_MAX, err);
}
