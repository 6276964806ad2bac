#include "serve_trace.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/tracefile.h"
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
	struct tracefile tf;          /* the file, the line being parsed, the first failure */
	char cells[ROW_CELLS_MAX][CELL_MAX + 1];
	size_t ncells;                /* fields of the row so far (may exceed ROW_CELLS_MAX) */
	bool cell_too_long[ROW_CELLS_MAX];
	bool have_header;
	int col_of[N_COLS];           /* the header's position of each column */
	struct serve_trace *t;
	size_t cap;
};

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
			tracefile_fail(&p->tf, "unknown column %s (the header is arrival_s,prompt_tokens,output_tokens)", q);
			return;
		}
		if (p->col_of[c] >= 0) {
			tracefile_fail(&p->tf, "column \"%s\" is given twice", col_names[c]);
			return;
		}
		p->col_of[c] = (int)i;
	}
	for (int c = 0; c < N_COLS; c++) {
		if (p->col_of[c] < 0) {
			tracefile_fail(&p->tf, "no column \"%s\" (the header is arrival_s,prompt_tokens,output_tokens)",
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
		tracefile_fail(&p->tf, "%s: expected a number, got %s%s", col_names[c], q, p->cell_too_long[i] ? "..." : "");
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
		tracefile_fail(&p->tf, "%s: expected an integer from 1 to %d, got %s", col_names[c], TRACE_TOKENS_MAX, q);
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
		tracefile_fail(&p->tf, "arrival_s: expected a number from 0 to %g, got %s", TRACE_ARRIVAL_MAX_S,
			   p->cells[p->col_of[COL_ARRIVAL]]);
		return;
	}
	if (t->n > 0 && q.arrival_s < t->requests[t->n - 1].arrival_s) {
		tracefile_fail(&p->tf, "arrival_s: %s is before the previous row's %.17g (arrivals never decrease)",
			   p->cells[p->col_of[COL_ARRIVAL]], t->requests[t->n - 1].arrival_s);
		return;
	}
	if (t->n == SERVE_TRACE_MAX_REQUESTS) {
		tracefile_fail(&p->tf, "more than %d requests", SERVE_TRACE_MAX_REQUESTS);
		return;
	}
	t->requests = xgrow(t->requests, &p->cap, t->n + 1, sizeof *t->requests, 1024);
	t->requests[t->n++] = q;
}

/* c: the character that ended the row, or -1 at the end of the input. */
static void on_row(int c, void *data)
{
	struct parse *p = data;
	(void)c;
	if (p->tf.failed)
		return;
	if (p->ncells == 1 && p->cells[0][0] == '\0') {
		p->ncells = 0;  /* a line holding only spaces */
		return;
	}
	if (!p->have_header) {
		read_header(p);
	} else if (p->ncells != N_COLS) {
		tracefile_fail(&p->tf, "%zu fields, the header has %d", p->ncells, N_COLS);
	} else {
		read_request(p);
	}
	p->ncells = 0;
}

struct serve_trace *serve_trace_read(FILE *f, const char *path, char *msg, size_t msg_size)
{
	static const struct tracefile_syntax csv = { .delim = ',', .quoted = true };
	struct parse p = { .t = xcalloc(1, sizeof *p.t) };

	tracefile_init(&p.tf, path, msg, msg_size);
	if (tracefile_parse(&p.tf, f, &csv, on_field, on_row, &p) && (!p.have_header || p.t->n == 0)) {
		text_setf(msg, msg_size, "trace '%s': %s", path,
			 !p.have_header ? "no header line (an empty file); the header is arrival_s,prompt_tokens,output_tokens"
					: "no requests after the header");
		p.tf.failed = true;
	}
	if (p.tf.failed) {
		serve_trace_free(p.t);
		return NULL;
	}
	return p.t;
}

struct serve_trace *serve_trace_load(const char *path, char *msg, size_t msg_size)
{
	struct serve_trace *t;
	FILE *f = tracefile_open(path, msg, msg_size);

	if (f == NULL)
		return NULL;
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
