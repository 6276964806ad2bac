#include "serve_cost.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "models/comm/collective.h"
#include "models/kernel/transformer.h"
#include "models/serve/arrival.h"
#include "models/serve/serve_engine.h"
#include "util/text.h"

/*
 * The serving step model's constants are its engine's, from the catalog
 * (scenarios/catalog/engines.json, hw.h struct engine_spec; copied into
 * serving_spec.constants): docs/explanation/calibration.md, "Serving
 * calibration", says how they were set. Everything else is the roofline's
 * (kernel/roofline.c) and the collective model's.
 */
/* Kernels of one layer besides its GEMMs and attention: two norms (the
 * residual adds fused in), rotary embedding, the MLP's activation. */
#define ELEMENTWISE_KERNELS_PER_LAYER 4
/* Kernels of the head besides the LM head GEMM: embedding gather, final
 * norm, and the sampler's softmax, top-k/top-p and sampling. */
#define HEAD_KERNELS 5

#define GIB 1073741824.0

/* vLLM's memory profile of Llama 3 8B on H100 (vllm PR #10511, 2024-12):
 * non-torch memory 1.79 GiB at tp 1, 3.58 GiB at tp 2 (NCCL and the custom
 * all-reduce's buffers). */
const double serve_nontorch_bytes_single = 1.79 * GIB;
const double serve_nontorch_bytes_multi = 3.58 * GIB;
/* NVFP4: 4-bit values with one E4M3 scale per 16 (NVIDIA, "Introducing
 * NVFP4", 2025); the training model charges QLoRA's fp4 base the same. */
const double serve_fp4_bytes_per_weight = 0.5 + 1.0 / 16;

/* Activations, embeddings, the LM head, norms and the router stay 16-bit
 * in quantized checkpoints (ModelOpt FP8 and NVFP4, AWQ, GPTQ quantize the
 * linear layers of the blocks only). */
#define ACT_BYTES 2.0
/* Logits of the sampled rows, fp32, and one more buffer of them for the
 * sampler's softmax. */
#define LOGIT_PEAK_BYTES 8.0
/* Bytes per logit the sampler moves: the fp32 cast written (4), read and
 * written by the softmax (8). */
#define SAMPLER_BYTES_PER_LOGIT 12.0
/* Defaults a scheduler takes when the scenario leaves its limits at 0
 * (vLLM: max_num_batched_tokens 8192 with chunked prefill, max_num_seqs 256). */
#define DEFAULT_MAX_BATCH_TOKENS 8192
#define DEFAULT_MAX_SEQS 256
/* vLLM's gpu_memory_utilization default. */
#define DEFAULT_MEMORY_FRACTION 0.9

double serve_cost_experts_hit(double experts, double k, double tokens)
{
	if (experts <= 0 || tokens <= 0)
		return 0;
	if (k >= experts)
		return experts;
	return experts * (1 - pow(1 - k / experts, tokens));
}

static double weight_bytes_of(enum precision p)
{
	return p == PREC_FP4 ? serve_fp4_bytes_per_weight : precision_bytes(p);
}

/* Mean of a length distribution (histograms by their weights; clamping of
 * the other distributions is ignored). */
static double length_mean(const struct length_spec *l)
{
	if (l->dist == LEN_HISTOGRAM && l->n_bins > 0) {
		double w = 0, s = 0;
		for (int i = 0; i < l->n_bins; i++) {
			w += l->bin_weight[i];
			s += l->bin_weight[i] * l->bin_tokens[i];
		}
		return w > 0 ? s / w : 0;
	}
	return l->mean;
}

/* Mean prompt + output tokens of one request of the load. */
static double request_tokens_mean(const struct serving_spec *sv)
{
	if (arrival_of(sv->process)->lengths_given && sv->trace_requests != NULL && sv->trace_requests->n > 0) {
		double s = 0;
		for (size_t i = 0; i < sv->trace_requests->n; i++)
			s += (double)sv->trace_requests->requests[i].prompt_tokens +
			     sv->trace_requests->requests[i].output_tokens;
		return s / (double)sv->trace_requests->n;
	}
	return length_mean(&sv->prompt_tokens) + length_mean(&sv->output_tokens);
}

static double mlp_matrices(const struct model_spec *m)
{
	return m->mlp == MLP_SWIGLU ? 3.0 : 2.0;
}

