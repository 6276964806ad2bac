/*
 * failure: the failure processes of a job, from workload.failures.
 *
 * A preset names a published failure rate (the table in failure.c gives
 * each with its source); numbers give a per-GPU and a per-node MTBF. Every
 * GPU and every node fails independently; with exponential times between
 * failures (the only distribution simulated) the job fails as one Poisson
 * process of rate gpus / gpu_mtbf + nodes / node_mtbf.
 */
#ifndef CLUSTERSIM_MODELS_RUN_FAILURE_H
#define CLUSTERSIM_MODELS_RUN_FAILURE_H

#include <stdbool.h>

#include "models/hw/hw.h"
#include "models/run/run.h"

/* The rates and recovery times of a job, resolved. */
struct failure_rates {
	double gpu_mtbf_h, node_mtbf_h;   /* 0 = none */
	double restart_s;                 /* detection + relaunch + NCCL init */
	double repair_s;                  /* a failed node's return to service */
	int spare_nodes;                  /* < 0: capacity is always there */
	double job_mtbf_s;                /* 1 / (gpus / gpu MTBF + nodes / node MTBF) */
	const char *source;               /* the preset's source, or "given" */
};

/* A failure preset: name, per-GPU MTBF and where it comes from. */
struct failure_preset {
	const char *name;
	double gpu_mtbf_h;
	int spare_nodes;
	const char *source;
};

const struct failure_preset *failure_preset(const char *name);

/* The rates of spec f on candidate c into *out; false when f gives none. */
bool failure_resolve(const struct failure_spec *f, const struct cluster_spec *c, struct failure_rates *out);

#endif
