/* Costs that grow with scale, against closed forms: pipeline transfers on
 * the 1F1B critical path, the distributed optimizer's weight all-gather
 * overlapped with the next forward or not. */
#include "testutil.h"

#include <string.h>

#include "models/kernel/roofline.h"
#include "models/scenario/scenario.h"
#include "models/train/layer.h"
#include "models/train/memory.h"
#include "models/train/parallel.h"
#include "models/train/pipeline.h"
#include "models/train/train.h"

#include "catalog_fixture.h"

static void load(const char *workload, const char *candidate, struct scenario *s)
{
	char text[4096];
	struct cs_error err;
	snprintf(text, sizeof text, "{\"workload\": %s, \"candidates\": [%s]}", workload, candidate);
	assert_int_equal(scenario_of_text(text, s, &err), 0);
}

static double span_1f1b(int p, int m, double f, double b, double c)
{
	double fs[8], bs[8], sf[8], sb[8];
	for (int i = 0; i < 8; i++) {
		fs[i] = f;
		bs[i] = b;
		sf[i] = sb[i] = c;
	}
	struct pipeline_config pc = { .p = p, .v = 1, .m = m, .schedule = SCHED_1F1B,
				      .f_s = fs, .b_s = bs, .send_f_s = sf, .send_b_s = sb };
	struct pipeline_result r;
	pipeline_run(&pc, &r, NULL);
	double span = r.span_s;
	pipeline_result_release(&r);
	return span;
}

/*
 * Point-to-point transfers of c (latency + bytes / bandwidth) between
 * stages sit on the critical path. One micro-batch goes down p stages and
 * back: p (f + b) + 2 (p - 1) c exactly. With m micro-batches the 1F1B span
 * is at least the transfer-free (m + p - 1)(f + b) plus that first round
 * trip's 2 (p - 1) c, and every further micro-batch adds at most one
 * transfer each way: at most (m + p - 1)(f + b) + 2 (m + p - 2) c. In the
 * steady state each micro-batch waits for part of a transfer (the
 * simulation gives (p - 1)/p of c per micro-batch here), so the cost grows
 * with m, not just with p.
 */
static void test_p2p_on_critical_path(void **state)
{
	(void)state;
	double f = 1, b = 2, c = 0.1;
	for (int p = 2; p <= 6; p++) {
		assert_close(span_1f1b(p, 1, f, b, c), p * (f + b) + 2 * (p - 1) * c, 1e-9);
		for (int m = 2; m <= 16; m++) {
			double s = span_1f1b(p, m, f, b, c), free = (m + p - 1) * (f + b);
			assert_close(span_1f1b(p, m, f, b, 0), free, 1e-9);
			assert_true(s >= free + 2 * (p - 1) * c - 1e-9);
			assert_true(s <= free + 2 * (m + p - 2) * c + 1e-9);
		}
		/* more micro-batches, more transfers waited for */
		assert_true(span_1f1b(p, 16, f, b, c) - span_1f1b(p, 16, f, b, 0) >
			    span_1f1b(p, 2, f, b, c) - span_1f1b(p, 2, f, b, 0) + 1e-9);
	}
}

/*
 * The distributed optimizer's weight all-gather (ag seconds, in one bucket
 * per layer, B = 32): without overlap_param_gather all of it follows the
 * optimizer; with it (the default) only the first bucket does, the rest
 * runs under the next step's first forward (longer here: Llama 3 8B, tp 8
 * in a node, dp 2 across two nodes, 4 x 8192 tokens per micro-batch),
 * slowing it by the overlap slowdown. So the step differs by
 * ag (B - 1)/B (1 - slowdown), all of it in t_comm_dp_s.
 */
