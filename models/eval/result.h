/*
 * result: what evaluating a job gives, the same shape for every kind.
 *
 * First the outcome and its reason in words: `ok`; `oom` and `invalid`
 * (the plan cannot run: the reason says why, with the numbers); 
 * `unsupported` (the job asks for something that is read but not modelled
 * yet: the reason names it, and no figure that depends on it is given);
 * `error` (a figure overflowed). Then what every kind reports: the
 * cluster's figures and the whole run's (wall time P50/P90, GPU-hours,
 * dollars, ETTR, the frac_ split). Then the kind's own detail. Models fill
 * it; output/results.c only formats it.
 */
#ifndef CLUSTERSIM_MODELS_EVAL_RESULT_H
#define CLUSTERSIM_MODELS_EVAL_RESULT_H

#include <stdbool.h>

#include "models/comm/nccl_tests.h"
#include "models/cost/inference.h"
#include "models/eval/objective.h"
#include "models/fleet/fleet.h"
#include "models/kernel/gemm_bench.h"
#include "models/run/run.h"
#include "models/serve/serve.h"
#include "models/train/train.h"


/* Which columns a result fills (output/results.c has one entry for each). */
enum result_kind { RESULT_SHAPE, RESULT_TRAINING, RESULT_INFERENCE, RESULT_COLLECTIVE, RESULT_FLEET, RESULT_GEMM,
		  RESULT_KIND_COUNT };

/* A candidate's size, peak and price, whatever runs on it. */
struct cluster_figures {
	long gpus;
	double peak_flops;                 /* dense, in the workload's precision, all GPUs */
	double memory_bytes;               /* all GPUs */
	double scale_up_bytes_per_s_per_gpu;
	double scale_out_bytes_per_s_per_gpu;
	bool priced;
	double usd_per_hour;
};

struct result {
	struct outcome outcome;            /* first, as in every result (util/outcome.h) */
	enum result_kind kind;
	struct cluster_figures cluster;
	bool has_run;                      /* run holds the whole run's figures */
	struct run_result run;
	struct objective_verdict objective; /* set only with has_run */
	/* the kind's detail */
	struct train_result train;         /* RESULT_TRAINING */
	struct nccl_point collective;      /* RESULT_COLLECTIVE */
	struct serve_result serve;         /* RESULT_INFERENCE */
	struct inference_dollars serve_usd; /* RESULT_INFERENCE, with serve */
	struct fleet_result fleet;         /* RESULT_FLEET */
	struct gemm_point gemm;            /* RESULT_GEMM */
};

#endif
