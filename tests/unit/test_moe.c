/*
 * MoE expert parallelism: node-limited routing's share of the network
 * traffic, the overlap modes' paired share, the all-to-all split between
 * NVLink and the NICs, and a layer's exposed all-to-all under each overlap
 * mode, all against their closed forms.
 */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "models/comm/collective.h"
#include "models/kernel/roofline.h"
#include "models/kernel/transformer.h"
#include "models/scenario/scenario.h"
#include "models/train/layer.h"
#include "models/train/memory.h"
#include "models/train/parallel.h"
#include "models/train/train.h"

#include "catalog_fixture.h"

/* A token picks L' = min(L, M) nodes, then its k experts among their
 * L' E/M: q = C((L' - 1) E/M, k) / C(L' E/M, k), it reaches L' (1 - q) nodes. */
static void test_net_scale_closed_form(void **state)
{
	(void)state;
	/* no limit, or one node: every copy as the uniform exchange sends it */
	assert_close_abs(layer_moe_net_scale(256, 8, 8, 0), 1, 0);
	assert_close_abs(layer_moe_net_scale(256, 8, 1, 4), 1, 0);
	/* DeepSeek-V3 over 8 nodes, 4 of them a token: its 8 experts among
	 * 128, a chosen node holds none with q = C(96, 8) / C(128, 8), so
	 * 4 (1 - q) = 3.63 nodes, of 8 copies */
	double q = 1;
	for (int i = 0; i < 8; i++)
		q *= (96.0 - i) / (128.0 - i);
	assert_close_abs(layer_moe_net_scale(256, 8, 8, 4), 4 * (1 - q) / 8, 1e-12);
	assert_close_abs(4 * (1 - q), 3.63, 0.005);
	/* Mixtral-like: 8 experts top-2 over 2 nodes: q = (4/8)(3/7), D = 2 (1 - q) = 11/7 of 2 copies */
	assert_close_abs(layer_moe_net_scale(8, 2, 2, 2), (22.0 / 14) / 2, 1e-12);
	/* a limit at or above the node count only deduplicates: M (1 - C(E - E/M, k) / C(E, k)) */
	assert_close_abs(layer_moe_net_scale(8, 2, 2, 8), layer_moe_net_scale(8, 2, 2, 2), 1e-12);
	/* Qwen3's 8 of 128 experts over 4 nodes (DeepEP, no limit): the same
	 * q as above, C(96, 8) / C(128, 8), over all four nodes */
	assert_close_abs(layer_moe_net_scale(128, 8, 4, 4), 4 * (1 - q) / 8, 1e-12);
}

/* 1f1b: 1 - mean over stages of max(1, pp - 1 - s) / m (capped at m);
 * under dualpipev, what its order pairs. */
static void test_paired_share_closed_form(void **state)
{
	(void)state;
	assert_close_abs(layer_moe_paired_share(MOE_OVERLAP_NONE, SCHED_1F1B, 4, 1, 8), 0, 0);
	assert_close_abs(layer_moe_paired_share(MOE_OVERLAP_DUALPIPE, SCHED_1F1B, 4, 1, 8), 1, 0);
	/* pp 1: the first forward and the last backward have no partner */
	assert_close_abs(layer_moe_paired_share(MOE_OVERLAP_1F1B, SCHED_1F1B, 1, 1, 4), 0.75, 1e-12);
	/* pp 4, m 8: unpaired 3, 2, 1, 1 -> 1 - 7 / 32 */
	assert_close_abs(layer_moe_paired_share(MOE_OVERLAP_1F1B, SCHED_1F1B, 4, 1, 8), 1 - 7.0 / 32, 1e-12);
	/* interleaved pp 2 vpp 2 m 4: warm-up 2 (1) + 2 = 4, then 2 -> 1 - (4 + 2) / 2 / 8 */
	assert_close_abs(layer_moe_paired_share(MOE_OVERLAP_1F1B, SCHED_INTERLEAVED, 2, 2, 4), 1 - 6.0 / 16, 1e-12);
	/* fewer micro-batches than the warm-up: nothing pairs */
	assert_close_abs(layer_moe_paired_share(MOE_OVERLAP_1F1B, SCHED_1F1B, 8, 1, 1), 0, 1e-12);
	/* dualpipev: stage i pairs 2 (m - 2p + i + 1) F&B in its main step
	 * (the last stage's first two run apart) and p - i - 1 in the next,
	 * of 4 m chunk operations: pp 4, m 10 -> 9 + 10 + 11 + 11 = 41 pairs,
	 * 82 / 160; pp 16, m 120 (DeepSeek-V3's row) -> 6414 / 7680; the same
	 * in either overlap mode, none without one */
	for (int mode = MOE_OVERLAP_1F1B; mode <= MOE_OVERLAP_DUALPIPE; mode++) {
		for (int c = 0; c < 2; c++) {
			int p = c == 0 ? 4 : 16, m = c == 0 ? 10 : 120;
			double pairs = 0;
			for (int i = 0; i < p; i++)
				pairs += 2.0 * (m - 2 * p + i + 1) - (i == p - 1) + (p - i - 1);
			assert_close_abs(layer_moe_paired_share((enum moe_overlap)mode, SCHED_DUALPIPEV, p, 2, m),
					 2 * pairs / (4.0 * m * p), 1e-12);
		}
	}
	assert_close_abs(layer_moe_paired_share(MOE_OVERLAP_DUALPIPE, SCHED_DUALPIPEV, 4, 2, 10), 82.0 / 160, 1e-12);
	assert_close_abs(layer_moe_paired_share(MOE_OVERLAP_NONE, SCHED_DUALPIPEV, 4, 2, 10), 0, 0);
}

