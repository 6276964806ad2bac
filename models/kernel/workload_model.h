/*
 * workload_model: the model a workload runs, whatever its kind: the
 * architecture, the precision its GEMMs run in and how its kernels perform.
 *
 * Training, finetuning, serving and the collective benchmark's kernel
 * calibration all read this one record (a workload is {kind, model, one
 * kind's spec}); none of them owns it. It holds records only: the
 * arithmetic on the architecture is transformer.h's, the kernel rates
 * roofline.h's.
 */
#ifndef CLUSTERSIM_MODELS_KERNEL_WORKLOAD_MODEL_H
#define CLUSTERSIM_MODELS_KERNEL_WORKLOAD_MODEL_H

#include <string.h>

#include "models/hw/hw.h"
#include "models/kernel/roofline.h"

/* The training engine's constants (the catalog's engines entry "training",
 * hw.h struct engine_spec), copied by the scenario reader; calibration names
 * the overlay they come from ("" = the catalog's own). */
struct train_constants {
	double overlap_slowdown;     /* computation lost per second of overlapped communication */
	double ep_overlap_slowdown;  /* the same for an expert all-to-all beside 1F1B's other micro-batch */
	double straggler_sigma;      /* relative spread of GPUs' speed (step waits for the slowest) */
	char calibration[CAT_TEXT_MAX];
};

static inline void train_constants_of(struct train_constants *k, const struct engine_spec *e)
{
	k->overlap_slowdown = e->overlap_slowdown;
	k->ep_overlap_slowdown = e->ep_overlap_slowdown;
	k->straggler_sigma = e->straggler_sigma;
	memcpy(k->calibration, e->calibration, sizeof k->calibration);
}

struct workload_model {
	struct model_spec arch;            /* layers, widths, experts (hw.h) */
	enum precision precision;          /* of the GEMMs (workload.precision) */
	struct kernel_calibration kernels; /* the scenario's kernel measurements */
	struct train_constants training;   /* the training engine's constants (the catalog's) */
};

#endif
