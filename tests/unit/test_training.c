/* The training step: memory verdicts, plan checks, the breakdown, the search. */
#include "testutil.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "models/scenario/scenario.h"
#include "models/train/layer.h"
#include "models/train/straggler.h"
#include "models/train/memory.h"
#include "models/train/parallel.h"
#include "models/train/step.h"
#include "models/train/train.h"
#include "models/kernel/transformer.h"

#include "catalog_fixture.h"

static void load(const char *workload, const char *candidate, struct scenario *s)
{
	char text[4096];
	struct cs_error err;
	snprintf(text, sizeof text, "{\"workload\": %s, \"candidates\": [%s]}", workload, candidate);
	assert_int_equal(scenario_of_text(text, s, &err), 0);
}

/* A plan that does not fit is a result with status oom and the numbers. */
static void test_oom_is_a_result(void **state)
{
	(void)state;
	struct scenario s;
	struct train_result r;
	load("{\"kind\": \"training\", \"model\": \"llama3-405b\", \"seq_len\": 8192, \"global_batch_tokens\": 65536,"
	     " \"parallelism\": {\"tp\": 8, \"pp\": 1, \"zero\": 1, \"micro_batch\": 1, \"recompute\": \"full\", \"vpp\": 1,"
	     " \"cp\": 1, \"ep\": 1, \"schedule\": \"1f1b\", \"sequence_parallel\": true}}",
	     "{\"preset\": \"dgx-h100\"}", &s);
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r);
	assert_int_equal(r.outcome.status, OUTCOME_OOM);
	/* 405B / 8 GPUs x 2 bytes of weights alone exceed 80 GiB */
	assert_true(r.mem.weights > 100e9);
	assert_non_null(strstr(r.outcome.reason, "needs "));
	assert_non_null(strstr(r.outcome.reason, "weights"));
	/* rejected before its step is simulated: no time */
	assert_true(r.step_time_s == 0);
	scenario_release(&s);
}

static void test_invalid_plans(void **state)
{
	(void)state;
	struct scenario s;
	struct train_result r;
	/* tp 3 does not divide 32 heads */
	load("{\"kind\": \"training\", \"model\": \"llama3-8b\", \"seq_len\": 4096, \"global_batch_tokens\": 4194304,"
	     " \"parallelism\": {\"tp\": 3, \"pp\": 1, \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1,"
	     " \"schedule\": \"1f1b\", \"recompute\": \"none\", \"sequence_parallel\": true}}",
	     "{\"gpu\": \"H100-SXM\", \"gpus_per_node\": 6}", &s);
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r);
	assert_int_equal(r.outcome.status, OUTCOME_INVALID);
	assert_non_null(strstr(r.outcome.reason, "does not divide the 32 attention heads"));
	scenario_release(&s);
	/* 1024 sequences do not split over dp 8 x micro-batch 3 */
	load("{\"kind\": \"training\", \"model\": \"llama3-8b\", \"seq_len\": 4096, \"global_batch_tokens\": 4194304,"
	     " \"parallelism\": {\"tp\": 1, \"pp\": 1, \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 3,"
	     " \"schedule\": \"1f1b\", \"recompute\": \"none\", \"sequence_parallel\": false}}",
	     "{\"preset\": \"dgx-h100\"}", &s);
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r);
	assert_int_equal(r.outcome.status, OUTCOME_INVALID);
	assert_non_null(strstr(r.outcome.reason, "do not split"));
	scenario_release(&s);
}

