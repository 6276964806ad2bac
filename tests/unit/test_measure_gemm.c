/* GEMM sweeps as measurements: each real tool's output under
 * tests/fixtures/gemm/ parses to the figures it holds; a sweep whose rates
 * are the model's own predictions validates with 0% error; bad files are
 * one-line errors naming the file, line, column and value, and keep
 * nothing. Run from the top of the tree (the fixtures' paths). */
#include "testutil.h"

#include <string.h>

#include "catalog_fixture.h"
#include "models/measure/measure.h"
#include "models/validate/validation.h"
#include "util/text.h"
#include "util/xalloc.h"

static const struct measure_format *fmt = &measure_format_gemm_csv;

/* The --on scenario: one H100 SXM, stating no precision unless asked. */
static json_t *on_scenario(const char *precision)
{
	json_t *on = json_loads("{\"name\": \"my-h100\", \"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\"},"
				" \"monte_carlo\": {\"trials\": 3},"
				" \"candidates\": [{\"name\": \"h100\", \"gpu\": \"H100-SXM\", \"nodes\": 1, \"gpus_per_node\": 1},"
				" {\"name\": \"other\", \"preset\": \"dgx-b200\"}]}",
				0, NULL);
	assert_non_null(on);
	if (precision != NULL)
		json_object_set_new(json_object_get(on, "workload"), "precision", json_string(precision));
	return on;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s (run from the top of the tree)", path);
	char *buf = xmalloc(1 << 16);
	*len = fread(buf, 1, (1 << 16) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* Load a fixture; its documents in set. */
static int load_file(const char *name, const char *precision, struct measure_set *set, struct cs_error *err)
{
	char path[256];
	size_t len;
	snprintf(path, sizeof path, "tests/fixtures/gemm/%s", name);
	char *text = slurp(path, &len);
	json_t *on = on_scenario(precision);
	assert_true(fmt->detect(path, text, len));
	error_clear(err);
	int rc = fmt->load(path, text, len, on, set, err);
	json_decref(on);
	free(text);
	return rc;
}

/* Check document i: its shape, precision, rate and source line. */
static void check_doc(const struct measure_set *set, size_t i, double m, double n, double k, const char *precision,
		      double tflops, long line)
{
	const json_t *d = set->docs[i].scenario;
	const json_t *w = json_object_get(d, "workload"), *g = json_object_get(w, "gemm");
	const json_t *v = json_object_get(d, "validation");
	assert_string_equal(json_string_value(json_object_get(w, "kind")), "gemm");
	assert_int_equal(json_integer_value(json_object_get(g, "m")), (json_int_t)m);
	assert_int_equal(json_integer_value(json_object_get(g, "n")), (json_int_t)n);
	assert_int_equal(json_integer_value(json_object_get(g, "k")), (json_int_t)k);
	assert_string_equal(json_string_value(json_object_get(w, "precision")), precision);
	assert_string_equal(json_string_value(json_object_get(v, "metric")), "gemm_tflops");
	assert_close(json_real_value(json_object_get(v, "published")), tflops, 1e-12);
	assert_int_equal(set->docs[i].line, line);
	char want[256];
	snprintf(want, sizeof want, ":%ld", line);
	const char *src = json_string_value(json_object_get(v, "source"));
	assert_non_null(strstr(src, "tests/fixtures/gemm/"));
	assert_string_equal(src + strlen(src) - strlen(want), want);
	/* the first candidate only; the blocks a gemm refuses dropped */
	assert_int_equal(json_array_size(json_object_get(d, "candidates")), 1);
	assert_null(json_object_get(d, "monte_carlo"));
}

/* hipBLASLt's documentation (clients page): 128^3 FP32, 415.278 GFLOP/s. */
static void test_hipblaslt_docs(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct cs_error err;
	assert_int_equal(load_file("hipblaslt-bench-docs-f32.csv", NULL, &set, &err), 0);
	assert_int_equal(set.n, 1);
	check_doc(&set, 0, 128, 128, 128, "fp32", 0.415278, 2);
	measure_set_release(&set);
}

/* hipBLASLt PR 1544 (HIPBLASLT_BENCH_EFF=1, 48 columns, a_type f16_r):
 * 4096 x 4864 x 32896 at 555009 GFLOP/s. */
static void test_hipblaslt_pr1544(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct cs_error err;
	assert_int_equal(load_file("hipblaslt-bench-pr1544-f16.txt", NULL, &set, &err), 0);
	assert_int_equal(set.n, 1);
	check_doc(&set, 0, 4096, 4864, 32896, "fp16", 555.009, 2);
	measure_set_release(&set);
}

/* hipBLASLt PR 395: d_type only, a blank line, CPU-Gflops after the GPU's
 * rate (530.925 GFLOP/s is read, not the host's 4.092). */
static void test_hipblaslt_pr395(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct cs_error err;
	assert_int_equal(load_file("hipblaslt-bench-pr395-f32.txt", NULL, &set, &err), 0);
	assert_int_equal(set.n, 1);
	check_doc(&set, 0, 128, 128, 128, "fp32", 0.530925, 3);
	measure_set_release(&set);
}

/* rocm-libraries PR 3066: a "[0]:" header after a title line, three FP16
 * rows on gfx942. */
static void test_hipblaslt_pr3066(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct cs_error err;
	assert_int_equal(load_file("hipblaslt-bench-rocm-libraries-pr3066-f16.txt", NULL, &set, &err), 0);
	assert_int_equal(set.n, 3);
	check_doc(&set, 0, 16, 8192, 65536, "fp16", 38.9641, 3);
	check_doc(&set, 1, 16, 2048, 8192, "fp16", 9.43182, 4);
	check_doc(&set, 2, 16, 16, 1024, "fp16", 0.0145966, 5);
	measure_set_release(&set);
}

/* hipBLASLt issue 251: the tool's banner and a shell prompt before the
 * header; 2048^3 FP32 at 2.72763e+06 GFLOP/s (the run the issue is about,
 * with no kernel library: a parse fixture, not a rate to fit). */
static void test_hipblaslt_banner(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct cs_error err;
	assert_int_equal(load_file("hipblaslt-bench-issue251-banner.txt", NULL, &set, &err), 0);
	assert_int_equal(set.n, 1);
	check_doc(&set, 0, 2048, 2048, 2048, "fp32", 2727.63, 11);
	measure_set_release(&set);
}

/* hipBLAS's documentation: hipblas-bench has no type column (the type is
 * the command's -r f32_r): read with the --on scenario's precision, and an
 * error naming the header's line without one. */
static void test_hipblas_no_type_column(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct cs_error err;
	assert_int_equal(load_file("hipblas-bench-docs-vega20.csv", "fp32", &set, &err), 0);
	assert_int_equal(set.n, 1);
	check_doc(&set, 0, 4096, 4096, 4096, "fp32", 11.9415, 2);
	measure_set_release(&set);
	assert_int_equal(load_file("hipblas-bench-docs-vega20.csv", NULL, &set, &err), -1);
	assert_int_equal(set.n, 0);
	assert_string_equal(err.msg, "gemm sweep 'tests/fixtures/gemm/hipblas-bench-docs-vega20.csv': line 1: no type column "
				     "(dtype, precision, a_type or d_type), and the --on scenario states no workload.precision");
}

/* stas00/ml-engineering PR 60: mamf-finder.py's report of a GH200 BF16
 * search, "The best outcome was 821.0TFLOPS @ 11264x19712x1536". */
static void test_mamf_report_pr60(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct cs_error err;
	assert_int_equal(load_file("mamf-finder-gh200-pr60.txt", NULL, &set, &err), 0);
	assert_int_equal(set.n, 1);
	check_doc(&set, 0, 11264, 19712, 1536, "bf16", 821.0, 16);
	measure_set_release(&set);
}

/* The progress records of mamf-finder.py at 744d01e (its print of
 * "N | MEAN(mean) MEDIAN(median) MAX(max) @ MxNxK | best: ...", each ended
 * by a carriage return) are the measurements, at their median; the
 * summary's "median:" line is not counted again. The figures here are
 * made up to test the parse, not measurements. */
static void test_mamf_progress_records(void **state)
{
	(void)state;
	static const char text[] =
		"** Dtype: torch.float8_e4m3fn\n\nWarming up the accelerator for 30 secs ... accelerator warmup finished\n"
		"     1 |  100.0(mean)  110.5(median)  120.0(max) @ 1024x2048x4096        | best:  100.0(mean)  110.5(median)  120.0(max) TFLOPS\r"
		"     2 |  200.0(mean)  210.5(median)  220.0(max) @ 2048x2048x4096        | best:  200.0(mean)  210.5(median)  220.0(max) TFLOPS\r"
		"\nTried 2 shapes => the best outcomes were:\nmean:   200.0 TFLOPS @ 2048x2048x4096 (MxNxK)\n"
		"median: 210.5 TFLOPS @ 2048x2048x4096 (MxNxK)\nmax:    220.0 TFLOPS @ 2048x2048x4096 (MxNxK)\n";
	struct measure_set set = { 0 };
	struct cs_error err;
	json_t *on = on_scenario(NULL);
	assert_true(fmt->detect("log.txt", text, strlen(text)));
	if (fmt->load("log.txt", text, strlen(text), on, &set, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(set.n, 2);
	const json_t *g = json_object_get(json_object_get(set.docs[1].scenario, "workload"), "gemm");
	assert_int_equal(json_integer_value(json_object_get(g, "m")), 2048);
	assert_string_equal(json_string_value(json_object_get(json_object_get(set.docs[1].scenario, "workload"),
							      "precision")), "fp8");
	assert_close(json_real_value(json_object_get(json_object_get(set.docs[1].scenario, "validation"), "published")),
		     210.5, 1e-12);
	assert_int_equal(set.docs[0].line, 4);
	measure_set_release(&set);
	/* a dtype clustersim has no rate for, and a shape of zero */
	static const char bad1[] = "** Dtype: torch.int8\nThe best outcome was 1.0TFLOPS @ 8x8x8 (MxNxK)\n";
	assert_int_equal(fmt->load("r.txt", bad1, strlen(bad1), on, &set, &err), -1);
	assert_string_equal(err.msg, "mamf-finder report 'r.txt': line 1: dtype \"torch.int8\" is not one clustersim "
				     "models (bf16, fp16, fp32, fp8, fp4 and their torch names)");
	static const char bad2[] = "** Dtype: torch.bfloat16\nThe best outcome was 1.0TFLOPS @ 0x8x8 (MxNxK)\n";
	assert_int_equal(fmt->load("r.txt", bad2, strlen(bad2), on, &set, &err), -1);
	assert_int_equal(set.n, 0);
	assert_non_null(strstr(err.msg, "mamf-finder report 'r.txt': line 2: "));
	json_decref(on);
}

/* What detect() takes and leaves: other tools' outputs are not sweeps. */
static void test_detect(void **state)
{
	(void)state;
	static const char *const not_sweeps[] = {
		"#  size  count  type  redop  root  time  algbw  busbw #wrong  time  algbw  busbw #wrong\n",
		"{\"backend\": \"vllm\", \"request_throughput\": 1.5}\n",
		"name,m,n,k\nx,1,2,3\n",
		"",
	};
	for (size_t i = 0; i < sizeof not_sweeps / sizeof not_sweeps[0]; i++)
		assert_false(fmt->detect("x", not_sweeps[i], strlen(not_sweeps[i])));
	const char *own = "m,n,k,dtype,tflops\n8192,8192,8192,bf16,700\n";
	assert_true(fmt->detect("x", own, strlen(own)));
	assert_true(fmt->needs_scenario);
	assert_string_equal(fmt->name, "gemm-sweep");
}

/* Load text as file "s.csv" against an H100 --on; the message on failure
 * (and nothing kept), NULL on success. */
static const char *load_text(const char *text, struct measure_set *set, struct cs_error *err)
{
	json_t *on = on_scenario(NULL);
	error_clear(err);
	size_t before = set->n;
	int rc = fmt->load("s.csv", text, strlen(text), on, set, err);
	json_decref(on);
	if (rc == 0)
		return NULL;
	assert_int_equal(set->n, before);
	assert_null(strchr(err->msg, '\n'));
	return err->msg;
}

static void test_bad_files(void **state)
{
	(void)state;
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "m,n,dtype,tflops\n1,2,bf16,3\n", "gemm sweep 's.csv': line 1: the header lacks k" },
		{ "m,n,k,dtype\n1,2,3,bf16\n",
		  "gemm sweep 's.csv': line 1: the header lacks a rate (tflops, gflops, hipblaslt-Gflops...)" },
		{ "", "gemm sweep 's.csv': no header line with columns m, n, k and a rate (tflops, gflops, hipblaslt-Gflops...)" },
		{ "m,n,k,dtype,tflops\n", "gemm sweep 's.csv': line 1: a header and no rows" },
		{ "m,n,k,dtype,tflops\n1024,1024,1024,bf16,-3\n",
		  "gemm sweep 's.csv': line 2, column tflops: expected a positive rate (at most 1e6 TFLOP/s), got \"-3\"" },
		{ "m,n,k,dtype,tflops\n1024,1024,1024,bf16,nan\n",
		  "gemm sweep 's.csv': line 2, column tflops: expected a positive rate (at most 1e6 TFLOP/s), got \"nan\"" },
		{ "m,n,k,dtype,TFLOPS\n1024,1024,1024,bf16,inf\n",
		  "gemm sweep 's.csv': line 2, column TFLOPS: expected a positive rate (at most 1e6 TFLOP/s), got \"inf\"" },
		{ "m,n,k,dtype,tflops\n1024,1024,1024,bf16,1e300\n",
		  "gemm sweep 's.csv': line 2, column tflops: expected a positive rate (at most 1e6 TFLOP/s), got \"1e300\"" },
		{ "M,N,K,dtype,tflops\n1024,x12,1024,bf16,3\n",
		  "gemm sweep 's.csv': line 2, column N: expected a whole number from 1 to 16777216, got \"x12\"" },
		{ "m,n,k,dtype,tflops\n1024,1024,0,bf16,3\n",
		  "gemm sweep 's.csv': line 2, column k: expected a whole number from 1 to 16777216, got \"0\"" },
		{ "m,n,k,dtype,tflops\n1024,1024,1e12,bf16,3\n",
		  "gemm sweep 's.csv': line 2, column k: expected a whole number from 1 to 16777216, got \"1e12\"" },
		{ "m,n,k,a_type,tflops\n1024,1024,1024,i8_r,3\n",
		  "gemm sweep 's.csv': line 2, column a_type: expected a type clustersim models (bf16, fp16, fp32, tf32, "
		  "fp64, fp8, fp4, or the tools' names bf16_r, f8_r, float8_e4m3fn...), got \"i8_r\"" },
		{ "m,n,k,dtype,tflops\n1024,1024,1024,bf16,3\n2048,2048,2048,bf16\n",
		  "gemm sweep 's.csv': line 3: 4 fields where the header on line 1 has 5" },
		{ "m,n,k,dtype,tflops\n1024,1024,1024,bf\x01\xff,3\n",
		  "gemm sweep 's.csv': line 2, column dtype: expected a type clustersim models (bf16, fp16, fp32, tf32, "
		  "fp64, fp8, fp4, or the tools' names bf16_r, f8_r, float8_e4m3fn...), got \"bf\\x01\\xff\"" },
	};
	struct measure_set set = { 0 };
	struct cs_error err;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *msg = load_text(cases[i].text, &set, &err);
		if (msg == NULL)
			fail_msg("case %zu loaded", i);
		assert_string_equal(msg, cases[i].msg);
	}
	/* a file with good rows then a bad one keeps none of them */
	assert_non_null(load_text("m,n,k,dtype,tflops\n1,2,3,bf16,1\n4,5,6,bf16,-1\n", &set, &err));
	assert_int_equal(set.n, 0);
	/* without --on */
	const char *t = "m,n,k,dtype,tflops\n1,2,3,bf16,1\n";
	assert_int_equal(fmt->load("s.csv", t, strlen(t), NULL, &set, &err), -1);
	assert_string_equal(err.msg, "gemm sweep 's.csv': needs --on SCENARIO (the GPU the sweep ran on is its first "
				     "candidate)");
	measure_set_release(&set);
}

/* Hostile files end in an error or in rows, never in a crash or a leak
 * (ASan): pseudo-random bytes, a line of 100,000 commas, a header then a
 * row of 100,000 fields, a header without a newline. */
static void test_hostile(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct cs_error err;
	enum { LEN = 1 << 17 };
	char *buf = xmalloc(LEN + 64);
	uint32_t x = 12345;
	for (size_t i = 0; i < LEN; i++) {
		x = x * 1664525u + 1013904223u;
		buf[i] = (char)(x >> 24);
	}
	buf[LEN] = '\0';
	(void)fmt->detect("r", buf, LEN);
	json_t *on = on_scenario(NULL);
	assert_int_equal(fmt->load("r", buf, LEN, on, &set, &err), -1);
	memset(buf, ',', LEN);
	buf[LEN] = '\0';
	assert_false(fmt->detect("r", buf, LEN));
	assert_int_equal(fmt->load("r", buf, LEN, on, &set, &err), -1);
	size_t n = (size_t)snprintf(buf, 64, "m,n,k,dtype,tflops\n");
	memset(buf + n, ',', LEN - n);
	buf[LEN] = '\0';
	assert_int_equal(fmt->load("r", buf, LEN, on, &set, &err), -1);
	assert_int_equal(set.n, 0);
	const char *t = "m,n,k,dtype,tflops";
	assert_int_equal(fmt->load("r", t, strlen(t), on, &set, &err), -1);
	assert_string_equal(err.msg, "gemm sweep 'r': line 1: a header and no rows");
	/* a last row without its newline is a row */
	t = "m,n,k,dtype,tflops\n8,8,8,bf16,0.5";
	assert_int_equal(fmt->load("r", t, strlen(t), on, &set, &err), 0);
	assert_int_equal(set.n, 1);
	json_decref(on);
	free(buf);
	measure_set_release(&set);
}

/* The model's prediction for document d (its first candidate, its shape). */
static double predict(const json_t *d)
{
	struct scenario s;
	struct cs_error err;
	char why[512] = "";
	double v = 0;
	json_t *copy = json_deep_copy(d);
	if (scenario_from_json(copy, "doc.json", cat, &s, &err) != 0)
		fail_msg("document does not load: %s", err.msg);
	if (!validation_predict(&s, &v, why, sizeof why))
		fail_msg("not predicted: %s", why);
	scenario_release(&s);
	json_decref(copy);
	return v;
}

/* A sweep whose rates are the model's own (printed to 17 digits) validates
 * with 0% error on every row: large, small, tall-skinny (HBM-bound) shapes,
 * BF16 and FP8, a duplicate shape given its line in its id. */
static void test_round_trip(void **state)
{
	(void)state;
	static const struct {
		int m, n, k;
		const char *dtype;
	} shapes[] = {
		{ 8192, 8192, 8192, "bf16" }, { 4096, 4096, 4096, "torch.bfloat16" }, { 1024, 1024, 1024, "bf16_r" },
		{ 16, 8192, 8192, "bf16" },  { 8192, 8192, 8192, "float8_e4m3fn" }, { 8192, 8192, 8192, "bf16" },
	};
	enum { N = sizeof shapes / sizeof shapes[0] };
	char text[4096] = "m,n,k,dtype,tflops\n";
	struct measure_set set = { 0 };
	struct cs_error err;
	/* first the shapes at a placeholder rate, to ask the model */
	for (size_t i = 0; i < N; i++)
		text_appendf(text, sizeof text, "%d,%d,%d,%s,1\n", shapes[i].m, shapes[i].n, shapes[i].k, shapes[i].dtype);
	assert_null(load_text(text, &set, &err));
	assert_int_equal(set.n, N);
	double want[N];
	text_setf(text, sizeof text, "m,n,k,dtype,tflops\n");
	for (size_t i = 0; i < N; i++) {
		want[i] = predict(set.docs[i].scenario);
		assert_true(want[i] > 0);
		text_appendf(text, sizeof text, "%d,%d,%d,%s,%.17g\n", shapes[i].m, shapes[i].n, shapes[i].k,
			     shapes[i].dtype, want[i]);
	}
	measure_set_release(&set);
	assert_null(load_text(text, &set, &err));
	for (size_t i = 0; i < N; i++) {
		const json_t *v = json_object_get(set.docs[i].scenario, "validation");
		double published = json_real_value(json_object_get(v, "published"));
		double err_pct = 100 * (predict(set.docs[i].scenario) - published) / published;
		assert_close_abs(err_pct, 0, 1e-12);
	}
	assert_string_equal(json_string_value(json_object_get(json_object_get(set.docs[0].scenario, "validation"), "id")),
			    "gemm_bf16_8192x8192x8192");
	assert_string_equal(json_string_value(json_object_get(json_object_get(set.docs[5].scenario, "validation"), "id")),
			    "gemm_bf16_8192x8192x8192_line7");
	/* H100 SXM's BF16 8192^3: 989 TFLOP/s x MAMF 0.8 x shape 0.9697, plus 10 us */
	assert_true(want[0] < 989 * 0.8 && want[0] > 989 * 0.8 * 0.95);
	measure_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hipblaslt_docs),
		cmocka_unit_test(test_hipblaslt_pr1544),
		cmocka_unit_test(test_hipblaslt_pr395),
		cmocka_unit_test(test_hipblaslt_pr3066),
		cmocka_unit_test(test_hipblaslt_banner),
		cmocka_unit_test(test_hipblas_no_type_column),
		cmocka_unit_test(test_mamf_report_pr60),
		cmocka_unit_test(test_mamf_progress_records),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
