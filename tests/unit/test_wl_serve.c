/* The inference workload's reader (wl_serve) and the request trace reader
 * (serve_trace): every key of `serving` arrives in struct serving_spec,
 * defaults are the documented ones, and every bad value is refused with its
 * path and value. */
#include "testutil.h"

#include <string.h>

#include "models/scenario/limits.h"
#include "models/scenario/serve_trace.h"
#include "models/scenario/wl.h"
#include "models/serve/serve_sim.h"
#include "models/train/train.h"

#include "catalog_fixture.h"

/* A scenario around a `serving` object written by the test. */
static int serving_of(const char *serving, struct scenario *s, struct cs_error *err)
{
	char text[4096];
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"inference\", \"model\": \"llama3.1-8b\", \"serving\": %s},"
		 " \"candidates\": [{\"preset\": \"dgx-h100\"}]}", serving);
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	assert_non_null(root);
	error_clear(err);
	int rc = scenario_from_json(root, "test.json", cat, s, err);
	json_decref(root);
	return rc;
}

/* The serving object must be refused with a message containing `want`. */
static void assert_refused(const char *serving, const char *want)
{
	struct scenario s;
	struct cs_error err;
	assert_int_equal(serving_of(serving, &s, &err), -1);
	if (strstr(err.msg, want) == NULL) {
		print_error("message \"%s\" lacks \"%s\"\n", err.msg, want);
		fail();
	}
	assert_int_equal(err.kind, ERROR_INPUT);
}

/* Left out, every field has its documented default. */
static void test_defaults(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	assert_int_equal(serving_of("{\"arrival\": {\"rate_per_s\": 4}, \"prompt_tokens\": 1000,"
				    " \"output_tokens\": 200}", &s, &err), 0);
	const struct serving_spec *sv = &s.workload.serving;
	assert_int_equal(sv->process, ARRIVAL_POISSON);
	assert_close(sv->rate_per_s, 4, 0);
	assert_close(sv->cv, 1, 0);
	assert_int_equal(sv->concurrency, 0);
	assert_null(sv->trace_requests);
	assert_int_equal(sv->prompt_tokens.dist, LEN_FIXED);
	assert_close(sv->prompt_tokens.mean, 1000, 0);
	assert_close(sv->output_tokens.mean, 200, 0);
	assert_close(sv->duration_s, 600, 0);
	assert_int_equal(sv->requests, 0);
	assert_close(sv->prefix_hit_fraction, 0, 0);
	assert_int_equal(sv->max_batch_tokens, 8192);
	assert_int_equal(sv->max_seqs, 256);
	assert_true(sv->chunked_prefill);
	assert_int_equal(sv->block_tokens, 16);  /* vLLM's --block-size */
	assert_int_equal(sv->max_output_tokens, 0);  /* each request's own answer */
	assert_int_equal(sv->capacity_policy, SERVE_CAPACITY_GUARANTEED_NO_EVICT);
	assert_close(sv->gpu_memory_fraction, 0.9, 0);
	assert_false(sv->has_weight_precision);
	assert_false(sv->has_kv_precision);
	assert_true(sv->step_overhead_s < 0);
	assert_int_equal(sv->router, ROUTER_ROUND_ROBIN);
	assert_int_equal(sv->engine, SERVE_ENGINE_VLLM_V1);  /* vLLM's current engine */
	assert_close(sv->slo_ttft_p99_ms, 0, 0);
	assert_close(sv->slo_tpot_p99_ms, 0, 0);
	assert_int_equal(sv->replicas, 1);
	assert_int_equal(sv->tp, 1);
	assert_int_equal(sv->pp, 1);
	assert_int_equal(sv->ep, 1);
	assert_int_equal(sv->prefill_replicas, 0);
	assert_int_equal(sv->decode_replicas, 0);
	assert_int_equal(sv->prefill_tp, 0);
	assert_int_equal(sv->decode_tp, 0);
	scenario_release(&s);
}