/* The NVLink and NIC parts run at once: thinning the network part by s
 * gives max(NVLink part, s x network part) when the network bound at s = 1. */
static void test_routed_all_to_all_split(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct topology t;
	struct collective_group g;
	struct coll_cost full, half, none, plain;
	cluster_of("{\"preset\": \"dgx-h100\", \"nodes\": 4}", &c);
	topology_init(&t, &c);
	collective_group_make(&g, 4, 8);
	double bytes = 256e6;
	assert_true(collective_analytic(&t, &g, COLL_ALL_TO_ALL, ALGO_AUTO, bytes, &plain, NULL));
	assert_true(collective_all_to_all_routed(&t, &g, bytes, 1, &full, NULL));
	assert_true(collective_all_to_all_routed(&t, &g, bytes, 0.5, &half, NULL));
	assert_true(collective_all_to_all_routed(&t, &g, bytes, 0, &none, NULL));
	assert_close_abs(full.time_s, plain.time_s, 1e-15);
	assert_true(full.transfer_s > none.transfer_s);  /* network-bound across nodes */
	double expect = fmax(none.transfer_s, 0.5 * full.transfer_s);
	assert_close(half.transfer_s, expect, 1e-12);
	assert_close_abs(half.latency_s, full.latency_s, 1e-15);
}

/*
 * DeepEP's published dispatch (README, V2, "following V3's configuration":
 * 8K tokens per rank, hidden 7168, top-8 of 256 experts in 8 groups of which
 * a token uses 4, FP8 dispatch): on SM90 with ConnectX-7 over EP 8 x 4 it
 * reaches 61 GB/s logical bandwidth, i.e. bytes of each token per node it
 * reaches, the local node's included, over the time. The model's routed
 * all-to-all on four DGX H100 gives that within 15%.
 */
static void test_deepep_dispatch_bandwidth(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct topology t;
	struct collective_group g;
	struct coll_cost cost;
	cluster_of("{\"preset\": \"dgx-h100\", \"nodes\": 4}", &c);
	topology_init(&t, &c);
	collective_group_make(&g, 4, 8);
	double T = 8192, k = 8, h = 7168, fp8 = 1 + 4.0 / 128;  /* FP8 with one fp32 scale per 128 */
	double scale = layer_moe_net_scale(256, 8, 4, 4);
	assert_true(collective_all_to_all_routed(&t, &g, T * k * h * fp8, scale, &cost, NULL));
	double nodes_reached = scale * k;
	double logical = T * nodes_reached * h * fp8 / cost.time_s;
	print_message("DeepEP 8x4 dispatch: model %.1f GB/s logical, published 61\n", logical / 1e9);
	assert_close(logical, 61e9, 0.15);
}

/* A training scenario of `model` on two 8-GPU nodes of `preset`, 4096-token
 * sequences, 256 per step, with the fields of `parallelism` (inside its
 * braces) on top of pp 1, ZeRO-1, micro-batch 1, 1F1B and `recompute`. */
static void load_plan_recompute(const char *model, const char *preset, const char *recompute,
				const char *parallelism, struct scenario *s)
{
	char text[2048];
	struct cs_error err;
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"training\", \"model\": \"%s\", \"seq_len\": 4096,"
		 " \"global_batch_tokens\": 1048576, \"parallelism\": {\"pp\": 1, \"vpp\": 1, \"cp\": 1,"
		 " \"zero\": 1, \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"%s\", %s}},"
		 " \"candidates\": [{\"preset\": \"%s\", \"nodes\": 2}]}", model, recompute, parallelism, preset);
	assert_int_equal(scenario_of_text(text, s, &err), 0);
}

/* The same without recompute. */
static void load_plan(const char *model, const char *preset, const char *parallelism, struct scenario *s)
{
	load_plan_recompute(model, preset, "none", parallelism, s);
}

/* Mixtral 8x7B at tp 1, ep 8, dp 16. On H200: the experts' optimizer states
 * shard over the expert-data-parallel group only (2 ranks here, 1 in
 * load_folded's unfolded plan), which an 80 GB GPU does not hold. */
static void load(const char *overlap, struct scenario *s)
{
	char plan[256];
	snprintf(plan, sizeof plan,
		 "\"tp\": 1, \"ep\": 8, \"dp\": 16, \"sequence_parallel\": false, \"moe_a2a_overlap\": \"%s\"", overlap);
	load_plan("mixtral-8x7b", "dgx-h200", plan, s);
}

/* A layer's exposed all-to-all: none = dispatch + combine; dualpipe = each
 * pass's behind the other pass's computation; 1f1b = the paired share
 * (m = 16 on pp 1: 15/16) in Megatron-Core's merged layers, the rest
 * exposed. */
