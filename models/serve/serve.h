/*
 * serve: inference serving's records: the arrival process, prompt and
 * output lengths, the scheduler's limits, the SLO and the replica layout,
 * and what serving a load gives (struct serve_result).
 *
 * The scenario reader fills the spec and checks it (a request trace is read
 * there, into struct serve_trace); serve_run() (serve.c) builds the replicas'
 * step-time model (serve_cost.h), runs the request-level simulation
 * (serve_sim.h) and, with `replicas: "auto"`, searches the fewest replicas
 * that meet the SLO. Nothing here reads files or includes jansson. The
 * records are in serve_types.h, which this header includes.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/hw/hw.h"
#include "models/kernel/roofline.h"
#include "models/kernel/workload_model.h"
#include "models/serve/serve_types.h"
#include "util/outcome.h"

/*
 * Serve the workload's load on cluster c (the workload's model: its
 * architecture, precision and kernel calibration), seeded by (seed, row_id). Fills r; a layout
 * that does not fit (oom) or does not divide (invalid) is a status with a
 * reason, not a crash.
 */
void serve_run(const struct serving_spec *sv, const struct workload_model *model,
	       const struct cluster_spec *c, uint64_t seed, uint64_t row_id, struct serve_result *r);

#endif
