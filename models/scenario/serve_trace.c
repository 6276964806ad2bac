#include "serve_trace.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/text.h"
#include "util/xalloc.h"

/* The longest prompt or output a trace row may give (as the scenario's
 * lengths), and the latest arrival (the engine's clock ends near 9e9 s). */
#define TRACE_TOKENS_MAX 4194304
#define TRACE_ARRIVAL_MAX_S 1e9

enum { COL_ARRIVAL, COL_PROMPT, COL_OUTPUT, N_COLS };
static const char *const col_names[N_COLS] = { "arrival_s", "prompt_tokens", "output_tokens" };

/* A cell longer than this is not a number anyone wrote. */
enum { CELL_MAX = 64, ROW_CELLS_MAX = 8 };

struct parse {
	const char *shown;
	size_t line;                  /* the line being parsed, from 1 */
	char cells[ROW_CELLS_MAX][CELL_MAX + 1];
	size_t ncells;                /* fields of the row so far (may exceed ROW_CELLS_MAX) */
	bool cell_too_long[ROW_CELLS_MAX];
	bool have_header;
	int col_of[N_COLS];           /* the header's position of each column */
	struct serve_trace *t;
	size_t cap;
	char *msg;
	size_t msg_size;
	bool failed;
};

static void parse_fail(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void parse_fail(struct parse *p, const char *fmt, ...)
{
	char reason[512];
	va_list ap;
	if (p->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	snprintf(p->msg, p->msg_size, "trace '%s': line %zu: %s", p->shown, p->line, reason);
	p->failed = true;
}

static void on_field(void *field, size_t len, void *data)
{
	struct parse *p = data;
	if (p->ncells < ROW_CELLS_MAX) {
		size_t n = len < CELL_MAX ? len : CELL_MAX;
		memcpy(p->cells[p->ncells], field != NULL ? field : "", field != NULL ? n : 0);
		p->cells[p->ncells][field != NULL ? n : 0] = '\0';
		p->cell_too_long[p->ncells] = len > CELL_MAX;
	}
	p->ncells++;
}

static void read_header(struct parse *p)
{
	for (int c = 0; c < N_COLS; c++)
		p->col_of[c] = -1;
	for (size_t i = 0; i < p->ncells && i < ROW_CELLS_MAX; i++) {
		int c = 0;
		while (c < N_COLS && strcmp(p->cells[i], col_names[c]) != 0)
			c++;
		if (c == N_COLS || p->cell_too_long[i]) {
			char q[96];
			text_quote(p->cells[i], q, sizeof q);
			parse_fail(p, "unknown column %s (the header is arrival_s,prompt_tokens,output_tokens)", q);
			return;
		}
		if (p->col_of[c] >= 0) {
			parse_fail(p, "column \"%s\" is given twice", col_names[c]);
			return;
		}
		p->col_of[c] = (int)i;
	}
	for (int c = 0; c < N_COLS; c++) {
		if (p->col_of[c] < 0) {
			parse_fail(p, "no column \"%s\" (the header is arrival_s,prompt_tokens,output_tokens)",
				   col_names[c]);
			return;
		}
	}
	p->have_header = true;
}

/* The cell of column c as a number; false after failing when it is not a finite one. */
static bool cell_number(struct parse *p, int c, double *out)
{
	int i = p->col_of[c];
	const char *s = p->cells[i];
	char *end;
	char q[96];

	errno = 0;
	*out = strtod(s, &end);
	if (p->cell_too_long[i] || s[0] == '\0' || *end != '\0' || errno == ERANGE || !isfinite(*out)) {
		text_quote(s, q, sizeof q);
		parse_fail(p, "%s: expected a number, got %s%s", col_names[c], q, p->cell_too_long[i] ? "..." : "");
		return false;
	}
	return true;
}

/* A whole number of tokens from 1 to TRACE_TOKENS_MAX. */
static bool cell_tokens(struct parse *p, int c, int *out)
{
	double v;
	if (!cell_number(p, c, &v))
		return false;
	if (v != floor(v) || v < 1 || v > TRACE_TOKENS_MAX) {
		char q[96];
		text_quote(p->cells[p->col_of[c]], q, sizeof q);
		parse_fail(p, "%s: expected an integer from 1 to %d, got %s", col_names[c], TRACE_TOKENS_MAX, q);
		return false;
	}
	*out = (int)v;
	return true;
}

static void read_request(struct parse *p)
{
	struct serve_request q;
	struct serve_trace *t = p->t;

	if (!cell_number(p, COL_ARRIVAL, &q.arrival_s) || !cell_tokens(p, COL_PROMPT, &q.prompt_tokens) ||
	    !cell_tokens(p, COL_OUTPUT, &q.output_tokens))
		return;
	if (q.arrival_s < 0 || q.arrival_s > TRACE_ARRIVAL_MAX_S) {
		parse_fail(p, "arrival_s: expected a number from 0 to %g, got %s", TRACE_ARRIVAL_MAX_S,
			   p->cells[p->col_of[COL_ARRIVAL]]);
		return;
	}
	if (t->n > 0 && q.arrival_s < t->requests[t->n - 1].arrival_s) {
		parse_fail(p, "arrival_s: %s is before the previous row's %.17g (arrivals never decrease)",
			   p->cells[p->col_of[COL_ARRIVAL]], t->requests[t->n - 1].arrival_s);
		return;
	}
	if (t->n == SERVE_TRACE_MAX_REQUESTS) {
		parse_fail(p, "more than %d requests", SERVE_TRACE_MAX_REQUESTS);
		return;
	}
	if (t->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 1024;
		t->requests = xreallocarray(t->requests, p->cap, sizeof *t->requests);
	}
	t->requests[t->n++] = q;
}

/* c: the character that ended the row, or -1 at the end of the input. */
static void on_row(int c, void *data)
{
	struct parse *p = data;
	(void)c;
	if (p->failed)
		return;
	if (p->ncells == 1 && p->cells[0][0] == '\0') {
		p->ncells = 0;  /* a line holding only spaces */
		return;
	}
	if (!p->have_header) {
		read_header(p);
	} else if (p->ncells != N_COLS) {
		parse_fail(p, "%zu fields, the header has %d", p->ncells, N_COLS);
	} else {
		read_request(p);
	}
	p->ncells = 0;
}

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t';
}

static void *csv_xrealloc(void *q, size_t n)
{
	return xreallocarray(q, n ? n : 1, 1);
}

struct serve_trace *serve_trace_read(FILE *f, const char *path, char *msg, size_t msg_size)
{
	struct csv_parser parser;
	struct parse p = { .shown = path, .line = 1, .msg = msg, .msg_size = msg_size };
	char *line = NULL;
	size_t linecap = 0;
	ssize_t got;

	p.t = xcalloc(1, sizeof *p.t);
	if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		snprintf(msg, msg_size, "trace '%s': cannot start the CSV parser", path);
		serve_trace_free(p.t);
		return NULL;
	}
	csv_set_space_func(&parser, is_space);
	csv_set_realloc_func(&parser, csv_xrealloc);
	csv_set_free_func(&parser, free);
	while (!p.failed && (got = getline(&line, &linecap, f)) >= 0) {
		size_t n = (size_t)got, skip = 0;
		/* a UTF-8 byte order mark (as spreadsheets write) is not part of the header */
		if (p.line == 1 && n >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
			skip = 3;
		if (memchr(line, '\0', n) != NULL)
			parse_fail(&p, "contains a NUL byte, not CSV text");
		else if (csv_parse(&parser, line + skip, n - skip, on_field, on_row, &p) != n - skip)
			parse_fail(&p, "malformed CSV: %s", csv_strerror(csv_error(&parser)));
		if (n > 0 && line[n - 1] == '\n')
			p.line++;
	}
	if (!p.failed && ferror(f))
		parse_fail(&p, "cannot read: %s", strerror(errno ? errno : EIO));
	if (!p.failed && csv_fini(&parser, on_field, on_row, &p) != 0)
		parse_fail(&p, "a quoted field is not closed at the end of the file");
	csv_free(&parser);
	free(line);
	if (!p.failed && (!p.have_header || p.t->n == 0)) {
		snprintf(msg, msg_size, "trace '%s': %s", path,
			 !p.have_header ? "no header line (an empty file); the header is arrival_s,prompt_tokens,output_tokens"
					: "no requests after the header");
		p.failed = true;
	}
	if (p.failed) {
		serve_trace_free(p.t);
		return NULL;
	}
	return p.t;
}

struct serve_trace *serve_trace_load(const char *path, char *msg, size_t msg_size)
{
	struct stat st;
	struct serve_trace *t;
	FILE *f = fopen(path, "rb");

	if (f == NULL) {
		snprintf(msg, msg_size, "trace '%s': cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		snprintf(msg, msg_size, "trace '%s': is a directory", path);
		return NULL;
	}
	t = serve_trace_read(f, path, msg, msg_size);
	fclose(f);
	return t;
}

void serve_trace_free(struct serve_trace *t)
{
	if (t == NULL)
		return;
	free(t->requests);
	free(t);
}