/* Bytes one GPU holds of one layer's weights: attention (KV projections of
 * replicated KV heads repeated), MLP or experts, norms. */
static double layer_bytes_per_gpu(const struct serve_cost *sc, bool moe)
{
	const struct model_spec *m = &sc->model;
	double h = m->hidden, d = transformer_head_dim(m), a = m->heads, tp = sc->tp;
	double wb = sc->weight_bytes_per_param, k = mlp_matrices(m);
	double attn = (h * (a / tp + 2.0 * sc->kv_heads_per_gpu) * d + a * d / tp * h) * wb;
	double norms = 2 * h * ACT_BYTES;
	if (transformer_is_mla(m)) {
		/* MLA's projections, the down-projections replicated on every
		 * tensor-parallel rank (vLLM's ReplicatedLinear), and the
		 * latents' norms */
		struct transformer_gemm ag[TRANSFORMER_ATTN_GEMMS];
		int n = transformer_attention_gemms(m, (int)tp, ag);
		attn = 0;
		for (int i = 0; i < n; i++)
			attn += ag[i].n * ag[i].k * wb;
		norms += ((double)m->q_lora_rank + m->kv_lora_rank) * ACT_BYTES;
	}
	double mlp;
	if (!moe)
		mlp = k * h * m->ffn / tp * wb;
	else
		mlp = h * m->experts * ACT_BYTES +
		      ((double)m->experts / sc->ep + m->shared_experts) * k * h * m->expert_ffn / tp * wb;
	return attn + norms + mlp;
}

/* Whether layer i is a mixture-of-experts layer (the dense ones lead). */
static bool layer_is_moe(const struct model_spec *m, int i)
{
	return m->experts > 0 && i >= m->dense_layers;
}

/* Fill reason (when given) and return status. */
static int fail(char *reason, size_t reason_len, int status, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *reason, size_t reason_len, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (reason != NULL && reason_len > 0)
		text_vsetf(reason, reason_len, fmt, ap);
	va_end(ap);
	return status;
}

/* The layout checks: INVALID with a reason, or OK. */
static int check_layout(const struct model_spec *m, const struct cluster_spec *c, int tp, int pp, int ep,
			char *reason, size_t reason_len)
{
	int g = m->kv_heads > 0 ? m->kv_heads : m->heads;
	long gpus = (long)tp * pp * ep;
	int stage = tp * ep;

	if (tp < 1 || pp < 1 || ep < 1)
		return fail(reason, reason_len, SERVE_COST_INVALID, "tp %d, pp %d, ep %d: each must be at least 1", tp,
			    pp, ep);
	if (tp > c->gpus_per_node)
		return fail(reason, reason_len, SERVE_COST_INVALID,
			    "tp %d exceeds the %d GPUs of a node (tensor parallelism stays on the scale-up links)", tp,
			    c->gpus_per_node);
	if (m->heads % tp != 0)
		return fail(reason, reason_len, SERVE_COST_INVALID, "tp %d does not divide the %d attention heads", tp,
			    m->heads);
	if (tp <= g ? g % tp != 0 : tp % g != 0)
		return fail(reason, reason_len, SERVE_COST_INVALID,
			    "tp %d and the %d KV heads: one must divide the other (KV heads are split, or replicated "
			    "when tp exceeds them)", tp, g);
	if (ep > 1 && m->experts <= 0)
		return fail(reason, reason_len, SERVE_COST_INVALID, "ep %d on a dense model", ep);
	if (m->experts > 0 && m->experts % ep != 0)
		return fail(reason, reason_len, SERVE_COST_INVALID, "ep %d does not divide the %d experts", ep,
			    m->experts);
	if (pp > m->layers)
		return fail(reason, reason_len, SERVE_COST_INVALID, "pp %d exceeds the %d layers", pp, m->layers);
	if (stage > c->gpus_per_node && (stage % c->gpus_per_node != 0 || c->gpus_per_node % tp != 0))
		return fail(reason, reason_len, SERVE_COST_INVALID,
			    "tp %d x ep %d GPUs per stage do not fill whole nodes of %d GPUs", tp, ep,
			    c->gpus_per_node);
	if (gpus > cluster_gpus(c))
		return fail(reason, reason_len, SERVE_COST_INVALID, "a replica of %ld GPUs exceeds the cluster's %ld",
			    gpus, cluster_gpus(c));
	if (gpus > c->gpus_per_node && !c->has_nic)
		return fail(reason, reason_len, SERVE_COST_INVALID,
			    "a replica of %ld GPUs spans nodes but the cluster has no NIC", gpus);
	return SERVE_COST_OK;
}

