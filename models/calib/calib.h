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
 * The fit is the maximum a posteriori one (calib_fit): residuals
 * log(predicted / measured) / error_rel per measurement and
 * log(value / catalog value) / sd_prior per constant (the catalog's values
 * are measurements too; sd_prior per kind of constant, calib_param), within
 * hard physical bounds (mamf <= 1, efficiency <= 1, measured HBM rate <= the
 * datasheet's) and CALIB_RANGE of the catalog. A constant is fitted when
 * the measurements determine it: its posterior sd (the Laplace
 * approximation, (A^T A)^-1 with the prior rows) is below CALIB_DETERMINED
 * times its prior sd, or the fit holds it at its physical bound; the others
 * keep the catalog's value and the determined ones are fitted again alone.
 * Held out: where a kind has at least three predicted measurements, each
 * is predicted exactly at the constants fitted without it to first order
 * (one Gauss-Newton step from the full fit's optimum on its Jacobian less
 * that row, prior rows included). Predictions are cached per (measurement,
 * constants) within a run. Deterministic: fixed orders, no randomness.
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

/* Fit the constants of base that set's measurements determine, error_rel
 * the sd of log(predicted / measured) (<= 0: CALIB_ERROR_DEFAULT). Returns 0
 * (also when nothing could be fitted: every constant then keeps its value),
 * or -1 with err set: an empty set, a document that is not a scenario with
 * a validation block. */
int calib_run(const catalog *base, const struct measure_set *set, double error_rel, struct calib_result *res,
	      struct cs_error *err);

/* The prediction of point i of res (after calib_run) by an exact refit of
 * res's fitted constants without it (what the held-out column approximates
 * to first order): 0, or -1 when the model gives none. */
int calib_heldout_refit(const catalog *base, struct calib_result *res, size_t i, double *pred);

void calib_result_release(struct calib_result *res);

/* The catalog overlay of the fitted constants that moved: {"gpus": [...],
 * "fabrics": [...]}, each entry its name, the moved fields, "source" and
 * "calibration" = source. NULL when nothing moved. New reference. */
json_t *calib_overlay(const struct calib_result *res, const char *source);

#endif
