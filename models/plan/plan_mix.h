/*
 * plan_mix: the search for a mix of two GPU types that serves a plan's
 * load for less than either type alone (struct plan_mix in plan.h says
 * why a mix that meets the SLO in both parts meets it). It evaluates the
 * mixes it tries, each part on its own shape, through the plan problem's
 * callbacks and evaluate().
 */
#ifndef CLUSTERSIM_MODELS_PLAN_PLAN_MIX_H
#define CLUSTERSIM_MODELS_PLAN_PLAN_MIX_H

#include "models/plan/plan.h"

/* The cheapest mix of two GPU types for p after plan_search gave o. */
void plan_mix_search(const struct plan_problem *p, const struct plan_outcome *o, struct plan_mix *out);

#endif