/* The roofline's rates with the engine's GEMM and HBM efficiencies where
 * the scenario's kernel calibration leaves them at 0. A serving step's
 * GEMMs reach gemm_over_mamf of the GPU's measured MAMF (training's
 * roofline_default_gemm_factor is lower): one GPU's CUDA graph of large
 * fused GEMMs, without training's concurrent communication kernels and
 * full-node power draw. */
static void serving_roofline(struct roofline *k, const struct gpu_spec *g, enum precision pr,
			     const struct kernel_calibration *cal, const struct serve_constants *e)
{
	struct kernel_calibration kc = *cal;
	if (!(kc.gemm_efficiency > 0))
		kc.gemm_efficiency = g->mamf[pr] * e->gemm_over_mamf;
	if (!(kc.hbm_efficiency > 0)) {
		/* a measured streaming rate scales it (roofline_hbm_scale) */
		kc.hbm_efficiency = e->hbm_efficiency * roofline_hbm_scale(g);
		if (kc.hbm_efficiency > 1)
			kc.hbm_efficiency = 1;
	}
	roofline_init(k, g, pr, &kc);
}

int serve_cost_init(struct serve_cost *sc, const struct model_spec *m, const struct cluster_spec *c,
		    const struct serving_spec *sv, enum precision pr, const struct kernel_calibration *cal,
		    int tp, int pp, int ep, char *reason, size_t reason_len)
{
	int rc;

	memset(sc, 0, sizeof *sc);
	if (reason != NULL && reason_len > 0)
		reason[0] = '\0';
	rc = check_layout(m, c, tp, pp, ep, reason, reason_len);
	if (rc != SERVE_COST_OK)
		return rc;

	sc->model = *m;
	if (sc->model.kv_heads <= 0)
		sc->model.kv_heads = sc->model.heads;
	m = &sc->model;
	sc->tp = tp;
	sc->pp = pp;
	sc->ep = ep;
	sc->gpus = tp * pp * ep;
	sc->compute = pr;
	sc->weights = sv->has_weight_precision ? sv->weight_precision : pr;
	sc->kv = sv->has_kv_precision ? sv->kv_precision : pr;
	serving_roofline(&sc->k, &c->gpu, pr, cal, &sv->constants);
	topology_init(&sc->topo, c);
	sc->moe_layers = transformer_moe_layers(m);
	sc->weight_bytes_per_param = weight_bytes_of(sc->weights);
	sc->kv_elem_bytes = sc->kv == PREC_FP4 ? 0.5 : precision_bytes(sc->kv);
	sc->kv_heads_per_gpu = m->kv_heads >= tp ? m->kv_heads / tp : 1;
	sc->overhead_s = sv->step_overhead_s >= 0 ? sv->step_overhead_s : sv->constants.step_overhead_s;
	sc->kernel_s = sv->constants.kernel_s;
	sc->seq_overhead_s = sv->constants.seq_overhead_s;
	sc->tp_link_bytes_per_s = sc->topo.su.bw_bytes_per_s * sc->topo.su.efficiency;
	sc->tp_link_latency_s = sc->topo.su.latency_s;
	sc->peak_flops_per_s = sc->gpus * sc->k.peak_flops_per_s;
	sc->peak_hbm_bytes_per_s = sc->gpus * c->gpu.mem_bw_bytes_per_s;

	double h = m->hidden, d = transformer_head_dim(m), V = m->vocab;
	/* KV per token: 2 (K and V) x layers x KV heads stored x head dim; a
	 * replicated KV head is stored on every GPU that holds it (vLLM). */
	double kv_heads_stored = (double)sc->kv_heads_per_gpu * tp;
	/* MLA: the latent and rotary key, kv_lora_rank + r per layer, shared by
	 * every head and so held whole by each tensor-parallel rank */
	double kv_elems_gpu = transformer_is_mla(m) ? transformer_kv_elems_per_token(m)
						    : 2.0 * sc->kv_heads_per_gpu * d;
	sc->kv_bytes_per_token = transformer_is_mla(m) ? m->layers * kv_elems_gpu * tp * sc->kv_elem_bytes
						       : 2.0 * m->layers * kv_heads_stored * d * sc->kv_elem_bytes;

	/* Workspace: non-torch memory, plus the activation peak of a full batch
	 * of max_batch_tokens (residual, normed input, QKV, and the MLP's
	 * gate/up output and activation, 16-bit) and the logits of max_seqs
	 * sampled rows (vLLM profiles exactly this dummy batch). */
	double T = sv->max_batch_tokens > 0 ? sv->max_batch_tokens : DEFAULT_MAX_BATCH_TOKENS;
	double S = sv->max_seqs > 0 ? sv->max_seqs : DEFAULT_MAX_SEQS;
	double width = m->experts > 0 ? (double)(m->experts_active + m->shared_experts) * m->expert_ffn : m->ffn;
	if (m->experts > 0 && m->dense_layers > 0 && m->ffn > width)
		width = m->ffn;
	double qkv_elems = ((double)m->heads / tp + 2.0 * sc->kv_heads_per_gpu) * d;
	if (transformer_is_mla(m)) {
		struct transformer_gemm ag[TRANSFORMER_ATTN_GEMMS];
		int n = transformer_attention_gemms(m, (int)tp, ag);
		qkv_elems = 0;
		for (int i = 0; i + 1 < n; i++)  /* every projection's output but the last's */
			qkv_elems += ag[i].n;
	}
	double act_elems = 4 * h + qkv_elems + (m->mlp == MLP_SWIGLU ? 3 : 2) * width / tp;
	double act_peak = T / ep * ACT_BYTES * act_elems + S * V * LOGIT_PEAK_BYTES;
	sc->workspace_bytes_per_gpu = (sc->gpus > 1 ? serve_nontorch_bytes_multi : serve_nontorch_bytes_single) + act_peak;

	/* Weights per GPU, stage by stage (stage s holds layers
	 * [s L / pp, (s + 1) L / pp); the first also the input embedding, the
	 * last the final norm and the LM head, both split over tp by vocab);
	 * the KV capacity is the least any stage leaves. */
	double frac = sv->gpu_memory_fraction > 0 ? sv->gpu_memory_fraction : DEFAULT_MEMORY_FRACTION;
	double usable = c->gpu.memory_bytes * frac;
	bool of_free = serve_engine_of(sv->engine)->memory_fraction_of_free;
	double dense_b = layer_bytes_per_gpu(sc, false), moe_b = layer_bytes_per_gpu(sc, true);
	double emb_b = V * h / tp * ACT_BYTES;
	double worst_w = 0, cap = INFINITY, worst_kv = 0;
	for (int s = 0; s < pp; s++) {
		int l0 = (int)((long)s * m->layers / pp), l1 = (int)((long)(s + 1) * m->layers / pp);
		double w = 0;
		for (int i = l0; i < l1; i++)
			w += layer_is_moe(m, i) ? moe_b : dense_b;
		if (s == 0)
			w += emb_b;
		if (s == pp - 1)
			w += (m->tied_embeddings && pp == 1 ? 0 : emb_b) + h * ACT_BYTES;
		double kv_gpu = (l1 - l0) * kv_elems_gpu * sc->kv_elem_bytes;
		double free_b = of_free ? frac * (c->gpu.memory_bytes - w - sc->workspace_bytes_per_gpu)
					: usable - w - sc->workspace_bytes_per_gpu;
		double tokens = free_b > 0 ? ep * free_b / kv_gpu : 0;
		if (w > worst_w)
			worst_w = w;
		if (kv_gpu > worst_kv)
			worst_kv = kv_gpu;
		if (tokens < cap)
			cap = tokens;
	}
	sc->weight_bytes_per_gpu = worst_w;
	sc->kv_bytes_per_token_gpu = worst_kv;
	sc->kv_capacity_tokens = floor(cap);

	/* One request of the load, or one block, must fit. */
	double need = request_tokens_mean(sv);
	if (sv->block_tokens > need)
		need = sv->block_tokens;
	if (!(sc->kv_capacity_tokens >= need) || sc->kv_capacity_tokens < 1)
		return fail(reason, reason_len, SERVE_COST_OOM,
			    "weights %.1f GB + workspace %.1f GB per GPU of %.1f GB usable (%.0f%% of %.1f GB) leave KV "
			    "room for %.0f tokens, below one request of %.0f (mean prompt + output, or one block)",
			    worst_w / 1e9, sc->workspace_bytes_per_gpu / 1e9, usable / 1e9, frac * 100,
			    c->gpu.memory_bytes / 1e9, sc->kv_capacity_tokens, need);
	return SERVE_COST_OK;
}

