/* The serving step-time model against closed forms computed here from the
 * model's shape and the roofline's own rates, and against vLLM's published
 * memory profile: KV bytes per token, weights per GPU, KV capacity, a
 * decode step's weight read, prefill at the GEMM bound, the decode slope in
 * context tokens, fp8 KV, 4-bit weights, MoE experts hit, pipeline sends,
 * and the layouts that cannot run. */
#include "testutil.h"

#include <string.h>

#include "catalog_fixture.h"
#include "models/comm/collective.h"
#include "models/serve/serve_cost.h"

static const struct kernel_calibration defaults = { .launch_s = -1, .flash_attention = true };

static void h100(struct cluster_spec *c)
{
	cluster_of("{\"name\": \"x\", \"gpu\": \"H100-SXM\", \"nodes\": 2, \"gpus_per_node\": 8, \"scale_up\": \"nvlink4\","
		   " \"nic\": \"ib-ndr\", \"nics_per_node\": 8}", c);
}

/* A load of 1000-token prompts and outputs, vLLM's scheduler defaults. */
static void serving(struct serving_spec *sv)
{
	memset(sv, 0, sizeof *sv);
	sv->prompt_tokens.dist = LEN_FIXED;
	sv->prompt_tokens.mean = 1000;
	sv->output_tokens.dist = LEN_FIXED;
	sv->output_tokens.mean = 1000;
	sv->max_batch_tokens = 8192;
	sv->max_seqs = 256;
	sv->block_tokens = 16;
	sv->step_overhead_s = -1;
	serve_constants_of(&sv->constants, catalog_engine(cat, "vllm-v1"));
}

static const struct model_spec *model(const char *name)
{
	const struct model_spec *m = catalog_model(cat, name);
	assert_non_null(m);
	return m;
}

static void init_ok(struct serve_cost *sc, const struct model_spec *m, const struct cluster_spec *c,
		    const struct serving_spec *sv, enum precision pr, int tp, int pp, int ep)
{
	char why[512];
	int rc = serve_cost_init(sc, m, c, sv, pr, &defaults, tp, pp, ep, why, sizeof why);
	if (rc != SERVE_COST_OK)
		print_error("%s\n", why);
	assert_int_equal(rc, SERVE_COST_OK);
}

/* Parameters of the linear layers of a dense GQA SwiGLU model's blocks. */
static double linear_params(const struct model_spec *m)
{
	double h = m->hidden, d = (double)m->hidden / m->heads, a = m->heads, g = m->kv_heads;
	return m->layers * (h * (a * d + 2 * g * d) + a * d * h + 3 * h * m->ffn);
}

/* One decoding sequence with `ctx` tokens of context. */
static double decode_s(const struct serve_cost *sc, int seqs, double ctx, struct serve_step_use *use)
{
	struct serve_batch b = { .decode_seqs = seqs, .decode_ctx_tokens = ctx };
	return serve_cost_step_s(sc, &b, use);
}

/* MODELING.md: KV per token = 2 l g d bytes; Llama 3 8B bf16: 2 x 32 x 8 x
 * 128 x 2 = 131072 bytes. KV heads replicate when tp exceeds them. */
static void test_kv_bytes_per_token(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	h100(&c);
	serving(&sv);
	init_ok(&sc, model("llama3-8b"), &c, &sv, PREC_BF16, 1, 1, 1);
	assert_true(sc.kv_bytes_per_token == 131072.0);
	sv.has_kv_precision = true;
	sv.kv_precision = PREC_FP8;
	init_ok(&sc, model("llama3-8b"), &c, &sv, PREC_BF16, 1, 1, 1);
	assert_true(sc.kv_bytes_per_token == 65536.0);

	/* two KV heads: tp 2 splits them, tp 4 stores each on two GPUs */
	struct model_spec m = *model("llama3-8b");
	m.kv_heads = 2;
	serving(&sv);
	init_ok(&sc, &m, &c, &sv, PREC_BF16, 2, 1, 1);
	assert_true(sc.kv_bytes_per_token == 2.0 * 32 * 2 * 128 * 2);
	init_ok(&sc, &m, &c, &sv, PREC_BF16, 4, 1, 1);
	assert_true(sc.kv_bytes_per_token == 2.0 * 32 * 4 * 128 * 2);
	assert_true(sc.kv_bytes_per_token_gpu == 2.0 * 32 * 1 * 128 * 2);

	/* MLA (DeepSeek-V3's attention, four dense layers of it): the 512 + 64
	 * latent per layer, whole on every tensor-parallel rank */
	struct model_spec ds = *model("deepseek-v3");
	ds.layers = 4;
	ds.experts = ds.experts_active = ds.expert_ffn = ds.shared_experts = ds.dense_layers = 0;
	init_ok(&sc, &ds, &c, &sv, PREC_BF16, 1, 1, 1);
	assert_true(sc.kv_bytes_per_token == 4.0 * 576 * 2);
	init_ok(&sc, &ds, &c, &sv, PREC_BF16, 8, 1, 1);
	assert_true(sc.kv_bytes_per_token == 8 * 4.0 * 576 * 2);
	assert_true(sc.kv_bytes_per_token_gpu == 4.0 * 576 * 2);
}

