/*
 * run: the whole run a step model's step is repeated for: the data to
 * train on, checkpoints, failures and restarts, and the trials that give
 * P50/P90.
 *
 * Today the run is steps x step time on a cluster that never fails; the
 * checkpoint, failure and Monte Carlo records are read and checked, and a
 * job that gives them is reported as `unsupported` (eval/evaluate.c) until
 * they are simulated.
 */
#ifndef CLUSTERSIM_MODELS_RUN_RUN_H
#define CLUSTERSIM_MODELS_RUN_RUN_H

#include <stdbool.h>

#include "models/hw/hw.h"
#include "models/train/train.h"

enum failure_dist { FAIL_EXPONENTIAL, FAIL_WEIBULL };
extern const char *const failure_dist_names[];

struct checkpoint_spec {
	bool enabled;
	double interval_s;      /* < 0: "auto" (Young/Daly) */
	char tier[CAT_NAME_MAX];
	bool async;
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

/* The data and the events of the whole run. */
struct run_spec {
	double tokens;              /* total tokens to train on; 0 = one step only */
	double examples, epochs;    /* finetune data, when given instead of tokens */
	struct checkpoint_spec checkpoint;
	struct failure_spec failures;
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
};

/*
 * The whole run of a training or fine-tuning job whose step (r, status
 * TRAIN_OK) is known: ceil(tokens / global batch) steps (one when no tokens
 * are given), back to back on a cluster that never fails, held and billed
 * for that long (cost/billing.h). Checkpoints and failures are not
 * simulated: the caller reports a job that asks for them as unsupported.
 */
void run_training(const struct run_spec *run, const struct train_spec *w, const struct cluster_spec *c,
		  const struct train_result *r, struct run_result *out);

#endif
