/*
 * gemm_bench: what one standalone GEMM of a shape runs at on one GPU, as a
 * GEMM benchmark (stas00/ml-engineering's mamf-finder.py, hipblaslt-bench,
 * cuBLASLt's samples) measures it: the GPU's dense peak at the precision x
 * its catalog MAMF fraction (the benchmark's figure itself: no in-step
 * factor) x the shape's tile and wave efficiency (roofline.h), bounded by
 * HBM, plus a launch (docs/explanation/calibration.md, "A benchmark GEMM").
 *
 * Knows GPUs and kernels only; never reads files or prints.
 */
#ifndef CLUSTERSIM_MODELS_KERNEL_GEMM_BENCH_H
#define CLUSTERSIM_MODELS_KERNEL_GEMM_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "models/hw/hw.h"
#include "util/outcome.h"

/* The most shapes one gemm workload lists. */
enum { GEMM_SHAPES_MAX = 64 };

/* The largest dimension of a GEMM (2^24). */
#define GEMM_DIM_MAX 16777216.0

/* A gemm workload: its shapes (C[m x n] = A[m x k] B[k x n]), one row each;
 * the precision is the workload's. */
struct gemm_spec {
	size_t n_shapes;
	double m[GEMM_SHAPES_MAX], n[GEMM_SHAPES_MAX], k[GEMM_SHAPES_MAX];
};

/* One shape on one GPU. With outcome not ok (a precision the GPU lacks)
 * only the shape and precision are set. */
struct gemm_point {
	struct outcome outcome;
	double m, n, k;
	enum precision precision;
	double flops;              /* 2 m n k */
	double peak_flops_per_s;   /* the GPU's dense peak at the precision */
	double mamf;               /* the catalog's achievable fraction of that peak */
	double shape_efficiency;   /* roofline_gemm_shape_efficiency, in (0, 1] */
	double time_s;             /* one GEMM, launch included */
	double flops_per_s;        /* flops / time_s, as a benchmark reports it */
	bool hbm_bound;            /* the HBM bound, not the compute rate, set the time */
};

/* Shape m x n x k at precision pr on GPU g into *p. */
void gemm_bench_point(const struct gpu_spec *g, enum precision pr, double m, double n, double k,
		      struct gemm_point *p);

#endif
