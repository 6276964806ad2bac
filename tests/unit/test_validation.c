/* validation_predict: each metric is the model's figure in the unit its
 * name says, and a metric that does not apply is refused with a reason. */
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/comm/nccl_tests.h"
#include "models/serve/serve.h"
#include "models/train/train.h"
#include "models/validate/validation.h"

#include "catalog_fixture.h"

static const char *const collective_text =
	"{\"workload\": {\"kind\": \"collective\", \"collective\": {\"op\": \"all_reduce\", \"bytes\": 8589934592,"
	" \"algorithm\": \"ring\"}}, \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 2}],"
	" \"validation\": {\"id\": \"t\", \"metric\": \"busbw_GBps\", \"published\": 1, \"source\": \"test\"}}";

static const char *const training_text =
	"{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"seq_len\": 4096, \"global_batch_tokens\": 1048576,"
	" \"parallelism\": {\"tp\": 2, \"pp\": 1, \"vpp\": 1, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1,"
	" \"schedule\": \"1f1b\", \"recompute\": \"selective\", \"sequence_parallel\": true}},"
	" \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 2}],"
	" \"validation\": {\"id\": \"t\", \"metric\": \"tokens_per_s\", \"published\": 1, \"source\": \"test\"}}";

/* 64 requests of 512 prompt and 64 output tokens at once on one H100. */
static const char *const serving_text =
	"{\"workload\": {\"kind\": \"inference\", \"model\": \"llama3.1-8b\", \"precision\": \"fp8\","
	" \"serving\": {\"arrival\": {\"process\": \"offline\"}, \"requests\": 64, \"prompt_tokens\": 512,"
	" \"output_tokens\": 64, \"replicas\": 1, \"tp\": 1}},"
	" \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 1}],"
	" \"validation\": {\"id\": \"t\", \"metric\": \"output_tok_s\", \"published\": 1, \"source\": \"test\"}}";

/* The same load in FP4 on a GB200 NVL72 rack, then on a DGX B200. */
static const char *const fp4_serving_text =
	"{\"workload\": {\"kind\": \"inference\", \"model\": \"llama3.1-8b\", \"precision\": \"fp4\","
	" \"serving\": {\"arrival\": {\"process\": \"offline\"}, \"requests\": 64, \"prompt_tokens\": 512,"
	" \"output_tokens\": 64, \"kv_precision\": \"fp8\", \"replicas\": 1, \"tp\": 1, \"engine\": \"%s\"}},"
	" \"candidates\": [{\"preset\": \"%s\", \"nodes\": 1}],"
	" \"validation\": {\"id\": \"t\", \"metric\": \"output_tok_s\", \"published\": 1, \"source\": \"test\"}}";

static double predict(struct scenario *s, const char *metric)
{
	double v = -1;
	char why[256] = "";
	snprintf(s->validation.metric, sizeof s->validation.metric, "%s", metric);
	if (!validation_predict(s, &v, why, sizeof why))
		print_error("%s: %s\n", metric, why);
	return v;
}

static void test_collective_metrics(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct nccl_point p;
	assert_int_equal(scenario_of_text(collective_text, &s, &err), 0);
	nccl_tests_point(&s.candidates[0], &s.workload.collective, s.workload.collective.bytes[0], &p);
	assert_int_equal(p.outcome.status, OUTCOME_OK);
	assert_close(predict(&s, "busbw_GBps"), p.busbw_bytes_per_s / 1e9, 1e-12);
	assert_close(predict(&s, "algbw_GBps"), p.algbw_bytes_per_s / 1e9, 1e-12);
	assert_close(predict(&s, "time_us"), p.time_s * 1e6, 1e-12);
	/* a DGX H100 has 8 NICs: the per-NIC figure is an eighth */
	assert_int_equal(s.candidates[0].nics_per_node, 8);
	assert_close(predict(&s, "busbw_per_nic_GBps") * 8, predict(&s, "busbw_GBps"), 1e-12);
	/* all-reduce: busbw = algbw x 2(p-1)/p with p = 16 ranks */
	assert_close(predict(&s, "busbw_GBps"), predict(&s, "algbw_GBps") * 2 * 15 / 16, 1e-12);

	double v;
	char why[256] = "";
	snprintf(s.validation.metric, sizeof s.validation.metric, "mfu");
	assert_false(validation_predict(&s, &v, why, sizeof why));
	assert_non_null(strstr(why, "does not apply"));
	scenario_release(&s);
}

