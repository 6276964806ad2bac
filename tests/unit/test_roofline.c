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

/* A measured streaming rate scales the HBM efficiency by its fraction of the
 * datasheet over the reference GPU's: a GPU streaming at the reference
 * fraction is unchanged, one streaming at 3.2 of 4 TB/s moves memory-bound
 * bytes at 0.8 / reference x the default; a calibrated efficiency is taken as
 * given; the efficiency never exceeds 1. */
static void test_measured_hbm(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct roofline k;
	gpu(&g);
	g.mem_bw_measured_bytes_per_s = 4e12 * roofline_hbm_reference_fraction;
	roofline_init(&k, &g, PREC_BF16, &defaults);
	assert_close(k.hbm_bytes_per_s, 4e12 * roofline_default_hbm_efficiency, 1e-12);
	g.mem_bw_measured_bytes_per_s = 3.2e12;
	roofline_init(&k, &g, PREC_BF16, &defaults);
	assert_close(k.hbm_bytes_per_s, 4e12 * roofline_default_hbm_efficiency * 0.8 / roofline_hbm_reference_fraction,
		     1e-12);
	struct kernel_calibration cal = defaults;
	cal.hbm_efficiency = 0.5;
	roofline_init(&k, &g, PREC_BF16, &cal);
	assert_close(k.hbm_bytes_per_s, 2e12, 1e-12);
	g.mem_bw_measured_bytes_per_s = 4e12;
	assert_true(roofline_hbm_scale(&g) > 1);
	roofline_init(&k, &g, PREC_BF16, &defaults);
	assert_true(k.hbm_bytes_per_s <= 4e12);
}

/* Training attention: with no measured ratio the attention efficiency stays
 * MAMF x the global attention factor; with one it is the ratio times the
 * in-step BF16 GEMM fraction (MAMF x the GEMM factor), at any GEMM precision;
 * a calibrated attention efficiency is kept; never above 1. */
static void test_training_attention(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct roofline k;
	gpu(&g);
	roofline_init(&k, &g, PREC_FP8, &defaults);
	roofline_training_attention(&k, &g, &defaults);
	assert_close(k.attn_efficiency, 0.8 * roofline_default_attention_factor, 1e-15);
	g.attn_train_over_gemm = 0.666;
	roofline_training_attention(&k, &g, &defaults);
	assert_close(k.attn_efficiency, 0.8 * roofline_default_gemm_factor * 0.666, 1e-15);
	assert_close(k.attn_peak_flops_per_s, 1e15, 0);  /* attention still in 16-bit */
	struct kernel_calibration cal = defaults;
	cal.attention_efficiency = 0.3;
	roofline_init(&k, &g, PREC_BF16, &cal);
	roofline_training_attention(&k, &g, &cal);
	assert_close(k.attn_efficiency, 0.3, 0);
	g.attn_train_over_gemm = 4;
	roofline_training_attention(&k, &g, &defaults);
	assert_close(k.attn_efficiency, 1, 0);
}

/* Overlap: hidden communication costs the slowdown fraction of itself; what
 * compute cannot hide shows in full. */
static void test_overlap(void **state)
{
	(void)state;
	assert_close(roofline_overlap_s(0.3, 1.0, 3.0), 0.3 * 1.0, 1e-15);
	assert_close(roofline_overlap_s(0.3, 5.0, 3.0), 2.0 + 0.3 * 3.0, 1e-15);
	assert_close(roofline_overlap_s(0.3, 0.0, 3.0), 0.0, 0);
}

/* A GPU with 132 SMs (H100 SXM) for the shape model, no launch cost. */
static void tiled(struct roofline *k, struct gpu_spec *g)
{
	static const struct kernel_calibration nolaunch = { .launch_s = 0 };
	gpu(g);
	g->sms = 132;
	roofline_init(k, g, PREC_BF16, &nolaunch);
}

/* Wave quantization: 264 tiles of 128 x 256 fill exactly 2 waves of 132
 * SMs (512 x 16896: 4 x 66 tiles, or 2 x 132 the other way round); 265
 * tiles (640 x 13568: 5 x 53) need a third wave, so at the same K the
 * second takes 3/2 of the first's time, and the first runs at the
 * large-GEMM rate exactly. */
