/*
 * eval_kind: each workload kind's evaluator, the entries of evaluate.c's
 * table, and the two steps of evaluate.c they share. Private to
 * models/eval: commands call evaluate() (evaluate.h).
 *
 * An evaluator runs its kind's model (train/, serve/, fleet/, comm/) on the
 * job's cluster and fills the result's outcome and its kind's detail; the
 * physics stays in those folders, the evaluator only joins it to the row.
 */
#ifndef CLUSTERSIM_MODELS_EVAL_EVAL_KIND_H
#define CLUSTERSIM_MODELS_EVAL_EVAL_KIND_H

#include "models/eval/job.h"
#include "models/eval/result.h"

void eval_train(const struct job *j, struct result *out);      /* eval_train.c: training, finetune */
void eval_serve(const struct job *j, struct result *out);      /* eval_serve.c: inference */
void eval_fleet(const struct job *j, struct result *out);      /* eval_fleet.c */
void eval_collective(const struct job *j, struct result *out); /* eval_collective.c */
void eval_gemm(const struct job *j, struct result *out);       /* eval_gemm.c */

/* evaluate.c: mark out unsupported for each thing the job asks for that is
 * read but not modelled; true when one of them voids the run's figures. */
bool evaluate_unmodelled(const struct job *j, struct result *out);

/* evaluate.c: note in out's reason that the candidate has no price. */
void evaluate_note_no_price(const struct job *j, struct result *out);

/* evaluate.c: on a reserved price, note in out's reason how the run is
 * billed for its commitment (billing_commit_note): held_s its held time,
 * 0 for a service priced per hour; gpus the GPUs billed. */
void evaluate_note_commitment(const struct job *j, long gpus, double held_s, struct result *out);

/* evaluate.c: note in out's reason each rate the job computes with that no
 * measurement supports (FP4 on a GPU without a catalog mamf_fp4). */
void evaluate_note_assumed_rates(const struct job *j, struct result *out);

/* evaluate.c: note in out's reason the calibration each catalog entry the
 * job runs on comes from (a `clustersim calibrate` overlay: its entries'
 * "calibration"), "calibrated: ENTRIES (SOURCE)"; nothing without one. The
 * GPU only without with_fabrics (a gemm runs on one GPU). */
void evaluate_note_calibration(const struct job *j, struct result *out, bool with_fabrics);

#endif
