/* calib_fit: the maximum a posteriori fit of the catalog's constants (a
 * projected Levenberg-Marquardt on log-value variables, the catalog's
 * values as the prior), its posterior covariance ((A^T A)^-1 of the
 * weighted residuals' Jacobian A, prior rows included: the Laplace
 * approximation) and the first-order refit without one point. */
#include "models/calib/calib_fit.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "models/calib/calib_param.h"
#include "util/xalloc.h"

/* Forward-difference step in u = log(value) (a 0.01% change). */
#define FIT_STEP 1e-4
/* A constant no row moves by 1e-6 in log per 1% change is unused. */
#define SENS_NONE 1e-4
#define FIT_MAX_ITER 100
/* Converged when no free u moves by more than this, or the cost (a chi^2:
 * squared weighted residuals) falls by less than COST_TOL, a change of
 * 0.3% of one sd in one residual. */
#define STEP_TOL 1e-5
#define COST_TOL 1e-5
/* The residual of a point the model cannot predict at some values (in
 * log): a large miss, so that the fit steps away. */
#define MISS_LOG 10.0
/* Within this (in u) of its bound a constant is at the bound. */
#define BOUND_TOL 1e-6
#define VALUE_DIGITS 6
#define CACHE_CAP 4096

struct centry {
	size_t point;
	double *key;  /* the values of every constant (only those the point uses compared) */
	double pred;  /* NAN: not predicted */
};

struct calib_cache {
	size_t np, n, next;
	struct centry e[CACHE_CAP];
};

struct calib_cache *calib_cache_new(size_t n_params)
{
	struct calib_cache *c = xcalloc(1, sizeof *c);
	c->np = n_params;
	return c;
}

void calib_cache_free(struct calib_cache *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->e[i].key);
	free(c);
}

static bool cache_get(const struct calib_cache *c, const struct calib_result *res, size_t point, const double *v,
		      double *out)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct centry *e = &c->e[i];
		size_t j = 0;
		if (e->point != point)
			continue;
		while (j < c->np && (e->key[j] == v[j] || !calib_point_uses(&res->points[point], &res->params[j])))
			j++;
		if (j == c->np) {
			*out = e->pred;
			return true;
		}
	}
	return false;
}

static void cache_put(struct calib_cache *c, size_t point, const double *v, double pred)
{
	struct centry *e = &c->e[c->next];
	if (c->n < CACHE_CAP)
		e->key = xcalloc(c->np + 1, sizeof *e->key), c->n++;
	e->point = point;
	e->pred = pred;
	memcpy(e->key, v, c->np * sizeof *v);
	c->next = (c->next + 1) % CACHE_CAP;
}

/* Predictions of the rows under values (NAN where the model gives none),
 * only of the rows using constant `only` when only < n_params (the others
 * untouched); the catalog is built only when one is not cached. */
static void predict_rows(struct calib_fit_ctx *c, const double *values, size_t only, double *out)
{
	struct calib_result *res = c->res;
	catalog *cat = NULL;
	bool refused = false;
	for (size_t i = 0; i < c->n_rows; i++) {
		size_t pi = c->rows[i];
		const struct calib_point *pt = &res->points[pi];
		char why[8];
		if (only < res->n_params && (c->moves != NULL ? !c->moves[i * res->n_params + only]
							       : !calib_point_uses(pt, &res->params[only])))
			continue;
		if (cache_get(c->cache, res, pi, values, &out[i]))
			continue;
		if (cat == NULL && !refused) {
			cat = calib_catalog_at(c->base, res->params, res->n_params, values);
			refused = cat == NULL;
		}
		if (cat == NULL || !calib_predict(cat, pt, &out[i], why, sizeof why))
			out[i] = NAN;
		res->n_evals++;
		cache_put(c->cache, pi, values, out[i]);
	}
	catalog_free(cat);
}

