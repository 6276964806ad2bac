/*
 * wl_collective: the fields of a collective workload (an nccl-tests style
 * sweep of one operation over message sizes): op, sizes, algorithm and
 * fidelity.
 *
 * Reads only the workload object it is given; never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_WL_COLLECTIVE_H
#define CLUSTERSIM_MODELS_SCENARIO_WL_COLLECTIVE_H

#include "models/scenario/wl_reader.h"

/* The reader of kind "collective" (a wl_read_fn). Allocates
 * w->collective.bytes, which the scenario frees, on success and failure. */
int wl_collective_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		       struct workload_spec *w);

#endif
