/*
 * transformer: the arithmetic of decoder-only transformers.
 *
 * Parameter counts, FLOPs per token (forward, backward, recompute) and
 * activation memory, for dense and mixture-of-experts models with grouped
 * query attention, from the shape alone. Formulas and conventions are those
 * of docs/explanation/training.md:
 * - per layer and token, forward: QKV 2h(a d + 2 g d), output 2(a d)h (MLA:
 *   twice its five matrices), MLP 2*3hf (gated) or 2*2hf, attention scores
 *   and values 2 s a (d_qk + d_v) = 4 s (a d) without MLA, counted in
 *   full (PaLM appendix B and Megatron SC21 count the whole s x s product;
 *   a causal kernel executes about half, which kernel time accounts for);
 *   logits 2hV; backward = 2 x forward; full recompute adds one forward.
 * - model FLOPs (MFU) = 3 x forward; hardware FLOPs (HFU) add recompute.
 * - activations: Korthikanti et al. 2022, generalised to GQA and gated MLPs
 *   so that a GPT shape gives exactly s b h (34 + 5 a s / h).
 * Pure functions; nothing here knows about GPUs.
 */
#ifndef CLUSTERSIM_MODELS_TRANSFORMER_H
#define CLUSTERSIM_MODELS_TRANSFORMER_H

#include <stdbool.h>

#include "models/hw/hw.h"

/* What the backward pass recomputes instead of keeping (int arguments below). */
enum recompute_kind { RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };
extern const char *const recompute_names[];

/*
 * What a selective recompute recomputes: a mask of Megatron-Core's
 * --recompute-modules (megatron/core/transformer/transformer_config.py,
 * recompute_modules; its default is core_attn alone). Bit i is named
 * recompute_module_names[i]. core_attn: the attention core (its s x s
 * tensors; nothing to keep with FlashAttention). layernorm: the two norms
 * (their outputs, the QKV and MLP inputs, are not kept). mlp: a dense MLP.
 * moe_act: the experts' activation function. moe: the whole MoE layer,
 * router, dispatch, experts and combine. mla_up_proj: MLA's query and
 * key-value up-projections (Q, K and V are not kept).
 */
enum recompute_module {
	RECMOD_CORE_ATTN = 1 << 0,
	RECMOD_LAYERNORM = 1 << 1,
	RECMOD_MLP = 1 << 2,
	RECMOD_MOE_ACT = 1 << 3,
	RECMOD_MOE = 1 << 4,
	RECMOD_MLA_UP_PROJ = 1 << 5
};
#define RECMOD_DEFAULT RECMOD_CORE_ATTN
extern const char *const recompute_module_names[];

/* Head dimension (head_dim, or hidden / heads). */
int transformer_head_dim(const struct model_spec *m);

/* Multi-head Latent Attention (kv_lora_rank > 0, DeepSeek-V2 arXiv:2405.04434
 * section 2.1): per-head query/key width (head_dim + qk_rope_dim) and value
 * width (head_dim); for ordinary attention both are the head dimension. */
bool transformer_is_mla(const struct model_spec *m);
int transformer_qk_head_dim(const struct model_spec *m);
int transformer_v_head_dim(const struct model_spec *m);

/* The attention block's weight matrices as GEMMs on one of t tensor-parallel
 * ranks: out[i] multiplies each token's k-wide input into n outputs. Plain
 * attention: QKV (a d + 2 g d over t) and the output projection. MLA: the
 * query down-projection (h to q_lora_rank, or h straight to a (d + r) when
 * q_lora_rank is 0), its up-projection (to a (d + r) / t), the key-value
 * down-projection (h to kv_lora_rank + r), its up-projection (to a 2d / t)
 * and the output projection; the two down-projections are replicated on
 * every tensor-parallel rank (Megatron-Core's MLASelfAttention). Returns the
 * count (at most TRANSFORMER_ATTN_GEMMS). */
#define TRANSFORMER_ATTN_GEMMS 5
struct transformer_gemm {
	double n, k;
};
int transformer_attention_gemms(const struct model_spec *m, int t, struct transformer_gemm *out);

