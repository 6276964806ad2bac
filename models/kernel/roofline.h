/*
 * roofline: the kernel-time model training and serving share.
 *
 * A kernel takes the longer of its FLOPs at a fraction of the GPU's dense
 * peak (large GEMMs at the measured MAMF fraction, attention at its own
 * fraction) and its bytes at a fraction of HBM bandwidth, plus a fixed
 * launch cost. The fractions are a few global constants set once
 * (docs/explanation/calibration.md) that a scenario may override with its own
 * measurements.
 *
 * This module knows GPUs and kernels only: it never includes training or
 * serving headers, jansson or the scenario reader.
 */
#ifndef CLUSTERSIM_MODELS_KERNEL_ROOFLINE_H
#define CLUSTERSIM_MODELS_KERNEL_ROOFLINE_H

#include <stdbool.h>

#include "models/hw/hw.h"

/* Kernel-time calibration a user can give from their own measurements;
 * 0 means "use the catalog" (GEMM) or the global default. */
struct kernel_calibration {
	double gemm_efficiency;   /* fraction of dense peak large GEMMs reach */
	double attention_efficiency;
	double hbm_efficiency;    /* fraction of HBM bandwidth memory-bound kernels reach */
	double launch_s;          /* fixed cost per kernel; < 0: the global default */
	bool flash_attention;
	bool fused_cross_entropy; /* the loss fused (Transformer Engine's Triton cross
				   * entropy, Megatron-Core's --cross-entropy-loss-fusion
				   * with --cross-entropy-fusion-impl te); false: unfused */
};

/* The rates one GPU reaches at one precision, calibration applied. */
struct roofline {
	double peak_flops_per_s;       /* dense peak of the GEMM precision */
	double gemm_efficiency;        /* fraction of that peak GEMMs reach */
	double attn_peak_flops_per_s;  /* attention runs in 16-bit */
	double attn_efficiency;
	double hbm_bytes_per_s;        /* reached by memory-bound kernels */
	double launch_s;               /* fixed cost of each kernel */
	double operand_bytes;          /* bytes per element of GEMM operands */
	int sms;                       /* the GPU's SMs (0: not known, no shape model) */
};

/* The rates of GPU g computing in precision pr, with cal's overrides
 * (fields 0 or launch_s < 0 take the catalog and the global defaults). */
void roofline_init(struct roofline *k, const struct gpu_spec *g, enum precision pr,
		   const struct kernel_calibration *cal);

/* Training's attention on GPU g: where the catalog has g's measured ratio
 * of attention (forward and backward) to BF16 GEMM FLOP rates inside a
 * training step (attn_train_over_gemm), k's attention efficiency becomes
 * that ratio times g's in-step BF16 GEMM fraction (mamf_bf16 x the global
 * GEMM factor); unchanged where the catalog has none or cal sets
 * attention_efficiency. Serving keeps roofline_init's (the ratio is of
 * forward-and-backward kernels). */
void roofline_training_attention(struct roofline *k, const struct gpu_spec *g,
				 const struct kernel_calibration *cal);

/* What the global HBM efficiencies are multiplied by on GPU g: its measured
 * streaming fraction of the datasheet bandwidth over the one measured on the
 * GPU they were fitted on (roofline_hbm_reference_fraction); 1 when g has no
 * measurement. */
double roofline_hbm_scale(const struct gpu_spec *g);

/* Seconds of a GEMM of M x K by K x N (16-bit output): the roofline plus a
 * launch. */
double roofline_gemm_s(const struct roofline *k, double M, double N, double K);

/* Seconds of the same GEMM with its shape's efficiency: the output is cut
 * into ROOFLINE_TILE_M x ROOFLINE_TILE_N tiles (either way round, the
 * better), which run in waves of one tile per SM; a GEMM of fewer tiles
 * than SMs splits K to fill them (split-K, at least ROOFLINE_SPLIT_K_MIN
 * deep per split). The compute rate is the large-GEMM rate times
 * (useful output / output computed in whole tiles and waves); the HBM
 * bound and the launch are roofline_gemm_s's. Without the GPU's SM count,
 * roofline_gemm_s. */
double roofline_gemm_tiled_s(const struct roofline *k, double M, double N, double K);

/* roofline_gemm_tiled_s of a GEMM that accumulates into its M x N output
 * of acc_bytes elements (C = A B + C: each read and written, as a weight
 * gradient GEMM adds into Megatron's main_grad buffer with
 * gradient-accumulation fusion). */
double roofline_gemm_accumulate_s(const struct roofline *k, double M, double N, double K, double acc_bytes);

/* `groups` GEMMs of one shape run as one grouped GEMM (Megatron-Core's
 * grouped experts: TE's GroupedLinear issues them on several streams at
 * once, CUTLASS's grouped kernel in one launch), their tiles sharing the
 * waves, so only the group's last wave is partly empty; one launch cost
 * each. The weight gradient's accumulation as roofline_gemm_accumulate_s
 * when acc_bytes > 0. groups 1 is roofline_gemm_tiled_s (or _accumulate_s). */
double roofline_gemm_grouped_s(const struct roofline *k, double groups, double M, double N, double K, double acc_bytes);

/* The shape's efficiency of roofline_gemm_tiled_s, in (0, 1] (1 without
 * the SM count). */
double roofline_gemm_shape_efficiency(const struct roofline *k, double M, double N, double K);

/* The tile of the large-GEMM kernels (CUTLASS's and cuBLAS's 128 x 256 x 64
 * warp-specialized tensor-core tile on Hopper), and the shallowest split of K. */
#define ROOFLINE_TILE_M 128.0
#define ROOFLINE_TILE_N 256.0
#define ROOFLINE_SPLIT_K_MIN 256.0

/* Seconds of `kernels` memory-bound kernels moving `bytes` in all. */
double roofline_memory_s(const struct roofline *k, double bytes, int kernels);

/* Seconds that communication of comm_s overlapped with compute of
 * compute_s adds: the part compute does not hide, plus `slowdown` times the
 * hidden part (computation loses the SMs the communication's kernels hold:
 * the training engine's overlap_slowdown, workload_model.h). */
double roofline_overlap_s(double slowdown, double comm_s, double compute_s);

/* Global defaults of the kernel model (docs/explanation/calibration.md). */
extern const double roofline_default_hbm_efficiency;
extern const double roofline_hbm_reference_fraction;
extern const double roofline_default_launch_s;
extern const double roofline_default_attention_factor;
extern const double roofline_default_gemm_factor;

#endif
