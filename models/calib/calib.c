/* calib: the measurements' points, the fit on all of them, the held-out
 * predictions and the overlay of what moved. */
#include "models/calib/calib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/calib/calib_fit.h"
#include "models/calib/calib_param.h"
#include "util/text.h"
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
	/* the engine: a serving row's scheduler's, a training row's "training" */
	if (s.workload.kind == WORKLOAD_INFERENCE)
		snprintf(pt->engine, sizeof pt->engine, "%s", serve_engine_names[s.workload.serving.engine]);
	else if (s.workload.kind == WORKLOAD_TRAINING || s.workload.kind == WORKLOAD_FINETUNE)
		snprintf(pt->engine, sizeof pt->engine, "training");
	char why[4096] = "";
	pt->ok = pt->measured > 0 && validation_predict(&s, &pt->before, why, sizeof why) && isfinite(pt->before) &&
		 pt->before > 0;
	if (!pt->ok)
		text_setf(pt->why, sizeof pt->why, "%s", why[0] ? why : "the model gives no positive value");
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

/* The first-order held-out fit (calib_fit_drop_row) of each point of a
 * kind with >= LOO_MIN predicted points, and its exact prediction there. */
static void leave_one_out(struct calib_fit_ctx *c, const struct calib_map *m)
{
	struct calib_result *res = c->res;
	size_t count[VALIDATION_KINDS] = { 0 };
	double *values = xcalloc(res->n_params + 1, sizeof *values);
	for (size_t i = 0; i < res->n_points; i++)
		count[res->points[i].kind] += res->points[i].ok;
	for (size_t r = 0; r < c->n_rows; r++) {
		struct calib_point *pt = &res->points[c->rows[r]];
		if (count[pt->kind] < LOO_MIN) {
			snprintf(pt->heldout_why, sizeof pt->heldout_why, "fewer than %d predicted %s measurements",
				 LOO_MIN, validation_kind_names[pt->kind]);
			continue;
		}
		calib_fit_drop_row(c, m, r, values);
		predict_at(c->base, res, values, c->rows[r]);
		if (!pt->has_heldout)
			snprintf(pt->heldout_why, sizeof pt->heldout_why, "not predicted by the held-out fit");
	}
	free(values);
}

/* The MAP fit of every constant some point moves, then, one at a time,
 * the constant its posterior sd determines least is set back to the
 * catalog's value and the rest fitted again, until every one left is
 * determined (or held at a physical bound). One at a time: two constants
 * that move the same predictions (two latencies on one path) each have a
 * wide sd while either is free, and one of them is determined once the
 * other is fixed. m: the last fit. */
static void fit_all(struct calib_fit_ctx *c, struct calib_map *m)
{
	struct calib_result *res = c->res;
	size_t np = res->n_params, k = 0, kd = 0;
	size_t *cols = xcalloc(np + 1, sizeof *cols), *det = xcalloc(np + 1, sizeof *det);
	for (size_t j = 0; j < np; j++) {
		res->params[j].state = CALIB_UNUSED;
		for (size_t r = 0; r < c->n_rows; r++)
			if (calib_point_uses(&res->points[c->rows[r]], &res->params[j])) {
				cols[k++] = j;
				break;
			}
	}
	k = calib_fit_used(c, cols, k);
	double *start = xcalloc(np + 1, sizeof *start);
	for (size_t j = 0; j < np; j++)
		start[j] = res->params[j].before;
	memcpy(det, cols, k * sizeof *det);
	kd = k;
	res->iterations = 0;
	for (;;) {
		calib_fit_map(c, det, kd, start, m);
		res->iterations += m->iterations;
		size_t worst = SIZE_MAX;
		double worst_ratio = CALIB_DETERMINED;
		for (size_t o = 0; o < kd; o++) {
			struct calib_param *p = &res->params[det[o]];
			bool held = m->at_bound[det[o]] && m->values[det[o]] >= p->upper * (1 - 1e-9) && p->upper > 0;
			double ratio = m->sd[det[o]] > 0 ? m->sd[det[o]] / p->sd_prior : HUGE_VAL;
			if (!held && ratio >= worst_ratio) {
				worst = o;
				worst_ratio = ratio;
			}
		}
		if (worst == SIZE_MAX)
			break;
		struct calib_param *p = &res->params[det[worst]];
		p->state = CALIB_UNDETERMINED;
		p->sd_post = m->sd[det[worst]];
		for (size_t o = 0; o < kd; o++)
			start[det[o]] = m->values[det[o]];
		start[det[worst]] = p->before;
		memmove(det + worst, det + worst + 1, (kd - worst - 1) * sizeof *det);
		kd--;
		calib_map_release(m);
	}
	res->n_fitted = kd;
	for (size_t o = 0; o < kd; o++) {
		struct calib_param *p = &res->params[det[o]];
		p->state = CALIB_FITTED;
		p->sd_post = m->sd[det[o]];
		p->at_bound = m->at_bound[det[o]];
		p->after = p->at_bound ? (m->values[det[o]] > p->before ? p->hi : p->lo) : calib_round(m->values[det[o]]);
	}
	double *after = xcalloc(np + 1, sizeof *after);
	for (size_t j = 0; j < np; j++)
		after[j] = res->params[j].after;
	predict_at(c->base, res, after, SIZE_MAX);
	free(after);
	free(start);
	free(cols);
	free(det);
}

