/*
 * plot_bars: the charts with one horizontal bar per row, the first row at
 * the top: breakdown (the frac_ columns stacked), cost (one value,
 * cheapest first), and a fleet's team rows: waits (queue-wait percentiles
 * nested) and team-cost (own GPU-hours' dollars and the idle share).
 * Each writes the plot commands for a frame (output/plot_frame.h) whose
 * preamble the driver wrote.
 */
#ifndef CLUSTERSIM_OUTPUT_PLOT_BARS_H
#define CLUSTERSIM_OUTPUT_PLOT_BARS_H

#include <stdio.h>

struct plot_frame;

void plot_bars_breakdown(FILE *f, const struct plot_frame *fr);
void plot_bars_cost(FILE *f, const struct plot_frame *fr);
void plot_bars_waits(FILE *f, const struct plot_frame *fr);
void plot_bars_team_cost(FILE *f, const struct plot_frame *fr);

#endif
