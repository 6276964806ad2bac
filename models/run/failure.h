/*
 * failure: the failure processes of a job, from workload.failures.
 *
 * A preset names a published failure rate (the table in failure.c gives
 * each with its source); numbers give a per-GPU and a per-node MTBF. Every
 * GPU and every node fails independently; with exponential times between
 * failures the job fails as one Poisson process of rate gpus / gpu_mtbf +
 * nodes / node_mtbf. With Weibull times of shape k each GPU and node is its
 * own renewal process of Weibull times of scale MTBF / Gamma(1 + 1/k) (the
 * mean stays the MTBF).
 */
#ifndef CLUSTERSIM_MODELS_RUN_FAILURE_H
#define CLUSTERSIM_MODELS_RUN_FAILURE_H

#include <stdbool.h>

#include "models/hw/hw.h"
#include "models/run/run_types.h"

/* The rates and recovery times of a job, resolved. */
struct failure_rates {
	double gpu_mtbf_h, node_mtbf_h;   /* 0 = none */
	double restart_s;                 /* detection + relaunch + NCCL init */
	double repair_s;                  /* a failed node's return to service */
	int spare_nodes;                  /* < 0: capacity is always there */
	double job_mtbf_s;                /* 1 / (gpus / gpu MTBF + nodes / node MTBF) */
	double shape;                     /* Weibull shape; 0 = exponential */
	long units[2];                    /* GPUs, nodes that fail (0 where that MTBF is 0) */
	double scale_s[2];                /* Weibull scale of one GPU, one node: MTBF / Gamma(1 + 1/k) */
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
