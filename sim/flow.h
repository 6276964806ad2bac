/*
 * flow: flow-level bandwidth sharing over links, driven by the engine.
 *
 * A flow moves a number of bytes over a path of links. All active flows
 * share link capacity by weighted max-min fairness, computed by progressive
 * filling: the link whose fair share (remaining capacity / weight of the
 * flows still unfixed on it) is smallest fixes those flows at that share,
 * and so on. When a flow starts or ends, only the part of the flow/link
 * graph it touches (the connected component through shared links) is
 * re-solved; flows whose rate changes have their remaining bytes brought up
 * to date and their completion event moved in the queue.
 *
 * A flow's `done` handler runs `latency_ns` after its last byte left: a
 * lone flow on an idle link takes latency + bytes / capacity. Completions at
 * one instant are re-solved together, once, before any `done` handler of
 * that instant runs. Capacities are bytes per second. The module knows
 * nothing of GPUs or networks.
 */
#ifndef CLUSTERSIM_SIM_FLOW_H
#define CLUSTERSIM_SIM_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "sim/engine.h"

/* Longest path a flow may take (GPU, NIC, leaf, spine, leaf, NIC, GPU ...). */
#define FLOW_PATH_MAX 8

typedef struct flow_net flow_net;
typedef uint32_t flow_link;
typedef uint64_t flow_id;

/* New network driven by engine e (borrowed). Caller frees with flow_free(). */
flow_net *flow_new(engine *e);
void flow_free(flow_net *n);

/* Add a link of capacity > 0 bytes/s; returns its id (0, 1, 2 ...). */
flow_link flow_add_link(flow_net *n, double capacity_bytes_per_s);
size_t flow_link_count(const flow_net *n);
double flow_link_capacity(const flow_net *n, flow_link l);

/*
 * Start a flow now over path[0..path_len) (copied; 1..FLOW_PATH_MAX links, a
 * link may not repeat) with weight > 0. bytes >= 0. Returns its id.
 */
flow_id flow_start(flow_net *n, const flow_link *path, int path_len, double bytes,
		      double weight, int64_t latency_ns, struct engine_handler *done, uint64_t arg);

/*
 * Defer re-solving while many flows start at once (a collective step): flows
 * started between begin and end are solved together at end, once.
 */
void flow_batch_begin(flow_net *n);
void flow_batch_end(flow_net *n);

/* Current rate of an active flow (0 once it has finished). */
double flow_rate(const flow_net *n, flow_id f);

/* Number of active flows. */
size_t flow_active(const flow_net *n);

/* Bytes that have crossed link l so far (for conservation checks). */
double flow_link_bytes(flow_net *n, flow_link l);

/* Bytes of all flows that have finished. */
double flow_delivered_bytes(const flow_net *n);

/* Re-solve every active flow from scratch (benchmarks and checks). */
void flow_resolve_all(flow_net *n);

#endif
