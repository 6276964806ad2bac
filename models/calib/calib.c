/* calib: the measurements' points, the fit on all of them, the held-out
 * predictions and the overlay of what moved. */
#include "models/calib/calib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/calib/calib_fit.h"
#include "models/calib/calib_param.h"
#include "util/xalloc.h"

/* Leave-one-out needs at least this many predicted points of a kind. */
#define LOO_MIN 3

static void point_entry(struct calib_point *pt, const char *name)
{
	if (name[0] == '\0' || pt->n_entries >= 4)
		return;
	snprintf(pt->entries[pt->n_entries++], CAT_NAME_MAX, "%s", name);
}

/* Read document d into pt: its row, the entries its first candidate runs
 * on, its prediction under base. -1 with err set when it is not a scenario
 * with a validation block. */
static int point_load(const catalog *base, const struct measure_doc *d, struct calib_point *pt,
		      struct cs_error *err)
{
	struct scenario s;
	catalog *c = catalog_copy(base);
	memset(pt, 0, sizeof *pt);
	pt->doc = d;
	if (scenario_from_json(d->scenario, d->anchor != NULL ? d->anchor : d->file, c, &s, err) < 0) {
		catalog_free(c);
		return -1;
	}
	if (!s.validation.present) {
		scenario_release(&s);
		catalog_free(c);
		return error_set(err, "%s: no \"validation\" block (the measured figure)", d->file);
	}
	if (measure_doc_check(d, &s, err) < 0) {
		scenario_release(&s);
		catalog_free(c);
		return -1;
	}
	snprintf(pt->id, sizeof pt->id, "%s", s.validation.id);
	snprintf(pt->metric, sizeof pt->metric, "%s", s.validation.metric);
	snprintf(pt->source, sizeof pt->source, "%s", s.validation.source);
	pt->kind = validation_kind(&s);
	pt->measured = s.validation.published;
	if (s.n_candidates > 0) {
		const struct cluster_spec *cl = &s.candidates[0];
		point_entry(pt, cl->gpu.id.name);
		point_entry(pt, cl->scale_up.id.name);
		if (cl->has_host)
			point_entry(pt, cl->host.id.name);
		if (cl->has_nic)
			point_entry(pt, cl->nic.id.name);
	}
	char why[4096] = "";
	pt->ok = pt->measured > 0 && validation_predict(&s, &pt->before, why, sizeof why) && isfinite(pt->before) &&
		 pt->before > 0;
	if (!pt->ok)
		snprintf(pt->why, sizeof pt->why, "%s", why[0] ? why : "the model gives no positive value");
	scenario_release(&s);
	catalog_free(c);
	return 0;
}

/* The predicted points other than `skip` (SIZE_MAX: none) into rows. */
static size_t rows_except(const struct calib_result *res, size_t skip, size_t *rows)
{
	size_t n = 0;
	for (size_t i = 0; i < res->n_points; i++)
		if (res->points[i].ok && i != skip)
			rows[n++] = i;
	return n;
}

/* Predict every point under values into `after` (or pt's heldout when
 * only < n_points: that point alone). */
static void predict_at(const catalog *base, struct calib_result *res, const double *values, size_t only)
{
	catalog *cat = calib_catalog_at(base, res->params, res->n_params, values);
	for (size_t i = 0; cat != NULL && i < res->n_points; i++) {
		struct calib_point *pt = &res->points[i];
		char why[8];
		if (!pt->ok || (only < res->n_points && i != only))
			continue;
		if (only < res->n_points)
			pt->has_heldout = calib_predict(cat, pt, &pt->heldout, why, sizeof why);
		else
			pt->after_ok = calib_predict(cat, pt, &pt->after, why, sizeof why);
	}
	catalog_free(cat);
}

/* Held out: each point of a kind with >= LOO_MIN predicted points, predicted
 * by the selection and fit of every other point. */