static void test_training_metrics(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct train_result r;
	assert_int_equal(scenario_of_text(training_text, &s, &err), 0);
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r);
	assert_int_equal(r.outcome.status, OUTCOME_OK);
	assert_close(predict(&s, "step_time_s"), r.step_time_s, 1e-12);
	assert_close(predict(&s, "tflops_per_gpu"), r.tflops_per_gpu, 1e-12);
	assert_close(predict(&s, "mfu"), r.mfu, 1e-12);
	assert_close(predict(&s, "hfu"), r.hfu, 1e-12);
	/* tokens per second = global batch / step; samples are sequences */
	assert_close(predict(&s, "tokens_per_s"), 1048576 / r.step_time_s, 1e-12);
	assert_close(predict(&s, "samples_per_s") * 4096, predict(&s, "tokens_per_s"), 1e-12);

	double v;
	char why[256] = "";
	snprintf(s.validation.metric, sizeof s.validation.metric, "busbw_GBps");
	assert_false(validation_predict(&s, &v, why, sizeof why));
	assert_non_null(strstr(why, "does not apply"));
	scenario_release(&s);
}

/* Serving metrics are the request-level simulation's figures of the whole
 * first candidate, in the units of their names; output tokens / s x the
 * span is every request's output. */
static void test_serving_metrics(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct serve_result r;
	assert_int_equal(scenario_of_text(serving_text, &s, &err), 0);
	const struct workload_spec *w = &s.workload;
	serve_run(&w->serving, &w->model, &s.candidates[0], s.seed, 0,
		  &r);
	assert_int_equal(r.outcome.status, OUTCOME_OK);
	assert_int_equal(r.m.requests_done, 64);
	assert_close(predict(&s, "output_tok_s"), r.m.output_tok_s, 1e-12);
	assert_close(predict(&s, "output_tok_s") * r.m.span_s, 64.0 * 64, 1e-9);
	assert_close(predict(&s, "throughput_tok_s") * r.m.span_s, 64.0 * (512 + 64), 1e-9);
	assert_close(predict(&s, "request_per_s") * r.m.span_s, 64, 1e-9);
	assert_close(predict(&s, "ttft_p50_ms"), r.m.ttft_ms.p50, 1e-12);
	assert_close(predict(&s, "ttft_mean_ms"), r.m.ttft_ms.mean, 1e-12);
	assert_close(predict(&s, "tpot_p50_ms"), r.m.tpot_ms.p50, 1e-12);
	assert_close(predict(&s, "tpot_mean_ms"), r.m.tpot_ms.mean, 1e-12);
	assert_close(predict(&s, "itl_p50_ms"), r.m.itl_ms.p50, 1e-12);
	assert_close(predict(&s, "itl_mean_ms"), r.m.itl_ms.mean, 1e-12);
	assert_close(predict(&s, "e2e_p50_s"), r.m.e2e_s.p50, 1e-12);
	assert_close(predict(&s, "e2e_mean_s"), r.m.e2e_s.mean, 1e-12);
	/* a request's first token comes before its last */
	assert_true(predict(&s, "ttft_mean_ms") < predict(&s, "e2e_mean_s") * 1e3);

	double v;
	char why[256] = "";
	snprintf(s.validation.metric, sizeof s.validation.metric, "mfu");
	assert_false(validation_predict(&s, &v, why, sizeof why));
	assert_non_null(strstr(why, "does not apply to serving"));
	scenario_release(&s);
}

