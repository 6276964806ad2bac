/*
 * job: one thing to evaluate: a workload of some kind on one candidate
 * cluster, with the seed and the row id its random streams derive from.
 *
 * The scenario reader turns a scenario into jobs (one per candidate, and
 * for a collective one per message size, for a gemm one per shape); evaluate() turns a job into a
 * result. Nothing here reads files.
 */
#ifndef CLUSTERSIM_MODELS_EVAL_JOB_H
#define CLUSTERSIM_MODELS_EVAL_JOB_H

#include <stdbool.h>
#include <stdint.h>
#include "models/comm/nccl_tests.h"
#include "models/fleet/fleet.h"
#include "models/hw/hw.h"
#include "models/kernel/gemm_bench.h"
#include "models/run/run.h"
#include "models/serve/serve.h"
#include "models/train/train.h"

enum workload_kind { WORKLOAD_TRAINING, WORKLOAD_FINETUNE, WORKLOAD_INFERENCE, WORKLOAD_COLLECTIVE, WORKLOAD_FLEET,
		     WORKLOAD_GEMM };
extern const char *const workload_kind_names[];

/* A workload as the scenario describes it; each kind reads its part. */
struct workload_spec {
	enum workload_kind kind;
	bool has_model;                 /* model.arch was read (every kind but collective and fleet) */
	struct workload_model model;    /* what every kind runs; model.arch points here
					 * (workload_bind) */
	struct train_spec train;        /* training, finetune: the step */
	struct run_spec run;            /* training, finetune: the whole run */
	struct serving_spec serving;    /* inference */
	struct collective_spec collective;
	struct gemm_spec gemm;          /* gemm: the shapes, one row each */
	/* The values the model took for fields an inline model object did not
	 * state ("" for a catalog name or when it states all): what run
	 * --dry-run notes on standard error. */
	char model_defaults[1024];
	struct fleet_spec *fleet;       /* fleet: owned by the loaded scenario (its classes' workloads too) */
};

/* Point w's kind specs at its model: after reading w and after copying a
 * workload_spec (a copy's model.arch still points at the original's). */
static inline void workload_bind(struct workload_spec *w)
{
	w->train.model = &w->model;
}

struct timeline;

/*
 * One evaluation: a workload on one candidate cluster. Everything is
 * borrowed from whoever built the job (the loaded scenario) and must
 * outlive the call.
 */
struct job {
	enum workload_kind kind;
	const struct workload_spec *workload;
	const struct cluster_spec *cluster;
	const struct monte_carlo_spec *monte_carlo;
	const struct objective_spec *objective;
	const char *scenario;          /* the scenario's name, for the rows */
	uint64_t seed;
	uint64_t row_id;
	bool shape_only;               /* the cluster's shape and price, nothing simulated (--dry-run) */
	double collective_bytes;       /* collective: the message size of this job */
	size_t gemm_shape;             /* gemm: the index of this job's shape in workload->gemm */
	struct timeline *trace;        /* training: log the step here; may be NULL */
	struct fleet_series *fleet_series; /* fleet: the candidate's utilization over time here; may be NULL */
};

#endif