/* Llama 3 70B with fp8 weights on tp 2: the blocks' linear layers at one
 * byte, embedding and LM head at two (quantized checkpoints keep them
 * 16-bit), norms at two, halved. The shape gives 70.55e9 parameters, the
 * published 70.6B within 0.1%; all at one byte would be 3% less. */
static void test_weights_70b_fp8_tp2(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	const struct model_spec *m = model("llama3-70b");
	h100(&c);
	serving(&sv);
	init_ok(&sc, m, &c, &sv, PREC_FP8, 2, 1, 1);
	double h = m->hidden, V = m->vocab;
	double lin = linear_params(m), emb = 2 * V * h, norms = 2 * h * m->layers + h;
	assert_close(lin + emb + norms, 70.6e9, 0.002);
	assert_close(sc.weight_bytes_per_gpu, (lin * 1 + (emb + norms) * 2) / 2, 0.01);
	assert_close(sc.weight_bytes_per_gpu, 70.6e9 / 2, 0.035);
}

/* vLLM's memory profile of Llama 3 8B on an 80 GB H100 at tp 1 (vllm PR
 * #10511): total 79.22 GiB x 0.90 = 71.29 GiB, weights 14.96 GiB, non-torch
 * 1.79 GiB, activation peak 1.26 GiB (8192 tokens, 256 sequences), KV cache
 * 53.29 GiB. The catalog's H100 has 80 GiB, so 0.9 x 0.78 GiB more is left
 * for KV; within 1%. */
static void test_kv_capacity_vllm_profile(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	const double gib = 1073741824.0;
	h100(&c);
	serving(&sv);
	init_ok(&sc, model("llama3-8b"), &c, &sv, PREC_BF16, 1, 1, 1);
	assert_close(sc.weight_bytes_per_gpu / gib, 14.96, 0.01);
	assert_close(sc.workspace_bytes_per_gpu / gib, 1.79 + 1.26, 0.05);
	double kv_gib = sc.kv_capacity_tokens * sc.kv_bytes_per_token / gib;
	assert_close(kv_gib, 53.29 + 0.9 * (c.gpu.memory_bytes / gib - 79.22), 0.01);
	/* the brief's formula: (memory x fraction x gpus - weights - workspace) / kv bytes */
	assert_close(sc.kv_capacity_tokens,
		     (c.gpu.memory_bytes * 0.9 - sc.weight_bytes_per_gpu - sc.workspace_bytes_per_gpu) / 131072.0, 1e-6);
}

/* One sequence decoding one token with a tiny context: the step reads the
 * blocks' and the LM head's weights once (not the input embedding: only
 * one row of it) at the roofline's HBM rate, plus the per-step overhead,
 * the fixed time of each kernel (9 per layer: 4 GEMMs, attention, 4
 * elementwise; 6 in the head: the LM head and 5 others) and one
 * sequence's host time, plus (tp 2) two all-reduces of one h-wide row per
 * layer. */
