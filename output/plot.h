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
};

/* What plot_script() charted, for the caller's notes. */
struct plot_info {
	size_t rows;        /* rows in the file */
	size_t ok;          /* of them with status ok */
	size_t charted;     /* points drawn (duplicates of an earlier point dropped) */
	size_t no_value;    /* ok rows left out for an empty cell */
	char no_value_column[64];  /* the first such cell's column */
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
 * it), a cell it needs is not a number (naming the line, the column and
 * the value), or no row with status ok is left to chart (an empty file,
 * all rows oom, or every ok row empty in a needed column).
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

#endif
