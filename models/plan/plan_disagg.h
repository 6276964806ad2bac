/*
 * plan_disagg: serving: is disaggregating prefill and decode worth it, in
 * dollars, for this load? After plan_search, for each instance type the
 * search evaluated (a base: one GPU, node, fabric and price, whatever its
 * node count), the cheapest xPyD split (x prefill replicas of prefill tp,
 * y decode replicas of decode tp: the serving model takes a tp per pool)
 * that meets the SLO, simulated as stated pools are (serve_run: prefill
 * on the first GPUs, decode after, each request's KV cache moved over the
 * instance's links), priced like any service (whole instances,
 * evaluate.c), and compared with the cheapest colocated deployment of the
 * same base and of the same provider.
 *
 * The comparison is fair in tp: plan_search serves each shape at the
 * scenario's tp, so the colocated deployments of the other tp sizes are
 * tried here too (the most replicas on fewer instances than the cheapest
 * so far, then bisection down to the fewest that meet the SLO, as
 * serve_run's "auto" does). Splits cost whole instances, so only those on
 * fewer instances than the cheapest colocated one are tried (all up to the
 * base's largest shape when no colocated one meets the SLO). For each
 * pair of tp sizes a staircase walk: start at x = 1 with the most decode
 * replicas the bound allows; a split that meets the SLO is recorded and y
 * drops by one, one that fails moves to x + 1; a split found lowers the
 * bound to the instances below it. The walk assumes that more replicas of
 * either pool never turn a split that meets the SLO into one that does not
 * (checked on a grid in tests/unit/test_plan_disagg.c; not a theorem of
 * the simulation). The split reported is then made locally minimal by
 * simulation: one fewer prefill or decode replica fails the SLO. Pools go
 * on consecutive GPUs (serve.c), so a pair whose decode replicas would
 * straddle two nodes is skipped.
 *
 * Each simulation counts 1 + its requests / 25 towards the plan's work
 * bound (plan.h, PLAN_WORK_MAX, after the search's own work); one that
 * would pass it stops the search with the figures (stopped, stop_reason).
 * Never prints.
 */
#ifndef CLUSTERSIM_MODELS_PLAN_PLAN_DISAGG_H
#define CLUSTERSIM_MODELS_PLAN_PLAN_DISAGG_H

#include <stdbool.h>
#include <stddef.h>

#include "models/hw/hw.h"
#include "models/plan/plan.h"

/* A deployment of one instance type that meets the SLO: colocated
 * (replicas of tp GPUs) or a split (prefill and decode pools). */
struct plan_disagg_deploy {
	bool found;
	long point;                        /* colocated, from plan_search: its point; -1: simulated here */
	int replicas;                      /* colocated: its replicas; a split: prefill + decode */
	int prefill_replicas, decode_replicas;  /* a split; 0 colocated */
	int prefill_tp, decode_tp;         /* colocated: its tp, both */
	long gpus, instances;
	double usd_per_hour, usd_per_mtok;
	double ttft_p99_ms, tpot_p99_ms, kv_transfer_p99_ms;
};

/* One instance type's search. */
struct plan_disagg_base {
	size_t shape;                      /* the point the simulations ran on: the base's largest evaluated shape */
	char provider[CAT_NAME_MAX];       /* the price's provider ("" when the price names none) */
	char instance[CAT_TEXT_MAX];       /* the preset, or the candidate's name */
	bool candidate;                    /* a scenario candidate's ("NAME @ N nodes"), not "N x PRESET" */
	int gpus_per_node;
	double usd_per_instance_hour;
	bool unsupported;                  /* its shapes come back unsupported (a spot price, failures): not searched */
	/* the cheapest colocated deployment at any tp: the plan's (its tp), or
	 * fewer instances of another tp found here */
	struct plan_disagg_deploy colocated;
	/* the cheapest split on fewer instances than that one (on at most the
	 * shape's nodes when no colocated one meets the SLO) */
	struct plan_disagg_deploy split;
	long max_instances;                /* the most instances a split could occupy (0: none tried) */
	int tp_sizes;                      /* tp sizes a replica may take here */
	int tp_pairs;                      /* (prefill tp, decode tp) pairs of which two replicas fit the bound */
	int simulated;                     /* simulations here: colocated at other tp sizes and splits */
	int splits_simulated;              /* of which splits */
	char interconnect[2 * CAT_NAME_MAX + 8];  /* what the split's KV transfers cross: the scale-up fabric, the NIC, or both */
};

/* One provider's answer: the bases of its cheapest colocated deployment
 * and its cheapest split (-1: none). */
struct plan_disagg_provider {
	char provider[CAT_NAME_MAX];
	long colocated;
	long split;
};

struct plan_disagg {
	bool searched;
	char why_not[160];                 /* when not searched */
	struct plan_disagg_base *bases;    /* owned, in the order of their first shape */
	size_t n_bases;
	long *base_of;                     /* owned: the base of each point of the outcome, -1: none */
	struct plan_disagg_provider *providers;  /* owned, in the order of their first base */
	size_t n_providers;
	int simulated;                     /* simulations in all */
	double work;                       /* their work (1 + requests / 25 each) */
	bool stopped;                      /* the plan's work bound stopped the search: no answer */
	char stop_reason[1024];
};

/* Search the splits for p after plan_search gave o (o done, not stopped).
 * Caller releases *out with plan_disagg_release. */
void plan_disagg_search(const struct plan_problem *p, const struct plan_outcome *o, struct plan_disagg *out);

void plan_disagg_release(struct plan_disagg *d);

#endif
