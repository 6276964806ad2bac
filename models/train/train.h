/*
 * training: one training step under a parallel plan, and the plan search.
 *
 * For a model, a concrete plan and a cluster: the memory each GPU needs
 * (weights, gradients, optimizer states sharded by ZeRO, activations per
 * Korthikanti et al. with tensor/sequence/context parallelism and the
 * recompute mode, pipeline micro-batches in flight, a workspace margin), the
 * time of every kernel (a roofline per GPU and precision: large GEMMs at the
 * measured MAMF fraction, memory-bound kernels at a fraction of HBM
 * bandwidth, a launch cost each), the collectives on the critical path
 * (tensor parallel all-gathers / reduce-scatters, expert all-to-alls, the
 * exposed part of context-parallel exchanges), the pipeline schedule
 * simulated as a task graph (pipeline.h), data-parallel gradient
 * reductions bucketed and overlapped with the last backward pass on a
 * separate communication stream, and the optimizer step.
 *
 * By default one representative pipeline is simulated and the data-parallel
 * collectives are costed over the topology (all DP groups run at once,
 * each rank on its own NIC share). The full mode (TRAIN_FULL) simulates every
 * rank's communication as flows through the fabric, so groups that share
 * links slow each other.
 *
 * This header holds the entry point and the plan's numerics in words; the
 * records (spec, plan, memory, result) are train_types.h's, which it
 * includes, so callers outside the folder include this header alone. The
 * work is in parallel.h (plans), memory.h, layer.h, bucket.h, step.h,
 * fullstep.h, search.h and ../kernel/roofline.h. It never includes
 * jansson or the scenario reader: the scenario fills these records.
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_TRAIN_H
#define CLUSTERSIM_MODELS_TRAIN_TRAIN_H

#include <stddef.h>

#include "models/hw/hw.h"
#include "models/train/train_types.h"

struct timeline;

/* The settings of p that change numerics from Megatron's defaults for w's
 * precision (search_numerics_names joined by +; "" for none) into buf. */
void train_plan_numerics(const struct train_spec *w, const struct train_plan *p, char *buf, size_t size);

/* The scenario's plan; when any field is "auto", the fastest plan that fits
 * (r->searched, r->plans_tried say so). When trace is not NULL, the step of
 * the plan in r is logged in it (nothing when no plan runs). */
void train_evaluate(const struct train_spec *w, const struct cluster_spec *c,
		    struct timeline *trace, struct train_result *r);

#endif
