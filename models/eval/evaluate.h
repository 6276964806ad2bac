/*
 * evaluate: a job in, a result out, for every workload kind.
 *
 * The one call that run, sweep, trace and validate (and later plan and
 * fleet sizing) make. It picks the kind's model from a table, fills the
 * cluster's figures and, where the kind has one, the whole run's; a job
 * that asks for something the program reads but does not model yet comes
 * back `unsupported` with the reason naming it, and without the figures
 * that would depend on it. Never prints, never reads files.
 */
#ifndef CLUSTERSIM_MODELS_EVAL_EVALUATE_H
#define CLUSTERSIM_MODELS_EVAL_EVALUATE_H

#include "models/eval/job.h"
#include "models/eval/result.h"

/* Which columns a job of this kind fills. */
enum result_kind evaluate_result_kind(enum workload_kind kind, bool shape_only);

/* Evaluate one job into *out (fully overwritten). */
void evaluate(const struct job *job, struct result *out);

#endif