size_t calib_fit_used(struct calib_fit_ctx *c, size_t *cols, size_t k)
{
	const struct calib_result *res = c->res;
	size_t np = res->n_params, kept = 0;
	double *v = xcalloc(np + 1, sizeof *v), *p0 = xcalloc(c->n_rows + 1, sizeof *p0);
	double *p1 = xcalloc(c->n_rows + 1, sizeof *p1);
	unsigned char *moves = c->moves;
	c->moves = NULL;  /* while it is being measured */
	for (size_t j = 0; j < np; j++)
		v[j] = res->params[j].before;
	predict_rows(c, v, np, p0);
	for (size_t o = 0; o < k; o++) {
		size_t j = cols[o];
		double m = 0;
		v[j] = res->params[j].before * exp(-1e-2);  /* down: every constant can go down */
		memcpy(p1, p0, c->n_rows * sizeof *p1);
		predict_rows(c, v, j, p1);
		v[j] = res->params[j].before;
		for (size_t i = 0; i < c->n_rows; i++) {
			double d = isfinite(p0[i]) && isfinite(p1[i]) ? fabs(log(p1[i] / p0[i])) / 1e-2 : 0;
			m = fmax(m, d);
			if (moves != NULL)
				moves[i * np + j] = d >= SENS_NONE || isfinite(p0[i]) != isfinite(p1[i]);
		}
		if (m >= SENS_NONE)
			cols[kept++] = j;
	}
	c->moves = moves;
	free(v);
	free(p0);
	free(p1);
	return kept;
}

/* The fit's variables and bounds. */
struct fit_state {
	struct calib_fit_ctx *c;
	const size_t *cols;
	size_t k, n;         /* n = n_rows + k residuals */
	double *lo, *hi;     /* bounds of u */
	double *values;      /* n_params scratch */
};

static void values_at(const struct fit_state *s, const double *u)
{
	for (size_t j = 0; j < s->k; j++)
		s->values[s->cols[j]] = s->c->res->params[s->cols[j]].before * exp(u[j]);
}

/* Cauchy's loss (rho(z) = c^2 ln(1 + (z/c)^2), c = 2.3849 for 95% of least
 * squares' efficiency on normal errors: Holland & Welsch 1977): a
 * measurement the model's form cannot follow (z sigmas off whatever the
 * constants) weighs ever less, so it does not drag the others into a
 * compromise. The fit takes sign(z) sqrt(rho(z)) as the residual. */
#define CAUCHY_C 2.3849

static double robust(double z)
{
	double r = CAUCHY_C * sqrt(log1p(z * z / (CAUCHY_C * CAUCHY_C)));
	return z < 0 ? -r : r;
}

/* d robust(z) / dz: 1 at z = 0. */
static double robust_slope(double z)
{
	if (fabs(z) < 1e-8)
		return 1;
	return z / (1 + z * z / (CAUCHY_C * CAUCHY_C)) / robust(z);
}

/* The weighted residuals at u into e, predictions into pred; the cost. */
static double residuals(struct fit_state *s, const double *u, double *pred, double *e)
{
	const struct calib_result *res = s->c->res;
	double cost = 0;
	values_at(s, u);
	predict_rows(s->c, s->values, res->n_params, pred);
	for (size_t i = 0; i < s->c->n_rows; i++) {
		double r = isfinite(pred[i]) ? log(pred[i] / res->points[s->c->rows[i]].measured) : MISS_LOG;
		e[i] = robust(r / res->error_rel);
	}
	for (size_t j = 0; j < s->k; j++)
		e[s->c->n_rows + j] = u[j] / res->params[s->cols[j]].sd_prior;
	for (size_t i = 0; i < s->n; i++)
		cost += e[i] * e[i];
	return cost;
}

/* The Jacobian of the residuals in u at u (pred: the predictions there),
 * forward differences, one column per constant from the rows using it. */
