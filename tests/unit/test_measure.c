/*
 * measure: each real fixture (tests/fixtures/measure/README.md) parses to
 * the exact figures it holds, the request pattern or collective it states,
 * and bad files fail with one line naming the file and the line or key.
 */
#define _GNU_SOURCE  /* mkdtemp */
#include "testutil.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "models/measure/measure.h"

#define FIX "tests/fixtures/measure/"

static struct measure_set set;
static struct cs_error err;

static int load(const char *file, const char *on)
{
	measure_set_release(&set);
	error_clear(&err);
	const char *files[1] = { file };
	return measure_load_files(files, 1, on, &set, &err);
}

/* The document of metric (the first, or of the collective size bytes > 0). */
static const json_t *doc_of(const char *metric, double bytes)
{
	for (size_t i = 0; i < set.n; i++) {
		const json_t *v = json_object_get(set.docs[i].scenario, "validation");
		const json_t *c = json_object_get(json_object_get(set.docs[i].scenario, "workload"), "collective");
		if (strcmp(json_string_value(json_object_get(v, "metric")), metric) == 0 &&
		    (bytes <= 0 || json_number_value(json_object_get(c, "bytes")) == bytes))
			return set.docs[i].scenario;
	}
	fail_msg("no document of %s", metric);
	return NULL;
}

static double published(const json_t *doc)
{
	return json_number_value(json_object_get(json_object_get(doc, "validation"), "published"));
}

static const json_t *serving(const json_t *doc)
{
	return json_object_get(json_object_get(doc, "workload"), "serving");
}

/* Every row of the all_reduce_perf output: 31 sizes from 8 B to 8 GiB; the
 * out-of-place busbw from 1 GB/s up, the out-of-place time below; 16 GPUs
 * from the 16 device lines. */
static void test_nccl_fixture(void **state)
{
	(void)state;
	assert_int_equal(load(FIX "nccl-tests-a3mega-h100x16-all_reduce.txt", FIX "on-a3mega-h100x16.json"), 0);
	assert_int_equal(set.n, 31);
	assert_close(published(doc_of("time_us", 8)), 135.8, 1e-12);
	assert_close(published(doc_of("time_us", 65536)), 159.4, 1e-12);
	assert_close(published(doc_of("busbw_GBps", 131072)), 1.54, 1e-12);
	assert_close(published(doc_of("busbw_GBps", 134217728)), 152.32, 1e-12);
	assert_close(published(doc_of("busbw_GBps", 8589934592.0)), 338.82, 1e-12);
	const json_t *c = json_object_get(json_object_get(doc_of("busbw_GBps", 1073741824), "workload"), "collective");
	assert_string_equal(json_string_value(json_object_get(c, "op")), "all_reduce");
	for (size_t i = 0; i < set.n; i++) {
		assert_int_equal(set.docs[i].gpus, 16);
		assert_int_equal(json_array_size(json_object_get(set.docs[i].scenario, "candidates")), 1);
	}
	assert_int_equal(set.docs[0].line, 32);  /* the first row's line in the file */
}

/* Two tests in one file, and mpirun --tag-output's prefixes: the same
 * rows, read through the prefix, once per test. */
static void test_nccl_concatenated(void **state)
{
	(void)state;
	/* The file, then the file again with every line prefixed, written
	 * here (no shell: the path reaches no command line). */
	char path[512], line[4096];
	snprintf(path, sizeof path, "%s/two.txt", test_dir());
	FILE *out = fopen(path, "w");
	assert_non_null(out);
	for (int pass = 0; pass < 2; pass++) {
		FILE *in = fopen(FIX "nccl-tests-a3mega-h100x16-all_reduce.txt", "r");
		assert_non_null(in);
		while (fgets(line, sizeof line, in) != NULL)
			fprintf(out, "%s%s", pass ? "[1,0]<stdout>:" : "", line);
		fclose(in);
	}
	assert_int_equal(fclose(out), 0);
	assert_int_equal(load(path, FIX "on-a3mega-h100x16.json"), 0);
	assert_int_equal(set.n, 62);
	assert_close(published(set.docs[30].scenario), 338.82, 1e-12);
	assert_close(published(set.docs[61].scenario), 338.82, 1e-12);
	assert_close(published(set.docs[31].scenario), 135.8, 1e-12);
	assert_int_equal(set.docs[61].gpus, 16);
}

