#include "plot_bars.h"

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
#include "output/results_column.h"
#include "util/text.h"
#include "util/xalloc.h"

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

static bool all_fractions(const struct plot_frame *fr)
{
	for (size_t k = 0; k < fr->ny; k++)
		if (strcmp(plot_gp_unit_of(plot_gp_col_name(fr, fr->y_cols[k])), "fraction") != 0)
			return false;
	return true;
}

/* Horizontal bars, the first row at the top, so that long candidate names
 * read level at the left: the y axis of both bar charts. */
static void bars_y_axis(FILE *f, const struct plot_frame *fr)
{
	fprintf(f, "set yrange [-0.6:%zu.6]\nset ytics nomirror scale 0\n", fr->n - 1);
	plot_gp_axis_label_set(f, fr, "y", plot_gp_col_name(fr, fr->label_col));
	fputs("set grid xtics noytics\n", f);
}

/* The bar of row k (0 first) sits at y = n - 1 - k. */
static void bar_head(FILE *f, const struct plot_frame *fr, size_t k, const char *label)
{
	gpquote_data(f, label);
	fprintf(f, " %zu", fr->n - 1 - k);
}

void plot_bars_breakdown(FILE *f, const struct plot_frame *fr)
{
	bool fractions = all_fractions(fr);

	fputs("# one horizontal bar per row, its columns stacked left to right in the order of the file;\n"
	      "# the block holds each bar's label, its y, then the running sums that bound its segments\n", f);
	fputs("set style fill solid 0.9 border rgb '#222222'\n", f);
	if (fractions) {
		/* the frac_ columns split the GPUs' wall-clock time and add up to 1 */
		plot_gp_set_label(f, fr, "x", "share of held GPU time (fraction)");
		fputs("set xrange [0:1]\nset xtics 0.1\n", f);
	} else {
		struct plot_gp_sbuf b = { 0 };
		char *label;
		for (size_t k = 0; k < fr->ny; k++) {
			char *w = results_column_words(plot_gp_col_name(fr, fr->y_cols[k]));
			plot_gp_sbuf_printf(&b, "%s%s", k ? " + " : "", w);
			free(w);
		}
		label = plot_gp_sbuf_take(&b);
		plot_gp_set_label(f, fr, "x", label);
		free(label);
		fputs("set xrange [0:*]\n", f);
	}
	bars_y_axis(f, fr);
	fputs("set key below horizontal spacing 1.2 height 1.5\n", f);
	plot_gp_block_open(f, "bars", 0);
	for (size_t i = 0; i < fr->n; i++) {
		double sum = 0;
		bar_head(f, fr, i, fr->pts[i].label);
		fputs(" 0", f);
		for (size_t k = 0; k < fr->ny; k++) {
			sum += fr->pts[i].y[k];
			fputc(' ', f);
			plot_gp_num(f, sum);
		}
		fputc('\n', f);
	}
	plot_gp_block_close(f);
	plot_gp_title_set(f, fr);
	fputs("plot ", f);
	for (size_t k = 0; k < fr->ny; k++) {
		size_t lo = k + 3, hi = k + 4;
		char *name = series_name(plot_gp_col_name(fr, fr->y_cols[k]));
		fprintf(f, "%s$bars0 using (($%zu+$%zu)/2):2:%zu:%zu:($2-0.35):($2+0.35)%s with boxxyerror lt %zu title ",
			k ? ", \\\n     " : "", lo, hi, lo, hi, k == 0 ? ":ytic(1)" : "", k % PLOT_GP_PALETTE_N + 1);
		gpquote_string(f, name);
		free(name);
	}
	fputc('\n', f);
}

static int cmp_by_y(const void *a, const void *b)
{
	const struct plot_point *p = *(const struct plot_point *const *)a, *q = *(const struct plot_point *const *)b;
	if (p->y[0] != q->y[0])
		return p->y[0] < q->y[0] ? -1 : 1;
	return p->row < q->row ? -1 : p->row > q->row;
}

/* The bars' labels as ytics, each at its bar (a coloured chart plots
 * each group's bars alone, so no one plot clause sees every label). */
static void bar_ytics(FILE *f, const struct plot_frame *fr, const struct plot_point *const *order)
{
	fputs("set ytics (", f);
	for (size_t i = 0; i < fr->n; i++) {
		fputs(i ? ", " : "", f);
		gpquote_string(f, order[i]->label);
		fprintf(f, " %zu", fr->n - 1 - i);
	}
	fputs(")\n", f);
}

/* One horizontal bar per row, cheapest at the top, its value at its end;
 * with a group column (--color-by provider, price_type), each group's
 * bars in its own colour with its own legend entry. */
