/*
 * bucket: the data-parallel gradient buckets of one virtual stage (chunk).
 *
 * A chunk's gradients are reduced over its data-parallel group in one
 * bucket per layer (an all-reduce, or a reduce-scatter under ZeRO-1/2);
 * the buckets become ready evenly over the chunk's last backward operation
 * and run one after another on a communication stream, and what runs
 * under that backward slows it (the training engine's overlap_slowdown). Both ways of
 * running a step use these facts: step.h in closed form, fullstep.h as
 * flows. This module never simulates anything itself.
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_BUCKET_H
#define CLUSTERSIM_MODELS_TRAIN_BUCKET_H

#include "models/comm/collective.h"
#include "models/train/layer.h"

/* The buckets of one chunk. */
struct bucket_chunk {
	int buckets;              /* one per layer, at least 1 */
	double bytes;             /* gradient bytes per bucket */
	enum collective_op op;
	struct coll_cost cost;    /* one bucket on the DP group (all zero when nothing to move) */
};

/* The buckets of a chunk of `layers` layers whose gradients cover
 * grad_params parameters, reduced on group dpg under x's plan. */
void bucket_chunk_init(struct bucket_chunk *b, const struct layer_ctx *x, const struct collective_group *dpg,
		       int layers, double grad_params);

/* Seconds after the start of the chunk's last backward operation (taking
 * duration_s) at which bucket j of n is ready. */
double bucket_ready_after_s(double duration_s, int j, int n);

/* The chunk's buckets on the communication stream, free from *comm_free_s,
 * when its last backward operation took duration_s and ended at end_s;
 * returns (and leaves in *comm_free_s) when the last bucket is done. */
double bucket_stream_end_s(const struct bucket_chunk *b, double end_s, double duration_s, double *comm_free_s);

/* Seconds the buckets reduced under the chunk's last backward operation
 * (taking duration_s) add to it. */
double bucket_slowdown_s(const struct bucket_chunk *b, double duration_s, double slowdown);

#endif
