/*
 * wl_train: the fields of a training or finetune workload: model,
 * sequence length and batch, parallelism, mode, checkpoints, kernels,
 * failures, and for a finetune its method and tokens or examples x epochs.
 *
 * The model, kernel and failure readers are exported because the other
 * kinds take the same fields into the same records. Reads only the
 * workload object it is given; never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_WL_TRAIN_H
#define CLUSTERSIM_MODELS_SCENARIO_WL_TRAIN_H

#include "models/scenario/wl_reader.h"

/* The reader of kinds "training" and "finetune" (a wl_read_fn). */
int wl_train_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		  struct workload_spec *w);

/* The required `model` of workload object v: a catalog name, or an object
 * (optionally over a "preset"); sets w->model.arch and w->has_model. */
int wl_train_read_model(struct jread *r, const json_t *v, const catalog *cat,
			struct workload_spec *w);

/* The optional `kernels` object of v into *k (flash attention on and the
 * global launch overhead when absent). */
int wl_train_read_kernels(struct jread *r, const json_t *v, struct kernel_calibration *k);

/* The optional `failures` of v ("none", "llama3" or an object) into *f
 * ("none" when absent). */
int wl_train_read_failures(struct jread *r, const json_t *v, struct failure_spec *f);

#endif
