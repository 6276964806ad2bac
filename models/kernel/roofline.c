#include "roofline.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/*
 * The global constants of the kernel model, refitted after issue 11's
 * physics to the published runs of scenarios/validation (docs/explanation/calibration.md,
 * "Refit after issue 11": GEMM, attention and HBM over a grid, chosen by the
 * root-mean-square error with every source family weighted alike, checked by
 * holding out each family in turn; launch cost kept; the overlap slowdown
 * refitted later, "Overlap slowdown").
 * Defined as macros only so that tools/calibrate.sh can rebuild with other
 * values.
 */
#ifndef GEMM_FACTOR
#define GEMM_FACTOR 0.79
#endif
#ifndef ATTN_FACTOR
#define ATTN_FACTOR 0.375
#endif
#ifndef HBM_EFF
#define HBM_EFF 0.90
#endif
#ifndef LAUNCH_S
#define LAUNCH_S 10e-6
#endif
/* Bytes per element of a GEMM's output (16-bit). */
#define OUTPUT_BYTES 2.0

/*
 * Global constants of the kernel model (docs/explanation/calibration.md says how each
 * was set). Everything else comes from the catalog.
 */
/* Fraction of HBM bandwidth that memory-bound kernels (norms, activations,
 * residual adds, optimizer) reach. */
const double roofline_default_hbm_efficiency = HBM_EFF;
/* The streaming (STREAM copy) fraction of the datasheet bandwidth on the GPU
 * the HBM efficiencies were fitted on: H100 SXM 2.90 of 3.35 TB/s (Azure ND
 * H100 v5, samuel-bohman/AI-benchmarking-guide Azure_Results, sources.json
 * A03). A GPU with its own measurement scales the efficiencies by its
 * fraction over this one (roofline_hbm_scale). */
const double roofline_hbm_reference_fraction = 2.90 / 3.35;
/* Fixed cost of each kernel: launch, tail and framework dispatch. */
const double roofline_default_launch_s = LAUNCH_S;
/* GEMMs inside a training step reach this fraction of the measured MAMF
 * (which is the best of a sweep of shapes on an idle GPU: real shapes, tile
 * quantization, sustained clocks and concurrent kernels give less). */
const double roofline_default_gemm_factor = GEMM_FACTOR;
/* FlashAttention's efficiency relative to MAMF, forward and backward
 * together: 0.375 x 0.80 = 30% of H100's dense peak (FlashAttention-2
 * measures 35-40% forward and less backward, whose 2.5x FLOPs dominate). */
const double roofline_default_attention_factor = ATTN_FACTOR;

double roofline_hbm_scale(const struct gpu_spec *g)
{
	if (!(g->mem_bw_measured_bytes_per_s > 0) || !(g->mem_bw_bytes_per_s > 0))
		return 1;
	return g->mem_bw_measured_bytes_per_s / g->mem_bw_bytes_per_s / roofline_hbm_reference_fraction;
}

void roofline_training_attention(struct roofline *k, const struct gpu_spec *g,
				 const struct kernel_calibration *cal)
{
	if (cal->attention_efficiency > 0 || !(g->attn_train_over_gemm > 0))
		return;
	double e = g->mamf[PREC_BF16] * roofline_default_gemm_factor * g->attn_train_over_gemm;
	k->attn_efficiency = e < 1 ? e : 1;
}

/* A global HBM efficiency on GPU g, at most 1. */
static double scaled_hbm_efficiency(const struct gpu_spec *g, double eff)
{
	double e = eff * roofline_hbm_scale(g);
	return e < 1 ? e : 1;
}

void roofline_init(struct roofline *k, const struct gpu_spec *g, enum precision pr,
		   const struct kernel_calibration *cal)
{
	enum precision attn_pr = pr == PREC_FP8 || pr == PREC_FP4 ? PREC_BF16 : pr;
	k->peak_flops_per_s = g->peak_flops[pr] > 0 ? g->peak_flops[pr] : g->peak_flops[PREC_BF16];
	k->gemm_efficiency = cal->gemm_efficiency > 0 ? cal->gemm_efficiency
						      : g->mamf[pr] * roofline_default_gemm_factor;
	k->attn_peak_flops_per_s = g->peak_flops[attn_pr] > 0 ? g->peak_flops[attn_pr] : g->peak_flops[PREC_BF16];
	k->attn_efficiency = cal->attention_efficiency > 0 ? cal->attention_efficiency
							   : g->mamf[attn_pr] * roofline_default_attention_factor;
	k->hbm_bytes_per_s = g->mem_bw_bytes_per_s *
			     (cal->hbm_efficiency > 0 ? cal->hbm_efficiency
						      : scaled_hbm_efficiency(g, roofline_default_hbm_efficiency));
	k->launch_s = cal->launch_s >= 0 ? cal->launch_s : roofline_default_launch_s;
	k->operand_bytes = pr == PREC_FP8 ? 1.0 : pr == PREC_FP4 ? 0.5 : 2.0;
	k->sms = g->sms;
}

double roofline_gemm_s(const struct roofline *k, double M, double N, double K)
{
	double flops = 2 * M * N * K;
	double bytes = k->operand_bytes * (M * K + K * N) + OUTPUT_BYTES * M * N;
	double tc = flops / (k->peak_flops_per_s * k->gemm_efficiency), tm = bytes / k->hbm_bytes_per_s;
	return (tc > tm ? tc : tm) + k->launch_s;
}

/* Useful output over the output computed by whole waves of tm x tn tiles
 * (with split-K below one wave), for `groups` identical GEMMs whose tiles
 * share the waves. */