void plot_bars_cost(FILE *f, const struct plot_frame *fr)
{
	const struct plot_point **order = xcalloc(fr->n, sizeof *order);
	const char *ycol = plot_gp_col_name(fr, fr->y_cols[0]);
	bool usd = strcmp(plot_gp_unit_of(ycol), "USD") == 0, coloured = fr->group_col >= 0;

	for (size_t i = 0; i < fr->n; i++)
		order[i] = &fr->pts[i];
	qsort(order, fr->n, sizeof *order, cmp_by_y);
	fputs("# one horizontal bar per row, cheapest at the top, its value written at its end", f);
	if (coloured) {
		fputs("; one colour per ", f);
		gpquote_comment(f, plot_gp_col_name(fr, fr->group_col));
		fputs(" (the block's last field: the group)", f);
	}
	fputc('\n', f);
	fputs("set style fill solid 0.85 border rgb '#222222'\n", f);
	plot_gp_axis_label_set(f, fr, "x", ycol);
	fputs("set xrange [0:*]\nset offsets 0, graph 0.12, 0, 0\n", f);
	if (usd)
		fputs("set format x '$%g'\n", f);
	bars_y_axis(f, fr);
	if (coloured)
		bar_ytics(f, fr, order);
	fputs("set key below horizontal spacing 1.2 height 1.5\n", f);  /* outside: never over a bar */
	plot_gp_block_open(f, "bars", 0);
	for (size_t i = 0; i < fr->n; i++) {
		bar_head(f, fr, i, order[i]->label);
		fputc(' ', f);
		plot_gp_num(f, order[i]->y[0]);
		if (coloured)
			fprintf(f, " %zu", order[i]->group);
		fputc('\n', f);
	}
	plot_gp_block_close(f);
	plot_gp_title_set(f, fr);
	if (!coloured) {
		char *words = plot_gp_words(fr, fr->y_cols[0]);  /* which tokens the cost is per */
		fputs("plot $bars0 using ($3/2):2:(0):3:($2-0.35):($2+0.35):ytic(1) with boxxyerror lt 1 title ", f);
		gpquote_string(f, words);
		free(words);
	} else {
		/* another group's row: y undefined (1/0), so gnuplot skips it */
		fputs("plot ", f);
		for (size_t g = 0; g < fr->ngroups; g++) {
			fprintf(f, "%s$bars0 using ($3/2):($4 == %zu ? $2 : 1/0):(0):3:($2-0.35):($2+0.35) with boxxyerror "
				"lt %zu title ", g ? ", \\\n     " : "", g, g % PLOT_GP_PALETTE_N + 1);
			gpquote_string(f, fr->groups[g]);
		}
	}
	fprintf(f, ", \\\n     $bars0 using 3:2:(%s) with labels left offset char 0.5,0 font ',15' notitle\n",
		usd ? "$3 < 100 ? sprintf('$%.2f', $3) : sprintf('$%.0f', $3)" : "sprintf('%.3g', $3)");
	free(order);
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

/* The objective the waits are held to: the first positive number in the
 * file's objective_wait_p90_h column (a fleet's row carries it, its team
 * rows do not), within PLOT_VALUE_MAX; 0 when the file has none. */
static double waits_objective_h(const struct plot_frame *fr)
{
	for (size_t c = 0; c < fr->t->ncols; c++) {
		if (strcmp(fr->t->header[c], "objective_wait_p90_h") != 0)
			continue;
		for (size_t i = 0; i < fr->t->nrows; i++) {
			const char *s = c < fr->t->rows[i].ncells ? fr->t->rows[i].cells[c] : NULL;
			char *end;
			double v = s != NULL && s[0] != '\0' ? strtod(s, &end) : 0;
			if (v > 0 && v <= PLOT_VALUE_MAX && *end == '\0')
				return v;
		}
	}
	return 0;
}

/* The queue wait of each team row: one horizontal bar per row, the first
 * at the top, its segments nested percentiles (0 to P50, P50 to P90, P90
 * to P99: they never decrease), each percentile written at the bar's end. */
void plot_bars_waits(FILE *f, const struct plot_frame *fr)
{
	double objective_h = waits_objective_h(fr);
	fputs("# one horizontal bar per team row: segments 0-P50, P50-P90, P90-P99 of the queue wait\n"
	      "# (the block: label, y, then the percentiles, each bounding a segment)\n", f);
	fputs("set style fill solid 0.9 border rgb '#222222'\n", f);
	{
		struct plot_gp_sbuf b = { 0 };
		char *label;
		/* "Queue wait (h)": the segments' percentiles are in the legend */
		char *w = plot_gp_family_words(plot_gp_col_name(fr, fr->y_cols[0]));
		plot_gp_sbuf_printf(&b, "%s (%s)", w, plot_gp_unit_of(plot_gp_col_name(fr, fr->y_cols[0])));
		free(w);
		label = plot_gp_sbuf_take(&b);
		plot_gp_set_label(f, fr, "x", label);
		free(label);
	}
	{
		/* room at the right for the longest bar's text (14-point: about 10 pixels a character) */
		double w = (double)(fr->ny * 18) * 10.0 / 1390, pad = w < 0.8 ? w / (1 - w) + 0.03 : 4;
		fprintf(f, "set xrange [0:*]\nset offsets 0, graph %.3f, 0, 0\n", pad);
	}
	bars_y_axis(f, fr);
	fputs("set key below horizontal spacing 1.2 height 1.5\n", f);
	plot_gp_block_open(f, "bars", 0);
	for (size_t i = 0; i < fr->n; i++) {
		bar_head(f, fr, i, fr->pts[i].label);
		fputs(" 0", f);
		for (size_t k = 0; k < fr->ny; k++) {
			double v = fr->pts[i].y[k];
			for (size_t j = 0; j < k; j++)  /* a segment never runs backwards */
				v = fmax(v, fr->pts[i].y[j]);
			fputc(' ', f);
			plot_gp_num(f, v);
		}
		/* the bar's text: every percentile */
		{
			struct plot_gp_sbuf b = { 0 };
			char w[48], *text;
			for (size_t k = 0; k < fr->ny; k++) {
				char *pct = plot_gp_percentile_name(plot_gp_col_name(fr, fr->y_cols[k]));
				wait_text(fr->pts[i].y[k], w, sizeof w);
				plot_gp_sbuf_printf(&b, "%s%s %s", k ? ", " : "", pct, w);
				free(pct);
			}
			text = plot_gp_sbuf_take(&b);
			fputc(' ', f);
			gpquote_data(f, text);
			free(text);
		}
		fputc('\n', f);
	}
	plot_gp_block_close(f);
	/* the objective the P90 waits are held to, a vertical line across the bars */
	if (objective_h > 0)
		plot_gp_ref_line_block(f, "objective", objective_h, -0.6, objective_h, (double)fr->n - 0.4);
	plot_gp_title_set(f, fr);
	fputs("plot ", f);
	for (size_t k = 0; k < fr->ny; k++) {
		size_t lo = k + 3, hi = k + 4;
		char *pct = plot_gp_percentile_name(plot_gp_col_name(fr, fr->y_cols[k]));
		fprintf(f, "%s$bars0 using (($%zu+$%zu)/2):2:%zu:%zu:($2-0.35):($2+0.35)%s with boxxyerror lt %zu title ",
			k ? ", \\\n     " : "", lo, hi, lo, hi, k == 0 ? ":ytic(1)" : "", k % PLOT_GP_PALETTE_N + 1);
		gpquote_string(f, pct);
		free(pct);
	}
	fprintf(f, ", \\\n     $bars0 using %zu:2:%zu with labels left offset char 0.5,0 font ',14' notitle",
		fr->ny + 3, fr->ny + 4);
	if (objective_h > 0) {
		char v[48], *t;
		wait_text(objective_h, v, sizeof v);
		t = xasprintf("objective: P90 wait %s", v);
		plot_gp_ref_line_plot(f, "objective", t, plot_gp_deadline_style);
		free(t);
	}
	fputc('\n', f);
}

/* Each team row's dollars: one horizontal bar per row, the first at the
 * top, split into its own GPU-hours' dollars (usd_total - idle_usd) and
 * its share of the idle ones (idle_usd) when the file has both, the total
 * written at the end. */
void plot_bars_team_cost(FILE *f, const struct plot_frame *fr)
{
	bool split = fr->ny == 2;
	const char *total = plot_gp_col_name(fr, fr->y_cols[0]);
	fprintf(f, "# one horizontal bar per team row%s, the total (",
		split ? ": its own GPU-hours' dollars, then its share of the idle ones" : "");
	gpquote_comment(f, total);
	fputs(") at its end\n", f);
	fputs("set style fill solid 0.85 border rgb '#222222'\n", f);
	plot_gp_axis_label_set(f, fr, "x", total);
	fputs("set xrange [0:*]\nset offsets 0, graph 0.15, 0, 0\n", f);
	if (strcmp(plot_gp_unit_of(total), "USD") == 0)
		fputs("set format x '$%.1s%c'\n", f);
	bars_y_axis(f, fr);
	fputs("set key below horizontal spacing 1.2 height 1.5\n", f);
	plot_gp_block_open(f, "bars", 0);
	for (size_t i = 0; i < fr->n; i++) {
		double t = fr->pts[i].y[0], idle = split ? fmin(fmax(fr->pts[i].y[1], 0), t) : 0;
		char *v = plot_gp_usd_text(t);
		bar_head(f, fr, i, fr->pts[i].label);
		fputc(' ', f);
		plot_gp_num(f, t - idle);
		fputc(' ', f);
		plot_gp_num(f, t);
		fputc(' ', f);
		gpquote_data(f, v);
		fputc('\n', f);
		free(v);
	}
	plot_gp_block_close(f);
	plot_gp_title_set(f, fr);
	fputs("plot $bars0 using ($3/2):2:(0):3:($2-0.35):($2+0.35):ytic(1) with boxxyerror lt 1 title ", f);
	gpquote_string(f, split ? "own GPU-hours" : total);
	if (split) {
		fputs(", \\\n     $bars0 using (($3+$4)/2):2:3:4:($2-0.35):($2+0.35) with boxxyerror lt 5 title ", f);
		gpquote_string(f, "share of the idle GPU-hours");
	}
	fputs(", \\\n     $bars0 using 4:2:5 with labels left offset char 0.5,0 font ',15' notitle\n", f);
}
