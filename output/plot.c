#include "plot.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* Point labels are drawn on every point up to this many points, on the
 * Pareto front's points only beyond (more would overlap into a smear). */
enum { LABEL_ALL_MAX = 20 };

/* One charted row. */
struct point {
	size_t row;              /* index in the table's rows */
	double x;                /* unused by the bar charts */
	double y[PLOT_Y_MAX];
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
	struct point *pts;
	size_t n;
	char **groups;           /* owned, in order of first appearance */
	size_t ngroups;
	char title[256];
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

/* ---- writing gnuplot ----------------------------------------------------- */

/* s as a gnuplot single-quoted string: no escapes are processed in one, a
 * quote is doubled; control characters (a newline would end the command)
 * become spaces. */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\'')
			fputs("''", f);
		else
			fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
	}
	fputc('\'', f);
}

/* s as a double-quoted field of inline data, which gnuplot reads without
 * escapes: a double quote becomes a single one, control characters spaces. */
static void data_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		fputc(c == '"' ? '\'' : c < 0x20 || c == 0x7f ? ' ' : c, f);
	}
	fputc('"', f);
}

/* s in a comment line: control characters (a newline would end the
 * comment and run the rest) become '?'. */
static void comment_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
	}
}

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
 * alone when it has no entry or its unit is text. */
static void axis_label(char *buf, size_t size, const char *name)
{
	const struct results_column *info = results_column_info(name);
	if (info != NULL && strcmp(info->unit_text, "text") != 0)
		snprintf(buf, size, "%s (%s)", name, info->unit_text);
	else
		snprintf(buf, size, "%s", name);
}

static const char *unit_of(const char *name)
{
	const struct results_column *info = results_column_info(name);
	return info != NULL ? info->unit_text : "";
}

static void set_label(FILE *f, const char *axis, const char *text)
{
	fprintf(f, "set %slabel ", axis);
	gp_str(f, text);
	fputc('\n', f);
}

static void axis_label_set(FILE *f, const char *axis, const char *name)
{
	char buf[200];
	axis_label(buf, sizeof buf, name);
	set_label(f, axis, buf);
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
		if (fabs(v) >= si[i].at) {
			snprintf(buf, size, "%s%.3g%s", sign, v / si[i].at, si[i].suffix);
			return;
		}
	snprintf(buf, size, "%s%.3g", sign, v);
}

/*
 * One axis: on a log scale (base 2 for counts that double, else 10) the
 * range is the data's (autoscale fix: no empty decades) and the ticks are
 * written out (1-1.5-2-3-5-7 within a decade, 1-2-5 within two, decades
 * beyond), each labelled
 * "2.5k" or "$1.2M"; on a linear scale the ticks are gnuplot's, labelled
 * the same way for big values and dollars. The offsets pad both.
 */
