/* A benchmark GEMM against closed forms: a large shape whose tiles fill
 * whole waves runs at peak x MAMF (no in-step GEMM factor); a tall-skinny
 * one is bound by HBM; a precision the GPU lacks is unsupported. */
#include "testutil.h"

#include <string.h>

#include "models/kernel/gemm_bench.h"
#include "models/kernel/roofline.h"

/* A made-up GPU with H100 SXM's round figures: 132 SMs, 989 TFLOP/s BF16 at
 * MAMF 0.8, 1979 FP8 at 0.7, 3.35 TB/s, no FP4 and no HBM measurement. */
static void gpu(struct gpu_spec *g)
{
	memset(g, 0, sizeof *g);
	snprintf(g->id.name, sizeof g->id.name, "test-gpu");
	g->sms = 132;
	g->mem_bw_bytes_per_s = 3.35e12;
	g->peak_flops[PREC_BF16] = 989e12;
	g->peak_flops[PREC_FP8] = 1979e12;
	g->mamf[PREC_BF16] = 0.8;
	g->mamf[PREC_FP8] = 0.7;
}

/* 16896 x 8192 output is 132 x 32 tiles of 128 x 256: 32 whole waves on
 * 132 SMs, shape efficiency exactly 1: time = 2mnk / (peak x mamf) + launch. */
static void test_large_shape_runs_at_mamf(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct gemm_point p;
	gpu(&g);
	double m = 16896, n = 8192, k = 8192;
	gemm_bench_point(&g, PREC_BF16, m, n, k, &p);
	assert_int_equal(p.outcome.status, OUTCOME_OK);
	assert_close(p.shape_efficiency, 1.0, 1e-15);
	double want_s = 2 * m * n * k / (989e12 * 0.8) + roofline_default_launch_s;
	assert_close(p.time_s, want_s, 1e-12);
	assert_close(p.flops_per_s, 2 * m * n * k / want_s, 1e-12);
	assert_close(p.mamf, 0.8, 1e-15);
	assert_false(p.hbm_bound);
	/* FP8: its own peak and fraction */
	gemm_bench_point(&g, PREC_FP8, m, n, k, &p);
	assert_close(p.time_s, 2 * m * n * k / (1979e12 * 0.7) + roofline_default_launch_s, 1e-12);
}

/* m = 16 of 8192 x 8192: 32 tiles (128 x 256) split 4 ways over K fill 128
 * of 132 SMs, each tile 1/8 useful: shape efficiency 16 x 8192 / (32 x 128 x
 * 256) x 128 / 132. Its compute takes less than reading the 8192 x 8192
 * weights, so HBM sets the time: 2 bytes x (mk + kn + mn) at 3.35 TB/s x
 * the HBM efficiency, plus the launch. */
static void test_tall_skinny_is_hbm_bound(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct gemm_point p;
	gpu(&g);
	double m = 16, n = 8192, k = 8192;
	gemm_bench_point(&g, PREC_BF16, m, n, k, &p);
	assert_close(p.shape_efficiency, m * n / (32 * 128 * 256.0) * 128 / 132, 1e-12);
	double bytes = 2 * (m * k + k * n + m * n);
	double want_s = bytes / (3.35e12 * roofline_default_hbm_efficiency) + roofline_default_launch_s;
	assert_close(p.time_s, want_s, 1e-12);
	assert_true(p.hbm_bound);
}

/* A mid shape below one wave and not HBM-bound: the compute rate times the
 * shape efficiency. 1024^2 output is 32 tiles, split 4 ways over K = 4096. */
static void test_small_shape_efficiency(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct gemm_point p;
	gpu(&g);
	double m = 1024, n = 1024, k = 4096;
	gemm_bench_point(&g, PREC_BF16, m, n, k, &p);
	double eff = 128.0 / 132;
	assert_close(p.shape_efficiency, eff, 1e-12);
	assert_false(p.hbm_bound);
	assert_close(p.time_s, 2 * m * n * k / (989e12 * 0.8 * eff) + roofline_default_launch_s, 1e-12);
}

/* FP4 where the GPU has no FP4 rate: unsupported, naming it, no figures. */
static void test_missing_precision_unsupported(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct gemm_point p;
	gpu(&g);
	gemm_bench_point(&g, PREC_FP4, 4096, 4096, 4096, &p);
	assert_int_equal(p.outcome.status, OUTCOME_UNSUPPORTED);
	assert_non_null(strstr(p.outcome.reason, "test-gpu has no fp4"));
	assert_true(p.time_s == 0 && p.flops_per_s == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_large_shape_runs_at_mamf),
		cmocka_unit_test(test_tall_skinny_is_hbm_bound),
		cmocka_unit_test(test_small_shape_efficiency),
		cmocka_unit_test(test_missing_precision_unsupported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
