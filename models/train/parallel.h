/*
 * parallel: a parallel plan made concrete, and how it cuts the model.
 *
 * Fills the fields a scenario left "auto" with plain defaults, checks that
 * the plan divides the cluster, the model and the batch, and says which
 * layers and how many parameters each virtual pipeline stage holds on one
 * GPU. It never costs anything (no kernel times, no communication) and
 * never searches: search.h chooses among plans.
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_PARALLEL_H
#define CLUSTERSIM_MODELS_TRAIN_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>

#include "models/train/train_types.h"

/* The most pipeline operations (micro-batches x pp x vpp) one step may
 * have: beyond it a plan is invalid, so one evaluation stays well under a
 * second and a gigabyte whatever the batch. Real runs have a few thousand. */
enum { PARALLEL_MAX_PIPELINE_OPS = 1 << 20 };

/* Room for the reason parallel_fill gives (a longer one would end with
 * util/text.h's cut mark). */
enum { PARALLEL_WHY_MAX = 512 };

/*
 * Fill the plan fields that are PLAN_AUTO with plain defaults (tp 1, pp 1,
 * vpp 1, cp 1, ep 1, zero 1, micro_batch 1, 1F1B or interleaved,
 * selective recompute, sequence parallel when tp > 1, dp from the GPU
 * count) and check the plan; returns whether it can run, else false with
 * the reason in why[0..why_size) (PARALLEL_WHY_MAX holds any).
 */
bool parallel_fill(const struct train_spec *w, const struct cluster_spec *c, const struct parallel_plan *req,
		   struct train_plan *out, char *why, size_t why_size);

/* Which of parallel_fill's checks a plan failed, in the order they run
 * (a later one means the plan got further). */
enum parallel_failure {
	PARALLEL_FAIL_NONE, PARALLEL_FAIL_GPUS, PARALLEL_FAIL_DP, PARALLEL_FAIL_HEADS, PARALLEL_FAIL_LAYERS,
	PARALLEL_FAIL_CP, PARALLEL_FAIL_EP, PARALLEL_FAIL_BATCH, PARALLEL_FAIL_OPS, PARALLEL_FAIL_SCHEDULE,
	PARALLEL_FAIL_TP_NODES
};

/* parallel_fill, and *failed says which check failed (PARALLEL_FAIL_NONE
 * when the plan can run). */
bool parallel_fill_check(const struct train_spec *w, const struct cluster_spec *c, const struct parallel_plan *req,
			 struct train_plan *out, char *why, size_t why_size, enum parallel_failure *failed);

/* The whole numbers of sequences nearest `seqs` that `divisor` divides:
 * *below (0 when none is at least divisor) and *above, both seqs when it
 * divides. */
void parallel_nearest_batch(double seqs, double divisor, double *below, double *above);

/* The data-parallel degree x micro-batch a request divides the batch by on
 * c (dp from the GPUs when auto), or 0 when tp x cp x pp does not divide
 * the GPUs. */
double parallel_batch_divisor(const struct cluster_spec *c, const struct parallel_plan *req);

/* The global batch (tokens) request req runs with: w's, or with
 * w->round_batch the nearest whole number of sequences its dp x
 * micro_batch divides (ties to the smaller; at least one per replica). */
double parallel_batch_tokens(const struct train_spec *w, const struct cluster_spec *c, const struct parallel_plan *req);

/* Whether any field of q is PLAN_AUTO. */
bool parallel_has_auto(const struct parallel_plan *q);

/* Layers [*first, *first + *count) of virtual stage vs of P: the first
 * (layers mod P) virtual stages get one more. */
void parallel_stage_layers(int layers, int P, int vs, int *first, int *count);

/* Layers [*first, *first + *count) of virtual stage vs of P under plan p's
 * layout when it has one (layout.h), else its split:
 * parallel_stage_layers' rule over the layers, or, under
 * SPLIT_EMBEDDING_LOSS, over layers + 2 slots of which the first is the
 * embedding's and the last the loss's (*count may then be 0 on the first
 * or the last virtual stage). */
void parallel_vstage_layers(const struct train_plan *p, int layers, int P, int vs, int *first, int *count);

/* Bytes per gradient element held and reduced over data parallelism for a
 * run in precision pr with a plan's grad_reduce (enum grad_reduce). */
double parallel_grad_bytes(enum precision pr, int grad_reduce);

/* Dense and mixture-of-experts layers among [first, first + count). */
void parallel_layer_mix(const struct model_spec *m, int first, int count, int *dense, int *moe);

/* Parameters one GPU holds for virtual stage vs of P (tensor and expert
 * sharded, embeddings on the first and the output projection on the last). */
double parallel_vstage_params(const struct model_spec *m, const struct train_plan *p, int vs, int P);

/* The pipeline layout a plan of w points to (w's own, valid while w
 * lives), or NULL. A plan filled from a copy of w (a rounded batch) is
 * pointed back at w's with it before the copy is freed. */
const struct pipeline_layout *parallel_layout_of(const struct train_spec *w);

/* The multi-token-prediction modules on virtual stage vs of P: where the
 * plan's pipeline layout puts them, else all of them on the last
 * (Megatron-Core's default placement). */
int parallel_vstage_mtp(const struct model_spec *m, const struct train_plan *p, int vs, int P);

/* The busiest expert-parallel rank's tokens over the mean: the plan's
 * moe_load_imbalance with ep > 1, else 1 (a GPU holding every expert does
 * the same work however the router spreads the tokens). */
double parallel_moe_imbalance(const struct train_plan *p);

/* Whether the experts have their own tensor parallelism (plan.etp != tp:
 * MoE parallel folding, parallel.c). */
bool parallel_moe_folded(const struct train_plan *p);

/* Parameters of one MoE layer's MLP on a GPU: the routed experts over
 * etp x ep (etp = tp when not folded), the router, shared experts and norm
 * over tp (every expert-parallel rank holds them, as Megatron-Core's
 * SharedExpertMLP and router are not expert-parallel). */
double parallel_moe_layer_params(const struct model_spec *m, const struct train_plan *p);

/* Of a virtual stage's parameters on a GPU, the routed experts' (sharded
 * and reduced over the expert-data-parallel group, not over dp x cp). */
double parallel_vstage_expert_params(const struct model_spec *m, const struct train_plan *p, int vs, int P);

/* Ranks of the expert-data-parallel group: the tp x cp x dp ranks of a
 * stage over the expert grid's etp x ep (Megatron-Core's expert data
 * parallelism, world / (etp x ep x pp); at least 1). */
double parallel_expert_dp(const struct train_plan *p);

/* Of those, the input embedding's and output projection's (tensor sharded). */
double parallel_vstage_embedding_params(const struct model_spec *m, const struct train_plan *p, int vs, int P);

#endif
