/*
 * search: the fastest plan that fits, for a scenario with "auto" fields.
 *
 * Enumerates the plans the given fields allow (tp within a node, pp, vpp,
 * cp for long sequences, ep for mixture-of-experts models, ZeRO 1 or 3,
 * micro-batch, selective or full recompute), bounds each one that fits
 * from below and simulates from the smallest bound up, skipping plans whose
 * bound cannot win. It never logs a trace and never costs anything itself
 * (step.h does).
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_SEARCH_H
#define CLUSTERSIM_MODELS_TRAIN_SEARCH_H

#include "models/train/train_types.h"

/* The fastest plan of w->plan's space on c into *r (ties go to the plan
 * enumerated first); when none fits, the smallest (status OOM), when none
 * divides the cluster, OUTCOME_INVALID with the last reason. Sets
 * r->searched and r->plans_tried. */
void search_plans(const struct train_spec *w, const struct cluster_spec *c, struct train_result *r);

#endif
