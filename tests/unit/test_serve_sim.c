/* The request-level serving simulation against closed forms: one request
 * on an idle replica, Little's law, KV-cache preemption, saturation at
 * max_seqs per step, token conservation, seeds, the KV transfer of
 * disaggregated serving on the topology's links, and closed loops. */
#include "testutil.h"

#include <string.h>

#include "models/hw/topology.h"
#include "models/serve/serve_cost.h"
#include "models/serve/serve_load.h"
#include "models/serve/serve_sim.h"
#include "models/train/train.h"
#include "sim/sketch.h"

#include "catalog_fixture.h"

/* step_s = a + b x prefill tokens + c x decode seqs + d x decode context tokens. */
struct lin {
	double a, b, c, d;
};

static double lin_step(const void *ctx, const struct serve_batch *bt, struct serve_step_use *use)
{
	const struct lin *l = ctx;
	if (use != NULL) {
		use->flops = 1e9 * (double)bt->prefill_tokens;
		use->hbm_bytes = 1e6 * bt->decode_seqs;
	}
	return l->a + l->b * (double)bt->prefill_tokens + l->c * bt->decode_seqs + l->d * bt->decode_ctx_tokens;
}

static struct serve_step_model model_of(const struct lin *l, double kv_tokens)
{
	return (struct serve_step_model){ .step_s = lin_step, .ctx = l, .kv_capacity_tokens = kv_tokens,
					  .kv_bytes_per_token = 0, .peak_flops_per_s = 1e15,
					  .peak_hbm_bytes_per_s = 1e12 };
}

static struct length_spec fixed(double n)
{
	return (struct length_spec){ .dist = LEN_FIXED, .mean = n, .min = 1, .max = 1 << 20 };
}

static struct serving_spec spec(void)
{
	struct serving_spec sv;
	memset(&sv, 0, sizeof sv);
	sv.process = ARRIVAL_POISSON;
	sv.rate_per_s = 1;
	sv.duration_s = 100;
	sv.prompt_tokens = fixed(100);
	sv.output_tokens = fixed(10);
	sv.max_batch_tokens = 8192;
	sv.max_seqs = 256;
	sv.chunked_prefill = true;
	sv.block_tokens = 16;
	sv.router = ROUTER_ROUND_ROBIN;
	return sv;
}

static struct serve_sim_config colocated(const struct serving_spec *sv, const struct lin *l, double kv, int replicas)
{
	struct serve_sim_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.sv = sv;
	cfg.colocated = (struct serve_pool){ .replicas = replicas, .model = model_of(l, kv), .first_gpu = 0,
					     .gpus_per_replica = 1 };
	cfg.seed = 42;
	cfg.row_id = 0;
	return cfg;
}

static void run_ok(const struct serve_sim_config *cfg, struct serve_metrics *m)
{
	char reason[512] = "";
	int rc = serve_sim_run(cfg, m, reason, sizeof reason);
	if (rc != 0)
		print_error("serve_sim_run: %s\n", reason);
	assert_int_equal(rc, 0);
}

/* Percentiles from the sketch within its stated relative error of the
 * exact ones, the mean the same to rounding. */
static void assert_pct_within(const struct serve_pct *sk, const struct serve_pct *ex, const char *what)
{
	const double v[3][2] = { { sk->p50, ex->p50 }, { sk->p90, ex->p90 }, { sk->p99, ex->p99 } };
	for (int i = 0; i < 3; i++)
		if (!(fabs(v[i][0] - v[i][1]) <= SKETCH_ALPHA * fabs(v[i][1]) * (1 + 1e-9))) {
			print_error("%s: percentile %d: sketch %.10g, exact %.10g\n", what, i, v[i][0], v[i][1]);
			fail();
		}
	assert_close(sk->mean, ex->mean, 1e-9);
}

/* The same run with its latencies kept exactly and with a threshold of
 * 200 values (so sketched past it): the simulation is the same (counts,
 * span, levels to the bit) and every percentile of TTFT, TPOT, ITL,
 * end-to-end and KV transfer is within SKETCH_ALPHA of the exact one. */
static void assert_sketched_run(struct serve_sim_config *cfg)
{
	struct serve_metrics ex, sk;
	cfg->exact_max = 0;
	run_ok(cfg, &ex);
	cfg->exact_max = 200;
	run_ok(cfg, &sk);
	assert_true(ex.requests_done > 1000);
	assert_int_equal(sk.requests_done, ex.requests_done);
	assert_int_equal(sk.requests_sent, ex.requests_sent);
	assert_int_equal(sk.output_tokens_emitted, ex.output_tokens_emitted);
	assert_int_equal(sk.preemptions, ex.preemptions);
	assert_int_equal(sk.events, ex.events);
	assert_true(sk.span_s == ex.span_s && sk.mean_in_system == ex.mean_in_system && sk.kv_util == ex.kv_util);
	assert_true(sk.slo_attainment == ex.slo_attainment);
	assert_pct_within(&sk.ttft_ms, &ex.ttft_ms, "ttft");
	assert_pct_within(&sk.tpot_ms, &ex.tpot_ms, "tpot");
	assert_pct_within(&sk.e2e_s, &ex.e2e_s, "e2e");
	assert_pct_within(&sk.itl_ms, &ex.itl_ms, "itl");
	assert_pct_within(&sk.kv_transfer_ms, &ex.kv_transfer_ms, "kv transfer");
}