/* The published serving figures of scenarios/validation (TensorRT-LLM 1.0
 * max throughput, NIM's latencies at concurrency 1: each file's validation
 * block cites its source) are predicted within the targets
 * docs/explanation/calibration.md states for them: median |error| at most 10%, every
 * row within 25%. The constants were fitted on the 8B H100 rows only. */
static void test_serving_rows_within_targets(void **state)
{
	(void)state;
	const char *top = getenv("TOP");
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/scenarios/validation", top != NULL ? top : ".");
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	double errs[128];
	int n = 0;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		char file[2048];
		struct scenario s;
		struct cs_error err;
		snprintf(file, sizeof file, "%s/%s", dir, e->d_name);
		catalog *c = catalog_copy(cat);
		assert_int_equal(scenario_load(file, NULL, 0, -1, c, &s, &err), 0);
		catalog_free(c);
		if (validation_kind(&s) == VALIDATION_SERVING) {
			char metric[sizeof s.validation.metric];
			snprintf(metric, sizeof metric, "%s", s.validation.metric);
			double v = predict(&s, metric);
			double pct = 100 * fabs(v - s.validation.published) / s.validation.published;
			if (pct > 25)
				print_error("%s: %g against %g published (%.1f%%)\n", s.validation.id, v,
					    s.validation.published, pct);
			assert_true(pct <= 25);
			assert_true(n < 128);
			errs[n++] = pct;
		}
		scenario_release(&s);
	}
	closedir(d);
	assert_true(n >= 28);
	/* the median of n values */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (errs[j] < errs[i]) {
				double t = errs[i];
				errs[i] = errs[j];
				errs[j] = t;
			}
	double median = n % 2 ? errs[n / 2] : (errs[n / 2 - 1] + errs[n / 2]) / 2;
	assert_true(median <= 10);
}

/* The kind column: collectives, training, fine-tuning, serving. */
static void test_kinds(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	assert_int_equal(scenario_of_text(collective_text, &s, &err), 0);
	assert_int_equal(validation_kind(&s), VALIDATION_COLLECTIVE);
	assert_string_equal(validation_kind_names[validation_kind(&s)], "collective");
	scenario_release(&s);
	assert_int_equal(scenario_of_text(training_text, &s, &err), 0);
	assert_int_equal(validation_kind(&s), VALIDATION_TRAINING);
	s.workload.kind = WORKLOAD_FINETUNE;
	assert_int_equal(validation_kind(&s), VALIDATION_FINETUNE);
	assert_string_equal(validation_kind_names[validation_kind(&s)], "finetune");
	s.workload.kind = WORKLOAD_INFERENCE;
	assert_string_equal(validation_kind_names[validation_kind(&s)], "serving");
	s.workload.kind = WORKLOAD_TRAINING;
	scenario_release(&s);
}

/* A row's family: validation.family when stated, else the id up to its
 * first '_', else the whole id. */
static void test_family(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	char fam[CAT_NAME_MAX];
	assert_int_equal(scenario_of_text(training_text, &s, &err), 0);
	snprintf(s.validation.id, sizeof s.validation.id, "mlperf_v3.1_NVIDIA_eos_n64_gpt3");
	validation_family(&s, fam, sizeof fam);
	assert_string_equal(fam, "mlperf");
	snprintf(s.validation.family, sizeof s.validation.family, "mlperf_gpt3");
	validation_family(&s, fam, sizeof fam);
	assert_string_equal(fam, "mlperf_gpt3");
	s.validation.family[0] = '\0';
	snprintf(s.validation.id, sizeof s.validation.id, "opt175b");
	validation_family(&s, fam, sizeof fam);
	assert_string_equal(fam, "opt175b");
	scenario_release(&s);
	/* the scenario reader takes the key */
	static const char *const text =
		"{\"workload\": {\"kind\": \"collective\", \"collective\": {\"op\": \"all_reduce\", \"bytes\": 8589934592,"
		" \"algorithm\": \"ring\"}}, \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 2}],"
		" \"validation\": {\"id\": \"a_b\", \"metric\": \"busbw_GBps\", \"published\": 1, \"family\": \"fam\"}}";
	assert_int_equal(scenario_of_text(text, &s, &err), 0);
	validation_family(&s, fam, sizeof fam);
	assert_string_equal(fam, "fam");
	scenario_release(&s);
}

