/*
 * serve_sim: the request-level serving simulation on the engine (sim/).
 *
 * Requests arrive (Poisson, gamma, offline, closed-loop or a trace; lengths
 * drawn from their own seeded stream) at a router that sends each to a
 * replica (round robin, least outstanding requests, shortest queue). Each
 * replica runs vLLM's iteration-level scheduler: continuous batching under a
 * token budget and a sequence limit, chunked prefill, a paged KV cache of
 * block_tokens blocks, and preemption by recompute when blocks run out. One
 * engine event per batch step per replica. With disaggregation, a request's
 * prefill runs on a prefill replica and its KV cache moves to a decode
 * replica as a flow on the candidate's topology (topology_net), so link
 * bandwidth shows in TTFT and TPOT. Its records (struct serve_pool, struct
 * serve_sim_config, the limits SERVE_SIM_*, enum serve_sim_failure) are in
 * serve_types.h: the simulation's modules (serve_state and those on it)
 * read them there.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_SIM_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/hw/topology.h"
#include "models/serve/serve_cost.h"
#include "models/serve/serve_types.h"

/* Run the load to the end (every sent request finished). Returns 0, or a
 * negative enum serve_sim_failure (-1: a request that can never fit the KV
 * cache) with reason filled when it cannot run. */
int serve_sim_run(const struct serve_sim_config *cfg, struct serve_metrics *out, char *reason,
		  size_t reason_len);

#endif