static void test_layer_exposed_all_to_all(void **state)
{
	(void)state;
	struct scenario s[3];
	struct train_result r[3];
	struct layer_time lt[3];
	const char *modes[3] = { "none", "dualpipe", "1f1b" };
	for (int i = 0; i < 3; i++) {
		struct layer_ctx x;
		struct cs_error err;
		load(modes[i], &s[i]);
		train_evaluate(&s[i].workload.train, &s[i].candidates[0], NULL, &r[i]);
		assert_int_equal(r[i].outcome.status, OUTCOME_OK);
		assert_int_equal(layer_ctx_init(&x, &s[i].workload.train, &s[i].candidates[0], &r[i].plan, &err), 0);
		layer_cost(&x, true, &lt[i]);
	}
	/* permutation: 2 (1 + k) T h bytes of bf16 activations, two kernels */
	{
		struct layer_ctx x;
		struct cs_error err;
		assert_int_equal(layer_ctx_init(&x, &s[0].workload.train, &s[0].candidates[0], &r[0].plan, &err), 0);
		double bytes = 2.0 * 2 * (1 + 2) * 4096 * 4096;
		assert_close(layer_moe_permute_s(&x), roofline_memory_s(&x.k, bytes, 2), 1e-12);
		/* ep 4: two local experts, so the alltoall dispatcher regroups the
		 * T k h received by expert after the dispatch and before the
		 * combine, read and written: 4 T k h more bf16 values, two kernels;
		 * not with a node-deduplicating dispatcher (moe_max_nodes) */
		struct train_plan p4 = r[0].plan;
		p4.ep = 4;
		assert_int_equal(layer_ctx_init(&x, &s[0].workload.train, &s[0].candidates[0], &p4, &err), 0);
		double sort = 2.0 * 4 * 2 * 4096 * 4096;
		assert_close(layer_moe_permute_s(&x), roofline_memory_s(&x.k, bytes + sort, 4), 1e-12);
		p4.moe_max_nodes = 2;
		assert_int_equal(layer_ctx_init(&x, &s[0].workload.train, &s[0].candidates[0], &p4, &err), 0);
		assert_close(layer_moe_permute_s(&x), roofline_memory_s(&x.k, bytes, 2), 1e-12);
	}
	double a2a = lt[0].ep_fwd;
	assert_true(a2a > 0);
	assert_close_abs(lt[0].ep_bwd, a2a, 0);
	double bwd = lt[1].bwd_input + lt[1].bwd_weight + lt[1].recompute;
	assert_close_abs(lt[1].ep_fwd, roofline_overlap_s(s[0].workload.model.training.overlap_slowdown, a2a, bwd), 1e-15);
	assert_close_abs(lt[1].ep_bwd, roofline_overlap_s(s[0].workload.model.training.overlap_slowdown, a2a, lt[1].fwd), 1e-15);
	assert_int_equal(r[2].plan.microbatches, 16);
	double f = 15.0 / 16;
	/* 1f1b's merged layers: inside one node every phase's computation
	 * outlasts its all-to-all, so the paired share is all hidden and costs
	 * the all-to-all overlap slowdown on each pass's dispatch and combine */
	assert_close_abs(lt[2].ep_fwd, (1 - f) * a2a + f * s[0].workload.model.training.ep_overlap_slowdown * a2a, 1e-15);
	assert_close_abs(lt[2].ep_bwd, lt[2].ep_fwd, 1e-15);
	/* the step shows it: less exposed expert traffic, a shorter step */
	assert_true(r[1].br.comm_ep < r[0].br.comm_ep);
	assert_true(r[1].step_time_s < r[0].step_time_s);
	for (int i = 0; i < 3; i++)
		scenario_release(&s[i]);
}

static void load_folded(const char *extra, struct scenario *s)
{
	char plan[256];
	snprintf(plan, sizeof plan, "\"tp\": 2, \"ep\": 8, \"dp\": 8, \"order\": \"tp-cp-dp-pp\"%s", extra);
	load_plan("mixtral-8x7b", "dgx-h200", plan, s);
}

/* The loaded scenario's plan is invalid, for the reason `why`; released. */
static void assert_invalid_plan(struct scenario *b, const char *why)
{
	struct train_result rb;
	train_evaluate(&b->workload.train, &b->candidates[0], NULL, &rb);
	assert_int_equal(rb.outcome.status, OUTCOME_INVALID);
	assert_non_null(strstr(rb.outcome.reason, why));
	scenario_release(b);
}

/*
 * MoE parallel folding (expert_tp 1 under tp 2, ep 8 on two 8-GPU nodes).
 * Not folded, the EP group is the first 8 DP replicas at TP rank 0: GPUs
 * 0, 2, ..., 14, 4 on each node. Folded, it is ranks 0-7 of the
 * tp-cp-dp numbering: one node. Each rank dispatches its own T / tp tokens
 * either way, so a pass's all-to-all is the routed exchange of
 * 2 (T / tp) k h bytes over that group, twice (dispatch and combine). The
 * MLP's half of the TP collectives goes (etp 1, no shared experts); the
 * routed experts' weights split 1 x 8 instead of 2 x 8, the router and
 * norm over tp either way (every expert-parallel rank holds them), and the
 * experts' optimizer states over the expert-data-parallel group. An etp that does not divide tp, or no sequence
 * parallelism, is an invalid plan with its reason; expert_tp = tp is the
 * plan without it.
 */
