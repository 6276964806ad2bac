/*
 * fleet: many teams' jobs gang-scheduled on one shared cluster: the
 * records of a fleet workload (job classes, their arrivals and durations,
 * the scheduler) and what simulating it gives.
 *
 * The scenario reader fills struct fleet_spec (and reads job traces into
 * struct fleet_trace); fleet_run() (fleet.c) turns each class that names a
 * workload into a duration on its allocation through the evaluate call
 * (once per class and allocation), draws the jobs, runs the scheduler
 * simulation (fleet_sim.h) on the candidate and, for the sizing answer,
 * repeats it over node counts. Nothing here reads files or includes
 * jansson. The records are in fleet_types.h, which this header includes.
 */
#ifndef CLUSTERSIM_MODELS_FLEET_FLEET_H
#define CLUSTERSIM_MODELS_FLEET_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/fleet/fleet_types.h"
#include "models/hw/hw.h"
#include "models/run/run.h"
#include "util/outcome.h"

/*
 * The evaluate call, as fleet/ sees it (eval/ comes after fleet/, so it
 * hands fleet_run this callback): the duration of class k's workload on
 * k->gpus GPUs of candidate c's node type (a training or finetune class:
 * its wall time P50 on that many nodes; an inference class: the GPUs its
 * replicas need on c, held as a service; a collective class: its time).
 * ctx is fleet_run's, passed through.
 */
typedef void fleet_eval_fn(const struct fleet_class *k, const struct cluster_spec *c, void *ctx,
			   struct fleet_class_eval *out);

/*
 * Simulate fleet f on candidate c into *r (fully overwritten): the classes
 * that name a workload get their duration from eval (once each), the jobs
 * are drawn from the classes' arrivals and durations (streams of the
 * scenario seed only, so every candidate and every node count sees the
 * same submissions: common random numbers) or replayed from their traces,
 * and the scheduler simulation (fleet_sim.h) runs them on c. Dollars are
 * the candidate's price and billing (cost/billing.h) over the held window.
 * With an objective, the sizing answer: the fewest nodes of c's node type
 * on which the P90 wait meets it for every group it applies to (the
 * fleet, each team, each class: the same check as meets_objective;
 * bisection, each count one simulation of the same jobs), each team alone
 * on its own fewest nodes (summed), and the nodes of the most GPUs ever
 * asked at once; a failed objective's reason names the groups that miss
 * it with their P90 waits. A candidate too small for the largest job
 * beside the services is OUTCOME_INVALID and still gets the sizing answer
 * (searched from the fewest nodes that hold the jobs). row_id is the
 * row's (for the failures' streams). Never prints.
 */
void fleet_run(const struct fleet_spec *f, const struct cluster_spec *c, uint64_t seed, uint64_t row_id,
	       fleet_eval_fn *eval, void *ctx, struct fleet_result *r);

/*
 * Utilization over time, for charts: the candidate's GPUs allocated and
 * busy (fractions of all its GPUs, services included: a service's nodes
 * are allocated and busy in every bucket) and the jobs waiting (a count),
 * each the mean over bucket k = [k, k + 1) x step_h from time 0, for the
 * buckets up to the run's end (the window's end, or the last completion
 * when later). fleet_run_series fills it; fleet_series_release frees it.
 */
struct fleet_series {
	double step_h;
	size_t n;
	double *allocated_frac, *busy_frac, *queued_jobs;
};

/* The bucket width for a window of duration_h: the smallest of 0.25, 0.5,
 * 1, 2, 3, 4, 6, 12, 24, 48, 168, 336, 720 h (then doubling) that cuts it
 * into at most 1000 buckets. */
double fleet_series_step_h(double duration_h);

/* fleet_run, and when series is not NULL the candidate's utilization over
 * time into it (n = 0 when the run did not simulate: invalid, error). */
void fleet_run_series(const struct fleet_spec *f, const struct cluster_spec *c, uint64_t seed, uint64_t row_id,
		      fleet_eval_fn *eval, void *ctx, struct fleet_series *series, struct fleet_result *r);

void fleet_series_release(struct fleet_series *s);

/* A group meets f's objective: every job it submitted finished (a job the
 * run never started has no wait to count) and its P90 wait is within
 * objective_wait_p90_h (true without an objective). */
bool fleet_group_meets(const struct fleet_spec *f, const struct fleet_group *g);

/* The index of team `name` in f's team table, or -1. */
int fleet_team_index(const struct fleet_spec *f, const char *name);

/*
 * The allocation of a class's job of `gpus` GPUs on candidate c's node
 * type, as a cluster of its own: gpus / gpus_per_node whole nodes, or one
 * node of only those GPUs (and at most as many NICs) for a job smaller than
 * a node.
 */
void fleet_allocation(const struct cluster_spec *c, int gpus, struct cluster_spec *out);

#endif
