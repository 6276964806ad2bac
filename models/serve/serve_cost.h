/*
 * serve_cost: the step time of one serving replica, from the roofline
 * kernel model shared with training (kernel/roofline.h) and the collective
 * model (comm/) for tensor-parallel all-reduces.
 *
 * A replica is tp x pp (x ep for MoE) GPUs holding the model's weights in
 * the weight precision; what memory leaves after weights, activations and
 * workspace (under the server's memory fraction) is the paged KV cache.
 * One iteration (struct serve_batch) computes some prompt tokens (prefill,
 * compute-bound: GEMMs plus attention over the prompt) and one token for
 * each decoding sequence (memory-bound: the weights once per step plus every
 * sequence's KV read); MoE experts are read only for the tokens routed to
 * them; GEMMs of a tile of rows or more at their shape's tile and wave
 * efficiency (kernel/roofline.h); plus fixed times per kernel, per
 * sequence and per step.
 *
 * Layout (serve_cost.c, docs/explanation/calibration.md "Serving step time"): a replica
 * is pp stages of ep x tp GPUs, tp inside a node. Attention and dense
 * layers are split over tp and, with ep > 1, run data-parallel over the ep
 * ranks (each takes 1/ep of the sequences); experts are split over ep (and
 * over tp inside each rank), with an all-to-all dispatch and combine. A
 * step's batch goes through the stages in turn (no micro-batches of
 * different steps in flight), so pp adds memory, not throughput.
 * struct serve_batch, serve_step_use and serve_step_model, which the
 * simulation reads too, are in serve_types.h.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_COST_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_COST_H

#include <stddef.h>

#include "models/hw/hw.h"
#include "models/hw/topology.h"
#include "models/kernel/roofline.h"
#include "models/serve/serve_types.h"

enum serve_cost_status { SERVE_COST_OK = 0, SERVE_COST_OOM = -1, SERVE_COST_INVALID = -2 };

struct serve_cost {
	struct model_spec model;
	struct roofline k;
	int tp, pp, ep;
	int gpus;                        /* tp x pp (x ep) */
	enum precision compute, weights, kv;
	double weight_bytes_per_gpu;
	double kv_bytes_per_token;       /* replica */
	double kv_capacity_tokens;       /* replica */
	double overhead_s;               /* host time per step (the engine's or the scenario's) */
	double kernel_s;                 /* the engine's fixed time per kernel */
	double seq_overhead_s;           /* the engine's host time per sequence */
	double tp_link_bytes_per_s;      /* the scale-up path the all-reduces take */
	double tp_link_latency_s;
	double peak_flops_per_s;         /* replica */
	double peak_hbm_bytes_per_s;     /* replica */
	/* added by serve_cost.c (docs/explanation/calibration.md, "Serving step time") */
	struct topology topo;            /* the cluster, for the collectives */
	double workspace_bytes_per_gpu;  /* non-torch memory + activation peak */
	double kv_bytes_per_token_gpu;   /* on a GPU of the fullest stage */
	double weight_bytes_per_param;   /* linear layers, as stored (fp4: with scales) */
	double kv_elem_bytes;            /* one K or V element */
	int kv_heads_per_gpu;            /* kv_heads / tp, at least 1 (replicated) */
	int moe_layers;
};

/*
 * Build the cost model of a tp x pp x ep replica of model m on cluster c's
 * GPU (sv gives precisions, memory fraction, overhead). Returns
 * SERVE_COST_OK, SERVE_COST_OOM (weights and workspace leave no room for
 * one sequence of KV cache) or SERVE_COST_INVALID (the layout does not
 * divide the model or does not fit a node), with reason filled.
 */
int serve_cost_init(struct serve_cost *sc, const struct model_spec *m, const struct cluster_spec *c,
		    const struct serving_spec *sv, enum precision pr, const struct kernel_calibration *cal,
		    int tp, int pp, int ep, char *reason, size_t reason_len);

/* Seconds of one iteration; fills *use when not NULL. */
double serve_cost_step_s(const struct serve_cost *sc, const struct serve_batch *b, struct serve_step_use *use);

/* The model the simulation calls (borrows sc). */
void serve_cost_model(const struct serve_cost *sc, struct serve_step_model *out);

/* Memory a serving process holds outside its weights and KV cache besides
 * the activation peak (CUDA context, cuBLAS and NCCL buffers, CUDA graphs):
 * one GPU alone, and a GPU of a multi-GPU replica (docs/explanation/calibration.md). */
extern const double serve_nontorch_bytes_single;
extern const double serve_nontorch_bytes_multi;

/* Bytes per stored 4-bit weight, block scales included (NVFP4: one 8-bit
 * scale per 16 values). */
extern const double serve_fp4_bytes_per_weight;

/* Expected distinct experts that `tokens` tokens each routed to k of E
 * experts (uniformly, independently) reach: E (1 - (1 - k/E)^tokens). */
double serve_cost_experts_hit(double experts, double k, double tokens);

#endif
