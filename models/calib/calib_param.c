/* calib_param: the candidate constants of the entries the measurements run
 * on, the catalog overlay a vector of their values makes, and the model's
 * prediction of one measurement under it. */
#include "models/calib/calib_param.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "models/kernel/roofline.h"
#include "util/text.h"
#include "util/xalloc.h"

void calib_param_name(const struct calib_param *p, char *buf, size_t size)
{
	snprintf(buf, size, "%s.%s", p->entry, p->field);
}

void calib_param_reason(const struct calib_result *res, const struct calib_param *p, char *buf, size_t size)
{
	(void)res;
	buf[0] = '\0';
	if (p->state == CALIB_FITTED && p->at_bound && p->after == p->upper)
		snprintf(buf, size, "held at its physical bound %.6g (the datasheet's): the measurements ask for more",
			 p->upper);
	else if (p->state == CALIB_FITTED && p->at_bound)
		snprintf(buf, size, "held at the end of the fit's range (%s%.0f the catalog's): the measurements ask for %s",
			 p->after > p->before ? "x" : "1/", CALIB_RANGE, p->after > p->before ? "more" : "less");
	else if (p->state == CALIB_UNUSED)
		snprintf(buf, size, "no measurement depends on it");
	else if (p->state == CALIB_UNDETERMINED)
		snprintf(buf, size, "not determined by these measurements (posterior sd %.3g%% vs prior %.3g%%)",
			 100 * p->sd_post, 100 * p->sd_prior);
}

double calib_error_pct(double measured, double predicted)
{
	return 100.0 * (predicted - measured) / measured;
}

/* The prior sd of log(value) of each kind of constant: how far the
 * catalog's value may be from a user's cluster (docs/explanation/
 * calibration.md, "The prior"). The GEMM fractions and HBM rates are
 * single public benchmark figures per GPU type (10%); the attention ratio
 * and the in-switch reduction efficiency are fitted to fewer published
 * points (20%); a fabric's large-message efficiency comes from published
 * bus bandwidths (10%); its per-hop latency is often an assumption (50%).
 * An engine's: serving's GEMM and HBM fractions were fitted on a grid whose
 * neighbours were 5-10% apart (10%), its kernel time on 4-6 us (30%), its
 * host times per sequence and per step are reasoned or fitted on few rows
 * (50%); training's overlap slowdowns come from SM counts of one GPU and one
 * fitted row (30%), the straggler spread from one study of five clusters
 * (50%). */
double calib_prior_sd(const char *field)
{
	static const struct {
		const char *field;
		double sd;
	} prior[] = {
		{ "mamf_bf16", 0.10 },	   { "mamf_fp8", 0.10 },   { "mamf_fp4", 0.10 },
		{ "mem_bw_measured_GBps", 0.10 }, { "attn_train_over_gemm", 0.20 }, { "efficiency", 0.10 },
		{ "nvls_algbw_efficiency", 0.20 }, { "latency_us", 0.50 },
		{ "gemm_over_mamf", 0.10 }, { "hbm_efficiency", 0.10 }, { "kernel_us", 0.30 },
		{ "seq_overhead_us", 0.50 }, { "step_overhead_ms", 0.50 }, { "overlap_slowdown", 0.30 },
		{ "ep_overlap_slowdown", 0.30 }, { "straggler_sigma", 0.50 },
	};
	for (size_t i = 0; i < sizeof prior / sizeof prior[0]; i++)
		if (strcmp(prior[i].field, field) == 0)
			return prior[i].sd;
	return 0.20;
}

static void add_param(struct calib_result *res, size_t *cap, enum calib_section sec, const char *entry,
		      const char *field, double before, double upper)
{
	if (!(before > 0))
		return;
	res->params = xgrow(res->params, cap, res->n_params + 1, sizeof *res->params, 16);
	struct calib_param *p = &res->params[res->n_params++];
	memset(p, 0, sizeof *p);
	p->section = sec;
	snprintf(p->entry, sizeof p->entry, "%s", entry);  /* a catalog name: fits */
	p->field = field;
	p->before = p->after = before;
	/* A value already above its bound in the catalog keeps its own as the bound. */
	p->upper = upper > 0 && before > upper ? before : upper;
	p->lo = before / CALIB_RANGE;
	p->hi = p->upper > 0 ? fmin(p->upper, before * CALIB_RANGE) : before * CALIB_RANGE;
	p->sd_prior = calib_prior_sd(field);
	p->state = CALIB_UNUSED;
}