/* The breakdown adds up to the step, and MFU, HFU and throughput agree. */
static void test_breakdown_and_rates(void **state)
{
	(void)state;
	struct scenario s;
	struct train_result r;
	load("{\"kind\": \"training\", \"model\": \"llama3-70b\", \"seq_len\": 8192, \"global_batch_tokens\": 8388608,"
	     " \"parallelism\": {\"tp\": 8, \"pp\": 4, \"vpp\": 5, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1,"
	     " \"schedule\": \"interleaved\", \"recompute\": \"selective\", \"sequence_parallel\": true}}",
	     "{\"preset\": \"dgx-h100\", \"nodes\": 8}", &s);
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r);
	assert_int_equal(r.outcome.status, OUTCOME_OK);
	const struct train_breakdown *b = &r.br;
	double sum = b->compute + b->optimizer + b->comm_tp + b->comm_ep + b->comm_cp + b->comm_dp + b->bubble + b->other +
		     b->straggler;
	assert_close(sum, r.step_time_s, 1e-9);
	/* the wait for the slowest of 64 GPUs: sigma x E[max of 64] x the kernels */
	assert_close(b->straggler, s.workload.model.training.straggler_sigma * straggler_expected_max(64) * b->compute, 1e-12);
	assert_true(b->comm_tp > 0 && b->bubble > 0 && b->compute > 0);
	assert_close(r.tokens_per_s, 8388608 / r.step_time_s, 1e-12);
	double flops = transformer_model_flops_per_token(&s.workload.model.arch, 8192) * 8388608;
	assert_close(r.tflops_per_gpu, flops / r.step_time_s / 64 / 1e12, 1e-12);
	assert_close(r.mfu, r.tflops_per_gpu * 1e12 / 989e12, 1e-9);
	assert_true(r.hfu >= r.mfu);
	/* a physically possible result: below the GEMM efficiency ceiling */
	assert_true(r.mfu > 0.2 && r.mfu < 0.8);
	scenario_release(&s);
}

/* The scenario's "kernels" replace the calibrated efficiencies. On one
 * node without data parallelism the compute time is A / e + M: the GEMMs and
 * attention (compute-bound at these sizes) scale with 1 / e, memory-bound
 * kernels do not. Halving e twice must add A/e, then exactly twice that. */
static void test_kernel_overrides(void **state)
{
	(void)state;
	const double e[] = { 0.8, 0.4, 0.2 };
	double t[3];
	for (int i = 0; i < 3; i++) {
		char w[1024];
		struct scenario s;
		struct train_result r;
		snprintf(w, sizeof w,
			 "{\"kind\": \"training\", \"model\": \"llama3-8b\", \"seq_len\": 4096, \"global_batch_tokens\": 32768,"
			 " \"kernels\": {\"gemm_efficiency\": %g, \"attention_efficiency\": %g, \"hbm_efficiency\": 0.9, \"launch_us\": 0},"
			 " \"parallelism\": {\"tp\": 8, \"pp\": 1, \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1,"
			 " \"schedule\": \"1f1b\", \"recompute\": \"selective\", \"sequence_parallel\": true}}", e[i], e[i]);
		load(w, "{\"preset\": \"dgx-h100\", \"nodes\": 1}", &s);
		train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r);
		assert_int_equal(r.outcome.status, OUTCOME_OK);
		t[i] = r.br.compute;
		scenario_release(&s);
	}
	double a_over_e0 = t[1] - t[0];
	assert_true(a_over_e0 > 0.5 * t[0]);  /* the override is used, and GEMMs dominate */
	assert_close(t[2] - t[1], 2 * a_over_e0, 1e-9);
}

/* More pipeline stages with the same micro-batches: a larger bubble share. */
static void test_bubble_grows_with_stages(void **state)
{
	(void)state;
	double prev = -1;
	for (int pp = 1; pp <= 8; pp *= 2) {
		struct scenario s;
		struct train_result r;
		char w[1024];
		snprintf(w, sizeof w,
			 "{\"kind\": \"training\", \"model\": \"llama3-70b\", \"seq_len\": 4096, \"global_batch_tokens\": 1048576,"
			 " \"parallelism\": {\"tp\": 8, \"pp\": %d, \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1,"
			 " \"schedule\": \"1f1b\", \"recompute\": \"full\", \"sequence_parallel\": true}}", pp);
		load(w, "{\"preset\": \"dgx-h100\", \"nodes\": 8}", &s);
		train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r);
		assert_int_equal(r.outcome.status, OUTCOME_OK);
		double share = r.br.bubble / r.step_time_s;
		assert_true(share > prev);
		if (pp == 1)
			assert_true(share < 1e-6);
		prev = share;
		scenario_release(&s);
	}
}

