#include "memory.h"

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "models/kernel/transformer.h"
#include "models/train/parallel.h"
#include "models/train/pipeline.h"
#include "util/xalloc.h"

const double memory_workspace_bytes = 5.0 * 1073741824.0;

/* Storage of a frozen base per parameter: the values and their
 * quantization constants.
 * - fp8: Transformer Engine keeps one fp32 scale per tensor (negligible);
 *   MLPerf's Llama 2 70B LoRA submissions hold the frozen base in FP8.
 * - fp4 (NVFP4): E2M1 values and one E4M3 scale per 16 (NVIDIA, "Introducing
 *   NVFP4", 2025); the per-tensor fp32 scale is negligible.
 * - nf4: 4-bit NormalFloat with one absmax constant per 64 weights, the
 *   constants double-quantized to 8-bit floats in blocks of 256 with one fp32
 *   constant each: 8/64 + 32/(64 x 256) = 0.127 bits per parameter instead of
 *   32/64 (Dettmers et al. 2023, QLoRA, section 3, "Double Quantization"). */
static const struct {
	double value_bytes, const_bytes;
} base_formats[FT_BASE_COUNT] = {
	[FT_BASE_RUN] = { 0, 0 },  /* resolved by memory_base_format first */
	[FT_BASE_FP32] = { 4.0, 0 },
	[FT_BASE_BF16] = { 2.0, 0 },
	[FT_BASE_FP16] = { 2.0, 0 },
	[FT_BASE_FP8] = { 1.0, 0 },
	[FT_BASE_FP4] = { 0.5, 1.0 / 16 },
	[FT_BASE_NF4] = { 0.5, 1.0 / 64 + 4.0 / (64.0 * 256.0) },
};

/* The format of the run's GEMM operands (as models/kernel/roofline.c reads
 * them: fp8 and fp4 in their own format, every other precision 16-bit). */
static enum finetune_base run_format(enum precision pr)
{
	switch (pr) {
	case PREC_FP8:
		return FT_BASE_FP8;
	case PREC_FP4:
		return FT_BASE_FP4;
	case PREC_FP16:
		return FT_BASE_FP16;
	default:
		return FT_BASE_BF16;
	}
}

enum finetune_base memory_base_format(const struct train_spec *w)
{
	if (w->finetune.base != FT_BASE_RUN)
		return w->finetune.base;
	if (w->finetune.method == FINETUNE_QLORA)
		return FT_BASE_NF4;
	return run_format(w->model->precision);
}

double memory_base_bytes_per_param(enum finetune_base f)
{
	assert(f > FT_BASE_RUN && f < FT_BASE_COUNT);
	return base_formats[f].value_bytes + base_formats[f].const_bytes;
}

double memory_base_cast_bytes_per_param(const struct train_spec *w)
{
	if (!w->is_finetune || w->finetune.method == FINETUNE_FULL)
		return 0;
	enum finetune_base f = memory_base_format(w), run = run_format(w->model->precision);
	if (f == run)
		return 0;
	return memory_base_bytes_per_param(f) + base_formats[run].value_bytes;
}

double memory_lora_params_per_layer(const struct train_spec *w, const struct train_plan *p)
{
	const struct model_spec *m = &w->model->arch;
	double h = m->hidden, r = w->finetune.rank;
	double sum = 0;
	bool attn = strstr(w->finetune.targets, "attn") != NULL;
	bool mlp = strstr(w->finetune.targets, "mlp") != NULL;
	if (attn) {
		/* an adapter of r (in + out) on each attention matrix (fused QKV
		 * and the output projection; MLA's five) */
		struct transformer_gemm ag[TRANSFORMER_ATTN_GEMMS];
		int n = transformer_attention_gemms(m, 1, ag);
		for (int i = 0; i < n; i++)
			sum += r * (ag[i].n + ag[i].k);
	}
	if (mlp) {
		double f = m->experts > 0 ? m->expert_ffn : m->ffn;
		sum += (m->mlp == MLP_SWIGLU ? 2 : 1) * r * (h + f) + r * (f + h);
	}
	return sum / p->tp;
}