static void jacobian(struct fit_state *s, const double *u, const double *pred, double *A)
{
	const struct calib_result *res = s->c->res;
	size_t nr = s->c->n_rows;
	double *p1 = xcalloc(nr + 1, sizeof *p1);
	memset(A, 0, s->n * s->k * sizeof *A);
	for (size_t j = 0; j < s->k; j++) {
		const struct calib_param *p = &res->params[s->cols[j]];
		double h = u[j] + FIT_STEP > s->hi[j] ? -FIT_STEP : FIT_STEP;
		values_at(s, u);
		s->values[s->cols[j]] = p->before * exp(u[j] + h);
		memcpy(p1, pred, nr * sizeof *p1);
		predict_rows(s->c, s->values, s->cols[j], p1);
		for (size_t i = 0; i < nr; i++)
			if ((s->c->moves == NULL || s->c->moves[i * res->n_params + s->cols[j]]) && isfinite(pred[i]) &&
			    isfinite(p1[i]))
				A[i * s->k + j] = log(p1[i] / pred[i]) / h / res->error_rel *
						  robust_slope(log(pred[i] / res->points[s->c->rows[i]].measured) /
							       res->error_rel);
		A[(nr + j) * s->k + j] = 1 / p->sd_prior;
	}
	free(p1);
}

/* free[j]: not held at a bound the gradient g = A^T e pushes it past. */
static size_t free_set(const struct fit_state *s, const double *u, const double *g, bool *fr)
{
	size_t nf = 0;
	for (size_t j = 0; j < s->k; j++) {
		fr[j] = !((u[j] >= s->hi[j] - BOUND_TOL && g[j] < 0) || (u[j] <= s->lo[j] + BOUND_TOL && g[j] > 0));
		nf += fr[j];
	}
	return nf;
}

/* Solve (A_F^T A_F + lambda diag) d = -(A_F^T e) over the free constants
 * (skipping row `skip`: SIZE_MAX none); d of the others 0. False when the
 * matrix is singular. */
static bool solve_step(const double *A, const double *e, size_t n, size_t k, const bool *fr, size_t skip,
		       double lambda, double *d)
{
	size_t nf = 0, *idx = xcalloc(k + 1, sizeof *idx);
	for (size_t j = 0; j < k; j++) {
		d[j] = 0;
		if (fr[j])
			idx[nf++] = j;
	}
	bool ok = nf == 0;
	if (nf > 0) {
		gsl_matrix *N = gsl_matrix_calloc(nf, nf);
		gsl_vector *b = gsl_vector_calloc(nf), *x = gsl_vector_alloc(nf);
		for (size_t i = 0; i < n; i++) {
			if (i == skip)
				continue;
			for (size_t a = 0; a < nf; a++) {
				double ra = A[i * k + idx[a]];
				*gsl_vector_ptr(b, a) -= ra * e[i];
				for (size_t bb = 0; bb < nf; bb++)
					*gsl_matrix_ptr(N, a, bb) += ra * A[i * k + idx[bb]];
			}
		}
		for (size_t a = 0; a < nf; a++)
			*gsl_matrix_ptr(N, a, a) *= 1 + lambda;
		gsl_error_handler_t *old = gsl_set_error_handler_off();
		ok = gsl_linalg_cholesky_decomp1(N) == GSL_SUCCESS && gsl_linalg_cholesky_solve(N, b, x) == GSL_SUCCESS;
		gsl_set_error_handler(old);
		for (size_t a = 0; ok && a < nf; a++)
			d[idx[a]] = gsl_vector_get(x, a);
		gsl_matrix_free(N);
		gsl_vector_free(b);
		gsl_vector_free(x);
	}
	free(idx);
	return ok;
}

static void gradient(const double *A, const double *e, size_t n, size_t k, double *g)
{
	for (size_t j = 0; j < k; j++) {
		g[j] = 0;
		for (size_t i = 0; i < n; i++)
			g[j] += A[i * k + j] * e[i];
	}
}

