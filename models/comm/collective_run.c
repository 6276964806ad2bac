/*
 * The flow form of collective.h: a collective's plan (coll_plan) started
 * phase by phase as flows on a flow_net. Each phase waits for its last flow,
 * then for its fixed latency from the analytic cost, then the next starts.
 */
#include "collective.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "models/comm/coll_plan.h"
#include "models/comm/dtree.h"
#include "sim/time.h"
#include "util/container.h"
#include "util/xalloc.h"

/* The flow form of all-to-all makes n^2 flows; beyond this use analytic. */
enum { A2A_FLOW_MAX_RANKS = 512 };

static void start_flow(struct collective_run *cr, long src, long dst, double bytes)
{
	flow_link path[FLOW_PATH_MAX];
	int len;
	if (bytes <= 0 || src == dst)
		return;
	len = topology_net_path(cr->tn, src, dst, path, NULL);
	cr->pending++;
	flow_start(cr->fn, path, len, bytes, 1.0, 0, &cr->flow_done, 0);
}

/* A flow through one port of the switch (NVLS). */
static void start_port_flow(struct collective_run *cr, flow_link l, double bytes)
{
	if (bytes <= 0)
		return;
	cr->pending++;
	flow_start(cr->fn, &l, 1, bytes, 1.0, 0, &cr->flow_done, 0);
}

/* GPU of rank (node k, local l) in the run's list. */
static inline long rank_gpu(const struct collective_run *cr, int k, int l)
{
	return cr->gpus[(size_t)k * cr->g.per_node + l];
}

/* A ring inside each node. */
static void flows_ring_in_nodes(struct collective_run *cr, double W)
{
	int M = cr->g.nodes, G = cr->g.per_node;
	for (int k = 0; k < M; k++)
		for (int l = 0; l < G; l++)
			start_flow(cr, rank_gpu(cr, k, l), rank_gpu(cr, k, (l + 1) % G), W);
}

/* A ring across nodes for every local rank (one per rail). */
static void flows_ring_on_rails(struct collective_run *cr, double W)
{
	int M = cr->g.nodes, G = cr->g.per_node;
	for (int l = 0; l < G; l++)
		for (int k = 0; k < M; k++)
			start_flow(cr, rank_gpu(cr, k, l), rank_gpu(cr, (k + 1) % M, l), W);
}

/* A ring over all ranks: on a mesh node one ring per pair link; across
 * nodes the channels of COLL_PLAN_RING. */
static void flows_ring_all(struct collective_run *cr, double W)
{
	int M = cr->g.nodes, G = cr->g.per_node;
	if (M == 1 && cr->tn->pair != NULL && G > 2) {
		for (int a = 0; a < G; a++)
			for (int b = 0; b < G; b++)
				if (a != b)
					start_flow(cr, rank_gpu(cr, 0, a), rank_gpu(cr, 0, b), W / (G - 1));
		return;
	}
	if (M == 1) {
		flows_ring_in_nodes(cr, W);
		return;
	}
	double per_channel = W / G;
	for (int c = 0; c < G; c++)
		for (int k = 0; k < M; k++) {
			for (int i = 0; i < G - 1; i++)
				start_flow(cr, rank_gpu(cr, k, (c + i) % G), rank_gpu(cr, k, (c + i + 1) % G), per_channel);
			start_flow(cr, rank_gpu(cr, k, (c + G - 1) % G), rank_gpu(cr, (k + 1) % M, c), per_channel);
		}
}

static void flows_ring(struct collective_run *cr, enum coll_plan_scope scope, double W)
{
	switch (scope) {
	case COLL_PLAN_IN_NODE: flows_ring_in_nodes(cr, W); break;
	case COLL_PLAN_ON_RAILS: flows_ring_on_rails(cr, W); break;
	case COLL_PLAN_ALL: flows_ring_all(cr, W); break;
	}
}

/* Chains inside nodes carry half the bytes each way per edge; each tree
 * edge between nodes a quarter each way, over all G rails. */
static void flows_tree(struct collective_run *cr, double B)
{
	int M = cr->g.nodes, G = cr->g.per_node;
	for (int k = 0; k < M; k++)
		for (int l = 0; l + 1 < G; l++) {
			start_flow(cr, rank_gpu(cr, k, l), rank_gpu(cr, k, l + 1), B / 2);
			start_flow(cr, rank_gpu(cr, k, l + 1), rank_gpu(cr, k, l), B / 2);
		}
	for (int which = 0; which < 2; which++)
		for (int k = 0; k < M; k++) {
			int p = dtree_parent(k, M, which);
			if (p < 0)
				continue;
			for (int l = 0; l < G; l++) {
				start_flow(cr, rank_gpu(cr, k, l), rank_gpu(cr, p, l), B / 4 / G);
				start_flow(cr, rank_gpu(cr, p, l), rank_gpu(cr, k, l), B / 4 / G);
			}
		}
}

static void flows_pairwise(struct collective_run *cr, double B)
{
	for (int a = 0; a < cr->n; a++)
		for (int b = 0; b < cr->n; b++)
			if (a != b)
				start_flow(cr, cr->gpus[a], cr->gpus[b], B / (cr->n - 1));
}

static void flows_next(struct collective_run *cr, double B)
{
	for (int a = 0; a < cr->n; a++)
		start_flow(cr, cr->gpus[a], cr->gpus[(a + 1) % cr->n], B);
}

