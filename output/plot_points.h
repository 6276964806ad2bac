/*
 * plot_points: a chart's frame from the results table: the columns it
 * reads (the kind's defaults or --x/--y/--group), the rows with status
 * ok and a value in each (checked to be numbers within PLOT_VALUE_MAX),
 * their labels, duplicates dropped, their groups, and the title. Writes
 * no script.
 */
#ifndef CLUSTERSIM_OUTPUT_PLOT_POINTS_H
#define CLUSTERSIM_OUTPUT_PLOT_POINTS_H

#include "output/plot_frame.h"
#include "util/error.h"

/* The columns fr's kind and request read, into fr's _col fields: -1 with
 * err set (naming the column or the option) when one is missing or its
 * name holds a control character. */
int plot_points_columns(struct plot_frame *fr, struct cs_error *err);

/* The rows to chart into fr->pts (owned by fr), *info counted: -1 with
 * err set when a cell is not a number or too large, or no row is left. */
int plot_points_read(struct plot_frame *fr, struct plot_info *info, struct cs_error *err);

/* The points as the chart draws them: labelled (made unique), duplicates
 * dropped (info->charted counts the rest), grouped. */
void plot_points_shape(struct plot_frame *fr, struct plot_info *info);

/* fr->title (owned by fr): "TITLE: SCENARIO" when every charted row has
 * one scenario, else "TITLE: FILE". */
void plot_points_title(struct plot_frame *fr);

#endif
