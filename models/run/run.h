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

#endif
