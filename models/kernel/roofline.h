/*
 * roofline: the kernel-time model training and serving share.
 *
 * A kernel takes the longer of its FLOPs at a fraction of the GPU's dense
 * peak (large GEMMs at the measured MAMF fraction, attention at its own
 * fraction) and its bytes at a fraction of HBM bandwidth, plus a fixed
 * launch cost. The fractions are a few global constants set once
 * (docs/calibration.md) that a scenario may override with its own
 * measurements.
 */
#ifndef CLUSTERSIM_MODELS_KERNEL_ROOFLINE_H
#define CLUSTERSIM_MODELS_KERNEL_ROOFLINE_H

#include <stdbool.h>

/* Kernel-time calibration a user can give from their own measurements;
 * 0 means "use the catalog" (GEMM) or the global default. */
struct kernel_calibration {
	double gemm_efficiency;   /* fraction of dense peak large GEMMs reach */
	double attention_efficiency;
	double hbm_efficiency;    /* fraction of HBM bandwidth memory-bound kernels reach */
	double launch_s;          /* fixed cost per kernel; < 0: the global default */
	bool flash_attention;
};

#endif