/* Every key given arrives in its field. */
static void test_every_key(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	assert_int_equal(serving_of(
		"{\"arrival\": {\"process\": \"gamma\", \"rate_per_s\": 12.5, \"cv\": 2.5},"
		" \"prompt_tokens\": {\"dist\": \"lognormal\", \"mean\": 900, \"sd\": 300, \"min\": 10, \"max\": 4000},"
		" \"output_tokens\": {\"dist\": \"normal\", \"mean\": 150, \"sd\": 20},"
		" \"requests\": 300, \"prefix_cache_hit\": 0.25,"
		" \"scheduler\": {\"max_batch_tokens\": 2048, \"max_seqs\": 64, \"chunked_prefill\": false,"
		"                 \"block_tokens\": 32},"
		" \"gpu_memory_fraction\": 0.85, \"weight_precision\": \"fp4\", \"kv_precision\": \"fp8\","
		" \"step_overhead_s\": 0.002, \"router\": \"least-outstanding\", \"engine\": \"sglang\","
		" \"slo\": {\"ttft_p99_ms\": 500, \"tpot_p99_ms\": 40},"
		" \"replicas\": 3, \"tp\": 2, \"pp\": 1, \"ep\": 1}", &s, &err), 0);
	const struct serving_spec *sv = &s.workload.serving;
	assert_int_equal(sv->process, ARRIVAL_GAMMA);
	assert_close(sv->rate_per_s, 12.5, 0);
	assert_close(sv->cv, 2.5, 0);
	assert_int_equal(sv->prompt_tokens.dist, LEN_LOGNORMAL);
	assert_close(sv->prompt_tokens.mean, 900, 0);
	assert_close(sv->prompt_tokens.sd, 300, 0);
	assert_close(sv->prompt_tokens.min, 10, 0);
	assert_close(sv->prompt_tokens.max, 4000, 0);
	assert_int_equal(sv->output_tokens.dist, LEN_NORMAL);
	assert_close(sv->output_tokens.sd, 20, 0);
	assert_close(sv->output_tokens.min, 1, 0);
	assert_close(sv->output_tokens.max, 4194304, 0);
	assert_int_equal(sv->requests, 300);
	assert_close(sv->prefix_hit_fraction, 0.25, 0);
	assert_int_equal(sv->max_batch_tokens, 2048);
	assert_int_equal(sv->max_seqs, 64);
	assert_false(sv->chunked_prefill);
	assert_int_equal(sv->block_tokens, 32);
	assert_close(sv->gpu_memory_fraction, 0.85, 0);
	assert_true(sv->has_weight_precision);
	assert_int_equal(sv->weight_precision, PREC_FP4);
	assert_true(sv->has_kv_precision);
	assert_int_equal(sv->kv_precision, PREC_FP8);
	assert_close(sv->step_overhead_s, 0.002, 0);
	assert_int_equal(sv->router, ROUTER_LEAST_OUTSTANDING);
	assert_int_equal(sv->engine, SERVE_ENGINE_SGLANG);
	assert_close(sv->slo_ttft_p99_ms, 500, 0);
	assert_close(sv->slo_tpot_p99_ms, 40, 0);
	assert_int_equal(sv->replicas, 3);
	assert_int_equal(sv->tp, 2);
	scenario_release(&s);

	assert_int_equal(serving_of(
		"{\"arrival\": {\"process\": \"closed-loop\", \"concurrency\": 8}, \"prompt_tokens\": 100,"
		" \"output_tokens\": {\"dist\": \"uniform\", \"min\": 10, \"max\": 30}, \"duration_s\": 120,"
		" \"router\": \"shortest-queue\", \"tp\": 4, \"ep\": 2, \"kv_precision\": \"fp16\","
		" \"weight_precision\": \"bf16\","
		" \"disaggregated\": {\"prefill_replicas\": 2, \"decode_replicas\": 3, \"prefill_tp\": 2, \"decode_tp\": 8}}",
		&s, &err), 0);
	sv = &s.workload.serving;
	assert_int_equal(sv->process, ARRIVAL_CLOSED_LOOP);
	assert_int_equal(sv->concurrency, 8);
	assert_close(sv->duration_s, 120, 0);
	assert_int_equal(sv->output_tokens.dist, LEN_UNIFORM);
	assert_close(sv->output_tokens.mean, 20, 0);  /* the midpoint */
	assert_int_equal(sv->router, ROUTER_SHORTEST_QUEUE);
	assert_int_equal(sv->tp, 4);
	assert_int_equal(sv->ep, 2);
	assert_int_equal(sv->kv_precision, PREC_FP16);
	assert_int_equal(sv->weight_precision, PREC_BF16);
	assert_int_equal(sv->prefill_replicas, 2);
	assert_int_equal(sv->decode_replicas, 3);
	assert_int_equal(sv->prefill_tp, 2);
	assert_int_equal(sv->decode_tp, 8);
	scenario_release(&s);

	assert_int_equal(serving_of("{\"arrival\": {\"process\": \"offline\"}, \"requests\": 1000,"
				    " \"prompt_tokens\": 1000, \"output_tokens\": 1000,"
				    " \"replicas\": \"auto\", \"slo\": {\"tpot_p99_ms\": 50}}", &s, &err), 0);
	assert_int_equal(s.workload.serving.process, ARRIVAL_OFFLINE);
	assert_int_equal(s.workload.serving.requests, 1000);
	assert_int_equal(s.workload.serving.replicas, PLAN_AUTO);
	scenario_release(&s);
}