/* Work one GPU does, summed as a step is costed. */
struct work {
	double s, flops, bytes;
	double kernels;
};

/* A GEMM of M x K activations by K x N weights stored at wbytes each,
 * 16-bit output: roofline_gemm_s's form with the weights at their stored
 * width (a quantized weight is dequantized inside the GEMM, as Marlin and
 * TensorRT-LLM's weight-only kernels do, and computed at the compute
 * precision's rate). No per-kernel launch: serving engines run a step as
 * CUDA graphs, and the per-step overhead stands for the host's time. */
static void gemm(const struct serve_cost *sc, double M, double N, double K, double wbytes, struct work *w)
{
	const struct roofline *k = &sc->k;
	if (M <= 0 || N <= 0 || K <= 0)
		return;
	double flops = 2 * M * N * K;
	double bytes = k->operand_bytes * M * K + wbytes * K * N + ACT_BYTES * M * N;
	/* the large-GEMM rate times the shape's tile and wave efficiency,
	 * training's model (roofline_gemm_shape_efficiency), for a GEMM of at
	 * least a tile of rows; fewer rows (decode batches) run as GEMV and
	 * small-tile kernels whose bound is the weights' read */
	double shape = M >= ROOFLINE_TILE_M ? roofline_gemm_shape_efficiency(k, M, N, K) : 1.0;
	double rate = k->peak_flops_per_s * k->gemm_efficiency * shape;
	double tc = flops / rate, tm = bytes / k->hbm_bytes_per_s;
	w->s += tc > tm ? tc : tm;
	w->flops += flops;
	w->bytes += bytes;
	w->kernels += 1;
}