/* "auto" searches: the winner fits, and is no slower than a fixed plan. */
static void test_auto_search(void **state)
{
	(void)state;
	struct scenario s;
	struct train_result fixed, best;
	load("{\"kind\": \"training\", \"model\": \"llama3-70b\", \"seq_len\": 4096, \"global_batch_tokens\": 4194304,"
	     " \"parallelism\": {\"tp\": 8, \"pp\": 2, \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1,"
	     " \"schedule\": \"1f1b\", \"recompute\": \"selective\", \"sequence_parallel\": true}}",
	     "{\"preset\": \"dgx-h100\", \"nodes\": 4}", &s);
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &fixed);
	assert_int_equal(fixed.outcome.status, OUTCOME_OK);
	s.workload.train.plan.tp = s.workload.train.plan.pp = s.workload.train.plan.vpp = s.workload.train.plan.micro_batch = PLAN_AUTO;
	s.workload.train.plan.zero = s.workload.train.plan.recompute = s.workload.train.plan.schedule = PLAN_AUTO;
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &best);
	assert_int_equal(best.outcome.status, OUTCOME_OK);
	assert_true(best.searched);
	assert_true(best.plans_tried > 10);
	assert_true(best.step_time_s <= fixed.step_time_s * (1 + 1e-12));
	assert_true(best.mem.total <= s.candidates[0].gpu.memory_bytes);
	scenario_release(&s);
}

/* The search skips plans whose lower bound cannot win; its answer must be
 * the one an exhaustive search finds: simulate every fitting plan by hand. */
static void test_auto_search_matches_exhaustive(void **state)
{
	(void)state;
	struct scenario s;
	struct train_result best, cur;
	load("{\"kind\": \"training\", \"model\": \"llama2-13b\", \"seq_len\": 4096, \"global_batch_tokens\": 2097152,"
	     " \"parallelism\": {\"tp\": \"auto\", \"pp\": \"auto\", \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": \"auto\","
	     " \"micro_batch\": \"auto\", \"schedule\": \"1f1b\", \"recompute\": \"auto\", \"sequence_parallel\": true}}",
	     "{\"preset\": \"dgx-a100\", \"nodes\": 2}", &s);
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &best);
	assert_int_equal(best.outcome.status, OUTCOME_OK);

	/* the search's space here: tp and pp every divisor of the node and of
	 * the 16 GPUs, ZeRO 0-3, micro-batches up to 32 that divide a
	 * replica's sequences, and the three recomputes (docs/explanation/training.md) */
	static const int tps[] = { 1, 2, 4, 8 }, pps[] = { 1, 2, 4, 8, 16 }, zeros[] = { 0, 1, 2, 3 };
	static const int mbs[] = { 1, 2, 4, 8, 16, 32 };
	static const int recs[] = { RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };
	double fastest = 0;
	int fitting = 0;
	for (int a = 0; a < 4; a++)
	for (int b = 0; b < 5; b++)
	for (int z = 0; z < 4; z++)
	for (int mb = 0; mb < 6; mb++)
	for (int rr = 0; rr < 3; rr++) {
		struct parallel_plan t = s.workload.train.plan;
		struct train_plan p;
		t.tp = tps[a];
		t.pp = pps[b];
		t.zero = zeros[z];
		t.micro_batch = mbs[mb];
		t.recompute = recs[rr];
		char why[PARALLEL_WHY_MAX];
		if (!parallel_fill(&s.workload.train, &s.candidates[0], &t, &p, why, sizeof why))
			continue;
		step_simulate(&s.workload.train, &s.candidates[0], &p, &cur, NULL);
		if (cur.outcome.status != OUTCOME_OK)
			continue;
		fitting++;
		if (fastest == 0 || cur.step_time_s < fastest)
			fastest = cur.step_time_s;
	}
	assert_true(fitting > 20);
	assert_true(fabs(best.step_time_s - fastest) <= 1e-12 * fastest);
	scenario_release(&s);
}

/* The full mode (every rank's traffic as flows) and the default
 * representative pipeline agree within 5% on small symmetric cases. */