static void test_param_gather_overlap(void **state)
{
	(void)state;
	const char *wl = "{\"kind\": \"training\", \"model\": \"llama3-8b\", \"seq_len\": 8192, \"global_batch_tokens\": 131072,"
			 " \"parallelism\": {\"tp\": 8, \"pp\": 1, \"vpp\": 1, \"dp\": 2, \"cp\": 1, \"ep\": 1, \"zero\": 1,"
			 " \"micro_batch\": 4, \"schedule\": \"1f1b\", \"recompute\": \"selective\", \"sequence_parallel\": true%s}}";
	char text[1024];
	struct scenario on, off;
	struct train_result ron, roff;
	snprintf(text, sizeof text, wl, "");
	load(text, "{\"preset\": \"dgx-h100\", \"nodes\": 2}", &on);
	snprintf(text, sizeof text, wl, ", \"overlap_param_gather\": false");
	load(text, "{\"preset\": \"dgx-h100\", \"nodes\": 2}", &off);
	assert_true(on.workload.train.plan.overlap_param_gather);
	assert_false(off.workload.train.plan.overlap_param_gather);
	train_evaluate(&on.workload.train, &on.candidates[0], NULL, &ron);
	train_evaluate(&off.workload.train, &off.candidates[0], NULL, &roff);
	assert_int_equal(ron.outcome.status, OUTCOME_OK);
	assert_int_equal(roff.outcome.status, OUTCOME_OK);

	struct layer_ctx x;
	struct cs_error err;
	struct collective_group dpg;
	assert_int_equal(layer_ctx_init(&x, &on.workload.train, &on.candidates[0], &ron.plan, &err), 0);
	layer_group_shape(&x, DIM_DP, 2, &dpg);
	double params = parallel_vstage_params(&on.workload.model.arch, &ron.plan, 0, 1);
	double ag = layer_coll_s(&x, &dpg, COLL_ALL_GATHER, TRAIN_WEIGHT_BYTES * params);
	double B = on.workload.model.arch.layers;
	double want = ag * (B - 1) / B * (1 - on.workload.model.training.overlap_slowdown);
	assert_true(ag > 0.005);
	assert_close(roff.step_time_s - ron.step_time_s, want, 1e-6);
	assert_close(roff.br.comm_dp - ron.br.comm_dp, want, 1e-6);
	scenario_release(&on);
	scenario_release(&off);
}

/*
 * Doubling the vocabulary on one GPU with one layer, in `precision`: the
 * compute grows by *got; *gemm16 and *gemm_pr are the output layer's three
 * GEMMs' growth at 16-bit and at the training precision, *loss the loss's
 * memory-bound growth, 52 T dV / (HBM bandwidth x efficiency).
 */
static void vocab_growth(const char *precision, bool fused, double *got, double *gemm16, double *gemm_pr,
			 double *loss)
{
	const char *wl = "{\"kind\": \"training\", \"model\": {\"layers\": 1, \"hidden\": 2048, \"heads\": 16,"
			 " \"ffn\": 8192, \"mlp\": \"gelu\", \"vocab\": %d}, \"precision\": \"%s\", \"seq_len\": 4096,"
			 " \"global_batch_tokens\": 4096,"
			 " \"parallelism\": {\"tp\": 1, \"pp\": 1, \"vpp\": 1, \"dp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1,"
			 " \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"none\", \"sequence_parallel\": false},"
			 " \"kernels\": {\"fused_cross_entropy\": %s}}";
	const char *cand = "{\"preset\": \"dgx-h100\", \"nodes\": 1, \"gpus_per_node\": 1}";
	int V[2] = { 65536, 131072 };
	char text[1024];
	struct scenario s[2];
	struct train_result r[2];
	for (int i = 0; i < 2; i++) {
		snprintf(text, sizeof text, wl, V[i], precision, fused ? "true" : "false");
		load(text, cand, &s[i]);
		train_evaluate(&s[i].workload.train, &s[i].candidates[0], NULL, &r[i]);
		assert_int_equal(r[i].outcome.status, OUTCOME_OK);
	}
	*got = r[1].br.compute - r[0].br.compute;

	struct roofline k16, kpr;
	const struct train_spec *w = &s[0].workload.train;
	roofline_init(&k16, &s[0].candidates[0].gpu, PREC_BF16, &w->model->kernels);
	roofline_init(&kpr, &s[0].candidates[0].gpu, w->model->precision, &w->model->kernels);
	double T = 4096, h = 2048, g16[2], gpr[2];
	for (int i = 0; i < 2; i++) {
		g16[i] = roofline_gemm_tiled_s(&k16, T, V[i], h) + roofline_gemm_tiled_s(&k16, T, h, V[i]) +
			 roofline_gemm_tiled_s(&k16, h, V[i], T);
		gpr[i] = roofline_gemm_tiled_s(&kpr, T, V[i], h) + roofline_gemm_tiled_s(&kpr, T, h, V[i]) +
			 roofline_gemm_tiled_s(&kpr, h, V[i], T);
	}
	*gemm16 = g16[1] - g16[0];
	*gemm_pr = gpr[1] - gpr[0];
	*loss = (fused ? 10.0 : 52.0) * T * (V[1] - V[0]) / k16.hbm_bytes_per_s;
	scenario_release(&s[0]);
	scenario_release(&s[1]);
}

