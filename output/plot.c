#include "plot.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "output/gpquote.h"
#include "output/results.h"
#include "util/text.h"
#include "util/xalloc.h"

const char *const plot_kind_names[PLOT_KIND_COUNT + 1] = {
	[PLOT_PARETO] = "pareto",
	[PLOT_BREAKDOWN] = "breakdown",
	[PLOT_SCALING] = "scaling",
	[PLOT_LATENCY] = "latency",
	[PLOT_COST] = "cost",
	[PLOT_SCATTER] = "scatter",
	[PLOT_WAITS] = "waits",
	[PLOT_TEAM_COST] = "team-cost",
	[PLOT_UTILIZATION] = "utilization",
	[PLOT_KIND_COUNT] = NULL,
};

/* The chart is 1600 x 1000 pixels with an 18-point font: a full slide
 * shown on a projector stays legible. */
enum { PLOT_WIDTH_PX = 1600, PLOT_HEIGHT_PX = 1000, PLOT_FONT_PT = 18 };

/* An axis spanning at least this ratio (all values positive) is drawn on
 * a log scale, where equal ratios look equal. */
static const double log_ratio = 20.0;

/* One charted row. */
struct point {
	size_t row;              /* index in the table's rows */
	double x;                /* unused by the bar charts */
	double *y;               /* frame.ny values, in frame.yv */
	char *label;             /* owned */
	size_t group;            /* index in frame.groups */
	bool dropped;            /* a duplicate of an earlier point */
};

struct kind_spec;

/* The rows a chart draws and the columns they come from. */
struct frame {
	const struct csvtable *t;
	const struct plot_request *req;
	const struct kind_spec *spec;
	int x_col;               /* -1 for the bar charts (the label is the x) */
	int label_col;           /* -1: rows are labelled by row_id or line */
	int group_col;           /* -1: one group */
	int y_cols[PLOT_Y_MAX];
	size_t ny;
	int id_col, cand_col;    /* row_id, candidate: -1 when the file has none */
	struct point *pts;
	size_t n;
	double *yv;              /* owned: the points' y values, ny a row */
	char **groups;           /* owned, in order of first appearance */
	size_t ngroups;
	size_t *members;         /* owned: the points of group 0, then 1..., each group's by x then row */
	size_t *group_start;     /* owned: group g's points are members[group_start[g] .. group_start[g + 1]) */
	char *title;             /* owned */
	bool multi_candidate;    /* team rows of several candidates: labels name the candidate too */
};

/* One chart kind: its title, the columns it reads by default, its plot
 * commands. A column spec "a|b" takes the first of them the file has;
 * "frac_*" is every column whose name starts with frac_. */
struct kind_spec {
	const char *title;
	const char *x;           /* NULL for the bar charts: their x is the label column */
	const char *y;           /* comma list */
	const char *group;       /* used when the file has it; NULL: none */
	const char *label;       /* the label column (the bar charts' x) */
	void (*emit)(FILE *f, const struct frame *fr);
	bool team_rows;          /* a fleet's team rows only: team set, class empty */
};

static void emit_pareto(FILE *f, const struct frame *fr);
static void emit_breakdown(FILE *f, const struct frame *fr);
static void emit_scaling(FILE *f, const struct frame *fr);
static void emit_latency(FILE *f, const struct frame *fr);
static void emit_cost(FILE *f, const struct frame *fr);
static void emit_scatter(FILE *f, const struct frame *fr);
static void emit_waits(FILE *f, const struct frame *fr);
static void emit_team_cost(FILE *f, const struct frame *fr);
static void emit_utilization(FILE *f, const struct frame *fr);

static const struct kind_spec kinds[PLOT_KIND_COUNT] = {
	[PLOT_PARETO] = { .title = "Wall time and cost, Pareto front", .x = "wall_time_p50_h",
			  .y = "cost_usd_p50", .group = "gpu", .label = "candidate", .emit = emit_pareto },
	[PLOT_BREAKDOWN] = { .title = "Where held GPU time goes", .x = NULL, .y = "frac_*",
			     .group = NULL, .label = "candidate", .emit = emit_breakdown },
	[PLOT_SCALING] = { .title = "Scaling with GPU count", .x = "gpus", .y = "tokens_per_s|throughput_tok_s",
			   .group = "gpu", .label = "candidate", .emit = emit_scaling },
	[PLOT_LATENCY] = { .title = "Serving latency against load", .x = "rate_per_s",
			   .y = "ttft_p50_ms,ttft_p99_ms,tpot_p50_ms,tpot_p99_ms", .group = "candidate",
			   .label = "candidate", .emit = emit_latency },
	[PLOT_COST] = { .title = "Dollars per million tokens", .x = NULL, .y = "usd_per_mtok", .group = NULL,
			.label = "candidate", .emit = emit_cost },
	[PLOT_SCATTER] = { .title = NULL, .x = NULL, .y = NULL, .group = NULL, .label = "candidate",
			   .emit = emit_scatter },
	[PLOT_WAITS] = { .title = "Queue wait per team", .x = NULL,
			 .y = "queue_wait_p50_h,queue_wait_p90_h,queue_wait_p99_h", .group = NULL, .label = "team",
			 .emit = emit_waits, .team_rows = true },
	[PLOT_TEAM_COST] = { .title = "Dollars per team", .x = NULL, .y = "usd_total,idle_usd", .group = NULL,
			     .label = "team", .emit = emit_team_cost, .team_rows = true },
	[PLOT_UTILIZATION] = { .title = "Utilization over time", .x = "time_h",
			       .y = "allocated_frac,busy_frac,queued_jobs", .group = "candidate", .label = "candidate",
			       .emit = emit_utilization },
};

/* Okabe and Ito's colour-blind-safe palette (2008, "Color Universal
 * Design"), its yellow replaced by grey and brown, which read on white. */
static const char *const palette[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#555555", "#8c564b",
};
enum { N_PALETTE = sizeof palette / sizeof palette[0] };
static const int point_types[N_PALETTE] = { 7, 5, 9, 11, 13, 15, 7, 5 };

bool plot_kind_parse(const char *name, enum plot_kind *out)
{
	for (int k = 0; k < PLOT_KIND_COUNT; k++)
		if (strcmp(name, plot_kind_names[k]) == 0) {
			*out = (enum plot_kind)k;
			return true;
		}
	return false;
}

bool plot_format_of(const char *path, enum plot_format *out)
{
	size_t n = strlen(path);
	if (n > 4 && strcasecmp(path + n - 4, ".png") == 0) {
		*out = PLOT_PNG;
		return true;
	}
	if (n > 4 && strcasecmp(path + n - 4, ".svg") == 0) {
		*out = PLOT_SVG;
		return true;
	}
	return false;
}

/* ---- text on the heap ---------------------------------------------------- */

/* A string built piece by piece, of any length (user text is never cut). */
struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	assert(n >= 0);
	b->s = xgrow(b->s, &b->cap, b->len + (size_t)n + 1, 1, 256);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* The string built (caller frees; "" when nothing was added). */
static char *sb_take(struct sbuf *b)
{
	char *s = b->s != NULL ? b->s : xstrdup("");
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

/* ---- the Pareto front ---------------------------------------------------- */

struct ranked {
	double x, y;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *p = a, *q = b;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	if (p->y != q->y)
		return p->y < q->y ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

void plot_pareto_front(const double *x, const double *y, size_t n, bool *on_front)
{
	struct ranked *r = xcalloc(n ? n : 1, sizeof *r);
	double best_y = INFINITY;

	for (size_t i = 0; i < n; i++) {
		r[i] = (struct ranked){ x[i], y[i], i };
		on_front[i] = false;
	}
	/* by x, then y: a point is on the front when its y beats every point
	 * before it (those have a smaller x, or the same x and no larger y) */
	qsort(r, n, sizeof *r, cmp_ranked);
	for (size_t k = 0; k < n; k++) {
		if (r[k].y < best_y) {
			on_front[r[k].i] = true;
			best_y = r[k].y;
		}
	}
	free(r);
}

/* ---- groups --------------------------------------------------------------- */

struct named {
	const char *name;
	size_t i;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *p = a, *q = b;
	int c = strcmp(p->name, q->name);
	return c != 0 ? c : p->i < q->i ? -1 : p->i > q->i;
}

size_t plot_groups(const char *const *names, size_t n, size_t *group_of)
{
	struct named *r = xcalloc(n ? n : 1, sizeof *r);
	size_t *run_of = xcalloc(n ? n : 1, sizeof *run_of), *run_first = xcalloc(n ? n : 1, sizeof *run_first);
	size_t *number = xcalloc(n ? n : 1, sizeof *number);
	size_t nruns = 0, ngroups = 0;

	for (size_t i = 0; i < n; i++)
		r[i] = (struct named){ names[i], i };
	/* equal names side by side, each run's first the earliest */
	qsort(r, n, sizeof *r, cmp_named);
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && strcmp(r[a].name, r[b].name) == 0; b++)
			;
		run_first[nruns] = r[a].i;
		for (size_t k = a; k < b; k++)
			run_of[r[k].i] = nruns;
		nruns++;
	}
	/* number the runs in the order their first names come */
	for (size_t i = 0; i < n; i++)
		if (run_first[run_of[i]] == i)
			number[run_of[i]] = ngroups++;
	for (size_t i = 0; i < n; i++)
		group_of[i] = number[run_of[i]];
	free(number);
	free(run_first);
	free(run_of);
	free(r);
	return ngroups;
}

/* ---- writing gnuplot ----------------------------------------------------- */

/* A number the script carries: every one is finite, since the values are
 * at most PLOT_VALUE_MAX in magnitude and the geometry is computed so as
 * not to overflow (text_format_real asserts it). */
static void num(FILE *f, double v)
{
	char buf[48];
	text_format_real(v, buf, sizeof buf);
	fputs(buf, f);
}

static const char *col_name(const struct frame *fr, int col)
{
	return col >= 0 ? fr->t->header[col] : "";
}

/* "NAME (UNIT)" from the table of columns (output/results.c), or the name
 * alone when it has no entry or its unit is text. Caller frees. */
static char *axis_label(const char *name)
{
	const struct results_column *info = results_column_info(name);
	if (info != NULL && strcmp(info->unit_text, "text") != 0)
		return xasprintf("%s (%s)", name, info->unit_text);
	return xstrdup(name);
}

static const char *unit_of(const char *name)
{
	const struct results_column *info = results_column_info(name);
	return info != NULL ? info->unit_text : "";
}

static void set_label(FILE *f, const char *axis, const char *text)
{
	fprintf(f, "set %slabel ", axis);
	gpquote_string(f, text);
	fputc('\n', f);
}

