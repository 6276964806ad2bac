/*
 * calib_fit: the selection of the constants a set of points determines and
 * their fit (internal to models/calib).
 */
#ifndef CLUSTERSIM_MODELS_CALIB_CALIB_FIT_H
#define CLUSTERSIM_MODELS_CALIB_CALIB_FIT_H

#include "models/calib/calib_types.h"
#include "models/hw/catalog.h"

/* Choose the constants the points rows[0..n_rows) determine: state[j] and,
 * for an inseparable one, twin[j] for every constant of res; the fitted
 * ones' indices into cols (n_params long), in catalog order. Returns their
 * number. */
size_t calib_select(const catalog *base, const struct calib_result *res, const size_t *rows, size_t n_rows,
		    enum calib_state *state, size_t *twin, size_t *cols);

/* Fit constants cols[0..k) to the points rows; values (n_params long) gets
 * every constant's value (the others their before), at_bound which were
 * clamped to their bound. Returns the fit's iterations. */
int calib_fit_values(const catalog *base, const struct calib_result *res, const size_t *rows, size_t n_rows,
		     const size_t *cols, size_t k, double *values, bool *at_bound);

#endif