/* The sign convention: + means the model is too fast, whatever the metric.
 * A throughput predicted 10% high is +10%; a time predicted 10% high is a
 * model too slow, -10%. */
static void test_signed_error(void **state)
{
	(void)state;
	assert_close(validation_signed_error_pct("tflops_per_gpu", 100, 110), 10, 1e-12);
	assert_close(validation_signed_error_pct("mfu", 0.5, 0.45), -10, 1e-12);
	assert_close(validation_signed_error_pct("samples_per_s", 10, 12), 20, 1e-12);
	assert_close(validation_signed_error_pct("busbw_GBps", 400, 300), -25, 1e-12);
	assert_close(validation_signed_error_pct("step_time_s", 10, 11), -10, 1e-12);
	assert_close(validation_signed_error_pct("time_us", 100, 80), 20, 1e-12);
	assert_close(validation_signed_error_pct("ttft_mean_ms", 100, 90), 10, 1e-12);
	assert_close(validation_signed_error_pct("tpot_p50_ms", 10, 12), -20, 1e-12);
	assert_close(validation_signed_error_pct("itl_mean_ms", 10, 12), -20, 1e-12);
	assert_close(validation_signed_error_pct("e2e_p50_s", 2, 1), 50, 1e-12);
	assert_true(validation_metric_higher_is_faster("output_tok_s"));
	assert_true(validation_metric_higher_is_faster("tokens_per_s"));
	assert_false(validation_metric_higher_is_faster("e2e_mean_s"));
}

/* The summaries of a fixture with known errors: the median and worst
 * |error| and count per kind, the mean signed error per family (sorted by
 * name), failures counted apart. */
static void test_summary(void **state)
{
	(void)state;
	struct validation_summary sum;
	validation_summary_init(&sum);
	/* family a, training: +10, -4 (a time predicted 4% high: signed -4), +2 */
	validation_summary_add(&sum, "a_1", VALIDATION_TRAINING, "a", true, 10, 10);
	validation_summary_add(&sum, "a_2", VALIDATION_TRAINING, "a", true, 4, -4);
	validation_summary_add(&sum, "a_3", VALIDATION_TRAINING, "a", true, 2, 2);
	/* family c, finetune: -20 */
	validation_summary_add(&sum, "c_1", VALIDATION_FINETUNE, "c", true, -20, -20);
	/* family b, collective: -1 and -3, and one row not predicted */
	validation_summary_add(&sum, "b_1", VALIDATION_COLLECTIVE, "b", true, -1, -1);
	validation_summary_add(&sum, "b_2", VALIDATION_COLLECTIVE, "b", true, -3, -3);
	validation_summary_add(&sum, "b_3", VALIDATION_COLLECTIVE, "b", false, 0, 0);

	/* all rows: |errors| 10 4 2 20 1 3, median (3 + 4) / 2, worst c_1 */
	assert_int_equal(validation_group_count(&sum.all), 6);
	assert_int_equal(sum.all.failed, 1);
	assert_close(validation_group_median_pct(&sum.all), 3.5, 1e-12);
	assert_close(sum.all.worst_pct, 20, 1e-12);
	assert_string_equal(sum.all.worst_id, "c_1");
	assert_close(validation_group_mean_signed_pct(&sum.all), (10 - 4 + 2 - 20 - 1 - 3) / 6.0, 1e-12);

	struct validation_group *t = &sum.kinds[VALIDATION_TRAINING];
	assert_string_equal(t->name, "training");
	assert_int_equal(validation_group_count(t), 3);
	assert_close(validation_group_median_pct(t), 4, 1e-12);
	assert_close(t->worst_pct, 10, 1e-12);
	assert_string_equal(t->worst_id, "a_1");
	assert_int_equal(validation_group_count(&sum.kinds[VALIDATION_FINETUNE]), 1);
	assert_close(validation_group_median_pct(&sum.kinds[VALIDATION_FINETUNE]), 20, 1e-12);
	assert_int_equal(validation_group_count(&sum.kinds[VALIDATION_COLLECTIVE]), 2);
	assert_int_equal(sum.kinds[VALIDATION_COLLECTIVE].failed, 1);
	assert_close(validation_group_median_pct(&sum.kinds[VALIDATION_COLLECTIVE]), 2, 1e-12);
	assert_int_equal(validation_group_count(&sum.kinds[VALIDATION_SERVING]), 0);
	assert_close(validation_group_median_pct(&sum.kinds[VALIDATION_SERVING]), 0, 1e-12);

	assert_int_equal(sum.n_families, 3);
	assert_string_equal(sum.families[0].name, "a");
	assert_string_equal(sum.families[1].name, "b");
	assert_string_equal(sum.families[2].name, "c");
	assert_close(validation_group_mean_signed_pct(&sum.families[0]), (10 - 4 + 2) / 3.0, 1e-12);
	assert_close(validation_group_mean_signed_pct(&sum.families[1]), -2, 1e-12);
	assert_int_equal(sum.families[1].failed, 1);
	assert_close(validation_group_mean_signed_pct(&sum.families[2]), -20, 1e-12);
	validation_summary_release(&sum);
}

