/*
 * run_storage: what a whole run's storage costs it: the checkpoints (their
 * tier, size, write and read times, stall, interval, and the contention an
 * asynchronous write puts on the scale-out NICs; a default to the
 * candidate's parallel file system when an interrupted run gives none) and
 * the step's wait for its data from the data tier.
 *
 * It fills the storage part of a struct run_model and the matching fields
 * of a struct run_result (run.h) before run_simulate runs the trials;
 * docs/explanation/whole-run.md has the formulas. Nothing here simulates or prints.
 */
#ifndef CLUSTERSIM_MODELS_RUN_RUN_STORAGE_H
#define CLUSTERSIM_MODELS_RUN_RUN_STORAGE_H

#include <stdbool.h>

#include "models/run/run_types.h"

/* The mean time between interruptions (failures and preemptions); 0 = none. */
double run_storage_interrupt_mtbf_s(const struct run_model *m);

/* The candidate's first file system tier (parallel-fs or managed-lustre), or -1. */
int run_storage_file_system_tier(const struct cluster_spec *c);

/* The checkpoint part of m from the run spec and the candidate. False, with
 * out->failed and out->note saying why, when the run cannot checkpoint. */
bool run_storage_checkpoints(const struct run_spec *run, const struct train_spec *w, const struct cluster_spec *c,
			     const struct train_result *r, struct run_model *m, struct run_result *out);

/* The step's data stall (added to m->step_s) when the run reads its data
 * from a tier. False, with out->failed and out->note, for an unknown tier. */
bool run_storage_data(const struct run_spec *run, const struct train_spec *w, const struct cluster_spec *c,
		      struct run_model *m, struct run_result *out);

/* Storage and data dollars (storage_usd_p50/p90, storage_priced,
 * storage_note) from the footprint held for the run's held time; after
 * run_simulate, with out's checkpoint fields set. */
void run_storage_dollars(const struct run_spec *run, const struct cluster_spec *c, struct run_result *out);

#endif