/* A memory-bound kernel moving `bytes`. */
static void memory(const struct serve_cost *sc, double bytes, struct work *w)
{
	w->s += bytes / sc->k.hbm_bytes_per_s;
	w->bytes += bytes;
}

/* Seconds of one collective of `bytes` on a group (0 for one rank). */
static double coll_s(const struct serve_cost *sc, int nodes, int per_node, enum collective_op op, double bytes)
{
	struct collective_group g;
	struct coll_cost cost;
	const char *why;
	if (nodes * per_node < 2 || bytes <= 0)
		return 0;
	collective_group_make(&g, nodes, per_node);
	bool ok = collective_analytic(&sc->topo, &g, op, ALGO_AUTO, bytes, &cost, &why);
	assert(ok);  /* serve_cost_init refused a multi-node replica without a NIC */
	(void)ok;
	return cost.time_s;
}

/* One layer on one GPU of its stage: Te tokens on this expert-parallel
 * rank (of T in the replica), their prefill pairs and decode context. */
static void layer_cost(const struct serve_cost *sc, bool moe, double T, double Te, double pairs, double ctx,
		       struct work *w)
{
	const struct model_spec *m = &sc->model;
	const struct roofline *k = &sc->k;
	double h = m->hidden, d = transformer_head_dim(m), a = m->heads, tp = sc->tp;
	double gl = sc->kv_heads_per_gpu, wb = sc->weight_bytes_per_param;
	double nmat = m->mlp == MLP_SWIGLU ? 2 : 1;   /* gate and up fused */
	double inner_elems;

	/* QKV and the output projection (MLA: its five matrices; decoding
	 * with the key and value up-projections absorbed into the query and
	 * the output, as vLLM and SGLang do, costs the same per token) */
	if (transformer_is_mla(m)) {
		struct transformer_gemm ag[TRANSFORMER_ATTN_GEMMS];
		int n = transformer_attention_gemms(m, (int)tp, ag);
		for (int i = 0; i < n; i++)
			gemm(sc, Te, ag[i].n, ag[i].k, wb, w);
	} else {
		gemm(sc, Te, (a / tp + 2 * gl) * d, h, wb, w);
		gemm(sc, Te, h, a * d / tp, wb, w);
	}

