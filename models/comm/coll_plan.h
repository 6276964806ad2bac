/*
 * coll_plan: what each collective algorithm does, as a list of phases.
 *
 * The one place that knows the algorithms. For every algorithm and op it
 * says the phases run in order and, for each, which ranks exchange (scope),
 * who sends to whom (pattern), how many steps it takes inside nodes and
 * between them, and the bytes every rank sends. Both fidelities read it:
 * the analytic form costs each phase with latency and bandwidth
 * (collective.c), the flow form starts each phase as flows
 * (collective_run.c). It must never know a topology's speeds nor decide
 * whether an algorithm applies: that is collective_analytic's.
 */
#ifndef CLUSTERSIM_MODELS_COLL_PLAN_H
#define CLUSTERSIM_MODELS_COLL_PLAN_H

#include "models/comm/collective_types.h"

/* Which ranks take part in one exchange of a phase. */
enum coll_plan_scope {
	COLL_PLAN_IN_NODE,   /* the ranks of each node, every node at once */
	COLL_PLAN_ON_RAILS,  /* local rank l of every node, for every l at once (one per rail) */
	COLL_PLAN_ALL,       /* all ranks of the group */
};

/* Who sends to whom, and how bytes_per_rank is spread. */
enum coll_plan_pattern {
	/* Each rank sends to the next. Over all ranks of several nodes, one
	 * channel per local rank c: it enters every node at c, visits the
	 * node's GPUs in order and leaves for the next node from c - 1, each
	 * channel carrying 1/G of the bytes. */
	COLL_PLAN_RING,
	/* Chains inside nodes, NCCL's double binary tree across them (dtree),
	 * reduce up then broadcast down. bytes_per_rank is what a rank inside
	 * one tree and a leaf of the other sends: a quarter on each of its four
	 * tree edges (over the node's rails); a GPU inside its node's chain
	 * sends half of it each way. */
	COLL_PLAN_TREE,
	/* Every rank sends an equal piece to every other rank. */
	COLL_PLAN_PAIRWISE,
	/* Every rank sends all its bytes to the next rank. */
	COLL_PLAN_NEXT,
	/* Every rank sends its bytes into the scale-up switch, which reduces
	 * them and sends as many back (NVLS). */
	COLL_PLAN_SWITCH,
};

/* One phase: it ends when its last byte has arrived. */
struct coll_plan_phase {
	enum coll_plan_scope scope;
	enum coll_plan_pattern pattern;
	double intra_steps;      /* algorithm steps between GPUs of one node */
	double inter_steps;      /* algorithm steps between nodes */
	double bytes_per_rank;   /* what every rank sends in the phase */
};

/* A collective's phases, in order. */
struct coll_plan {
	int phases;
	struct coll_plan_phase phase[COLL_MAX_PHASES];
};

/*
 * The phases of `op` on `bytes` over group g with algorithm `algo` (not
 * ALGO_AUTO; all_to_all and send_recv have one algorithm and ignore it).
 * A group of one rank has one phase with nothing to do. Whether the
 * algorithm suits the op, group and topology is not checked here.
 */
void coll_plan_make(struct coll_plan *plan, const struct collective_group *g, enum collective_op op,
		    enum collective_algo algo, double bytes);

/* Bytes every rank sends over all phases of the plan. */
double coll_plan_bytes_per_rank(const struct coll_plan *plan);

#endif