/* Weights, gradients and optimizer states of a stage holding `params`
 * parameters (`embedding` of them the input embedding's and output
 * projection's) in `layers` layers: the adapters' only under LoRA, over a
 * frozen base whose layers are in its own format and whose embeddings stay
 * 16-bit (QLoRA and Transformer Engine's FP8 quantize the layers' linear
 * weights only), else sharded by ZeRO (ZeRO-3 keeps two gathered layers, for
 * the prefetch). Gradients take the plan's grad_bytes (fp32 by default, as
 * Megatron's main_grad buffer: 6 + 12/dp bytes per parameter under the
 * distributed optimizer, megatron/training/theoretical_memory_usage.py).
 * ZeRO shards over dp x cp: the context-parallel ranks hold the same
 * weights, and Megatron's gradient buffers and distributed optimizer use the
 * data-parallel group with context parallelism
 * (megatron/core/distributed/param_and_grad_buffer.py). The routed experts'
 * `expert` of the params shard over the expert-data-parallel group instead
 * (tp x cp x dp / (etp x ep) ranks: Megatron-Core keeps them in their own
 * buffers over that group). The layers' norms (2h of ~12h^2 parameters) are
 * counted in the base format. */
static void model_states(const struct train_spec *w, const struct train_plan *p, double params, double embedding,
			 double expert, double layers, struct train_memory *s)
{
	const struct model_spec *m = &w->model->arch;
	bool lora = w->is_finetune && w->finetune.method != FINETUNE_FULL;
	double shard = (double)p->dp * p->cp;
	double sharded = (params - expert) / shard + expert / parallel_expert_dp(p);
	if (lora) {
		double base_bytes = memory_base_bytes_per_param(memory_base_format(w));
		double adapters = memory_lora_params_per_layer(w, p) * layers;
		s->weights = (params - embedding) * base_bytes + embedding * TRAIN_WEIGHT_BYTES +
			     adapters * TRAIN_WEIGHT_BYTES;
		s->grads = adapters * p->grad_bytes;
		s->optimizer = adapters * p->optimizer_bytes;
		return;
	}
	s->weights = params * TRAIN_WEIGHT_BYTES;
	s->grads = (p->zero >= 2 ? sharded : params) * p->grad_bytes;
	s->optimizer = (p->zero >= 1 ? sharded : params) * p->optimizer_bytes;
	if (p->zero >= 3) {
		/* sharded, plus two layers gathered at a time (prefetch); in the
		 * backward a layer's unsharded gradient lives until its
		 * reduce-scatter ends, which runs under the next layer's backward:
		 * two of them too (PyTorch FSDP, Zhao et al. VLDB 2023, 3.2) */
		double layer = (transformer_layer_params(m, m->experts > 0, true)) / p->tp;
		s->weights = sharded * TRAIN_WEIGHT_BYTES + 2 * layer * TRAIN_WEIGHT_BYTES;
		s->grads += 2 * layer * p->grad_bytes;
	}
}

/* Chunk of stage-local forward k (backward k) under Megatron's interleaved
 * 1F1B: groups of pp micro-batches go through the chunks in turn, forward
 * from the first chunk, backward from the last
 * (megatron/core/pipeline_parallel/schedules.py, get_model_chunk_id). */
static int chunk_of(const struct train_plan *p, long k, bool forward)
{
	int c = (int)((k % ((long)p->pp * p->vpp)) / p->pp);
	return forward ? c : p->vpp - 1 - c;
}

/* Layer-micro-batches of activations stage i holds at its peak, for its
 * chunks' layer counts chunk_layers[vpp]: GPipe all m micro-batches;
 * 1F1B and ZB-H1 min(p - i, m) (a warm-up of p - i - 1 forwards and one
 * more); interleaved 1F1B walked in Megatron's order (a warm-up of
 * 2(p - i - 1) + (v - 1)p forwards, at most all m v of them, then one
 * forward and one backward), each chunk's forward adding its layers and its
 * backward freeing them. With equal chunks of L/(pv) layers the first
 * stage's peak is L (1 + (p - 1)/(p v)) (Korthikanti et al. 2022, section
 * 4.2.3; Megatron's theoretical_memory_usage.py); with the embedding alone
 * in the first chunk (SPLIT_EMBEDDING_LOSS) the warm-up's extra forwards
 * fall partly on a chunk without layers. `freed`: layers' worth each
 * chunk-micro-batch in flight gives back (its input freed early; 0 else). */
/* Layers' worth of activations one micro-batch of chunk c holds. */
static double chunk_held(const struct train_plan *p, const int *chunk_layers, int c, double freed)
{
	(void)p;
	return chunk_layers[c] > 0 ? chunk_layers[c] - freed : 0;
}