static void test_decode_reads_weights_once(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	const struct model_spec *m = model("llama3-8b");
	h100(&c);
	serving(&sv);
	init_ok(&sc, m, &c, &sv, PREC_BF16, 1, 1, 1);
	double h = m->hidden, V = m->vocab;
	double read = (linear_params(m) + V * h) * 2;
	double fixed = (9.0 * m->layers + 6) * sv.constants.kernel_s + sv.constants.seq_overhead_s;
	double want = read / sc.k.hbm_bytes_per_s + sv.constants.step_overhead_s + fixed;
	assert_close(decode_s(&sc, 1, 1, NULL), want, 0.01);
	/* the roofline's rate is the catalog's bandwidth x its efficiency */
	assert_close(sc.k.hbm_bytes_per_s, c.gpu.mem_bw_bytes_per_s * sv.constants.hbm_efficiency, 1e-12);

	/* a stated overhead replaces the default */
	sv.step_overhead_s = 0.004;
	init_ok(&sc, m, &c, &sv, PREC_BF16, 1, 1, 1);
	assert_close(decode_s(&sc, 1, 1, NULL), read / sc.k.hbm_bytes_per_s + 0.004 + fixed, 0.01);

	/* 70B, fp8 weights, tp 2 */
	const struct model_spec *m70 = model("llama3-70b");
	serving(&sv);
	init_ok(&sc, m70, &c, &sv, PREC_FP8, 2, 1, 1);
	struct topology t;
	struct collective_group g;
	struct coll_cost ar;
	const char *why;
	topology_init(&t, &c);
	collective_group_make(&g, 1, 2);
	assert_true(collective_analytic(&t, &g, COLL_ALL_REDUCE, ALGO_AUTO, m70->hidden * 2.0, &ar, &why));
	/* a one-row all-reduce is latency-bound */
	assert_true(ar.latency_s > 0.9 * ar.time_s);
	double read70 = (linear_params(m70) * 1 + (double)m70->vocab * m70->hidden * 2) / 2;
	double want70 = read70 / sc.k.hbm_bytes_per_s + sv.constants.step_overhead_s + 2 * m70->layers * ar.time_s +
			(9.0 * m70->layers + 6) * sv.constants.kernel_s + sv.constants.seq_overhead_s;
	assert_close(decode_s(&sc, 1, 1, NULL), want70, 0.01);
}

/* Prefill of n prompts of 512 tokens: compute-bound, at least 2 N_linear P
 * FLOPs at the GEMM rate (peak x MAMF x GEMM factor; the shapes' tile and
 * wave efficiency only lowers it) plus the prompt's attention pairs
 * (4 a d FLOPs each, per layer) at the attention rate plus the LM head for
 * n rows; elementwise work and the shapes' efficiency add under 25%; less
 * the fixed times (overhead, kernels, sequences), linear in P. */
static void test_prefill_gemm_bound(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	const struct model_spec *m = model("llama3-8b");
	h100(&c);
	serving(&sv);
	for (int p = 0; p < 2; p++) {
		enum precision pr = p == 0 ? PREC_BF16 : PREC_FP8;
		init_ok(&sc, m, &c, &sv, pr, 1, 1, 1);
		double gemm_rate = c.gpu.peak_flops[pr] * c.gpu.mamf[pr] * sv.constants.gemm_over_mamf;
		double attn_rate = c.gpu.peak_flops[PREC_BF16] * c.gpu.mamf[PREC_BF16] * roofline_default_attention_factor;
		double t[2];
		for (int i = 0; i < 2; i++) {
			int n = 32 << i;
			double P = 512.0 * n, pairs = n * 512.0 * 513 / 2;
			struct serve_batch b = { .prefill_seqs = n, .prefill_tokens = (long)P, .prefill_attn_pairs = pairs };
			double bound = 2 * linear_params(m) * P / gemm_rate +
				       4.0 * m->heads * 128 * m->layers * pairs / attn_rate +
				       2.0 * m->hidden * m->vocab * n / gemm_rate;
			t[i] = serve_cost_step_s(&sc, &b, NULL) - sv.constants.step_overhead_s -
			       (9.0 * m->layers + 6) * sv.constants.kernel_s - n * sv.constants.seq_overhead_s;
			assert_true(t[i] >= bound * (1 - 1e-9));
			assert_true(t[i] <= bound * 1.25);
		}
		assert_close(t[1], 2 * t[0], 0.01);
	}
}

/* Decode time grows with the batch's context tokens at kv bytes per token /
 * (gpus x HBM rate): every token's K and V are read once per step. An fp8
 * cache halves the slope. */
