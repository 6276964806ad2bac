/*
 * calib_fit: the maximum a posteriori fit of the candidate constants to a
 * set of points, its posterior sds, and the first-order refit without one
 * point (internal to models/calib).
 *
 * Variables u_j = log(value_j / catalog value_j). Residuals: per point
 * log(predicted / measured) / res->error_rel, per constant u_j / sd_prior_j
 * (the catalog's values are themselves measurements). The physical bounds
 * (mamf <= 1, efficiency <= 1, HBM rate <= the datasheet's) and the fit's
 * range (CALIB_RANGE) are hard: a projected Levenberg-Marquardt.
 */
#ifndef CLUSTERSIM_MODELS_CALIB_CALIB_FIT_H
#define CLUSTERSIM_MODELS_CALIB_CALIB_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "models/calib/calib_types.h"
#include "models/hw/catalog.h"

/* Predictions already made in one run, per (point, values of the
 * constants it uses). */
struct calib_cache;
struct calib_cache *calib_cache_new(size_t n_params);
void calib_cache_free(struct calib_cache *c);

struct calib_fit_ctx {
	const catalog *base;
	struct calib_result *res;  /* params, points, error_rel; n_evals counted */
	struct calib_cache *cache;
	const size_t *rows;        /* the points fitted */
	size_t n_rows;
	/* n_rows x n_params, set by calib_fit_used (NULL: every point moves
	 * with every constant of the entries it runs on): whether a 1% change
	 * of the constant moved the row's prediction at the catalog's values.
	 * The Jacobian skips the others. Owned by the caller. */
	unsigned char *moves;
};

/* The fit's outcome at its optimum. */
struct calib_map {
	size_t k;          /* constants fitted */
	size_t *cols;      /* their indices into res->params */
	double *values;    /* n_params: every constant's value (the others their before) */
	bool *at_bound;    /* n_params */
	double *sd;        /* n_params: posterior sd of log(value) (bounds ignored); 0 outside the fit */
	double *A;         /* (n_rows + k) x k: the weighted residuals' Jacobian in u, prior rows last */
	double *e;         /* n_rows + k: the weighted residuals */
	int iterations;
};

/* The constants among cols[0..k) that some row's prediction moves (a 1%
 * change moves one by more than 1e-6 in log), kept in cols; their number.
 * Sets c->moves when not NULL. */
size_t calib_fit_used(struct calib_fit_ctx *c, size_t *cols, size_t k);

/* Fit constants cols[0..k) from start (n_params values) into m. */
void calib_fit_map(struct calib_fit_ctx *c, const size_t *cols, size_t k, const double *start, struct calib_map *m);
void calib_map_release(struct calib_map *m);

/* The constants fitted without row r (an index into c->rows), to first
 * order: one Gauss-Newton step from m's optimum on m's Jacobian less row r,
 * prior rows included, clamped to the bounds; into values (n_params). */
void calib_fit_drop_row(const struct calib_fit_ctx *c, const struct calib_map *m, size_t r, double *values);

/* Round to the 6 significant digits the overlay writes. */
double calib_round(double v);

#endif
