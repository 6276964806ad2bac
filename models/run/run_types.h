/*
 * run_types: the records of the whole run every module of models/run
 * shares: what the scenario asks of a run (its data, checkpoints,
 * failures, trials and objective), what a run gives (struct run_result),
 * and the run reduced to what its event simulation needs (struct
 * run_model). failure_dist_names is defined in run.c.
 *
 * Records only, and no other module of the folder: failure, run_storage
 * and run read them, and run.h (the entry) includes this header, so
 * callers outside the folder see them through run.h.
 */
#ifndef CLUSTERSIM_MODELS_RUN_RUN_TYPES_H
#define CLUSTERSIM_MODELS_RUN_RUN_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "models/hw/hw.h"
#include "models/train/train.h"

enum failure_dist { FAIL_EXPONENTIAL, FAIL_WEIBULL };
extern const char *const failure_dist_names[];

struct checkpoint_spec {
	bool enabled;
	bool given;             /* the scenario gives workload.checkpoint ("none" too); when it
				 * does not and the run is interrupted, run_training assumes
				 * synchronous checkpoints to the candidate's parallel file
				 * system at Daly's interval */
	double interval_s;      /* < 0: "auto" (Young/Daly) */
	int64_t interval_steps; /* > 0: the interval is that many steps (interval_s unused) */
	char tier[CAT_NAME_MAX];
	bool async;
	int64_t keep;           /* checkpoints kept on the tier (storage dollars); < 1: 1 */
	int64_t downloads;      /* checkpoints moved out of the provider (egress dollars) */
};

struct failure_spec {
	bool enabled;
	char preset[CAT_NAME_MAX];  /* "llama3", "none" or "" when given as numbers */
	double gpu_mtbf_h;          /* 0 = no GPU failures */
	double node_mtbf_h;         /* 0 = no node failures */
	enum failure_dist distribution;
	double shape;               /* Weibull shape */
	double restart_s;
	int spare_nodes;
};

struct monte_carlo_spec {
	int trials;
	bool given;                 /* the scenario has a monte_carlo block */
};

struct objective_spec {
	double deadline_h;  /* 0 = none */
	double budget_usd;  /* 0 = none */
};

/* Where the training tokens are read from (workload.data): a storage tier
 * of the candidate and the bytes each token takes there. */
struct data_spec {
	bool enabled;
	char tier[CAT_NAME_MAX];
	double bytes_per_token;     /* 0: 2 when the vocabulary fits uint16 ids, else 4 */
	double size_gb;             /* the data set's size there (storage dollars); 0: not charged */
};

/* The data and the events of the whole run. */
struct run_spec {
	double tokens;              /* total tokens to train on; 0 = one step only */
	double examples, epochs;    /* finetune data, when given instead of tokens */
	struct checkpoint_spec checkpoint;
	struct failure_spec failures;
	struct data_spec data;
};

/*
 * What a whole run gives, whatever the workload: the wall-clock time held
 * (P50 and P90 over trials), GPU-hours, dollars, the effective training
 * time ratio, and how the GPUs' wall-clock time splits (the frac_ fields
 * add up to 1). Dollars are known only when the candidate has a price.
 */
