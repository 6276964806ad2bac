/*
 * calib: fit the catalog's measured constants to a user's measurements.
 *
 * The constants are the catalog fields that turn a datasheet into time, per
 * entry a measurement actually runs on: per GPU the achievable GEMM fraction
 * of each precision (mamf_bf16, mamf_fp8, mamf_fp4), the measured HBM
 * streaming rate (mem_bw_measured_GBps) and the training attention ratio
 * (attn_train_over_gemm, where the GPU has one); per fabric the large
 * all-reduce efficiency, the per-hop latency and the in-switch reduction
 * efficiency (nvls_algbw_efficiency, where it has one). The model's global
 * terms (overlap slowdown, straggler, the serving engine's constants) are
 * compile-time constants of their modules, not catalog data: calib does not
 * fit them and says so.
 *
 * Which constants the measurements determine is read from the data: the
 * sensitivity of every measurement's prediction to every constant (finite
 * differences in log space, the Jacobian J), then a greedy selection by
 * rank (the SVD of J's normalised columns): a constant no prediction moves
 * is "not used", one whose column lies in the span of those already chosen
 * is "not separable" from the chosen one it is most aligned with. Only the
 * chosen constants are fitted (GSL's trust-region Levenberg-Marquardt,
 * gsl_multifit_nlinear, on the residuals log(predicted / measured)), each
 * through a bounded reparameterisation, log v = log lo + (log hi - log lo)
 * / (1 + e^-z), where hi is the smaller of its physical bound (mamf <= 1,
 * efficiency <= 1, measured HBM rate <= the datasheet's) and CALIB_RANGE
 * times its catalog value, and lo that value over CALIB_RANGE. Leave-one-out: where a kind has
 * at least three predicted measurements, each is predicted by a whole
 * selection and fit made without it. Deterministic: fixed orders, no
 * randomness.
 *
 * This module never prints.
 */
#ifndef CLUSTERSIM_MODELS_CALIB_CALIB_H
#define CLUSTERSIM_MODELS_CALIB_CALIB_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "models/calib/calib_types.h"
#include "models/hw/catalog.h"
#include "models/measure/measure.h"
#include "util/error.h"

/* Fit the constants of base that set's measurements determine. Returns 0
 * (also when nothing could be fitted: every constant then keeps its value),
 * or -1 with err set: an empty set, a document that is not a scenario with
 * a validation block. */
int calib_run(const catalog *base, const struct measure_set *set, struct calib_result *res,
	      struct cs_error *err);

void calib_result_release(struct calib_result *res);

/* The catalog overlay of the fitted constants that moved: {"gpus": [...],
 * "fabrics": [...]}, each entry its name, the moved fields, "source" and
 * "calibration" = source. NULL when nothing moved. New reference. */
json_t *calib_overlay(const struct calib_result *res, const char *source);

#endif