/*
 * The loss over the vocabulary: Megatron-Core's unfused vocab-parallel
 * cross entropy reads and writes each of the T x V logits 38 bytes'
 * worth forward and 14 backward (step_head.c). On one GPU with one layer,
 * doubling V adds to the compute exactly the output layer's three GEMMs'
 * growth plus 52 T dV / (HBM bandwidth x efficiency): the kernel counts
 * stay the same, nothing else depends on V.
 */
static void test_loss_bytes(void **state)
{
	(void)state;
	double got, gemm16, gemm_pr, loss;
	vocab_growth("bf16", false, &got, &gemm16, &gemm_pr, &loss);
	assert_true(loss > 0.003);  /* a visible share */
	assert_close(got, gemm16 + loss, 1e-9);
	/* fused (Transformer Engine's Triton cross entropy): 6 bytes forward in
	 * two passes, 4 backward in one (kernel counts do not grow with V) */
	double unfused = loss;
	vocab_growth("bf16", true, &got, &gemm16, &gemm_pr, &loss);
	assert_close(loss, unfused * 10 / 52, 1e-12);
	assert_close(got, gemm16 + loss, 1e-9);
}

/*
 * FP8 training keeps the output head in BF16: Transformer Engine's FP8
 * wraps the transformer layers, and Megatron-Core's output layer is not a
 * TE module; DeepSeek-V3's report (3.3.1) lists the output head among the
 * components kept in BF16. So the vocabulary's growth costs the BF16 GEMMs,
 * not the FP8 ones (which would be visibly less).
 */
static void test_head_bf16_under_fp8(void **state)
{
	(void)state;
	double got, gemm16, gemm_fp8, loss;
	vocab_growth("fp8", false, &got, &gemm16, &gemm_fp8, &loss);
	assert_true(gemm16 - gemm_fp8 > 0.2 * gemm16);
	assert_close(got, gemm16 + loss, 1e-9);
}

/*
 * One multi-token-prediction module on one GPU (one layer, so its layer is
 * like that one): the step's compute grows by exactly that layer's forward
 * and backward plus the module's own work: the next tokens' embedding
 * looked up (2 x 2Th bytes), two RMSNorms (2Th bytes read and written each,
 * twice as many backward), the 2h -> h projection's three GEMMs, and the
 * output head's three GEMMs and the loss again. On two stages, the last
 * one holds the module (its layer, projection and norms) and its own copy
 * of the untied input embedding.
 */
