/*
 * plot_pareto: the pareto chart (wall time against dollars, one colour
 * per group, the non-dominated points joined, the deadline and budget
 * lines, labels placed so that they do not overlap) and the Pareto front
 * it draws.
 */
#ifndef CLUSTERSIM_OUTPUT_PLOT_PARETO_H
#define CLUSTERSIM_OUTPUT_PLOT_PARETO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct plot_frame;

/*
 * The Pareto front of n points, both coordinates to be minimized:
 * on_front[i] is true when no other point is at most as large in both and
 * smaller in one. Of points equal in both, only the first is on the front.
 * O(n log n).
 */
void plot_pareto_front(const double *x, const double *y, size_t n, bool *on_front);

/* The pareto chart's plot commands for fr's points (output/plot_frame.h). */
void plot_pareto_emit(FILE *f, const struct plot_frame *fr);

#endif
