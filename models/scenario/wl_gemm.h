/*
 * wl_gemm: the fields of a gemm workload (one standalone GEMM per shape, as
 * a GEMM benchmark measures it): m, n and k, each a number or a list.
 *
 * Reads only the workload object it is given; never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_WL_GEMM_H
#define CLUSTERSIM_MODELS_SCENARIO_WL_GEMM_H

#include "models/scenario/wl_reader.h"

/* The reader of kind "gemm" (a wl_read_fn). Allocates nothing. */
int wl_gemm_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		 struct workload_spec *w);

#endif
