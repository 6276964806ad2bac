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
 * bandwidth shows in TTFT and TPOT.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_SIM_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/hw/topology.h"
#include "models/serve/serve.h"
#include "models/serve/serve_cost.h"

/* Replicas of one kind: how many, their step model, and where their GPUs
 * are (replica i holds GPUs first_gpu + i x gpus_per_replica ...). */
struct serve_pool {
	int replicas;
	struct serve_step_model model;
	long first_gpu;
	int gpus_per_replica;
};

/*
 * The most requests one simulation serves. The scenario reader refuses a
 * load that asks for more (`requests`, rate_per_s x duration_s, a trace's
 * rows); a run that sends more than SERVE_SIM_REQUESTS_STOP (a closed loop
 * for a duration, whose count is known only as it runs, or a Poisson count
 * far above its mean: 5% over 2e7 is 220 standard deviations) stops with
 * SERVE_SIM_TOO_LONG.
 */
#define SERVE_SIM_REQUESTS_MAX 20000000L
#define SERVE_SIM_REQUESTS_STOP (SERVE_SIM_REQUESTS_MAX + SERVE_SIM_REQUESTS_MAX / 20)

/* Bytes a request holds at most while a simulation runs, for the reader's
 * memory check: its record (88 bytes) and its three latency samples (24),
 * each array up to twice its length while it grows, and a share of the
 * inter-token gaps kept (measured: 115 MB for 1e6 requests, 110 each). */
#define SERVE_SIM_BYTES_PER_REQUEST 256.0

/* The most engine events one simulation runs (SERVE_SIM_TOO_LONG past it). */
#define SERVE_SIM_MAX_EVENTS UINT64_C(2000000000)

struct serve_sim_config {
	const struct serving_spec *sv;
	bool disaggregated;
	struct serve_pool colocated;          /* !disaggregated */
	struct serve_pool prefill, decode;    /* disaggregated */
	const struct topology *topo;          /* disaggregated: the KV transfers' links */
	uint64_t seed, row_id;
	long max_requests;                    /* stop past this many (0: SERVE_SIM_REQUESTS_STOP; the tests' less) */
};

/* Why serve_sim_run could not run a load (its negative returns; added
 * beside the original -1 so that serve_run can give the right status). */
enum serve_sim_failure {
	SERVE_SIM_KV = -1,            /* a request can never fit a replica's KV cache */
	SERVE_SIM_UNSCHEDULABLE = -2, /* a configuration no step can serve (a prompt over the budget) */
	SERVE_SIM_TOO_LONG = -3       /* past the event or request limit */
};

/* Run the load to the end (every sent request finished). Returns 0, or a
 * negative enum serve_sim_failure (-1: a request that can never fit the KV
 * cache) with reason filled when it cannot run. */
int serve_sim_run(const struct serve_sim_config *cfg, struct serve_metrics *out, char *reason,
		  size_t reason_len);

#endif