static void test_parallel_folding(void **state)
{
	(void)state;
	struct scenario s[3];
	struct train_result r[3];
	struct layer_time lt[2];
	const char *extra[3] = { "", ", \"expert_tp\": 1", ", \"expert_tp\": 2" };
	for (int i = 0; i < 3; i++) {
		load_folded(extra[i], &s[i]);
		train_evaluate(&s[i].workload.train, &s[i].candidates[0], NULL, &r[i]);
		assert_int_equal(r[i].outcome.status, OUTCOME_OK);
	}
	assert_false(parallel_moe_folded(&r[0].plan));
	assert_true(parallel_moe_folded(&r[1].plan));
	assert_false(parallel_moe_folded(&r[2].plan));
	assert_close_abs(r[2].step_time_s, r[0].step_time_s, 0);

	const struct model_spec *m = &s[0].workload.model.arch;
	double T = 4096, h = m->hidden, k = m->experts_active, f = m->expert_ffn, E = m->experts;
	double bytes = TRAIN_ACT_BYTES * (T / 2) * k * h;
	struct layer_ctx x[2];
	struct cs_error err;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(layer_ctx_init(&x[i], &s[i].workload.train, &s[i].candidates[0], &r[i].plan, &err), 0);
		layer_cost(&x[i], true, &lt[i]);
	}
	struct collective_group g;
	struct coll_cost strided, node;
	collective_group_make(&g, 2, 4);
	assert_true(collective_all_to_all_routed(&x[0].topo, &g, bytes, layer_moe_net_scale((int)E, (int)k, 2, 0), &strided, NULL));
	collective_group_make(&g, 1, 8);
	assert_true(collective_all_to_all_routed(&x[1].topo, &g, bytes, 1, &node, NULL));
	assert_close(lt[0].ep_fwd, 2 * strided.time_s, 1e-12);
	assert_close(lt[1].ep_fwd, 2 * node.time_s, 1e-12);
	assert_true(lt[1].ep_fwd < lt[0].ep_fwd / 2);  /* NVLink, not the NICs */
	assert_close(lt[1].tp_fwd, lt[0].tp_fwd / 2, 1e-12);

	double routed = E * 3 * h * f, rest = h * E + h;
	assert_close(parallel_moe_layer_params(m, &r[0].plan), routed / 16 + rest / 2, 1e-12);
	assert_close(parallel_moe_layer_params(m, &r[1].plan), routed / 8 + rest / 2, 1e-12);
	/* the routed experts' optimizer states shard over the expert-data-
	 * parallel group, tp x dp / (etp x ep) ranks: 1 unfolded, 2 folded;
	 * everything else over dp (8) */
	assert_true(parallel_expert_dp(&r[0].plan) == 1);
	assert_true(parallel_expert_dp(&r[1].plan) == 2);
	for (int i = 0; i < 2; i++) {
		const struct train_plan *p = &r[i].plan;
		double all = parallel_vstage_params(m, p, 0, 1), ex = parallel_vstage_expert_params(m, p, 0, 1);
		assert_close(ex, m->layers * routed / (p->etp * 8.0), 1e-12);
		assert_close(r[i].mem.optimizer, ((all - ex) / 8 + ex / parallel_expert_dp(p)) * TRAIN_OPTIMIZER_BYTES,
			     1e-12);
	}
	assert_true(r[1].step_time_s < r[0].step_time_s);
	for (int i = 0; i < 3; i++)
		scenario_release(&s[i]);

	const char *bad[2][2] = {
		{ ", \"expert_tp\": 4", "expert_tp 4 must divide tp 2" },
		{ ", \"expert_tp\": 1, \"sequence_parallel\": false", "expert_tp 1 under tp 2 needs sequence_parallel" },
	};
	for (int i = 0; i < 2; i++) {
		struct scenario b;
		load_folded(bad[i][0], &b);
		assert_invalid_plan(&b, bad[i][1]);
	}
}

/* Each loaded scenario's plan evaluated (it must run) and one MoE layer's
 * costs under it. */
static void evaluate_moe_layers(struct scenario *s, struct train_result *r, struct layer_ctx *x, struct layer_time *lt,
				int n)
{
	struct cs_error err;
	for (int i = 0; i < n; i++) {
		train_evaluate(&s[i].workload.train, &s[i].candidates[0], NULL, &r[i]);
		assert_int_equal(r[i].outcome.status, OUTCOME_OK);
		assert_int_equal(layer_ctx_init(&x[i], &s[i].workload.train, &s[i].candidates[0], &r[i].plan, &err), 0);
		layer_cost(&x[i], true, &lt[i]);
	}
}

/*
 * FP8 dispatch (moe_dispatch_precision "fp8", DeepSeek-V3 section 3.3.3):
 * in each pass the transfer towards the experts carries one byte a value
 * plus an fp32 scale per 128, T k h (1 + 4/128) bytes, and the one back
 * stays bf16: a pass's all-to-all is routed(fp8 bytes) + routed(bf16 bytes)
 * instead of twice the bf16 one (folded Mixtral on one node, no overlap).
 */
