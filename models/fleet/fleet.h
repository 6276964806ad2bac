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
 * jansson.
 */
#ifndef CLUSTERSIM_MODELS_FLEET_FLEET_H
#define CLUSTERSIM_MODELS_FLEET_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/hw/hw.h"
#include "models/run/run.h"
#include "util/outcome.h"

#define FLEET_NAME_MAX 64
#define FLEET_TEAMS_MAX 32
#define FLEET_CLASSES_MAX 64

/*
 * The most jobs a fleet may ask for: its Poisson classes' expected counts
 * (rate_per_h x duration_h) and its traces' jobs together. The scenario
 * reader refuses more, and a fleet whose jobs would not fit in the memory
 * this process may have at FLEET_BYTES_PER_JOB each; fleet_load stops at
 * FLEET_LOAD_MAX_JOBS (twice this) when a Poisson count runs far above its
 * mean.
 */
#define FLEET_JOBS_MAX 10000000
/* Bytes a job holds at most while a fleet runs (its record as drawn and as
 * simulated, its waits and completion times, the growing arrays' slack;
 * measured: 0.41 KB a job for 1e6 drawn jobs, 0.51 KB for 1e6 replayed). */
#define FLEET_BYTES_PER_JOB 1024.0

enum fleet_policy { FLEET_FIFO, FLEET_SJF, FLEET_PRIORITY, FLEET_BACKFILL };
extern const char *const fleet_policy_names[];

enum fleet_duration_dist { FLEET_DUR_FIXED, FLEET_DUR_EXPONENTIAL, FLEET_DUR_LOGNORMAL, FLEET_DUR_UNIFORM };
extern const char *const fleet_duration_dist_names[];

/* A stated job duration: fixed (mean_s) or drawn, clamped to [min_s, max_s]. */
struct fleet_duration {
	enum fleet_duration_dist dist;
	double mean_s, sd_s, min_s, max_s;
};

enum fleet_arrival { FLEET_ARRIVAL_POISSON, FLEET_ARRIVAL_TRACE };
extern const char *const fleet_arrival_names[];

enum fleet_trace_format { FLEET_TRACE_SACCT, FLEET_TRACE_CSV };
extern const char *const fleet_trace_format_names[];

/* Where a trace job's team came from in its file. */
enum fleet_team_source {
	FLEET_TEAM_NONE,             /* the file names none: the class's team */
	FLEET_TEAM_PARTITION,        /* sacct's Partition */
	FLEET_TEAM_QOS,              /* sacct's QOS (no Partition) */
	FLEET_TEAM_COLUMN,           /* a CSV's team column */
};

/* One job of a trace file. */
struct fleet_trace_job {
	double submit_s;             /* from the trace's first submission */
	int gpus;
	enum fleet_team_source team_source;  /* of team as the file gave it (the scenario may replace it) */
	double duration_s;           /* End - Start (sacct) or the CSV's duration */
	double trace_wait_s;         /* Start - Submit in the trace; < 0 when unknown */
	char team[FLEET_NAME_MAX];   /* "" = the class's team */
};

/* Jobs read from a trace file (owned by the loaded scenario). */
struct fleet_trace {
	struct fleet_trace_job *jobs;
	size_t n;
	/* rows of the file not replayed (sacct): job steps (a JobID with a
	 * dot), jobs without GPUs, jobs that never started or have not ended */
	long skipped_steps, skipped_no_gpus, skipped_not_run;
};

struct workload_spec;            /* models/eval/job.h */

/* One class of jobs. */
struct fleet_class {
	char name[FLEET_NAME_MAX];
	char team[FLEET_NAME_MAX];
	int priority;                /* higher runs first under "priority" */
	enum fleet_arrival arrival;
	double rate_per_h;           /* poisson */
	char trace[1024];            /* resolved path */
	enum fleet_trace_format trace_format;
	const struct fleet_trace *trace_jobs;   /* trace: read by the reader */
	int gpus;                    /* per job (a whole number of nodes' worth when it spans nodes) */
	struct fleet_duration duration;         /* when workload is NULL */
	double estimate_factor;      /* SJF: the user's estimate = duration x this (1 = exact) */
	const struct workload_spec *workload;   /* a training/finetune/inference/collective workload, or NULL */
};

