/*
 * plot_lines: the charts of values against an x column: scaling (one line
 * per group through its best point at each GPU count, with ideal
 * scaling), latency (percentile panels against the arrival rate, the
 * SLOs), scatter (any two columns) and utilization (a fleet's series over
 * time). Each writes the plot commands for a frame
 * (output/plot_frame.h) whose preamble the driver wrote.
 */
#ifndef CLUSTERSIM_OUTPUT_PLOT_LINES_H
#define CLUSTERSIM_OUTPUT_PLOT_LINES_H

#include <stdio.h>

struct plot_frame;

void plot_lines_scaling(FILE *f, const struct plot_frame *fr);
void plot_lines_latency(FILE *f, const struct plot_frame *fr);
void plot_lines_scatter(FILE *f, const struct plot_frame *fr);
void plot_lines_utilization(FILE *f, const struct plot_frame *fr);

#endif