/* The KV block is the engine's unless stated (vLLM 16, TensorRT-LLM 32,
 * SGLang 1); max_output_tokens and trtllm's capacity_policy arrive; a
 * capacity policy on another engine is refused with its value. */
static void test_engine_kv_keys(void **state)
{
	(void)state;
	const struct { const char *engine; int block; } want[] = {
		{ "vllm-v0", 16 }, { "vllm-v1", 16 }, { "trtllm", 32 }, { "sglang", 1 },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct scenario s;
		struct cs_error err;
		char serving[256];
		snprintf(serving, sizeof serving, "{\"arrival\": {\"rate_per_s\": 4}, \"prompt_tokens\": 100,"
			 " \"output_tokens\": 20, \"engine\": \"%s\"}", want[i].engine);
		assert_int_equal(serving_of(serving, &s, &err), 0);
		assert_int_equal(s.workload.serving.block_tokens, want[i].block);
		scenario_release(&s);
		snprintf(serving, sizeof serving, "{\"arrival\": {\"rate_per_s\": 4}, \"prompt_tokens\": 100,"
			 " \"output_tokens\": 20, \"engine\": \"%s\", \"scheduler\": {\"block_tokens\": 64}}",
			 want[i].engine);
		assert_int_equal(serving_of(serving, &s, &err), 0);
		assert_int_equal(s.workload.serving.block_tokens, 64);
		scenario_release(&s);
	}
	struct scenario s;
	struct cs_error err;
	assert_int_equal(serving_of("{\"arrival\": {\"rate_per_s\": 4}, \"prompt_tokens\": 100,"
				    " \"output_tokens\": 20, \"max_output_tokens\": 1024, \"engine\": \"trtllm\","
				    " \"scheduler\": {\"capacity_policy\": \"max_utilization\"}}", &s, &err), 0);
	assert_int_equal(s.workload.serving.max_output_tokens, 1024);
	assert_int_equal(s.workload.serving.capacity_policy, SERVE_CAPACITY_MAX_UTILIZATION);
	scenario_release(&s);
	assert_refused("{\"arrival\": {\"rate_per_s\": 4}, \"prompt_tokens\": 100, \"output_tokens\": 20,"
		       " \"scheduler\": {\"capacity_policy\": \"max_utilization\"}}",
		       "workload.serving.scheduler.capacity_policy: \"max_utilization\" with engine \"vllm-v1\": only "
		       "engine \"trtllm\" has a capacity policy");
	assert_refused("{\"arrival\": {\"rate_per_s\": 4}, \"prompt_tokens\": 100, \"output_tokens\": 20,"
		       " \"engine\": \"trtllm\", \"scheduler\": {\"capacity_policy\": \"greedy\"}}",
		       "workload.serving.scheduler.capacity_policy");
	assert_refused("{\"arrival\": {\"rate_per_s\": 4}, \"prompt_tokens\": 100, \"output_tokens\": 20,"
		       " \"max_output_tokens\": 0}", "workload.serving.max_output_tokens");
}

/* A histogram's bins arrive in order; its mean, sd, min and max are the
 * histogram's own: bins 100 (weight 1), 300 (weight 3): mean 250,
 * variance (1 x 150^2 + 3 x 50^2) / 4 = 7500. */
static void test_histogram(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	assert_int_equal(serving_of("{\"arrival\": {\"rate_per_s\": 1}, \"prompt_tokens\": {\"dist\": \"histogram\","
				    " \"bins\": [[100, 1], [300, 3]]}, \"output_tokens\": 50}", &s, &err), 0);
	const struct length_spec *l = &s.workload.serving.prompt_tokens;
	assert_int_equal(l->dist, LEN_HISTOGRAM);
	assert_int_equal(l->n_bins, 2);
	assert_close(l->bin_tokens[0], 100, 0);
	assert_close(l->bin_weight[0], 1, 0);
	assert_close(l->bin_tokens[1], 300, 0);
	assert_close(l->bin_weight[1], 3, 0);
	assert_close(l->mean, 250, 1e-12);
	assert_close(l->sd, sqrt(7500), 1e-12);
	assert_close(l->min, 100, 0);
	assert_close(l->max, 300, 0);
	scenario_release(&s);
}

