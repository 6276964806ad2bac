/*
 * validation: what the model predicts for a published figure.
 *
 * A validation scenario (scenarios/validation/) is a published run or
 * measurement expressed as a scenario whose "validation" block names the
 * metric and the published value; its first candidate is the cluster. This
 * module computes the model's value of that metric; `clustersim validate`
 * compares the two.
 */
#ifndef CLUSTERSIM_MODELS_VALIDATE_VALIDATION_H
#define CLUSTERSIM_MODELS_VALIDATE_VALIDATION_H

#include <stdbool.h>
#include <stddef.h>

#include "models/scenario/scenario.h"

/* The metrics, in the units of their names:
 * collectives: busbw_GBps, busbw_per_nic_GBps (bus bandwidth over the NICs
 * of a node), algbw_GBps, time_us; training and fine-tuning: tflops_per_gpu,
 * mfu, hfu, step_time_s, tokens_per_s, samples_per_s (sequences); serving
 * (an inference workload, the whole first candidate): output_tok_s,
 * throughput_tok_s (prompt + output), request_per_s, ttft_p50_ms,
 * ttft_mean_ms, tpot_p50_ms, tpot_mean_ms, itl_p50_ms, itl_mean_ms,
 * e2e_p50_s, e2e_mean_s. */

/* What kind of figure a validation row is, for the rows' `kind` column and
 * the summary of each kind. */
enum validation_kind { VALIDATION_TRAINING, VALIDATION_COLLECTIVE, VALIDATION_SERVING };
extern const char *const validation_kind_names[];

/* The kind of s's validation row (from its workload kind). */
enum validation_kind validation_kind(const struct scenario *s);

/* The model's value of s's validation metric into *out; false, with the
 * reason in why, when the scenario cannot be predicted (a plan that does not
 * fit, a metric that does not apply to the workload). */
bool validation_predict(const struct scenario *s, double *out, char *why, size_t why_size);

#endif
