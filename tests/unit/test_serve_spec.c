/* Speculative decoding (serve_spec) against closed forms: Leviathan et
 * al.'s expected tokens per step, the whole-token advance whose running
 * mean is that length, a drafter costed with the target's own step
 * functions (a draft model equal to the target costs a target decode step
 * per draft token), the KV capacity the drafter leaves, and in the request
 * simulation a decode time per output token divided by the acceptance
 * length with a free drafter, and equal to the verify step per token with
 * acceptance 0. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "catalog_fixture.h"
#include "models/serve/serve_sim.h"
#include "models/serve/serve_spec.h"

static const struct kernel_calibration defaults = { .launch_s = -1, .flash_attention = true };

static void h100(struct cluster_spec *c)
{
	cluster_of("{\"name\": \"x\", \"gpu\": \"H100-SXM\", \"nodes\": 1, \"gpus_per_node\": 8, \"scale_up\": \"nvlink4\"}",
		   c);
}

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

/* (1 - a^(k+1)) / (1 - a): a 0.8, k 1: 1.8; a 0.5, k 3: 1.875; a 0: 1;
 * a 1: k + 1; a stated acceptance_length is taken as it is. */
static void test_tokens_per_step(void **state)
{
	(void)state;
	struct speculative_spec sp = { .method = SPEC_EAGLE, .tokens = 1, .acceptance_rate = 0.8 };
	assert_close(serve_spec_tokens_per_step(&sp), 1.8, 1e-12);
	sp.tokens = 3;
	sp.acceptance_rate = 0.5;
	assert_close(serve_spec_tokens_per_step(&sp), 1.875, 1e-12);
	sp.acceptance_rate = 0;
	assert_close(serve_spec_tokens_per_step(&sp), 1, 1e-12);
	sp.acceptance_rate = 1;
	assert_close(serve_spec_tokens_per_step(&sp), 4, 1e-12);
	sp.acceptance_rate = -1;
	sp.acceptance_length = 2.7;
	assert_close(serve_spec_tokens_per_step(&sp), 2.7, 1e-12);
}

/* The advance is whole tokens, at least 1, at most k + 1 and what is left;
 * over N steps it sums to floor(N tau). */
static void test_advance(void **state)
{
	(void)state;
	struct serve_step_model m = { .spec_tokens = 3, .spec_tokens_per_step = 2.5 };
	int want[4] = { 2, 3, 2, 3 };
	for (int j = 0; j < 4; j++)
		assert_int_equal(serve_spec_advance(&m, j, 1000), want[j]);
	m.spec_tokens_per_step = 1.8;
	long sum = 0;
	for (int j = 0; j < 1000; j++) {
		int n = serve_spec_advance(&m, j, 1 << 20);
		assert_true(n >= 1 && n <= 4);
		sum += n;
	}
	assert_int_equal(sum, 1800);
	assert_int_equal(serve_spec_advance(&m, 0, 1), 1);
	assert_int_equal(serve_spec_lookahead(&m, 1), 0);
	assert_int_equal(serve_spec_lookahead(&m, 3), 2);
	assert_int_equal(serve_spec_lookahead(&m, 100), 3);
	struct serve_step_model none = { 0 };
	assert_int_equal(serve_spec_advance(&none, 5, 100), 1);
	assert_int_equal(serve_spec_lookahead(&none, 100), 0);
}

/* A draft model equal to the target: each of its k passes over a decode
 * batch costs what the target's decode step of that batch costs without
 * the host overhead (charged once per verify step); the KV capacity is what
 * the target's left, less the draft's weights and k more logit rows per
 * sequence, over twice the KV bytes per token. */
static void test_draft_equal_to_target(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	struct serve_spec ss;
	char why[512];
	const struct model_spec *m = catalog_model(cat, "llama3.1-8b");
	assert_non_null(m);
	h100(&c);
	serving(&sv);
	assert_int_equal(serve_cost_init(&sc, m, &c, &sv, PREC_BF16, &defaults, 1, 1, 1, why, sizeof why), SERVE_COST_OK);
	sv.spec = (struct speculative_spec){ .method = SPEC_DRAFT, .tokens = 3, .acceptance_rate = 0, .draft = *m };
	int rc = serve_spec_init(&ss, &sc, &c, &sv, PREC_BF16, &defaults, why, sizeof why);
	if (rc != SERVE_COST_OK)
		print_error("%s\n", why);
	assert_int_equal(rc, SERVE_COST_OK);

	int D = 4, k = 3;
	double ctx = 4 * 1500.0;
	struct serve_batch b = { .decode_seqs = D, .decode_ctx_tokens = ctx };
	struct serve_batch v = b;
	v.prefill_tokens = k * D;
	v.prefill_seqs = k * D;
	v.prefill_attn_pairs = k * ctx + D * k * (k + 1) / 2.0;
	double draft = 0;
	for (int i = 0; i < k; i++) {
		struct serve_batch p = { .decode_seqs = D, .decode_ctx_tokens = ctx + i * D };
		draft += serve_cost_step_s(&sc, &p, NULL) - sc.overhead_s;
	}
	assert_close(serve_spec_step_s(&ss, &b, NULL), serve_cost_step_s(&sc, &v, NULL) + draft, 1e-12);
	/* memory-bound verify: k + 1 positions per sequence cost little more
	 * than one (the weights are read once) */
	assert_true(serve_cost_step_s(&sc, &v, NULL) < 1.2 * serve_cost_step_s(&sc, &b, NULL));

	double free_b = sc.kv_capacity_tokens * sc.kv_bytes_per_token_gpu;
	double logits = 256.0 * k * m->vocab * 8;
	double want = floor((free_b - sc.weight_bytes_per_gpu - logits) / (2 * sc.kv_bytes_per_token_gpu));
	assert_close_abs(ss.kv_capacity_tokens, want, 1);
	assert_close(ss.extra_weight_bytes_per_gpu, sc.weight_bytes_per_gpu, 1e-12);
	assert_close(ss.kv_bytes_per_token, 2 * sc.kv_bytes_per_token, 1e-12);
}