static void test_decode_slope_in_context(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	h100(&c);
	serving(&sv);
	const char *names[2] = { "llama3-8b", "llama3-70b" };
	for (int i = 0; i < 2; i++) {
		int tp = i == 0 ? 1 : 4;
		double slope[2];
		for (int kv = 0; kv < 2; kv++) {
			sv.has_kv_precision = true;
			sv.kv_precision = kv == 0 ? PREC_BF16 : PREC_FP8;
			init_ok(&sc, model(names[i]), &c, &sv, PREC_FP8, tp, 1, 1);
			double d_ctx = 64 * 2000.0;
			slope[kv] = (decode_s(&sc, 64, 64 * 3000.0, NULL) - decode_s(&sc, 64, 64 * 1000.0, NULL)) / d_ctx;
			assert_close(slope[kv], sc.kv_bytes_per_token / (tp * sc.k.hbm_bytes_per_s), 1e-6);
		}
		assert_close(slope[1], slope[0] / 2, 1e-6);
	}
}

/* 4-bit weights (with NVFP4's scale per 16) against fp8: the blocks'
 * linear weights take (0.5 + 1/16) of the bytes, the 16-bit embedding, head
 * and norms the same; one token's decode step saves the difference at the
 * HBM rate. */
static void test_fp4_weights(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost s8, s4;
	const struct model_spec *m = model("llama3-70b");
	h100(&c);
	serving(&sv);
	init_ok(&s8, m, &c, &sv, PREC_FP8, 2, 1, 1);
	sv.has_weight_precision = true;
	sv.weight_precision = PREC_FP4;
	init_ok(&s4, m, &c, &sv, PREC_FP8, 2, 1, 1);
	double saved = (1 - 0.5625) * linear_params(m) / 2;
	assert_close(s8.weight_bytes_per_gpu - s4.weight_bytes_per_gpu, saved, 1e-9);
	assert_close(decode_s(&s8, 1, 1, NULL) - decode_s(&s4, 1, 1, NULL), saved / s8.k.hbm_bytes_per_s, 0.01);
	/* computing in bf16 from 4-bit weights: a weight-bound step reads the same bytes */
	struct serve_cost s4b;
	init_ok(&s4b, m, &c, &sv, PREC_BF16, 2, 1, 1);
	assert_close(decode_s(&s4b, 1, 1, NULL), decode_s(&s4, 1, 1, NULL), 0.01);
	/* more KV room: the saved bytes hold saved / kv bytes per GPU more tokens */
	assert_close(s4.kv_capacity_tokens - s8.kv_capacity_tokens, saved / s8.kv_bytes_per_token_gpu, 0.001);
}

/* Distinct experts hit: E (1 - (1 - k/E)^T); one token reaches k experts,
 * two tokens 8 (1 - 0.75^2) = 3.5 of Mixtral's 8 with top-2. */
static void test_experts_hit(void **state)
{
	(void)state;
	assert_close(serve_cost_experts_hit(8, 2, 1), 2, 1e-12);
	assert_close(serve_cost_experts_hit(8, 2, 2), 3.5, 1e-12);
	assert_close(serve_cost_experts_hit(8, 2, 256), 8, 1e-12);
	assert_close(serve_cost_experts_hit(256, 8, 1), 8, 1e-12);
}

/* Mixtral 8x7B, bf16, tp 2: a one-token step reads k/E = 1/4 of the
 * experts' weights with everything else (attention, router, LM head); a
 * 256-sequence step reads every expert (its activations, read and written
 * by the GEMMs and the elementwise kernels, add about 6%: under 8%). */