static void axis_label_set(FILE *f, const char *axis, const char *name)
{
	char *label = axis_label(name);
	set_label(f, axis, label);
	free(label);
}

struct range {
	double lo, hi;
};

static struct range range_empty(void)
{
	return (struct range){ INFINITY, -INFINITY };
}

static void range_add(struct range *r, double v)
{
	if (v < r->lo)
		r->lo = v;
	if (v > r->hi)
		r->hi = v;
}

static bool range_log(struct range r)
{
	return r.lo > 0 && r.hi >= log_ratio * r.lo;
}

/* A tick's text: "250", "2.5k", "1M", "$1.2M" (three significant digits). */
static void tick_text(double v, bool usd, char *buf, size_t size)
{
	static const struct {
		double at;
		const char *suffix;
	} si[] = { { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
	const char *sign = usd ? "$" : "";
	for (size_t i = 0; i < sizeof si / sizeof si[0]; i++)
		if (fabs(v) >= si[i].at && fabs(v) < 1e3 * si[0].at) {  /* past 1000T, "1e+15" */
			snprintf(buf, size, "%s%.3g%s", sign, v / si[i].at, si[i].suffix);
			return;
		}
	snprintf(buf, size, "%s%.3g", sign, v);
}

/* Decades a log axis writes a tick at, at most; past them, one decade in
 * every few (a range from 5e-324 to 1e300 would have 624). */
enum { LOG_TICKS_MAX = 12 };

/*
 * One axis: on a log scale (base 2 for counts that double, else 10) the
 * range is the data's (autoscale fix: no empty decades) and the ticks are
 * written out (1-1.5-2-3-5-7 within a decade, 1-2-5 within two, decades
 * beyond, every k-th decade past LOG_TICKS_MAX), each labelled
 * "2.5k" or "$1.2M"; on a linear scale the ticks are gnuplot's, labelled
 * the same way for big values and dollars. The offsets pad both. The
 * ticks are counted by integer exponents, so any finite positive range
 * (denormals included: 10^-324 is 0) ends; r is within PLOT_VALUE_MAX.
 */
static void axis_setup(FILE *f, const char *axis, struct range r, bool log_axis, int base, bool usd)
{
	char buf[48];
	if (!log_axis) {
		if (r.hi == r.lo) {
			/* one value: a range around it (gnuplot would warn and guess
			 * one); at least DBL_MIN wide, which a denormal's tenth is not */
			double d = r.lo != 0 ? fmax(fabs(r.lo) * 0.1, DBL_MIN) : 1;
			fprintf(f, "set %srange [", axis);
			num(f, r.lo - d);
			fputc(':', f);
			num(f, r.hi + d);
			fputs("]\n", f);
		} else {
			fprintf(f, "set autoscale %sfix\n", axis);
		}
		if (usd)
			fprintf(f, "set format %s '%s'\n", axis, r.hi >= 1e4 ? "$%.1s%c" : "$%g");
		else if (r.hi >= 1e5)
			fprintf(f, "set format %s '%%.1s%%c'\n", axis);
		return;
	}
	fprintf(f, "set logscale %s %d\nset autoscale %sfix\nset %stics (", axis, base, axis, axis);
	{
		/* within a decade 1-1.5-2-3-5-7, within two 1-2-5, beyond decades */
		static const double fine[] = { 1, 1.5, 2, 3, 5, 7 }, medium[] = { 1, 2, 5 }, coarse[] = { 1 };
		const double *mult = base == 2 ? coarse : r.hi < 10 * r.lo ? fine : r.hi < 100 * r.lo ? medium : coarse;
		size_t nmult = mult == fine ? 6 : mult == medium ? 3 : 1;
		bool first = true;
		double step = base == 2 ? 2 : 10;
		int e0 = (int)floor(log(r.lo) / log(step)), e1 = (int)ceil(log(r.hi) / log(step));
		int every = e1 - e0 > LOG_TICKS_MAX ? (e1 - e0 + LOG_TICKS_MAX - 1) / LOG_TICKS_MAX : 1;
		assert(r.lo > 0 && isfinite(r.hi) && e1 - e0 < 4096);
		for (int e = e0; e <= e1; e++) {
			double d = pow(step, e);
			if ((e % every + every) % every != 0)
				continue;
			for (size_t m = 0; m < nmult; m++) {
				double v = d * mult[m];
				if (!(v >= r.lo / 1.0001 && v <= r.hi * 1.0001) || !isfinite(v))
					continue;
				tick_text(v, usd, buf, sizeof buf);
				fprintf(f, "%s'%s' ", first ? "" : ", ", buf);
				num(f, v);
				first = false;
			}
		}
		if (first) {  /* no round value inside: the ends */
			tick_text(r.lo, usd, buf, sizeof buf);
			fprintf(f, "'%s' ", buf);
			num(f, r.lo);
			tick_text(r.hi, usd, buf, sizeof buf);
			fprintf(f, ", '%s' ", buf);
			num(f, r.hi);
		}
	}
	fputs(")\n", f);
}

static void title_set(FILE *f, const struct frame *fr)
{
	fputs("set title ", f);
	gpquote_string(f, fr->title);
	fputs(" font ',22'\n", f);
}

/* A block of inline data: `$NAME << EOD` ... `EOD`. */
static void block_open(FILE *f, const char *name, size_t i)
{
	fprintf(f, "$%s%zu << EOD\n", name, i);
}

static void block_close(FILE *f)
{
	fputs("EOD\n", f);
}

/* The points of group g, sorted by x then row (borrowed from the frame); *n their count. */
static const size_t *group_points(const struct frame *fr, size_t g, size_t *n)
{
	*n = fr->group_start[g + 1] - fr->group_start[g];
	return fr->members + fr->group_start[g];
}

/* One data block per group ($group0 ...): each point's x, then its y
 * columns, in the order of group_points. */
static void group_blocks(FILE *f, const struct frame *fr)
{
	for (size_t g = 0; g < fr->ngroups; g++) {
		size_t n;
		const size_t *idx = group_points(fr, g, &n);
		block_open(f, "group", g);
		for (size_t k = 0; k < n; k++) {
			num(f, fr->pts[idx[k]].x);
			for (size_t c = 0; c < fr->ny; c++) {
				fputc(' ', f);
				num(f, fr->pts[idx[k]].y[c]);
			}
			fputc('\n', f);
		}
		block_close(f);
	}
}

/* The plot clause of a reference line: a two-point block drawn dashed in
 * black, its value in the legend. */
static void ref_line_block(FILE *f, const char *name, double x0, double y0, double x1, double y1)
{
	fprintf(f, "$%s << EOD\n", name);
	num(f, x0);
	fputc(' ', f);
	num(f, y0);
	fputc('\n', f);
	num(f, x1);
	fputc(' ', f);
	num(f, y1);
	fputc('\n', f);
	block_close(f);
}

/* A limit the user gave (deadline, SLO): dark red, dashed; a budget: dark
 * green, dash-dotted, so the two read apart where both are drawn. */
static const char deadline_style[] = "dt 2 lw 4 lc rgb '#b2182b'";
static const char budget_style[] = "dt 4 lw 4 lc rgb '#1b7837'";

static void ref_line_plot(FILE *f, const char *name, const char *title, const char *style)
{
	fprintf(f, ", \\\n     $%s using 1:2 with lines %s title ", name, style);
	gpquote_string(f, title);
}

/* Whole dollars with thousands separators: "$1,500,000" (cents below $100).
 * Caller frees. */
static char *usd_text(double v)
{
	char buf[TEXT_USD_MAX];
	text_usd_cents(v, 100, buf, sizeof buf);
	return xstrdup(buf);
}

/* Where v falls on an axis drawn over r widened by the offsets lo_pad and
 * hi_pad (fractions of the span, as `set offsets graph`), from 0 to 1. */
static double axis_pos(double v, struct range r, bool log_axis, double lo_pad, double hi_pad)
{
	double a = log_axis ? log10(r.lo) : r.lo, b = log_axis ? log10(r.hi) : r.hi, x = log_axis ? log10(v) : v;
	double span = b - a > 0 ? b - a : fabs(a) > 0 ? fabs(a) : 1;
	a -= lo_pad * span;
	b += hi_pad * span;
	return (x - a) / (b - a);
}

/* The plot area and fonts in fractions of it: about 1390 x 740 pixels of
 * the 1600 x 1000 picture (the key is below it), a 15-point label about
 * 11 x 22 pixels a character, the terminal's 18-point `char` unit about
 * 11 x 27 (measured on pngcairo's DejaVu Sans). */
static const double label_char_w = 11.0 / 1390, label_h = 22.0 / 740;
static const double char_w = 11.0 / 1390, char_h = 27.0 / 740;

struct box {
	double x0, x1, y0, y1;
};

/* The right offset (a fraction of the x span, as `set offsets graph`) that
 * keeps every label inside the plot: a label starts right of its point and
 * is as wide as its text; at most 1.5 (a label wider than the plot sticks out). */
static double labels_right_pad(const struct frame *fr, const double *xs, const bool *labelled, struct range rx,
			       bool logx)
{
	double pad = 0.05;
	double a = logx ? log10(rx.lo) : rx.lo, b = logx ? log10(rx.hi) : rx.hi;
	double span = b - a > 0 ? b - a : 1;
	for (size_t i = 0; i < fr->n; i++) {
		double u, room, need;
		if (!labelled[i])
			continue;
		u = ((logx ? log10(xs[i]) : xs[i]) - a) / span;
		room = 0.99 - 1.2 * char_w - (double)strlen(fr->pts[i].label) * label_char_w;
		need = room > 0.1 ? (u + 0.03) / room - 1 - 0.03 : 1.5;
		if (need > pad)
			pad = need < 1.5 ? need : 1.5;
	}
	return pad;
}

static bool overlaps(const struct box *a, const struct box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/*
 * The points that get a label (a new array, caller frees): every point up
 * to PLOT_LABEL_ALL_MAX points, the front's beyond, and of a front longer
 * than PLOT_LABELS_MAX that many, spread evenly along it by x (both ends
 * among them). At most max(PLOT_LABEL_ALL_MAX, PLOT_LABELS_MAX) labels,
 * so placing them (quadratic in their number) takes bounded time.
 */
static bool *label_choice(const struct frame *fr, const double *xs, const double *ys, const bool *front)
{
	bool *labelled = xcalloc(fr->n ? fr->n : 1, sizeof *labelled);
	struct ranked *r;
	size_t m = 0;

	if (fr->n <= PLOT_LABEL_ALL_MAX) {
		for (size_t i = 0; i < fr->n; i++)
			labelled[i] = true;
		return labelled;
	}
	r = xcalloc(fr->n, sizeof *r);
	for (size_t i = 0; i < fr->n; i++)
		if (front[i])
			r[m++] = (struct ranked){ xs[i], ys[i], i };
	if (m <= PLOT_LABELS_MAX) {
		for (size_t k = 0; k < m; k++)
			labelled[r[k].i] = true;
	} else {
		qsort(r, m, sizeof *r, cmp_ranked);
		for (size_t k = 0; k < PLOT_LABELS_MAX; k++)
			labelled[r[k * (m - 1) / (PLOT_LABELS_MAX - 1)].i] = true;
	}
	free(r);
	return labelled;
}

/* Labels top to bottom, then left to right, then in the points' order. */
static const double *order_xs, *order_ys;

static int cmp_label_order(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	if (order_ys[i] != order_ys[j])
		return order_ys[i] > order_ys[j] ? -1 : 1;
	if (order_xs[i] != order_xs[j])
		return order_xs[i] < order_xs[j] ? -1 : 1;
	return i < j ? -1 : i > j;
}

/*
 * Each labelled point's label (label_choice) as a `set label` right of it,
 * moved up or down by a line at a time until it overlaps no label placed
 * before (top to bottom), so nearby points stay readable. O(m^2) in the m
 * labels, which label_choice bounds. Returns the labels set.
 */
static size_t place_labels(FILE *f, const struct frame *fr, const double *xs, const double *ys,
			   const bool *labelled, struct range rx, struct range ry, bool logx, bool logy,
			   double right_pad)
{
	static const double tries[] = { 0.6, -0.6, 1.6, -1.6, 2.6, -2.6, 3.6, -3.6 };
	size_t *order = xcalloc(fr->n ? fr->n : 1, sizeof *order), m = 0, np = 0;
	struct box *placed;

	for (size_t i = 0; i < fr->n; i++)
		if (labelled[i])
			order[m++] = i;
	placed = xcalloc(m ? m : 1, sizeof *placed);
	order_xs = xs;
	order_ys = ys;
	qsort(order, m, sizeof *order, cmp_label_order);
	for (size_t k = 0; k < m; k++) {
		size_t i = order[k];
		double px = axis_pos(xs[i], rx, logx, 0.03, right_pad), py = axis_pos(ys[i], ry, logy, 0.08, 0.08);
		double w = (double)strlen(fr->pts[i].label) * label_char_w, dy = tries[0];
		for (size_t t = 0; t < sizeof tries / sizeof tries[0]; t++) {
			struct box b = { px + 1.2 * char_w, px + 1.2 * char_w + w, py + tries[t] * char_h - label_h / 2,
					 py + tries[t] * char_h + label_h / 2 };
			bool clear = b.y0 >= 0 && b.y1 <= 1;  /* inside the plot */
			for (size_t p = 0; p < np && clear; p++)
				clear = !overlaps(&b, &placed[p]);
			if (clear || t + 1 == sizeof tries / sizeof tries[0]) {
				dy = clear ? tries[t] : tries[0];
				placed[np++] = (struct box){ b.x0, b.x1, py + dy * char_h - label_h / 2,
							     py + dy * char_h + label_h / 2 };
				break;
			}
		}
		fprintf(f, "set label %zu ", k + 1);
		gpquote_string(f, fr->pts[i].label);
		fputs(" at ", f);
		num(f, xs[i]);
		fputs(", ", f);
		num(f, ys[i]);
		fprintf(f, " left offset char 1.2,%.1f font ',15' front\n", dy);
	}
	free(order);
	free(placed);
	return m;
}

/* ---- the charts ---------------------------------------------------------- */

static void emit_pareto(FILE *f, const struct frame *fr)
{
	const struct plot_request *q = fr->req;
	double *xs = xcalloc(fr->n, sizeof *xs), *ys = xcalloc(fr->n, sizeof *ys);
	bool *front = xcalloc(fr->n, sizeof *front), *labelled;
	size_t nf = 0;
	struct range rx = range_empty(), ry = range_empty();
	bool logx, logy;
	double right_pad;

	for (size_t i = 0; i < fr->n; i++) {
		xs[i] = fr->pts[i].x;
		ys[i] = fr->pts[i].y[0];
		range_add(&rx, xs[i]);
		range_add(&ry, ys[i]);
	}
	plot_pareto_front(xs, ys, fr->n, front);
	if (q->deadline_h > 0)
		range_add(&rx, q->deadline_h);
	if (q->budget_usd > 0)
		range_add(&ry, q->budget_usd);
	logx = range_log(rx);
	logy = range_log(ry);
	for (size_t i = 0; i < fr->n; i++)
		nf += front[i];
	fprintf(f, "# the Pareto front: %zu of %zu points that no other point beats in both ", nf, fr->n);
	gpquote_comment(f, col_name(fr, fr->x_col));
	fputs(" and ", f);
	gpquote_comment(f, col_name(fr, fr->y_cols[0]));
	fputc('\n', f);
	axis_label_set(f, "x", col_name(fr, fr->x_col));
	axis_label_set(f, "y", col_name(fr, fr->y_cols[0]));
	axis_setup(f, "x", rx, logx, 10, strcmp(unit_of(col_name(fr, fr->x_col)), "USD") == 0);
	axis_setup(f, "y", ry, logy, 10, strcmp(unit_of(col_name(fr, fr->y_cols[0])), "USD") == 0);
	/* room at the right for the labels, which are written right of their points */
	labelled = label_choice(fr, xs, ys, front);
	right_pad = labels_right_pad(fr, xs, labelled, rx, logx);
	fprintf(f, "set offsets graph 0.03, graph %.3f, graph 0.08, graph 0.08\n", right_pad);
	fputs("set key below horizontal spacing 1.2 height 1.5\n", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		size_t n;
		const size_t *idx = group_points(fr, g, &n);
		block_open(f, "group", g);
		for (size_t k = 0; k < n; k++) {
			num(f, xs[idx[k]]);
			fputc(' ', f);
			num(f, ys[idx[k]]);
			fputc('\n', f);
		}
		block_close(f);
	}
	/* the front, in order of x (then y falls) */
	{
		struct ranked *r = xcalloc(fr->n ? fr->n : 1, sizeof *r);
		size_t m = 0;
		for (size_t i = 0; i < fr->n; i++)
			if (front[i])
				r[m++] = (struct ranked){ xs[i], ys[i], i };
		qsort(r, m, sizeof *r, cmp_ranked);
		block_open(f, "front", 0);
		for (size_t k = 0; k < m; k++) {
			num(f, r[k].x);
			fputc(' ', f);
			num(f, r[k].y);
			fputc('\n', f);
		}
		block_close(f);
		free(r);
	}
	place_labels(f, fr, xs, ys, labelled, rx, ry, logx, logy, right_pad);
	if (q->deadline_h > 0)
		ref_line_block(f, "deadline", q->deadline_h, ry.lo, q->deadline_h, ry.hi);
	if (q->budget_usd > 0)
		ref_line_block(f, "budget", rx.lo, q->budget_usd, rx.hi, q->budget_usd);
	title_set(f, fr);
	fputs("plot ", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		fprintf(f, "%s$group%zu using 1:2 with points lt %zu ps 2.5 title ", g ? ", \\\n     " : "", g,
			g % N_PALETTE + 1);
		gpquote_string(f, fr->groups[g]);
	}
	fprintf(f, ", \\\n     $front0 using 1:2 with linespoints lw 3 lc rgb '#222222' pt 6 ps 4 title "
		   "'Pareto front'");
	if (q->deadline_h > 0) {
		char v[48], *t;
		text_format_real(q->deadline_h, v, sizeof v);
		t = xasprintf("deadline %s h", v);
		ref_line_plot(f, "deadline", t, deadline_style);
		free(t);
	}
	if (q->budget_usd > 0) {
		char *v = usd_text(q->budget_usd), *t = xasprintf("budget %s", v);
		ref_line_plot(f, "budget", t, budget_style);
		free(t);
		free(v);
	}
	fputc('\n', f);
	free(labelled);
	free(front);
	free(xs);
	free(ys);
}

/* A frac_ column's name in a legend: "frac_comm_exposed" -> "comm exposed". Caller frees. */
static char *series_name(const char *col)
{
	const char *s = strncmp(col, "frac_", 5) == 0 ? col + 5 : col;
	char *name = xstrdup(s);
	if (s != col)
		for (char *c = name; *c; c++)
			if (*c == '_')
				*c = ' ';
	return name;
}

static bool all_fractions(const struct frame *fr)
{
	for (size_t k = 0; k < fr->ny; k++)
		if (strcmp(unit_of(col_name(fr, fr->y_cols[k])), "fraction") != 0)
			return false;
	return true;
}

/* Horizontal bars, the first row at the top, so that long candidate names
 * read level at the left: the y axis of both bar charts. */
static void bars_y_axis(FILE *f, const struct frame *fr)
{
	fprintf(f, "set yrange [-0.6:%zu.6]\nset ytics nomirror scale 0\n", fr->n - 1);
	set_label(f, "y", col_name(fr, fr->label_col));
	fputs("set grid xtics noytics\n", f);
}

/* The bar of row k (0 first) sits at y = n - 1 - k. */
static void bar_head(FILE *f, const struct frame *fr, size_t k, const char *label)
{
	gpquote_data(f, label);
	fprintf(f, " %zu", fr->n - 1 - k);
}

static void emit_breakdown(FILE *f, const struct frame *fr)
{
	bool fractions = all_fractions(fr);

	fputs("# one horizontal bar per row, its columns stacked left to right in the order of the file;\n"
	      "# the block holds each bar's label, its y, then the running sums that bound its segments\n", f);
	fputs("set style fill solid 0.9 border rgb '#222222'\n", f);
	if (fractions) {
		/* the frac_ columns split the GPUs' wall-clock time and add up to 1 */
		set_label(f, "x", "share of held GPU time (fraction)");
		fputs("set xrange [0:1]\nset xtics 0.1\n", f);
	} else {
		struct sbuf b = { 0 };
		char *label;
		for (size_t k = 0; k < fr->ny; k++)
			sb_printf(&b, "%s%s", k ? " + " : "", col_name(fr, fr->y_cols[k]));
		label = sb_take(&b);
		set_label(f, "x", label);
		free(label);
		fputs("set xrange [0:*]\n", f);
	}
	bars_y_axis(f, fr);
	fputs("set key below horizontal spacing 1.2 height 1.5\n", f);
	block_open(f, "bars", 0);
	for (size_t i = 0; i < fr->n; i++) {
		double sum = 0;
		bar_head(f, fr, i, fr->pts[i].label);
		fputs(" 0", f);
		for (size_t k = 0; k < fr->ny; k++) {
			sum += fr->pts[i].y[k];
			fputc(' ', f);
			num(f, sum);
		}
		fputc('\n', f);
	}
	block_close(f);
	title_set(f, fr);
	fputs("plot ", f);
	for (size_t k = 0; k < fr->ny; k++) {
		size_t lo = k + 3, hi = k + 4;
		char *name = series_name(col_name(fr, fr->y_cols[k]));
		fprintf(f, "%s$bars0 using (($%zu+$%zu)/2):2:%zu:%zu:($2-0.35):($2+0.35)%s with boxxyerror lt %zu title ",
			k ? ", \\\n     " : "", lo, hi, lo, hi, k == 0 ? ":ytic(1)" : "", k % N_PALETTE + 1);
		gpquote_string(f, name);
		free(name);
	}
	fputc('\n', f);
}

/* How ideal scaling moves a column with the GPU count: a rate grows with
 * it, a time shrinks as its inverse, anything else has no ideal line. */
enum ideal { IDEAL_NONE, IDEAL_PROPORTIONAL, IDEAL_INVERSE };

static enum ideal ideal_of(const char *col)
{
	const char *u = unit_of(col);
	size_t n = strlen(u);
	if (strcmp(u, "s") == 0 || strcmp(u, "h") == 0 || strcmp(u, "ms") == 0 || strcmp(u, "us") == 0)
		return IDEAL_INVERSE;
	if (n > 2 && strcmp(u + n - 2, "/s") == 0)
		return IDEAL_PROPORTIONAL;
	return IDEAL_NONE;
}

static void distinct_xtics(FILE *f, const struct frame *fr)
{
	double *v = xcalloc(fr->n ? fr->n : 1, sizeof *v);
	size_t m = 0;
	for (size_t i = 0; i < fr->n && m <= 16; i++) {  /* past 16 counts, gnuplot's own ticks */
		size_t k = 0;
		while (k < m && v[k] != fr->pts[i].x)
			k++;
		if (k == m)
			v[m++] = fr->pts[i].x;
	}
	if (m <= 16) {
		/* the counts themselves, in increasing order */
		for (size_t a = 1; a < m; a++)
			for (size_t b = a; b > 0 && v[b - 1] > v[b]; b--) {
				double t = v[b];
				v[b] = v[b - 1];
				v[b - 1] = t;
			}
		fputs("set xtics (", f);
		for (size_t k = 0; k < m; k++) {
			if (k)
				fputs(", ", f);
			num(f, v[k]);
		}
		fputs(")\n", f);
	}
	free(v);
}

/* The points of a group that its line joins: at each GPU count the best
 * (the highest rate, the lowest time; the first in the file otherwise),
 * so that several configurations at one count (a sweep over presets of
 * one GPU) draw a line, not a zigzag. idx is sorted by x; the kept
 * indices go into best, their count returned. */
static size_t best_per_x(const struct frame *fr, const size_t *idx, size_t n, enum ideal ideal, size_t *best)
{
	size_t m = 0;
	for (size_t k = 0; k < n; k++) {
		const struct point *p = &fr->pts[idx[k]];
		if (m > 0 && fr->pts[best[m - 1]].x == p->x) {
			double have = fr->pts[best[m - 1]].y[0];
			if ((ideal == IDEAL_PROPORTIONAL && p->y[0] > have) || (ideal == IDEAL_INVERSE && p->y[0] < have))
				best[m - 1] = idx[k];
			continue;
		}
		best[m++] = idx[k];
	}
	return m;
}

static void xy_block(FILE *f, const struct frame *fr, const char *name, size_t g, const size_t *idx, size_t n)
{
	block_open(f, name, g);
	for (size_t k = 0; k < n; k++) {
		num(f, fr->pts[idx[k]].x);
		fputc(' ', f);
		num(f, fr->pts[idx[k]].y[0]);
		fputc('\n', f);
	}
	block_close(f);
}

static void emit_scaling(FILE *f, const struct frame *fr)
{
	const char *ycol = col_name(fr, fr->y_cols[0]);
	enum ideal ideal = ideal_of(ycol);
	struct range rx = range_empty(), ry = range_empty();
	bool loglog, *crowded = xcalloc(fr->ngroups ? fr->ngroups : 1, sizeof *crowded);
	double *base_x = xcalloc(fr->ngroups ? fr->ngroups : 1, sizeof *base_x);

	for (size_t i = 0; i < fr->n; i++) {
		range_add(&rx, fr->pts[i].x);
		range_add(&ry, fr->pts[i].y[0]);
	}
	/* GPU counts double from point to point: past 8x, log-log axes, where
	 * ideal scaling is a straight line of slope 1 (or -1 for a time) */
	loglog = rx.lo > 0 && ry.lo > 0 && rx.hi >= 8 * rx.lo;
	fprintf(f, "# ideal: %s\n", ideal == IDEAL_PROPORTIONAL ? "y0 x x / x0 from each group's smallest point (a rate)" :
		ideal == IDEAL_INVERSE ? "y0 x x0 / x from each group's smallest point (a time)" :
		"none (the y column is neither a rate nor a time)");
	fprintf(f, "# each line joins its group's best point at each x (%s); every point is drawn\n",
		ideal == IDEAL_PROPORTIONAL ? "the highest" : ideal == IDEAL_INVERSE ? "the lowest" : "the first");
	axis_label_set(f, "x", col_name(fr, fr->x_col));
	axis_label_set(f, "y", ycol);
	axis_setup(f, "y", ry, loglog, 10, strcmp(unit_of(ycol), "USD") == 0);
	if (loglog)
		fputs("set logscale x 2\nset autoscale xfix\n", f);
	else
		axis_setup(f, "x", rx, false, 10, false);
	distinct_xtics(f, fr);
	fputs("set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n", f);
	fputs("set key outside right top vertical spacing 1.2\n", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		size_t n, *best, m;
		const size_t *idx = group_points(fr, g, &n);
		const struct point *b0;
		double *ideal_y = NULL;

		best = xcalloc(n ? n : 1, sizeof *best);
		m = best_per_x(fr, idx, n, ideal, best);
		b0 = &fr->pts[best[0]];
		xy_block(f, fr, "group", g, best, m);
		if (m < n) {
			crowded[g] = true;
			xy_block(f, fr, "all", g, idx, n);
		}
		if (ideal != IDEAL_NONE && b0->x > 0) {
			/* y0 x (x / x0) or y0 x (x0 / x): no line where it overflows
			 * (a tiny x0 with a huge y0), rather than an infinite point */
			ideal_y = xcalloc(m, sizeof *ideal_y);
			base_x[g] = b0->x;
			for (size_t k = 0; k < m && base_x[g] > 0; k++) {
				double x = fr->pts[best[k]].x;
				ideal_y[k] = ideal == IDEAL_PROPORTIONAL ? b0->y[0] * x / b0->x : b0->y[0] * b0->x / x;
				if (!isfinite(ideal_y[k]))
					base_x[g] = 0;
			}
		}
		if (base_x[g] > 0) {
			block_open(f, "ideal", g);
			for (size_t k = 0; k < m; k++) {
				num(f, fr->pts[best[k]].x);
				fputc(' ', f);
				num(f, ideal_y[k]);
				fputc('\n', f);
			}
			block_close(f);
		}
		free(ideal_y);
		free(best);
	}
	title_set(f, fr);
	fputs("plot ", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		fprintf(f, "%s$group%zu using 1:2 with linespoints lt %zu ps 2.5 title ", g ? ", \\\n     " : "", g,
			g % N_PALETTE + 1);
		gpquote_string(f, fr->groups[g]);
		if (crowded[g])
			fprintf(f, ", \\\n     $all%zu using 1:2 with points lt %zu pt 6 ps 2 notitle", g, g % N_PALETTE + 1);
		if (base_x[g] > 0) {
			char v[48], *t;
			text_format_real(base_x[g], v, sizeof v);
			t = xasprintf("%s, ideal from %s", fr->groups[g], v);
			fprintf(f, ", \\\n     $ideal%zu using 1:2 with lines lt %zu dt 2 lw 2 title ", g, g % N_PALETTE + 1);
			gpquote_string(f, t);
			free(t);
		}
	}
	fputc('\n', f);
	free(base_x);
	free(crowded);
}

/* A latency column's family: "ttft_p99_ms" -> "ttft" (the name before
 * "_p" and a digit), else the whole name. */
static size_t family_len(const char *col)
{
	for (const char *p = col; (p = strstr(p, "_p")) != NULL; p++)
		if (p[2] >= '0' && p[2] <= '9')
			return (size_t)(p - col);
	return strlen(col);
}

/* The percentile part of a latency column for a legend: "ttft_p99_ms" -> "p99".
 * Caller frees. */
static char *percentile_name(const char *col)
{
	size_t fl = family_len(col), n;
	const char *p = col + fl + (col[fl] == '_');
	n = strcspn(p, "_");
	return n ? xstrndup(p, n) : xstrdup(col);
}

static void emit_latency(FILE *f, const struct frame *fr)
{
	const struct plot_request *q = fr->req;
	size_t panel_of[PLOT_Y_MAX], first[PLOT_Y_MAX], npanels = 0;
	struct range rx = range_empty();

	/* one panel per family (TTFT, TPOT...), in the order of --y */
	for (size_t k = 0; k < fr->ny; k++) {
		const char *c = col_name(fr, fr->y_cols[k]);
		size_t p = 0;
		while (p < npanels && !(family_len(c) == family_len(col_name(fr, fr->y_cols[first[p]])) &&
					strncmp(c, col_name(fr, fr->y_cols[first[p]]), family_len(c)) == 0))
			p++;
		if (p == npanels)
			first[npanels++] = k;
		panel_of[k] = p;
	}
	for (size_t i = 0; i < fr->n; i++)
		range_add(&rx, fr->pts[i].x);
	fprintf(f, "# %zu panels; in each, one colour per ", npanels);
	gpquote_comment(f, fr->group_col >= 0 ? col_name(fr, fr->group_col) : "chart");
	fputs(", p50 solid and higher percentiles dashed\n", f);
	group_blocks(f, fr);
	fprintf(f, "set multiplot layout 1,%zu title ", npanels);
	gpquote_string(f, fr->title);
	fputs(" font ',22'\n", f);
	axis_label_set(f, "x", col_name(fr, fr->x_col));
	axis_setup(f, "x", rx, range_log(rx), 10, false);
	fputs("set key outside below vertical maxrows 4 height 1.5\n", f);
	fputs("set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n", f);
	for (size_t p = 0; p < npanels; p++) {
		const char *fam = col_name(fr, fr->y_cols[first[p]]);
		size_t fl = family_len(fam);
		const struct results_column *info = results_column_info(fam);
		double slo = strncmp(fam, "ttft", fl) == 0 && fl == 4 ? q->slo_ttft_ms :
			     strncmp(fam, "tpot", fl) == 0 && fl == 4 ? q->slo_tpot_ms : 0;
		struct range ry = range_empty();
		struct sbuf b = { 0 };
		char *text;
		size_t dash = 0;
		bool any = false;

		for (size_t i = 0; i < fr->n; i++)
			for (size_t k = 0; k < fr->ny; k++)
				if (panel_of[k] == p)
					range_add(&ry, fr->pts[i].y[k]);
		if (slo > 0)
			range_add(&ry, slo);
		/* the panel's title: the family in capitals and what it is ("time to first token") */
		text = xstrndup(fam, fl);
		for (char *c = text; *c; c++)
			if (*c >= 'a' && *c <= 'z')
				*c = (char)(*c - 'a' + 'A');
		sb_printf(&b, "%s", text);
		free(text);
		if (info != NULL)
			sb_printf(&b, ": %.*s", (int)strcspn(info->meaning, ","), info->meaning);
		text = sb_take(&b);
		fputs("set title ", f);
		gpquote_string(f, text);
		fputc('\n', f);
		free(text);
		for (size_t k = 0; k < fr->ny; k++)
			if (panel_of[k] == p) {
				sb_printf(&b, "%s%s", any ? ", " : "", col_name(fr, fr->y_cols[k]));
				any = true;
			}
		if (unit_of(fam)[0] != '\0')
			sb_printf(&b, " (%s)", unit_of(fam));
		text = sb_take(&b);
		set_label(f, "y", text);
		free(text);
		fputs("unset logscale y\nset ytics autofreq\nset format y '%g'\n", f);
		axis_setup(f, "y", ry, range_log(ry), 10, false);
		if (slo > 0) {
			ref_line_block(f, p == 0 ? "slo_a" : "slo_b", rx.lo, slo, rx.hi, slo);
		}
		fputs("plot ", f);
		dash = 0;
		for (size_t g = 0; g < fr->ngroups; g++) {
			size_t seen = 0;
			for (size_t k = 0; k < fr->ny; k++) {
				char *pct, *t;
				if (panel_of[k] != p)
					continue;
				pct = percentile_name(col_name(fr, fr->y_cols[k]));
				t = xasprintf("%s %s", fr->groups[g], pct);
				fprintf(f, "%s$group%zu using 1:%zu with linespoints lt %zu dt %zu pt %d ps 2 title ",
					dash++ ? ", \\\n     " : "", g, k + 2, g % N_PALETTE + 1, seen + 1,
					seen ? 6 : point_types[g % N_PALETTE]);
				gpquote_string(f, t);
				free(t);
				free(pct);
				seen++;
			}
		}
		if (slo > 0) {
			char v[48], *t;
			text_format_real(slo, v, sizeof v);
			t = xasprintf("SLO %s ms", v);
			ref_line_plot(f, p == 0 ? "slo_a" : "slo_b", t, deadline_style);
			free(t);
		}
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
}

static int cmp_by_y(const void *a, const void *b)
{
	const struct point *p = *(const struct point *const *)a, *q = *(const struct point *const *)b;
	if (p->y[0] != q->y[0])
		return p->y[0] < q->y[0] ? -1 : 1;
	return p->row < q->row ? -1 : p->row > q->row;
}

static void emit_cost(FILE *f, const struct frame *fr)
{
	const struct point **order = xcalloc(fr->n, sizeof *order);
	const char *ycol = col_name(fr, fr->y_cols[0]);
	bool usd = strcmp(unit_of(ycol), "USD") == 0;

	for (size_t i = 0; i < fr->n; i++)
		order[i] = &fr->pts[i];
	qsort(order, fr->n, sizeof *order, cmp_by_y);
	fputs("# one horizontal bar per row, cheapest at the top, its value written at its end\n", f);
	fputs("set style fill solid 0.85 border rgb '#222222'\n", f);
	axis_label_set(f, "x", ycol);
	fputs("set xrange [0:*]\nset offsets 0, graph 0.12, 0, 0\n", f);
	if (usd)
		fputs("set format x '$%g'\n", f);
	bars_y_axis(f, fr);
	fputs("set key inside top right\n", f);  /* the cheapest bar, the shortest, is at the top */
	block_open(f, "bars", 0);
	for (size_t i = 0; i < fr->n; i++) {
		bar_head(f, fr, i, order[i]->label);
		fputc(' ', f);
		num(f, order[i]->y[0]);
		fputc('\n', f);
	}
	block_close(f);
	title_set(f, fr);
	fputs("plot $bars0 using ($3/2):2:(0):3:($2-0.35):($2+0.35):ytic(1) with boxxyerror lt 1 title ", f);
	gpquote_string(f, ycol);
	fprintf(f, ", \\\n     '' using 3:2:(%s) with labels left offset char 0.5,0 font ',15' notitle\n",
		usd ? "$3 < 100 ? sprintf('$%.2f', $3) : sprintf('$%.0f', $3)" : "sprintf('%.3g', $3)");
	free(order);
}

static void emit_scatter(FILE *f, const struct frame *fr)
{
	struct range rx = range_empty(), ry = range_empty();
	for (size_t i = 0; i < fr->n; i++) {
		range_add(&rx, fr->pts[i].x);
		range_add(&ry, fr->pts[i].y[0]);
	}
	axis_label_set(f, "x", col_name(fr, fr->x_col));
	axis_label_set(f, "y", col_name(fr, fr->y_cols[0]));
	axis_setup(f, "x", rx, range_log(rx), 10, strcmp(unit_of(col_name(fr, fr->x_col)), "USD") == 0);
	axis_setup(f, "y", ry, range_log(ry), 10, strcmp(unit_of(col_name(fr, fr->y_cols[0])), "USD") == 0);
	fputs("set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n", f);
	fputs("set key outside right top vertical spacing 1.2\n", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		size_t n;
		const size_t *idx = group_points(fr, g, &n);
		block_open(f, "group", g);
		for (size_t k = 0; k < n; k++) {
			num(f, fr->pts[idx[k]].x);
			fputc(' ', f);
			num(f, fr->pts[idx[k]].y[0]);
			fputc('\n', f);
		}
		block_close(f);
	}
	title_set(f, fr);
	fputs("plot ", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		fprintf(f, "%s$group%zu using 1:2 with points lt %zu ps 2.5 title ", g ? ", \\\n     " : "", g,
			g % N_PALETTE + 1);
		gpquote_string(f, fr->groups[g]);
	}
	fputc('\n', f);
}

/* A wait in a bar's label: minutes below an hour, hours below three days, days beyond. */
static void wait_text(double h, char *buf, size_t size)
{
	if (h < 1)
		snprintf(buf, size, "%.3g min", h * 60);
	else if (h < 72)
		snprintf(buf, size, "%.3g h", h);
	else
		snprintf(buf, size, "%.3g d", h / 24);
}

/* The queue wait of each team row: one horizontal bar per row, the first
 * at the top, its segments nested percentiles (0 to P50, P50 to P90, P90
 * to P99: they never decrease), each percentile written at the bar's end. */
static void emit_waits(FILE *f, const struct frame *fr)
{
	fputs("# one horizontal bar per team row: segments 0-P50, P50-P90, P90-P99 of the queue wait\n"
	      "# (the block: label, y, then the percentiles, each bounding a segment)\n", f);
	fputs("set style fill solid 0.9 border rgb '#222222'\n", f);
	{
		struct sbuf b = { 0 };
		char *label;
		sb_printf(&b, "queue wait: ");
		for (size_t k = 0; k < fr->ny; k++)
			sb_printf(&b, "%s%s", k ? ", " : "", col_name(fr, fr->y_cols[k]));
		sb_printf(&b, " (%s)", unit_of(col_name(fr, fr->y_cols[0])));
		label = sb_take(&b);
		set_label(f, "x", label);
		free(label);
	}
	{
		/* room at the right for the longest bar's text (14-point: about 10 pixels a character) */
		double w = (double)(fr->ny * 18) * 10.0 / 1390, pad = w < 0.8 ? w / (1 - w) + 0.03 : 4;
		fprintf(f, "set xrange [0:*]\nset offsets 0, graph %.3f, 0, 0\n", pad);
	}
	bars_y_axis(f, fr);
	fputs("set key below horizontal spacing 1.2 height 1.5\n", f);
	block_open(f, "bars", 0);
	for (size_t i = 0; i < fr->n; i++) {
		bar_head(f, fr, i, fr->pts[i].label);
		fputs(" 0", f);
		for (size_t k = 0; k < fr->ny; k++) {
			double v = fr->pts[i].y[k];
			for (size_t j = 0; j < k; j++)  /* a segment never runs backwards */
				v = fmax(v, fr->pts[i].y[j]);
			fputc(' ', f);
			num(f, v);
		}
		/* the bar's text: every percentile */
		{
			struct sbuf b = { 0 };
			char w[48], *text;
			for (size_t k = 0; k < fr->ny; k++) {
				char *pct = percentile_name(col_name(fr, fr->y_cols[k]));
				wait_text(fr->pts[i].y[k], w, sizeof w);
				sb_printf(&b, "%s%s %s", k ? ", " : "", pct, w);
				free(pct);
			}
			text = sb_take(&b);
			fputc(' ', f);
			gpquote_data(f, text);
			free(text);
		}
		fputc('\n', f);
	}
	block_close(f);
	title_set(f, fr);
	fputs("plot ", f);
	for (size_t k = 0; k < fr->ny; k++) {
		size_t lo = k + 3, hi = k + 4;
		char *pct = percentile_name(col_name(fr, fr->y_cols[k]));
		fprintf(f, "%s$bars0 using (($%zu+$%zu)/2):2:%zu:%zu:($2-0.35):($2+0.35)%s with boxxyerror lt %zu title ",
			k ? ", \\\n     " : "", lo, hi, lo, hi, k == 0 ? ":ytic(1)" : "", k % N_PALETTE + 1);
		gpquote_string(f, pct);
		free(pct);
	}
	fprintf(f, ", \\\n     $bars0 using %zu:2:%zu with labels left offset char 0.5,0 font ',14' notitle\n",
		fr->ny + 3, fr->ny + 4);
}

/* Each team row's dollars: one horizontal bar per row, the first at the
 * top, split into its own GPU-hours' dollars (usd_total - idle_usd) and
 * its share of the idle ones (idle_usd) when the file has both, the total
 * written at the end. */
static void emit_team_cost(FILE *f, const struct frame *fr)
{
	bool split = fr->ny == 2;
	const char *total = col_name(fr, fr->y_cols[0]);
	fprintf(f, "# one horizontal bar per team row%s, the total (",
		split ? ": its own GPU-hours' dollars, then its share of the idle ones" : "");
	gpquote_comment(f, total);
	fputs(") at its end\n", f);
	fputs("set style fill solid 0.85 border rgb '#222222'\n", f);
	axis_label_set(f, "x", total);
	fputs("set xrange [0:*]\nset offsets 0, graph 0.15, 0, 0\n", f);
	if (strcmp(unit_of(total), "USD") == 0)
		fputs("set format x '$%.1s%c'\n", f);
	bars_y_axis(f, fr);
	fputs("set key below horizontal spacing 1.2 height 1.5\n", f);
	block_open(f, "bars", 0);
	for (size_t i = 0; i < fr->n; i++) {
		double t = fr->pts[i].y[0], idle = split ? fmin(fmax(fr->pts[i].y[1], 0), t) : 0;
		char *v = usd_text(t);
		bar_head(f, fr, i, fr->pts[i].label);
		fputc(' ', f);
		num(f, t - idle);
		fputc(' ', f);
		num(f, t);
		fputc(' ', f);
		gpquote_data(f, v);
		fputc('\n', f);
		free(v);
	}
	block_close(f);
	title_set(f, fr);
	fputs("plot $bars0 using ($3/2):2:(0):3:($2-0.35):($2+0.35):ytic(1) with boxxyerror lt 1 title ", f);
	gpquote_string(f, split ? "own GPU-hours" : total);
	if (split) {
		fputs(", \\\n     $bars0 using (($3+$4)/2):2:3:4:($2-0.35):($2+0.35) with boxxyerror lt 5 title ", f);
		gpquote_string(f, "share of the idle GPU-hours");
	}
	fputs(", \\\n     $bars0 using 4:2:5 with labels left offset char 0.5,0 font ',15' notitle\n", f);
}

/* Utilization over time: one panel of the fraction columns (allocated
 * solid, the next dashed...) and one of the others (queued jobs), one
 * colour per candidate. */
static void emit_utilization(FILE *f, const struct frame *fr)
{
	size_t frac[PLOT_Y_MAX], other[PLOT_Y_MAX], nf = 0, no = 0;
	struct range rx = range_empty();
	for (size_t k = 0; k < fr->ny; k++) {
		if (strcmp(unit_of(col_name(fr, fr->y_cols[k])), "fraction") == 0)
			frac[nf++] = k;
		else
			other[no++] = k;
	}
	for (size_t i = 0; i < fr->n; i++)
		range_add(&rx, fr->pts[i].x);
	fprintf(f, "# %zu panel(s): the fractions of the GPUs (0 to 1), then the other columns; one colour per ",
		(size_t)(nf > 0) + (no > 0));
	gpquote_comment(f, fr->group_col >= 0 ? col_name(fr, fr->group_col) : "chart");
	fputc('\n', f);
	group_blocks(f, fr);
	fprintf(f, "set multiplot layout %zu,1 title ", (size_t)(nf > 0) + (no > 0));
	gpquote_string(f, fr->title);
	fputs(" font ',22'\n", f);
	axis_label_set(f, "x", col_name(fr, fr->x_col));
	axis_setup(f, "x", rx, false, 10, false);
	/* both panels' plots the same width, the keys' longest entry (at 14
	 * points about 10 pixels a character, and the line sample) beside them */
	{
		size_t longest = 0;
		for (size_t g = 0; g < fr->ngroups; g++)
			for (size_t k = 0; k < fr->ny; k++) {
				size_t l = strlen(fr->groups[g]) + 1 + strlen(col_name(fr, fr->y_cols[k]));
				longest = l > longest ? l : longest;
			}
		double r = 1 - ((double)longest * 10 + 130) / PLOT_WIDTH_PX;
		r = r < 0.5 ? 0.5 : r > 0.85 ? 0.85 : r;
		fprintf(f, "set key outside right top vertical spacing 1.1 font ',14'\n"
			   "set lmargin at screen 0.09\nset rmargin at screen %.3f\n", r);
	}
	for (int panel = 0; panel < 2; panel++) {
		const size_t *cols = panel == 0 ? frac : other;
		size_t m = panel == 0 ? nf : no;
		struct sbuf b = { 0 };
		char *label;
		if (m == 0)
			continue;
		for (size_t k = 0; k < m; k++)
			sb_printf(&b, "%s%s", k ? ", " : "", col_name(fr, fr->y_cols[cols[k]]));
		sb_printf(&b, " (%s)", unit_of(col_name(fr, fr->y_cols[cols[0]])));
		label = sb_take(&b);
		set_label(f, "y", label);
		free(label);
		if (panel == 0)
			fputs("set yrange [0:1.05]\nset ytics 0.2\n", f);
		else
			fputs("set yrange [0:*]\nset ytics autofreq\n", f);
		fputs("plot ", f);
		for (size_t g = 0, d = 0; g < fr->ngroups; g++)
			for (size_t k = 0; k < m; k++) {
				char *t = xasprintf("%s %s", fr->groups[g], col_name(fr, fr->y_cols[cols[k]]));
				fprintf(f, "%s$group%zu using 1:%zu with lines lt %zu dt %zu lw %d title ", d++ ? ", \\\n     " : "",
					g, cols[k] + 2, g % N_PALETTE + 1, k + 1, k == 0 ? 3 : 2);
				gpquote_string(f, t);
				free(t);
			}
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
}

/* ---- reading the rows ---------------------------------------------------- */

static int find_col(const struct csvtable *t, const char *name, size_t len)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (strlen(t->header[c]) == len && strncmp(t->header[c], name, len) == 0)
			return (int)c;
	return -1;
}

/* Why a column is needed, for the message naming it when it is missing. */
static void missing(struct cs_error *err, const struct frame *fr, const char *name, size_t len,
		    const char *option)
{
	if (option != NULL)
		error_set(err, "results '%s': no column '%.*s' (given to %s)", fr->req->input, (int)len, name, option);
	else
		error_set(err, "results '%s': no column '%.*s' (the %s chart needs it; --x or --y chooses another)",
			  fr->req->input, (int)len, name, plot_kind_names[fr->req->kind]);
}

/* One column spec ("a", or "a|b": the first the file has) into *col. */
static int resolve_one(const struct frame *fr, const char *spec, size_t len, const char *option, int *col,
		       struct cs_error *err)
{
	const char *p = spec, *end = spec + len;
	while (p < end) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		size_t n = bar != NULL ? (size_t)(bar - p) : (size_t)(end - p);
		if ((*col = find_col(fr->t, p, n)) >= 0)
			return 0;
		p += n + (bar != NULL);
	}
	missing(err, fr, spec, strcspn(spec, "|") < len ? strcspn(spec, "|") : len, option);
	return -1;
}

/* Whether any row has a value in column c: a frac_ column that is empty
 * everywhere (frac_data_stall without a data block) is not modelled for
 * these rows, not a zero share, and gets no bar segment. */
static bool column_has_value(const struct csvtable *t, size_t c)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (c < t->rows[i].ncells && t->rows[i].cells[c] != NULL && t->rows[i].cells[c][0] != '\0')
			return true;
	return false;
}

/* The y columns of a comma list ("frac_*": every frac_ column with a value). */
static int resolve_y(struct frame *fr, const char *list, const char *option, struct cs_error *err)
{
	const char *p = list;
	fr->ny = 0;
	for (;;) {
		size_t n = strcspn(p, ",");
		if (n == 0)
			return error_set(err, "%s: an empty column name in '%s'", option ? option : "--y", list);
		if (n == 6 && strncmp(p, "frac_*", 6) == 0) {
			size_t before = fr->ny;
			for (size_t c = 0; c < fr->t->ncols && fr->ny < PLOT_Y_MAX; c++)
				if (strncmp(fr->t->header[c], "frac_", 5) == 0 && column_has_value(fr->t, c))
					fr->y_cols[fr->ny++] = (int)c;
			if (fr->ny == before) {
				missing(err, fr, "frac_compute", strlen("frac_compute"), option);
				return -1;
			}
		} else {
			if (fr->ny == PLOT_Y_MAX)
				return error_set(err, "%s: at most %d columns, got more in '%s'", option ? option : "--y",
						 PLOT_Y_MAX, list);
			if (resolve_one(fr, p, n, option, &fr->y_cols[fr->ny], err) < 0)
				return -1;
			fr->ny++;
		}
		if (p[n] == '\0')
			return 0;
		p += n + 1;
	}
}

/* A name the script carries (a column's, a file's) with a control
 * character, which no quoting would show as it is: an input error naming
 * it (escaped) after what. */
static int refuse_control(const char *name, const char *what, struct cs_error *err)
{
	char shown[80];
	size_t at;
	if (!gpquote_has_control(name, &at))
		return 0;
	text_quote(name, shown, sizeof shown);
	return error_set(err, "%s %s: a control character (byte 0x%02x at offset %zu) in the name, which plot "
			 "refuses", what, shown, (unsigned)(unsigned char)name[at], at);
}

/* Every column the chart draws by its name (axis labels, legends, the
 * script's comments) is free of control characters. */
static int check_column_names(const struct frame *fr, struct cs_error *err)
{
	char *what = xasprintf("results '%s': column", fr->req->input);
	int cols[PLOT_Y_MAX + 3], n = 0, rc = 0;

	cols[n++] = fr->x_col;
	cols[n++] = fr->label_col;
	cols[n++] = fr->group_col;
	for (size_t k = 0; k < fr->ny; k++)
		cols[n++] = fr->y_cols[k];
	for (int k = 0; k < n && rc == 0; k++)
		if (cols[k] >= 0)
			rc = refuse_control(fr->t->header[cols[k]], what, err);
	free(what);
	return rc;
}

static int resolve_columns(struct frame *fr, struct cs_error *err)
{
	const struct plot_request *q = fr->req;
	const struct kind_spec *s = fr->spec;
	bool bars = s->x == NULL && q->kind != PLOT_SCATTER;
	const char *label = bars && q->x != NULL ? q->x : s->label;

	fr->x_col = fr->label_col = fr->group_col = -1;
	fr->id_col = find_col(fr->t, "row_id", 6);
	fr->cand_col = find_col(fr->t, "candidate", 9);
	if (q->kind == PLOT_SCATTER && (q->x == NULL || q->y == NULL))
		return error_set(err, "plot: the scatter chart needs --x COLUMN and --y COLUMN");
	if (!bars && resolve_one(fr, q->x ? q->x : s->x, strlen(q->x ? q->x : s->x), q->x ? "--x" : NULL, &fr->x_col,
				 err) < 0)
		return -1;
	{
		const char *y = q->y ? q->y : s->y;
		/* team-cost: stacked own and idle dollars when the file has idle_usd, plain bars else */
		if (q->kind == PLOT_TEAM_COST && q->y == NULL && find_col(fr->t, "idle_usd", 8) < 0)
			y = "usd_total";
		if (resolve_y(fr, y, q->y ? "--y" : NULL, err) < 0)
			return -1;
	}
	if (q->kind == PLOT_TEAM_COST && fr->ny > 2)
		return error_set(err, "--y: the team-cost chart takes one or two columns (a total and its idle "
				 "share), got %zu", fr->ny);
	if ((q->kind == PLOT_PARETO || q->kind == PLOT_SCALING || q->kind == PLOT_COST || q->kind == PLOT_SCATTER) &&
	    fr->ny != 1)
		return error_set(err, "--y: the %s chart takes one column, got %zu", plot_kind_names[q->kind], fr->ny);
	if (q->group != NULL) {
		if (resolve_one(fr, q->group, strlen(q->group), "--group", &fr->group_col, err) < 0)
			return -1;
	} else if (s->group != NULL) {
		fr->group_col = find_col(fr->t, s->group, strlen(s->group));  /* only when present */
	}
	if (bars) {
		if (resolve_one(fr, label, strlen(label), q->x ? "--x" : NULL, &fr->label_col, err) < 0)
			return -1;
	} else {
		fr->label_col = find_col(fr->t, label, strlen(label));
	}
	return check_column_names(fr, err);
}

/* A numeric cell: 0 with *v, 1 when empty, -1 (with err) when not a finite
 * number or over PLOT_VALUE_MAX in magnitude. */
static int cell_number(const struct frame *fr, const struct csvtable_row *row, int col, double *v,
		       struct cs_error *err)
{
	const char *s = row->cells[col];
	char *end, shown[80];
	if (s[0] == '\0')
		return 1;
	*v = strtod(s, &end);
	if (end != s && *end == '\0' && isfinite(*v) && fabs(*v) <= PLOT_VALUE_MAX)
		return 0;
	text_quote(s, shown, sizeof shown);
	if (end != s && *end == '\0' && isfinite(*v))
		return error_set(err, "results '%s': line %zu: column '%s': %s is too large to chart (at most 1e300 "
				 "in magnitude)", fr->req->input, row->line, fr->t->header[col], shown);
	return error_set(err, "results '%s': line %zu: column '%s': expected a number, got %s", fr->req->input,
			 row->line, fr->t->header[col], shown);
}

/* Statuses seen on rows that are not ok, for the message when none is. */
struct status_count {
	const char *name;   /* borrowed from the table */
	size_t n;
};

static void count_status(struct status_count *sc, size_t *nsc, size_t max, const char *status)
{
	for (size_t i = 0; i < *nsc; i++)
		if (strcmp(sc[i].name, status) == 0) {
			sc[i].n++;
			return;
		}
	if (*nsc < max) {
		sc[*nsc].name = status;
		sc[(*nsc)++].n = 1;
	}
}

static int nothing_to_chart(const struct frame *fr, const struct plot_info *info, const struct status_count *sc,
			    size_t nsc, struct cs_error *err)
{
	struct sbuf b = { 0 };
	char *what;
	if (info->rows == 0)
		return error_set(err, "results '%s': no rows to chart (only a header)", fr->req->input);
	if (info->ok == 0) {
		for (size_t i = 0; i < nsc; i++) {
			char shown[80];
			/* a status as it is, unless the message would not stay one line */
			if (sc[i].name[0] == '\0')
				snprintf(shown, sizeof shown, "(empty)");
			else if (gpquote_has_control(sc[i].name, NULL) || strlen(sc[i].name) > 60)
				text_quote(sc[i].name, shown, sizeof shown);
			else
				snprintf(shown, sizeof shown, "%s", sc[i].name);
			sb_printf(&b, "%s%zu %s", i ? ", " : "", sc[i].n, shown);
		}
		what = sb_take(&b);
		error_set(err, "results '%s': no row has status ok, nothing to chart (%zu rows: %s)", fr->req->input,
			  info->rows, what);
		free(what);
		return -1;
	}
	return error_set(err, "results '%s': none of the %zu rows with status ok has a value in '%s', nothing to chart",
			 fr->req->input, info->ok, info->no_value_column);
}

/* The rows with status ok and a value in every column the chart reads. */
static int read_points(struct frame *fr, struct plot_info *info, struct cs_error *err)
{
	const struct csvtable *t = fr->t;
	int status_col = find_col(t, "status", 6);
	struct status_count sc[8];
	size_t nsc = 0, not_team = 0;
	int team_col = fr->spec->team_rows ? fr->label_col : -1, class_col = find_col(t, "class", 5);
	const char *first_cand = NULL;

	fr->pts = xcalloc(t->nrows ? t->nrows : 1, sizeof *fr->pts);
	fr->yv = xcalloc(t->nrows ? t->nrows * fr->ny : 1, sizeof *fr->yv);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct csvtable_row *row = &t->rows[r];
		struct point *pt = &fr->pts[fr->n];
		int empty = 0, rc;
		int empty_col = -1;

		info->rows++;
		/* a file without a status column (a user's own CSV) has every row charted */
		if (status_col >= 0 && strcmp(row->cells[status_col], "ok") != 0) {
			count_status(sc, &nsc, sizeof sc / sizeof sc[0], row->cells[status_col]);
			continue;
		}
		/* a fleet's team rows: its own row (no team) and its classes' rows are not charted */
		if (team_col >= 0 && (row->cells[team_col][0] == '\0' ||
				      (class_col >= 0 && row->cells[class_col][0] != '\0'))) {
			not_team++;
			continue;
		}
		if (team_col >= 0 && fr->cand_col >= 0) {
			if (first_cand == NULL)
				first_cand = row->cells[fr->cand_col];
			else if (strcmp(first_cand, row->cells[fr->cand_col]) != 0)
				fr->multi_candidate = true;
		}
		info->ok++;
		memset(pt, 0, sizeof *pt);
		pt->row = r;
		pt->y = fr->yv + fr->n * fr->ny;
		if (fr->x_col >= 0 && (rc = cell_number(fr, row, fr->x_col, &pt->x, err)) != 0) {
			if (rc < 0)
				return -1;
			empty = 1;
			empty_col = fr->x_col;
		}
		for (size_t k = 0; k < fr->ny && !empty; k++) {
			if ((rc = cell_number(fr, row, fr->y_cols[k], &pt->y[k], err)) < 0)
				return -1;
			if (rc > 0) {
				empty = 1;
				empty_col = fr->y_cols[k];
			}
		}
		if (empty) {
			if (info->no_value++ == 0)
				info->no_value_column = t->header[empty_col];
			continue;
		}
		fr->n++;
	}
	if (fr->n == 0 && info->ok == 0 && not_team > 0)
		return error_set(err, "results '%s': no team rows (a fleet's rows with team set and class empty), "
				 "nothing to chart for the %s chart", fr->req->input, plot_kind_names[fr->req->kind]);
	if (fr->n == 0)
		return nothing_to_chart(fr, info, sc, nsc, err);
	return 0;
}

/* The row's own name: its label column's cell, else its row_id, else its line. Caller frees. */
static char *base_label(const struct frame *fr, const struct point *p)
{
	const struct csvtable_row *row = &fr->t->rows[p->row];
	if (fr->multi_candidate && fr->cand_col >= 0 && fr->label_col >= 0)
		return xasprintf("%s / %s", row->cells[fr->cand_col], row->cells[fr->label_col]);
	if (fr->label_col >= 0 && row->cells[fr->label_col][0] != '\0')
		return xstrdup(row->cells[fr->label_col]);
	if (fr->id_col >= 0 && row->cells[fr->id_col][0] != '\0')
		return xasprintf("row %s", row->cells[fr->id_col]);
	return xasprintf("line %zu", row->line);
}

static const char *group_cell(const struct frame *fr, const struct point *p)
{
	const char *s = fr->group_col >= 0 ? fr->t->rows[p->row].cells[fr->group_col] : "";
	return s[0] != '\0' ? s : fr->group_col >= 0 ? "(none)" : "";
}

static const struct frame *sort_frame;

/* Order for finding duplicates: label, group, x, y..., then row. */
static int cmp_dup(const void *a, const void *b)
{
	const struct point *p = &sort_frame->pts[*(const size_t *)a], *q = &sort_frame->pts[*(const size_t *)b];
	int c = strcmp(p->label, q->label);
	if (c == 0)
		c = strcmp(group_cell(sort_frame, p), group_cell(sort_frame, q));
	if (c == 0 && p->x != q->x)
		c = p->x < q->x ? -1 : 1;
	for (size_t k = 0; c == 0 && k < sort_frame->ny; k++)
		if (p->y[k] != q->y[k])
			c = p->y[k] < q->y[k] ? -1 : 1;
	if (c == 0)
		c = p->row < q->row ? -1 : p->row > q->row;
	return c;
}

static bool same_point(const struct frame *fr, const struct point *p, const struct point *q)
{
	if (strcmp(p->label, q->label) != 0 || strcmp(group_cell(fr, p), group_cell(fr, q)) != 0 || p->x != q->x)
		return false;
	for (size_t k = 0; k < fr->ny; k++)
		if (p->y[k] != q->y[k])
			return false;
	return true;
}

/* Order by label, then row. */
static int cmp_label(const void *a, const void *b)
{
	const struct point *p = &sort_frame->pts[*(const size_t *)a], *q = &sort_frame->pts[*(const size_t *)b];
	int c = strcmp(p->label, q->label);
	return c != 0 ? c : p->row < q->row ? -1 : p->row > q->row;
}

/* Give each run of equal labels more of its row: first the sweep point's
 * set: values (a sweep repeats a candidate's name at every point), then
 * the row_id. O(n log n) plus the set: cells of the points relabelled. */
static void disambiguate(struct frame *fr, int pass)
{
	size_t *idx = xcalloc(fr->n ? fr->n : 1, sizeof *idx);
	size_t *set_cols = xcalloc(fr->t->ncols ? fr->t->ncols : 1, sizeof *set_cols), nset = 0;

	for (size_t c = 0; c < fr->t->ncols; c++)
		if (strncmp(fr->t->header[c], "set:", 4) == 0)
			set_cols[nset++] = c;
	for (size_t i = 0; i < fr->n; i++)
		idx[i] = i;
	sort_frame = fr;
	qsort(idx, fr->n, sizeof *idx, cmp_label);
	for (size_t a = 0; a < fr->n;) {
		size_t b = a + 1;
		while (b < fr->n && strcmp(fr->pts[idx[a]].label, fr->pts[idx[b]].label) == 0)
			b++;
		for (size_t k = a; b - a > 1 && k < b; k++) {
			struct point *p = &fr->pts[idx[k]];
			const struct csvtable_row *row = &fr->t->rows[p->row];
			struct sbuf extra = { 0 };
			char *e;
			if (pass == 0) {
				for (size_t c = 0; c < nset; c++)
					sb_printf(&extra, "%s%s", c ? ", " : "", row->cells[set_cols[c]]);
			} else if (fr->id_col >= 0) {
				sb_printf(&extra, "row %s", row->cells[fr->id_col]);
			} else {
				sb_printf(&extra, "line %zu", row->line);
			}
			e = sb_take(&extra);
			if (e[0] != '\0') {
				char *l = xasprintf("%s [%s]", p->label, e);
				free(p->label);
				p->label = l;
			}
			free(e);
		}
		a = b;
	}
	free(set_cols);
	free(idx);
}

struct by_group {
	size_t group;
	double x;
	size_t row, i;
};

static int cmp_by_group(const void *a, const void *b)
{
	const struct by_group *p = a, *q = b;
	if (p->group != q->group)
		return p->group < q->group ? -1 : 1;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->row < q->row ? -1 : p->row > q->row;
}

/* Each point's group (plot_groups) and the points of each group sorted by
 * x then row (frame.members), in one sort. */
static void make_groups(struct frame *fr)
{
	const char **names = xcalloc(fr->n ? fr->n : 1, sizeof *names);
	size_t *group_of = xcalloc(fr->n ? fr->n : 1, sizeof *group_of);
	struct by_group *r = xcalloc(fr->n ? fr->n : 1, sizeof *r);
	const char *all = fr->ny == 1 ? col_name(fr, fr->y_cols[0]) : "rows";

	for (size_t i = 0; i < fr->n; i++)
		names[i] = fr->group_col >= 0 ? group_cell(fr, &fr->pts[i]) : all;
	fr->ngroups = plot_groups(names, fr->n, group_of);
	fr->groups = xcalloc(fr->ngroups ? fr->ngroups : 1, sizeof *fr->groups);
	fr->group_start = xcalloc(fr->ngroups + 1, sizeof *fr->group_start);
	fr->members = xcalloc(fr->n ? fr->n : 1, sizeof *fr->members);
	for (size_t i = 0; i < fr->n; i++) {
		size_t g = group_of[i];
		fr->pts[i].group = g;
		if (fr->groups[g] == NULL)
			fr->groups[g] = xstrdup(names[i]);
		r[i] = (struct by_group){ g, fr->pts[i].x, fr->pts[i].row, i };
		fr->group_start[g + 1]++;
	}
	for (size_t g = 0; g < fr->ngroups; g++)
		fr->group_start[g + 1] += fr->group_start[g];
	qsort(r, fr->n, sizeof *r, cmp_by_group);
	for (size_t k = 0; k < fr->n; k++)
		fr->members[k] = r[k].i;
	free(r);
	free(group_of);
	free(names);
}

/* Labels, duplicates dropped, groups: the points as the chart draws them. */
static void shape_points(struct frame *fr, struct plot_info *info)
{
	size_t *idx = xcalloc(fr->n ? fr->n : 1, sizeof *idx), m = 0;

	for (size_t i = 0; i < fr->n; i++) {
		fr->pts[i].label = base_label(fr, &fr->pts[i]);
		idx[i] = i;
	}
	/* a point equal to an earlier one in every coordinate drawn (a sweep
	 * repeats the candidates it does not vary at every point) is dropped */
	sort_frame = fr;
	qsort(idx, fr->n, sizeof *idx, cmp_dup);
	for (size_t k = 1; k < fr->n; k++)
		if (same_point(fr, &fr->pts[idx[k - 1]], &fr->pts[idx[k]]))
			fr->pts[idx[k]].dropped = true;
	free(idx);
	for (size_t i = 0; i < fr->n; i++) {
		if (fr->pts[i].dropped) {
			free(fr->pts[i].label);
			continue;
		}
		fr->pts[m++] = fr->pts[i];
	}
	fr->n = m;
	info->charted = m;
	disambiguate(fr, 0);
	disambiguate(fr, 1);
	make_groups(fr);
}

/* "TITLE: SCENARIO" when every charted row has one scenario, else "TITLE: FILE". */
static void make_title(struct frame *fr)
{
	const struct plot_request *q = fr->req;
	int sc = find_col(fr->t, "scenario", 8);
	const char *name = NULL, *slash;
	char *custom = NULL;
	const char *title = fr->spec->title;

	for (size_t i = 0; sc >= 0 && i < fr->n; i++) {
		const char *s = fr->t->rows[fr->pts[i].row].cells[sc];
		if (name == NULL)
			name = s;
		else if (strcmp(name, s) != 0) {
			name = NULL;
			break;
		}
	}
	if (name == NULL || name[0] == '\0') {
		slash = strrchr(q->input, '/');
		name = strcmp(q->input, "-") == 0 ? "standard input" : slash ? slash + 1 : q->input;
	}
	if (title == NULL || q->x != NULL || q->y != NULL) {
		if (fr->x_col >= 0)
			custom = xasprintf("%s against %s", col_name(fr, fr->y_cols[0]), col_name(fr, fr->x_col));
		else
			custom = xasprintf("%s by %s", col_name(fr, fr->y_cols[0]), col_name(fr, fr->label_col));
		title = q->kind == PLOT_SCATTER || q->kind == PLOT_COST || q->kind == PLOT_SCALING ? custom : title;
	}
	fr->title = xasprintf("%s: %s", title, name);
	free(custom);
}

static void preamble(FILE *f, const struct frame *fr, const struct plot_info *info)
{
	const struct plot_request *q = fr->req;
	fprintf(f, "# clustersim plot --chart %s of '", plot_kind_names[q->kind]);
	gpquote_comment(f, q->input);
	fprintf(f, "': %zu points from the %zu of %zu rows with status ok\n", info->charted, info->ok, info->rows);
	fputs("# columns:", f);
	if (fr->x_col >= 0) {
		fputs(" x ", f);
		gpquote_comment(f, col_name(fr, fr->x_col));
		fputc(',', f);
	}
	fputs(" y", f);
	for (size_t k = 0; k < fr->ny; k++) {
		fputs(k ? ", " : " ", f);
		gpquote_comment(f, col_name(fr, fr->y_cols[k]));
	}
	if (fr->label_col >= 0) {
		fputs(", label ", f);
		gpquote_comment(f, col_name(fr, fr->label_col));
	}
	if (fr->group_col >= 0) {
		fputs(", group ", f);
		gpquote_comment(f, col_name(fr, fr->group_col));
	}
	fputs("\n# render: gnuplot '", f);
	gpquote_comment(f, q->script_path != NULL ? q->script_path : "FILE.gp");
	fputs("' writes '", f);
	gpquote_comment(f, q->image_path);
	fputs("' (gnuplot -e \"outfile='other.png'\" ... writes another file)\n", f);
	fputs("if (!exists(\"outfile\")) outfile = ", f);
	gpquote_file(f, q->image_path);
	fputc('\n', f);
	if (q->format == PLOT_SVG)
		fprintf(f, "set terminal svg size %d,%d dynamic font 'Sans,%d' noenhanced background rgb 'white'\n",
			PLOT_WIDTH_PX, PLOT_HEIGHT_PX, PLOT_FONT_PT);
	else
		fprintf(f, "set terminal pngcairo size %d,%d font 'Sans,%d' noenhanced background rgb 'white'\n",
			PLOT_WIDTH_PX, PLOT_HEIGHT_PX, PLOT_FONT_PT);
	fputs("set output outfile\nset encoding utf8\nset grid lw 1 lc rgb '#cccccc'\nset border lw 1.5\n", f);
	for (size_t i = 0; i < N_PALETTE; i++)
		fprintf(f, "set linetype %zu lc rgb '%s' lw 3 pt %d ps 2\n", i + 1, palette[i], point_types[i]);
	fprintf(f, "set linetype cycle %d\n", N_PALETTE);
}

static void frame_release(struct frame *fr)
{
	for (size_t i = 0; i < fr->n; i++)
		free(fr->pts[i].label);
	free(fr->pts);
	free(fr->yv);
	for (size_t g = 0; g < fr->ngroups; g++)
		free(fr->groups[g]);
	free(fr->groups);
	free(fr->members);
	free(fr->group_start);
	free(fr->title);
}

/* What the request carries into the script besides the table: the file
 * names and the column options without control characters, the values
 * within PLOT_VALUE_MAX. */
static int check_request(const struct plot_request *req, struct cs_error *err)
{
	const struct {
		const char *option;
		double v;
	} values[] = {
		{ "--deadline-h", req->deadline_h },
		{ "--budget-usd", req->budget_usd },
		{ "--slo-ttft-ms", req->slo_ttft_ms },
		{ "--slo-tpot-ms", req->slo_tpot_ms },
	};
	const struct {
		const char *what, *name;
	} names[] = {
		{ "plot: the results file", req->input },
		{ "plot: the image", req->image_path },
		{ "plot: the script", req->script_path },
		{ "--x", req->x },
		{ "--y", req->y },
		{ "--group", req->group },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].name != NULL && refuse_control(names[i].name, names[i].what, err) < 0)
			return -1;
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
		if (!(fabs(values[i].v) <= PLOT_VALUE_MAX))
			return error_set(err, "%s: %g is too large to chart (at most 1e300)", values[i].option,
					 values[i].v);
	return 0;
}

