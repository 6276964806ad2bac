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

#include "models/hw/hw.h"
#include "models/kernel/roofline.h"

struct workload_model {
	struct model_spec arch;            /* layers, widths, experts (hw.h) */
	enum precision precision;          /* of the GEMMs (workload.precision) */
	struct kernel_calibration kernels; /* the scenario's kernel measurements */
};

#endif