/* A plan that does not fit cannot be predicted, and says why. */
static void test_oom_not_predicted(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	double v;
	char why[256] = "";
	assert_int_equal(scenario_of_text(training_text, &s, &err), 0);
	s.workload.train.plan.tp = 1;
	s.workload.train.plan.recompute = RECOMPUTE_NONE;
	s.workload.train.plan.zero = 0;
	s.workload.train.plan.micro_batch = 8;
	assert_false(validation_predict(&s, &v, why, sizeof why));
	assert_non_null(strstr(why, "oom"));
	scenario_release(&s);
}

/* A predicted row names the rates its figure assumes: FP4 on GB200 has no
 * measured GEMM rate (catalog mamf_fp4), FP4 on B200 has one; vLLM's
 * engine constants are an assumption in the catalog (engines), TensorRT-LLM's
 * are fitted. Two assumptions are both kept, in the reason's order. */
static void test_assumptions_named(void **state)
{
	(void)state;
	static const char fp4[] = "assumption: no FP4 GEMM rate is measured for GB200";
	static const char engine_clause[] = "assumption: vllm-v1's step constants are not fitted to its own measurements";
	const struct { const char *preset, *engine; bool fp4, engine_assumed; } cases[] = {
		{ "gb200-nvl72", "trtllm", true, false },
		{ "dgx-b200", "trtllm", false, false },
		{ "dgx-b200", "vllm-v1", false, true },
		{ "gb200-nvl72", "vllm-v1", true, true },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[2048], why[1024] = "";
		struct scenario s;
		struct cs_error err;
		double v = -1;
		snprintf(text, sizeof text, fp4_serving_text, cases[i].engine, cases[i].preset);
		assert_int_equal(scenario_of_text(text, &s, &err), 0);
		assert_true(validation_predict(&s, &v, why, sizeof why));
		assert_true(v > 0);
		const char *f = strstr(why, fp4), *e = strstr(why, engine_clause);
		assert_int_equal(f != NULL, cases[i].fp4);
		assert_int_equal(e != NULL, cases[i].engine_assumed);
		if (!cases[i].fp4 && !cases[i].engine_assumed)
			assert_string_equal(why, "");
		if (f != NULL && e != NULL)
			assert_non_null(strstr(why, "); assumption: "));  /* both, one after the other */
		scenario_release(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collective_metrics),
		cmocka_unit_test(test_training_metrics),
		cmocka_unit_test(test_oom_not_predicted),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_signed_error),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_serving_metrics),
		cmocka_unit_test(test_serving_rows_within_targets),
		cmocka_unit_test(test_assumptions_named),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
