/*
 * step: one training step of a concrete plan, assembled.
 *
 * From the layer costs (layer.h) it builds each virtual stage's forward,
 * backward and transfer times, runs the pipeline schedule (pipeline.h, or
 * every replica as flows in the full mode, fullstep.h), then each stage's
 * tail: the data-parallel gradient buckets overlapped with the last
 * backward (bucket.h), the optimizer and the ZeRO-1/2 weight all-gather.
 * It fills the result: step time, breakdown, memory verdict and rates.
 * The output layer, the loss and the MTP modules are costed by step_head.h.
 * With a trace it has each operation the pipeline logged detailed (its
 * layers and FLOPs, and nested inside it each layer's collectives on the
 * critical path: step_trace.h) and logs each stage's tail. It never
 * chooses a plan (search.h does).
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_STEP_H
#define CLUSTERSIM_MODELS_TRAIN_STEP_H

#include <stdbool.h>

#include "models/train/train_types.h"

struct timeline;

/* Simulate one step of plan p of w on c into *r (status OOM when it does
 * not fit, with the numbers all the same). trace may be NULL. */
void step_simulate(const struct train_spec *w, const struct cluster_spec *c,
		   const struct train_plan *p, struct train_result *r, struct timeline *trace);

/* The same, unless the time the busiest stage spends on its own kernels (a
 * lower bound on the step: no schedule beats it) is already at least
 * bound_s: then stop before the pipeline simulation, put that bound in
 * r->step_time_s and return false. The plan search uses this to skip plans
 * that cannot win. */
bool step_simulate_bounded(const struct train_spec *w, const struct cluster_spec *c,
			   const struct train_plan *p, struct train_result *r, struct timeline *trace,
			   double bound_s);

/* The lower bound step_simulate_bounded compares (the busiest stage's own
 * kernel time, with the pipeline's fill and drain before and after it),
 * without the memory check or the simulation; false when p cannot be
 * placed on c. */
bool step_lower_bound(const struct train_spec *w, const struct cluster_spec *c, const struct train_plan *p,
		      double *bound_s);

struct layer_ctx;

/* Seconds of the all-reduce of the gradient norm and the loss (16 bytes)
 * over every GPU of the plan: part of the data-parallel tail (t_comm_dp_s). */
double step_norm_allreduce_s(const struct layer_ctx *x);

#endif
