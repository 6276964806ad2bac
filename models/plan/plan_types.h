/*
 * plan_types: the records of a plan search every module of models/plan
 * shares: how far a search has come, why it ended, what became of each
 * shape (struct plan_point), the search's outcome and a serving mix of two
 * GPU types. plan_fate_names and plan_fate_ids are defined in plan.c.
 *
 * Records only, and no other module of the folder: plan_point reads them
 * and plan.h (the entry) includes this header, so callers outside the
 * folder see them through plan.h.
 */
#ifndef CLUSTERSIM_MODELS_PLAN_PLAN_TYPES_H
#define CLUSTERSIM_MODELS_PLAN_PLAN_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "models/eval/result.h"
#include "models/hw/hw.h"

/* How far a search has come, for a progress line. */
struct plan_progress {
	size_t decided;          /* shapes decided (evaluated or ruled out) */
	size_t total;            /* shapes in the space */
	size_t evaluated;        /* shapes evaluated */
	size_t to_evaluate;      /* shapes the bounds left to evaluate (at most; dominance rules out more) */
	double work;             /* plans tried, weighted by their GPUs (plan_work_weight), so far */
};

/* Why a search ended. Every value but PLAN_STOP_DONE leaves the outcome
 * without a front (n_front 0) and stop_reason saying why, with the figures. */
enum plan_stop {
	PLAN_STOP_DONE,
	PLAN_STOP_SHAPES,        /* more than shapes_max shapes to evaluate */
	PLAN_STOP_SHAPE_GPUS,    /* a shape to evaluate has more than shape_gpus_max GPUs */
	PLAN_STOP_WORK,          /* the weighted plans would pass work_max */
	PLAN_STOP_INTERRUPTED    /* the progress callback said stop */
};

/* What became of a shape, in the order plan_search decides it. */
enum plan_fate {
	PLAN_EVALUATED,      /* evaluated: result says how it went */
	PLAN_UNRESOLVED,     /* the catalog cannot make it (no such price, a GPU or provider left out) */
	PLAN_UNPRICED,       /* no price: it cannot be compared on cost */
	PLAN_NO_MEMORY,      /* all its GPUs' memory cannot hold weights, gradients and optimizer states */
	PLAN_PAST_DEADLINE,  /* its wall-time lower bound exceeds the deadline */
	PLAN_OVER_BUDGET,    /* its cost lower bound exceeds the budget */
	PLAN_DOMINATED,      /* a shape evaluated is faster and cheaper than its lower bounds */
	PLAN_FATE_COUNT
};
extern const char *const plan_fate_names[];
/* The same, as one word each for a column: evaluated, unresolved, unpriced,
 * no_memory, past_deadline, over_budget, dominated. */
extern const char *const plan_fate_ids[];

struct plan_point {
	enum plan_fate fate;
	char name[CAT_TEXT_MAX];           /* the shape's (candidate) name */
	char gpu[CAT_NAME_MAX];
	int nodes;
	long gpus;
	enum price_type price_type;        /* the price type it has or, unresolved, asks for */
	char price_term[CAT_NAME_MAX];     /* resolved: its price's commitment term ("" none) */
	double preemptions_per_instance_h; /* a spot price's, < 0: none */
	double time_lb_s, cost_lb_usd;     /* the lower bounds (0: none) */
	double mem_need_bytes, mem_have_bytes; /* the memory bound's figures (PLAN_NO_MEMORY) */
	char note[512];                    /* unresolved or unpriced: why, in words */
	struct result result;              /* PLAN_EVALUATED only */
	bool feasible;                     /* ok, priced, and meets the objective at P50 */
	bool front_p50, front_p90;         /* on the front of the feasible points */
	long beaten_by;                    /* a feasible point that dominates it (PLAN_DOMINATED: its
					    * bounds; evaluated: its P50 figures), or -1 */
	bool same_deployment;              /* serving: beaten_by deploys the same replicas */
	int rank;                          /* 1, 2 ... on the P50 front by cost; 0 off it */
};

struct plan_outcome {
	struct plan_point *points;         /* one per shape, in shape order; owned */
	size_t n;
	size_t fate_count[PLAN_FATE_COUNT];
	size_t ok;                         /* evaluated and ok with a cost */
	size_t *front;                     /* owned: points on the P50 front by rank, then P90-only ones */
	size_t n_front, n_front_p50;
	bool objective_given;
	bool objective_met;                /* some shape meets it; else the front ignores it */
	long cheapest, fastest;            /* on the P50 front (-1: none); fastest follows the tie rule */
	long fastest_strict;               /* the least P50 time on the front, ties or not */
	struct objective_spec objective;   /* the one the front is of (none when objective_met is false) */
	double tie_tolerance;              /* the fraction used (0: none) */
	int trials;                        /* Monte Carlo trials a random run draws */
	bool serving;                      /* an inference workload */
	double slo_ttft_p99_ms, slo_tpot_p99_ms; /* serving: the SLO (0: none) */
	enum plan_stop stop;
	char stop_reason[1024];             /* unless PLAN_STOP_DONE: why, with the numbers and how to narrow */
	struct plan_progress progress;     /* where the search was when it ended */
};

/*
 * Serving: a mix of two GPU types may be cheaper than either alone at the
 * same SLO (Griggs et al. 2024, Melange), because a type's replicas come
 * in whole numbers. A mix sends each request to part A with probability
 * `share` and to part B otherwise: thinning a Poisson stream gives two
 * independent Poisson streams (rates share x and (1 - share) x the rate),
 * each simulated on its own shape with its own replicas. The mix's TTFT
 * (TPOT) distribution is the share-weighted mixture of the parts', whose
 * 99th percentile is at most the larger of theirs, so a mix whose parts
 * both meet the SLO meets it. Only Poisson arrivals run for a duration,
 * not disaggregated.
 */
struct plan_mix {
	bool searched;
	char why_not[160];                 /* when not searched */
	int types;                         /* GPU types that meet the SLO alone */
	int simulated;                     /* mixes simulated */
	bool found;                        /* a mix cheaper than every single type */
	size_t shape[2];                   /* the parts' shapes (points of the outcome) */
	int replicas[2];
	double share[2];                   /* of the requests */
	double usd_per_hour[2];
	double ttft_p99_ms[2], tpot_p99_ms[2];
	double single_usd_per_hour;        /* the cheapest single type's */
};

#endif