/* Elements one token's key-value cache holds per layer: 2 g d (K and V of
 * every KV head), or MLA's latent and rotary key, kv_lora_rank + r, shared
 * by all heads (what serving engines cache: vLLM's and SGLang's MLA). */
double transformer_kv_elems_per_token(const struct model_spec *m);

/* Layers that are mixture-of-experts layers (0 for a dense model). */
int transformer_moe_layers(const struct model_spec *m);

/* Weights of one layer: attention, MLP (dense, or every expert of an MoE
 * layer when all_experts, else only the active ones) and norms. */
double transformer_layer_params(const struct model_spec *m, bool moe, bool all_experts);

/* Parameters of the attention block alone (QKV, output, norm), and of the
 * MLP block (dense MLP, or router + experts + shared experts). */
double transformer_attention_params(const struct model_spec *m);
double transformer_mlp_params(const struct model_spec *m, bool moe, bool all_experts);

/* Weight matrices of one MLP (or expert): 3 gated (SwiGLU), else 2. */
double transformer_mlp_matrices(const struct model_spec *m);

/* Parameters of the multi-token-prediction modules (0 without): per module
 * two norms, the 2h -> h projection and one layer like the last decoder
 * layer with all its experts; not in transformer_params_total (the model
 * served), in what training holds and checkpoints. */
double transformer_mtp_params(const struct model_spec *m);

/* Embedding parameters: input (V h) plus output projection unless tied. */
double transformer_embedding_params(const struct model_spec *m);

/* All parameters; active = with only the routed experts a token uses. */
double transformer_params_total(const struct model_spec *m);
double transformer_params_active(const struct model_spec *m);

/* Forward FLOPs per token, split by kind. attention_core is the full s x s
 * convention (2 s a (d_qk + d_v) per layer, 4 s a d without MLA). */
struct transformer_flops {
	double linear;          /* QKV, output, MLP, router, experts: all layers */
	double attention_core;  /* scores and values: all layers */
	double logits;          /* output projection */
};

/* Per token: linear and attention_core over the layers and the
 * multi-token-prediction modules (each one more layer like the last decoder
 * layer plus its 2h -> h projection), logits over the output head's passes
 * (1 + mtp_layers). */
void transformer_forward_flops(const struct model_spec *m, int seq_len, struct transformer_flops *f);

/* Model FLOPs per token of training (3 x forward): the MFU numerator. */
double transformer_model_flops_per_token(const struct model_spec *m, int seq_len);

/* Hardware FLOPs per token including recompute (enum recompute_kind):
 * full adds a forward of every layer, selective the forward of its modules
 * (a mask of enum recompute_module): the attention core, a dense MLP's or
 * an MoE layer's matrices, MLA's up-projections (norms and activations
 * are not FLOPs counted here). */
double transformer_hardware_flops_per_token(const struct model_spec *m, int seq_len, int recompute, int modules);

/*
 * Activation bytes one layer keeps per micro-batch for the backward pass,
 * with 16-bit activations (Korthikanti et al. 2022 eq. 1-6, generalised):
 * tokens = seq_len x micro_batch on this GPU's context-parallel share;
 * t tensor-parallel, sp sequence parallelism, recompute none/selective/full,
 * flash: the attention kernel stores no s x s matrices.
 */
double transformer_layer_activation_bytes(const struct model_spec *m, double seq_len, double micro_batch,
				 int t, bool sp, int recompute, bool flash);

/* Blocks whose weights are frozen and carry no adapter (LoRA): the inputs of
 * their matrices are not needed for the backward pass. */
#define TF_FROZEN_ATTN 1
#define TF_FROZEN_MLP 2

/* Same, with frozen blocks (a mask of TF_FROZEN_*) and, under a selective
 * recompute, its modules (a mask of enum recompute_module). */
double transformer_layer_activation_bytes_frozen(const struct model_spec *m, double seq_len, double micro_batch,
					int t, bool sp, int recompute, int modules, bool flash, int frozen);

#endif
