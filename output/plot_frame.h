/*
 * plot_frame: the records one chart is drawn from, shared by the modules
 * of output/plot.h: the points (one a charted row), the frame (the rows
 * and the columns they come from) and a kind's entry in the table of
 * charts. Records only: no functions, and it includes no module of the
 * chart but its request's records.
 */
#ifndef CLUSTERSIM_OUTPUT_PLOT_FRAME_H
#define CLUSTERSIM_OUTPUT_PLOT_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output/csvtable.h"
#include "output/plot_request.h"

/* One charted row. */
struct plot_point {
	size_t row;              /* index in the table's rows */
	double x;                /* unused by the bar charts */
	double *y;               /* frame.ny values, in frame.yv */
	char *label;             /* owned */
	size_t group;            /* index in frame.groups */
	bool dropped;            /* a duplicate of an earlier point */
};

struct plot_kind_spec;

/* The rows a chart draws and the columns they come from. */
struct plot_frame {
	const struct csvtable *t;
	const struct plot_request *req;
	const struct plot_kind_spec *spec;
	const char *kind_name;  /* the kind as --chart spells it (plot_kind_names) */
	int x_col;               /* -1 for the bar charts (the label is the x) */
	int label_col;           /* -1: rows are labelled by row_id or line */
	int group_col;           /* -1: one group */
	int y_cols[PLOT_Y_MAX];
	size_t ny;
	int id_col, cand_col;    /* row_id, candidate: -1 when the file has none */
	struct plot_point *pts;
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
struct plot_kind_spec {
	const char *title;
	const char *x;           /* NULL for the bar charts: their x is the label column */
	const char *y;           /* comma list */
	const char *group;       /* used when the file has it; NULL: none */
	const char *label;       /* the label column (the bar charts' x) */
	void (*emit)(FILE *f, const struct plot_frame *fr);
	bool team_rows;          /* a fleet's team rows only: team set, class empty */
};

#endif
