#include "coll_plan.h"

#include <assert.h>
#include <math.h>
#include <string.h>

static void add_phase(struct coll_plan *plan, enum coll_plan_scope scope, enum coll_plan_pattern pattern,
		      double intra_steps, double inter_steps, double bytes_per_rank)
{
	assert(plan->phases < COLL_MAX_PHASES);
	plan->phase[plan->phases++] = (struct coll_plan_phase){
		.scope = scope, .pattern = pattern,
		.intra_steps = intra_steps, .inter_steps = inter_steps,
		.bytes_per_rank = bytes_per_rank,
	};
}

/* Share of the buffer each rank of a ring of p sends: all-reduce is a
 * reduce-scatter then an all-gather, a broadcast is pipelined so the whole
 * buffer passes every rank. */
static double ring_share(enum collective_op op, double p)
{
	switch (op) {
	case COLL_ALL_REDUCE: return 2 * (p - 1) / p;
	case COLL_BROADCAST: return 1.0;
	default: return (p - 1) / p;
	}
}

/* Steps of a ring of p ranks. */
static double ring_steps(enum collective_op op, double p)
{
	return op == COLL_ALL_REDUCE ? 2 * (p - 1) : p - 1;
}

/* One ring over all ranks; it crosses between nodes M times a pass. */
static void plan_ring(struct coll_plan *plan, enum collective_op op, double n, double M, double bytes)
{
	double inter = ring_steps(op, M);
	add_phase(plan, COLL_PLAN_ALL, COLL_PLAN_RING, ring_steps(op, n) - inter, inter, ring_share(op, n) * bytes);
}

/* Reduce up both trees, then broadcast down: twice the depth of the chain
 * inside a node and of the tree across nodes. */
static void plan_tree(struct coll_plan *plan, enum collective_op op, double M, double G, double bytes)
{
	assert(op == COLL_ALL_REDUCE);
	(void)op;
	add_phase(plan, COLL_PLAN_ALL, COLL_PLAN_TREE, 2 * (G - 1), 2 * ceil(log2(M)), 2 * bytes);
}

/* Intra-node reduce-scatter, an inter-node collective of 1/G of the data on
 * every rail at once, intra-node all-gather (all-gather has no first half,
 * reduce-scatter no last). */
static void plan_hierarchical(struct coll_plan *plan, enum collective_op op, double M, double G, double bytes)
{
	double intra = ring_share(COLL_REDUCE_SCATTER, G) * bytes;
	double inter = ring_share(op, M) * bytes / G;
	assert(op == COLL_ALL_REDUCE || op == COLL_REDUCE_SCATTER || op == COLL_ALL_GATHER);
	if (op == COLL_ALL_GATHER)
		add_phase(plan, COLL_PLAN_ON_RAILS, COLL_PLAN_RING, 0, ring_steps(op, M), inter);
	if (op != COLL_ALL_GATHER) {
		add_phase(plan, COLL_PLAN_IN_NODE, COLL_PLAN_RING, G - 1, 0, intra);
		add_phase(plan, COLL_PLAN_ON_RAILS, COLL_PLAN_RING, 0, ring_steps(op, M), inter);
	}
	if (op != COLL_REDUCE_SCATTER)
		add_phase(plan, COLL_PLAN_IN_NODE, COLL_PLAN_RING, G - 1, 0, intra);
}

void coll_plan_make(struct coll_plan *plan, const struct collective_group *g, enum collective_op op,
		    enum collective_algo algo, double bytes)
{
	double n = g->n, M = g->nodes, G = g->per_node;

	memset(plan, 0, sizeof *plan);
	if (g->n < 2) {
		add_phase(plan, COLL_PLAN_ALL, COLL_PLAN_NEXT, 0, 0, 0);
		return;
	}
	switch (op) {
	case COLL_ALL_TO_ALL:
		/* pairwise exchange (Thakur, Rabenseifner, Gropp 2005): (n-1) alpha + (n-1)/n S/B */
		add_phase(plan, COLL_PLAN_ALL, COLL_PLAN_PAIRWISE, G - 1, n - G, (n - 1) / n * bytes);
		return;
	case COLL_SEND_RECV:
		add_phase(plan, COLL_PLAN_ALL, COLL_PLAN_NEXT, M > 1 ? 0 : 1, M > 1 ? 1 : 0, bytes);
		return;
	default:
		break;
	}
	switch (algo) {
	case ALGO_RING:
		plan_ring(plan, op, n, M, bytes);
		break;
	case ALGO_TREE:
		plan_tree(plan, op, M, G, bytes);
		break;
	case ALGO_HIERARCHICAL:
		plan_hierarchical(plan, op, M, G, bytes);
		break;
	case ALGO_DIRECT:
		/* On a full mesh every rank sends each peer its share at once over
		 * their own link: a reduce-scatter in one step, an all-gather in
		 * one (the one-shot exchange of RCCL on xGMI; sources.json A02). */
		assert(M == 1 && op != COLL_BROADCAST);
		if (op != COLL_ALL_GATHER)
			add_phase(plan, COLL_PLAN_IN_NODE, COLL_PLAN_PAIRWISE, 1, 0, ring_share(COLL_REDUCE_SCATTER, G) * bytes);
		if (op != COLL_REDUCE_SCATTER)
			add_phase(plan, COLL_PLAN_IN_NODE, COLL_PLAN_PAIRWISE, 1, 0, ring_share(COLL_ALL_GATHER, G) * bytes);
		break;
	case ALGO_NVLS:
		/* the buffer passes the switch in G - 1 steps */
		assert(op == COLL_ALL_REDUCE);
		add_phase(plan, COLL_PLAN_IN_NODE, COLL_PLAN_SWITCH, G - 1, 0, bytes);
		break;
	default:
		assert(0 && "coll_plan_make: no such algorithm");
	}
}

double coll_plan_bytes_per_rank(const struct coll_plan *plan)
{
	double sum = 0;
	for (int i = 0; i < plan->phases; i++)
		sum += plan->phase[i].bytes_per_rank;
	return sum;
}
