/* calib on engines: a serving engine's step constants and training's
 * overlap slowdown recovered from measurements the model itself generates
 * under an engines entry that differs from the catalog's by known factors;
 * the overlay carries them in its engines section and a row computed with
 * it names the calibration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "models/calib/calib.h"
#include "models/calib/calib_param.h"
#include "models/scenario/scenario.h"

/* The true engines: TensorRT-LLM's GEMMs at 0.9 x the catalog's fraction of
 * MAMF (0.95 -> 0.855), its kernels 1.4 x slower (5 -> 7 us) and its host
 * time per sequence 2 x (3 -> 6 us); training's overlap slowdown 1.5 x
 * (0.22 -> 0.33). */
static const char truth_json[] =
	"{\"engines\": [{\"name\": \"trtllm\", \"gemm_over_mamf\": 0.855, \"kernel_us\": 7, \"seq_overhead_us\": 6},"
	" {\"name\": \"training\", \"overlap_slowdown\": 0.33}]}";

/* Serving rows of TensorRT-LLM on H100 that load its constants differently:
 * host-bound short sequences (the time per sequence), prefill-bound long
 * prompts (the GEMMs), decode-bound long outputs, and one sequence at a
 * time of 70B on two GPUs (the kernels and the step's host time); far fewer
 * requests than the published runs so that the test runs in seconds (the
 * measurements are generated at the same counts). Training rows with
 * tensor-parallel communication overlapped (tp_overlap). Two all-reduces
 * and three GEMM benchmarks pin the GPU's and NVLink's own rates, which a
 * serving throughput alone cannot tell from its engine's: a step's GEMMs
 * run at the GPU's MAMF times the engine's gemm_over_mamf, their product
 * is all one serving row sees. */
static const struct {
	const char *file;  /* in scenarios/validation, or NULL: text */
	const char *text;
	long requests;     /* > 0: serving.requests */
} rows[] = {
	{ "trtllm_l31_8b_h100_128_128.json", NULL, 200 },
	{ "trtllm_l31_8b_h100_2048_128.json", NULL, 20 },
	{ "trtllm_l31_8b_h100_128_2048.json", NULL, 16 },
	{ "nim180_l33_70b_h100_tp2_500_2000_c1_itl.json", NULL, 0 },
	{ "nim180_l33_70b_h100_tp2_5000_500_c1_ttft.json", NULL, 0 },
	{ "trtllm_l33_70b_h100_2048_128.json", NULL, 16 },
	{ "nemo_h100_llama3_70b_64_2511.json", NULL, 0 },
	{ "mcore_h100_weak_7.1B.json", NULL, 0 },
	{ "nccl_h100_16m.json", NULL, 0 },
	{ "nccl_h100_256m.json", NULL, 0 },
#define GEMM(id, prec, m, n, k)                                                                                    \
	"{\"workload\": {\"kind\": \"gemm\", \"precision\": \"" prec "\", \"gemm\": {\"m\": [" #m "], \"n\": [" #n "], "     \
	"\"k\": [" #k "]}}, \"candidates\": [{\"gpu\": \"H100-SXM\", \"nodes\": 1, \"gpus_per_node\": 1}], "              \
	"\"validation\": {\"id\": \"" id "\", \"metric\": \"gemm_tflops\", \"published\": 1, \"source\": \"test\"}}"
	{ NULL, GEMM("gemm_fp8_8192", "fp8", 8192, 8192, 8192), 0 },
	{ NULL, GEMM("gemm_bf16_8192", "bf16", 8192, 8192, 8192), 0 },
	{ NULL, GEMM("gemm_bf16_decode", "bf16", 16, 8192, 8192), 0 },
#undef GEMM
};
#define N_ROWS (sizeof rows / sizeof rows[0])

#include "calib_fixture.h"

/* Row i's scenario with the value the model gives under the true engines as
 * the measured figure. */
static json_t *measured_doc(size_t i, char *path, size_t size)
{
	const char *top = getenv("TOP");
	struct cs_error err;
	struct scenario s;
	json_error_t jerr;
	double v;
	char why[4096] = "";
	json_t *doc;
	if (rows[i].file != NULL) {
		snprintf(path, size, "%s/scenarios/validation/%s", top != NULL ? top : ".", rows[i].file);
		doc = scenario_read_json("measurement", path, &err);
		if (doc == NULL)
			fail_msg("%s", err.msg);
	} else {
		snprintf(path, size, "row%zu.json", i);
		doc = json_loads(rows[i].text, 0, &jerr);
		if (doc == NULL)
			fail_msg("row %zu: %s", i, jerr.text);
	}
	if (rows[i].requests > 0)
		json_object_set_new(json_object_get(json_object_get(doc, "workload"), "serving"), "requests",
				    json_integer(rows[i].requests));
	catalog *c = catalog_copy(truth);
	assert_int_equal(scenario_from_json(doc, path, c, &s, &err), 0);
	assert_true(validation_predict(&s, &v, why, sizeof why));
	scenario_release(&s);
	catalog_free(c);
	json_object_set_new(json_object_get(doc, "validation"), "published", json_real(v));
	return doc;
}

static void test_engine_recovery(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct calib_result r;
	struct cs_error err;
	char path[1024];
	for (size_t i = 0; i < N_ROWS; i++)
		measure_set_add(&set, measured_doc(i, path, sizeof path), path, 0);
	assert_int_equal(calib_run(base, &set, 1e-4, &r, &err), 0);
	assert_factor(&r, "trtllm", "gemm_over_mamf", 0.9);
	assert_factor(&r, "trtllm", "kernel_us", 1.4);
	assert_factor(&r, "trtllm", "seq_overhead_us", 2.0);
	assert_factor(&r, "training", "overlap_slowdown", 1.5);
	/* no row runs vLLM: its entry is not a candidate */
	assert_null(find(&r, "vllm-v1", "kernel_us"));
	for (size_t i = 0; i < r.n_points; i++) {
		assert_true(r.points[i].after_ok);
		if (fabs(calib_error_pct(r.points[i].measured, r.points[i].after)) > 0.1)
			fail_msg("%s: after %.6g, measured %.6g", r.points[i].id, r.points[i].after,
				 r.points[i].measured);
	}
	/* The overlay's engines section carries the fitted values with the
	 * calibration's name, and a row computed with it names it. */
	json_t *ov = calib_overlay(&r, "calibrate from test on 2026-01-01");
	json_t *engines = json_object_get(ov, "engines");
	assert_non_null(engines);
	size_t k;
	json_t *e;
	bool seen_trtllm = false;
	json_array_foreach(engines, k, e) {
		assert_string_equal(json_string_value(json_object_get(e, "calibration")), "calibrate from test on 2026-01-01");
		if (strcmp(json_string_value(json_object_get(e, "name")), "trtllm") == 0) {
			seen_trtllm = true;
			assert_true(fabs(json_real_value(json_object_get(e, "kernel_us")) / 7 - 1) < 0.01);
		}
	}
	assert_true(seen_trtllm);
	catalog *cal = catalog_copy(base);
	assert_int_equal(catalog_merge_json(cal, ov, "calibration", "calibration", NULL, &err), 0);
	assert_string_equal(catalog_engine(cal, "trtllm")->calibration, "calibrate from test on 2026-01-01");
	assert_string_equal(catalog_engine(cal, "vllm-v1")->calibration, "");
	catalog_free(cal);
	json_decref(ov);
	calib_result_release(&r);
	measure_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_recovery),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
