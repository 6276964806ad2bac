#include "plot_lines.h"

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
#include "output/results.h"
#include "util/text.h"
#include "util/xalloc.h"

/* How ideal scaling moves a column with the GPU count: a rate grows with
 * it, a time shrinks as its inverse, anything else has no ideal line. */
enum ideal { IDEAL_NONE, IDEAL_PROPORTIONAL, IDEAL_INVERSE };

static enum ideal ideal_of(const char *col)
{
	const char *u = plot_gp_unit_of(col);
	size_t n = strlen(u);
	if (strcmp(u, "s") == 0 || strcmp(u, "h") == 0 || strcmp(u, "ms") == 0 || strcmp(u, "us") == 0)
		return IDEAL_INVERSE;
	if (n > 2 && strcmp(u + n - 2, "/s") == 0)
		return IDEAL_PROPORTIONAL;
	return IDEAL_NONE;
}

static void distinct_xtics(FILE *f, const struct plot_frame *fr)
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
			plot_gp_num(f, v[k]);
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
static size_t best_per_x(const struct plot_frame *fr, const size_t *idx, size_t n, enum ideal ideal, size_t *best)
{
	size_t m = 0;
	for (size_t k = 0; k < n; k++) {
		const struct plot_point *p = &fr->pts[idx[k]];
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

static void xy_block(FILE *f, const struct plot_frame *fr, const char *name, size_t g, const size_t *idx, size_t n)
{
	plot_gp_block_open(f, name, g);
	for (size_t k = 0; k < n; k++) {
		plot_gp_num(f, fr->pts[idx[k]].x);
		fputc(' ', f);
		plot_gp_num(f, fr->pts[idx[k]].y[0]);
		fputc('\n', f);
	}
	plot_gp_block_close(f);
}

void plot_lines_scaling(FILE *f, const struct plot_frame *fr)
{
	const char *ycol = plot_gp_col_name(fr, fr->y_cols[0]);
	enum ideal ideal = ideal_of(ycol);
	struct plot_gp_range rx = plot_gp_range_empty(), ry = plot_gp_range_empty();
	bool loglog, *crowded = xcalloc(fr->ngroups ? fr->ngroups : 1, sizeof *crowded);
	double *base_x = xcalloc(fr->ngroups ? fr->ngroups : 1, sizeof *base_x);

	for (size_t i = 0; i < fr->n; i++) {
		plot_gp_range_add(&rx, fr->pts[i].x);
		plot_gp_range_add(&ry, fr->pts[i].y[0]);
	}
	/* GPU counts double from point to point: past 8x, log-log axes, where
	 * ideal scaling is a straight line of slope 1 (or -1 for a time) */
	loglog = rx.lo > 0 && ry.lo > 0 && rx.hi >= 8 * rx.lo;
	fprintf(f, "# ideal: %s\n", ideal == IDEAL_PROPORTIONAL ? "y0 x x / x0 from each group's smallest point (a rate)" :
		ideal == IDEAL_INVERSE ? "y0 x x0 / x from each group's smallest point (a time)" :
		"none (the y column is neither a rate nor a time)");
	fprintf(f, "# each line joins its group's best point at each x (%s); every point is drawn\n",
		ideal == IDEAL_PROPORTIONAL ? "the highest" : ideal == IDEAL_INVERSE ? "the lowest" : "the first");
	plot_gp_axis_label_set(f, fr, "x", plot_gp_col_name(fr, fr->x_col));
	plot_gp_axis_label_set(f, fr, "y", ycol);
	plot_gp_axis_setup(f, "y", ry, loglog, 10, strcmp(plot_gp_unit_of(ycol), "USD") == 0);
	if (loglog)
		fputs("set logscale x 2\nset autoscale xfix\n", f);
	else
		plot_gp_axis_setup(f, "x", rx, false, 10, false);
	distinct_xtics(f, fr);
	fputs("set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n", f);
	fputs("set key outside right top vertical spacing 1.2\n", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		size_t n, *best, m;
		const size_t *idx = plot_gp_group_points(fr, g, &n);
		const struct plot_point *b0;
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
			plot_gp_block_open(f, "ideal", g);
			for (size_t k = 0; k < m; k++) {
				plot_gp_num(f, fr->pts[best[k]].x);
				fputc(' ', f);
				plot_gp_num(f, ideal_y[k]);
				fputc('\n', f);
			}
			plot_gp_block_close(f);
		}
		free(ideal_y);
		free(best);
	}
	plot_gp_title_set(f, fr);
	fputs("plot ", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		fprintf(f, "%s$group%zu using 1:2 with linespoints lt %zu ps 2.5 title ", g ? ", \\\n     " : "", g,
			g % PLOT_GP_PALETTE_N + 1);
		gpquote_string(f, fr->groups[g]);
		if (crowded[g])
			fprintf(f, ", \\\n     $all%zu using 1:2 with points lt %zu pt 6 ps 2 notitle", g, g % PLOT_GP_PALETTE_N + 1);
		if (base_x[g] > 0) {
			char v[48], *t;
			text_format_real(base_x[g], v, sizeof v);
			t = xasprintf("%s, ideal from %s", fr->groups[g], v);
			fprintf(f, ", \\\n     $ideal%zu using 1:2 with lines lt %zu dt 2 lw 2 title ", g, g % PLOT_GP_PALETTE_N + 1);
			gpquote_string(f, t);
			free(t);
		}
	}
	fputc('\n', f);
	free(base_x);
	free(crowded);
}

void plot_lines_latency(FILE *f, const struct plot_frame *fr)
{
	const struct plot_request *q = fr->req;
	size_t panel_of[PLOT_Y_MAX], first[PLOT_Y_MAX], npanels = 0;
	struct plot_gp_range rx = plot_gp_range_empty();

	/* one panel per family (TTFT, TPOT...), in the order of --y */
	for (size_t k = 0; k < fr->ny; k++) {
		const char *c = plot_gp_col_name(fr, fr->y_cols[k]);
		size_t p = 0;
		while (p < npanels && !(plot_gp_family_len(c) == plot_gp_family_len(plot_gp_col_name(fr, fr->y_cols[first[p]])) &&
					strncmp(c, plot_gp_col_name(fr, fr->y_cols[first[p]]), plot_gp_family_len(c)) == 0))
			p++;
		if (p == npanels)
			first[npanels++] = k;
		panel_of[k] = p;
	}
	for (size_t i = 0; i < fr->n; i++)
		plot_gp_range_add(&rx, fr->pts[i].x);
	fprintf(f, "# %zu panels; in each, one colour per ", npanels);
	gpquote_comment(f, fr->group_col >= 0 ? plot_gp_col_name(fr, fr->group_col) : "chart");
	fputs(", p50 solid and higher percentiles dashed\n", f);
	plot_gp_group_blocks(f, fr);
	fprintf(f, "set multiplot layout 1,%zu title ", npanels);
	gpquote_string(f, fr->title);
	fputs(" font ',22'\n", f);
	plot_gp_axis_label_set(f, fr, "x", plot_gp_col_name(fr, fr->x_col));
	plot_gp_axis_setup(f, "x", rx, plot_gp_range_log(rx), 10, false);
	fputs("set key outside below vertical maxrows 4 height 1.5\n", f);
	fputs("set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n", f);
	for (size_t p = 0; p < npanels; p++) {
		const char *fam = plot_gp_col_name(fr, fr->y_cols[first[p]]);
		size_t fl = plot_gp_family_len(fam);
		const struct results_column *info = results_column_info(fam);
		double slo = strncmp(fam, "ttft", fl) == 0 && fl == 4 ? q->slo_ttft_ms :
			     strncmp(fam, "tpot", fl) == 0 && fl == 4 ? q->slo_tpot_ms : 0;
		struct plot_gp_range ry = plot_gp_range_empty();
		struct plot_gp_sbuf b = { 0 };
		char *text;
		size_t dash = 0;

		for (size_t i = 0; i < fr->n; i++)
			for (size_t k = 0; k < fr->ny; k++)
				if (panel_of[k] == p)
					plot_gp_range_add(&ry, fr->pts[i].y[k]);
		if (slo > 0)
			plot_gp_range_add(&ry, slo);
		/* the panel's title: the family in capitals and what it is ("time to first token") */
		text = xstrndup(fam, fl);
		for (char *c = text; *c; c++)
			if (*c >= 'a' && *c <= 'z')
				*c = (char)(*c - 'a' + 'A');
		plot_gp_sbuf_printf(&b, "%s", text);
		free(text);
		if (info != NULL)
			plot_gp_sbuf_printf(&b, ": %.*s", (int)strcspn(info->meaning, ","), info->meaning);
		text = plot_gp_sbuf_take(&b);
		fputs("set title ", f);
		gpquote_string(f, text);
		fputc('\n', f);
		free(text);
		/* "Time to first token (ms)": the percentiles are in the legend */
		text = plot_gp_family_words(fam);
		plot_gp_sbuf_printf(&b, "%s", text);
		free(text);
		if (plot_gp_unit_of(fam)[0] != '\0')
			plot_gp_sbuf_printf(&b, " (%s)", plot_gp_unit_of(fam));
		text = plot_gp_sbuf_take(&b);
		plot_gp_set_label(f, fr, "y", text);
		free(text);
		fputs("unset logscale y\nset ytics autofreq\nset format y '%g'\n", f);
		plot_gp_axis_setup(f, "y", ry, plot_gp_range_log(ry), 10, false);
		if (slo > 0) {
			plot_gp_ref_line_block(f, p == 0 ? "slo_a" : "slo_b", rx.lo, slo, rx.hi, slo);
		}
		fputs("plot ", f);
		dash = 0;
		for (size_t g = 0; g < fr->ngroups; g++) {
			size_t seen = 0;
			for (size_t k = 0; k < fr->ny; k++) {
				char *pct, *t;
				if (panel_of[k] != p)
					continue;
				pct = plot_gp_percentile_name(plot_gp_col_name(fr, fr->y_cols[k]));
				t = xasprintf("%s %s", fr->groups[g], pct);
				fprintf(f, "%s$group%zu using 1:%zu with linespoints lt %zu dt %zu pt %d ps 2 title ",
					dash++ ? ", \\\n     " : "", g, k + 2, g % PLOT_GP_PALETTE_N + 1, seen + 1,
					seen ? 6 : plot_gp_point_types[g % PLOT_GP_PALETTE_N]);
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
			plot_gp_ref_line_plot(f, p == 0 ? "slo_a" : "slo_b", t, plot_gp_deadline_style);
			free(t);
		}
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
}

void plot_lines_scatter(FILE *f, const struct plot_frame *fr)
{
	struct plot_gp_range rx = plot_gp_range_empty(), ry = plot_gp_range_empty();
	for (size_t i = 0; i < fr->n; i++) {
		plot_gp_range_add(&rx, fr->pts[i].x);
		plot_gp_range_add(&ry, fr->pts[i].y[0]);
	}
	plot_gp_axis_label_set(f, fr, "x", plot_gp_col_name(fr, fr->x_col));
	plot_gp_axis_label_set(f, fr, "y", plot_gp_col_name(fr, fr->y_cols[0]));
	plot_gp_axis_setup(f, "x", rx, plot_gp_range_log(rx), 10, strcmp(plot_gp_unit_of(plot_gp_col_name(fr, fr->x_col)), "USD") == 0);
	plot_gp_axis_setup(f, "y", ry, plot_gp_range_log(ry), 10, strcmp(plot_gp_unit_of(plot_gp_col_name(fr, fr->y_cols[0])), "USD") == 0);
	fputs("set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n", f);
	fputs("set key outside right top vertical spacing 1.2\n", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		size_t n;
		const size_t *idx = plot_gp_group_points(fr, g, &n);
		plot_gp_block_open(f, "group", g);
		for (size_t k = 0; k < n; k++) {
			plot_gp_num(f, fr->pts[idx[k]].x);
			fputc(' ', f);
			plot_gp_num(f, fr->pts[idx[k]].y[0]);
			fputc('\n', f);
		}
		plot_gp_block_close(f);
	}
	plot_gp_title_set(f, fr);
	fputs("plot ", f);
	for (size_t g = 0; g < fr->ngroups; g++) {
		fprintf(f, "%s$group%zu using 1:2 with points lt %zu ps 2.5 title ", g ? ", \\\n     " : "", g,
			g % PLOT_GP_PALETTE_N + 1);
		gpquote_string(f, fr->groups[g]);
	}
	fputc('\n', f);
}

/* Utilization over time: one panel of the fraction columns (allocated
 * solid, the next dashed...) and one of the others (queued jobs), one
 * colour per candidate. */
void plot_lines_utilization(FILE *f, const struct plot_frame *fr)
{
	size_t frac[PLOT_Y_MAX], other[PLOT_Y_MAX], nf = 0, no = 0;
	struct plot_gp_range rx = plot_gp_range_empty();
	for (size_t k = 0; k < fr->ny; k++) {
		if (strcmp(plot_gp_unit_of(plot_gp_col_name(fr, fr->y_cols[k])), "fraction") == 0)
			frac[nf++] = k;
		else
			other[no++] = k;
	}
	for (size_t i = 0; i < fr->n; i++)
		plot_gp_range_add(&rx, fr->pts[i].x);
	fprintf(f, "# %zu panel(s): the fractions of the GPUs (0 to 1), then the other columns; one colour per ",
		(size_t)(nf > 0) + (no > 0));
	gpquote_comment(f, fr->group_col >= 0 ? plot_gp_col_name(fr, fr->group_col) : "chart");
	fputc('\n', f);
	plot_gp_group_blocks(f, fr);
	fprintf(f, "set multiplot layout %zu,1 title ", (size_t)(nf > 0) + (no > 0));
	gpquote_string(f, fr->title);
	fputs(" font ',22'\n", f);
	plot_gp_axis_label_set(f, fr, "x", plot_gp_col_name(fr, fr->x_col));
	plot_gp_axis_setup(f, "x", rx, false, 10, false);
	/* both panels' plots the same width, the keys' longest entry (at 14
	 * points about 10 pixels a character, and the line sample) beside them */
	{
		size_t longest = 0;
		for (size_t g = 0; g < fr->ngroups; g++)
			for (size_t k = 0; k < fr->ny; k++) {
				size_t l = strlen(fr->groups[g]) + 1 + strlen(plot_gp_col_name(fr, fr->y_cols[k]));
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
		struct plot_gp_sbuf b = { 0 };
		char *label;
		if (m == 0)
			continue;
		for (size_t k = 0; k < m; k++) {
			char *w = results_column_words(plot_gp_col_name(fr, fr->y_cols[cols[k]]));
			plot_gp_sbuf_printf(&b, "%s%s", k ? ", " : "", w);
			free(w);
		}
		plot_gp_sbuf_printf(&b, " (%s)", plot_gp_unit_of(plot_gp_col_name(fr, fr->y_cols[cols[0]])));
		label = plot_gp_sbuf_take(&b);
		plot_gp_set_label(f, fr, "y", label);
		free(label);
		if (panel == 0)
			fputs("set yrange [0:1.05]\nset ytics 0.2\n", f);
		else
			fputs("set yrange [0:*]\nset ytics autofreq\n", f);
		fputs("plot ", f);
		for (size_t g = 0, d = 0; g < fr->ngroups; g++)
			for (size_t k = 0; k < m; k++) {
				char *t = xasprintf("%s %s", fr->groups[g], plot_gp_col_name(fr, fr->y_cols[cols[k]]));
				fprintf(f, "%s$group%zu using 1:%zu with lines lt %zu dt %zu lw %d title ", d++ ? ", \\\n     " : "",
					g, cols[k] + 2, g % PLOT_GP_PALETTE_N + 1, k + 1, k == 0 ? 3 : 2);
				gpquote_string(f, t);
				free(t);
			}
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
}
