/*
 * run: the whole run a step model's step is repeated for: the data to
 * train on, checkpoints, failures and restarts, and the trials that give
 * P50/P90.
 *
 * The run is simulated as events on the engine (sim/engine.h): training
 * accrues productive time at one step per step time (the step model's,
 * computed once), checkpoints stall it (the whole write when synchronous,
 * the device-to-host copy when asynchronous, the write then going on in
 * the background), failures throw away the work since the last durable
 * checkpoint and cost a restart, a read of that checkpoint and, when no
 * spare node is free, a repair wait. Seeded trials give P50/P90.
 * docs/explanation/whole-run.md has every formula and constant with its source.
 * Failure times are exponential (one Poisson process for the job) or
 * Weibull (a renewal process per GPU and per node). A spot candidate with a
 * given preemption rate is preempted as a Poisson process per instance
 * (node), each preemption followed by an unbilled wait for capacity.
 * The run's records (specs, struct run_result, struct run_model) are in
 * run_types.h, which this header includes.
 */
#ifndef CLUSTERSIM_MODELS_RUN_RUN_H
#define CLUSTERSIM_MODELS_RUN_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "models/hw/hw.h"
#include "models/run/run_types.h"
#include "models/train/train.h"

/* Run m for t->trials seeded trials into out's wall time, held time, ETTR,
 * GPU-hours (on gpus, for the held time), the split, failures_mean and
 * preemptions_mean; out->failed when a trial runs
 * past 1000 times its failure-free length (it never finishes). */
void run_simulate(const struct run_model *m, const struct run_trials *t, long gpus, struct run_result *out);

/*
 * The whole run of a training or fine-tuning job whose step (r, status
 * OUTCOME_OK) is known: ceil(tokens / global batch) steps (one when no tokens
 * are given) with its checkpoints and failures, over t's trials, held and
 * billed for the P50 and P90 wall time (cost/billing.h). A run that fails
 * or is preempted without a workload.checkpoint checkpoints synchronously
 * to the candidate's first parallel file system tier (parallel-fs or
 * managed-lustre) at Daly's interval, and out->note says so.
 * out->failed (and out->note) when the run cannot be simulated (a
 * checkpoint tier the candidate lacks, no file system to assume, a run
 * that never finishes).
 */
void run_training(const struct run_spec *run, const struct train_spec *w, const struct cluster_spec *c,
		  const struct train_result *r, const struct run_trials *t, struct run_result *out);

/*
 * Fold the whole run's wait for data into the step (out->data_stall_s,
 * run_training's): a longer step doing the same work, so the step time
 * grows by the stall and the rates (tokens/s, TFLOP/s, MFU, HFU) shrink by
 * step / (step + stall). Nothing changes without a stall.
 */
void run_fold_data_stall(const struct run_result *out, struct train_result *r);

#endif
