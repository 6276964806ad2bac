#include "fleet_trace.h"

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

/* The most GPUs one job may ask for. */
#define TRACE_GPUS_MAX 1000000
#define TRACE_SECONDS_MAX FLEET_TRACE_SECONDS_MAX

/* The columns either format reads. */
enum {
	COL_JOBID, COL_SUBMIT, COL_START, COL_END, COL_TRES, COL_PARTITION, COL_QOS, /* sacct */
	COL_SUBMIT_S, COL_GPUS, COL_DURATION_S, COL_TEAM,                            /* csv */
	N_COLS
};
static const char *const col_names[N_COLS] = {
	"JobID", "Submit", "Start", "End", "AllocTRES", "Partition", "QOS",
	"submit_s", "gpus", "duration_s", "team",
};

/* A cell longer than this is not a field either format has. */
enum { CELL_MAX = 1024 };

struct parse {
	struct tracefile tf;          /* the file, the line being parsed, the first failure */
	enum fleet_trace_format format;
	size_t field;                 /* the field of the row being parsed */
	char cells[N_COLS][CELL_MAX + 1];
	bool too_long[N_COLS];
	int col_of[N_COLS];           /* the header's position of each column, or -1 */
	bool have_header;
	struct fleet_trace *t;
	size_t cap;
	struct fleet_trace_limits lim;
	size_t rows;                  /* data rows read, skipped ones included */
	/* sacct: the earliest and latest submission replayed, and their lines */
	double first_s, last_s;
	size_t first_line, last_line;
	char first_cell[32], last_cell[32];
};

/* The header names of the format: [first, last). */
static void format_columns(enum fleet_trace_format f, int *first, int *last)
{
	*first = f == FLEET_TRACE_SACCT ? COL_JOBID : COL_SUBMIT_S;
	*last = f == FLEET_TRACE_SACCT ? COL_SUBMIT_S : N_COLS;
}

static void on_field(void *field, size_t len, void *data)
{
	struct parse *p = data;
	const char *s = field != NULL ? field : "";
	if (field == NULL)
		len = 0;
	if (!p->have_header) {
		int first, last;
		format_columns(p->format, &first, &last);
		for (int c = first; c < last; c++) {
			if (strlen(col_names[c]) != len || memcmp(col_names[c], s, len) != 0)
				continue;
			if (p->col_of[c] >= 0)
				tracefile_fail(&p->tf, "column \"%s\" is given twice", col_names[c]);
			p->col_of[c] = (int)p->field;
		}
		if (p->format == FLEET_TRACE_CSV) {
			bool known = false;
			for (int c = first; c < last; c++)
				known = known || p->col_of[c] == (int)p->field;
			if (!known && !(len == 0 && p->field == 0)) {
				char name[CELL_MAX + 1], q[96];
				snprintf(name, sizeof name, "%.*s", (int)(len < CELL_MAX ? len : CELL_MAX), s);
				text_quote(name, q, sizeof q);
				tracefile_fail(&p->tf, "unknown column %s (the header is submit_s,gpus,duration_s and optionally team)", q);
			}
		}
	} else {
		for (int c = 0; c < N_COLS; c++) {
			if (p->col_of[c] != (int)p->field)
				continue;
			size_t n = len < CELL_MAX ? len : CELL_MAX;
			memcpy(p->cells[c], s, n);
			p->cells[c][n] = '\0';
			p->too_long[c] = len > CELL_MAX;
		}
	}
	p->field++;
}

/* The header read: every column the format needs is there. */
static void check_header(struct parse *p)
{
	static const int sacct_needs[] = { COL_JOBID, COL_SUBMIT, COL_START, COL_END, COL_TRES };
	static const int csv_needs[] = { COL_SUBMIT_S, COL_GPUS, COL_DURATION_S };
	const int *needs = p->format == FLEET_TRACE_SACCT ? sacct_needs : csv_needs;
	size_t n = p->format == FLEET_TRACE_SACCT ? 5 : 3;
	for (size_t i = 0; i < n; i++) {
		if (p->col_of[needs[i]] < 0) {
			tracefile_fail(&p->tf, "no column \"%s\" (%s)", col_names[needs[i]],
				   p->format == FLEET_TRACE_SACCT
					   ? "an sacct --parsable2 header needs JobID, Submit, Start, End and AllocTRES"
					   : "the header is submit_s,gpus,duration_s and optionally team");
			return;
		}
	}
	p->have_header = true;
}