/* The GPU's candidates: the GEMM fractions of the precisions it has, its
 * HBM streaming rate (the datasheet's times roofline_hbm_reference_fraction
 * when none is measured: the rate the model assumes then, so that the
 * starting predictions are the catalog's), its training attention ratio. */
static void gpu_params(struct calib_result *res, size_t *cap, const struct gpu_spec *g)
{
	add_param(res, cap, CALIB_GPU, g->id.name, "mamf_bf16", g->mamf[PREC_BF16], 1.0);
	if (g->peak_flops[PREC_FP8] > 0)
		add_param(res, cap, CALIB_GPU, g->id.name, "mamf_fp8", g->mamf[PREC_FP8], 1.0);
	if (g->peak_flops[PREC_FP4] > 0)
		add_param(res, cap, CALIB_GPU, g->id.name, "mamf_fp4", g->mamf[PREC_FP4], 1.0);
	double hbm = g->mem_bw_measured_bytes_per_s > 0 ? g->mem_bw_measured_bytes_per_s
						       : g->mem_bw_bytes_per_s * roofline_hbm_reference_fraction;
	add_param(res, cap, CALIB_GPU, g->id.name, "mem_bw_measured_GBps", hbm / 1e9, g->mem_bw_bytes_per_s / 1e9);
	if (g->attn_train_over_gemm > 0)
		add_param(res, cap, CALIB_GPU, g->id.name, "attn_train_over_gemm", g->attn_train_over_gemm, 4.0);
}

static void fabric_params(struct calib_result *res, size_t *cap, const struct fabric_spec *f)
{
	add_param(res, cap, CALIB_FABRIC, f->id.name, "efficiency", f->efficiency, 1.0);
	add_param(res, cap, CALIB_FABRIC, f->id.name, "latency_us", f->latency_s * 1e6, 0);
	if (f->nvls_algbw_efficiency > 0)
		add_param(res, cap, CALIB_FABRIC, f->id.name, "nvls_algbw_efficiency", f->nvls_algbw_efficiency, 1.0);
}

/* An engine's candidates: a serving engine's step constants, training's
 * overlap and straggler terms, in the JSON's units. A serving step's GEMMs
 * never beat the GPU's measured MAMF (the best of a sweep of shapes), and no
 * fraction passes 1. */
static void engine_params(struct calib_result *res, size_t *cap, const struct engine_spec *e)
{
	if (e->kind == ENGINE_SERVING) {
		add_param(res, cap, CALIB_ENGINE, e->id.name, "gemm_over_mamf", e->gemm_over_mamf, 1.0);
		add_param(res, cap, CALIB_ENGINE, e->id.name, "hbm_efficiency", e->hbm_efficiency, 1.0);
		add_param(res, cap, CALIB_ENGINE, e->id.name, "kernel_us", e->kernel_s * 1e6, 0);
		add_param(res, cap, CALIB_ENGINE, e->id.name, "seq_overhead_us", e->seq_overhead_s * 1e6, 0);
		add_param(res, cap, CALIB_ENGINE, e->id.name, "step_overhead_ms", e->step_overhead_s * 1e3, 0);
	} else {
		add_param(res, cap, CALIB_ENGINE, e->id.name, "overlap_slowdown", e->overlap_slowdown, 1.0);
		add_param(res, cap, CALIB_ENGINE, e->id.name, "ep_overlap_slowdown", e->ep_overlap_slowdown, 1.0);
		add_param(res, cap, CALIB_ENGINE, e->id.name, "straggler_sigma", e->straggler_sigma, 0.5);
	}
}

