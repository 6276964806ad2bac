/*
 * plot_request: the plain records of a chart request (output/plot.h): the
 * chart kinds, the picture formats, the limits a chart holds to, what to
 * chart and what was charted. Only records and constants: every module of
 * the chart (output/plot*.c) includes it, so it includes none of them.
 */
#ifndef CLUSTERSIM_OUTPUT_PLOT_REQUEST_H
#define CLUSTERSIM_OUTPUT_PLOT_REQUEST_H

#include <stddef.h>

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
	/* Axis labels instead of the columns' words (NULL: the words). */
	const char *xlabel, *ylabel;
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

#endif