static void test_moe_reads_experts_hit(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	struct serve_step_use use;
	const struct model_spec *m = model("mixtral-8x7b");
	h100(&c);
	serving(&sv);
	init_ok(&sc, m, &c, &sv, PREC_BF16, 2, 1, 1);
	double h = m->hidden, d = 128, L = m->layers;
	double attn = L * (h * (32 * d + 2 * 8 * d) + 32 * d * h), router = L * h * 8;
	double experts = L * 8 * 3 * h * m->expert_ffn, head = (double)m->vocab * h;
	decode_s(&sc, 1, 1, &use);
	assert_close(use.hbm_bytes, 2 * (attn + router + head + experts * 2 / 8), 0.005);
	decode_s(&sc, 256, 256, &use);
	assert_close(use.hbm_bytes, 2 * (attn + router + head + experts), 0.08);
	assert_true(use.hbm_bytes >= 2 * (attn + router + head + experts));
	/* replica peaks: two GPUs */
	assert_close(sc.peak_hbm_bytes_per_s, 2 * c.gpu.mem_bw_bytes_per_s, 1e-12);
	assert_close(sc.peak_flops_per_s, 2 * c.gpu.peak_flops[PREC_BF16], 1e-12);

	/* expert parallel over 4 (tp 2): a quarter of the experts per rank,
	 * the replica's weights summed over its GPUs unchanged for the experts */
	struct serve_cost se;
	init_ok(&se, m, &c, &sv, PREC_BF16, 2, 1, 4);
	assert_int_equal(se.gpus, 8);
	double expert_bytes_gpu = 2 * experts / 2;
	assert_close(sc.weight_bytes_per_gpu - se.weight_bytes_per_gpu, expert_bytes_gpu * 3 / 4, 1e-9);
	/* the same step split over 4 expert-parallel ranks does the same
	 * FLOPs in all (conservation) */
	struct serve_step_use u1, u4;
	struct serve_batch b = { .prefill_seqs = 4, .prefill_tokens = 2048, .prefill_attn_pairs = 4 * 512 * 513 / 2.0,
				 .decode_seqs = 200, .decode_ctx_tokens = 200 * 1200.0 };
	serve_cost_step_s(&sc, &b, &u1);
	serve_cost_step_s(&se, &b, &u4);
	assert_close(u4.flops, u1.flops, 1e-9);
}

/* Two pipeline stages inside a node: each GPU holds half the layers (and
 * one of the embedding and the head, equal in size); a step costs the
 * same layers in turn plus one send of the hidden states and residual
 * (2 x tokens x h, 16-bit) between the stages. */
static void test_pipeline_stages(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost s1, s2;
	const struct model_spec *m = model("llama3-8b");
	h100(&c);
	serving(&sv);
	init_ok(&s1, m, &c, &sv, PREC_BF16, 1, 1, 1);
	init_ok(&s2, m, &c, &sv, PREC_BF16, 1, 2, 1);
	assert_int_equal(s2.gpus, 2);
	assert_close(s2.weight_bytes_per_gpu, s1.weight_bytes_per_gpu / 2, 0.001);
	struct topology t;
	struct collective_group g;
	struct coll_cost p2p;
	const char *why;
	topology_init(&t, &c);
	collective_group_make(&g, 1, 2);
	assert_true(collective_analytic(&t, &g, COLL_SEND_RECV, ALGO_AUTO, 2 * 64 * 4096 * 2.0, &p2p, &why));
	assert_close(decode_s(&s2, 64, 64000, NULL) - decode_s(&s1, 64, 64000, NULL), p2p.time_s, 1e-6);
	/* twice the GPUs, twice the KV room less the second stage's workspace:
	 * more than 2x tokens of one GPU since each holds half the weights */
	assert_true(s2.kv_capacity_tokens > 2 * s1.kv_capacity_tokens);
}

/* Layouts that do not fit or do not divide. */
static void test_oom_and_invalid(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	char why[512];
	h100(&c);
	serving(&sv);
	/* 70B in bf16 is 141 GB: not on one 80 GB GPU */
	assert_int_equal(serve_cost_init(&sc, model("llama3-70b"), &c, &sv, PREC_BF16, &defaults, 1, 1, 1, why, sizeof why),
			 SERVE_COST_OOM);
	assert_non_null(strstr(why, "weights"));
	/* on four it fits */
	assert_int_equal(serve_cost_init(&sc, model("llama3-70b"), &c, &sv, PREC_BF16, &defaults, 4, 1, 1, why, sizeof why),
			 SERVE_COST_OK);
	/* tp 16 on 8-GPU nodes */
	assert_int_equal(serve_cost_init(&sc, model("llama3-70b"), &c, &sv, PREC_BF16, &defaults, 16, 1, 1, why, sizeof why),
			 SERVE_COST_INVALID);
	assert_non_null(strstr(why, "tp 16"));
	/* tp 3 does not divide 64 heads */
	assert_int_equal(serve_cost_init(&sc, model("llama3-70b"), &c, &sv, PREC_BF16, &defaults, 3, 1, 1, why, sizeof why),
			 SERVE_COST_INVALID);
	/* ep 3 does not divide Mixtral's 8 experts; ep on a dense model */
	assert_int_equal(serve_cost_init(&sc, model("mixtral-8x7b"), &c, &sv, PREC_BF16, &defaults, 1, 1, 3, why, sizeof why),
			 SERVE_COST_INVALID);
	assert_int_equal(serve_cost_init(&sc, model("llama3-8b"), &c, &sv, PREC_BF16, &defaults, 1, 1, 2, why, sizeof why),
			 SERVE_COST_INVALID);
	/* a request longer than the whole cache: 8B on one GPU holds ~400k tokens */
	sv.prompt_tokens.mean = 1e6;
	assert_int_equal(serve_cost_init(&sc, model("llama3-8b"), &c, &sv, PREC_BF16, &defaults, 1, 1, 1, why, sizeof why),
			 SERVE_COST_OOM);
}

