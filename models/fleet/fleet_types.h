/*
 * fleet_types: the records of a fleet workload every module of
 * models/fleet shares: the spec (job classes, their arrivals and
 * durations, the scheduler, the objective), a job trace, what simulating
 * a fleet gives (struct fleet_metrics, struct fleet_result), and the
 * scheduler simulation's jobs, job records, config and limits. The names
 * arrays are defined in fleet.c.
 *
 * Records only, and no other module of the folder: fleet_load,
 * fleet_sched, fleet_metrics and fleet_sim read them; fleet.h and
 * fleet_sim.h include this header, so their callers see the same.
 */
#ifndef CLUSTERSIM_MODELS_FLEET_FLEET_TYPES_H
#define CLUSTERSIM_MODELS_FLEET_FLEET_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/hw/hw.h"
#include "models/run/run_types.h"
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

/* The most GPUs a simulated cluster may have (about 24 bytes each: a
 * Weibull failure clock per GPU, scratch); beyond, fleet_sim_run refuses
 * it with a reason. */
#define FLEET_SIM_MAX_GPUS 10000000L

/* The most engine events one simulation runs; past it the run stops with a
 * reason (fleet_sim_run returns -1). */
#define FLEET_SIM_MAX_EVENTS UINT64_C(1000000000)

#endif