static void test_full_mode_agrees(void **state)
{
	(void)state;
	const char *plans[] = {
		"{\"tp\": 4, \"pp\": 2, \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"selective\", \"sequence_parallel\": true}",
		"{\"tp\": 2, \"pp\": 4, \"vpp\": 2, \"cp\": 1, \"ep\": 1, \"zero\": 0, \"micro_batch\": 1, \"schedule\": \"interleaved\", \"recompute\": \"full\", \"sequence_parallel\": true}",
		"{\"tp\": 8, \"pp\": 2, \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 2, \"schedule\": \"zb-h1\", \"recompute\": \"none\", \"sequence_parallel\": true}",
		"{\"tp\": 1, \"pp\": 1, \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"full\", \"sequence_parallel\": false}",
	};
	const char *clusters[] = {
		"{\"preset\": \"dgx-h100\", \"nodes\": 4}",
		"{\"preset\": \"aws-p5.48xlarge\", \"nodes\": 2}",
	};
	for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++)
		for (size_t k = 0; k < 2; k++) {
			struct scenario s;
			struct train_result rep, full;
			char w[1024];
			snprintf(w, sizeof w, "{\"kind\": \"training\", \"model\": \"llama3-8b\", \"seq_len\": 4096,"
				 " \"global_batch_tokens\": 1048576, \"parallelism\": %s}", plans[i]);
			load(w, clusters[k], &s);
			train_evaluate(&s.workload.train, &s.candidates[0], NULL, &rep);
			s.workload.train.mode = TRAIN_FULL;
			train_evaluate(&s.workload.train, &s.candidates[0], NULL, &full);
			assert_int_equal(rep.outcome.status, OUTCOME_OK);
			assert_int_equal(full.outcome.status, OUTCOME_OK);
			if (fabs(full.step_time_s - rep.step_time_s) > 0.05 * rep.step_time_s)
				print_error("plan %zu cluster %zu: full %g s, representative %g s\n", i, k,
					    full.step_time_s, rep.step_time_s);
			assert_close(full.step_time_s, rep.step_time_s, 0.05);
			scenario_release(&s);
		}
}

/* QLoRA's step is LoRA's plus the dequantization: before each forward and
 * each backward of every layer and micro-batch, one memory-bound kernel per
 * weight GEMM (QKV, output, gate+up, down) reads the layer's NF4 weights
 * with their constants and writes bf16 ones: (0.5159 + 2) bytes x the
 * layer's parameters / tp at HBM bandwidth x efficiency, plus a kernel cost
 * each. llama3-8b, tp 8 on one DGX H100 (pp 1, dp 1: nothing else moves). */
static void test_qlora_slower_by_dequantization(void **state)
{
	(void)state;
	struct scenario lora, qlora;
	struct train_result rl, rq;
	const char *wl = "{\"kind\": \"finetune\", \"model\": \"llama3-8b\", \"seq_len\": 4096, \"global_batch_tokens\": 65536,"
			 " \"finetune\": {\"method\": \"%s\", \"rank\": 16, \"targets\": \"attn\"},"
			 " \"parallelism\": {\"tp\": 8, \"pp\": 1, \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1,"
			 " \"schedule\": \"1f1b\", \"recompute\": \"none\", \"sequence_parallel\": true}}";
	char text[1024];
	snprintf(text, sizeof text, wl, "lora");
	load(text, "{\"preset\": \"dgx-h100\"}", &lora);
	snprintf(text, sizeof text, wl, "qlora");
	load(text, "{\"preset\": \"dgx-h100\"}", &qlora);
	train_evaluate(&lora.workload.train, &lora.candidates[0], NULL, &rl);
	train_evaluate(&qlora.workload.train, &qlora.candidates[0], NULL, &rq);
	assert_int_equal(rl.outcome.status, OUTCOME_OK);
	assert_int_equal(rq.outcome.status, OUTCOME_OK);

	const struct model_spec *m = &qlora.workload.model.arch;
	const struct gpu_spec *g = &qlora.candidates[0].gpu;
	double nf4 = 0.5 + 1.0 / 64 + 4.0 / (64 * 256);
	double params = transformer_layer_params(m, false, false) / 8;
	double per_use = (nf4 + 2) * params / (g->mem_bw_bytes_per_s * roofline_default_hbm_efficiency) +
			 4 * roofline_default_launch_s;
	struct layer_ctx x;
	struct layer_time lt;
	struct cs_error err;
	assert_int_equal(layer_ctx_init(&x, &qlora.workload.train, &qlora.candidates[0], &rq.plan, &err), 0);
	layer_cost(&x, false, &lt);
	assert_close(lt.dequant, per_use, 1e-12);
	/* 16 micro-batches x 32 layers x (forward + backward), and the wait for
	 * the slowest of the 8 GPUs grows with the kernels by sigma x E[max of 8] */
	double m_b = 65536.0 / 4096;
	assert_close(rq.step_time_s - rl.step_time_s,
		     m_b * m->layers * 2 * per_use * (1 + qlora.workload.model.training.straggler_sigma * straggler_expected_max(8)), 1e-6);
	assert_true(rq.step_time_s > rl.step_time_s);
	assert_true(rq.mem.weights < rl.mem.weights);
	scenario_release(&lora);
	scenario_release(&qlora);
}