int calib_run(const catalog *base, const struct measure_set *set, double error_rel, struct calib_result *res,
	      struct cs_error *err)
{
	memset(res, 0, sizeof *res);
	if (set->n == 0)
		return error_set(err, "calibrate: no measurements to fit");
	if (!(error_rel > 0) || !(error_rel < 1))
		error_rel = CALIB_ERROR_DEFAULT;
	res->error_rel = error_rel;
	res->points = xcalloc(set->n, sizeof *res->points);
	for (size_t i = 0; i < set->n; i++) {
		if (point_load(base, &set->docs[i], &res->points[i], err) < 0) {
			calib_result_release(res);
			return -1;
		}
		res->n_points++;
	}
	calib_params_collect(base, res);
	size_t *rows = xcalloc(res->n_points + 1, sizeof *rows);
	struct calib_fit_ctx c = { base, res, calib_cache_new(res->n_params), rows, rows_except(res, SIZE_MAX, rows),
				   NULL };
	struct calib_map m;
	c.moves = xcalloc(c.n_rows * res->n_params + 1, sizeof *c.moves);
	fit_all(&c, &m);
	leave_one_out(&c, &m);
	calib_map_release(&m);
	calib_cache_free(c.cache);
	free(c.moves);
	free(rows);
	return 0;
}

int calib_heldout_refit(const catalog *base, struct calib_result *res, size_t i, double *pred)
{
	size_t np = res->n_params, k = 0;
	size_t *rows = xcalloc(res->n_points + 1, sizeof *rows), *cols = xcalloc(np + 1, sizeof *cols);
	double *start = xcalloc(np + 1, sizeof *start);
	struct calib_fit_ctx c = { base, res, calib_cache_new(np), rows, rows_except(res, i, rows), NULL };
	struct calib_map m;
	char why[8];
	for (size_t j = 0; j < np; j++) {
		start[j] = res->params[j].after;
		if (res->params[j].state == CALIB_FITTED)
			cols[k++] = j;
	}
	calib_fit_map(&c, cols, k, start, &m);
	catalog *cat = calib_catalog_at(base, res->params, np, m.values);
	int rc = cat != NULL && calib_predict(cat, &res->points[i], pred, why, sizeof why) ? 0 : -1;
	catalog_free(cat);
	calib_map_release(&m);
	calib_cache_free(c.cache);
	free(rows);
	free(cols);
	free(start);
	return rc;
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
	const char *const secs[] = { "gpus", "fabrics", "engines" };
	for (int s = 0; s < 3; s++) {
		json_t *arr = json_object_get(root, secs[s]), *e;
		size_t i;
		json_array_foreach(arr, i, e) {
			json_object_set_new(e, "source", json_string(source));
			json_object_set_new(e, "calibration", json_string(source));
		}
	}
	return root;
}