/* DualPipeV walked in its order (pipeline_dualpipev_order): a forward
 * adds its chunk's layers, a backward (its input gradient) frees them, an
 * overlapped pair holds its forward's before its backward frees; with
 * equal chunks the peak is 2p + 1 of them (the DualPipe README's PP + 1
 * for PP = 2p virtual stages). */
static double dualpipev_peak(const struct train_plan *p, const int *chunk_layers, int i, double freed)
{
	int m = (int)p->microbatches;
	struct pipeline_step *steps = xcalloc((size_t)PIPELINE_DUALPIPEV_MAX_STEPS(m), sizeof *steps);
	int n = pipeline_dualpipev_order(p->pp, i, m, steps);
	double held = 0, peak = 0;
	for (int k = 0; k < n; k++) {
		const struct pipeline_step *q = &steps[k];
		if (q->kind == PIPE_F) {
			held += chunk_held(p, chunk_layers, q->chunk, freed);
			if (held > peak)
				peak = held;
			if (q->paired)
				held -= chunk_held(p, chunk_layers, q->pair_chunk, freed);
		} else if (q->kind == PIPE_B)
			held -= chunk_held(p, chunk_layers, q->chunk, freed);
	}
	free(steps);
	return peak;
}

static double interleaved_peak(const struct train_plan *p, const int *chunk_layers, int i, double freed);

static double peak_layer_microbatches(const struct train_plan *p, const int *chunk_layers, int i, double freed)
{
	long m = p->microbatches, layers = 0;
	for (int c = 0; c < p->vpp; c++)
		layers += chunk_layers[c];
	if (p->schedule == SCHED_GPIPE)
		return (double)m * (layers - (layers > 0) * freed);
	if (p->schedule == SCHED_DUALPIPEV)
		return dualpipev_peak(p, chunk_layers, i, freed);
	if (p->schedule != SCHED_INTERLEAVED || p->vpp == 1) {
		long n = p->pp - i < m ? p->pp - i : m;
		return (double)(n < 1 ? 1 : n) * (layers - (layers > 0) * freed);
	}
	return interleaved_peak(p, chunk_layers, i, freed);
}

/* The interleaved walk's peak, memoized per thread: the plans of one search
 * that differ only in their ZeRO stage walk the same schedule. The key is
 * everything the walk reads; a hit returns the walk's own double. */
enum { PEAK_MEMO_SIZE = 256, PEAK_MEMO_CHUNKS = 64 };
struct peak_memo_entry {
	bool used;
	int pp, vpp, i;
	long m;
	double freed;
	int chunk_layers[PEAK_MEMO_CHUNKS];
	double peak;
};
static _Thread_local struct peak_memo_entry peak_memo[PEAK_MEMO_SIZE];

static double interleaved_walk(const struct train_plan *p, const int *chunk_layers, int i, double freed);

static double interleaved_peak(const struct train_plan *p, const int *chunk_layers, int i, double freed)
{
	if (p->vpp > PEAK_MEMO_CHUNKS)
		return interleaved_walk(p, chunk_layers, i, freed);
	uint64_t h = ((uint64_t)p->pp * 1000003u + (uint64_t)p->vpp) * 1000003u + (uint64_t)p->microbatches;
	h = (h * 1000003u + (uint64_t)i) * UINT64_C(0x9e3779b97f4a7c15);
	for (int c = 0; c < p->vpp; c++)
		h = (h ^ (uint64_t)chunk_layers[c]) * UINT64_C(0x9e3779b97f4a7c15);
	uint64_t fb;
	memcpy(&fb, &freed, sizeof fb);
	h = (h ^ fb) * UINT64_C(0x9e3779b97f4a7c15);
	struct peak_memo_entry *e = &peak_memo[(h >> 32) % PEAK_MEMO_SIZE];
	if (e->used && e->pp == p->pp && e->vpp == p->vpp && e->i == i && e->m == p->microbatches &&
	    memcmp(&e->freed, &freed, sizeof freed) == 0 &&
	    memcmp(e->chunk_layers, chunk_layers, (size_t)p->vpp * sizeof *chunk_layers) == 0)
		return e->peak;
	e->used = true;
	e->pp = p->pp;
	e->vpp = p->vpp;
	e->i = i;
	e->m = p->microbatches;
	e->freed = freed;
	memcpy(e->chunk_layers, chunk_layers, (size_t)p->vpp * sizeof *chunk_layers);
	e->peak = interleaved_walk(p, chunk_layers, i, freed);
	return e->peak;
}

