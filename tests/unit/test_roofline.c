/* The roofline against closed forms: compute-bound and memory-bound GEMMs,
 * memory-bound kernels, the calibration overrides and overlap. */
#include "testutil.h"

#include <string.h>

#include "models/kernel/roofline.h"

/* A made-up GPU with round numbers: 1 PFLOP/s bf16, 2 PFLOP/s fp8, 4 TB/s. */
static void gpu(struct gpu_spec *g)
{
	memset(g, 0, sizeof *g);
	g->mem_bw_bytes_per_s = 4e12;
	g->peak_flops[PREC_BF16] = 1e15;
	g->peak_flops[PREC_FP8] = 2e15;
	g->mamf[PREC_BF16] = 0.8;
	g->mamf[PREC_FP8] = 0.6;
}

static const struct kernel_calibration defaults = { .launch_s = -1 };

/* A large square GEMM is compute-bound: 2 n^3 FLOPs at peak x MAMF x the
 * GEMM factor, plus one launch. */
static void test_gemm_compute_bound(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct roofline k;
	gpu(&g);
	roofline_init(&k, &g, PREC_BF16, &defaults);
	double n = 8192;
	double want = 2 * n * n * n / (1e15 * 0.8 * roofline_default_gemm_factor) + roofline_default_launch_s;
	assert_close(roofline_gemm_s(&k, n, n, n), want, 1e-12);
}

/* A matrix-vector product is memory-bound: the K x N weights (2 bytes
 * each), the input and the output at HBM bandwidth x efficiency. */
static void test_gemm_memory_bound(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct roofline k;
	gpu(&g);
	roofline_init(&k, &g, PREC_BF16, &defaults);
	double N = 8192, K = 4096;
	double bytes = 2 * (K + K * N) + 2 * N;
	double want = bytes / (4e12 * roofline_default_hbm_efficiency) + roofline_default_launch_s;
	assert_close(roofline_gemm_s(&k, 1, N, K), want, 1e-12);
}

/* The scenario's calibration replaces the defaults; fp8 GEMMs use the fp8
 * peak while attention falls back to 16-bit. */
static void test_calibration_and_precision(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct roofline k;
	const struct kernel_calibration cal = { .gemm_efficiency = 0.5, .attention_efficiency = 0.25,
						.hbm_efficiency = 0.9, .launch_s = 0 };
	gpu(&g);
	roofline_init(&k, &g, PREC_FP8, &cal);
	assert_close(k.peak_flops_per_s, 2e15, 0);
	assert_close(k.attn_peak_flops_per_s, 1e15, 0);
	assert_close(k.operand_bytes, 1.0, 0);
	double n = 16384;
	assert_close(roofline_gemm_s(&k, n, n, n), 2 * n * n * n / (2e15 * 0.5), 1e-12);
	assert_close(roofline_memory_s(&k, 9e9, 5), 9e9 / (4e12 * 0.9), 1e-12);

	roofline_init(&k, &g, PREC_FP8, &defaults);
	assert_close(k.gemm_efficiency, 0.6 * roofline_default_gemm_factor, 1e-15);
	assert_close(k.attn_efficiency, 0.8 * roofline_default_attention_factor, 1e-15);
}

/* Memory-bound kernels: bytes at the reached bandwidth plus a launch each. */
static void test_memory_kernels(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct roofline k;
	gpu(&g);
	roofline_init(&k, &g, PREC_BF16, &defaults);
	assert_close(roofline_memory_s(&k, 1e9, 3),
		     1e9 / (4e12 * roofline_default_hbm_efficiency) + 3 * roofline_default_launch_s, 1e-12);
}

/* Overlap: hidden communication costs the slowdown fraction of itself; what
 * compute cannot hide shows in full. */
static void test_overlap(void **state)
{
	(void)state;
	assert_close(roofline_overlap_s(1.0, 3.0), roofline_overlap_slowdown * 1.0, 1e-15);
	assert_close(roofline_overlap_s(5.0, 3.0), 2.0 + roofline_overlap_slowdown * 3.0, 1e-15);
	assert_close(roofline_overlap_s(0.0, 3.0), 0.0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gemm_compute_bound),
		cmocka_unit_test(test_gemm_memory_bound),
		cmocka_unit_test(test_calibration_and_precision),
		cmocka_unit_test(test_memory_kernels),
		cmocka_unit_test(test_overlap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