static bool leap_year(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int mo)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	return mo == 2 && leap_year(y) ? 29 : days[mo - 1];
}

/* The digits of s[at, at + n) as a number, or -1 when one is not a digit. */
static int digits(const char *s, int at, int n)
{
	int v = 0;
	for (int i = at; i < at + n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * sacct's YYYY-MM-DDTHH:MM:SS, every field its digits, as a time that
 * exists: a day of its month (February 29 only in leap years), hours 00 to
 * 23, minutes and seconds 00 to 59 (time_t, which sacct formats, has no
 * leap second), years 1970 to 9999. 0, or -1 (not that form) or -2 (no
 * such time) with why filled.
 */
static int parse_time(const char *s, double *out_s, char *why, size_t why_size)
{
	static const char *const months[12] = { "January", "February", "March", "April", "May", "June", "July",
						"August", "September", "October", "November", "December" };
	if (strlen(s) != 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
		return -1;
	int y = digits(s, 0, 4), mo = digits(s, 5, 2), d = digits(s, 8, 2);
	int h = digits(s, 11, 2), mi = digits(s, 14, 2), se = digits(s, 17, 2);
	if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || se < 0)
		return -1;
	if (y < 1970) {
		snprintf(why, why_size, "the year %d is before 1970", y);
		return -2;
	}
	if (mo < 1 || mo > 12) {
		snprintf(why, why_size, "there is no month %02d", mo);
		return -2;
	}
	if (d < 1 || d > days_in_month(y, mo)) {
		snprintf(why, why_size, "%s %d has %d days", months[mo - 1], y, days_in_month(y, mo));
		return -2;
	}
	if (h > 23 || mi > 59 || se > 59) {
		snprintf(why, why_size, "%s runs from 00 to %d", h > 23 ? "the hour" : mi > 59 ? "a minute" : "a second",
			 h > 23 ? 23 : 59);
		return -2;
	}
	/* days from civil (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms") */
	int yy = mo <= 2 ? y - 1 : y;
	int era = yy / 400;
	int yoe = yy - era * 400;
	int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	double days = (double)era * 146097 + doe - 719468;
	*out_s = days * 86400 + h * 3600 + mi * 60 + se;
	return 0;
}

int fleet_trace_parse_time(const char *s, double *out_s)
{
	char why[96];
	return parse_time(s, out_s, why, sizeof why) == 0 ? 0 : -1;
}

/* The cell of column c as a number; false after failing when it is not one. */
static bool cell_number(struct parse *p, int c, double lo, double hi, double *out)
{
	const char *s = p->cells[c];
	char *end;
	char q[96];
	errno = 0;
	*out = strtod(s, &end);
	if (p->too_long[c] || s[0] == '\0' || *end != '\0' || errno == ERANGE || !isfinite(*out) || *out < lo ||
	    *out > hi) {
		text_quote(s, q, sizeof q);
		tracefile_fail(&p->tf, "%s: expected a number from %g to %g, got %s", col_names[c], lo, hi, q);
		return false;
	}
	return true;
}

static void add_job(struct parse *p, const struct fleet_trace_job *j)
{
	struct fleet_trace *t = p->t;
	if (t->n == p->lim.jobs) {
		tracefile_fail(&p->tf, "more than %zu jobs to replay, the most a trace may hold (about %.0f bytes each "
			       "while a fleet runs); replay part of it", p->lim.jobs, FLEET_BYTES_PER_JOB);
		return;
	}
	t->jobs = xgrow(t->jobs, &p->cap, t->n + 1, sizeof *t->jobs, 1024);
	t->jobs[t->n++] = *j;
}

static bool set_team(struct parse *p, const char *s, struct fleet_trace_job *j)
{
	if (strlen(s) >= sizeof j->team) {
		char q[96];
		text_quote(s, q, sizeof q);
		tracefile_fail(&p->tf, "team: %s is longer than %zu characters", q, sizeof j->team - 1);
		return false;
	}
	text_copy(j->team, sizeof j->team, s);
	return true;
}

static void read_csv_job(struct parse *p)
{
	struct fleet_trace_job j = { .trace_wait_s = -1 };
	double gpus;
	if (!cell_number(p, COL_SUBMIT_S, 0, TRACE_SECONDS_MAX, &j.submit_s) ||
	    !cell_number(p, COL_GPUS, 1, TRACE_GPUS_MAX, &gpus) ||
	    !cell_number(p, COL_DURATION_S, 0, TRACE_SECONDS_MAX, &j.duration_s))
		return;
	if (gpus != floor(gpus)) {
		tracefile_fail(&p->tf, "gpus: expected a whole number, got %s", p->cells[COL_GPUS]);
		return;
	}
	j.gpus = (int)gpus;
	if (p->col_of[COL_TEAM] >= 0 && !set_team(p, p->cells[COL_TEAM], &j))
		return;
	j.team_source = j.team[0] != '\0' ? FLEET_TEAM_COLUMN : FLEET_TEAM_NONE;
	add_job(p, &j);
}

/* AllocTRES's GPUs: gres/gpu=N, else the sum of gres/gpu:TYPE=N; 0 when none. */
static bool tres_gpus(struct parse *p, const char *tres, long *out)
{
	long plain = -1, typed = 0;
	const char *s = tres;
	while (*s) {
		size_t n = strcspn(s, ",");
		const char *eq = memchr(s, '=', n);
		if (eq != NULL && strncmp(s, "gres/gpu", 8) == 0 && (s[8] == '=' || s[8] == ':')) {
			char *end;
			errno = 0;
			long v = strtol(eq + 1, &end, 10);
			if (end != s + n || eq + 1 == end || errno == ERANGE || v < 0 || v > TRACE_GPUS_MAX) {
				char item[128], q[160];
				snprintf(item, sizeof item, "%.*s", (int)(n < 100 ? n : 100), s);
				text_quote(item, q, sizeof q);
				tracefile_fail(&p->tf, "AllocTRES: expected gres/gpu=N with N a whole number up to %d, got %s",
					   TRACE_GPUS_MAX, q);
				return false;
			}
			if (s[8] == '=')
				plain = v;
			else
				typed += v;
		}
		s += n;
		if (*s == ',')
			s++;
	}
	*out = plain >= 0 ? plain : typed;
	return true;
}

/* A timestamp cell, or false (and *unset) for Unknown, None or empty. */
static bool cell_time(struct parse *p, int c, double *out, bool *unset)
{
	const char *s = p->cells[c];
	*unset = s[0] == '\0' || strcmp(s, "Unknown") == 0 || strcmp(s, "None") == 0;
	if (*unset)
		return false;
	char q[96], why[96];
	int rc = parse_time(s, out, why, sizeof why);
	text_quote(s, q, sizeof q);
	if (rc == -1) {
		tracefile_fail(&p->tf, "%s: expected a time such as 2024-03-01T12:00:00, got %s", col_names[c], q);
		return false;
	}
	if (rc < 0) {
		tracefile_fail(&p->tf, "%s: %s is not a valid time: %s", col_names[c], q, why);
		return false;
	}
	return true;
}

static void read_sacct_job(struct parse *p)
{
	struct fleet_trace_job j = { .trace_wait_s = -1 };
	double submit, start, end;
	bool unset;
	long gpus;

	if (strchr(p->cells[COL_JOBID], '.') != NULL) {
		p->t->skipped_steps++;
		return;
	}
	if (!tres_gpus(p, p->cells[COL_TRES], &gpus))
		return;
	if (!cell_time(p, COL_SUBMIT, &submit, &unset)) {
		if (unset)
			tracefile_fail(&p->tf, "Submit: expected a time such as 2024-03-01T12:00:00, got \"%s\"", p->cells[COL_SUBMIT]);
		return;
	}
	if (!cell_time(p, COL_START, &start, &unset) || !cell_time(p, COL_END, &end, &unset)) {
		if (unset && !p->tf.failed)
			p->t->skipped_not_run++;
		return;
	}
	if (gpus == 0) {
		p->t->skipped_no_gpus++;
		return;
	}
	if (start < submit) {
		tracefile_fail(&p->tf, "Start %s is before Submit %s", p->cells[COL_START], p->cells[COL_SUBMIT]);
		return;
	}
	if (end < start) {
		tracefile_fail(&p->tf, "End %s is before Start %s", p->cells[COL_END], p->cells[COL_START]);
		return;
	}
	if (end - start > TRACE_SECONDS_MAX) {
		tracefile_fail(&p->tf, "End %s is %.0f s after Start %s, more than the %.0f s (%.1f years) a job may run",
			       p->cells[COL_END], end - start, p->cells[COL_START], TRACE_SECONDS_MAX,
			       TRACE_SECONDS_MAX / (365.25 * 86400));
		return;
	}
	j.submit_s = submit;
	j.gpus = (int)gpus;
	j.duration_s = end - start;
	j.trace_wait_s = start - submit;
	const char *team = p->col_of[COL_PARTITION] >= 0 ? p->cells[COL_PARTITION] : "";
	j.team_source = team[0] != '\0' ? FLEET_TEAM_PARTITION : FLEET_TEAM_NONE;
	if (team[0] == '\0' && p->col_of[COL_QOS] >= 0) {
		team = p->cells[COL_QOS];
		j.team_source = team[0] != '\0' ? FLEET_TEAM_QOS : FLEET_TEAM_NONE;
	}
	if (!set_team(p, team, &j))
		return;
	add_job(p, &j);
	if (p->tf.failed)
		return;
	/* the span of the submissions replayed, checked at the end */
	if (p->t->n == 1 || submit < p->first_s) {
		p->first_s = submit;
		p->first_line = p->tf.line;
		text_copy(p->first_cell, sizeof p->first_cell, p->cells[COL_SUBMIT]);
	}
	if (p->t->n == 1 || submit > p->last_s) {
		p->last_s = submit;
		p->last_line = p->tf.line;
		text_copy(p->last_cell, sizeof p->last_cell, p->cells[COL_SUBMIT]);
	}
}

/* c: the character that ended the row, or -1 at the end of the input. */
static void on_row(int c, void *data)
{
	struct parse *p = data;
	size_t fields = p->field;
	(void)c;
	p->field = 0;
	if (p->tf.failed)
		return;
	if (!p->have_header) {
		check_header(p);
		return;
	}
	bool blank = fields == 1;
	for (int k = 0; k < N_COLS && blank; k++)
		blank = p->col_of[k] < 0 || p->cells[k][0] == '\0';
	if (blank && fields == 1)
		goto clear;  /* an empty line */
	if (++p->rows > p->lim.rows) {
		tracefile_fail(&p->tf, "more than %zu rows (job steps and jobs not replayed included), the most a trace "
			       "may have; give part of it", p->lim.rows);
		return;
	}
	int need = 0;
	for (int k = 0; k < N_COLS; k++)
		if (p->col_of[k] + 1 > need)
			need = p->col_of[k] + 1;
	if ((int)fields < need) {
		tracefile_fail(&p->tf, "%zu fields, the header names a column at field %d", fields, need);
		return;
	}
	if (p->format == FLEET_TRACE_SACCT)
		read_sacct_job(p);
	else
		read_csv_job(p);
clear:
	for (int k = 0; k < N_COLS; k++) {
		p->cells[k][0] = '\0';
		p->too_long[k] = false;
	}
}

static int job_order(const void *a, const void *b)
{
	/* every field, so that equal submissions sort the same on every libc */
	const struct fleet_trace_job *x = a, *y = b;
	if (x->submit_s != y->submit_s)
		return x->submit_s < y->submit_s ? -1 : 1;
	if (x->gpus != y->gpus)
		return x->gpus < y->gpus ? -1 : 1;
	if (x->duration_s != y->duration_s)
		return x->duration_s < y->duration_s ? -1 : 1;
	if (x->trace_wait_s != y->trace_wait_s)
		return x->trace_wait_s < y->trace_wait_s ? -1 : 1;
	return strcmp(x->team, y->team);
}

struct fleet_trace *fleet_trace_read(FILE *f, const char *path, enum fleet_trace_format format, char *msg,
				     size_t msg_size)
{
	static const struct fleet_trace_limits lim = { .jobs = FLEET_TRACE_MAX_JOBS, .rows = FLEET_TRACE_MAX_ROWS };
	return fleet_trace_read_limited(f, path, format, &lim, msg, msg_size);
}

struct fleet_trace *fleet_trace_read_limited(FILE *f, const char *path, enum fleet_trace_format format,
					     const struct fleet_trace_limits *lim, char *msg, size_t msg_size)
{
	/* sacct --parsable2: fields end at '|' and are never quoted */
	static const struct tracefile_syntax sacct = { .delim = '|', .quoted = false };
	static const struct tracefile_syntax csv = { .delim = ',', .quoted = true };
	struct parse *p = xcalloc(1, sizeof *p);
	struct fleet_trace *t;

	tracefile_init(&p->tf, path, msg, msg_size);
	p->format = format;
	p->lim = *lim;
	for (int c = 0; c < N_COLS; c++)
		p->col_of[c] = -1;
	p->t = t = xcalloc(1, sizeof *p->t);
	if (tracefile_parse(&p->tf, f, format == FLEET_TRACE_SACCT ? &sacct : &csv, on_field, on_row, p) &&
	    (!p->have_header || t->n == 0)) {
		if (!p->have_header)
			text_setf(msg, msg_size, "trace '%s': no header line (an empty file)", path);
		else
			text_setf(msg, msg_size, "trace '%s': no job to replay (%ld job steps, %ld jobs without GPUs, "
				 "%ld never started or not ended)", path, t->skipped_steps, t->skipped_no_gpus,
				 t->skipped_not_run);
		p->tf.failed = true;
	}
	if (!p->tf.failed && t->n > 0 && p->last_s - p->first_s > TRACE_SECONDS_MAX) {
		/* sacct's absolute times: the span is known at the end; name the latest */
		p->tf.line = p->last_line;
		tracefile_fail(&p->tf, "Submit %s is %.0f s (%.1f years) after the first, %s at line %zu: a trace "
			       "may span at most %.0f s (%.1f years)", p->last_cell, p->last_s - p->first_s,
			       (p->last_s - p->first_s) / (365.25 * 86400), p->first_cell, p->first_line,
			       TRACE_SECONDS_MAX, TRACE_SECONDS_MAX / (365.25 * 86400));
	}
	bool failed = p->tf.failed;
	free(p);
	if (failed) {
		fleet_trace_free(t);
		return NULL;
	}
	qsort(t->jobs, t->n, sizeof *t->jobs, job_order);
	double first = t->jobs[0].submit_s;
	for (size_t i = 0; i < t->n; i++)
		t->jobs[i].submit_s -= first;
	return t;
}

struct fleet_trace *fleet_trace_load(const char *path, enum fleet_trace_format format, char *msg,
				     size_t msg_size)
{
	struct fleet_trace *t;
	FILE *f = tracefile_open(path, msg, msg_size);

	if (f == NULL)
		return NULL;
	t = fleet_trace_read(f, path, format, msg, msg_size);
	fclose(f);
	return t;
}

void fleet_trace_free(struct fleet_trace *t)
{
	if (t == NULL)
		return;
	free(t->jobs);
	free(t);
}