static double interleaved_walk(const struct train_plan *p, const int *chunk_layers, int i, double freed)
{
	long m = p->microbatches;
	long total = m * p->vpp;
	/* get_pp_rank_microbatches with microbatch_group_size_per_vp_stage = pp
	 * (the default and the least memory): all forwards when that is more */
	long warmup = 2L * (p->pp - i - 1) + (long)(p->vpp - 1) * p->pp;
	if (warmup > total)
		warmup = total;
	double held = 0, peak = 0;
	long kf = 0, kb = 0;
	for (; kf < warmup; kf++) {
		held += chunk_held(p, chunk_layers, chunk_of(p, kf, true), freed);
		if (held > peak)
			peak = held;
	}
	/* steady state, one forward then one backward: both chunk sequences
	 * repeat every pp x vpp operations, so one period finds the peak */
	long steady = total - warmup, period = (long)p->pp * p->vpp + 1;
	for (long j = 0; j < steady && j < period; j++) {
		held += chunk_held(p, chunk_layers, chunk_of(p, kf++, true), freed);
		if (held > peak)
			peak = held;
		held -= chunk_held(p, chunk_layers, chunk_of(p, kb++, false), freed);
	}
	return peak;
}

/* What an MoE layer's token dispatch keeps for the backward, on this GPU,
 * for `tokens` tokens of its micro-batch (Megatron-MoE-ModelZoo
 * misc/tools/deepseek_mem_estimate.py @e8650517, for Megatron-Core's
 * dispatcher): the permuted copies, which are the first expert GEMM's input
 * (T etp k h / tp values, FP8 when the GEMMs are FP8); the router's
 * probabilities (16-bit) and the permutation's row map (int64), T E / tp
 * each. The busiest expert-parallel rank keeps moe_imbalance x the mean of
 * the copies. The experts' outputs are not kept: Megatron-Core applies the
 * router's probabilities inside the experts' activation (weighted SwiGLU,
 * megatron/core/transformer/moe/experts.py, since ADLR/megatron-lm!2668,
 * 2025-04), so the combine's backward needs no copy of them (the
 * estimator's older list keeps them, "unpermute_alltoall_out"). Nothing is
 * kept under a full recompute or a recompute of the whole MoE layer. */
static double moe_dispatch_bytes(const struct train_spec *w, const struct train_plan *p, double tokens)
{
	const struct model_spec *m = &w->model->arch;
	int mods = p->recompute == RECOMPUTE_SELECTIVE ? p->recompute_modules : 0;
	if (transformer_moe_layers(m) == 0 || p->recompute == RECOMPUTE_FULL || (mods & RECMOD_MOE))
		return 0;
	double T = tokens / p->tp, k = m->experts_active, h = m->hidden;
	double permuted = (w->model->precision == PREC_FP8 || w->model->precision == PREC_FP4) ? 1 : 2;
	double copies = parallel_moe_imbalance(p) * T * k * h * permuted * p->etp;
	return copies + T * m->experts * (2 + 8);
}

/* The blocks a LoRA finetune freezes (TF_FROZEN_*): those its targets leave out. */
static int frozen_blocks(const struct train_spec *w)
{
	int frozen = 0;
	if (w->is_finetune && w->finetune.method != FINETUNE_FULL) {
		if (strstr(w->finetune.targets, "attn") == NULL)
			frozen |= TF_FROZEN_ATTN;
		if (strstr(w->finetune.targets, "mlp") == NULL)
			frozen |= TF_FROZEN_MLP;
	}
	return frozen;
}

/* Adapted matrices per layer: the attention's GEMMs (fused QKV and the
 * output projection; MLA's five), the MLP's (gate, up, down; two without a
 * gate), as memory_lora_params_per_layer counts them. */
static int lora_adapters(const struct train_spec *w)
{
	const struct model_spec *m = &w->model->arch;
	int n = 0;
	if (strstr(w->finetune.targets, "attn") != NULL) {
		struct transformer_gemm ag[TRANSFORMER_ATTN_GEMMS];
		n += transformer_attention_gemms(m, 1, ag);
	}
	if (strstr(w->finetune.targets, "mlp") != NULL)
		n += m->mlp == MLP_SWIGLU ? 3 : 2;
	return n;
}

