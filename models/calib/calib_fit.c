/* calib_fit: which constants the measurements determine (the Jacobian's
 * rank) and the bounded least-squares fit of those (GSL's nlinear). */
#include "models/calib/calib_fit.h"

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/calib/calib_param.h"
#include "util/xalloc.h"

/* Log-space step of the sensitivities (a 0.1% change of a constant). */
#define SENS_STEP 1e-3
/* A constant whose 1% change moves no prediction by more than 1e-6 (in
 * log) is one no measurement depends on; one that moves none by more than
 * 0.05% is too weakly determined to fit (noise of that size would move it
 * by whole factors). */
#define SENS_NONE 1e-4
#define SENS_WEAK 0.05
/* The smallest singular value of the chosen constants' normalised columns
 * below which a candidate is taken as not separable from them. */
#define SEP_TOL 0.1
/* Step of the fit's finite differences, in its variable z. */
#define FIT_STEP 1e-6
#define FIT_MAX_ITER 200
/* Within this fraction of its bound a fitted constant is at the bound. */
#define BOUND_TOL 1e-4
/* Values are written with this many significant digits. */
#define VALUE_DIGITS 6

struct fit_ctx {
	const catalog *base;
	const struct calib_result *res;
	const size_t *rows;  /* the points fitted */
	size_t n_rows;
	const size_t *cols;  /* the constants fitted */
	size_t n_cols;
	double *values;      /* every constant's value, the fitted ones rewritten */
};

/* Predictions of the rows under values (NaN where the model gives none),
 * only of rows using constant `only` when only < n_params. False when the
 * catalog refuses a value. */
static bool predict_rows(const struct fit_ctx *c, const double *values, size_t only, double *out)
{
	const struct calib_result *res = c->res;
	catalog *cat = calib_catalog_at(c->base, res->params, res->n_params, values);
	if (cat == NULL)
		return false;
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct calib_point *pt = &res->points[c->rows[i]];
		char why[8];
		if (only < res->n_params && !calib_point_uses(pt, &res->params[only]))
			continue;
		if (!calib_predict(cat, pt, &out[i], why, sizeof why))
			out[i] = NAN;
	}
	catalog_free(cat);
	return true;
}

/* d log(prediction) / d log(value) of every row and every constant at
 * values, row-major n_rows x n_params. */
static void sensitivities(const struct fit_ctx *c, const double *values, double *J)
{
	const struct calib_result *res = c->res;
	double *p0 = xcalloc(c->n_rows, sizeof *p0), *p1 = xcalloc(c->n_rows, sizeof *p1);
	double *v = xcalloc(res->n_params, sizeof *v);
	memset(J, 0, c->n_rows * res->n_params * sizeof *J);
	predict_rows(c, values, res->n_params, p0);
	for (size_t j = 0; j < res->n_params; j++) {
		const struct calib_param *p = &res->params[j];
		double h = SENS_STEP;
		memcpy(v, values, res->n_params * sizeof *v);
		if (values[j] * exp(h) > p->hi)
			h = -h;  /* at the bound: step down */
		v[j] = values[j] * exp(h);
		if (!predict_rows(c, v, j, p1))
			continue;
		for (size_t i = 0; i < c->n_rows; i++)
			if (calib_point_uses(&res->points[c->rows[i]], p) && isfinite(p0[i]) && isfinite(p1[i]))
				J[i * res->n_params + j] = (log(p1[i]) - log(p0[i])) / h;
	}
	free(p0);
	free(p1);
	free(v);
}

/* The smallest singular value of the columns cols (normalised) of J. */
static double min_singular(const double *J, size_t n_rows, size_t n_params, const size_t *cols, size_t k)
{
	gsl_matrix *A = gsl_matrix_alloc(n_rows, k), *V = gsl_matrix_alloc(k, k);
	gsl_vector *S = gsl_vector_alloc(k), *work = gsl_vector_alloc(k);
	for (size_t j = 0; j < k; j++) {
		double norm = 0;
		for (size_t i = 0; i < n_rows; i++)
			norm += J[i * n_params + cols[j]] * J[i * n_params + cols[j]];
		norm = sqrt(norm);
		for (size_t i = 0; i < n_rows; i++)
			gsl_matrix_set(A, i, j, J[i * n_params + cols[j]] / norm);
	}
	gsl_linalg_SV_decomp(A, V, S, work);
	double s = gsl_vector_get(S, k - 1);
	gsl_matrix_free(A);
	gsl_matrix_free(V);
	gsl_vector_free(S);
	gsl_vector_free(work);
	return s;
}

