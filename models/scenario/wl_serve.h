/*
 * wl_serve: the fields of an inference workload: its model and kernels (as
 * training reads them) and the `serving` block: arrivals (poisson, gamma,
 * offline, closed-loop or a request trace), prompt and output lengths
 * (fixed, a distribution or a histogram), how the load ends, the replicas
 * and their parallelism, precisions, the memory fraction and step
 * overhead, the router, the scheduler, SLOs and disaggregation
 * (docs/explanation/serving.md).
 *
 * Reads only the workload object it is given, except a request trace
 * (process "trace"), which it reads (serve_trace.h) into a struct
 * serve_trace that w->serving.trace_requests points to; wl_serve_release()
 * frees it. Never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_WL_SERVE_H
#define CLUSTERSIM_MODELS_SCENARIO_WL_SERVE_H

#include "models/scenario/wl_reader.h"

/* The reader of kind "inference" (a wl_read_fn). */
int wl_serve_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		  struct workload_spec *w);

/* Free what wl_serve_read() allocated in *w (the request trace); safe on
 * any workload and twice. */
void wl_serve_release(struct workload_spec *w);

#endif