double memory_recompute_share(const struct train_spec *w, const struct train_plan *p)
{
	if (p->recompute != RECOMPUTE_FULL)
		return 0;
	if (p->recompute_method != RECOMPUTE_BLOCK)
		return 1;
	double chunk = (double)w->model->arch.layers / ((double)p->pp * p->vpp);
	return chunk > p->recompute_layers ? p->recompute_layers / chunk : 1;
}

static double layer_activation_bytes(const struct train_spec *w, const struct train_plan *p);

/* A full recompute's shape (Megatron-LM's --recompute-method and
 * --recompute-num-layers N, megatron/core/transformer/transformer_block.py
 * _checkpointed_forward): uniform keeps one group input per N layers;
 * block keeps the inputs of the share of each chunk's layers it recomputes
 * and every activation of the others. */
double memory_layer_activation_bytes(const struct train_spec *w, const struct train_plan *p)
{
	double input = layer_activation_bytes(w, p);
	if (p->recompute != RECOMPUTE_FULL)
		return input;
	if (p->recompute_method != RECOMPUTE_BLOCK)
		return input / p->recompute_layers;
	double share = memory_recompute_share(w, p);
	if (share >= 1)
		return input;
	struct train_plan kept = *p;
	kept.recompute = RECOMPUTE_NONE;
	return share * input + (1 - share) * layer_activation_bytes(w, &kept);
}

static double layer_activation_bytes(const struct train_spec *w, const struct train_plan *p)
{
	const struct model_spec *m = &w->model->arch;
	double s_local = (double)w->seq_len / p->cp;
	int frozen = frozen_blocks(w);
	/* distributed checkpoints: a full recompute's layer inputs split 1/tp,
	 * as sequence parallelism splits them */
	bool split_input = p->sp || (p->distribute_saved && p->recompute == RECOMPUTE_FULL);
	double per_layer = transformer_layer_activation_bytes_frozen(m, s_local, p->micro_batch, p->tp, split_input,
								    p->recompute, p->recompute_modules,
								    w->model->kernels.flash_attention, frozen);
	/* the busiest expert-parallel rank keeps moe_imbalance x the mean of the
	 * routed experts' inner tensors (gate, up and product: 6 bytes per
	 * element, GELU 4, 2 fewer when the activation is recomputed, none when
	 * the MoE layer is; T k f_e / tp per GPU, folded or not) */
	double imbalance = parallel_moe_imbalance(p);
	int mods = p->recompute == RECOMPUTE_SELECTIVE ? p->recompute_modules : 0;
	double inner_bytes = (m->mlp == MLP_SWIGLU ? 6 : 4) - (mods & RECMOD_MOE_ACT ? 2 : 0);
	if (mods & RECMOD_MOE)
		inner_bytes = 0;
	double tokens = s_local * p->micro_batch;
	bool moe = transformer_moe_layers(m) > 0;
	if (p->fp8_act_cache && p->recompute != RECOMPUTE_FULL) {
		/* DeepSeek-V3's FP8 activation caching (arXiv:2412.19437, 3.3.3):
		 * the input of the Linear after attention in FP8 (a d_v bytes per
		 * token over tp, half of its 16-bit copy), and an MoE layer's
		 * SwiGLU inputs in FP8 with the output recomputed (gate and up, 2
		 * bytes per inner element where 6 were kept, 4 with moe_act) */
		if (!(frozen & TF_FROZEN_ATTN))
			per_layer -= tokens * m->heads * transformer_v_head_dim(m) / p->tp;
		if (moe && m->mlp == MLP_SWIGLU && inner_bytes > 2) {
			per_layer -= tokens * (inner_bytes - 2) * (m->experts_active + m->shared_experts) * m->expert_ffn /
				     p->tp;
			inner_bytes = 2;
		}
	}
	/* Megatron-Core's --activation-func-fp8-input-store: a dense MLP's
	 * activation keeps its input (SwiGLU: gate and up, 2f elements; GELU:
	 * f) in FP8 for its backward, 1 byte an element where 2 were kept
	 * (megatron/core/fusions/fused_bias_swiglu.py, fp8_input_store); nothing
	 * to save when the MLP or the whole layer is recomputed */
	/* LoRA: each adapter keeps its input for dA (the frozen matrix's own
	 * input, counted above) and its rank-r intermediate x A for dB, 16-bit */
	if (w->is_finetune && w->finetune.method != FINETUNE_FULL && p->recompute != RECOMPUTE_FULL)
		per_layer += tokens * TRAIN_ACT_BYTES * w->finetune.rank * lora_adapters(w) / (p->sp ? p->tp : 1);
	if (p->fp8_act_input && !moe && p->recompute != RECOMPUTE_FULL && !(mods & RECMOD_MLP))
		per_layer -= tokens * (m->mlp == MLP_SWIGLU ? 2 : 1) * m->ffn / p->tp;
	if (moe && imbalance > 1 && p->recompute != RECOMPUTE_FULL)
		per_layer += (imbalance - 1) * tokens * inner_bytes * m->experts_active * m->expert_ffn / p->tp;
	return per_layer + moe_dispatch_bytes(w, p, tokens);
}