/* vLLM at 10 requests/s: the throughputs, TTFT/TPOT/ITL mean, median and
 * p99 as written, and the pattern: 300 requests, Poisson at 10/s, mean
 * lengths 299700 / 300 = 999 and 81050 / 300 = 270 (rounded). */
static void test_vllm_fixture_rate(void **state)
{
	(void)state;
	assert_int_equal(load(FIX "vllm-bench-llama32-3b-l40s-10qps.json", FIX "on-llama32-3b-l40s-x4.json"), 0);
	assert_int_equal(set.n, 12);
	assert_close(published(doc_of("request_per_s", 0)), 8.325406649602808, 1e-15);
	assert_close(published(doc_of("output_tok_s", 0)), 2249.247363167692, 1e-15);
	assert_close(published(doc_of("throughput_tok_s", 0)), 10566.328606120898, 1e-15);
	assert_close(published(doc_of("ttft_mean_ms", 0)), 54.577085783294024, 1e-15);
	assert_close(published(doc_of("ttft_p50_ms", 0)), 52.999333499883505, 1e-15);
	assert_close(published(doc_of("ttft_p99_ms", 0)), 89.76647855975897, 1e-15);
	assert_close(published(doc_of("tpot_p99_ms", 0)), 17.652194109258673, 1e-15);
	assert_close(published(doc_of("itl_p50_ms", 0)), 12.841573499827064, 1e-15);
	const json_t *s = serving(doc_of("itl_mean_ms", 0));
	assert_int_equal(json_integer_value(json_object_get(s, "requests")), 300);
	assert_int_equal(json_integer_value(json_object_get(s, "prompt_tokens")), 999);
	assert_int_equal(json_integer_value(json_object_get(s, "output_tokens")), 270);
	assert_string_equal(json_string_value(json_object_get(json_object_get(s, "arrival"), "process")), "poisson");
	assert_close(json_number_value(json_object_get(json_object_get(s, "arrival"), "rate_per_s")), 10.0, 0);
	assert_int_equal(json_integer_value(json_object_get(s, "replicas")), 4);  /* the --on scenario's */
}

/* vLLM at "inf": every request at once, 900 of them. */
static void test_vllm_fixture_inf(void **state)
{
	(void)state;
	assert_int_equal(load(FIX "vllm-bench-llama32-3b-l40s-inf.json", FIX "on-llama32-3b-l40s-x4.json"), 0);
	assert_close(published(doc_of("request_per_s", 0)), 43.024591101204344, 1e-15);
	assert_close(published(doc_of("itl_p99_ms", 0)), 66.37176537940839, 1e-15);
	const json_t *s = serving(doc_of("request_per_s", 0));
	assert_int_equal(json_integer_value(json_object_get(s, "requests")), 900);
	assert_string_equal(json_string_value(json_object_get(json_object_get(s, "arrival"), "process")), "offline");
}

/* trtllm-bench 0.17: request and (output) token throughput, and the engine's
 * settings: 3000 requests of 128/128 tokens, batch 4096, 8192 tokens. */
static void test_trtllm_fixture(void **state)
{
	(void)state;
	assert_int_equal(load(FIX "trtllm-bench-llama31-8b-fp8-throughput.txt", FIX "on-llama31-8b-h100-trtllm.json"), 0);
	assert_int_equal(set.n, 2);
	assert_close(published(doc_of("request_per_s", 0)), 221.8002, 1e-15);
	assert_close(published(doc_of("output_tok_s", 0)), 28390.4265, 1e-15);
	const json_t *s = serving(doc_of("output_tok_s", 0));
	assert_int_equal(json_integer_value(json_object_get(s, "requests")), 3000);
	assert_int_equal(json_integer_value(json_object_get(s, "prompt_tokens")), 128);
	assert_int_equal(json_integer_value(json_object_get(s, "output_tokens")), 128);
	assert_int_equal(json_integer_value(json_object_get(s, "tp")), 1);
	assert_string_equal(json_string_value(json_object_get(s, "engine")), "trtllm");
	const json_t *sch = json_object_get(s, "scheduler");
	assert_int_equal(json_integer_value(json_object_get(sch, "max_seqs")), 4096);
	assert_int_equal(json_integer_value(json_object_get(sch, "max_batch_tokens")), 8192);
}