static bool point_uses(const struct calib_point *pt, const char *entry)
{
	for (int i = 0; i < pt->n_entries; i++)
		if (strcasecmp(pt->entries[i], entry) == 0)
			return true;
	return false;
}

bool calib_point_uses(const struct calib_point *pt, const struct calib_param *p)
{
	if (p->section == CALIB_ENGINE)
		return strcasecmp(pt->engine, p->entry) == 0;
	return point_uses(pt, p->entry);
}

void calib_params_collect(const catalog *base, struct calib_result *res)
{
	size_t cap = 0;
	for (size_t i = 0; i < catalog_gpu_count(base); i++) {
		const struct gpu_spec *g = catalog_gpu_at(base, i);
		for (size_t k = 0; k < res->n_points; k++)
			if (res->points[k].ok && point_uses(&res->points[k], g->id.name)) {
				gpu_params(res, &cap, g);
				break;
			}
	}
	for (size_t i = 0; i < catalog_fabric_count(base); i++) {
		const struct fabric_spec *f = catalog_fabric_at(base, i);
		for (size_t k = 0; k < res->n_points; k++)
			if (res->points[k].ok && point_uses(&res->points[k], f->id.name)) {
				fabric_params(res, &cap, f);
				break;
			}
	}
	for (size_t i = 0; i < catalog_engine_count(base); i++) {
		const struct engine_spec *e = catalog_engine_at(base, i);
		for (size_t k = 0; k < res->n_points; k++)
			if (res->points[k].ok && strcasecmp(res->points[k].engine, e->id.name) == 0) {
				engine_params(res, &cap, e);
				break;
			}
	}
}

/* The entry object of p's entry in the overlay's section, made when absent. */
static json_t *overlay_entry(json_t *root, const struct calib_param *p)
{
	const char *sec = p->section == CALIB_GPU ? "gpus" : p->section == CALIB_FABRIC ? "fabrics" : "engines";
	json_t *arr = json_object_get(root, sec);
	size_t i;
	json_t *e;
	if (arr == NULL) {
		arr = json_array();
		json_object_set_new(root, sec, arr);
	}
	json_array_foreach(arr, i, e)
		if (strcmp(json_string_value(json_object_get(e, "name")), p->entry) == 0)
			return e;
	e = json_object();
	json_object_set_new(e, "name", json_string(p->entry));
	json_array_append_new(arr, e);
	return e;
}

json_t *calib_params_overlay(const struct calib_param *params, size_t n, const double *values, bool only_moved)
{
	json_t *root = json_object();
	for (size_t i = 0; i < n; i++) {
		if (only_moved && values[i] == params[i].before)
			continue;
		json_object_set_new(overlay_entry(root, &params[i]), params[i].field, json_real(values[i]));
	}
	return root;
}

bool calib_predict(const catalog *cat, const struct calib_point *pt, double *out, char *why, size_t size)
{
	struct cs_error err = { 0 };
	struct scenario s;
	catalog *c = catalog_copy(cat);
	bool ok = false;
	if (scenario_from_json(pt->doc->scenario, pt->doc->anchor != NULL ? pt->doc->anchor : pt->doc->file, c, &s, &err) < 0) {
		text_setf(why, size, "%s", err.msg);
	} else {
		char w[4096] = "";
		ok = validation_predict(&s, out, w, sizeof w) && isfinite(*out) && *out > 0;
		if (!ok)
			text_setf(why, size, "%s", w[0] ? w : "the model gives no positive value");
		scenario_release(&s);
	}
	catalog_free(c);
	return ok;
}

catalog *calib_catalog_at(const catalog *base, const struct calib_param *params, size_t n, const double *values)
{
	catalog *c = catalog_copy(base);
	json_t *ov = calib_params_overlay(params, n, values, true);
	struct cs_error err = { 0 };
	if (json_object_size(ov) > 0 && catalog_merge_json(c, ov, "calibration", "calibration", NULL, &err) < 0) {
		catalog_free(c);
		c = NULL;  /* a value the catalog refuses: outside its range */
	}
	json_decref(ov);
	return c;
}
