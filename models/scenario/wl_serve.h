/*
 * wl_serve: the fields of an inference workload: its model and kernels (as
 * training reads them) and the `serving` block: arrivals, prompt and output
 * lengths, duration, replicas and their parallelism, scheduler, SLOs and
 * disaggregation.
 *
 * Reads only the workload object it is given; opens no file (a trace path
 * is only resolved against the scenario file); never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_WL_SERVE_H
#define CLUSTERSIM_MODELS_SCENARIO_WL_SERVE_H

#include "models/scenario/wl.h"

/* The reader of kind "inference" (a wl_read_fn). */
int wl_serve_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		  struct workload_spec *w);

#endif