	/* Attention: the prompt's query-key pairs at the attention rate
	 * (4 a d FLOPs per pair: scores and values); decoding reads every
	 * sequence's KV cache, 2 gl d elements per token of context on this
	 * GPU, against its 4 a d / tp FLOPs per context token; every token's
	 * new K and V are written. */
	double attn_rate = k->attn_peak_flops_per_s * k->attn_efficiency;
	double pf = 4 * a / tp * d * pairs, df = 4 * a / tp * d * ctx;
	double kv_elems = 2 * gl * d;
	if (transformer_is_mla(m)) {
		/* MLA: prefill attends over the up-projected keys (d + r) and
		 * values (d); decoding attends in the latent space, scores over
		 * kv_lora_rank + r and values over kv_lora_rank per head, reading
		 * the whole latent on every tensor-parallel rank */
		double c = m->kv_lora_rank, r = m->qk_rope_dim;
		pf = 2 * a / tp * (transformer_qk_head_dim(m) + transformer_v_head_dim(m)) * pairs;
		df = 2 * a / tp * (2 * c + r) * ctx;
		kv_elems = transformer_kv_elems_per_token(m);
	}
	double kv_read = ctx * kv_elems * sc->kv_elem_bytes, kv_write = Te * kv_elems * sc->kv_elem_bytes;
	double t_dec = df / attn_rate > kv_read / k->hbm_bytes_per_s ? df / attn_rate : kv_read / k->hbm_bytes_per_s;
	w->s += pf / attn_rate + t_dec + kv_write / k->hbm_bytes_per_s;
	w->flops += pf + df;
	w->bytes += kv_read + kv_write;
	w->kernels += 1 + ELEMENTWISE_KERNELS_PER_LAYER;

	if (!moe) {
		double f = m->ffn / tp;
		gemm(sc, Te, nmat * f, h, wb, w);
		gemm(sc, Te, h, f, wb, w);
		inner_elems = Te * f;
	} else {
		/* The router (16-bit, on every rank), then the experts the step's
		 * tokens reach: T k routed tokens spread over the H distinct
		 * experts hit, H / ep of them on this rank; each hit expert's
		 * weights are read once. */
		double E = m->experts, kk = m->experts_active, fe = m->expert_ffn / tp;
		double H = serve_cost_experts_hit(E, kk, T);
		double per_expert = T * kk / H, local = H / sc->ep;
		struct work one = { 0 };
		gemm(sc, Te, E, h, ACT_BYTES, w);
		gemm(sc, per_expert, nmat * fe, h, wb, &one);
		gemm(sc, per_expert, h, fe, wb, &one);
		w->s += local * one.s;
		w->flops += local * one.flops;
		w->bytes += local * one.bytes;
		w->kernels += one.kernels;  /* the hit experts' GEMMs run as one grouped GEMM each */
		inner_elems = T * kk / sc->ep * fe;
		if (m->shared_experts > 0) {
			double fs = (double)m->shared_experts * m->expert_ffn / tp;
			gemm(sc, Te, nmat * fs, h, wb, w);
			gemm(sc, Te, h, fs, wb, w);
			inner_elems += Te * fs;
		}
		/* dispatch and combine: each rank sends its tokens' k copies */
		if (sc->ep > 1) {
			int stage = sc->tp * sc->ep, gpn = sc->topo.gpus_per_node;
			int nodes = stage > gpn ? stage / gpn : 1;
			w->s += 2 * coll_s(sc, nodes, sc->ep / nodes, COLL_ALL_TO_ALL, Te * kk * h * ACT_BYTES);
		}
	}

	/* Elementwise, 16-bit, read and written: two norms, two residual adds
	 * and rotary over h-wide and QKV-wide rows, the MLP activation over its
	 * inner width (gated: gate and up read, product written). */
	memory(sc, ACT_BYTES * (Te * (10 * h + 2 * (a / tp + gl) * d) + (m->mlp == MLP_SWIGLU ? 3 : 2) * inner_elems), w);

	/* Two all-reduces of the layer's output rows over the tp ranks. */
	w->s += 2 * coll_s(sc, 1, sc->tp, COLL_ALL_REDUCE, Te * h * ACT_BYTES);
}

/* Seconds of a send of `bytes` from GPU a to GPU b with every GPU of the
 * stage sending its copy at once (as train/step.c's p2p_s). */
