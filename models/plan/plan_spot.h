/*
 * plan_spot: what spot saves over on-demand in a plan's outcome, in one
 * line, or why no spot shape is ok. It reads the outcome plan_search gave
 * and never evaluates anything.
 */
#ifndef CLUSTERSIM_MODELS_PLAN_PLAN_SPOT_H
#define CLUSTERSIM_MODELS_PLAN_PLAN_SPOT_H

#include <stdbool.h>
#include <stddef.h>

#include "models/plan/plan.h"

/* What spot saves: the cheapest spot shape that is ok and meets the
 * objective against the cheapest on-demand one, at P50 and at P90 (the
 * Monte Carlo trials of its preemptions), or why no spot shape is; false
 * (buf empty) when the space has no spot shapes. */
bool plan_spot(const struct plan_outcome *o, char *buf, size_t size);

#endif