/* Activation bytes of stage i whose chunks hold chunk_layers[vpp] layers
 * (has_last: it computes the loss): per layer, times the layer-micro-batches
 * in flight at its peak,
 * and the logits of the loss and of the MTP modules (mtp_here) it holds. */
static double activations(const struct train_spec *w, const struct train_plan *p, int i, const int *chunk_layers,
			  bool has_last, int mtp_here, double per_layer)
{
	const struct model_spec *m = &w->model->arch;
	double s_local = (double)w->seq_len / p->cp;
	/* the stage's input freed once its first layer has used it (Llama 3,
	 * arXiv:2407.21783, section 3.3.2: "we proactively deallocate tensors
	 * that will not be used for future computation, including the input and
	 * output tensors of each pipeline stage"; the output is never counted:
	 * it is the next stage's input): 2 s b h bytes, 1/tp of them under
	 * sequence parallelism, per chunk-micro-batch in flight */
	double freed = 0;
	if (p->free_stage_input && p->recompute != RECOMPUTE_FULL && per_layer > 0)
		freed = 2 * s_local * p->micro_batch * m->hidden / (p->sp ? p->tp : 1) / per_layer;
	double bytes = per_layer * peak_layer_microbatches(p, chunk_layers, i, freed);
	if (p->recompute == RECOMPUTE_FULL) {
		/* one layer's full activations while it is recomputed (uniform:
		 * the N layers of its group) */
		int group = p->recompute_method == RECOMPUTE_BLOCK ? 1 : p->recompute_layers;
		bytes += group * transformer_layer_activation_bytes(m, s_local, p->micro_batch, p->tp, p->sp,
								    RECOMPUTE_NONE, w->model->kernels.flash_attention);
	}
	/* fp32 logits for the loss: s b V / t, 4 bytes (fused, the 16-bit
	 * logits that hold the gradient: 2), on the last stage and once more
	 * for each multi-token-prediction module on its stage (whose layers
	 * are among its chunk's), with each module's projection input (the two
	 * normed h-wide halves) and the next tokens' embedding, 2 bytes each */
	double logit_bytes = w->model->kernels.fused_cross_entropy ? 2.0 : 4.0;
	double logits = logit_bytes * s_local * p->micro_batch * m->vocab / p->tp;
	if (has_last)
		bytes += logits;
	bytes += mtp_here * (logits + TRAIN_ACT_BYTES * s_local * p->micro_batch * 3 * m->hidden / (p->sp ? p->tp : 1));
	return bytes;
}

/* What a stage holds that does not depend on the ZeRO stage, the
 * micro-batch or the recompute: its parameters and its chunks' layers. */
struct stage_static {
	double params, embedding, expert, layers;
	bool has_last;
	int mtp_here;
	bool same;  /* holds what the stage before holds, and no embedding, loss or MTP */
};

/* The stages of the last plan's degrees, per thread: a plan search asks for
 * the memory of many plans (ZeRO stages, micro-batches, recomputes) of the
 * same tp, pp, vpp, split and ep in a row. Keyed by the model's bytes and
 * those degrees; a plan with a pipeline_layout, or more stages or chunks
 * than the arrays hold, is computed afresh. */
enum { STAGE_CACHE_STAGES = 512, STAGE_CACHE_CHUNKS = 4096 };
struct stage_cache {
	bool valid;
	struct model_spec m;
	int pp, vpp, schedule, split, tp, ep, etp;
	struct stage_static st[STAGE_CACHE_STAGES];
	int chunk_layers[STAGE_CACHE_CHUNKS];  /* [pp][vpp] */
};
static _Thread_local struct stage_cache stage_cache;