static void test_gemm_waves(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct roofline k;
	tiled(&k, &g);
	double K = 8192;
	double full = roofline_gemm_tiled_s(&k, 512, 16896, K);
	double extra = roofline_gemm_tiled_s(&k, 640, 13568, K);
	assert_close(full, 2 * 512 * 16896 * K / (1e15 * 0.8 * roofline_default_gemm_factor), 1e-12);
	assert_close(roofline_gemm_shape_efficiency(&k, 512, 16896, K), 1.0, 1e-15);
	/* each wave costs one tile's time: 2 K x 128 x 256 FLOPs at a 132th of the rate */
	double wave_s = 2 * K * 128 * 256 * 132 / (1e15 * 0.8 * roofline_default_gemm_factor);
	assert_close(full, 2 * wave_s, 1e-12);
	assert_close(extra, 3 * wave_s, 1e-12);
	assert_close(extra / full, 3.0 / 2.0, 1e-12);
	/* tile quantization: 129 rows take as long as 256 */
	assert_close(roofline_gemm_tiled_s(&k, 129, 132 * 256, K), roofline_gemm_tiled_s(&k, 256, 132 * 256, K), 1e-12);
}

/* A huge GEMM reaches the large-GEMM (MAMF) rate within 1%: 16384^3 is
 * 128 x 64 = 8192 tiles, 62.06 waves of 132, efficiency 62.06/63. */
static void test_gemm_huge(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct roofline k;
	tiled(&k, &g);
	double n = 16384;
	double e = roofline_gemm_shape_efficiency(&k, n, n, n);
	assert_close(e, 8192.0 / (63 * 132), 1e-12);
	assert_true(e > 0.98);
	double flat = 2 * n * n * n / (1e15 * 0.8 * roofline_default_gemm_factor);
	assert_close(roofline_gemm_tiled_s(&k, n, n, n), flat / e, 1e-12);
}

/* A tiny GEMM is memory- or launch-bound: one token through a 4096 x 4096
 * weight splits K to fill the SMs (16 tiles x 8 splits of 512) and still
 * takes the weights' bytes at HBM speed; with a launch cost, 16 x 16 x 16
 * is the launch and one tile on one SM (0.2 us). Without the SM count the shape
 * model is off. */
static void test_gemm_tiny(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct roofline k;
	tiled(&k, &g);
	double bytes = 2.0 * (4096 + 4096.0 * 4096) + 2.0 * 4096;
	assert_close(roofline_gemm_tiled_s(&k, 1, 4096, 4096), bytes / (4e12 * roofline_default_hbm_efficiency), 1e-12);
	roofline_init(&k, &g, PREC_BF16, &defaults);
	double t = roofline_gemm_tiled_s(&k, 16, 16, 16);
	/* one SM computes one padded 128 x 256 x 16 tile: 2^20 FLOPs at 1/132 of the rate */
	assert_close(t, roofline_default_launch_s + 2.0 * 128 * 256 * 16 * 132 / (1e15 * 0.8 * roofline_default_gemm_factor), 1e-12);
	g.sms = 0;
	roofline_init(&k, &g, PREC_BF16, &defaults);
	assert_close(roofline_gemm_tiled_s(&k, 640, 13568, 8192), roofline_gemm_s(&k, 640, 13568, 8192), 1e-15);
}

/* A weight gradient that adds into an fp32 main_grad buffer reads and
 * writes its K x N output (8 bytes an element against 2 written): an
 * expert's 4096 x 3072 gradient over 512 tokens (Qwen3-235B at EP 8,
 * TP 4) is memory-bound that way, and compute-bound written; over 4096
 * tokens it is compute-bound either way. */
