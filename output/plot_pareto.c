#include "plot_pareto.h"

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
#include "output/plot_frame.h"
#include "output/plot_gp.h"
#include "util/text.h"
#include "util/xalloc.h"

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

/* Where v falls on an axis drawn over r widened by the offsets lo_pad and
 * hi_pad (fractions of the span, as `set offsets graph`), from 0 to 1. */
static double axis_pos(double v, struct plot_gp_range r, bool log_axis, double lo_pad, double hi_pad)
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
static double labels_right_pad(const struct plot_frame *fr, const double *xs, const bool *labelled, struct plot_gp_range rx,
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
static bool *label_choice(const struct plot_frame *fr, const double *xs, const double *ys, const bool *front)
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
static size_t place_labels(FILE *f, const struct plot_frame *fr, const double *xs, const double *ys,
			   const bool *labelled, struct plot_gp_range rx, struct plot_gp_range ry, bool logx, bool logy,
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
		plot_gp_num(f, xs[i]);
		fputs(", ", f);
		plot_gp_num(f, ys[i]);
		fprintf(f, " left offset char 1.2,%.1f font ',15' front\n", dy);
	}
	free(order);
	free(placed);
	return m;
}

void plot_pareto_emit(FILE *f, const struct plot_frame *fr)
{
	const struct plot_request *q = fr->req;
	double *xs = xcalloc(fr->n, sizeof *xs), *ys = xcalloc(fr->n, sizeof *ys);
	bool *front = xcalloc(fr->n, sizeof *front), *labelled;
	size_t nf = 0;
	struct plot_gp_range rx = plot_gp_range_empty(), ry = plot_gp_range_empty();
	bool logx, logy;
	double right_pad;

	for (size_t i = 0; i < fr->n; i++) {
		xs[i] = fr->pts[i].x;
		ys[i] = fr->pts[i].y[0];
		plot_gp_range_add(&rx, xs[i]);
		plot_gp_range_add(&ry, ys[i]);
	}
	plot_pareto_front(xs, ys, fr->n, front);
	if (q->deadline_h > 0)
		plot_gp_range_add(&rx, q->deadline_h);
	if (q->budget_usd > 0)
		plot_gp_range_add(&ry, q->budget_usd);
	logx = plot_gp_range_log(rx);
	logy = plot_gp_range_log(ry);
	for (size_t i = 0; i < fr->n; i++)
		nf += front[i];
	fprintf(f, "# the Pareto front: %zu of %zu points that no other point beats in both ", nf, fr->n);
	gpquote_comment(f, plot_gp_col_name(fr, fr->x_col));
	fputs(" and ", f);
	gpquote_comment(f, plot_gp_col_name(fr, fr->y_cols[0]));
	fputc('\n', f);
	plot_gp_axis_label_set(f, fr, "x", plot_gp_col_name(fr, fr->x_col));
	plot_gp_axis_label_set(f, fr, "y", plot_gp_col_name(fr, fr->y_cols[0]));
	plot_gp_axis_setup(f, "x", rx, logx, 10, strcmp(plot_gp_unit_of(plot_gp_col_name(fr, fr->x_col)), "USD") == 0);
	plot_gp_axis_setup(f, "y", ry, logy, 10, strcmp(plot_gp_unit_of(plot_gp_col_name(fr, fr->y_cols[0])), "USD") == 0);
	/* room at the right for the labels, which are written right of their points */
	labelled = label_choice(fr, xs, ys, front);
	right_pad = labels_right_pad(fr, xs, labelled, rx, logx);
	fprintf(f, "set offsets graph 0.03, graph %.3f, graph 0.08, graph 0.08\n", right_pad);
	fputs("set key below horizontal spacing 1.2 height 1.5\n", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		size_t n;
		const size_t *idx = plot_gp_group_points(fr, g, &n);
		plot_gp_block_open(f, "group", g);
		for (size_t k = 0; k < n; k++) {
			plot_gp_num(f, xs[idx[k]]);
			fputc(' ', f);
			plot_gp_num(f, ys[idx[k]]);
			fputc('\n', f);
		}
		plot_gp_block_close(f);
	}
	/* the front, in order of x (then y falls) */
	{
		struct ranked *r = xcalloc(fr->n ? fr->n : 1, sizeof *r);
		size_t m = 0;
		for (size_t i = 0; i < fr->n; i++)
			if (front[i])
				r[m++] = (struct ranked){ xs[i], ys[i], i };
		qsort(r, m, sizeof *r, cmp_ranked);
		plot_gp_block_open(f, "front", 0);
		for (size_t k = 0; k < m; k++) {
			plot_gp_num(f, r[k].x);
			fputc(' ', f);
			plot_gp_num(f, r[k].y);
			fputc('\n', f);
		}
		plot_gp_block_close(f);
		free(r);
	}
	place_labels(f, fr, xs, ys, labelled, rx, ry, logx, logy, right_pad);
	if (q->deadline_h > 0)
		plot_gp_ref_line_block(f, "deadline", q->deadline_h, ry.lo, q->deadline_h, ry.hi);
	if (q->budget_usd > 0)
		plot_gp_ref_line_block(f, "budget", rx.lo, q->budget_usd, rx.hi, q->budget_usd);
	plot_gp_title_set(f, fr);
	fputs("plot ", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		fprintf(f, "%s$group%zu using 1:2 with points lt %zu ps 2.5 title ", g ? ", \\\n     " : "", g,
			g % PLOT_GP_PALETTE_N + 1);
		gpquote_string(f, fr->groups[g]);
	}
	fprintf(f, ", \\\n     $front0 using 1:2 with linespoints lw 3 lc rgb '#222222' pt 6 ps 4 title "
		   "'Pareto front'");
	if (q->deadline_h > 0) {
		char v[48], *t;
		text_format_real(q->deadline_h, v, sizeof v);
		t = xasprintf("deadline %s h", v);
		plot_gp_ref_line_plot(f, "deadline", t, plot_gp_deadline_style);
		free(t);
	}
	if (q->budget_usd > 0) {
		char *v = plot_gp_usd_text(q->budget_usd), *t = xasprintf("budget %s", v);
		plot_gp_ref_line_plot(f, "budget", t, plot_gp_budget_style);
		free(t);
		free(v);
	}
	fputc('\n', f);
	free(labelled);
	free(front);
	free(xs);
	free(ys);
}
