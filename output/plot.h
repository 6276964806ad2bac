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
 */
#ifndef CLUSTERSIM_OUTPUT_PLOT_H
#define CLUSTERSIM_OUTPUT_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "output/csvtable.h"
#include "util/error.h"

enum plot_kind {
	PLOT_PARETO,
	PLOT_BREAKDOWN,
	PLOT_SCALING,
	PLOT_LATENCY,
	PLOT_COST,
	PLOT_SCATTER,
	PLOT_WAITS,         /* a fleet's team rows: queue wait P50/P90/P99 */
	PLOT_TEAM_COST,     /* a fleet's team rows: dollars, own GPU-hours and idle share */
	PLOT_UTILIZATION,   /* run --series: allocated, busy and queued over time */
	PLOT_KIND_COUNT
};

/* The kinds' names as --chart spells them, in enum order, ended by NULL. */
extern const char *const plot_kind_names[PLOT_KIND_COUNT + 1];

/* The picture gnuplot is asked for: pngcairo or svg. */
enum plot_format { PLOT_PNG, PLOT_SVG };

/* The most series columns a chart takes (--y a,b,c). */
enum { PLOT_Y_MAX = 16 };

/* The most rows a results file may have for plot (each is held in memory
 * with its point): ten million. */
enum { PLOT_ROWS_MAX = 10000000 };

/* The largest magnitude a charted value may have (a cell, --deadline-h,
 * --budget-usd, an SLO): the chart's geometry (a range widened by a tenth,
 * sixteen stacked segments, a tick past the last value) stays finite. */
#define PLOT_VALUE_MAX 1e300

/* Point labels of a pareto chart: every point up to this many points, the
 * Pareto front's beyond, and of a front longer than PLOT_LABELS_MAX that
 * many of its points, spread evenly along it (more would only overlap). */
enum { PLOT_LABEL_ALL_MAX = 20, PLOT_LABELS_MAX = 100 };

/* What to chart and how. Strings are borrowed for the call. */
struct plot_request {
	enum plot_kind kind;
	enum plot_format format;
	const char *input;       /* the results file's name, for messages and the title */
	const char *image_path;  /* where the script's `set output` points */
	const char *script_path; /* the script's own name, for its "render with" comment */
	/* Column overrides (NULL: the kind's default). y may be a comma list
	 * where the kind draws several series (breakdown, latency). */
	const char *x, *y, *group;
	/* Reference lines, drawn when > 0. */
	double deadline_h, budget_usd;   /* pareto */
	double slo_ttft_ms, slo_tpot_ms; /* latency */
	size_t rows_max;         /* the most rows charted; 0: PLOT_ROWS_MAX (tests give fewer) */
};

/* What plot_script() charted, for the caller's notes. */
struct plot_info {
	size_t rows;        /* rows in the file */
	size_t ok;          /* of them with status ok */
	size_t charted;     /* points drawn (duplicates of an earlier point dropped) */
	size_t no_value;    /* ok rows left out for an empty cell */
	const char *no_value_column;  /* the first such cell's column: borrowed from the table, NULL if none */
};

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

/*
 * The Pareto front of n points, both coordinates to be minimized:
 * on_front[i] is true when no other point is at most as large in both and
 * smaller in one. Of points equal in both, only the first is on the front.
 * O(n log n).
 */
void plot_pareto_front(const double *x, const double *y, size_t n, bool *on_front);

/*
 * Number n names by distinct value, in order of first appearance:
 * group_of[i] is the number of names[i] (names[0] gets 0); returns how
 * many distinct names there are. O(n log n) (a sort, never a search of
 * the groups so far per name). names are borrowed.
 */
size_t plot_groups(const char *const *names, size_t n, size_t *group_of);

#endif
