/*
 * fleet_sim: the shared cluster's scheduler on the engine (sim/).
 *
 * Jobs (drawn from the classes' arrival processes and durations, or read
 * from traces) are submitted to a queue; the scheduler gang-schedules them
 * (a job starts only with all its GPUs): FIFO, SJF on the user's estimate,
 * priority with per-team quotas, or EASY backfill (a backfilled job never
 * delays the reservation of the head of the queue); optionally a
 * higher-priority job preempts lower ones, which restart from their last
 * checkpoint. Placement respects scale-up domains (whole nodes for jobs of
 * a node or more; a smaller job inside one node) and leaf switches, so
 * fragmentation shows. Nodes fail and are repaired (the whole-run failure
 * model); a failed job restarts from its last checkpoint. Every job is a
 * few events, so 100,000 jobs take well under a second.
 */
#ifndef CLUSTERSIM_MODELS_FLEET_FLEET_SIM_H
#define CLUSTERSIM_MODELS_FLEET_FLEET_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/fleet/fleet.h"

/* One job as the scheduler sees it. */
struct fleet_job {
	int cls;                     /* index into spec->classes */
	int team;                    /* index into the team table */
	double submit_s;
	int gpus;
	double duration_s;           /* on its allocation, without failures */
	double estimate_s;           /* SJF and backfill: the user's estimate */
	int priority;
	double checkpoint_interval_s;/* work lost on preemption/failure <= this; 0 = restart from scratch */
	double restart_s;            /* relaunch and reload after a preemption or failure */
	double trace_wait_s;         /* < 0: unknown */
};

/* What happened to one job (fleet_sim_config.records: for tests and traces). */
struct fleet_job_record {
	int cls, team, gpus;
	double submit_s;
	double first_start_s;        /* < 0: never started */
	double start_s;              /* its last start */
	double end_s;                /* < 0: not finished */
	int gpus_placed;             /* the fewest GPUs it ever ran on (gang: = gpus) */
	int nodes_spanned, leaves_spanned, domains_spanned;  /* of its last placement */
	long preemptions, failures;  /* times it was stopped by either */
	double lost_s;               /* work lost to them: the time since the last checkpoint, summed */
	double reservation_s;        /* backfill: the last start reserved for it as the head; < 0: none */
};

struct fleet_sim_config {
	const struct fleet_spec *spec;
	int nodes, gpus_per_node;
	int domain_gpus;             /* scale-up domain (8, or 72 for NVL72) */
	int nodes_per_leaf;          /* 0 = one leaf */
	/* jobs: given (sorted by submit_s), or drawn from the classes when NULL */
	const struct fleet_job *jobs;
	size_t n_jobs;
	/* per class, when drawing: its duration on its allocation (workload classes) or < 0 to draw */
	const double *class_duration_s;
	const double *class_checkpoint_interval_s;
	const double *class_restart_s;
	int n_teams;
	const char (*team_names)[FLEET_NAME_MAX];
	double usd_per_gpu_hour;     /* 0 = unpriced */
	uint64_t seed, row_id;
	/* optional: what happened to the first n_records jobs (in submission
	 * order), filled by fleet_sim_run; NULL = none */
	struct fleet_job_record *records;
	size_t n_records;
	/* optional: utilization over time (for charts): util_series[k] = the
	 * mean fraction of the cluster's GPUs allocated during
	 * [k, k + 1) x series_step_h from time 0, for k < n_series; NULL = none */
	double *util_series;
	size_t n_series;
	double series_step_h;
	/* optional, beside util_series (same buckets): the mean fraction of the
	 * GPUs busy (allocated less restarts and work thrown away by stops) and
	 * the mean number of jobs waiting; NULL = none */
	double *busy_series;
	double *queued_series;
	/* out: seconds from 0 to the last event (the run's end), when asked (non-NULL) */
	double *end_s;
};

/* Run the fleet (docs/explanation/fleet.md, "The scheduler simulation"); returns 0,
 * or -1 with reason filled (a job of no GPUs, more GPUs than the cluster,
 * or spanning nodes with a GPU count that is not a whole number of nodes;
 * a negative duration or submission; too many teams or jobs). *out is
 * zeroed first; cfg->records, when given, is filled. Same cfg, same bytes. */
int fleet_sim_run(const struct fleet_sim_config *cfg, struct fleet_metrics *out, char *reason, size_t reason_len);

/* Seconds from 0 at which a run whose window ends at window_end_s stops
 * at the latest: the window's end + 10 windows (at least 30 days), at most
 * the engine's clock's end (SIM_TIME_MAX_S, 292 years). */
double fleet_sim_cap_s(double window_end_s);

/* The most GPUs a simulated cluster may have (about 24 bytes each: a
 * Weibull failure clock per GPU, scratch); beyond, fleet_sim_run refuses
 * it with a reason. */
#define FLEET_SIM_MAX_GPUS 10000000L

/* The most engine events one simulation runs; past it the run stops with a
 * reason (fleet_sim_run returns -1). */
#define FLEET_SIM_MAX_EVENTS UINT64_C(1000000000)

/* Erlang C: probability that an arrival waits in an M/M/c queue with
 * offered load a = lambda / mu Erlangs (a < c); for the tests and docs. */
double fleet_erlang_c(int c, double a);

#endif