/* One request on an idle replica: TTFT is the prefill step; e2e adds
 * output - 1 decode steps, the one emitting token g + 1 reading a context
 * of prompt + g tokens; TPOT is their mean. Both scheduler modes. */
static void test_single_request(void **state)
{
	(void)state;
	struct lin l = { 0.005, 2e-5, 1e-4, 1e-6 };
	struct serve_request rq = { 0.5, 1000, 20 };
	struct serve_trace tr = { &rq, 1 };
	double prefill = l.a + l.b * 1000, decodes = 0;
	for (int g = 1; g <= 19; g++)
		decodes += l.a + l.c + l.d * (1000 + g);
	for (int chunked = 0; chunked <= 1; chunked++) {
		struct serving_spec sv = spec();
		sv.process = ARRIVAL_TRACE;
		sv.trace_requests = &tr;
		sv.chunked_prefill = chunked;
		struct serve_sim_config cfg = colocated(&sv, &l, 1e6, 1);
		struct serve_metrics m;
		run_ok(&cfg, &m);
		assert_int_equal(m.requests_done, 1);
		assert_close_abs(m.ttft_ms.p50, prefill * 1e3, 1e-6);
		assert_close_abs(m.e2e_s.p99, prefill + decodes, 20 * 1e-9);
		assert_close_abs(m.span_s, prefill + decodes, 20 * 1e-9);
		assert_close_abs(m.tpot_ms.mean, decodes / 19 * 1e3, 1e-6);
		assert_close_abs(m.itl_ms.mean, decodes / 19 * 1e3, 1e-6);
		assert_close_abs(m.itl_ms.p50, (l.a + l.c + l.d * 1010) * 1e3, 1e-6);  /* the median gap */
		assert_int_equal(m.output_tokens_emitted, 20);
		assert_close(m.busy_frac, 1, 1e-9);
		/* 1000 prompt tokens x 1e9 FLOPs over span x 1e15 FLOP/s. */
		assert_close(m.flops_frac, 1000 * 1e9 / (m.span_s * 1e15), 1e-9);
	}
}

/* A prompt of 2,000 tokens with a budget of 512: chunked prefill takes
 * ceil(2000/512) = 4 steps, the first token at the end of the fourth. */
static void test_chunked_prefill_steps(void **state)
{
	(void)state;
	struct lin l = { 0.01, 1e-5, 0, 0 };
	struct serve_request rq = { 0, 2000, 2 };
	struct serve_trace tr = { &rq, 1 };
	struct serving_spec sv = spec();
	sv.process = ARRIVAL_TRACE;
	sv.trace_requests = &tr;
	sv.max_batch_tokens = 512;
	struct serve_sim_config cfg = colocated(&sv, &l, 1e6, 1);
	struct serve_metrics m;
	run_ok(&cfg, &m);
	assert_close_abs(m.ttft_ms.p50, (4 * l.a + l.b * 2000) * 1e3, 1e-5);
	/* Without chunked prefill the prompt does not fit the budget: refused. */
	sv.chunked_prefill = false;
	char reason[512] = "";
	assert_int_equal(serve_sim_run(&cfg, &m, reason, sizeof reason), SERVE_SIM_UNSCHEDULABLE);
	assert_non_null(strstr(reason, "max_batch_tokens"));
}

/* Little's law: time-mean requests in system = completion rate x mean
 * latency, within 2%, on a long Poisson run with drawn lengths. */
static void test_littles_law(void **state)
{
	(void)state;
	struct lin l = { 0.004, 1e-6, 2e-5, 1e-8 };
	struct serving_spec sv = spec();
	sv.rate_per_s = 8;
	sv.duration_s = 2000;
	sv.prompt_tokens = (struct length_spec){ .dist = LEN_LOGNORMAL, .mean = 500, .sd = 300, .min = 1, .max = 4000 };
	sv.output_tokens = (struct length_spec){ .dist = LEN_UNIFORM, .mean = 100, .min = 20, .max = 180 };
	struct serve_sim_config cfg = colocated(&sv, &l, 1e6, 2);
	cfg.sv = &sv;
	for (int router = 0; router < 3; router++) {
		sv.router = (enum serve_router)router;
		struct serve_metrics m;
		run_ok(&cfg, &m);
		assert_true(m.requests_done > 14000);
		assert_close(m.mean_in_system, m.request_per_s * m.e2e_s.mean, 0.02);
		/* The offered rate is what completes (the run drains). */
		assert_close(m.request_per_s, 8, 0.05);
	}
}

/* A KV cache too small for the batch preempts (and recomputes), which
 * lengthens the tail; a large one never preempts. Tokens are conserved
 * either way: every output token is emitted exactly once. */
static void test_kv_preemption(void **state)
{
	(void)state;
	struct lin l = { 0.01, 1e-5, 1e-4, 0 };
	struct serving_spec sv = spec();
	sv.rate_per_s = 6;
	sv.duration_s = 300;
	sv.prompt_tokens = fixed(200);
	sv.output_tokens = (struct length_spec){ .dist = LEN_UNIFORM, .mean = 300, .min = 100, .max = 500 };
	struct serve_sim_config big = colocated(&sv, &l, 1e6, 1), small = colocated(&sv, &l, 6000, 1);
	struct serve_metrics mb, ms;
	run_ok(&big, &mb);
	run_ok(&small, &ms);
	assert_int_equal(mb.preemptions, 0);
	assert_true(ms.preemptions > 0);
	assert_true(ms.e2e_s.p99 > 1.2 * mb.e2e_s.p99);
	assert_true(ms.kv_util_peak <= 1.0 && ms.kv_util_peak > 0.95);
	assert_true(ms.kv_util > mb.kv_util && ms.kv_util <= 1.0);
	assert_int_equal(mb.requests_done, ms.requests_done);
	assert_close(mb.output_tokens_emitted, mb.output_tok_s * mb.span_s, 1e-9);
	assert_close(ms.output_tokens_emitted, ms.output_tok_s * ms.span_s, 1e-9);
	assert_int_equal(mb.output_tokens_emitted, ms.output_tokens_emitted);  /* same lengths drawn */
}