static void test_mtp_step(void **state)
{
	(void)state;
	const char *wl = "{\"kind\": \"training\", \"model\": {\"layers\": %d, \"hidden\": 2048, \"heads\": 16,"
			 " \"ffn\": 8192, \"mlp\": \"gelu\", \"vocab\": 32768, \"mtp_layers\": %d}, \"seq_len\": 4096,"
			 " \"global_batch_tokens\": 4096, \"parallelism\": {\"tp\": 1, \"pp\": %d, \"vpp\": 1, \"dp\": 1,"
			 " \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1, \"schedule\": \"1f1b\","
			 " \"recompute\": \"none\", \"sequence_parallel\": false}}";
	const char *cand = "{\"preset\": \"dgx-h100\", \"nodes\": 1, \"gpus_per_node\": %d}";
	char text[1024], ctext[256];
	struct scenario s[2];
	struct train_result r[2];
	snprintf(ctext, sizeof ctext, cand, 1);
	for (int i = 0; i < 2; i++) {
		snprintf(text, sizeof text, wl, 1, i, 1);
		load(text, ctext, &s[i]);
		train_evaluate(&s[i].workload.train, &s[i].candidates[0], NULL, &r[i]);
		assert_int_equal(r[i].outcome.status, OUTCOME_OK);
	}
	struct layer_ctx x;
	struct cs_error err;
	struct layer_time lt;
	assert_int_equal(layer_ctx_init(&x, &s[0].workload.train, &s[0].candidates[0], &r[0].plan, &err), 0);
	layer_cost(&x, false, &lt);
	const struct roofline *k = &x.k;
	double T = 4096, h = 2048, V = 32768;
	double norms = roofline_memory_s(k, 2.0 * T * h * 2 * 2, 2);
	double module = roofline_memory_s(k, 2.0 * T * h * 2, 1) + 3 * norms +
			roofline_gemm_tiled_s(k, T, h, 2 * h) + roofline_gemm_tiled_s(k, T, 2 * h, h) +
			roofline_gemm_tiled_s(k, 2 * h, h, T);
	double head = roofline_gemm_tiled_s(k, T, V, h) + roofline_gemm_tiled_s(k, T, h, V) +
		      roofline_gemm_tiled_s(k, h, V, T) + 52.0 * T * V / k->hbm_bytes_per_s + 8 * k->launch_s;
	double want = lt.fwd + lt.bwd_input + lt.bwd_weight + module + head;
	assert_true(head > 0.2 * want);  /* the head's second pass is a visible share */
	assert_close(r[1].br.compute - r[0].br.compute, want, 1e-9);
	scenario_release(&s[0]);
	scenario_release(&s[1]);

	/* two stages: the module on the last one, with the input embedding */
	struct model_spec m0 = *catalog_model(cat, "llama3-8b"), m1 = m0;
	m1.mtp_layers = 1;
	struct train_plan p = { .tp = 1, .pp = 2, .vpp = 1, .dp = 1, .cp = 1, .ep = 1, .etp = 1 };
	double Vh = (double)m0.vocab * m0.hidden;
	assert_close(parallel_vstage_params(&m1, &p, 1, 2) - parallel_vstage_params(&m0, &p, 1, 2),
		     transformer_mtp_params(&m1) + Vh, 1e-12);
	assert_true(parallel_vstage_params(&m1, &p, 0, 2) == parallel_vstage_params(&m0, &p, 0, 2));
}

/* Fused, the loss keeps the 16-bit logits that hold its gradient (2 bytes
 * each) instead of fp32 logits (4): the last stage's activations shrink by
 * 2 s b V / tp. */
static void test_fused_loss_memory(void **state)
{
	(void)state;
	const char *wl = "{\"kind\": \"training\", \"model\": \"llama3-8b\", \"seq_len\": 4096, \"global_batch_tokens\": 4096,"
			 " \"parallelism\": {\"tp\": 1, \"pp\": 1, \"vpp\": 1, \"dp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1,"
			 " \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"none\", \"sequence_parallel\": false},"
			 " \"kernels\": {\"fused_cross_entropy\": %s}}";
	const char *cand = "{\"preset\": \"dgx-h100\", \"nodes\": 1, \"gpus_per_node\": 1}";
	char text[1024];
	struct scenario s[2];
	struct train_memory mem[2];
	for (int i = 0; i < 2; i++) {
		snprintf(text, sizeof text, wl, i ? "true" : "false");
		load(text, cand, &s[i]);
		struct train_result r;
		train_evaluate(&s[i].workload.train, &s[i].candidates[0], NULL, &r);
		memory_per_gpu(&s[i].workload.train, &r.plan, &mem[i]);
	}
	assert_close(mem[0].activations - mem[1].activations, 2.0 * 4096 * s[0].workload.model.arch.vocab, 1e-12);
	scenario_release(&s[0]);
	scenario_release(&s[1]);
}