/* Through the switch at NVLS speed: a port link runs at the ring
 * efficiency, so the bytes are scaled to the NVLS rate. */
static void flows_switch(struct collective_run *cr, double B)
{
	const struct topology *t = cr->tn->t;
	double scale = t->su.efficiency / t->nvls_efficiency;
	for (int l = 0; l < cr->n; l++) {
		start_port_flow(cr, cr->tn->gpu_up[cr->gpus[l]], B * scale);
		start_port_flow(cr, cr->tn->gpu_down[cr->gpus[l]], B * scale);
	}
}

/* Start the flows of the current phase of the run's plan. */
static void start_phase(struct collective_run *cr)
{
	struct coll_plan plan;
	coll_plan_make(&plan, &cr->g, cr->op, cr->cost.algo, cr->bytes);
	assert(plan.phases == cr->cost.phases && cr->phase < plan.phases);
	const struct coll_plan_phase *ph = &plan.phase[cr->phase];
	/* A protocol that uses a fraction of the bandwidth puts 1/fraction as
	 * many bytes on the wire. */
	double B = ph->bytes_per_rank / collective_protocol_bw_fraction(cr->cost.proto);

	cr->pending = 0;
	flow_batch_begin(cr->fn);
	switch (ph->pattern) {
	case COLL_PLAN_RING: flows_ring(cr, ph->scope, B); break;
	case COLL_PLAN_TREE: flows_tree(cr, B); break;
	case COLL_PLAN_PAIRWISE: flows_pairwise(cr, B); break;
	case COLL_PLAN_NEXT: flows_next(cr, B); break;
	case COLL_PLAN_SWITCH: flows_switch(cr, B); break;
	}
	flow_batch_end(cr->fn);
}

/* After a phase's flows, its fixed latency. */
static void wait_phase_latency(engine *e, struct collective_run *cr)
{
	engine_after(e, sim_time_from_s(cr->cost.phase_latency_s[cr->phase]), ENGINE_CLASS_DECIDE, &cr->phase_done, 0);
}

/* Start phase cr->phase; with nothing to send, go straight to its latency. */
static void begin_phase(engine *e, struct collective_run *cr)
{
	start_phase(cr);
	if (cr->pending == 0)
		wait_phase_latency(e, cr);
}

static void phase_latency_passed(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct collective_run *cr = container_of(h, struct collective_run, phase_done);
	(void)arg;
	cr->phase++;
	if (cr->phase < cr->cost.phases) {
		begin_phase(e, cr);
		return;
	}
	cr->finished_ns = engine_now(e);
	if (cr->done != NULL)
		engine_after(e, 0, ENGINE_CLASS_DECIDE, cr->done, cr->arg);
}

static void flow_finished(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct collective_run *cr = container_of(h, struct collective_run, flow_done);
	(void)arg;
	assert(cr->pending > 0);
	if (--cr->pending == 0)
		wait_phase_latency(e, cr);
}

int collective_run_start(struct collective_run *cr, const struct topology_net *tn, engine *e, flow_net *fn,
			 const long *gpus, int n, enum collective_op op, const struct coll_cost *cost,
			 double bytes, struct engine_handler *done, uint64_t arg)
{
	const struct topology *t = tn->t;
	int nodes = 1;

	memset(cr, 0, sizeof *cr);
	for (int i = 1; i < n; i++)
		if (topology_node(t, gpus[i]) != topology_node(t, gpus[i - 1]))
			nodes++;
	assert(n % nodes == 0);
	collective_group_make(&cr->g, nodes, n / nodes);
	if (op == COLL_ALL_TO_ALL && n > A2A_FLOW_MAX_RANKS)
		return -1;
	cr->flow_done.fn = flow_finished;
	cr->phase_done.fn = phase_latency_passed;
	cr->tn = tn;
	cr->fn = fn;
	cr->gpus = xcalloc((size_t)n, sizeof *cr->gpus);
	memcpy(cr->gpus, gpus, (size_t)n * sizeof *gpus);
	cr->n = n;
	cr->op = op;
	cr->cost = *cost;
	cr->bytes = bytes;
	cr->done = done;
	cr->arg = arg;
	cr->started_ns = engine_now(e);
	begin_phase(e, cr);
	return 0;
}

void collective_run_release(struct collective_run *cr)
{
	free(cr->gpus);
	cr->gpus = NULL;
}

double collective_simulate(const struct topology *t, enum collective_op op,
			   const struct coll_cost *cost, double bytes)
{
	engine *e = engine_new();
	flow_net *fn = flow_new(e);
	struct topology_net tn;
	struct collective_run cr;
	long *gpus = xcalloc((size_t)t->gpus, sizeof *gpus);
	double result = -1;

	for (long g = 0; g < t->gpus; g++)
		gpus[g] = g;
	topology_net_build(&tn, t, fn);
	if (collective_run_start(&cr, &tn, e, fn, gpus, (int)t->gpus, op, cost, bytes, NULL, 0) == 0) {
		engine_run(e, SIM_TIME_MAX);
		result = sim_time_to_s(cr.finished_ns - cr.started_ns);
		collective_run_release(&cr);
	}
	topology_net_release(&tn);
	free(gpus);
	flow_free(fn);
	engine_free(e);
	return result;
}
