/*
 * nccl_tests: the `collective` workload, what nccl-tests would print.
 *
 * For one candidate cluster and one message size, the time of the
 * collective over all its GPUs (analytic, or simulated as flows when the
 * scenario asks for fidelity "flows"), with nccl-tests' algorithm and bus
 * bandwidth: algbw = size / time, busbw = algbw x the op's factor. It only
 * asks collective.h; it must never model an algorithm itself.
 */
#ifndef CLUSTERSIM_MODELS_NCCL_TESTS_H
#define CLUSTERSIM_MODELS_NCCL_TESTS_H

#include <stdbool.h>

#include "models/comm/collective.h"
#include "models/hw/hw.h"
#include "util/outcome.h"

/* The collective workload: one op over all GPUs at each message size. */
struct collective_spec {
	enum collective_op op;
	enum collective_algo algorithm;
	enum collective_fidelity fidelity;
	double *bytes;              /* owned */
	size_t n_bytes;
};

/* One row as nccl-tests would print it; when not ok, outcome.reason says why not. */
struct nccl_point {
	struct outcome outcome;  /* first, as in every result */
	enum collective_op op;
	const char *algorithm;   /* static label */
	const char *protocol;    /* static label */
	long gpus;
	double bytes;
	double time_s;
	double algbw_bytes_per_s;
	double busbw_bytes_per_s;
	enum collective_fidelity fidelity;
};

/* One size on one cluster, over all its GPUs; fills *out (no allocation). */
void nccl_tests_point(const struct cluster_spec *c, const struct collective_spec *spec,
		      double bytes, struct nccl_point *out);

#endif