/* With a constant step time, each step emits at most max_seqs tokens:
 * output throughput rises with the rate and saturates at max_seqs / step;
 * offline, requests in waves of max_seqs reach that bound exactly. */
static void test_saturation(void **state)
{
	(void)state;
	struct lin l = { 0.02, 0, 0, 0 };
	double bound = 16 / l.a;  /* 800 output tokens/s */
	struct serving_spec sv = spec();
	sv.max_seqs = 16;
	sv.prompt_tokens = fixed(100);
	sv.output_tokens = fixed(50);
	sv.duration_s = 600;
	struct serve_sim_config cfg = colocated(&sv, &l, 1e7, 1);
	double rates[] = { 0.5, 2, 4 };  /* x the request bound 800/50 = 16/s */
	double prev = 0;
	for (int i = 0; i < 3; i++) {
		struct serve_metrics m;
		sv.rate_per_s = rates[i] * bound / 50;
		run_ok(&cfg, &m);
		assert_true(m.output_tok_s <= bound * (1 + 1e-9));
		assert_true(m.output_tok_s >= prev);
		if (rates[i] < 1)
			assert_close(m.output_tok_s, sv.rate_per_s * 50, 0.05);
		else
			assert_close(m.output_tok_s, bound, 0.02);
		prev = m.output_tok_s;
	}
	sv.process = ARRIVAL_OFFLINE;
	sv.requests = 160;
	struct serve_metrics m;
	run_ok(&cfg, &m);
	assert_close(m.output_tok_s, bound, 1e-6);
	assert_close(m.span_s, 10 * 50 * l.a, 1e-6);  /* 10 waves of 50 steps */
}

/* The same seed gives the same metrics to the byte; another seed others. */
static void test_seeds(void **state)
{
	(void)state;
	struct lin l = { 0.004, 1e-6, 2e-5, 1e-8 };
	struct serving_spec sv = spec();
	sv.process = ARRIVAL_GAMMA;
	sv.cv = 2;
	sv.rate_per_s = 5;
	sv.duration_s = 200;
	sv.prompt_tokens = (struct length_spec){ .dist = LEN_NORMAL, .mean = 500, .sd = 100, .min = 1, .max = 2000 };
	struct serve_sim_config cfg = colocated(&sv, &l, 1e5, 2);
	struct serve_metrics a, b, c;
	run_ok(&cfg, &a);
	run_ok(&cfg, &b);
	assert_memory_equal(&a, &b, sizeof a);
	cfg.seed = 43;
	run_ok(&cfg, &c);
	assert_memory_not_equal(&a, &c, sizeof a);
}

/* Closed loop with one client: requests back to back, each taking the
 * single-request time; the stop is the request count. */
static void test_closed_loop(void **state)
{
	(void)state;
	struct lin l = { 0.005, 2e-5, 1e-4, 1e-6 };
	struct serving_spec sv = spec();
	sv.process = ARRIVAL_CLOSED_LOOP;
	sv.concurrency = 1;
	sv.requests = 7;
	sv.prompt_tokens = fixed(300);
	sv.output_tokens = fixed(30);
	double one = l.a + l.b * 300;
	for (int g = 1; g <= 29; g++)
		one += l.a + l.c + l.d * (300 + g);
	struct serve_sim_config cfg = colocated(&sv, &l, 1e6, 1);
	struct serve_metrics m;
	run_ok(&cfg, &m);
	assert_int_equal(m.requests_done, 7);
	assert_close_abs(m.span_s, 7 * one, 7 * 31 * 1e-9);
	assert_close_abs(m.e2e_s.p99, one, 31 * 1e-9);
	assert_close_abs(m.mean_in_system, 1, 1e-9);
}

/* A request whose KV cache alone exceeds the replica's is refused. */
static void test_never_fits(void **state)
{
	(void)state;
	struct lin l = { 0.01, 0, 0, 0 };
	struct serving_spec sv = spec();
	sv.prompt_tokens = fixed(4000);
	sv.output_tokens = fixed(200);
	struct serve_sim_config cfg = colocated(&sv, &l, 4096, 1);
	struct serve_metrics m;
	char reason[512] = "";
	assert_int_equal(serve_sim_run(&cfg, &m, reason, sizeof reason), SERVE_SIM_KV);
	assert_non_null(strstr(reason, "4199 tokens of KV cache"));
}

/* Disaggregated, one request: the KV cache (prompt x kv_bytes_per_token)
 * moves as 8 flows, GPU i of node 0 to GPU i of node 1, each on its own
 * rail: time = rail latency + bytes / 8 / (rail rate x efficiency). TTFT =
 * prefill step + that time; halving the NIC rate adds the bandwidth term
 * once more. */