/*
 * Distributed checkpoints (Megatron-LM's --distribute-saved-activations,
 * metaseq's --distribute-checkpointed-activations) under a full recompute
 * on one node at tp 4: each layer's checkpointed input is kept 1/tp
 * (2 s b h (1 - 1/tp) bytes less a layer, one micro-batch in flight at pp 1)
 * and gathered back from the tp ranks before its recompute: the TP time
 * grows by exactly one all-gather of 2 T h bytes per layer and
 * micro-batch. Without a full recompute, at tp 1 or with sequence
 * parallelism the plan is invalid, with the reason.
 */
static void test_distribute_saved(void **state)
{
	(void)state;
	const char *wl = "{\"kind\": \"training\", \"model\": {\"layers\": 4, \"hidden\": 4096, \"heads\": 32,"
			 " \"ffn\": 16384, \"mlp\": \"gelu\", \"vocab\": 32768}, \"seq_len\": 2048, \"global_batch_tokens\": 32768,"
			 " \"parallelism\": {\"tp\": %d, \"pp\": 1, \"vpp\": 1, \"dp\": %d, \"cp\": 1, \"ep\": 1, \"zero\": 1,"
			 " \"micro_batch\": 2, \"schedule\": \"1f1b\", \"recompute\": \"%s\", \"sequence_parallel\": %s,"
			 " \"distribute_saved_activations\": %s}}";
	const char *cand = "{\"preset\": \"dgx-h100\", \"nodes\": 1}";
	char text[1024];
	struct scenario s[2];
	struct train_result r[2];
	struct train_memory mem[2];
	for (int i = 0; i < 2; i++) {
		snprintf(text, sizeof text, wl, 4, 2, "full", "false", i ? "true" : "false");
		load(text, cand, &s[i]);
		train_evaluate(&s[i].workload.train, &s[i].candidates[0], NULL, &r[i]);
		assert_int_equal(r[i].outcome.status, OUTCOME_OK);
		memory_per_gpu(&s[i].workload.train, &r[i].plan, &mem[i]);
	}
	double T = 2 * 2048, h = 4096, layers = 4, m = r[0].plan.microbatches;
	assert_close(mem[0].activations - mem[1].activations, layers * 2 * T * h * (1 - 1.0 / 4), 1e-12);
	struct layer_ctx x;
	struct cs_error err;
	struct collective_group tg;
	assert_int_equal(layer_ctx_init(&x, &s[1].workload.train, &s[1].candidates[0], &r[1].plan, &err), 0);
	layer_group_shape(&x, DIM_TP, 4, &tg);
	double gather = layer_coll_s(&x, &tg, COLL_ALL_GATHER, 2 * T * h);
	assert_true(gather > 0);
	assert_close(r[1].br.comm_tp - r[0].br.comm_tp, layers * m * gather, 1e-9);
	scenario_release(&s[0]);
	scenario_release(&s[1]);

	const struct { int tp, dp; const char *rec, *sp, *why; } bad[] = {
		{ 4, 2, "selective", "false", "distribute_saved_activations needs recompute full" },
		{ 1, 8, "full", "false", "distribute_saved_activations needs tp > 1" },
		{ 4, 2, "full", "true", "distribute_saved_activations needs sequence_parallel false" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct scenario sb;
		struct train_result rb;
		snprintf(text, sizeof text, wl, bad[i].tp, bad[i].dp, bad[i].rec, bad[i].sp, "true");
		load(text, cand, &sb);
		train_evaluate(&sb.workload.train, &sb.candidates[0], NULL, &rb);
		assert_int_equal(rb.outcome.status, OUTCOME_INVALID);
		if (strstr(rb.outcome.reason, bad[i].why) == NULL)
			print_error("case %zu: %s\n", i, rb.outcome.reason);
		assert_non_null(strstr(rb.outcome.reason, bad[i].why));
		scenario_release(&sb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_p2p_on_critical_path),
		cmocka_unit_test(test_param_gather_overlap),
		cmocka_unit_test(test_loss_bytes),
		cmocka_unit_test(test_head_bf16_under_fp8),
		cmocka_unit_test(test_mtp_step),
		cmocka_unit_test(test_fused_loss_memory),
		cmocka_unit_test(test_distribute_saved),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