static double p2p_s(const struct serve_cost *sc, long a, long b, double bytes)
{
	const struct topology *t = &sc->topo;
	struct collective_group g;
	struct coll_cost cost;
	const char *why;
	bool same = topology_node(t, a) == topology_node(t, b);
	if (bytes <= 0)
		return 0;
	collective_group_make(&g, same ? 1 : 2, same ? 2 : 1);
	bool ok = collective_analytic(t, &g, COLL_SEND_RECV, ALGO_AUTO, bytes, &cost, &why);
	assert(ok);
	(void)ok;
	if (!same && t->has_nic && t->rails > 0) {
		/* the stage's GPUs share their node's rails */
		int senders = sc->tp * sc->ep < t->gpus_per_node ? sc->tp * sc->ep : t->gpus_per_node;
		double per_rail = (double)senders / t->rails;
		if (per_rail > 1)
			cost.time_s = cost.latency_s + cost.transfer_s * per_rail;
	}
	return cost.time_s;
}

double serve_cost_step_s(const struct serve_cost *sc, const struct serve_batch *b, struct serve_step_use *use)
{
	const struct model_spec *m = &sc->model;
	double T = (double)b->prefill_tokens + b->decode_seqs;
	struct work dense = { 0 }, moe = { 0 }, head = { 0 };
	double t;

	if (use != NULL)
		use->flops = use->hbm_bytes = 0;
	if (T <= 0)
		return 0;
	/* Expert parallelism runs attention data-parallel: each of the ep
	 * ranks of a stage takes 1/ep of the sequences (an even split). */
	double ep = sc->ep, Te = T / ep;
	double pairs = b->prefill_attn_pairs / ep, ctx = b->decode_ctx_tokens / ep;
	int moe_l = sc->moe_layers, dense_l = m->layers - moe_l;

	if (dense_l > 0)
		layer_cost(sc, false, T, Te, pairs, ctx, &dense);
	if (moe_l > 0)
		layer_cost(sc, true, T, Te, pairs, ctx, &moe);

	/* Embedding rows gathered, the final norm, the LM head and the
	 * sampler for the rows that sample (every decoding sequence and every
	 * prefilling one: a chunk that ends its prompt samples the first
	 * output token), the logits gathered over tp. */
	double h = m->hidden, V = m->vocab;
	double rows = ((double)b->decode_seqs + b->prefill_seqs) / ep;
	memory(sc, ACT_BYTES * Te * h * 3, &head);
	gemm(sc, rows, V / sc->tp, h, ACT_BYTES, &head);
	memory(sc, rows * V * SAMPLER_BYTES_PER_LOGIT, &head);
	head.kernels += HEAD_KERNELS;
	head.s += coll_s(sc, 1, sc->tp, COLL_ALL_GATHER, rows * V * ACT_BYTES);

	/* Pipeline: the step's batch goes through the stages one after the
	 * other (no micro-batches in flight across steps), sending its hidden
	 * states and residual (2 x Te x h, 16-bit) over each boundary. */
	double pp_s = 0;
	long stage = (long)sc->tp * sc->ep;
	for (int s = 0; s + 1 < sc->pp; s++)
		pp_s += p2p_s(sc, s * stage, (s + 1) * stage, 2 * Te * h * ACT_BYTES);

	double kernels = dense_l * dense.kernels + moe_l * moe.kernels + head.kernels;
	double seqs = (double)b->decode_seqs + b->prefill_seqs;
	t = dense_l * dense.s + moe_l * moe.s + head.s + pp_s + kernels * sc->kernel_s + sc->overhead_s +
	    seqs * sc->seq_overhead_s;
	if (use != NULL) {
		double ranks = (double)sc->tp * sc->ep;
		use->flops = ranks * (dense_l * dense.flops + moe_l * moe.flops + head.flops);
		use->hbm_bytes = ranks * (dense_l * dense.bytes + moe_l * moe.bytes + head.bytes);
	}
	return t;
}

static double step_cb(const void *ctx, const struct serve_batch *b, struct serve_step_use *use)
{
	return serve_cost_step_s(ctx, b, use);
}

void serve_cost_model(const struct serve_cost *sc, struct serve_step_model *out)
{
	out->step_s = step_cb;
	out->ctx = sc;
	out->kv_capacity_tokens = sc->kv_capacity_tokens;
	out->kv_bytes_per_token = sc->kv_bytes_per_token;
	out->peak_flops_per_s = sc->peak_flops_per_s;
	out->peak_hbm_bytes_per_s = sc->peak_hbm_bytes_per_s;
}