static void axis_setup(FILE *f, const char *axis, struct range r, bool log_axis, int base, bool usd)
{
	char buf[48];
	if (!log_axis) {
		if (r.hi == r.lo) {
			/* one value: a range around it (gnuplot would warn and guess one) */
			double d = r.lo != 0 ? fabs(r.lo) * 0.1 : 1;
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
		double start = pow(step, floor(log(r.lo) / log(step)));
		for (double d = start; d <= r.hi * 1.0001; d *= step) {
			for (size_t m = 0; m < nmult; m++) {
				double v = d * mult[m];
				if (v < r.lo / 1.0001 || v > r.hi * 1.0001)
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
	gp_str(f, fr->title);
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

/* The points of group g, sorted by x then row (caller frees); *n their count. */
static size_t *group_points(const struct frame *fr, size_t g, size_t *n);

/* One data block per group ($group0 ...): each point's x, then its y
 * columns, in the order of group_points. */
static void group_blocks(FILE *f, const struct frame *fr)
{
	for (size_t g = 0; g < fr->ngroups; g++) {
		size_t n, *idx = group_points(fr, g, &n);
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
		free(idx);
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
	gp_str(f, title);
}

/* Whole dollars with thousands separators: "$1,500,000" (cents below $100). */
static void usd_text(double v, char *buf, size_t size)
{
	char digits[64];
	size_t n, o = 0;
	if (v < 100) {
		snprintf(buf, size, "$%.2f", v);
		return;
	}
	snprintf(digits, sizeof digits, "%.0f", v);
	n = strlen(digits);
	if (o + 1 < size)
		buf[o++] = '$';
	for (size_t i = 0; i < n && o + 1 < size; i++) {
		if (i > 0 && (n - i) % 3 == 0 && o + 1 < size)
			buf[o++] = ',';
		if (o + 1 < size)
			buf[o++] = digits[i];
	}
	buf[o] = '\0';
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
static double labels_right_pad(const struct frame *fr, const double *xs, const bool *front, struct range rx,
			       bool logx)
{
	double pad = 0.05;
	double a = logx ? log10(rx.lo) : rx.lo, b = logx ? log10(rx.hi) : rx.hi;
	double span = b - a > 0 ? b - a : 1;
	for (size_t i = 0; i < fr->n; i++) {
		double u, room, need;
		if (fr->n > LABEL_ALL_MAX && !front[i])
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
 * Each point's label as a `set label` right of it, moved up or down by a
 * line at a time until it overlaps no label placed before (top to bottom),
 * so nearby points stay readable. Every point is labelled up to
 * LABEL_ALL_MAX points, only the front's beyond. Returns the labels set.
 */
static size_t place_labels(FILE *f, const struct frame *fr, const double *xs, const double *ys, const bool *front,
			   struct range rx, struct range ry, bool logx, bool logy, double right_pad)
{
	static const double tries[] = { 0.6, -0.6, 1.6, -1.6, 2.6, -2.6, 3.6, -3.6 };
	struct box *placed = xcalloc(fr->n ? fr->n : 1, sizeof *placed);
	size_t *order = xcalloc(fr->n ? fr->n : 1, sizeof *order), m = 0, np = 0;

	for (size_t i = 0; i < fr->n; i++)
		if (fr->n <= LABEL_ALL_MAX || front[i])
			order[m++] = i;
	/* top to bottom, then left to right */
	for (size_t a = 1; a < m; a++)
		for (size_t b = a; b > 0 && (ys[order[b - 1]] < ys[order[b]] ||
					     (ys[order[b - 1]] == ys[order[b]] && xs[order[b - 1]] > xs[order[b]]));
		     b--) {
			size_t t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
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
		gp_str(f, fr->pts[i].label);
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
	bool *front = xcalloc(fr->n, sizeof *front);
	size_t nf = 0;
	struct range rx = range_empty(), ry = range_empty();
	bool logx, logy;
	double right_pad;
	char buf[200];

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
	fprintf(f, "# the Pareto front: %zu of %zu points that no other point beats in both %s and %s\n", nf,
		fr->n, col_name(fr, fr->x_col), col_name(fr, fr->y_cols[0]));
	axis_label_set(f, "x", col_name(fr, fr->x_col));
	axis_label_set(f, "y", col_name(fr, fr->y_cols[0]));
	axis_setup(f, "x", rx, logx, 10, strcmp(unit_of(col_name(fr, fr->x_col)), "USD") == 0);
	axis_setup(f, "y", ry, logy, 10, strcmp(unit_of(col_name(fr, fr->y_cols[0])), "USD") == 0);
	/* room at the right for the labels, which are written right of their points */
	right_pad = labels_right_pad(fr, xs, front, rx, logx);
	fprintf(f, "set offsets graph 0.03, graph %.3f, graph 0.08, graph 0.08\n", right_pad);
	fputs("set key below horizontal spacing 1.2 height 1.5\n", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		size_t n, *idx = group_points(fr, g, &n);
		block_open(f, "group", g);
		for (size_t k = 0; k < n; k++) {
			num(f, xs[idx[k]]);
			fputc(' ', f);
			num(f, ys[idx[k]]);
			fputc('\n', f);
		}
		block_close(f);
		free(idx);
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
	place_labels(f, fr, xs, ys, front, rx, ry, logx, logy, right_pad);
	if (q->deadline_h > 0)
		ref_line_block(f, "deadline", q->deadline_h, ry.lo, q->deadline_h, ry.hi);
	if (q->budget_usd > 0)
		ref_line_block(f, "budget", rx.lo, q->budget_usd, rx.hi, q->budget_usd);
	title_set(f, fr);
	fputs("plot ", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		fprintf(f, "%s$group%zu using 1:2 with points lt %zu ps 2.5 title ", g ? ", \\\n     " : "", g,
			g % N_PALETTE + 1);
		gp_str(f, fr->groups[g]);
	}
	fprintf(f, ", \\\n     $front0 using 1:2 with linespoints lw 3 lc rgb '#222222' pt 6 ps 4 title "
		   "'Pareto front'");
	if (q->deadline_h > 0) {
		char v[48];
		text_format_real(q->deadline_h, v, sizeof v);
		snprintf(buf, sizeof buf, "deadline %s h", v);
		ref_line_plot(f, "deadline", buf, deadline_style);
	}
	if (q->budget_usd > 0) {
		char v[48];
		usd_text(q->budget_usd, v, sizeof v);
		snprintf(buf, sizeof buf, "budget %s", v);
		ref_line_plot(f, "budget", buf, budget_style);
	}
	fputc('\n', f);
	free(front);
	free(xs);
	free(ys);
}

/* A frac_ column's name in a legend: "frac_comm_exposed" -> "comm exposed". */
static void series_name(char *buf, size_t size, const char *col)
{
	const char *s = strncmp(col, "frac_", 5) == 0 ? col + 5 : col;
	snprintf(buf, size, "%s", s);
	if (s != col)
		for (char *c = buf; *c; c++)
			if (*c == '_')
				*c = ' ';
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
	data_str(f, label);
	fprintf(f, " %zu", fr->n - 1 - k);
}

static void emit_breakdown(FILE *f, const struct frame *fr)
{
	char buf[200];
	bool fractions = all_fractions(fr);

	fputs("# one horizontal bar per row, its columns stacked left to right in the order of the file;\n"
	      "# the block holds each bar's label, its y, then the running sums that bound its segments\n", f);
	fputs("set style fill solid 0.9 border rgb '#222222'\n", f);
	if (fractions) {
		/* the frac_ columns split the GPUs' wall-clock time and add up to 1 */
		set_label(f, "x", "share of held GPU time (fraction)");
		fputs("set xrange [0:1]\nset xtics 0.1\n", f);
	} else {
		size_t used = 0;
		buf[0] = '\0';
		for (size_t k = 0; k < fr->ny && used < sizeof buf; k++)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", k ? " + " : "",
						 col_name(fr, fr->y_cols[k]));
		set_label(f, "x", buf);
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
		series_name(buf, sizeof buf, col_name(fr, fr->y_cols[k]));
		fprintf(f, "%s$bars0 using (($%zu+$%zu)/2):2:%zu:%zu:($2-0.35):($2+0.35)%s with boxxyerror lt %zu title ",
			k ? ", \\\n     " : "", lo, hi, lo, hi, k == 0 ? ":ytic(1)" : "", k % N_PALETTE + 1);
		gp_str(f, buf);
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
		size_t n, *idx = group_points(fr, g, &n), *best = xcalloc(n ? n : 1, sizeof *best);
		size_t m = best_per_x(fr, idx, n, ideal, best);
		const struct point *b0 = &fr->pts[best[0]];
		xy_block(f, fr, "group", g, best, m);
		if (m < n) {
			crowded[g] = true;
			xy_block(f, fr, "all", g, idx, n);
		}
		base_x[g] = b0->x;
		if (ideal != IDEAL_NONE && b0->x > 0) {
			block_open(f, "ideal", g);
			for (size_t k = 0; k < m; k++) {
				double x = fr->pts[best[k]].x;
				num(f, x);
				fputc(' ', f);
				num(f, ideal == IDEAL_PROPORTIONAL ? b0->y[0] * x / b0->x : b0->y[0] * b0->x / x);
				fputc('\n', f);
			}
			block_close(f);
		}
		free(best);
		free(idx);
	}
	title_set(f, fr);
	fputs("plot ", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		char buf[200], v[48];
		fprintf(f, "%s$group%zu using 1:2 with linespoints lt %zu ps 2.5 title ", g ? ", \\\n     " : "", g,
			g % N_PALETTE + 1);
		gp_str(f, fr->groups[g]);
		if (crowded[g])
			fprintf(f, ", \\\n     $all%zu using 1:2 with points lt %zu pt 6 ps 2 notitle", g, g % N_PALETTE + 1);
		if (ideal != IDEAL_NONE && base_x[g] > 0) {
			text_format_real(base_x[g], v, sizeof v);
			snprintf(buf, sizeof buf, "%s, ideal from %s", fr->groups[g], v);
			fprintf(f, ", \\\n     $ideal%zu using 1:2 with lines lt %zu dt 2 lw 2 title ", g, g % N_PALETTE + 1);
			gp_str(f, buf);
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

/* The percentile part of a latency column for a legend: "ttft_p99_ms" -> "p99". */
static void percentile_name(char *buf, size_t size, const char *col)
{
	size_t fl = family_len(col), n;
	const char *p = col + fl + (col[fl] == '_');
	n = strcspn(p, "_");
	snprintf(buf, size, "%.*s", (int)(n ? n : strlen(col)), n ? p : col);
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
	fprintf(f, "# %zu panels; in each, one colour per %s, p50 solid and higher percentiles dashed\n", npanels,
		fr->group_col >= 0 ? col_name(fr, fr->group_col) : "chart");
	group_blocks(f, fr);
	fprintf(f, "set multiplot layout 1,%zu title ", npanels);
	gp_str(f, fr->title);
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
		char buf[200];
		size_t used = 0, dash = 0;

		for (size_t i = 0; i < fr->n; i++)
			for (size_t k = 0; k < fr->ny; k++)
				if (panel_of[k] == p)
					range_add(&ry, fr->pts[i].y[k]);
		if (slo > 0)
			range_add(&ry, slo);
		/* the panel's title: the family in capitals and what it is ("time to first token") */
		used = (size_t)snprintf(buf, sizeof buf, "%.*s", (int)fl, fam);
		for (size_t c = 0; c < used; c++)
			if (buf[c] >= 'a' && buf[c] <= 'z')
				buf[c] = (char)(buf[c] - 'a' + 'A');
		if (info != NULL && used < sizeof buf)
			snprintf(buf + used, sizeof buf - used, ": %.*s", (int)strcspn(info->meaning, ","), info->meaning);
		fputs("set title ", f);
		gp_str(f, buf);
		fputc('\n', f);
		used = 0;
		buf[0] = '\0';
		for (size_t k = 0; k < fr->ny && used < sizeof buf; k++)
			if (panel_of[k] == p)
				used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", used ? ", " : "",
							 col_name(fr, fr->y_cols[k]));
		if (used < sizeof buf && unit_of(fam)[0] != '\0')
			snprintf(buf + used, sizeof buf - used, " (%s)", unit_of(fam));
		set_label(f, "y", buf);
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
				char pct[64], t[200];
				if (panel_of[k] != p)
					continue;
				percentile_name(pct, sizeof pct, col_name(fr, fr->y_cols[k]));
				snprintf(t, sizeof t, "%s %s", fr->groups[g], pct);
				fprintf(f, "%s$group%zu using 1:%zu with linespoints lt %zu dt %zu pt %d ps 2 title ",
					dash++ ? ", \\\n     " : "", g, k + 2, g % N_PALETTE + 1, seen + 1,
					seen ? 6 : point_types[g % N_PALETTE]);
				gp_str(f, t);
				seen++;
			}
		}
		if (slo > 0) {
			char v[48], t[100];
			text_format_real(slo, v, sizeof v);
			snprintf(t, sizeof t, "SLO %s ms", v);
			ref_line_plot(f, p == 0 ? "slo_a" : "slo_b", t, deadline_style);
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
	gp_str(f, ycol);
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
		size_t n, *idx = group_points(fr, g, &n);
		block_open(f, "group", g);
		for (size_t k = 0; k < n; k++) {
			num(f, fr->pts[idx[k]].x);
			fputc(' ', f);
			num(f, fr->pts[idx[k]].y[0]);
			fputc('\n', f);
		}
		block_close(f);
		free(idx);
	}
	title_set(f, fr);
	fputs("plot ", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		fprintf(f, "%s$group%zu using 1:2 with points lt %zu ps 2.5 title ", g ? ", \\\n     " : "", g,
			g % N_PALETTE + 1);
		gp_str(f, fr->groups[g]);
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
	char buf[200];
	fputs("# one horizontal bar per team row: segments 0-P50, P50-P90, P90-P99 of the queue wait\n"
	      "# (the block: label, y, then the percentiles, each bounding a segment)\n", f);
	fputs("set style fill solid 0.9 border rgb '#222222'\n", f);
	{
		size_t used = (size_t)snprintf(buf, sizeof buf, "queue wait: ");
		for (size_t k = 0; k < fr->ny && used < sizeof buf; k++)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", k ? ", " : "",
						 col_name(fr, fr->y_cols[k]));
		if (used < sizeof buf)
			snprintf(buf + used, sizeof buf - used, " (%s)", unit_of(col_name(fr, fr->y_cols[0])));
		set_label(f, "x", buf);
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
			char text[200], w[48];
			size_t used = 0;
			text[0] = '\0';
			for (size_t k = 0; k < fr->ny && used < sizeof text; k++) {
				char pct[64];
				percentile_name(pct, sizeof pct, col_name(fr, fr->y_cols[k]));
				wait_text(fr->pts[i].y[k], w, sizeof w);
				used += (size_t)snprintf(text + used, sizeof text - used, "%s%s %s", k ? ", " : "", pct, w);
			}
			fputc(' ', f);
			data_str(f, text);
		}
		fputc('\n', f);
	}
	block_close(f);
	title_set(f, fr);
	fputs("plot ", f);
	for (size_t k = 0; k < fr->ny; k++) {
		size_t lo = k + 3, hi = k + 4;
		char pct[64];
		percentile_name(pct, sizeof pct, col_name(fr, fr->y_cols[k]));
		fprintf(f, "%s$bars0 using (($%zu+$%zu)/2):2:%zu:%zu:($2-0.35):($2+0.35)%s with boxxyerror lt %zu title ",
			k ? ", \\\n     " : "", lo, hi, lo, hi, k == 0 ? ":ytic(1)" : "", k % N_PALETTE + 1);
		gp_str(f, pct);
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
	fprintf(f, "# one horizontal bar per team row%s, the total (%s) at its end\n",
		split ? ": its own GPU-hours' dollars, then its share of the idle ones" : "", total);
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
		char v[64];
		bar_head(f, fr, i, fr->pts[i].label);
		fputc(' ', f);
		num(f, t - idle);
		fputc(' ', f);
		num(f, t);
		usd_text(t, v, sizeof v);
		fputc(' ', f);
		data_str(f, v);
		fputc('\n', f);
	}
	block_close(f);
	title_set(f, fr);
	fputs("plot $bars0 using ($3/2):2:(0):3:($2-0.35):($2+0.35):ytic(1) with boxxyerror lt 1 title ", f);
	gp_str(f, split ? "own GPU-hours" : total);
	if (split) {
		fputs(", \\\n     $bars0 using (($3+$4)/2):2:3:4:($2-0.35):($2+0.35) with boxxyerror lt 5 title ", f);
		gp_str(f, "share of the idle GPU-hours");
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
	fprintf(f, "# %zu panel(s): the fractions of the GPUs (0 to 1), then the other columns; one colour per %s\n",
		(size_t)(nf > 0) + (no > 0), fr->group_col >= 0 ? col_name(fr, fr->group_col) : "chart");
	group_blocks(f, fr);
	fprintf(f, "set multiplot layout %zu,1 title ", (size_t)(nf > 0) + (no > 0));
	gp_str(f, fr->title);
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
		char buf[200];
		size_t used = 0;
		if (m == 0)
			continue;
		buf[0] = '\0';
		for (size_t k = 0; k < m && used < sizeof buf; k++)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", k ? ", " : "",
						 col_name(fr, fr->y_cols[cols[k]]));
		if (used < sizeof buf)
			snprintf(buf + used, sizeof buf - used, " (%s)", unit_of(col_name(fr, fr->y_cols[cols[0]])));
		set_label(f, "y", buf);
		if (panel == 0)
			fputs("set yrange [0:1.05]\nset ytics 0.2\n", f);
		else
			fputs("set yrange [0:*]\nset ytics autofreq\n", f);
		fputs("plot ", f);
		for (size_t g = 0, d = 0; g < fr->ngroups; g++)
			for (size_t k = 0; k < m; k++) {
				char t[200];
				snprintf(t, sizeof t, "%s %s", fr->groups[g], col_name(fr, fr->y_cols[cols[k]]));
				fprintf(f, "%s$group%zu using 1:%zu with lines lt %zu dt %zu lw %d title ", d++ ? ", \\\n     " : "",
					g, cols[k] + 2, g % N_PALETTE + 1, k + 1, k == 0 ? 3 : 2);
				gp_str(f, t);
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

static int resolve_columns(struct frame *fr, struct cs_error *err)
{
	const struct plot_request *q = fr->req;
	const struct kind_spec *s = fr->spec;
	bool bars = s->x == NULL && q->kind != PLOT_SCATTER;
	const char *label = bars && q->x != NULL ? q->x : s->label;

	fr->x_col = fr->label_col = fr->group_col = -1;
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
	return 0;
}

/* A numeric cell: 0 with *v, 1 when empty, -1 (with err) when not a finite number. */
static int cell_number(const struct frame *fr, const struct csvtable_row *row, int col, double *v,
		       struct cs_error *err)
{
	const char *s = row->cells[col];
	char *end;
	if (s[0] == '\0')
		return 1;
	*v = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(*v)) {
		char shown[80];
		text_quote(s, shown, sizeof shown);
		return error_set(err, "results '%s': line %zu: column '%s': expected a number, got %s", fr->req->input,
				 row->line, fr->t->header[col], shown);
	}
	return 0;
}

/* Statuses seen on rows that are not ok, for the message when none is. */
struct status_count {
	char name[24];
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
		snprintf(sc[*nsc].name, sizeof sc[*nsc].name, "%s", status[0] ? status : "(empty)");
		sc[(*nsc)++].n = 1;
	}
}

static int nothing_to_chart(const struct frame *fr, const struct plot_info *info, const struct status_count *sc,
			    size_t nsc, struct cs_error *err)
{
	char what[200] = "";
	size_t used = 0;
	if (info->rows == 0)
		return error_set(err, "results '%s': no rows to chart (only a header)", fr->req->input);
	if (info->ok == 0) {
		for (size_t i = 0; i < nsc && used < sizeof what; i++)
			used += (size_t)snprintf(what + used, sizeof what - used, "%s%zu %s", i ? ", " : "", sc[i].n,
						 sc[i].name);
		return error_set(err, "results '%s': no row has status ok, nothing to chart (%zu rows: %s)",
				 fr->req->input, info->rows, what);
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
	int cand_col = find_col(t, "candidate", 9);
	const char *first_cand = NULL;

	fr->pts = xcalloc(t->nrows ? t->nrows : 1, sizeof *fr->pts);
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
		if (team_col >= 0 && cand_col >= 0) {
			if (first_cand == NULL)
				first_cand = row->cells[cand_col];
			else if (strcmp(first_cand, row->cells[cand_col]) != 0)
				fr->multi_candidate = true;
		}
		info->ok++;
		memset(pt, 0, sizeof *pt);
		pt->row = r;
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
				snprintf(info->no_value_column, sizeof info->no_value_column, "%s", t->header[empty_col]);
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

/* The row's own name: its label column's cell, else its row_id, else its line. */
static char *base_label(const struct frame *fr, const struct point *p)
{
	const struct csvtable_row *row = &fr->t->rows[p->row];
	int id = find_col(fr->t, "row_id", 6);
	int cand = find_col(fr->t, "candidate", 9);
	if (fr->multi_candidate && cand >= 0 && fr->label_col >= 0)
		return xasprintf("%s / %s", row->cells[cand], row->cells[fr->label_col]);
	if (fr->label_col >= 0 && row->cells[fr->label_col][0] != '\0')
		return xstrdup(row->cells[fr->label_col]);
	if (id >= 0 && row->cells[id][0] != '\0')
		return xasprintf("row %s", row->cells[id]);
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
 * the row_id. */
static void disambiguate(struct frame *fr, int pass)
{
	size_t *idx = xcalloc(fr->n ? fr->n : 1, sizeof *idx);
	int id = find_col(fr->t, "row_id", 6);

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
			char extra[256] = "";
			size_t used = 0;
			if (pass == 0) {
				for (size_t c = 0; c < fr->t->ncols && used < sizeof extra; c++)
					if (strncmp(fr->t->header[c], "set:", 4) == 0)
						used += (size_t)snprintf(extra + used, sizeof extra - used, "%s%s",
									 used ? ", " : "", row->cells[c]);
			} else if (id >= 0) {
				snprintf(extra, sizeof extra, "row %s", row->cells[id]);
			} else {
				snprintf(extra, sizeof extra, "line %zu", row->line);
			}
			if (extra[0] != '\0') {
				char *l = xasprintf("%s [%s]", p->label, extra);
				free(p->label);
				p->label = l;
			}
		}
		a = b;
	}
	free(idx);
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
	for (size_t i = 0; i < fr->n; i++) {
		const char *g = group_cell(fr, &fr->pts[i]);
		size_t k = 0;
		if (fr->group_col < 0)
			g = fr->ny == 1 ? col_name(fr, fr->y_cols[0]) : "rows";
		while (k < fr->ngroups && strcmp(fr->groups[k], g) != 0)
			k++;
		if (k == fr->ngroups) {
			fr->groups = xreallocarray(fr->groups, fr->ngroups + 1, sizeof *fr->groups);
			fr->groups[fr->ngroups++] = xstrdup(g);
		}
		fr->pts[i].group = k;
	}
}

struct by_x {
	double x;
	size_t row, i;
};

static int cmp_by_x(const void *a, const void *b)
{
	const struct by_x *p = a, *q = b;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->row < q->row ? -1 : p->row > q->row;
}

static size_t *group_points(const struct frame *fr, size_t g, size_t *n)
{
	struct by_x *r = xcalloc(fr->n ? fr->n : 1, sizeof *r);
	size_t *idx, m = 0;
	for (size_t i = 0; i < fr->n; i++)
		if (fr->pts[i].group == g)
			r[m++] = (struct by_x){ fr->pts[i].x, fr->pts[i].row, i };
	qsort(r, m, sizeof *r, cmp_by_x);
	idx = xcalloc(m ? m : 1, sizeof *idx);
	for (size_t k = 0; k < m; k++)
		idx[k] = r[k].i;
	free(r);
	*n = m;
	return idx;
}

/* "TITLE: SCENARIO" when every charted row has one scenario, else "TITLE: FILE". */
static void make_title(struct frame *fr)
{
	const struct plot_request *q = fr->req;
	int sc = find_col(fr->t, "scenario", 8);
	const char *name = NULL, *slash;
	char custom[160];
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
			snprintf(custom, sizeof custom, "%s against %s", col_name(fr, fr->y_cols[0]), col_name(fr, fr->x_col));
		else
			snprintf(custom, sizeof custom, "%s by %s", col_name(fr, fr->y_cols[0]), col_name(fr, fr->label_col));
		title = q->kind == PLOT_SCATTER || q->kind == PLOT_COST || q->kind == PLOT_SCALING ? custom : title;
	}
	snprintf(fr->title, sizeof fr->title, "%s: %s", title, name);
}

static void preamble(FILE *f, const struct frame *fr, const struct plot_info *info)
{
	const struct plot_request *q = fr->req;
	fprintf(f, "# clustersim plot --chart %s of '", plot_kind_names[q->kind]);
	comment_str(f, q->input);
	fprintf(f, "': %zu points from the %zu of %zu rows with status ok\n", info->charted, info->ok, info->rows);
	fputs("# columns:", f);
	if (fr->x_col >= 0)
		fprintf(f, " x %s,", col_name(fr, fr->x_col));
	fputs(" y", f);
	for (size_t k = 0; k < fr->ny; k++)
		fprintf(f, "%s %s", k ? "," : "", col_name(fr, fr->y_cols[k]));
	if (fr->label_col >= 0)
		fprintf(f, ", label %s", col_name(fr, fr->label_col));
	if (fr->group_col >= 0)
		fprintf(f, ", group %s", col_name(fr, fr->group_col));
	fputs("\n# render: gnuplot '", f);
	comment_str(f, q->script_path != NULL ? q->script_path : "FILE.gp");
	fputs("' writes '", f);
	comment_str(f, q->image_path);
	fputs("' (gnuplot -e \"outfile='other.png'\" ... writes another file)\n", f);
	fputs("if (!exists(\"outfile\")) outfile = ", f);
	gp_str(f, q->image_path);
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
	for (size_t g = 0; g < fr->ngroups; g++)
		free(fr->groups[g]);
	free(fr->groups);
}

char *plot_script(const struct csvtable *t, const struct plot_request *req, struct plot_info *info,
		  struct cs_error *err)
{
	struct frame fr;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(&fr, 0, sizeof fr);
	memset(info, 0, sizeof *info);
	fr.t = t;
	fr.req = req;
	fr.spec = &kinds[req->kind];
	if (t->header == NULL) {
		error_set(err, "results '%s': no header line, nothing to chart", req->input);
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