/* The posterior sd of the constants fr at the optimum: sqrt of the
 * diagonal of (A_F^T A_F)^-1. */
static void posterior_sd(const struct calib_map *m, size_t n, const bool *fr)
{
	size_t k = m->k, nf = 0, *idx = xcalloc(k + 1, sizeof *idx);
	for (size_t j = 0; j < k; j++)
		if (fr[j])
			idx[nf++] = j;
	if (nf > 0) {
		gsl_matrix *N = gsl_matrix_calloc(nf, nf);
		for (size_t i = 0; i < n; i++)
			for (size_t a = 0; a < nf; a++)
				for (size_t b = 0; b < nf; b++)
					*gsl_matrix_ptr(N, a, b) += m->A[i * k + idx[a]] * m->A[i * k + idx[b]];
		gsl_error_handler_t *old = gsl_set_error_handler_off();
		bool ok = gsl_linalg_cholesky_decomp1(N) == GSL_SUCCESS && gsl_linalg_cholesky_invert(N) == GSL_SUCCESS;
		gsl_set_error_handler(old);
		for (size_t a = 0; ok && a < nf; a++)
			m->sd[m->cols[idx[a]]] = sqrt(gsl_matrix_get(N, a, a));
		gsl_matrix_free(N);
	}
	free(idx);
}

static void clamp_step(const struct fit_state *s, const double *u, const double *d, double *u1)
{
	for (size_t j = 0; j < s->k; j++)
		u1[j] = fmin(fmax(u[j] + d[j], s->lo[j]), s->hi[j]);
}

/* Projected Levenberg-Marquardt from u; u ends at the optimum, pred and e
 * hold the predictions and residuals there. The iterations. */
static int minimise(struct fit_state *s, double *u, double *pred, double *e, double *A)
{
	size_t k = s->k;
	double *g = xcalloc(k + 1, sizeof *g), *d = xcalloc(k + 1, sizeof *d), *u1 = xcalloc(k + 1, sizeof *u1);
	double *p1 = xcalloc(s->c->n_rows + 1, sizeof *p1), *e1 = xcalloc(s->n + 1, sizeof *e1);
	bool *fr = xcalloc(k + 1, sizeof *fr);
	double cost = residuals(s, u, pred, e), lambda = 1e-3;
	int it = 0;
	for (bool done = false; !done && it < FIT_MAX_ITER; it++) {
		jacobian(s, u, pred, A);
		gradient(A, e, s->n, k, g);
		if (free_set(s, u, g, fr) == 0)
			break;
		for (;;) {
			if (!solve_step(A, e, s->n, k, fr, SIZE_MAX, lambda, d) || lambda > 1e12) {
				done = true;
				break;
			}
			clamp_step(s, u, d, u1);
			double cost1 = residuals(s, u1, p1, e1), moved = 0;
			if (cost1 > cost) {
				lambda *= 10;
				continue;
			}
			for (size_t j = 0; j < k; j++)
				moved = fmax(moved, fabs(u1[j] - u[j]));
			memcpy(u, u1, k * sizeof *u);
			memcpy(pred, p1, s->c->n_rows * sizeof *pred);
			memcpy(e, e1, s->n * sizeof *e);
			done = moved < STEP_TOL || cost - cost1 < COST_TOL;
			cost = cost1;
			lambda = fmax(lambda / 10, 1e-9);
			break;
		}
	}
	jacobian(s, u, pred, A);  /* at the optimum (its base predictions cached) */
	free(g);
	free(d);
	free(u1);
	free(p1);
	free(e1);
	free(fr);
	return it;
}