static void test_fp8_dispatch(void **state)
{
	(void)state;
	struct scenario s[2];
	struct train_result r[2];
	struct layer_time lt[2];
	struct layer_ctx x[2];
	const char *extra[2] = { ", \"expert_tp\": 1", ", \"expert_tp\": 1, \"moe_dispatch_precision\": \"fp8\"" };
	for (int i = 0; i < 2; i++)
		load_folded(extra[i], &s[i]);
	evaluate_moe_layers(s, r, x, lt, 2);
	const struct model_spec *m = &s[0].workload.model.arch;
	double T = 4096 / 2, h = m->hidden, k = m->experts_active;
	struct collective_group g;
	struct coll_cost bf16, fp8;
	collective_group_make(&g, 1, 8);
	assert_true(collective_all_to_all_routed(&x[0].topo, &g, 2 * T * k * h, 1, &bf16, NULL));
	assert_true(collective_all_to_all_routed(&x[0].topo, &g, T * k * h * (1 + 4.0 / 128), 1, &fp8, NULL));
	assert_close(lt[0].ep_fwd, 2 * bf16.time_s, 1e-12);
	assert_close(lt[1].ep_fwd, bf16.time_s + fp8.time_s, 1e-12);
	assert_close(lt[1].ep_bwd, bf16.time_s + fp8.time_s, 1e-12);
	assert_true(fp8.time_s < bf16.time_s);
	for (int i = 0; i < 2; i++)
		scenario_release(&s[i]);
}

/*
 * Selective recompute by module on an MoE layer (folded Mixtral on one
 * node, no overlap). layernorm: two norms read and written once, 2 x 2 T h
 * / tp bytes in two kernels. moe: the layer's MoE forward again in the
 * backward, so the backward replays the forward's dispatch and combine
 * (ep_bwd = 2 ep_fwd without overlap) and its recompute is the MoE share of
 * a full recompute; the norms and the attention are not replayed. A dense
 * model naming moe is an invalid plan with the reason.
 */
static void test_recompute_modules_moe(void **state)
{
	(void)state;
	struct scenario s[4];
	struct train_result r[4];
	struct layer_time lt[4];
	struct layer_ctx x[4];
	const char *recompute[4] = { "selective", "selective", "selective", "full" };
	const char *modules[4] = { "", ", \"recompute_modules\": [\"layernorm\"]", ", \"recompute_modules\": [\"moe\"]", "" };
	for (int i = 0; i < 4; i++) {
		char plan[256];
		snprintf(plan, sizeof plan, "\"tp\": 2, \"ep\": 8, \"dp\": 8, \"order\": \"tp-cp-dp-pp\", \"expert_tp\": 1%s",
			 modules[i]);
		load_plan_recompute("mixtral-8x7b", "dgx-h200", recompute[i], plan, &s[i]);
	}
	evaluate_moe_layers(s, r, x, lt, 4);
	const struct model_spec *m = &s[0].workload.model.arch;
	double T = 4096, h = m->hidden;
	assert_close(lt[0].recompute, 0, 1e-12);  /* core_attn under FlashAttention */
	assert_close(lt[1].recompute, roofline_memory_s(&x[1].k, 2 * T * 4 * h / 2, 2), 1e-12);
	assert_close(lt[2].ep_bwd, 2 * lt[2].ep_fwd, 1e-12);
	assert_close(lt[0].ep_bwd, lt[0].ep_fwd, 1e-12);
	/* the MoE forward again: router (T / tp tokens), the one local expert's
	 * gated up and down GEMMs over its T / tp x k x ep / E tokens, the
	 * SwiGLU over k f_e / tp per token (3 x 2 bytes, one kernel) and the
	 * permutation */
	double fe = m->expert_ffn, k = m->experts_active, E = m->experts;
	double per_expert = T / 2 * k * 8 / E;
	double moe_fwd = roofline_gemm_tiled_s(&x[2].k, T / 2, E, h) +
			 roofline_gemm_tiled_s(&x[2].k, per_expert, 2 * fe, h) +
			 roofline_gemm_tiled_s(&x[2].k, per_expert, h, fe) +
			 roofline_memory_s(&x[2].k, 2 * T * 3 * k * fe / 2, 1) + layer_moe_permute_s(&x[2]);
	assert_close(lt[2].recompute, moe_fwd, 1e-12);
	assert_true(lt[2].recompute > 0.3 * lt[3].recompute && lt[2].recompute < lt[3].recompute);
	assert_true(r[2].mem.activations < r[1].mem.activations);
	assert_true(r[1].mem.activations < r[0].mem.activations);
	for (int i = 0; i < 4; i++)
		scenario_release(&s[i]);

	struct scenario b;
	load_plan_recompute("llama3-8b", "dgx-h200", "selective", "\"tp\": 1, \"recompute_modules\": [\"moe\"]", &b);
	assert_invalid_plan(&b, "recompute module moe needs a mixture-of-experts model");
}

/*
 * Expert load imbalance (moe_load_imbalance 1.5, Mixtral 8x7B, tp 1, ep 8:
 * one expert per rank, no overlap). The busiest rank's expert GEMMs see
 * 1.5 x the mean tokens, T k ep / E x 1.5 per expert; its all-to-all
 * moves 1.5 x the bytes both ways; and it keeps 1.5 x the routed experts'
 * inner tensors and permuted copies: (1.5 - 1) s b (6 k f_e + 2 k h) more
 * bytes per layer, 32 layers held once each on pp 1.
 */