static void test_disaggregated_transfer(void **state)
{
	(void)state;
	struct cluster_spec c;
	cluster_of("{\"name\": \"x\", \"gpu\": \"H100-SXM\", \"nodes\": 2, \"gpus_per_node\": 8, \"scale_up\": \"nvlink4\","
		   " \"nic\": \"ib-ndr\", \"nics_per_node\": 8, \"topology\": {\"kind\": \"rail\", \"nodes_per_leaf\": 32}}",
		   &c);
	struct lin l = { 0.005, 2e-5, 1e-4, 1e-6 };
	struct serve_request rq = { 0, 1000, 20 };
	struct serve_trace tr = { &rq, 1 };
	struct serving_spec sv = spec();
	sv.process = ARRIVAL_TRACE;
	sv.trace_requests = &tr;
	double kv_per_token = 327680;  /* Llama 3 70B, bf16: 2 x 80 layers x 8 KV heads x 128 x 2 bytes */
	double prefill = l.a + l.b * 1000, decodes = 0;
	for (int g = 1; g <= 19; g++)
		decodes += l.a + l.c + l.d * (1000 + g);
	double ttft_ms[2], bw_term_s[2];
	for (int half = 0; half <= 1; half++) {
		struct cluster_spec cc = c;
		if (half)
			cc.nic.bw_bytes_per_s /= 2;
		struct topology t;
		topology_init(&t, &cc);
		assert_int_equal(t.rails, 8);
		assert_int_equal(topology_group(&t, 0), topology_group(&t, 1));
		struct serve_sim_config cfg;
		memset(&cfg, 0, sizeof cfg);
		cfg.sv = &sv;
		cfg.disaggregated = true;
		cfg.topo = &t;
		cfg.prefill = (struct serve_pool){ 1, model_of(&l, 1e6), 0, 8 };
		cfg.decode = (struct serve_pool){ 1, model_of(&l, 1e6), 8, 8 };
		cfg.prefill.model.kv_bytes_per_token = kv_per_token;
		cfg.decode.model.kv_bytes_per_token = kv_per_token;
		struct serve_metrics m;
		run_ok(&cfg, &m);
		bw_term_s[half] = 1000 * kv_per_token / 8 / (t.rail.bw_bytes_per_s * t.rail.efficiency);
		double xfer_s = t.rail.latency_s + bw_term_s[half];
		assert_close_abs(m.kv_transfer_ms.p50, xfer_s * 1e3, 2e-6);
		assert_close_abs(m.ttft_ms.p50, (prefill + xfer_s) * 1e3, 4e-6);
		assert_close_abs(m.e2e_s.p50, prefill + xfer_s + decodes, 30e-9);
		assert_int_equal(m.output_tokens_emitted, 20);
		ttft_ms[half] = m.ttft_ms.p50;
	}
	assert_close(bw_term_s[1], 2 * bw_term_s[0], 1e-12);
	assert_close_abs(ttft_ms[1] - ttft_ms[0], bw_term_s[0] * 1e3, 4e-6);
}

/* Lengths: clamped whole tokens; a lognormal's sample mean is its mean;
 * a histogram gives only its bins, in their weights. */
static void test_lengths(void **state)
{
	(void)state;
	struct serving_spec sv = spec();
	sv.prompt_tokens = (struct length_spec){ .dist = LEN_LOGNORMAL, .mean = 1000, .sd = 400, .min = 1, .max = 1e6 };
	sv.output_tokens = (struct length_spec){ .dist = LEN_HISTOGRAM, .min = 1, .max = 1e6, .n_bins = 2,
						 .bin_tokens = { 10, 1000 }, .bin_weight = { 3, 1 } };
	struct serve_load ld;
	char reason[256];
	assert_int_equal(serve_load_init(&ld, &sv, 1, 2, reason, sizeof reason), 0);
	double sum = 0;
	long n10 = 0, n = 200000;
	for (long i = 0; i < n; i++) {
		int p, o;
		serve_load_lengths(&ld, &p, &o);
		sum += p;
		assert_true(o == 10 || o == 1000);
		n10 += o == 10;
	}
	serve_load_release(&ld);
	assert_close(sum / n, 1000, 0.01);            /* sd/sqrt(n) = 0.9 tokens */
	assert_close((double)n10 / n, 0.75, 0.01);
	struct length_spec s = { .dist = LEN_NORMAL, .mean = 100, .min = 50, .max = 150 };
	assert_int_equal(serve_load_clamp(&s, 10.2), 50);
	assert_int_equal(serve_load_clamp(&s, 149.6), 150);
	assert_int_equal(serve_load_clamp(&s, 99.5), 100);
}

/* Two requests, B arriving while A decodes. Without chunked prefill B's
 * prompt gets a step of its own (A waits a step: vLLM v0's default);
 * with it, B's prompt rides in A's decode step. Each timeline by hand. */