struct fleet_spec {
	double duration_h;           /* arrivals stop after this */
	double warmup_h;             /* jobs submitted before this are not counted */
	enum fleet_policy policy;
	bool preemption;             /* higher priority preempts lower (restart from checkpoint) */
	double objective_wait_p90_h; /* 0 = none */
	/* the groups the objective leaves out (objective.applies_to): by
	 * default, none: it holds for the P90 over all jobs, for every team's
	 * and for every class's (a zeroed spec checks them all) */
	bool objective_exempt_fleet;
	bool objective_exempt_team[FLEET_TEAMS_MAX];
	bool objective_exempt_class[FLEET_CLASSES_MAX];
	double team_quota[FLEET_TEAMS_MAX];  /* priority: max fraction of GPUs per team; 0 = none */
	int n_classes;
	struct fleet_class classes[FLEET_CLASSES_MAX];
	struct failure_spec failures; /* node failures on the fleet (the whole-run model) */
	/* the teams in order of first appearance (the classes', then the traces'
	 * own); team_quota[] and fleet_job.team index this table */
	int n_teams;
	char team_names[FLEET_TEAMS_MAX][FLEET_NAME_MAX];
};

/* Percentiles in hours. */
struct fleet_pct {
	double p50, p90, p99, mean;
};

/* What one team, one job class or the whole fleet got. */
struct fleet_group {
	char team[FLEET_NAME_MAX];   /* a class: its jobs' team (several joined by '+'); the fleet: "" */
	char cls[FLEET_NAME_MAX];    /* a class: its name; a team or the fleet: "" */
	long jobs_submitted, jobs_done;
	struct fleet_pct wait_h;     /* submission to start (gang: all GPUs at once) */
	struct fleet_pct jct_h;      /* submission to completion */
	double gpu_hours;            /* allocated GPU-hours of its jobs (in the window) */
	double usd;                  /* its GPU-hours' dollars plus its share of the idle ones (by use) */
	double idle_usd;             /* of usd, the share of the idle GPU-hours' dollars (the fleet: all of them) */
	double trace_wait_p50_h;     /* the trace's own waits, < 0 when none */
};

/* What simulating a fleet on one cluster gives (fleet_sim_run). */
struct fleet_metrics {
	struct fleet_group fleet;    /* every job */
	int n_teams;
	struct fleet_group teams[FLEET_TEAMS_MAX];
	int n_classes;
	struct fleet_group classes[FLEET_CLASSES_MAX];  /* one per spec class, in its order */
	double held_gpu_hours;       /* cluster GPUs x window */
	double allocated_gpu_hours;
	double busy_gpu_hours;       /* allocated minus time lost to failures and restarts */
	double utilization;          /* allocated / held */
	double busy_utilization;     /* busy / held */
	double idle_gpu_hours;       /* held - allocated: billed, unused */
	double fragmentation;        /* time-mean fraction of GPUs free while a waiting job could not start */
	double makespan_h;           /* first submission to last completion */
	long preemptions;
	long failures;
	uint64_t events;
};


/* fleet_run's answer: the metrics on the candidate and the sizing answer. */
struct fleet_result {
	struct outcome outcome;      /* first, as in every result */
	struct fleet_metrics m;
	bool meets_objective;        /* P90 wait within the objective for every group it applies to (true without one) */
	double usd_total, usd_per_job;
	bool priced;
	/* sizing: the fewest nodes of the candidate's node type that meet the objective */
	int sized_nodes;             /* 0 when no objective or none meets it; also on a candidate too small for the jobs */
	double sized_usd;
	int per_team_nodes;          /* "one cluster per team": sum of each team's fewest nodes */
	double per_team_usd;
	int peak_nodes;              /* "rent for the peak": nodes of the most GPUs ever asked at once */
	double peak_usd;
};

/* What a class's workload takes on its allocation (fleet_run asks once per
 * class; the evaluate call answers, through fleet_eval_fn). */
struct fleet_class_eval {
	struct outcome outcome;      /* why not, when not ok */
	bool service;                /* a long-running service: its GPUs held for the whole window */
	int gpus;                    /* the allocation (a service: the whole nodes its replicas occupy) */
	double duration_s;           /* one job on it, failures aside (training: wall time P50) */
	double checkpoint_interval_s;/* work lost to a preemption or failure is at most this; 0 = all */
	double restart_s;            /* relaunch and reload after one */
};

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