static void test_load_imbalance(void **state)
{
	(void)state;
	struct scenario s[2];
	struct train_result r[2];
	struct layer_time lt[2];
	struct layer_ctx x[2];
	for (int i = 0; i < 2; i++) {
		load("none", &s[i]);
		s[i].workload.train.plan.moe_load_imbalance = i == 0 ? 1 : 1.5;
	}
	evaluate_moe_layers(s, r, x, lt, 2);
	const struct model_spec *m = &s[0].workload.model.arch;
	double T = 4096, h = m->hidden, k = m->experts_active, fe = m->expert_ffn;
	double pe = T * k * 8 / m->experts;  /* tokens per expert from the 8 ranks, one expert per rank */
	const struct roofline *kk = &x[0].k;
	double g1 = roofline_gemm_tiled_s(kk, pe, 2 * fe, h) + roofline_gemm_tiled_s(kk, pe, h, fe);
	double g15 = roofline_gemm_tiled_s(kk, 1.5 * pe, 2 * fe, h) + roofline_gemm_tiled_s(kk, 1.5 * pe, h, fe);
	assert_close(lt[1].fwd - lt[0].fwd, g15 - g1, 1e-9);
	struct collective_group g;
	struct coll_cost c1, c15;
	collective_group_make(&g, 1, 8);
	assert_true(collective_all_to_all_routed(&x[0].topo, &g, 2 * T * k * h, 1, &c1, NULL));
	assert_true(collective_all_to_all_routed(&x[0].topo, &g, 1.5 * 2 * T * k * h, 1, &c15, NULL));
	assert_close(lt[0].ep_fwd, 2 * c1.time_s, 1e-12);
	assert_close(lt[1].ep_fwd, 2 * c15.time_s, 1e-12);
	assert_close(r[1].mem.activations - r[0].mem.activations, 0.5 * T * (6 * k * fe + 2 * k * h) * m->layers, 1e-9);
	assert_true(r[1].step_time_s > r[0].step_time_s);
	/* without expert parallelism a GPU holds every expert and does the same
	 * work however the tokens are spread: the layer is unchanged */
	struct train_plan one[2] = { r[0].plan, r[1].plan };
	struct layer_time lt1[2];
	for (int i = 0; i < 2; i++) {
		one[i].ep = 1;
		struct cs_error err;
		assert_int_equal(layer_ctx_init(&x[i], &s[i].workload.train, &s[i].candidates[0], &one[i], &err), 0);
		layer_cost(&x[i], true, &lt1[i]);
	}
	assert_close_abs(lt1[1].fwd, lt1[0].fwd, 0);
	assert_close_abs(lt1[1].bwd_input, lt1[0].bwd_input, 0);
	for (int i = 0; i < 2; i++)
		scenario_release(&s[i]);

	/* on a dense model the routing fields would change nothing: refused */
	const char *dense[2][2] = {
		{ "\"tp\": 8, \"dp\": 2, \"moe_load_imbalance\": 1.3", "moe_load_imbalance 1.3 needs a mixture-of-experts model" },
		{ "\"tp\": 8, \"dp\": 2, \"moe_dispatch_precision\": \"fp8\"", "moe_dispatch_precision fp8 needs a mixture-of-experts model" },
	};
	for (int i = 0; i < 2; i++) {
		struct scenario b;
		load_plan("llama3-8b", "dgx-h100", dense[i][0], &b);
		assert_invalid_plan(&b, dense[i][1]);
	}
}

/*
 * What an MoE layer keeps per micro-batch against Megatron-MoE-ModelZoo's
 * estimator (misc/tools/deepseek_mem_estimate.py @e8650517, its "cached"
 * list) for DeepSeek-V3 at seq 4096, tp 1, bf16, no recompute: per token
 * the layer input, the two norms' outputs and the attention's residual
 * output (2h each, the MLP norm's as the shared expert's input); MLA's
 * latents before and after their norms (2 q_lora + 2 kv_lora, twice); Q
 * and K with rotary (2 a d_qk each), V and the attention output (2 a d_v
 * each) and the softmax statistics (4 a); the router's probabilities (2E)
 * and the permutation's row map (8E); the shared expert's fc1 output and
 * activation (6 f_e); the permuted copies (2 k h); the routed experts' fc1
 * output and activation (6 k f_e). The experts' outputs after the combine
 * ("unpermute_alltoall_out") are left out: Megatron-Core applies the
 * probabilities inside the experts' activation (memory.c). clustersim keeps
 * the rotary key (2 r) and not the softmax statistics: within 0.1%. In FP8
 * the permuted copies are FP8 (k h bytes less), and folded experts at tp 2
 * (etp 1) keep T/2 of them where etp 2 keeps T.
 */
