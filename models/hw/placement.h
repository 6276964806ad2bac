/*
 * placement: which GPU runs which rank of a parallel plan.
 *
 * A rank has coordinates (tp, cp, pp, dp) in a plan of sizes
 * tp x cp x pp x dp = GPUs. Ranks are numbered with the first dimension
 * of the order varying fastest and GPU g runs rank g, so with the default
 * order "tp-cp-pp-dp" a tensor-parallel group is tp consecutive GPUs (inside
 * a node when tp <= GPUs per node), then context parallel, then pipeline
 * stages, then data parallel replicas. Expert parallelism is carved out of
 * data parallelism (an EP group is ep consecutive DP replicas), as in
 * Megatron. Another order, e.g. "tp-dp-pp", can be asked for.
 */
#ifndef CLUSTERSIM_MODELS_PLACEMENT_H
#define CLUSTERSIM_MODELS_PLACEMENT_H

#include <stdbool.h>

#include "util/error.h"

enum plan_dim { DIM_TP, DIM_CP, DIM_PP, DIM_DP, DIM_COUNT };
extern const char *const plan_dim_names[DIM_COUNT];

struct placement {
	int size[DIM_COUNT];
	int order[DIM_COUNT];   /* order[0] varies fastest */
	int stride[DIM_COUNT];  /* GPU index step of each dimension */
};

/* Set sizes and the order ("tp-cp-pp-dp" when order is NULL or "");
 * fails on an order that is not a permutation of tp, cp, pp, dp. */
int placement_init(struct placement *p, int tp, int cp, int pp, int dp, const char *order,
		   struct cs_error *err);

/* GPU of the rank at coordinates c[DIM_COUNT]. */
long placement_gpu(const struct placement *p, const int c[DIM_COUNT]);

/* Coordinates of the rank on GPU g. */
void placement_coords(const struct placement *p, long g, int c[DIM_COUNT]);

/*
 * The GPUs of the group along dimension `dim` that contains the rank at
 * coordinates c (c[dim] is ignored), in rank order, into out[size[dim]].
 */
void placement_group(const struct placement *p, enum plan_dim dim, const int c[DIM_COUNT], long *out);

/*
 * How many distinct nodes (GPU / gpus_per_node) hold the ranks whose
 * coordinates satisfy c[d] < count[d] for every d (1 <= count[d] <=
 * size[d]): e.g. count[DIM_DP] = dp and 1 elsewhere is rank 0's
 * data-parallel group. Arithmetic on the strides, without listing the GPUs:
 * the product of min(count, gpus_per_node) over the dimensions with a count
 * above 1 but the fastest of them (O(1) for one dimension, O(gpus_per_node)
 * for two), never more steps than listing them.
 */
long placement_nodes(const struct placement *p, const int count[DIM_COUNT], int gpus_per_node);

#endif