static void test_prefill_mixing(void **state)
{
	(void)state;
	struct lin l = { 0.005, 2e-5, 1e-4, 1e-6 };
	double t1 = l.a + l.b * 100, t2 = t1 + l.a + l.c + l.d * 101;
	double arr_b = t1 + 0.5 * (t2 - t1);
	struct serve_request rq[2] = { { 0, 100, 4 }, { arr_b, 200, 3 } };
	struct serve_trace tr = { rq, 2 };
	/* without chunking: B's prefill alone, then two steps decoding both */
	double n3 = t2 + l.a + l.b * 200;
	double n4 = n3 + l.a + 2 * l.c + l.d * (102 + 201);
	double n5 = n4 + l.a + 2 * l.c + l.d * (103 + 202);
	/* chunked: B's prefill with A's third token, then both, then B alone */
	double c3 = t2 + l.a + l.b * 200 + l.c + l.d * 102;
	double c4 = c3 + l.a + 2 * l.c + l.d * (103 + 201);
	double c5 = c4 + l.a + l.c + l.d * 202;
	double span[2] = { n5, c5 }, e2e_mean[2] = { (n5 + n5 - arr_b) / 2, (c4 + c5 - arr_b) / 2 };
	for (int chunked = 0; chunked <= 1; chunked++) {
		struct serving_spec sv = spec();
		sv.process = ARRIVAL_TRACE;
		sv.trace_requests = &tr;
		sv.chunked_prefill = chunked;
		struct serve_sim_config cfg = colocated(&sv, &l, 1e6, 1);
		struct serve_metrics m;
		run_ok(&cfg, &m);
		assert_close_abs(m.span_s, span[chunked], 10e-9);
		assert_close_abs(m.e2e_s.mean, e2e_mean[chunked], 10e-9);
	}
}

/* The engines' step order on test_prefill_mixing's two requests: vLLM v1
 * and TensorRT-LLM mix B's whole prompt with A's decode with or without
 * chunked prefill (one token budget, no prefill-only steps); SGLang runs
 * B's prefill alone either way (a prefill step whenever a prompt can be
 * admitted); vLLM v0 mixes only with chunked prefill. */