static void test_moe_dispatch_memory(void **state)
{
	(void)state;
	struct scenario s;
	struct train_plan p;
	char why[PARALLEL_WHY_MAX];
	load_plan("deepseek-v3", "dgx-h100", "\"tp\": 1, \"ep\": 8, \"dp\": 16, \"sequence_parallel\": false", &s);
	assert_true(parallel_fill(&s.workload.train, &s.candidates[0], &s.workload.train.plan, &p, why, sizeof why));
	const struct model_spec *m = &s.workload.model.arch;
	double T = 4096, h = m->hidden, a = m->heads, E = m->experts, k = m->experts_active, fe = m->expert_ffn;
	double dqk = transformer_qk_head_dim(m), dv = transformer_v_head_dim(m), ns = m->shared_experts;
	double est = 2 * h * 4 + 2 * (m->q_lora_rank + m->kv_lora_rank) * 2 + 2 * a * dqk * 2 + 2 * a * dv * 2 + 4 * a +
		     2 * E + 8 * E + 6 * ns * fe + 2 * k * h + 6 * k * fe;
	double bf16 = memory_layer_activation_bytes(&s.workload.train, &p) / T;
	print_message("DeepSeek-V3 MoE layer: %.0f bytes a token, the estimator's list %.0f\n", bf16, est);
	assert_close(bf16, est, 1e-3);
	s.workload.model.precision = PREC_FP8;
	double fp8 = memory_layer_activation_bytes(&s.workload.train, &p) / T;
	assert_close(bf16 - fp8, k * h, 1e-9);
	scenario_release(&s);

	double per_etp[2];
	for (int i = 0; i < 2; i++) {
		char par[160];
		snprintf(par, sizeof par, "\"tp\": 2, \"ep\": 8, \"dp\": 8, \"expert_tp\": %d, \"sequence_parallel\": true",
			 i + 1);
		load_plan("deepseek-v3", "dgx-h100", par, &s);
		assert_true(parallel_fill(&s.workload.train, &s.candidates[0], &s.workload.train.plan, &p, why, sizeof why));
		per_etp[i] = memory_layer_activation_bytes(&s.workload.train, &p);
		scenario_release(&s);
	}
	assert_close(per_etp[1] - per_etp[0], T / 2 * k * h * 2, 1e-9);
}

/*
 * DeepSeek-V3's FP8 activation caching (arXiv:2412.19437, 3.3.3;
 * parallelism.fp8_activation_cache): the attention output projection's
 * input in FP8 (a d_v bytes a token less) and the MoE SwiGLU's inputs in
 * FP8 with the output recomputed (6 -> 2 bytes per inner element of the
 * routed and shared experts). The recompute is one more memory-bound
 * kernel in the backward; the plan is invalid unless the run is fp8.
 */
static void test_fp8_activation_cache(void **state)
{
	(void)state;
	struct scenario s[2];
	struct train_result r[2];
	struct layer_time lt[2];
	struct layer_ctx x[2];
	const char *par[2] = {
		"\"tp\": 1, \"ep\": 8, \"dp\": 16, \"sequence_parallel\": false",
		"\"tp\": 1, \"ep\": 8, \"dp\": 16, \"sequence_parallel\": false, \"fp8_activation_cache\": true",
	};
	for (int i = 0; i < 2; i++) {
		load_plan("mixtral-8x7b", "dgx-h200", par[i], &s[i]);
		s[i].workload.model.precision = PREC_FP8;
	}
	evaluate_moe_layers(s, r, x, lt, 2);
	const struct model_spec *m = &s[0].workload.model.arch;
	double T = 4096, saved = m->heads * transformer_v_head_dim(m) + 4.0 * m->experts_active * m->expert_ffn;
	double a0 = memory_layer_activation_bytes(&s[0].workload.train, &r[0].plan);
	double a1 = memory_layer_activation_bytes(&s[1].workload.train, &r[1].plan);
	assert_close(a0 - a1, T * saved, 1e-12);
	double act = roofline_memory_s(&x[1].k, 2.0 * T * 3 * m->experts_active * m->expert_ffn, 1);
	assert_close(lt[1].recompute - lt[0].recompute, act, 1e-9);
	for (int i = 0; i < 2; i++)
		scenario_release(&s[i]);
	struct scenario b;
	load_plan("mixtral-8x7b", "dgx-h200", par[1], &b);
	assert_invalid_plan(&b, "fp8_activation_cache needs precision fp8");
}

/* Megatron-Core's 1F1B overlap in its three phases (closed form): all-to-alls
 * of 2 ms each; attention 1 ms forward and 2.5 backward, experts 1.5 and 3.
 * The backward's combine gradient outlasts the attention forward by 1 ms;
 * in the middle the experts' backward and then the backward's dispatch
 * take 3 + 2 = 5 ms against 4.5 of computation, 0.5 exposed and shared;
 * the attention backward hides the forward's combine. Each side's hidden
 * part costs the all-to-all overlap slowdown. With computation to spare nothing is
 * exposed, and without all-to-alls nothing costs. */
static void test_pair_exposed_closed_form(void **state)
{
	(void)state;
	double f, b, sl = 0.5;
	layer_moe_pair_exposed(2e-3, 2e-3, 2e-3, 2e-3, 1e-3, 1.5e-3, 2.5e-3, 3e-3, sl, &f, &b);
	assert_close_abs(f, 0.25e-3 + sl * 3.75e-3, 1e-15);
	assert_close_abs(b, 1.25e-3 + sl * 2.75e-3, 1e-15);
	layer_moe_pair_exposed(1e-3, 1e-3, 1e-3, 1e-3, 2e-3, 2e-3, 4e-3, 4e-3, sl, &f, &b);
	assert_close_abs(f, sl * 2e-3, 1e-15);
	assert_close_abs(b, sl * 2e-3, 1e-15);
	layer_moe_pair_exposed(0, 0, 0, 0, 1e-3, 1e-3, 2e-3, 2e-3, sl, &f, &b);
	assert_close_abs(f, 0, 0);
	assert_close_abs(b, 0, 0);
}

