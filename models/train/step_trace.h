/*
 * step_trace: a logged step's operations detailed in its trace.
 *
 * After the pipeline (or the full mode) has logged each forward, backward
 * and weight-gradient operation as a span, each one gets its layer range
 * and FLOPs as args and, nested inside it layer by layer, what its time
 * holds besides kernels: the ZeRO-3 weight gathers, recompute, the
 * multi-token-prediction modules and the tensor, expert and context
 * parallel collectives on the critical path. It only adds to the trace:
 * it never changes a time (step.c computed them from the same costs).
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_STEP_TRACE_H
#define CLUSTERSIM_MODELS_TRAIN_STEP_TRACE_H

#include <stddef.h>

#include "models/train/layer.h"
#include "sim/timeline.h"

/* The per-layer costs a trace's operations are detailed with (borrowed). */
struct step_trace_costs {
	const struct layer_time *dense, *moe;
	double z3_f, z3_b;   /* ZeRO-3's exposed traffic per layer, forward and backward */
};

/* Detail every operation span of trace logged from index `from` on, of a
 * step of x's plan with P virtual stages costed as tc says. */
void step_trace_detail(const struct layer_ctx *x, int P, const struct step_trace_costs *tc,
		       struct timeline *trace, size_t from);

#endif