static void stage_statics(const struct model_spec *m, const struct train_plan *p, struct stage_static *st,
			  int *chunk_layers)
{
	int P = p->pp * p->vpp;
	for (int i = 0; i < p->pp; i++) {
		struct stage_static *s = &st[i];
		int *cl = chunk_layers + (size_t)i * p->vpp;
		memset(s, 0, sizeof *s);
		for (int ch = 0; ch < p->vpp; ch++) {
			int vs = pipeline_vstage(p->pp, p->schedule, i, ch), first, count;
			parallel_vstage_layers(p, m->layers, P, vs, &first, &count);
			s->params += parallel_vstage_params(m, p, vs, P);
			s->embedding += parallel_vstage_embedding_params(m, p, vs, P);
			s->expert += parallel_vstage_expert_params(m, p, vs, P);
			int mtp = parallel_vstage_mtp(m, p, vs, P);
			s->mtp_here += mtp;
			count += mtp;
			s->layers += count;
			cl[ch] = count;
			s->has_last |= vs == P - 1;
		}
		/* A stage that holds what the stage before it holds (no
		 * embedding, loss or MTP of its own) needs no more: its
		 * parameters are the same, and the activations a schedule keeps
		 * in flight do not grow with the stage's place (the warm-up
		 * forwards of 1F1B and interleaved 1F1B shrink with it, GPipe's
		 * are all m anyway). DualPipeV's order is walked for every stage. */
		const struct stage_static *b = i > 0 ? &st[i - 1] : NULL;
		s->same = b != NULL && p->schedule != SCHED_DUALPIPEV && !s->has_last && s->mtp_here == 0 &&
			  s->embedding == 0 && b->embedding == 0 && s->params == b->params && s->expert == b->expert &&
			  memcmp(cl, cl - p->vpp, (size_t)p->vpp * sizeof *cl) == 0;
	}
}

void memory_per_gpu(const struct train_spec *w, const struct train_plan *p, struct train_memory *mem)
{
	const struct model_spec *m = &w->model->arch;
	double worst = 0;
	struct stage_static *st;
	int *chunk_layers;
	struct stage_cache *sc = &stage_cache;
	bool cacheable = p->layout == NULL && p->pp <= STAGE_CACHE_STAGES &&
			 (long)p->pp * p->vpp <= STAGE_CACHE_CHUNKS;

	memset(mem, 0, sizeof *mem);
	if (cacheable) {
		if (!(sc->valid && sc->pp == p->pp && sc->vpp == p->vpp && sc->schedule == (int)p->schedule &&
		      sc->split == (int)p->split && sc->tp == p->tp && sc->ep == p->ep && sc->etp == p->etp &&
		      memcmp(&sc->m, m, sizeof *m) == 0)) {
			sc->valid = false;
			stage_statics(m, p, sc->st, sc->chunk_layers);
			memcpy(&sc->m, m, sizeof *m);
			sc->pp = p->pp;
			sc->vpp = p->vpp;
			sc->schedule = (int)p->schedule;
			sc->split = (int)p->split;
			sc->tp = p->tp;
			sc->ep = p->ep;
			sc->etp = p->etp;
			sc->valid = true;
		}
		st = sc->st;
		chunk_layers = sc->chunk_layers;
	} else {
		st = xcalloc((size_t)p->pp, sizeof *st);
		chunk_layers = xcalloc((size_t)p->pp * p->vpp, sizeof *chunk_layers);
		stage_statics(m, p, st, chunk_layers);
	}
	/* the heaviest stage: its chunks' parameters and activations */
	double per_layer = memory_layer_activation_bytes(w, p);  /* the same on every stage */
	for (int i = 0; i < p->pp; i++) {
		if (st[i].same)
			continue;
		struct train_memory s;
		memset(&s, 0, sizeof s);
		model_states(w, p, st[i].params, st[i].embedding, st[i].expert, st[i].layers, &s);
		s.activations = activations(w, p, i, chunk_layers + (size_t)i * p->vpp, st[i].has_last, st[i].mtp_here,
					    per_layer);
		s.workspace = memory_workspace_bytes;
		s.total = s.weights + s.grads + s.optimizer + s.activations + s.workspace;
		if (s.total > worst) {
			worst = s.total;
			*mem = s;
		}
	}
	if (!cacheable) {
		free(st);
		free(chunk_layers);
	}
}
