/*
 * layer: the time of one transformer layer for one micro-batch on one GPU.
 *
 * Kernel times from the roofline (GEMMs, attention, elementwise work),
 * recompute, and the collectives on the layer's critical path: tensor
 * parallel all-gathers / reduce-scatters (or all-reduces), expert
 * all-to-alls and the exposed part of the context-parallel ring. Also the
 * shape of a plan's groups on the cluster and a collective's time on one.
 * It never schedules anything: the pipeline and the data-parallel stream
 * are step.h's.
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_LAYER_H
#define CLUSTERSIM_MODELS_TRAIN_LAYER_H

#include <stdbool.h>

#include "models/comm/collective.h"
#include "models/hw/placement.h"
#include "models/hw/topology.h"
#include "models/kernel/roofline.h"
#include "models/train/train_types.h"
#include "util/error.h"

/* A plan on a cluster, as costing needs it. Borrows w, c and p. */
struct layer_ctx {
	const struct train_spec *w;
	const struct cluster_spec *c;
	const struct train_plan *p;
	struct topology topo;
	struct placement place;
	struct roofline k;
	struct roofline head_k; /* the output layer's GEMMs: 16-bit under FP8 or
				 * FP4 training, which keeps the output head in
				 * BF16 (Transformer Engine wraps the layers, not
				 * the head; DeepSeek-V3 report 3.3.1) */
	double tokens;        /* tokens per micro-batch on one GPU (after cp) */
	bool lora;            /* a LoRA or QLoRA finetune: frozen base weights */
};

/* Seconds of one layer for one micro-batch on one GPU. */
struct layer_time {
	double fwd;           /* forward compute */
	double bwd_input;     /* backward, input gradients (incl. attention) */
	double bwd_weight;    /* backward, weight gradients */
	double recompute;     /* extra forward work in backward */
	double tp_fwd, tp_bwd;/* tensor-parallel collectives (each pass) */
	double ep_fwd, ep_bwd;/* expert all-to-alls */
	double cp_fwd, cp_bwd;/* exposed context-parallel exchange */
	double attn_fwd;      /* attention core, forward */
	double dequant;       /* dequantizing (or casting) the frozen base before
			       * one pass: in fwd, in bwd_input and in a full
			       * recompute (0 when the GEMMs read it as stored) */
};

/* Seconds communication of comm_s overlapped with compute_s adds
 * (roofline_overlap_s at the training engine's overlap_slowdown). */
static inline double layer_overlap_s(const struct layer_ctx *x, double comm_s, double compute_s)
{
	return roofline_overlap_s(x->w->model->training.overlap_slowdown, comm_s, compute_s);
}

/* Set x up for plan p of w on c; returns 0, or -1 with err set when the
 * plan's rank order is not valid. Nothing to release. */
int layer_ctx_init(struct layer_ctx *x, const struct train_spec *w, const struct cluster_spec *c,
		   const struct train_plan *p, struct cs_error *err);

/* Host seconds to launch one eager layer's forward and backward for one
 * micro-batch (plan key host_launch_bound; layer.c says how it was set). */
extern const double layer_host_launch_s;

/* The time of one dense (moe false) or mixture-of-experts layer into *lt. */
void layer_cost(const struct layer_ctx *x, bool moe, struct layer_time *lt);

/* Nodes and ranks per node of the group of `size` ranks along `dim`
 * containing rank 0 (along DIM_DP with size below dp: an expert-parallel
 * group, the first `size` replicas). */
void layer_group_shape(const struct layer_ctx *x, enum plan_dim dim, int size, struct collective_group *g);

/* The data-parallel group with context parallelism (dp x cp ranks: those
 * of tp rank 0 and pipeline stage 0), which Megatron's gradient buffers
 * reduce over and its distributed optimizer shards over
 * (megatron/core/distributed/param_and_grad_buffer.py); the dp group when
 * cp is 1. */
void layer_dp_cp_group_shape(const struct layer_ctx *x, struct collective_group *g);

/* Seconds of collective op of `bytes` on group g (0 when g has one rank or
 * there is nothing to move). Asserts the collective can run: every valid
 * cluster of more than one node has a scale-out NIC. */
double layer_coll_s(const struct layer_ctx *x, const struct collective_group *g, enum collective_op op, double bytes);

/* Of a uniform all-to-all's inter-node bytes, the share node-limited routing
 * to at most max_nodes nodes sends (each token once per node; 1 when
 * max_nodes is 0 or nodes is 1) for k=active of `experts` over `nodes`. */
double layer_moe_net_scale(int experts, int active, int nodes, int max_nodes);

/* Of a MoE layer's all-to-alls, the share an overlap mode runs behind another
 * micro-batch's pass, for pp stages of vpp chunks and `microbatches`. */
double layer_moe_paired_share(enum moe_overlap mode, enum schedule_kind schedule, int pp, int vpp, int microbatches);

/* The all-to-all time left exposed, and the slowdown of the hidden part,
 * when Megatron-Core's 1F1B overlap merges one micro-batch's forward of a
 * MoE layer (its dispatch and combine, attention and experts) with
 * another's backward (its combine's and dispatch's gradients, attention
 * and experts): three phases, combine_bwd beside the attention forward,
 * both dispatches beside both experts' passes, combine_fwd beside the
 * attention backward. Into *fwd_s (the forward's all-to-alls) and *bwd_s;
 * `slowdown` is what a second of hidden all-to-all still costs (the
 * training engine's ep_overlap_slowdown). */
void layer_moe_pair_exposed(double dispatch_fwd, double combine_fwd, double dispatch_bwd, double combine_bwd,
			    double attn_fwd, double mlp_fwd, double attn_bwd, double mlp_bwd, double slowdown,
			    double *fwd_s, double *bwd_s);

/* Seconds of a MoE layer's token permutation and unpermutation in one pass
 * (memory-bound: 2 (1 + k) T h activation bytes). */
double layer_moe_permute_s(const struct layer_ctx *x);

#endif
