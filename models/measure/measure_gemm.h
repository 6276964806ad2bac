/*
 * measure_gemm: a GEMM sweep as measurements: a CSV with a header naming
 * the shape (m, n, k), the number format (dtype, precision, a_type or
 * d_type) and a rate (TFLOP/s, or GFLOP/s as hipblaslt-bench, hipblas-bench
 * and rocblas-bench print it), one row per shape; or mamf-finder.py's text
 * report, one shape per progress record. Each shape becomes a `gemm`
 * workload on the --on scenario's first candidate whose validation block
 * holds the measured rate (metric gemm_tflops). The columns and names the
 * real tools write are in docs/reference/gemm-sweeps.md.
 *
 * Reads only the text it is given; never prints.
 */
#ifndef CLUSTERSIM_MODELS_MEASURE_MEASURE_GEMM_H
#define CLUSTERSIM_MODELS_MEASURE_MEASURE_GEMM_H

#include "models/measure/measure.h"

/* The format's entry for measure.c's table: name "gemm-sweep", needs --on. */
extern const struct measure_format measure_format_gemm_csv;

#endif