char *plot_script(const struct csvtable *t, const struct plot_request *req, struct plot_info *info,
		  struct cs_error *err)
{
	struct frame fr;
	char *buf = NULL;
	size_t len = 0, rows_max = req->rows_max ? req->rows_max : PLOT_ROWS_MAX;
	FILE *f;

	memset(&fr, 0, sizeof fr);
	memset(info, 0, sizeof *info);
	fr.t = t;
	fr.req = req;
	fr.spec = &kinds[req->kind];
	if (check_request(req, err) < 0)
		return NULL;
	if (t->header == NULL) {
		error_set(err, "results '%s': no header line, nothing to chart", req->input);
		return NULL;
	}
	if (t->nrows > rows_max) {
		error_set(err, "results '%s': %zu rows, more than plot charts (at most %zu)", req->input, t->nrows,
			  rows_max);
		return NULL;
	}
	if (resolve_columns(&fr, err) < 0 || read_points(&fr, info, err) < 0) {
		frame_release(&fr);
		return NULL;
	}
	shape_points(&fr, info);
	make_title(&fr);
	f = open_memstream(&buf, &len);
	if (f == NULL) {
		frame_release(&fr);
		error_runtime(err, "plot: out of memory");
		return NULL;
	}
	preamble(f, &fr, info);
	fr.spec->emit(f, &fr);
	fclose(f);
	frame_release(&fr);
	return buf;
}