/* The model the simulation calls is the same function. */
static void test_step_model(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	struct serve_step_model sm;
	struct serve_step_use u1, u2;
	h100(&c);
	serving(&sv);
	init_ok(&sc, model("llama3-8b"), &c, &sv, PREC_FP8, 1, 1, 1);
	serve_cost_model(&sc, &sm);
	struct serve_batch b = { .prefill_seqs = 2, .prefill_tokens = 1024, .prefill_attn_pairs = 2 * 512 * 513 / 2.0,
				 .decode_seqs = 100, .decode_ctx_tokens = 100 * 1500.0 };
	assert_true(sm.step_s(sm.ctx, &b, &u1) == serve_cost_step_s(&sc, &b, &u2));
	assert_true(u1.flops == u2.flops && u1.hbm_bytes == u2.hbm_bytes);
	assert_true(sm.kv_capacity_tokens == sc.kv_capacity_tokens);
	/* FLOPs at least 2 N_linear per token computed */
	assert_true(u1.flops >= 2 * linear_params(model("llama3-8b")) * (1024 + 100));
	/* an empty step costs nothing */
	struct serve_batch none = { 0 };
	assert_true(serve_cost_step_s(&sc, &none, &u1) == 0 && u1.flops == 0);
}

/* The steady state of a saturated replica (every slot the KV cache holds
 * busy): B = capacity / (prompt + output / 2) sequences decode, and each
 * step also prefills the B / output sequences that replace those that
 * finish; output tokens per second = B / step. Against TensorRT-LLM's
 * published max-throughput figures (perf-overview.md, 1000 in / 1000 out,
 * FP8 weights and KV): Llama 3.1 8B on one H100 15,220 tok/s, Llama 3.3 70B
 * on two (tp 2) 4,205; within 20%. The request-level simulation, not this
 * estimate, is what `clustersim validate` compares. */
static double saturated_tok_s(const char *name, int tp)
{
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	double P = 1000, O = 1000;
	h100(&c);
	serving(&sv);
	sv.max_seqs = 2048;
	init_ok(&sc, model(name), &c, &sv, PREC_FP8, tp, 1, 1);
	double B = sc.kv_capacity_tokens / (P + O / 2);
	assert_true(B < sv.max_seqs);  /* the KV cache binds, not the sequence limit */
	double starts = B / O;
	struct serve_batch b = { .decode_seqs = (int)B, .decode_ctx_tokens = (int)B * (P + O / 2),
				 .prefill_seqs = (int)ceil(starts), .prefill_tokens = (long)(starts * P),
				 .prefill_attn_pairs = starts * P * (P + 1) / 2 };
	return (int)B / serve_cost_step_s(&sc, &b, NULL);
}

static void test_saturated_trtllm(void **state)
{
	(void)state;
	assert_close(saturated_tok_s("llama3.1-8b", 1), 15220, 0.2);
	assert_close(saturated_tok_s("llama3.3-70b", 2), 4205, 0.2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv_bytes_per_token),
		cmocka_unit_test(test_weights_70b_fp8_tp2),
		cmocka_unit_test(test_kv_capacity_vllm_profile),
		cmocka_unit_test(test_decode_reads_weights_once),
		cmocka_unit_test(test_prefill_gemm_bound),
		cmocka_unit_test(test_decode_slope_in_context),
		cmocka_unit_test(test_fp4_weights),
		cmocka_unit_test(test_experts_hit),
		cmocka_unit_test(test_moe_reads_experts_hit),
		cmocka_unit_test(test_pipeline_stages),
		cmocka_unit_test(test_oom_and_invalid),
		cmocka_unit_test(test_step_model),
		cmocka_unit_test(test_saturated_trtllm),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