static void state_init(struct fit_state *s, struct calib_fit_ctx *c, const size_t *cols, size_t k,
		       const double *start, double *u)
{
	const struct calib_result *res = c->res;
	s->c = c;
	s->cols = cols;
	s->k = k;
	s->n = c->n_rows + k;
	s->lo = xcalloc(k + 1, sizeof *s->lo);
	s->hi = xcalloc(k + 1, sizeof *s->hi);
	s->values = xcalloc(res->n_params + 1, sizeof *s->values);
	for (size_t j = 0; j < res->n_params; j++)
		s->values[j] = res->params[j].before;
	for (size_t j = 0; j < k; j++) {
		const struct calib_param *p = &res->params[cols[j]];
		s->lo[j] = log(p->lo / p->before);
		s->hi[j] = log(p->hi / p->before);
		u[j] = fmin(fmax(log(start[cols[j]] / p->before), s->lo[j]), s->hi[j]);
	}
}

void calib_fit_map(struct calib_fit_ctx *c, const size_t *cols, size_t k, const double *start, struct calib_map *m)
{
	const struct calib_result *res = c->res;
	size_t np = res->n_params;
	struct fit_state s;
	memset(m, 0, sizeof *m);
	m->k = k;
	m->cols = xcalloc(k + 1, sizeof *m->cols);
	memcpy(m->cols, cols, k * sizeof *cols);
	m->values = xcalloc(np + 1, sizeof *m->values);
	m->at_bound = xcalloc(np + 1, sizeof *m->at_bound);
	m->sd = xcalloc(np + 1, sizeof *m->sd);
	m->A = xcalloc((c->n_rows + k) * k + 1, sizeof *m->A);
	m->e = xcalloc(c->n_rows + k + 1, sizeof *m->e);
	double *u = xcalloc(k + 1, sizeof *u), *pred = xcalloc(c->n_rows + 1, sizeof *pred);
	double *g = xcalloc(k + 1, sizeof *g);
	bool *fr = xcalloc(k + 1, sizeof *fr);
	for (size_t j = 0; j < np; j++)
		m->values[j] = res->params[j].before;
	state_init(&s, c, cols, k, start, u);
	if (k > 0) {
		m->iterations = minimise(&s, u, pred, m->e, m->A);
		for (size_t j = 0; j < k; j++)
			fr[j] = true;  /* the sd of every constant, as if free: the rule of determination */
		posterior_sd(m, s.n, fr);
		gradient(m->A, m->e, s.n, k, g);
		free_set(&s, u, g, fr);
	}
	for (size_t j = 0; j < k; j++) {
		m->at_bound[cols[j]] = !fr[j];
		m->values[cols[j]] = res->params[cols[j]].before * exp(u[j]);
	}
	free(u);
	free(pred);
	free(g);
	free(fr);
	free(s.lo);
	free(s.hi);
	free(s.values);
}

void calib_map_release(struct calib_map *m)
{
	free(m->cols);
	free(m->values);
	free(m->at_bound);
	free(m->sd);
	free(m->A);
	free(m->e);
	memset(m, 0, sizeof *m);
}

void calib_fit_drop_row(const struct calib_fit_ctx *c, const struct calib_map *m, size_t r, double *values)
{
	const struct calib_result *res = c->res;
	size_t k = m->k;
	double *d = xcalloc(k + 1, sizeof *d);
	bool *fr = xcalloc(k + 1, sizeof *fr);
	memcpy(values, m->values, res->n_params * sizeof *values);
	for (size_t j = 0; j < k; j++)
		fr[j] = !m->at_bound[m->cols[j]];
	if (solve_step(m->A, m->e, c->n_rows + k, k, fr, r, 0, d))
		for (size_t j = 0; j < k; j++) {
			const struct calib_param *p = &res->params[m->cols[j]];
			values[m->cols[j]] = fmin(fmax(m->values[m->cols[j]] * exp(d[j]), p->lo), p->hi);
		}
	free(d);
	free(fr);
}

double calib_round(double v)
{
	if (!(v > 0))
		return v;
	double scale = pow(10, VALUE_DIGITS - 1 - (int)floor(log10(v)));
	return round(v * scale) / scale;
}