/* An EAGLE head is one decoder layer, the target's LM head and a 2h -> h
 * projection: a pass of it at one sequence reads those weights once. */
static void test_eagle_head_is_small(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct serving_spec sv;
	struct serve_cost sc;
	struct serve_spec ss;
	char why[512];
	const struct model_spec *m = catalog_model(cat, "llama3.1-8b");
	h100(&c);
	serving(&sv);
	assert_int_equal(serve_cost_init(&sc, m, &c, &sv, PREC_BF16, &defaults, 1, 1, 1, why, sizeof why), SERVE_COST_OK);
	sv.spec = (struct speculative_spec){ .method = SPEC_EAGLE, .tokens = 1, .acceptance_length = 2 };
	assert_int_equal(serve_spec_init(&ss, &sc, &c, &sv, PREC_BF16, &defaults, why, sizeof why), SERVE_COST_OK);
	assert_int_equal(ss.draft.model.layers, 1);
	struct serve_batch b = { .decode_seqs = 1, .decode_ctx_tokens = 1000 };
	struct serve_batch v = { .decode_seqs = 1, .decode_ctx_tokens = 1000, .prefill_tokens = 1, .prefill_seqs = 1,
				 .prefill_attn_pairs = 1001 };
	double head = serve_spec_step_s(&ss, &b, NULL) - serve_cost_step_s(&sc, &v, NULL);
	/* memory-bound at one sequence: the layer's, the LM head's and the 2h -> h
	 * projection's weights read once (bf16), plus the fixed times of the
	 * pass's kernels (the layer's 4 GEMMs, attention and 4 elementwise
	 * kernels; the LM head's GEMM and the head's 5 others) and of its one
	 * sequence, within 10% */
	double h = m->hidden, d = h / m->heads;
	double layer = h * (m->heads * d + 2.0 * m->kv_heads * d) + m->heads * d * h + 3 * h * m->ffn;
	double bytes = 2 * (layer + (double)m->vocab * h + 2 * h * h);
	double fixed = (9 + 6) * sv.constants.kernel_s + sv.constants.seq_overhead_s;
	assert_close(head, bytes / sc.k.hbm_bytes_per_s + fixed, 0.1);
	/* the head's layer and projection, under a thirtieth of the weights */
	assert_true(ss.extra_weight_bytes_per_gpu > 0 && ss.extra_weight_bytes_per_gpu < sc.weight_bytes_per_gpu / 30);
}

/* A step model that costs T per step whatever it holds (a free drafter:
 * the verify step costs what a plain step does). */
static double flat_step(const void *ctx, const struct serve_batch *b, struct serve_step_use *use)
{
	(void)b;
	if (use != NULL)
		use->flops = use->hbm_bytes = 0;
	return *(const double *)ctx;
}

/* One request on an idle replica, steps of T: TTFT is one step; the
 * output - 1 later tokens take N steps, N the least with floor(N tau) >=
 * output - 1, so TPOT = N T / (output - 1): T / tau when tau divides it.
 * Acceptance 0 (tau 1) gives TPOT T, one token a step. */
static void test_sim_tpot_divides(void **state)
{
	(void)state;
	double T = 0.01;
	struct serve_request rq = { 0, 100, 101 };
	struct serve_trace tr = { &rq, 1 };
	double taus[3] = { 2.5, 1.0, 4.0 }, tpot_ms[3] = { T / 2.5 * 1e3, T * 1e3, T / 4 * 1e3 };
	for (int i = 0; i < 3; i++) {
		struct serving_spec sv;
		serving(&sv);
		sv.process = ARRIVAL_TRACE;
		sv.trace_requests = &tr;
		sv.chunked_prefill = true;
		struct serve_sim_config cfg;
		memset(&cfg, 0, sizeof cfg);
		cfg.sv = &sv;
		cfg.colocated = (struct serve_pool){ .replicas = 1, .first_gpu = 0, .gpus_per_replica = 1,
						     .model = { .step_s = flat_step, .ctx = &T, .kv_capacity_tokens = 1e6,
								.peak_flops_per_s = 1e15, .peak_hbm_bytes_per_s = 1e12,
								.spec_tokens = 3, .spec_tokens_per_step = taus[i] } };
		cfg.seed = 1;
		struct serve_metrics m;
		char reason[256] = "";
		int rc = serve_sim_run(&cfg, &m, reason, sizeof reason);
		if (rc != 0)
			print_error("%s\n", reason);
		assert_int_equal(rc, 0);
		assert_int_equal(m.output_tokens_emitted, 101);
		assert_close_abs(m.ttft_ms.p50, T * 1e3, 1e-6);
		assert_close_abs(m.tpot_ms.mean, tpot_ms[i], 1e-6);
		/* one inter-token gap per step: the step's tokens arrive together */
		assert_close_abs(m.itl_ms.p50, T * 1e3, 1e-6);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokens_per_step),
		cmocka_unit_test(test_advance),
		cmocka_unit_test(test_draft_equal_to_target),
		cmocka_unit_test(test_eagle_head_is_small),
		cmocka_unit_test(test_sim_tpot_divides),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
