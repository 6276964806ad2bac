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

typedef struct flownet flownet;
typedef uint32_t flow_link;
typedef uint64_t flow_id;

/* New network driven by engine e (borrowed). Caller frees with flownet_free(). */
flownet *flownet_new(engine *e);
void flownet_free(flownet *n);

/* Add a link of capacity > 0 bytes/s; returns its id (0, 1, 2 ...). */
flow_link flownet_add_link(flownet *n, double capacity_bytes_per_s);
size_t flownet_link_count(const flownet *n);
double flownet_link_capacity(const flownet *n, flow_link l);

/*
 * Start a flow now over path[0..path_len) (copied; 1..FLOW_PATH_MAX links, a
 * link may not repeat) with weight > 0. bytes >= 0. Returns its id.
 */
flow_id flownet_start(flownet *n, const flow_link *path, int path_len, double bytes,
		      double weight, int64_t latency_ns, struct engine_handler *done, uint64_t arg);

/*
 * Defer re-solving while many flows start at once (a collective step): flows
 * started between begin and end are solved together at end, once.
 */
void flownet_batch_begin(flownet *n);
void flownet_batch_end(flownet *n);

/* Current rate of an active flow (0 once it has finished). */
double flownet_rate(const flownet *n, flow_id f);

/* Number of active flows. */
size_t flownet_active(const flownet *n);

/* Bytes that have crossed link l so far (for conservation checks). */
double flownet_link_bytes(flownet *n, flow_link l);

/* Bytes of all flows that have finished. */
double flownet_delivered_bytes(const flownet *n);

/* Re-solve every active flow from scratch (benchmarks and checks). */
void flownet_resolve_all(flownet *n);

#endif
