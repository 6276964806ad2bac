#include "csvreader.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/text.h"
#include "util/xalloc.h"

static void free_cells(char **cells, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(cells[i]);
	free(cells);
}

void csvtable_row_release(struct csvtable_row *r)
{
	free_cells(r->cells, r->ncells);
	memset(r, 0, sizeof *r);
}

static void on_field(void *field, size_t len, void *data)
{
	struct csvreader *r = data;
	r->cells = xgrow(r->cells, &r->cellcap, r->ncells + 1, sizeof *r->cells, 16);
	r->cells[r->ncells++] = xstrndup(field != NULL ? field : "", field != NULL ? len : 0);
	r->row_bytes += len + 1;
}

/* c is the character that ended the row, or -1 when csv_fini() ended it. */
static void on_row(int c, void *data)
{
	struct csvreader *r = data;
	struct csvtable_row *row;
	if (r->qhead + r->qlen == r->qcap) {
		if (r->qhead > 0) {
			memmove(r->queue, r->queue + r->qhead, r->qlen * sizeof *r->queue);
			r->qhead = 0;
		} else {
			r->queue = xgrow(r->queue, &r->qcap, r->qcap + 1, sizeof *r->queue, 8);
		}
	}
	row = &r->queue[r->qhead + r->qlen++];
	row->cells = r->cells;
	row->ncells = r->ncells;
	row->line = r->line;
	row->terminated = c != -1;
	r->cells = NULL;
	r->ncells = r->cellcap = 0;
	r->row_bytes = 0;
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

/* A defect: an error in strict mode; in salvage mode the end of the input
 * (the rows before it are kept). */
static int defect(struct csvreader *r, struct cs_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int defect(struct csvreader *r, struct cs_error *err, const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	r->at_end = true;
	if (r->mode != CSVTABLE_STRICT)
		return 0;
	va_start(ap, fmt);
	text_vsetf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	return error_set(err, "%s '%s': line %zu: %s", r->what, r->shown, r->line, reason);
}

/* Feed the next line to the parser (or finish it at the end of the input).
 * 0 when something was fed, -1 with err set on a defect in strict mode; in
 * salvage mode a defect ends the input. */
static int feed_line(struct csvreader *r, struct cs_error *err)
{
	size_t n;

	errno = 0;
	switch (text_read_line(r->f, &r->linebuf, &r->linecap, r->line_max, &n)) {
	case TEXT_LINE_ERROR: {
		int e = errno;
		r->at_end = true;
		return error_runtime(err, "%s '%s': cannot read: %s", r->what, r->shown, strerror(e ? e : EIO));
	}
	case TEXT_LINE_END:
		r->at_end = true;
		if (csv_fini(&r->parser, on_field, on_row, r) != 0 && r->mode == CSVTABLE_STRICT)
			return error_set(err, "%s '%s': line %zu: a quoted field is not closed at the end of the file",
					 r->what, r->shown, r->line);
		return 0;
	case TEXT_LINE_TOO_LONG:
		return defect(r, err, "a line longer than %zu bytes, the bound on a CSV line", r->line_max);
	case TEXT_LINE_OK:
		break;
	}
	r->bytes += n;
	const char *nul = memchr(r->linebuf, '\0', n);
	if (nul != NULL) {
		if (r->mode == CSVTABLE_STRICT)
			return defect(r, err, "contains a NUL byte, not CSV text");
		/* keep what came before it, as if the file ended there */
		n = (size_t)(nul - r->linebuf);
		r->at_end = true;
		if (csv_parse(&r->parser, r->linebuf, n, on_field, on_row, r) == n)
			csv_fini(&r->parser, on_field, on_row, r);
		return 0;
	}
	if (csv_parse(&r->parser, r->linebuf, n, on_field, on_row, r) != n)
		return defect(r, err, "malformed CSV: %s", csv_strerror(csv_error(&r->parser)));
	/* A quoted field may run on over lines: the row's fields so far and
	 * the field being parsed (libcsv's public entry_pos) are bounded too. */
	if (r->row_bytes + r->parser.entry_pos > r->line_max)
		return defect(r, err, "a row longer than %zu bytes, the bound on a CSV row (a quoted field runs on over its lines)",
			      r->line_max);
	if (n > 0 && r->linebuf[n - 1] == '\n')
		r->line++;
	return 0;
}

/* The next parsed row, reading as much as needed: 1, 0 at the end, -1. */
static int take_row(struct csvreader *r, struct csvtable_row *row, struct cs_error *err)
{
	while (r->qlen == 0 && !r->at_end)
		if (feed_line(r, err) < 0)
			return -1;
	if (r->qlen == 0)
		return 0;
	*row = r->queue[r->qhead++];
	r->qlen--;
	if (r->qlen == 0)
		r->qhead = 0;
	return 1;
}

static int open_common(struct csvreader *r, struct cs_error *err)
{
	struct csvtable_row head;
	int rc;

	if (csv_init(&r->parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		error_runtime(err, "%s '%s': cannot start the CSV parser", r->what, r->shown);
		goto fail;
	}
	csv_set_space_func(&r->parser, is_space);
	csv_set_realloc_func(&r->parser, csv_xrealloc);
	csv_set_free_func(&r->parser, free);
	r->line = 1;
	rc = take_row(r, &head, err);
	if (rc < 0)
		goto fail;
	if (rc == 0 || !head.terminated) {
		if (rc > 0)
			csvtable_row_release(&head);
		if (r->mode == CSVTABLE_STRICT) {
			error_set(err, "%s '%s': %s", r->what, r->shown,
				  rc > 0 ? "the header line has no newline at the end" : "no header line (an empty file)");
			goto fail;
		}
		r->at_end = true;  /* nothing to salvage without a header */
		return 0;
	}
	r->header = head.cells;
	r->ncols = head.ncells;
	return 0;
fail:
	csvreader_close(r);  /* a parser never started frees nothing */
	return -1;
}

int csvreader_open_stream_max(struct csvreader *r, FILE *f, const char *file, enum csvtable_mode mode,
			      const char *what, size_t line_max, struct cs_error *err)
{
	memset(r, 0, sizeof *r);
	r->f = f;
	r->mode = mode;
	r->what = what;
	r->line_max = line_max;
	r->shown = xstrdup(strcmp(file, "-") == 0 ? "<stdin>" : file);
	return open_common(r, err);
}

int csvreader_open_stream(struct csvreader *r, FILE *f, const char *file, enum csvtable_mode mode,
			  const char *what, struct cs_error *err)
{
	return csvreader_open_stream_max(r, f, file, mode, what, CSVREADER_LINE_MAX, err);
}

int csvreader_open(struct csvreader *r, const char *file, enum csvtable_mode mode, const char *what,
		   struct cs_error *err)
{
	const char *shown = strcmp(file, "-") == 0 ? "<stdin>" : file;
	struct stat st;
	FILE *f;

	memset(r, 0, sizeof *r);
	if (strcmp(file, "-") == 0)
		return csvreader_open_stream(r, stdin, file, mode, what, err);
	f = fopen(file, "rb");
	if (f == NULL)
		return error_set(err, "%s '%s': cannot open: %s", what, shown, strerror(errno));
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return error_set(err, "%s '%s': is a directory", what, shown);
	}
	memset(r, 0, sizeof *r);
	r->f = f;
	r->own_file = true;
	r->mode = mode;
	r->what = what;
	r->line_max = CSVREADER_LINE_MAX;
	r->shown = xstrdup(shown);
	return open_common(r, err);
}

int csvreader_next(struct csvreader *r, struct csvtable_row *row, struct cs_error *err)
{
	int rc;
	if (r->header == NULL)
		return 0;
	rc = take_row(r, row, err);
	if (rc <= 0 || r->mode != CSVTABLE_STRICT)
		return rc;
	if (row->ncells != r->ncols) {
		error_set(err, "%s '%s': line %zu: %zu fields, but the header has %zu", r->what, r->shown,
			  row->line, row->ncells, r->ncols);
		csvtable_row_release(row);
		return -1;
	}
	if (!row->terminated) {
		error_set(err, "%s '%s': line %zu: the last row has no newline at the end: the file may be cut short",
			  r->what, r->shown, row->line);
		csvtable_row_release(row);
		return -1;
	}
	return 1;
}

void csvreader_close(struct csvreader *r)
{
	if (r->f == NULL && r->shown == NULL)
		return;  /* never opened, or closed */
	csv_free(&r->parser);
	if (r->own_file)
		fclose(r->f);
	free(r->shown);
	free_cells(r->cells, r->ncells);
	for (size_t i = 0; i < r->qlen; i++)
		csvtable_row_release(&r->queue[r->qhead + i]);
	free(r->queue);
	free(r->linebuf);
	if (r->header != NULL)
		free_cells(r->header, r->ncols);
	memset(r, 0, sizeof *r);
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