/* Each bad value is refused with its JSON path and the value or the rule. */
static void test_bad_values(void **state)
{
	(void)state;
	const char *lens = "\"prompt_tokens\": 100, \"output_tokens\": 10";
	char buf[1024];
	static const struct {
		const char *serving_fmt;   /* %s: lens */
		const char *want;
	} cases[] = {
		{ "{\"arrival\": {\"process\": \"poisson\"}, %s}",
		  "workload.serving.arrival.rate_per_s: missing required key (process \"poisson\")" },
		{ "{\"arrival\": {\"process\": \"gamma\"}, %s}",
		  "workload.serving.arrival.rate_per_s: missing required key (process \"gamma\")" },
		{ "{\"arrival\": {\"rate_per_s\": 0}, %s}",
		  "workload.serving.arrival.rate_per_s: expected a number from 1e-06 to 1e+07, got 0" },
		{ "{\"arrival\": {\"rate_per_s\": 1, \"cv\": 2}, %s}",
		  "workload.serving.arrival.cv: not used by process \"poisson\"" },
		{ "{\"arrival\": {\"process\": \"closed-loop\"}, %s}",
		  "workload.serving.arrival.concurrency: missing required key (process \"closed-loop\")" },
		{ "{\"arrival\": {\"process\": \"closed-loop\", \"concurrency\": 0}, %s}",
		  "workload.serving.arrival.concurrency: expected an integer from 1 to 1000000, got 0" },
		{ "{\"arrival\": {\"process\": \"closed-loop\", \"concurrency\": 4, \"rate_per_s\": 1}, %s}",
		  "workload.serving.arrival.rate_per_s: not used by process \"closed-loop\"" },
		{ "{\"arrival\": {\"process\": \"offline\"}, %s}",
		  "workload.serving.requests: missing required key (process \"offline\"" },
		{ "{\"arrival\": {\"process\": \"offline\"}, \"requests\": 10, \"duration_s\": 10, %s}",
		  "workload.serving.duration_s: not used by process \"offline\"" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"requests\": 10, \"duration_s\": 10, %s}",
		  "workload.serving.duration_s: give requests or duration_s, not both" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"requests\": 0, %s}",
		  "workload.serving.requests: expected an integer from 1 to 1000000000, got 0" },
		{ "{\"arrival\": {\"process\": \"trace\"}, %s}",
		  "workload.serving.arrival.trace: missing required key (process \"trace\")" },
		{ "{\"arrival\": {\"process\": \"burst\"}, %s}",
		  "workload.serving.arrival.process: expected one of" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"prefix_cache_hit\": 1.5, %s}",
		  "workload.serving.prefix_cache_hit: expected a number from 0 to 1, got 1.5" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"gpu_memory_fraction\": 0, %s}",
		  "workload.serving.gpu_memory_fraction: expected a number from 0.01 to 1, got 0" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"weight_precision\": \"fp16\", %s}",
		  "workload.serving.weight_precision: expected one of \"bf16\", \"fp8\", \"fp4\"" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"kv_precision\": \"fp4\", %s}",
		  "workload.serving.kv_precision: expected one of \"bf16\", \"fp16\", \"fp8\"" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"step_overhead_s\": -1, %s}",
		  "workload.serving.step_overhead_s: expected a number from 0 to 10, got -1" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"router\": \"random\", %s}",
		  "workload.serving.router: expected one of" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"engine\": \"vllm\", %s}",
		  "workload.serving.engine: expected one of \"vllm-v0\", \"vllm-v1\", \"trtllm\", \"sglang\"" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"ep\": 0, %s}",
		  "workload.serving.ep: expected an integer from 1 to 1024, got 0" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"scheduler\": {\"block_tokens\": 0}, %s}",
		  "workload.serving.scheduler.block_tokens: expected an integer from 1 to 1024, got 0" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"replicas\": \"auto\", %s}",
		  "workload.serving.replicas: \"auto\" needs an slo to meet" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"replicas\": 2, \"disaggregated\": {\"prefill_replicas\": 1,"
		  " \"decode_replicas\": 1}, %s}",
		  "workload.serving.replicas: not used with disaggregated" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"disaggregated\": {\"prefill_replicas\": 1, \"decode_replicas\": 1,"
		  " \"decode_tp\": 0}, %s}",
		  "workload.serving.disaggregated.decode_tp: expected an integer from 1 to 1024, got 0" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"disaggregated\": {\"prefill_replicas\": 1}, %s}",
		  "workload.serving.disaggregated.decode_replicas: missing required key" },
		{ "{\"arrival\": {\"rate_per_s\": 1}, \"batch\": 3, %s}",
		  "workload.serving: unknown key \"batch\"" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(buf, sizeof buf, cases[i].serving_fmt, lens);
		assert_refused(buf, cases[i].want);
	}
}

/* Bad lengths: each distribution takes only its own keys, needs its own,
 * and a histogram's bins are pairs of whole tokens and positive weights. */
static void test_bad_lengths(void **state)
{
	(void)state;
	char buf[1024];
	static const struct {
		const char *prompt;
		const char *want;
	} cases[] = {
		{ "0", "workload.serving.prompt_tokens: expected an integer from 1 to 4194304, got 0" },
		{ "100.5", "workload.serving.prompt_tokens: expected an integer from 1 to 4194304, got 100.5" },
		{ "{\"dist\": \"lognormal\", \"mean\": 100}",
		  "workload.serving.prompt_tokens.sd: missing required key (dist \"lognormal\")" },
		{ "{\"dist\": \"fixed\", \"mean\": 100, \"sd\": 3}",
		  "workload.serving.prompt_tokens.sd: not used by dist \"fixed\"" },
		{ "{\"dist\": \"uniform\", \"min\": 10}",
		  "workload.serving.prompt_tokens.max: missing required key (dist \"uniform\")" },
		{ "{\"dist\": \"uniform\", \"min\": 10, \"max\": 30, \"mean\": 25}",
		  "workload.serving.prompt_tokens: mean 25 is not the midpoint 20 of min-max 10-30" },
		{ "{\"dist\": \"normal\", \"mean\": 5000, \"sd\": 10, \"max\": 4000}",
		  "workload.serving.prompt_tokens: mean 5000 is outside min-max 1-4000" },
		{ "{\"dist\": \"normal\", \"mean\": 50, \"sd\": 10, \"min\": 60, \"max\": 40}",
		  "workload.serving.prompt_tokens: min 60 exceeds max 40" },
		{ "{\"dist\": \"histogram\"}",
		  "workload.serving.prompt_tokens.bins: missing required key (dist \"histogram\")" },
		{ "{\"dist\": \"histogram\", \"bins\": [[100, 1]], \"mean\": 100}",
		  "workload.serving.prompt_tokens.mean: not used by dist \"histogram\"" },
		{ "{\"bins\": [[100, 1]]}",
		  "workload.serving.prompt_tokens.bins: not used by dist \"lognormal\"" },
		{ "{\"dist\": \"histogram\", \"bins\": []}",
		  "workload.serving.prompt_tokens.bins: expected an array of 1 to 64 [tokens, weight] pairs, got an array" },
		{ "{\"dist\": \"histogram\", \"bins\": [[100, 1], [200]]}",
		  "workload.serving.prompt_tokens.bins[1]: expected a [tokens, weight] pair, got an array" },
		{ "{\"dist\": \"histogram\", \"bins\": [[100, 1], [0, 1]]}",
		  "workload.serving.prompt_tokens.bins[1][0]: expected an integer from 1 to 4194304, got 0" },
		{ "{\"dist\": \"histogram\", \"bins\": [[100, 1], [200, 0]]}",
		  "workload.serving.prompt_tokens.bins[1][1]: a bin's weight must be positive, got 0" },
		{ "{\"dist\": \"histogram\", \"bins\": [[100, 1], [200, -2]]}",
		  "workload.serving.prompt_tokens.bins[1][1]: expected a number from 0 to 1e+15, got -2" },
		{ "{\"dist\": \"histogram\", \"bins\": [[100, 1], [100, 2]]}",
		  "workload.serving.prompt_tokens.bins[1]: 100 tokens is also the length of bins[0]" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(buf, sizeof buf, "{\"arrival\": {\"rate_per_s\": 1}, \"prompt_tokens\": %s, \"output_tokens\": 10}",
			 cases[i].prompt);
		assert_refused(buf, cases[i].want);
	}
	/* 65 bins: one more than SERVE_HIST_MAX */
	size_t n = (size_t)snprintf(buf, sizeof buf, "{\"arrival\": {\"rate_per_s\": 1}, \"output_tokens\": 10,"
				    " \"prompt_tokens\": {\"dist\": \"histogram\", \"bins\": [");
	for (int i = 0; i <= SERVE_HIST_MAX; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s[%d, 1]", i ? "," : "", i + 1);
	snprintf(buf + n, sizeof buf - n, "]}}");
	assert_refused(buf, "workload.serving.prompt_tokens.bins: expected an array of 1 to 64");
}

/* seq_len means nothing to a serving workload and is refused. */
static void test_seq_len_refused(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *text =
		"{\"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\", \"seq_len\": 4096,"
		" \"serving\": {\"arrival\": {\"rate_per_s\": 1}, \"prompt_tokens\": 100, \"output_tokens\": 10}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	json_t *root = json_loads(text, 0, NULL);
	assert_int_equal(scenario_from_json(root, "test.json", cat, &s, &err), -1);
	json_decref(root);
	assert_non_null(strstr(err.msg, "workload.seq_len: not used by inference workloads"));
}

/* Without kv_precision, a workload precision no KV cache is stored in is refused. */
static void test_kv_follows_precision(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *fmt =
		"{\"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\", \"precision\": \"%s\","
		" \"serving\": {\"arrival\": {\"rate_per_s\": 1}, \"prompt_tokens\": 100, \"output_tokens\": 10%s}},"
		" \"candidates\": [{\"preset\": \"dgx-b200\"}]}";
	char text[1024];
	snprintf(text, sizeof text, fmt, "fp4", "");
	json_t *root = json_loads(text, 0, NULL);
	assert_int_equal(scenario_from_json(root, "test.json", cat, &s, &err), -1);
	json_decref(root);
	assert_non_null(strstr(err.msg, "workload.serving.kv_precision: missing: the KV cache would follow "
					"workload.precision \"fp4\""));
	snprintf(text, sizeof text, fmt, "fp4", ", \"kv_precision\": \"fp8\"");
	root = json_loads(text, 0, NULL);
	assert_int_equal(scenario_from_json(root, "test.json", cat, &s, &err), 0);
	json_decref(root);
	assert_int_equal(s.workload.serving.kv_precision, PREC_FP8);
	scenario_release(&s);
	snprintf(text, sizeof text, fmt, "fp8", "");
	root = json_loads(text, 0, NULL);
	assert_int_equal(scenario_from_json(root, "test.json", cat, &s, &err), 0);
	json_decref(root);
	assert_false(s.workload.serving.has_kv_precision);
	scenario_release(&s);
}

/* An objective and Monte Carlo trials mean nothing to a serving load: refused. */
static void test_objective_and_trials_refused(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	static const struct {
		const char *block, *want;
	} cases[] = {
		{ "\"objective\": {\"deadline_h\": 10}", "scenario 'test.json': objective: not used by inference workloads" },
		{ "\"monte_carlo\": {\"trials\": 10}", "scenario 'test.json': monte_carlo: not used by inference workloads" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[1024];
		snprintf(text, sizeof text,
			 "{\"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\","
			 " \"serving\": {\"arrival\": {\"rate_per_s\": 1}, \"prompt_tokens\": 100, \"output_tokens\": 10}},"
			 " \"candidates\": [{\"preset\": \"dgx-h100\"}], %s}", cases[i].block);
		json_t *root = json_loads(text, 0, NULL);
		assert_non_null(root);
		assert_int_equal(scenario_from_json(root, "test.json", cat, &s, &err), -1);
		json_decref(root);
		assert_non_null(strstr(err.msg, cases[i].want));
	}
}

/* Write `text` to a file of the test directory; its path in path. */
static void write_file(const char *name, const char *text, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", test_dir(), name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A trace's rows arrive in order, columns in any order, a byte order mark,
 * CRLF line ends, blank lines and a missing final newline allowed. */
static void test_trace_read(void **state)
{
	(void)state;
	char path[256], msg[512];
	write_file("ok.csv", "\xEF\xBB\xBFprompt_tokens,arrival_s,output_tokens\r\n"
			     "100,0,10\r\n\n"
			     "2000,0.5,1\n"
			     " 7 , 0.5 , 3 \n"
			     "\"64\",12.25,4096", path, sizeof path);
	struct serve_trace *t = serve_trace_load(path, msg, sizeof msg);
	assert_non_null(t);
	assert_int_equal(t->n, 4);
	assert_close(t->requests[0].arrival_s, 0, 0);
	assert_int_equal(t->requests[0].prompt_tokens, 100);
	assert_int_equal(t->requests[0].output_tokens, 10);
	assert_close(t->requests[1].arrival_s, 0.5, 0);
	assert_int_equal(t->requests[1].prompt_tokens, 2000);
	assert_int_equal(t->requests[2].prompt_tokens, 7);
	assert_int_equal(t->requests[2].output_tokens, 3);
	assert_close(t->requests[3].arrival_s, 12.25, 0);
	assert_int_equal(t->requests[3].prompt_tokens, 64);
	assert_int_equal(t->requests[3].output_tokens, 4096);
	serve_trace_free(t);
}

/* Each defect names the file and the line (blank lines counted). */
static void test_trace_bad(void **state)
{
	(void)state;
	char path[256], msg[512], want[512];
	static const struct {
		const char *text;
		const char *want;   /* after "trace 'PATH': " */
	} cases[] = {
		{ "", "no header line (an empty file)" },
		{ "arrival_s,prompt_tokens,output_tokens\n", "no requests after the header" },
		{ "arrival_s,prompt,output_tokens\n0,1,1\n", "line 1: unknown column \"prompt\"" },
		{ "arrival_s,prompt_tokens\n0,1\n", "line 1: no column \"output_tokens\"" },
		{ "arrival_s,prompt_tokens,output_tokens,arrival_s\n", "line 1: column \"arrival_s\" is given twice" },
		{ "arrival_s,prompt_tokens,output_tokens\n0,1,1\n\n0,1\n", "line 4: 2 fields, the header has 3" },
		{ "arrival_s,prompt_tokens,output_tokens\n0,0,1\n",
		  "line 2: prompt_tokens: expected an integer from 1 to 4194304, got \"0\"" },
		{ "arrival_s,prompt_tokens,output_tokens\n0,1,2.5\n",
		  "line 2: output_tokens: expected an integer from 1 to 4194304, got \"2.5\"" },
		{ "arrival_s,prompt_tokens,output_tokens\nsoon,1,1\n", "line 2: arrival_s: expected a number, got \"soon\"" },
		{ "arrival_s,prompt_tokens,output_tokens\nnan,1,1\n", "line 2: arrival_s: expected a number, got \"nan\"" },
		{ "arrival_s,prompt_tokens,output_tokens\n-1,1,1\n", "line 2: arrival_s: expected a number from 0 to 1e+09, got -1" },
		{ "arrival_s,prompt_tokens,output_tokens\n2,1,1\n1.5,1,1\n",
		  "line 3: arrival_s: 1.5 is before the previous row's 2 (arrivals never decrease)" },
		{ "arrival_s,prompt_tokens,output_tokens\n0,\"1,1\n", "line 3: a quoted field is not closed at the end of the file" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		write_file("bad.csv", cases[i].text, path, sizeof path);
		assert_null(serve_trace_load(path, msg, sizeof msg));
		snprintf(want, sizeof want, "trace '%s': %s", path, cases[i].want);
		if (strncmp(msg, want, strlen(want)) != 0) {
			print_error("case %zu: \"%s\" does not start with \"%s\"\n", i, msg, want);
			fail();
		}
	}
	snprintf(path, sizeof path, "%s/absent.csv", test_dir());
	assert_null(serve_trace_load(path, msg, sizeof msg));
	assert_non_null(strstr(msg, "cannot open"));
}

/* A scenario with a trace holds its requests (the file resolved against the
 * scenario's directory); a bad row is named at serving.arrival.trace with
 * the trace's line. */
static void test_trace_in_scenario(void **state)
{
	(void)state;
	char path[256], scen[256], text[1024], want[1024];
	struct scenario s;
	struct cs_error err;
	write_file("reqs.csv", "arrival_s,prompt_tokens,output_tokens\n0,10,5\n1,20,6\n", path, sizeof path);
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\","
		 " \"serving\": {\"arrival\": {\"process\": \"trace\", \"trace\": \"reqs.csv\"},"
		 " \"prompt_tokens\": 100, \"output_tokens\": 10}},"
		 " \"candidates\": [{\"preset\": \"dgx-h100\"}]}");
	write_file("scen.json", text, scen, sizeof scen);
	assert_int_equal(scenario_load(scen, NULL, 0, -1, cat, &s, &err), 0);
	const struct serve_trace *t = s.workload.serving.trace_requests;
	assert_non_null(t);
	assert_int_equal(t->n, 2);
	assert_int_equal(t->requests[1].prompt_tokens, 20);
	assert_string_equal(s.workload.serving.trace, path);
	scenario_release(&s);
	assert_null(s.workload.serving.trace_requests);

	write_file("reqs.csv", "arrival_s,prompt_tokens,output_tokens\n0,10,5\n1,-20,6\n", path, sizeof path);
	assert_int_equal(scenario_load(scen, NULL, 0, -1, cat, &s, &err), -1);
	snprintf(want, sizeof want, "scenario '%s': workload.serving.arrival.trace: trace '%s': line 3: "
		 "prompt_tokens: expected an integer from 1 to 4194304, got \"-20\"", scen, path);
	assert_string_equal(err.msg, want);
	assert_int_equal(err.kind, ERROR_INPUT);
}

/*
 * The requests a load asks for are bounded when it is read: `requests`
 * from 1 to 1,000,000,000 (20,000,000 while every request kept its record:
 * 1e8 needed 11 GB), rate_per_s x duration_s at most as many (1e7
 * requests/s for the default 600 s), and the memory of as many requests in
 * flight at once, at most 20,000,000 (256 bytes each), within what this
 * process may have. At the bound itself, the load is read when the machine
 * has the memory and refused with the memory's figures when not: either is
 * a fact of this machine, checked against its figure.
 */
static void test_work_bounds(void **state)
{
	(void)state;
	const char *lens = "\"prompt_tokens\": 100, \"output_tokens\": 10";
	char buf[1024];
	snprintf(buf, sizeof buf, "{\"arrival\": {\"rate_per_s\": 1}, \"requests\": 10000000000, %s}", lens);
	assert_refused(buf, "workload.serving.requests: expected an integer from 1 to 1000000000, got 10000000000");
	snprintf(buf, sizeof buf, "{\"arrival\": {\"process\": \"offline\"}, \"requests\": 1000000001, %s}", lens);
	assert_refused(buf, "workload.serving.requests: expected an integer from 1 to 1000000000, got 1000000001");
	snprintf(buf, sizeof buf, "{\"arrival\": {\"rate_per_s\": 1e7}, %s}", lens);
	assert_refused(buf, "workload.serving.arrival.rate_per_s: 1e+07 requests/s for duration_s 600 s is 6e+09 "
		       "requests, more than the 1000000000 one simulation serves; lower rate_per_s or duration_s");
	snprintf(buf, sizeof buf, "{\"arrival\": {\"process\": \"gamma\", \"rate_per_s\": 1000000, \"cv\": 2},"
		 " \"duration_s\": 1001, %s}", lens);
	assert_refused(buf, "workload.serving.arrival.rate_per_s: 1e+06 requests/s for duration_s 1001 s is "
		       "1.001e+09 requests, more than the 1000000000");

	/* at the bound: 2e7 requests, 5.12 GB */
	struct limits_memory mem;
	struct scenario s;
	struct cs_error err;
	limits_memory_available(&mem);
	snprintf(buf, sizeof buf, "{\"arrival\": {\"rate_per_s\": 20000}, \"duration_s\": 1000, %s}", lens);
	if (mem.bytes == 0 || 2e7 * SERVE_SIM_BYTES_PER_REQUEST <= (double)mem.bytes) {
		assert_int_equal(serving_of(buf, &s, &err), 0);
		assert_close(s.workload.serving.rate_per_s * s.workload.serving.duration_s, SERVE_SIM_IN_FLIGHT_MAX, 0);
		scenario_release(&s);
	} else {
		assert_refused(buf, "workload.serving.arrival: 2e+07 requests would need about 5.12 GB (256 bytes each)");
	}
	/* a week at 100 requests/s: 6.048e7 requests, of which at most 2e7 in flight count */
	snprintf(buf, sizeof buf, "{\"arrival\": {\"rate_per_s\": 100}, \"duration_s\": 604800, %s}", lens);
	if (mem.bytes == 0 || 2e7 * SERVE_SIM_BYTES_PER_REQUEST <= (double)mem.bytes) {
		assert_int_equal(serving_of(buf, &s, &err), 0);
		scenario_release(&s);
	} else {
		assert_refused(buf, "workload.serving.arrival: 2e+07 requests would need about 5.12 GB (256 bytes each)");
	}
}

static int group_setup(void **state)
{
	return setup(state) || test_dir_make("test_wl_serve");
}

static int group_teardown(void **state)
{
	return teardown(state) || test_dir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_engine_kv_keys),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_bad_lengths),
		cmocka_unit_test(test_seq_len_refused),
		cmocka_unit_test(test_objective_and_trials_refused),
		cmocka_unit_test(test_kv_follows_precision),
		cmocka_unit_test(test_trace_read),
		cmocka_unit_test(test_trace_bad),
		cmocka_unit_test(test_trace_in_scenario),
		cmocka_unit_test(test_work_bounds),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