static double tiled_efficiency(double groups, double M, double N, double K, double tm, double tn, int sms)
{
	double tiles = groups * ceil(M / tm) * ceil(N / tn);
	double units = tiles, waves;
	if (tiles < sms) {
		double split = floor(sms / tiles), deepest = floor(K / ROOFLINE_SPLIT_K_MIN);
		if (split > deepest)
			split = deepest;
		if (split < 1)
			split = 1;
		units = tiles * split;
	}
	waves = ceil(units / sms);
	return groups * (M * N) / (tiles * tm * tn) * units / (waves * sms);
}

static double group_efficiency(const struct roofline *k, double groups, double M, double N, double K)
{
	if (k->sms <= 0 || !(M > 0 && N > 0 && K > 0))
		return 1;
	double a = tiled_efficiency(groups, M, N, K, ROOFLINE_TILE_M, ROOFLINE_TILE_N, k->sms);
	double b = tiled_efficiency(groups, M, N, K, ROOFLINE_TILE_N, ROOFLINE_TILE_M, k->sms);
	return a > b ? a : b;
}

double roofline_gemm_shape_efficiency(const struct roofline *k, double M, double N, double K)
{
	return group_efficiency(k, 1, M, N, K);
}

/* Wave and tile quantization: NVIDIA, "Matrix Multiplication Background
 * User's Guide" (Deep Learning Performance documentation), sections on
 * tile and wave quantization: a GEMM runs in whole tiles and in waves of
 * one tile per SM, so its time steps with ceil(tiles / SMs). The output
 * moves out_bytes per element (written, or read and written when it
 * accumulates). `groups` GEMMs of one shape run together, their tiles in
 * common waves, each with its launch. */
static double gemm_tiled_compute_s(const struct roofline *k, double groups, double M, double N, double K,
				   double out_bytes)
{
	double eff = group_efficiency(k, groups, M, N, K);
	double flops = 2 * M * N * K;
	double bytes = k->operand_bytes * (M * K + K * N) + out_bytes * M * N;
	double tc = flops / (k->peak_flops_per_s * k->gemm_efficiency * eff), tm = bytes / k->hbm_bytes_per_s;
	return groups * ((tc > tm ? tc : tm) + k->launch_s);
}

/* A memo of gemm_tiled_compute_s by its whole input: a plan search asks
 * for the same few shapes thousands of times (one per plan with the same
 * tp, micro-batch and cp). Direct-mapped, per thread; a hit returns the
 * very double the computation gave, so answers do not depend on it. */
struct gemm_key {
	struct roofline k;
	double groups, M, N, K, out_bytes;
};
struct gemm_memo_entry {
	bool used;
	struct gemm_key key;
	double s;
};
#define GEMM_MEMO_SIZE 1024
static _Thread_local struct gemm_memo_entry gemm_memo[GEMM_MEMO_SIZE];

static double gemm_tiled_s(const struct roofline *k, double groups, double M, double N, double K, double out_bytes)
{
	struct gemm_key key;
	memset(&key, 0, sizeof key);  /* the padding too: keys compare as bytes */
	key.k.peak_flops_per_s = k->peak_flops_per_s;  /* field by field: *k's padding is not zeroed */
	key.k.gemm_efficiency = k->gemm_efficiency;
	key.k.attn_peak_flops_per_s = k->attn_peak_flops_per_s;
	key.k.attn_efficiency = k->attn_efficiency;
	key.k.hbm_bytes_per_s = k->hbm_bytes_per_s;
	key.k.launch_s = k->launch_s;
	key.k.operand_bytes = k->operand_bytes;
	key.k.sms = k->sms;
	key.groups = groups;
	key.M = M;
	key.N = N;
	key.K = K;
	key.out_bytes = out_bytes;
	/* a word-wise multiplicative hash of the shape and the peak (the full
	 * key is compared) */
	const double hashed[6] = { groups, M, N, K, out_bytes, k->peak_flops_per_s };
	uint64_t h = 0;
	for (int i = 0; i < 6; i++) {
		uint64_t b;
		memcpy(&b, &hashed[i], sizeof b);
		h = (h ^ b) * UINT64_C(0x9e3779b97f4a7c15);
		h ^= h >> 29;
	}
	struct gemm_memo_entry *e = &gemm_memo[h % GEMM_MEMO_SIZE];
	if (e->used && memcmp(&e->key, &key, sizeof key) == 0)
		return e->s;
	e->used = true;
	e->key = key;
	e->s = gemm_tiled_compute_s(k, groups, M, N, K, out_bytes);
	return e->s;
}

double roofline_gemm_tiled_s(const struct roofline *k, double M, double N, double K)
{
	return gemm_tiled_s(k, 1, M, N, K, OUTPUT_BYTES);
}

double roofline_gemm_accumulate_s(const struct roofline *k, double M, double N, double K, double acc_bytes)
{
	return gemm_tiled_s(k, 1, M, N, K, 2 * acc_bytes);
}

double roofline_gemm_grouped_s(const struct roofline *k, double groups, double M, double N, double K, double acc_bytes)
{
	return gemm_tiled_s(k, groups, M, N, K, acc_bytes > 0 ? 2 * acc_bytes : OUTPUT_BYTES);
}

double roofline_memory_s(const struct roofline *k, double bytes, int kernels)
{
	return bytes / k->hbm_bytes_per_s + kernels * k->launch_s;
}

double roofline_overlap_s(double slowdown, double comm_s, double compute_s)
{
	double hidden = comm_s < compute_s ? comm_s : compute_s;
	return (comm_s - hidden) + slowdown * hidden;
}