static void leave_one_out(const catalog *base, struct calib_result *res)
{
	size_t np = res->n_params, count[VALIDATION_KINDS] = { 0 };
	size_t *rows = xcalloc(res->n_points + 1, sizeof *rows), *cols = xcalloc(np + 1, sizeof *cols);
	size_t *twin = xcalloc(np + 1, sizeof *twin);
	enum calib_state *state = xcalloc(np + 1, sizeof *state);
	double *values = xcalloc(np + 1, sizeof *values);
	bool *at_bound = xcalloc(np + 1, sizeof *at_bound);
	for (size_t i = 0; i < res->n_points; i++)
		count[res->points[i].kind] += res->points[i].ok;
	for (size_t i = 0; i < res->n_points; i++) {
		struct calib_point *pt = &res->points[i];
		if (!pt->ok)
			continue;
		if (count[pt->kind] < LOO_MIN) {
			snprintf(pt->heldout_why, sizeof pt->heldout_why, "fewer than %d predicted %s measurements",
				 LOO_MIN, validation_kind_names[pt->kind]);
			continue;
		}
		size_t n = rows_except(res, i, rows);
		size_t k = calib_select(base, res, rows, n, state, twin, cols);
		calib_fit_values(base, res, rows, n, cols, k, values, at_bound);
		predict_at(base, res, values, i);
		if (!pt->has_heldout)
			snprintf(pt->heldout_why, sizeof pt->heldout_why, "not predicted by the held-out fit");
	}
	free(rows);
	free(cols);
	free(twin);
	free(state);
	free(values);
	free(at_bound);
}

/* The fit on every predicted point: the params' states and after values. */
static void fit_all(const catalog *base, struct calib_result *res)
{
	size_t np = res->n_params;
	size_t *rows = xcalloc(res->n_points + 1, sizeof *rows), *cols = xcalloc(np + 1, sizeof *cols);
	size_t *twin = xcalloc(np + 1, sizeof *twin);
	enum calib_state *state = xcalloc(np + 1, sizeof *state);
	double *values = xcalloc(np + 1, sizeof *values);
	bool *at_bound = xcalloc(np + 1, sizeof *at_bound);
	size_t n = rows_except(res, SIZE_MAX, rows);
	size_t k = calib_select(base, res, rows, n, state, twin, cols);
	res->iterations = calib_fit_values(base, res, rows, n, cols, k, values, at_bound);
	res->n_fitted = k;
	for (size_t j = 0; j < np; j++) {
		res->params[j].state = state[j];
		res->params[j].twin = twin[j];
		res->params[j].after = values[j];
		res->params[j].at_bound = at_bound[j];
	}
	predict_at(base, res, values, SIZE_MAX);
	free(rows);
	free(cols);
	free(twin);
	free(state);
	free(values);
	free(at_bound);
}

int calib_run(const catalog *base, const struct measure_set *set, struct calib_result *res, struct cs_error *err)
{
	memset(res, 0, sizeof *res);
	if (set->n == 0)
		return error_set(err, "calibrate: no measurements to fit");
	res->points = xcalloc(set->n, sizeof *res->points);
	for (size_t i = 0; i < set->n; i++) {
		if (point_load(base, &set->docs[i], &res->points[i], err) < 0) {
			calib_result_release(res);
			return -1;
		}
		res->n_points++;
	}
	calib_params_collect(base, res);
	fit_all(base, res);
	leave_one_out(base, res);
	return 0;
}

void calib_result_release(struct calib_result *res)
{
	free(res->params);
	free(res->points);
	memset(res, 0, sizeof *res);
}

json_t *calib_overlay(const struct calib_result *res, const char *source)
{
	double *values = xcalloc(res->n_params + 1, sizeof *values);
	for (size_t j = 0; j < res->n_params; j++)
		values[j] = res->params[j].after;
	json_t *root = calib_params_overlay(res->params, res->n_params, values, true);
	free(values);
	if (json_object_size(root) == 0) {
		json_decref(root);
		return NULL;
	}
	const char *const secs[] = { "gpus", "fabrics" };
	for (int s = 0; s < 2; s++) {
		json_t *arr = json_object_get(root, secs[s]), *e;
		size_t i;
		json_array_foreach(arr, i, e) {
			json_object_set_new(e, "source", json_string(source));
			json_object_set_new(e, "calibration", json_string(source));
		}
	}
	return root;
}