static void test_gemm_accumulate(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct roofline k;
	tiled(&k, &g);
	double M = 4096, N = 3072, T = 512;
	double bytes = 2 * (M * T + T * N) + 8 * M * N;
	assert_close(roofline_gemm_accumulate_s(&k, M, N, T, 4), bytes / (4e12 * roofline_default_hbm_efficiency),
		     1e-12);
	double flops_s = 2 * M * N * T / (1e15 * 0.8 * roofline_default_gemm_factor * roofline_gemm_shape_efficiency(&k, M, N, T));
	assert_true(flops_s > (2 * (M * T + T * N) + 2 * M * N) / (4e12 * roofline_default_hbm_efficiency));
	assert_close(roofline_gemm_tiled_s(&k, M, N, T), flops_s, 1e-12);
	/* a bf16 main_grad (4 bytes an element) moves 57.7 MB: under the
	 * 21 us of compute, so compute-bound again */
	assert_true((2 * (M * T + T * N) + 4 * M * N) / (4e12 * roofline_default_hbm_efficiency) < flops_s);
	assert_close(roofline_gemm_accumulate_s(&k, M, N, T, 2), flops_s, 1e-12);
	T = 4096;
	assert_close(roofline_gemm_accumulate_s(&k, M, N, T, 4), roofline_gemm_tiled_s(&k, M, N, T), 1e-12);
}

/* Grouped GEMMs share waves: one 640 x 13568 GEMM is 265 tiles, 3 waves
 * of 132 SMs (the third holds one tile); two grouped are 530 tiles, 5
 * waves where two alone take 6. Sixteen of Qwen3-235B's 512 x 3072 expert
 * GEMMs are 48 tiles each: alone each splits K in 2 (96 of 132 SMs, one
 * wave, 96/132 of the rate); grouped they are 768 tiles in 6 waves
 * (768/792 of the rate). One group is the GEMM alone, and each GEMM keeps
 * its launch. */
static void test_gemm_grouped(void **state)
{
	(void)state;
	struct gpu_spec g;
	struct roofline k;
	tiled(&k, &g);
	double K = 8192, rate = 1e15 * 0.8 * roofline_default_gemm_factor;
	double wave_s = 2 * K * 128 * 256 * 132 / rate;
	assert_close(roofline_gemm_grouped_s(&k, 1, 640, 13568, K, 0), roofline_gemm_tiled_s(&k, 640, 13568, K), 1e-15);
	assert_close(roofline_gemm_grouped_s(&k, 2, 640, 13568, K, 0), 5 * wave_s, 1e-12);
	assert_close(2 * roofline_gemm_tiled_s(&k, 640, 13568, K), 6 * wave_s, 1e-12);
	double flops = 2 * 512 * 3072 * 4096.0;
	assert_close(roofline_gemm_tiled_s(&k, 512, 3072, 4096), flops / (rate * 96.0 / 132), 1e-12);
	assert_close(roofline_gemm_grouped_s(&k, 16, 512, 3072, 4096, 0), 16 * flops / (rate * 768.0 / 792), 1e-12);
	/* one group accumulates as roofline_gemm_accumulate_s; the expert
	 * gradient over 512 tokens into fp32 is memory-bound, which sharing
	 * waves does not change: sixteen of them take sixteen times as long */
	assert_close(roofline_gemm_grouped_s(&k, 1, 4096, 3072, 512, 4), roofline_gemm_accumulate_s(&k, 4096, 3072, 512, 4),
		     1e-15);
	assert_close(roofline_gemm_grouped_s(&k, 16, 4096, 3072, 512, 4),
		     16 * roofline_gemm_accumulate_s(&k, 4096, 3072, 512, 4), 1e-12);
	roofline_init(&k, &g, PREC_BF16, &defaults);
	assert_close(roofline_gemm_grouped_s(&k, 2, 640, 13568, K, 0) - 2 * roofline_default_launch_s, 5 * wave_s, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gemm_compute_bound),
		cmocka_unit_test(test_gemm_memory_bound),
		cmocka_unit_test(test_calibration_and_precision),
		cmocka_unit_test(test_memory_kernels),
		cmocka_unit_test(test_measured_hbm),
		cmocka_unit_test(test_training_attention),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_gemm_waves),
		cmocka_unit_test(test_gemm_huge),
		cmocka_unit_test(test_gemm_tiny),
		cmocka_unit_test(test_gemm_accumulate),
		cmocka_unit_test(test_gemm_grouped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
