/*
 * collective: what NCCL-style collectives cost on a topology.
 *
 * Two fidelities that agree on symmetric traffic:
 * - analytic: an alpha-beta form. Time = fixed latency (a per-collective
 *   base plus per-step latency: hop latency + protocol overhead, per NCCL's
 *   tuning model) + the bytes each rank must move over its bottleneck
 *   resource (scale-up port, NIC rail, leaf uplink) at the rate collectives
 *   reach there. Two protocols are modelled, LL (low latency, a quarter of
 *   the bandwidth) and Simple (full bandwidth, higher per-step latency);
 *   the cheaper one is used, which makes small messages latency-bound.
 * - flows: the same collective turned into flows over a topo_net, sharing
 *   links by max-min fairness with whatever else is running (oversubscribed
 *   spines, several groups on one rail, checkpoint traffic).
 *
 * Algorithms: ring (multi-channel, one channel per rail across nodes),
 * double binary tree (across nodes, chains inside), hierarchical (intra
 * reduce-scatter, inter all-reduce of 1/G of the data on every rail at once,
 * intra all-gather), NVLS (the NVSwitch reduces), pairwise all-to-all, and
 * point-to-point. ALGO_AUTO picks the fastest applicable, as NCCL does.
 * Sizes follow nccl-tests: for all-gather and reduce-scatter the size is
 * the whole buffer (n x the per-rank part).
 *
 * What each algorithm does (its phases, their steps and bytes) is said once,
 * in coll_plan.h; collective.c costs it, collective_run.c runs it as flows.
 * The records both read (ops, algorithms, groups, costs) are in
 * collective_types.h.
 * Neither may know an algorithm's shape on its own, and nothing here reads
 * scenarios or writes results.
 */
#ifndef CLUSTERSIM_MODELS_COLLECTIVE_H
#define CLUSTERSIM_MODELS_COLLECTIVE_H

#include <stdbool.h>

#include "models/comm/collective_types.h"
#include "models/hw/hw.h"
#include "models/hw/topology.h"
#include "sim/engine.h"
#include "sim/flow.h"

/* Share of a link's bandwidth that protocol pr reaches (LL 1/4, Simple 1). */
double collective_protocol_bw_fraction(enum coll_protocol pr);

/* All GPUs of a topology. */
void collective_group_all(struct collective_group *g, const struct topology *t);

/* A group of `per_node` ranks on each of `nodes` nodes. */
void collective_group_make(struct collective_group *g, int nodes, int per_node);

/* nccl-tests bus-bandwidth factor: busbw = algbw x factor. */
double collective_busbw_factor(enum collective_op op, int n);

/* The algorithm's name in results ("ring", "tree", ..., "pairwise", "p2p"). */
const char *collective_algo_label(enum collective_op op, enum collective_algo a);

/*
 * Analytic cost of one collective of `bytes` on group g. With ALGO_AUTO the
 * fastest applicable algorithm is chosen. Returns false (with *why_not set
 * to a static sentence) when the algorithm cannot run this op on this group.
 */
bool collective_analytic(const struct topology *t, const struct collective_group *g,
			 enum collective_op op, enum collective_algo algo, double bytes,
			 struct coll_cost *out, const char **why_not);

/*
 * An all-to-all of `bytes` (the nccl-tests size) on g whose inter-node part
 * is thinned to net_scale (0..1) of the uniform exchange on the NICs and leaf
 * uplinks, the scale-up traffic (pieces to peers in the node and the PXN
 * forwards of what arrives) staying whole: MoE dispatch that sends a token
 * once per destination node and fans it out over NVLink there (DeepEP).
 * net_scale 1 is collective_analytic's all-to-all. The NVLink and NIC parts
 * run at once, so the bandwidth term is the larger of them.
 */
bool collective_all_to_all_routed(const struct topology *t, const struct collective_group *g, double bytes,
				  double net_scale, struct coll_cost *out, const char **why_not);

/*
 * A collective in flight as flows. Start it with collective_run_start(); when its
 * last phase ends, `done` runs with `arg`. The run owns a copy of the rank
 * list; release it after completion with collective_run_release().
 */
struct collective_run {
	struct engine_handler flow_done;   /* a flow of the current phase ended */
	struct engine_handler phase_done;  /* a phase's latency has passed */
	const struct topology_net *tn;
	flow_net *fn;
	long *gpus;
	int n;
	struct collective_group g;
	enum collective_op op;
	struct coll_cost cost;
	double bytes;
	int phase;
	long pending;
	struct engine_handler *done;
	uint64_t arg;
	int64_t started_ns;
	int64_t finished_ns;
};

/*
 * Start collective `op` over GPUs gpus[0..n) (ranks in that order; GPUs of a
 * node must be consecutive in the list and every node must hold the same
 * number) with the algorithm and protocol of `cost` (from
 * collective_analytic). Returns 0, or -1 when the flow form is not available
 * for it (all-to-all beyond 512 ranks).
 */
int collective_run_start(struct collective_run *cr, const struct topology_net *tn, engine *e, flow_net *fn,
		   const long *gpus, int n, enum collective_op op, const struct coll_cost *cost,
		   double bytes, struct engine_handler *done, uint64_t arg);

/* Free the run's copy of the rank list; the run may not be in flight. */
void collective_run_release(struct collective_run *cr);

/*
 * Run one collective alone on an idle copy of the cluster as flows and
 * return its time in seconds, or a negative value when the flow form is
 * not available. All GPUs take part.
 */
double collective_simulate(const struct topology *t, enum collective_op op,
			   const struct coll_cost *cost, double bytes);

#endif