/* host_launch_bound: a layer whose GPU work is shorter than the host's
 * launches takes the host's time, a third of layer_host_launch_s forward
 * and two thirds backward (a full recompute adds another third); a layer
 * whose GPU work is longer is unchanged. Llama 3 8B on one H100, 256 tokens
 * a micro-batch (GPU-light) and 8192 (GPU-bound). */
static void test_host_launch_bound(void **state)
{
	(void)state;
	const char *fmt = "{\"kind\": \"training\", \"model\": \"llama3-8b\", \"seq_len\": %d, \"global_batch_tokens\": %d,"
			  " \"parallelism\": {\"tp\": 1, \"pp\": 1, \"zero\": 1, \"micro_batch\": 1, \"recompute\": \"%s\","
			  " \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"schedule\": \"1f1b\", \"sequence_parallel\": false,"
			  " \"host_launch_bound\": true}}";
	const struct { int seq; const char *rec; double third; } cases[] = { { 256, "none", 0 }, { 256, "full", 1 } };
	for (int i = 0; i < 2; i++) {
		char wl[1024];
		struct scenario s;
		struct train_plan p;
		struct layer_ctx x;
		struct layer_time lt;
		struct cs_error err;
		char why[PARALLEL_WHY_MAX];
		snprintf(wl, sizeof wl, fmt, cases[i].seq, cases[i].seq * 8, cases[i].rec);
		load(wl, "{\"preset\": \"dgx-h100\"}", &s);
		assert_true(parallel_fill(&s.workload.train, &s.candidates[0], &s.workload.train.plan, &p, why, sizeof why));
		assert_int_equal(layer_ctx_init(&x, &s.workload.train, &s.candidates[0], &p, &err), 0);
		layer_cost(&x, false, &lt);
		double h = layer_host_launch_s / 3;
		assert_close(lt.fwd, h, 1e-12);
		assert_close(lt.bwd_input + lt.bwd_weight + lt.recompute, (2 + cases[i].third) * h, 1e-12);
		/* without the bound the GPU work is shorter */
		p.host_bound = false;
		layer_cost(&x, false, &lt);
		assert_true(lt.fwd < h);
		scenario_release(&s);
	}
	/* 8192 tokens of Llama 3 8B: the GPU's work exceeds the host's */
	char wl[1024];
	struct scenario s;
	struct train_plan p;
	struct layer_ctx x;
	struct layer_time on, off;
	struct cs_error err;
	char why[PARALLEL_WHY_MAX];
	snprintf(wl, sizeof wl, fmt, 8192, 65536, "none");
	load(wl, "{\"preset\": \"dgx-h100\"}", &s);
	assert_true(parallel_fill(&s.workload.train, &s.candidates[0], &s.workload.train.plan, &p, why, sizeof why));
	assert_int_equal(layer_ctx_init(&x, &s.workload.train, &s.candidates[0], &p, &err), 0);
	layer_cost(&x, false, &on);
	p.host_bound = false;
	layer_cost(&x, false, &off);
	assert_true(off.fwd > layer_host_launch_s / 3);
	assert_close(on.fwd, off.fwd, 0);
	assert_close(on.bwd_input, off.bwd_input, 0);
	scenario_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oom_is_a_result),
		cmocka_unit_test(test_invalid_plans),
		cmocka_unit_test(test_breakdown_and_rates),
		cmocka_unit_test(test_kernel_overrides),
		cmocka_unit_test(test_bubble_grows_with_stages),
		cmocka_unit_test(test_auto_search),
		cmocka_unit_test(test_auto_search_matches_exhaustive),
		cmocka_unit_test(test_full_mode_agrees),
		cmocka_unit_test(test_qlora_slower_by_dequantization),
		cmocka_unit_test(test_host_launch_bound),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