static void test_engine_order(void **state)
{
	(void)state;
	struct lin l = { 0.005, 2e-5, 1e-4, 1e-6 };
	double t1 = l.a + l.b * 100, t2 = t1 + l.a + l.c + l.d * 101;
	double arr_b = t1 + 0.5 * (t2 - t1);
	struct serve_request rq[2] = { { 0, 100, 4 }, { arr_b, 200, 3 } };
	struct serve_trace tr = { rq, 2 };
	double n3 = t2 + l.a + l.b * 200;
	double n5 = n3 + 2 * l.a + 4 * l.c + l.d * (102 + 201 + 103 + 202);
	double c3 = t2 + l.a + l.b * 200 + l.c + l.d * 102;
	double c5 = c3 + 2 * l.a + 3 * l.c + l.d * (103 + 201 + 202);
	const struct { enum serve_engine e; double span[2]; } want[] = {
		{ SERVE_ENGINE_VLLM_V0, { n5, c5 } },
		{ SERVE_ENGINE_VLLM_V1, { c5, c5 } },
		{ SERVE_ENGINE_TRTLLM, { c5, c5 } },
		{ SERVE_ENGINE_SGLANG, { n5, n5 } },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		for (int chunked = 0; chunked <= 1; chunked++) {
			struct serving_spec sv = spec();
			sv.process = ARRIVAL_TRACE;
			sv.trace_requests = &tr;
			sv.chunked_prefill = chunked;
			sv.engine = want[i].e;
			struct serve_sim_config cfg = colocated(&sv, &l, 1e6, 1);
			struct serve_metrics m;
			run_ok(&cfg, &m);
			assert_close_abs(m.span_s, want[i].span[chunked], 10e-9);
		}
}

/* KV blocks by engine, on test_kv_preemption's load with a KV cache of
 * 6,000 tokens: TensorRT-LLM reserves a request's prompt and output on
 * admission and so never preempts; vLLM v1 takes blocks as they are
 * computed and preempts like v0; every engine serves every request and
 * emits the same tokens. */
static void test_engine_kv(void **state)
{
	(void)state;
	struct lin l = { 0.01, 1e-5, 1e-4, 0 };
	struct serving_spec sv = spec();
	sv.rate_per_s = 6;
	sv.duration_s = 300;
	sv.prompt_tokens = fixed(200);
	sv.output_tokens = (struct length_spec){ .dist = LEN_UNIFORM, .mean = 300, .min = 100, .max = 500 };
	struct serve_metrics m[4];
	for (int e = SERVE_ENGINE_VLLM_V0; e <= SERVE_ENGINE_SGLANG; e++) {
		sv.engine = (enum serve_engine)e;
		struct serve_sim_config cfg = colocated(&sv, &l, 6000, 1);
		run_ok(&cfg, &m[e]);
		assert_true(m[e].kv_util_peak <= 1.0);
		assert_int_equal(m[e].requests_done, m[SERVE_ENGINE_VLLM_V0].requests_done);
		assert_int_equal(m[e].output_tokens_emitted, m[SERVE_ENGINE_VLLM_V0].output_tokens_emitted);
	}
	assert_int_equal(m[SERVE_ENGINE_TRTLLM].preemptions, 0);
	assert_true(m[SERVE_ENGINE_VLLM_V0].preemptions > 0);
	assert_true(m[SERVE_ENGINE_VLLM_V1].preemptions > 0);
}

/* TensorRT-LLM's GUARANTEED_NO_EVICT holds, from admission, the blocks of
 * a request's prompt and its max_tokens: 64 offline requests of 100 + 50
 * tokens on a cache of 1,700 tokens (106 blocks of 16) run
 * floor(106 / ceil(350 / 16)) = 4 at once with max_tokens 250, using 88 of
 * the 106 blocks at the peak, and floor(106 / ceil(150 / 16)) = 10 (100
 * blocks) when each reserves its own answer; neither preempts.
 * MAX_UTILIZATION takes the prompt's 7 blocks, admits 15 and preempts as
 * the answers grow; every policy emits every token. */
static void test_trtllm_capacity_policy(void **state)
{
	(void)state;
	struct lin l = { 0.01, 1e-5, 1e-4, 0 };
	struct serving_spec sv = spec();
	sv.engine = SERVE_ENGINE_TRTLLM;
	sv.process = ARRIVAL_OFFLINE;
	sv.requests = 64;
	sv.output_tokens = fixed(50);
	const struct { int cap; enum serve_capacity_policy policy; double peak; bool preempts; } want[] = {
		{ 250, SERVE_CAPACITY_GUARANTEED_NO_EVICT, 88.0 / 106, false },
		{ 0, SERVE_CAPACITY_GUARANTEED_NO_EVICT, 100.0 / 106, false },
		{ 250, SERVE_CAPACITY_MAX_UTILIZATION, -1, true },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		sv.max_output_tokens = want[i].cap;
		sv.capacity_policy = want[i].policy;
		struct serve_sim_config cfg = colocated(&sv, &l, 1700, 1);
		struct serve_metrics m;
		run_ok(&cfg, &m);
		assert_int_equal(m.requests_done, 64);
		assert_int_equal(m.output_tokens_emitted, 64 * 50);
		if (want[i].peak > 0)
			assert_close(m.kv_util_peak, want[i].peak, 1e-12);
		assert_int_equal(m.preemptions > 0, want[i].preempts);
	}
	/* a cap whose reservation no replica holds fails, saying why */
	sv.max_output_tokens = 1700;
	sv.capacity_policy = SERVE_CAPACITY_GUARANTEED_NO_EVICT;
	struct serve_sim_config cfg = colocated(&sv, &l, 1700, 1);
	struct serve_metrics m;
	char reason[512] = "";
	assert_int_not_equal(serve_sim_run(&cfg, &m, reason, sizeof reason), 0);
	assert_non_null(strstr(reason, "needs 1800 tokens of KV cache (its prompt and max_tokens"));
}

/* An answer longer than max_output_tokens stops at it, on every engine:
 * 64 requests of 50 output tokens capped at 30 emit 64 x 30 tokens. */
static void test_max_output_tokens_cut(void **state)
{
	(void)state;
	struct lin l = { 0.01, 1e-5, 1e-4, 0 };
	struct serving_spec sv = spec();
	sv.process = ARRIVAL_OFFLINE;
	sv.requests = 64;
	sv.output_tokens = fixed(50);
	sv.max_output_tokens = 30;
	for (int e = SERVE_ENGINE_VLLM_V0; e <= SERVE_ENGINE_SGLANG; e++) {
		sv.engine = (enum serve_engine)e;
		struct serve_sim_config cfg = colocated(&sv, &l, 1e6, 1);
		struct serve_metrics m;
		run_ok(&cfg, &m);
		assert_int_equal(m.output_tokens_emitted, 64 * 30);
	}
}

/* Every router splits an offline batch of 2N identical requests N and N
 * over two replicas, so it takes as long as N on one replica. */
static void test_routers_split(void **state)
{
	(void)state;
	struct lin l = { 0.005, 2e-5, 1e-4, 1e-6 };
	struct serving_spec sv = spec();
	sv.process = ARRIVAL_OFFLINE;
	sv.requests = 24;
	struct serve_sim_config one = colocated(&sv, &l, 1e6, 1);
	struct serve_metrics m1, m2;
	run_ok(&one, &m1);
	struct serving_spec sv2 = sv;
	sv2.requests = 48;
	for (int router = 0; router < 3; router++) {
		sv2.router = (enum serve_router)router;
		struct serve_sim_config two = colocated(&sv2, &l, 1e6, 2);
		run_ok(&two, &m2);
		assert_close_abs(m2.span_s, m1.span_s, 1e-12);
		assert_close(m2.output_tok_s, 2 * m1.output_tok_s, 1e-12);
		assert_close(m2.busy_frac, m1.busy_frac, 1e-12);
	}
}

/* A disaggregated load (2 prefill and 3 decode replicas of 8 GPUs over 5
 * nodes, small decode caches so that decodes preempt and recompute):
 * Little's law holds, every output token is emitted once, and the median
 * KV transfer takes at least what the median prompt's takes on idle links
 * (transfer time grows with the prompt; sharing links only slows it). */
static void test_disaggregated_load(void **state)
{
	(void)state;
	struct cluster_spec c;
	cluster_of("{\"name\": \"x\", \"gpu\": \"H100-SXM\", \"nodes\": 5, \"gpus_per_node\": 8, \"scale_up\": \"nvlink4\","
		   " \"nic\": \"ib-ndr\", \"nics_per_node\": 8, \"topology\": {\"kind\": \"rail\", \"nodes_per_leaf\": 2}}",
		   &c);
	struct topology t;
	topology_init(&t, &c);
	struct lin l = { 0.004, 2e-6, 5e-5, 1e-8 };
	struct serving_spec sv = spec();
	sv.rate_per_s = 20;
	sv.duration_s = 300;
	sv.prompt_tokens = (struct length_spec){ .dist = LEN_LOGNORMAL, .mean = 800, .sd = 400, .min = 1, .max = 4000 };
	sv.output_tokens = (struct length_spec){ .dist = LEN_LOGNORMAL, .mean = 150, .sd = 100, .min = 1, .max = 1000 };
	for (int router = 0; router < 3; router++) {
		sv.router = (enum serve_router)router;
		struct serve_sim_config cfg;
		memset(&cfg, 0, sizeof cfg);
		cfg.sv = &sv;
		cfg.disaggregated = true;
		cfg.topo = &t;
		cfg.prefill = (struct serve_pool){ 2, model_of(&l, 1e5), 0, 8 };
		cfg.decode = (struct serve_pool){ 3, model_of(&l, 6000), 16, 8 };
		cfg.prefill.model.kv_bytes_per_token = 327680;
		cfg.decode.model.kv_bytes_per_token = 327680;
		cfg.seed = 7;
		struct serve_metrics m;
		run_ok(&cfg, &m);
		assert_true(m.requests_done > 5500);
		assert_true(m.preemptions > 0);
		assert_close(m.mean_in_system, m.request_per_s * m.e2e_s.mean, 0.02);
		assert_close(m.output_tokens_emitted, m.output_tok_s * m.span_s, 1e-9);
		/* the lognormal's median exp(mu) = 800 / sqrt(1 + 0.25); 3% for sampling */
		double median_prompt = 800 / sqrt(1.25);
		assert_true(m.kv_transfer_ms.p50 * 1e-3 >=
			    0.97 * (t.rail.latency_s + median_prompt * 327680 / 8 / (t.rail.bw_bytes_per_s * t.rail.efficiency)));
	}
}

static const struct kernel_calibration cal_defaults = { .launch_s = -1, .flash_attention = true };

/* serve_run on Llama 3 8B, two 8-GPU H100 nodes, with the step model of
 * serve_cost. */
static struct serving_spec llama8b_load(void)
{
	struct serving_spec sv = spec();
	sv.rate_per_s = 30;
	sv.duration_s = 60;
	sv.prompt_tokens = fixed(1000);
	sv.output_tokens = fixed(200);
	sv.step_overhead_s = -1;
	serve_constants_of(&sv.constants, catalog_engine(cat, "vllm-v1"));
	sv.tp = 1;
	sv.pp = 1;
	sv.replicas = 1;
	return sv;
}

static void two_h100_nodes(struct cluster_spec *c)
{
	cluster_of("{\"name\": \"x\", \"gpu\": \"H100-SXM\", \"nodes\": 2, \"gpus_per_node\": 8, \"scale_up\": \"nvlink4\","
		   " \"nic\": \"ib-ndr\", \"nics_per_node\": 8}", c);
}

/* Layouts: replicas x GPUs per replica beyond the cluster is invalid with
 * the numbers; one that fits uses that many GPUs, reports serve_cost's KV
 * capacity, and offline its measured rate. */
static void test_serve_run_layout(void **state)
{
	(void)state;
	struct cluster_spec c;
	two_h100_nodes(&c);
	const struct model_spec *m = catalog_model(cat, "llama3-8b");
	assert_non_null(m);
	struct serving_spec sv = llama8b_load();
	struct serve_result *r = calloc(1, sizeof *r);
	sv.tp = 8;
	sv.replicas = 3;
	serve_run(&sv, &(struct workload_model){ .arch = *m, .precision = PREC_BF16, .kernels = cal_defaults }, &c, 1, 0, r);
	assert_int_equal(r->outcome.status, OUTCOME_INVALID);
	assert_non_null(strstr(r->outcome.reason, "3 replicas x 8 GPUs (tp 8 x pp 1 x ep 1) = 24 GPUs exceed the cluster's 16"));
	sv.replicas = 2;
	sv.process = ARRIVAL_OFFLINE;
	sv.requests = 64;
	serve_run(&sv, &(struct workload_model){ .arch = *m, .precision = PREC_BF16, .kernels = cal_defaults }, &c, 1, 0, r);
	assert_int_equal(r->outcome.status, OUTCOME_OK);
	assert_int_equal(r->gpus_used, 16);
	assert_int_equal(r->m.requests_done, 64);
	assert_close(r->rate_per_s, 64 / r->m.span_s, 1e-12);
	assert_true(r->slo_met);  /* no SLO */
	struct serve_cost sc;
	char why[256];
	assert_int_equal(serve_cost_init(&sc, m, &c, &sv, PREC_BF16, &cal_defaults, 8, 1, 1, why, sizeof why), 0);
	assert_close(r->kv_capacity_tokens, sc.kv_capacity_tokens, 1e-12);
	assert_close(r->weights_gb_per_gpu, sc.weight_bytes_per_gpu / 1e9, 1e-12);
	free(r);
}

/* replicas "auto": the answer meets the SLO, one replica fewer does not,
 * and its metrics are those of that many replicas asked for directly. */
static void test_serve_run_auto(void **state)
{
	(void)state;
	struct cluster_spec c;
	two_h100_nodes(&c);
	const struct model_spec *m = catalog_model(cat, "llama3-8b");
	struct serving_spec sv = llama8b_load();
	sv.slo_ttft_p99_ms = 50;
	sv.slo_tpot_p99_ms = 12;
	sv.replicas = PLAN_AUTO;
	struct serve_result *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
	serve_run(&sv, &(struct workload_model){ .arch = *m, .precision = PREC_BF16, .kernels = cal_defaults }, &c, 1, 0, a);
	assert_int_equal(a->outcome.status, OUTCOME_OK);
	assert_true(a->slo_met);
	assert_true(a->replicas > 1 && a->replicas < 16);
	assert_true(a->m.ttft_ms.p99 <= 50 && a->m.tpot_ms.p99 <= 12);
	sv.replicas = a->replicas;
	serve_run(&sv, &(struct workload_model){ .arch = *m, .precision = PREC_BF16, .kernels = cal_defaults }, &c, 1, 0, b);
	assert_memory_equal(&a->m, &b->m, sizeof a->m);
	sv.replicas = a->replicas - 1;
	serve_run(&sv, &(struct workload_model){ .arch = *m, .precision = PREC_BF16, .kernels = cal_defaults }, &c, 1, 0, b);
	assert_int_equal(b->outcome.status, OUTCOME_OK);
	assert_false(b->slo_met);
	/* An SLO no replica count meets: the most replicas, slo_met false, said. */
	sv.slo_ttft_p99_ms = 1;
	sv.replicas = PLAN_AUTO;
	serve_run(&sv, &(struct workload_model){ .arch = *m, .precision = PREC_BF16, .kernels = cal_defaults }, &c, 1, 0, a);
	assert_int_equal(a->outcome.status, OUTCOME_OK);
	assert_false(a->slo_met);
	assert_int_equal(a->replicas, 16);
	assert_non_null(strstr(a->outcome.reason, "no replica count up to 16"));
	free(a);
	free(b);
}

/* A closed loop for a duration sends as many requests as finish in it,
 * unknown before it runs: past the stop (here 1,000 requests, in the
 * program SERVE_SIM_REQUESTS_STOP) the run stops with SERVE_SIM_TOO_LONG
 * and the count, instead of growing until memory runs out; below it the
 * same loop runs to its end. */
static void test_request_stop(void **state)
{
	(void)state;
	struct lin l = { 0.001, 0, 0, 0 };
	struct serving_spec sv = spec();
	sv.process = ARRIVAL_CLOSED_LOOP;
	sv.concurrency = 4;
	sv.duration_s = 10;
	sv.prompt_tokens = fixed(10);
	sv.output_tokens = fixed(2);
	struct serve_sim_config cfg = colocated(&sv, &l, 1e6, 1);
	struct serve_metrics m;
	char reason[512] = "";
	/* 4 clients, 2 steps of 1 ms a request: about 2,000 requests in 10 s */
	cfg.max_requests = 1000;
	assert_int_equal(serve_sim_run(&cfg, &m, reason, sizeof reason), SERVE_SIM_TOO_LONG);
	assert_non_null(strstr(reason, "passed 1000 requests"));
	cfg.max_requests = 1000000;
	run_ok(&cfg, &m);
	assert_true(m.requests_done > 1000 && m.requests_done < 1000000);
	assert_int_equal(m.requests_sent, m.requests_done);
}

/* Colocated (two replicas, preempting) and disaggregated (the KV
 * transfers sketched too): percentiles past the exact threshold within
 * the sketch's stated error. */
static void test_sketched_percentiles(void **state)
{
	(void)state;
	struct lin l = { 0.004, 1e-6, 2e-5, 1e-8 };
	struct serving_spec sv = spec();
	sv.rate_per_s = 8;
	sv.duration_s = 400;
	sv.prompt_tokens = (struct length_spec){ .dist = LEN_LOGNORMAL, .mean = 500, .sd = 300, .min = 1, .max = 4000 };
	sv.output_tokens = (struct length_spec){ .dist = LEN_UNIFORM, .mean = 100, .min = 20, .max = 180 };
	struct serve_sim_config cfg = colocated(&sv, &l, 3e4, 2);
	assert_sketched_run(&cfg);

	struct cluster_spec c;
	cluster_of("{\"name\": \"x\", \"gpu\": \"H100-SXM\", \"nodes\": 5, \"gpus_per_node\": 8, \"scale_up\": \"nvlink4\","
		   " \"nic\": \"ib-ndr\", \"nics_per_node\": 8, \"topology\": {\"kind\": \"rail\", \"nodes_per_leaf\": 2}}",
		   &c);
	struct topology t;
	topology_init(&t, &c);
	struct lin ld = { 0.004, 2e-6, 5e-5, 1e-8 };
	sv.rate_per_s = 20;
	sv.duration_s = 100;
	memset(&cfg, 0, sizeof cfg);
	cfg.sv = &sv;
	cfg.disaggregated = true;
	cfg.topo = &t;
	cfg.prefill = (struct serve_pool){ 2, model_of(&ld, 1e5), 0, 8 };
	cfg.decode = (struct serve_pool){ 3, model_of(&ld, 6000), 16, 8 };
	cfg.prefill.model.kv_bytes_per_token = 327680;
	cfg.decode.model.kv_bytes_per_token = 327680;
	cfg.seed = 7;
	assert_sketched_run(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_request),
		cmocka_unit_test(test_chunked_prefill_steps),
		cmocka_unit_test(test_littles_law),
		cmocka_unit_test(test_kv_preemption),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_closed_loop),
		cmocka_unit_test(test_request_stop),
		cmocka_unit_test(test_never_fits),
		cmocka_unit_test(test_disaggregated_transfer),
		cmocka_unit_test(test_disaggregated_load),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_prefill_mixing),
		cmocka_unit_test(test_engine_order),
		cmocka_unit_test(test_engine_kv),
		cmocka_unit_test(test_trtllm_capacity_policy),
		cmocka_unit_test(test_max_output_tokens_cut),
		cmocka_unit_test(test_routers_split),
		cmocka_unit_test(test_sketched_percentiles),
		cmocka_unit_test(test_serve_run_layout),
		cmocka_unit_test(test_serve_run_auto),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