/* Write text to NAME in the test's directory; its path in a static buffer. */
static const char *write_file(const char *name, const char *text)
{
	static char path[128];
	snprintf(path, sizeof path, "%s/%s", test_dir(), name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Measured runs in JSON Lines: one document a line, ids STEM_L<line>
 * unless given; a line that is not JSON is named. */
static void test_runs_jsonl(void **state)
{
	(void)state;
	static const char run[] = "{\"workload\": {\"kind\": \"collective\", \"collective\": {\"op\": \"all_reduce\", "
				  "\"bytes\": 1048576}}, \"candidates\": [{\"preset\": \"dgx-h100\"}], \"measured\": "
				  "{\"metric\": \"busbw_GBps\", \"value\": %s%s}}\n";
	char text[2048];
	int n = snprintf(text, sizeof text, run, "100", "");
	n += snprintf(text + n, sizeof text - n, "\n");
	snprintf(text + n, sizeof text - n, run, "200", ", \"id\": \"mine\"");
	assert_int_equal(load(write_file("runs.jsonl", text), NULL), 0);
	assert_int_equal(set.n, 2);
	assert_int_equal(set.docs[0].line, 1);
	assert_int_equal(set.docs[1].line, 3);
	const json_t *m = json_object_get(set.docs[0].scenario, "measured");
	assert_string_equal(json_string_value(json_object_get(m, "id")), "runs_L1");
	m = json_object_get(set.docs[1].scenario, "measured");
	assert_string_equal(json_string_value(json_object_get(m, "id")), "mine");

	snprintf(text, sizeof text, run, "100", "");
	strcat(text, "{\"measured\": \n");
	assert_int_equal(load(write_file("bad.jsonl", text), NULL), -1);
	assert_non_null(strstr(err.msg, "bad.jsonl': line 2: not JSON"));
}

/* The bad files of the issue: one line naming the file and the line. */
static void test_bad_files(void **state)
{
	(void)state;
	static const char header[] =
		"# nThread 1 nGpus 8 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1\n"
		"#\n"
		"#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
	char text[1024];
	const char *on = FIX "on-a3mega-h100x16.json";

	snprintf(text, sizeof text, "%s%s", header, "     1048576        262144     float     sum      -1    203.2    5.16\n");
	assert_int_equal(load(write_file("cut.txt", text), on), -1);
	assert_non_null(strstr(err.msg, "cut.txt': line 4: a row of 7 fields, 13 expected"));

	assert_int_equal(load(write_file("norows.txt", header), on), -1);
	assert_non_null(strstr(err.msg, "norows.txt': line 3: a column header with no rows"));

	snprintf(text, sizeof text, "all_reduce_perf\n%s%s", header,
		 "     1048576        262144     float     sum      -1    203.2    5.16    9.68      0    207.2    5.06    9.49      0\n");
	assert_int_equal(load(write_file("noavg.txt", text), on), -1);
	assert_non_null(strstr(err.msg, "without \"# Avg bus bandwidth\""));

	assert_int_equal(load(FIX "nccl-tests-a3mega-h100x16-all_reduce.txt", NULL), -1);
	assert_non_null(strstr(err.msg, "--on SCENARIO"));

	assert_int_equal(load(write_file("genai-perf.json", "{\"request_throughput\": {\"avg\": 1.0}}"), on), -1);
	assert_non_null(strstr(err.msg, "genai-perf.json': not a measurement file of a known format"));

	assert_int_equal(load(FIX "vllm-bench-llama32-3b-l40s-10qps.json", on), -1);
	assert_non_null(strstr(err.msg, "needs --on the deployment's scenario"));

	assert_int_equal(load(write_file("empty.txt", ""), on), -1);
	assert_non_null(strstr(err.msg, "not a measurement file"));
}

static int setup(void **state)
{
	(void)state;
	return test_dir_make("test_measure");
}

static int teardown(void **state)
{
	(void)state;
	measure_set_release(&set);
	return test_dir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nccl_fixture),
		cmocka_unit_test(test_nccl_concatenated),
		cmocka_unit_test(test_vllm_fixture_rate),
		cmocka_unit_test(test_vllm_fixture_inf),
		cmocka_unit_test(test_trtllm_fixture),
		cmocka_unit_test(test_runs_jsonl),
		cmocka_unit_test(test_bad_files),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
