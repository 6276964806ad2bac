/*
 * plot: a chart of result rows (the CSV of run, sweep or plan) as a
 * gnuplot script that carries its data inline.
 *
 * One entry per chart kind in a table (its title, the columns it reads by
 * default, the function that writes its plot commands): pareto (wall time
 * against dollars, the non-dominated points joined), breakdown (the frac_
 * columns stacked per candidate), scaling (throughput or time against GPU
 * count, with ideal linear scaling from each group's smallest point),
 * latency (serving percentiles against the arrival rate), cost (dollars
 * per million tokens per candidate) and scatter (any two columns). Only
 * rows whose status is ok are charted; the script is a pure function of
 * the table and the request (the same bytes every time).
 *
 * It never runs gnuplot, never writes a file and never computes a result
 * figure: the only numbers it derives are the chart's own geometry (which
 * points are on the Pareto front, the ideal-scaling line, the extents of
 * the deadline and budget lines).
 *
 * Text from the input never reaches the script as a command: names and
 * cells are written only inside quoted strings and data fields
 * (output/gpquote.h), never raw in a comment, and a name the script
 * carries (a column drawn, a file, a --x/--y/--group value) with a control
 * character is refused. Memory and time: O(n log n) in the rows charted,
 * at most PLOT_ROWS_MAX of them.
 *
 * The modules: this one (the kinds table and the call), plot_request.h
 * (the records), plot_points (the columns and rows read, the points
 * shaped), plot_gp (the gnuplot text every chart shares), one module per
 * chart family (plot_pareto, plot_bars, plot_lines) and plot_groups; each
 * includes only modules listed after it.
 */
#ifndef CLUSTERSIM_OUTPUT_PLOT_H
#define CLUSTERSIM_OUTPUT_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "output/csvtable.h"
#include "output/plot_groups.h"
#include "output/plot_pareto.h"
#include "output/plot_request.h"
#include "util/error.h"

/* The kinds' names as --chart spells them, in enum order, ended by NULL. */
extern const char *const plot_kind_names[PLOT_KIND_COUNT + 1];

/* The kind named name into *out; false when there is none. */
bool plot_kind_parse(const char *name, enum plot_kind *out);

/* The format of an image path by its extension (.png or .svg, any case);
 * false for anything else. */
bool plot_format_of(const char *path, enum plot_format *out);

/*
 * The gnuplot script charting t (read from req->input) as req asks: a new
 * string the caller frees, with *info filled. NULL with err set (an input
 * error naming the file) when a column the chart needs is missing (naming
 * it), a cell it needs is not a number or is over PLOT_VALUE_MAX in
 * magnitude (naming the line, the column and the value), no row with
 * status ok is left to chart (an empty file, all rows oom, or every ok row
 * empty in a needed column), the file has more than req->rows_max rows, a
 * value of req is over PLOT_VALUE_MAX, or a name the script would carry
 * (a column it draws, a --x/--y/--group value, the results', the image's
 * or the script's file name) holds a control character (a byte below 0x20
 * or 0x7f), named with the file. O(n log n) in the rows.
 */
char *plot_script(const struct csvtable *t, const struct plot_request *req, struct plot_info *info,
		  struct cs_error *err);

#endif
