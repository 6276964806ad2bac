/*
 * serve_metrics: a finished serving simulation's figures (struct
 * serve_metrics, serve.h) from its tallies: the latency percentiles, the
 * throughput and goodput over the span from the first arrival to the last
 * completion, the SLO attainment, the busy, FLOP and HBM fractions, and
 * the time means of the KV cache in use and of the requests in the system.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_METRICS_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_METRICS_H

#include "models/serve/serve_state.h"

/* Fill m (zeroed by the caller) from run s; sorts s's inter-token gaps. */
void serve_metrics_fill(struct serve_state *s, struct serve_metrics *m);

#endif