struct run_result {
	double steps;
	double tokens;              /* steps x global batch */
	double wall_time_p50_s, wall_time_p90_s;
	double ettr;                /* productive time / wall time */
	double gpu_hours;
	bool priced;
	double cost_usd_p50, cost_usd_p90;
	double usd_per_mtok;
	bool has_split;             /* the frac_ fields are known */
	double frac_compute, frac_comm_exposed, frac_bubble, frac_checkpoint,
	       frac_lost_to_failures, frac_idle;
	double billed_s;            /* what each instance is billed for (P50 wall time
				     * under the provider's granularity and minimum);
				     * known when priced */
	double failures_mean;       /* failures per trial, mean */
	double preemptions_mean;    /* spot preemptions per trial, mean */
	double held_p50_s, held_p90_s; /* wall time less the unheld capacity waits, P50/P90 */
	bool spot;                  /* spot preemptions were simulated */
	double ckpt_bytes, ckpt_write_s, ckpt_stall_s, ckpt_read_s, ckpt_interval_s;
	double ckpt_contention_s;   /* an asynchronous write's slowdown of training, per checkpoint */
	double ckpt_nic_share;      /* the share of the node's NIC bandwidth the write takes */
	double ckpt_save_s;         /* a checkpoint taken whole in a spot notice: stall + write */
	double lost_work_mean_s;    /* work thrown away per trial, mean */
	double notice_saves_mean;   /* preemptions whose notice fitted a checkpoint, per trial, mean */
	bool ckpt_local;            /* checkpoints on node-local NVMe: lost at a preemption */
	bool ckpt_assumed;          /* no workload.checkpoint: the default was taken (run_training) */
	char ckpt_tier[CAT_NAME_MAX]; /* the tier checkpoints go to, when there are any */
	bool data_modelled;         /* the run reads its data from a tier (workload.data) */
	double data_read_s;         /* reading one step's tokens from the data tier */
	double data_stall_s;        /* the step's wait for data: max(0, read - step) */
	double frac_data_stall;     /* share of the wall time waiting for data (part of the split) */
	double spare_usd_p50;       /* the spare nodes' part of cost_usd_p50 */
	/* the price band cost_usd_p50/p90 include (cost/price_band.h): ln F's
	 * spread below and above the catalog price (both 0: none), and the
	 * price row's identity (runs on one row share one draw of its price) */
	double price_sigma_low, price_sigma_high;
	double price_usd_per_gpu_hour_p10, price_usd_per_gpu_hour_p90; /* the band's 10th and 90th percentiles */
	char price_id[CAT_NAME_MAX + 2 * CAT_TEXT_MAX + 64];  /* price_band_quote_id; PRICE_BAND_ID_MAX */
	/* storage and data dollars (run_storage_dollars): the footprint held
	 * for the held time at each tier's price, plus checkpoint downloads;
	 * not part of cost_usd_p50 */
	bool storage_priced;        /* every tier charged has a price */
	double storage_usd_p50, storage_usd_p90;
	double storage_footprint_bytes; /* the bytes charged for (managed Lustre: its capacity) */
	char storage_note[256];     /* what was charged, or why it has no price */
	double job_mtbf_s;          /* 0 = no failures */
	bool failed;                /* the run could not be simulated: note says why */
	char note[1024];            /* what the run assumed, in words (util/text.h: a cut ends with its mark) */
};

/* The random draws of a job: its seed, its row and how many trials. */
struct run_trials {
	uint64_t seed, row_id;
	int trials;
};

/*
 * The whole run reduced to what the event simulation needs (all seconds).
 * interval_s is productive time between checkpoints (0 = none); stall_s is
 * how long a checkpoint stops training; write_s how long after the stall
 * an asynchronous one becomes durable (0 for a synchronous one, durable at
 * the stall's end); read_s the reload after a restart.
 */
struct run_model {
	double step_s, steps;        /* step_s includes data_stall_s */
	struct train_breakdown br;   /* the step's split */
	double data_stall_s;         /* of step_s, the wait for data */
	double interval_s, stall_s, write_s, read_s;
	/* an asynchronous write that shares the NICs with training slows it:
	 * slow_s more of stall per checkpoint, taken from the write's time */
	double slow_s;
	/* a spot preemption's notice: when save_s (a whole checkpoint, stall
	 * + write) fits in notice_s, the job checkpoints in the notice and
	 * loses nothing; else it loses the work since the last checkpoint.
	 * save_s 0: no checkpoint tier, nothing saved. */
	double notice_s, save_s;
	/* checkpoints on node-local disks leave with a preempted instance: a
	 * preemption loses the work since the start and nothing is reloaded */
	bool local_ckpt;
	double job_mtbf_s;           /* the job's failure MTBF; 0 = none */
	/* Weibull failure times (shape > 0 and not 1): each of units[g]
	 * components of group g (GPUs, nodes) fails as its own renewal process
	 * of Weibull(scale_s[g], shape) times; otherwise one Poisson process of
	 * mean job_mtbf_s. */
	double shape;
	long units[2];
	double scale_s[2];
	double restart_s;
	double repair_s;
	int spare_nodes;             /* < 0: a node is always there */
	/* spot preemptions: one Poisson process for the job (instances x the
	 * per-instance rate), each followed by capacity_wait_s unheld, unbilled */
	double preempt_mean_s;       /* 0 = none */
	double capacity_wait_s;
};

#endif