/* Weight gradients add into the main_grad buffer (fp32 by default) with
 * ZeRO-1, and are written (16-bit) with ZeRO-2: Qwen3-235B at tp 4, ep 8,
 * expert TP 1 on two nodes routes 1,024 tokens a rank, 512 an expert; only
 * the experts' gradients (16 of them, grouped, 4096 x 3072 and 1536 x 4096
 * over 512 tokens) and the router's (4096 x 128 over the rank's 1,024) are
 * memory-bound, so the layers' weight-gradient time differs by their
 * accumulate-over-written difference exactly. */
static void test_wgrad_accumulates(void **state)
{
	(void)state;
	struct scenario s[2];
	struct train_plan p[2];
	struct layer_time lt[2];
	struct layer_ctx x[2];
	char why[PARALLEL_WHY_MAX];
	const char *par[2] = { "\"tp\": 4, \"ep\": 8, \"dp\": 4, \"expert_tp\": 1, \"sequence_parallel\": true",
			       "\"tp\": 4, \"ep\": 8, \"dp\": 4, \"expert_tp\": 1, \"sequence_parallel\": true" };
	for (int i = 0; i < 2; i++) {
		struct cs_error err;
		load_plan("qwen3-235b-a22b", "dgx-h100", par[i], &s[i]);
		s[i].workload.train.plan.zero = i == 0 ? 1 : 2;
		assert_true(parallel_fill(&s[i].workload.train, &s[i].candidates[0], &s[i].workload.train.plan, &p[i], why,
					  sizeof why));
		assert_int_equal(layer_ctx_init(&x[i], &s[i].workload.train, &s[i].candidates[0], &p[i], &err), 0);
		layer_cost(&x[i], true, &lt[i]);
	}
	assert_int_equal(p[0].zero, 1);
	assert_int_equal(p[1].zero, 2);
	assert_close_abs(p[0].grad_bytes, 4, 0);
	double h = 4096, T = 512, diff = 0;
	double shape[2][2] = { { h, 2 * 1536 }, { 1536, h } };  /* gate and up fused, down */
	for (int g = 0; g < 2; g++)
		diff += roofline_gemm_grouped_s(&x[0].k, 16, shape[g][0], shape[g][1], T, 4) -
			roofline_gemm_grouped_s(&x[0].k, 16, shape[g][0], shape[g][1], T, 0);
	diff += roofline_gemm_accumulate_s(&x[0].k, h, 128, 1024, 4) - roofline_gemm_tiled_s(&x[0].k, h, 128, 1024);
	print_message("Qwen3-235B tp 4 ep 8: experts' fp32 accumulation adds %.3f ms a layer's backward\n", diff * 1e3);
	assert_true(diff > 0);
	assert_close(lt[0].bwd_weight - lt[1].bwd_weight, diff, 1e-9);
	assert_close(lt[0].fwd, lt[1].fwd, 1e-12);
	scenario_release(&s[0]);
	scenario_release(&s[1]);
}

/* The optimizer step updates this rank's shard: the dense parameters'
 * over dp x cp, the routed experts' over the expert-data-parallel group
 * (memory.c): Mixtral 8x7B at tp 1, ep 8, dp 16 (one stage) holds one
 * expert a layer and shards it over 16 / 8 = 2 ranks; Adam moves 30 bytes
 * a parameter (fp32 moments) in 4 kernels. */
static void test_optimizer_expert_shard(void **state)
{
	(void)state;
	struct scenario s;
	struct train_result r;
	struct layer_ctx x;
	struct cs_error err;
	load("none", &s);
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r);
	assert_int_equal(r.outcome.status, OUTCOME_OK);
	assert_int_equal(layer_ctx_init(&x, &s.workload.train, &s.candidates[0], &r.plan, &err), 0);
	const struct model_spec *m = &s.workload.model.arch;
	double all = parallel_vstage_params(m, &r.plan, 0, 1), expert = parallel_vstage_expert_params(m, &r.plan, 0, 1);
	assert_close_abs(parallel_expert_dp(&r.plan), 2, 0);
	assert_true(expert > 0.5 * all);
	double local = (all - expert) / 16 + expert / 2;
	assert_close(r.br.optimizer, roofline_memory_s(&x.k, 30 * local, 4), 1e-12);
	scenario_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_net_scale_closed_form),
		cmocka_unit_test(test_paired_share_closed_form),
		cmocka_unit_test(test_routed_all_to_all_split),
		cmocka_unit_test(test_deepep_dispatch_bandwidth),
		cmocka_unit_test(test_layer_exposed_all_to_all),
		cmocka_unit_test(test_parallel_folding),
		cmocka_unit_test(test_fp8_dispatch),
		cmocka_unit_test(test_load_imbalance),
		cmocka_unit_test(test_recompute_modules_moe),
		cmocka_unit_test(test_moe_dispatch_memory),
		cmocka_unit_test(test_fp8_activation_cache),
		cmocka_unit_test(test_pair_exposed_closed_form),
		cmocka_unit_test(test_wgrad_accumulates),
		cmocka_unit_test(test_optimizer_expert_shard),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
