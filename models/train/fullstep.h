/*
 * fullstep: one training step with every rank's traffic as flows (the
 * TRAIN_FULL mode).
 *
 * Every pipeline replica runs on one engine. Activation and gradient
 * transfers between stages are flows from each tensor/context-parallel rank
 * of a stage to the same rank of the next (contending on NICs, rails and
 * leaf uplinks with everything else); data-parallel gradient buckets
 * (bucket.h) are collectives run as flows on every (tp, cp) rank's DP
 * group, a bucket starting once every replica has produced it and the
 * group's previous bucket is done. Tensor, expert and context parallel
 * collectives stay inside the operations (they are on the critical path
 * within a node). It never costs kernels or assembles the step: step.h
 * gives it the operation times and reads its result.
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_FULLSTEP_H
#define CLUSTERSIM_MODELS_TRAIN_FULLSTEP_H

#include "models/train/bucket.h"
#include "models/train/layer.h"
#include "models/train/pipeline.h"
#include "sim/timeline.h"

/*
 * Run the step of pipeline configuration pc under x's plan with every
 * replica, chunks[vs] the buckets of each virtual stage (reduced only with
 * dp > 1, ZeRO below 3 and no LoRA). Fills pr with the merged pipeline
 * result (each stage's latest end over the replicas; release with
 * pipeline_result_release) and stage_dp_end_s[pp] with when each stage's
 * data-parallel communication ended. trace (may be NULL) logs replica 0.
 */
void fullstep_run(const struct layer_ctx *x, const struct pipeline_config *pc, const struct bucket_chunk *chunks,
		  struct pipeline_result *pr, double *stage_dp_end_s, struct timeline *trace);

#endif