/* The chosen constant whose column is most aligned with column j's. */
static size_t most_aligned(const double *J, size_t n_rows, size_t n_params, const size_t *cols, size_t k, size_t j)
{
	size_t best = cols[0];
	double best_cos = -1;
	for (size_t c = 0; c < k; c++) {
		double dot = 0, na = 0, nb = 0;
		for (size_t i = 0; i < n_rows; i++) {
			double a = J[i * n_params + cols[c]], b = J[i * n_params + j];
			dot += a * b;
			na += a * a;
			nb += b * b;
		}
		double cs = fabs(dot) / sqrt(na * nb);
		if (cs > best_cos) {
			best_cos = cs;
			best = cols[c];
		}
	}
	return best;
}

struct norm_idx {
	double norm;
	size_t j;
};

static int cmp_norm(const void *a, const void *b)
{
	const struct norm_idx *x = a, *y = b;
	if (x->norm != y->norm)
		return x->norm > y->norm ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

size_t calib_select(const catalog *base, const struct calib_result *res, const size_t *rows, size_t n_rows,
		    enum calib_state *state, size_t *twin, size_t *cols)
{
	size_t np = res->n_params, k = 0;
	struct fit_ctx c = { .base = base, .res = res, .rows = rows, .n_rows = n_rows };
	double *values = xcalloc(np, sizeof *values), *J = xcalloc(n_rows * np + 1, sizeof *J);
	struct norm_idx *order = xcalloc(np, sizeof *order);
	for (size_t j = 0; j < np; j++)
		values[j] = res->params[j].before;
	sensitivities(&c, values, J);
	for (size_t j = 0; j < np; j++) {
		double m = 0, s = 0;
		for (size_t i = 0; i < n_rows; i++) {
			m = fmax(m, fabs(J[i * np + j]));
			s += J[i * np + j] * J[i * np + j];
		}
		order[j].norm = m < SENS_WEAK ? 0 : sqrt(s);
		order[j].j = j;
		state[j] = m < SENS_NONE ? CALIB_UNUSED : m < SENS_WEAK ? CALIB_WEAK : CALIB_UNUSED;
		twin[j] = j;
	}
	qsort(order, np, sizeof *order, cmp_norm);  /* the most determined first */
	for (size_t o = 0; o < np && order[o].norm > 0; o++) {
		size_t j = order[o].j;
		cols[k] = j;
		if (k + 1 <= n_rows && min_singular(J, n_rows, np, cols, k + 1) > SEP_TOL) {
			state[j] = CALIB_FITTED;
			k++;
		} else {
			state[j] = CALIB_INSEPARABLE;
			twin[j] = most_aligned(J, n_rows, np, cols, k, j);
		}
	}
	/* The fitted constants in the catalog's order, for a stable fit. */
	k = 0;
	for (size_t j = 0; j < np; j++)
		if (state[j] == CALIB_FITTED)
			cols[k++] = j;
	free(values);
	free(J);
	free(order);
	return k;
}

/* The value of z: log v runs from log lo to log hi as z runs over R. */
static double to_value(const struct calib_param *p, double z)
{
	double a = log(p->lo), b = log(p->hi);
	return exp(a + (b - a) / (1 + exp(-z)));
}

static double to_z(const struct calib_param *p, double v)
{
	double a = log(p->lo), b = log(p->hi);
	double f = fmin(fmax((log(v) - a) / (b - a), 1e-6), 1 - 1e-6);
	return log(f / (1 - f));
}

/* Residuals log(predicted / measured) at z; a point the model cannot
 * predict there counts as a large miss, so the fit steps away from it. */
static int fit_f(const gsl_vector *z, void *data, gsl_vector *f)
{
	struct fit_ctx *c = data;
	double *pred = xcalloc(c->n_rows, sizeof *pred);
	for (size_t j = 0; j < c->n_cols; j++)
		c->values[c->cols[j]] = to_value(&c->res->params[c->cols[j]], gsl_vector_get(z, j));
	bool ok = predict_rows(c, c->values, c->res->n_params, pred);
	for (size_t i = 0; i < c->n_rows; i++) {
		double r = ok && isfinite(pred[i]) ? log(pred[i] / c->res->points[c->rows[i]].measured) : 10.0;
		gsl_vector_set(f, i, r);
	}
	free(pred);
	return GSL_SUCCESS;
}

/* The Jacobian by forward differences, each column from the rows of the
 * points that use its constant only (the others are 0). */
static int fit_df(const gsl_vector *z, void *data, gsl_matrix *Jm)
{
	struct fit_ctx *c = data;
	const struct calib_result *res = c->res;
	double *p0 = xcalloc(c->n_rows, sizeof *p0), *p1 = xcalloc(c->n_rows, sizeof *p1);
	double *v1 = xcalloc(res->n_params, sizeof *v1);
	for (size_t j = 0; j < c->n_cols; j++)
		c->values[c->cols[j]] = to_value(&res->params[c->cols[j]], gsl_vector_get(z, j));
	bool ok0 = predict_rows(c, c->values, res->n_params, p0);
	gsl_matrix_set_zero(Jm);
	for (size_t j = 0; ok0 && j < c->n_cols; j++) {
		size_t pj = c->cols[j];
		memcpy(v1, c->values, res->n_params * sizeof *v1);
		v1[pj] = to_value(&res->params[pj], gsl_vector_get(z, j) + FIT_STEP);
		if (!predict_rows(c, v1, pj, p1))
			continue;
		for (size_t i = 0; i < c->n_rows; i++)
			if (calib_point_uses(&res->points[c->rows[i]], &res->params[pj]) && isfinite(p0[i]) &&
			    isfinite(p1[i]))
				gsl_matrix_set(Jm, i, j, (log(p1[i]) - log(p0[i])) / FIT_STEP);
	}
	free(p0);
	free(p1);
	free(v1);
	return GSL_SUCCESS;
}

static double round_sig(double v)
{
	if (!(v > 0))
		return v;
	double scale = pow(10, VALUE_DIGITS - 1 - (int)floor(log10(v)));
	return round(v * scale) / scale;
}

int calib_fit_values(const catalog *base, const struct calib_result *res, const size_t *rows, size_t n_rows,
		     const size_t *cols, size_t k, double *values, bool *at_bound)
{
	for (size_t j = 0; j < res->n_params; j++) {
		values[j] = res->params[j].before;
		at_bound[j] = false;
	}
	if (k == 0)
		return 0;
	struct fit_ctx c = { base, res, rows, n_rows, cols, k, values };
	gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_fdf fdf = { .f = fit_f, .df = fit_df, .fvv = NULL, .n = n_rows, .p = k, .params = &c };
	gsl_multifit_nlinear_workspace *w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, n_rows, k);
	gsl_vector *z0 = gsl_vector_alloc(k);
	int info, iters;
	for (size_t j = 0; j < k; j++)
		gsl_vector_set(z0, j, to_z(&res->params[cols[j]], values[cols[j]]));
	gsl_multifit_nlinear_init(z0, &fdf, w);
	gsl_multifit_nlinear_driver(FIT_MAX_ITER, 1e-12, 1e-12, 1e-12, NULL, NULL, &info, w);
	iters = (int)gsl_multifit_nlinear_niter(w);
	gsl_vector *z = gsl_multifit_nlinear_position(w);
	for (size_t j = 0; j < k; j++) {
		const struct calib_param *p = &res->params[cols[j]];
		double v = to_value(p, gsl_vector_get(z, j));
		if (v > p->hi * (1 - BOUND_TOL) || v < p->lo * (1 + BOUND_TOL)) {
			v = v > p->hi * (1 - BOUND_TOL) ? p->hi : p->lo;
			at_bound[cols[j]] = true;
		}
		values[cols[j]] = round_sig(v);
	}
	gsl_vector_free(z0);
	gsl_multifit_nlinear_free(w);
	return iters;
}
