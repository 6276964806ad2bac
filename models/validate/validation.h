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
 * mfu, hfu, step_time_s, tokens_per_s, samples_per_s (sequences). */

/* The model's value of s's validation metric into *out; false, with the
 * reason in why, when the scenario cannot be predicted (a plan that does not
 * fit, a metric that does not apply to the workload). */
bool validation_predict(const struct scenario *s, double *out, char *why, size_t why_size);

#endif
