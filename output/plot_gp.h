/*
 * plot_gp: the gnuplot text every chart of output/plot.h shares: numbers,
 * axis labels and ranges (log or linear, ticks written out), the title,
 * inline data blocks, reference lines, the palette, and a growing string
 * for labels. It writes only to the stream it is given, and text from the
 * input only through output/gpquote.h.
 */
#ifndef CLUSTERSIM_OUTPUT_PLOT_GP_H
#define CLUSTERSIM_OUTPUT_PLOT_GP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output/plot_frame.h"
#include "util/error.h"

/* The chart is 1600 x 1000 pixels with an 18-point font: a full slide
 * shown on a projector stays legible. */
enum { PLOT_WIDTH_PX = 1600, PLOT_HEIGHT_PX = 1000, PLOT_FONT_PT = 18 };

/* A long legend makes the picture taller (output/plot.c), up to this. */
enum { PLOT_HEIGHT_MAX_PX = 4000 };

/* Okabe and Ito's colour-blind-safe palette and a point type per colour;
 * series k is drawn in linetype k % PLOT_GP_PALETTE_N + 1. */
enum { PLOT_GP_PALETTE_N = 8 };
extern const char *const plot_gp_palette[PLOT_GP_PALETTE_N];
extern const int plot_gp_point_types[PLOT_GP_PALETTE_N];

/* The styles of a limit the user gave (deadline, SLO) and of a budget. */
extern const char plot_gp_deadline_style[];
extern const char plot_gp_budget_style[];

/* A string built piece by piece, of any length (user text is never cut):
 * start from { 0 }. */
struct plot_gp_sbuf {
	char *s;
	size_t len, cap;
};

/* Append to b. */
void plot_gp_sbuf_printf(struct plot_gp_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The string built (caller frees; "" when nothing was added); b is empty again. */
char *plot_gp_sbuf_take(struct plot_gp_sbuf *b);

/* A finite number as the script carries it. */
void plot_gp_num(FILE *f, double v);

/* Column col's name in fr's table; "" for -1. Borrowed from the table. */
const char *plot_gp_col_name(const struct plot_frame *fr, int col);

/* A column's unit as the table of columns gives it (output/results.h); "" when it has none. */
const char *plot_gp_unit_of(const char *name);

/* Column col of fr's table in words (output/results_column.h), for a
 * title or a legend; usd_per_mtok of a serving file (one with
 * output_tok_s) written before usd_per_mtok_output is that column's
 * words, per million output tokens. Caller frees. */
char *plot_gp_words(const struct plot_frame *fr, int col);

/* `set AXISlabel "TEXT"`, or the request's --xlabel / --ylabel for the x
 * or y axis when given (a quoted string: output/gpquote.h). */
void plot_gp_set_label(FILE *f, const struct plot_frame *fr, const char *axis, const char *text);

/* `set AXISlabel "WORDS (UNIT)"`: column name in words with its unit
 * (output/results_column.h: "Cost, P50 (USD)"), the unit left out for
 * text columns; --xlabel / --ylabel replace it. */
void plot_gp_axis_label_set(FILE *f, const struct plot_frame *fr, const char *axis, const char *name);

/* A family of columns in words, for an axis that draws several: the
 * first column's words up to ", P" ("Time to first token, P50" ->
 * "Time to first token"). Caller frees. */
char *plot_gp_family_words(const char *col);

/* The extent of values on an axis. */
struct plot_gp_range {
	double lo, hi;
};

/* A range holding nothing yet. */
struct plot_gp_range plot_gp_range_empty(void);

/* r widened to hold v. */
void plot_gp_range_add(struct plot_gp_range *r, double v);

/* Whether r is drawn on a log scale (all positive, spanning a ratio of 20 or more). */
bool plot_gp_range_log(struct plot_gp_range r);

/* One axis's scale, range and ticks (base 2 or 10 on a log scale; usd: dollar ticks). */
void plot_gp_axis_setup(FILE *f, const char *axis, struct plot_gp_range r, bool log_axis, int base, bool usd);

/* `set title` with fr's title. */
void plot_gp_title_set(FILE *f, const struct plot_frame *fr);

/* A block of inline data: `$NAMEi << EOD` ... `EOD`. */
void plot_gp_block_open(FILE *f, const char *name, size_t i);
void plot_gp_block_close(FILE *f);

/* The points of group g, sorted by x then row (borrowed from the frame); *n their count. */
const size_t *plot_gp_group_points(const struct plot_frame *fr, size_t g, size_t *n);

/* One data block per group ($group0 ...): each point's x, then its y columns. */
void plot_gp_group_blocks(FILE *f, const struct plot_frame *fr);

/* A reference line's two-point block $NAME, and its plot clause (a legend entry in style). */
void plot_gp_ref_line_block(FILE *f, const char *name, double x0, double y0, double x1, double y1);
void plot_gp_ref_line_plot(FILE *f, const char *name, const char *title, const char *style);

/* Whole dollars with thousands separators: "$1,500,000" (cents below $100). Caller frees. */
char *plot_gp_usd_text(double v);

/* A latency column's family's length: "ttft_p99_ms" -> 4 ("ttft"), else the whole name's. */
size_t plot_gp_family_len(const char *col);

/* The percentile part of a column for a legend: "ttft_p99_ms" -> "p99". Caller frees. */
char *plot_gp_percentile_name(const char *col);

/* 0, or -1 with an input error naming it after what when name holds a
 * control character (which no quoting would show as it is). */
int plot_gp_refuse_control(const char *name, const char *what, struct cs_error *err);

#endif
