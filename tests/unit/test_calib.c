/* calib: recovery of known factors from measurements the model itself
 * generates, held-out predictions, bounds, measurements it cannot predict. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "models/calib/calib.h"
#include "models/calib/calib_param.h"
#include "models/scenario/scenario.h"

/* The synthetic cluster's true rates: the catalog's H100-SXM and nvlink4
 * (mamf_bf16 0.8, mem_bw_measured none (2900 GB/s assumed), efficiency
 * 0.822, latency 1 us) times 0.9, 0.85, 0.8 and 2. */
static const char truth_json[] =
	"{\"gpus\": [{\"name\": \"H100-SXM\", \"mamf_bf16\": 0.72, \"mem_bw_measured_GBps\": 2465}],"
	" \"fabrics\": [{\"name\": \"nvlink4\", \"efficiency\": 0.6576, \"latency_us\": 2}]}";

/* Training step times at three shapes, all-reduces at five sizes and GPU counts. */
static const char *const files[] = {
	"mpt_7b_h100_512.json", "mpt_13b_h100_512.json", "mpt_30b_h100_512.json",
	"nccl_h100_16m.json", "nccl_h100_128m.json", "nccl_h100_256m.json",
	"nccl_h100_ring_2g.json", "nccl_h100_ring_4g.json",
};
#define N_FILES (sizeof files / sizeof files[0])

#include "calib_fixture.h"

/* The measurement of file i: its scenario with the value the model gives
 * under the true catalog, times factor, as the measured figure. */
static json_t *measured_doc(size_t i, double factor, char *path, size_t size)
{
	const char *top = getenv("TOP");
	struct cs_error err;
	struct scenario s;
	double v;
	char why[4096] = "";
	snprintf(path, size, "%s/scenarios/validation/%s", top != NULL ? top : ".", files[i]);
	json_t *doc = scenario_read_json("measurement", path, &err);
	assert_non_null(doc);
	catalog *c = catalog_copy(truth);
	assert_int_equal(scenario_from_json(doc, path, c, &s, &err), 0);
	assert_true(validation_predict(&s, &v, why, sizeof why));
	scenario_release(&s);
	catalog_free(c);
	json_object_set_new(json_object_get(doc, "validation"), "published", json_real(v * factor));
	return doc;
}

static void make_set(struct measure_set *set, size_t n, size_t odd, double odd_factor)
{
	char path[1024];
	for (size_t i = 0; i < n; i++)
		measure_set_add(set, measured_doc(i, i == odd ? odd_factor : 1.0, path, sizeof path), path, 0);
}

static void test_recovery(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct calib_result r;
	struct cs_error err;
	make_set(&set, N_FILES, SIZE_MAX, 1);
	assert_int_equal(calib_run(base, &set, 1e-4, &r, &err), 0);
	assert_factor(&r, "H100-SXM", "mamf_bf16", 0.9);
	assert_factor(&r, "H100-SXM", "mem_bw_measured_GBps", 0.85);
	assert_factor(&r, "nvlink4", "efficiency", 0.8);
	assert_factor(&r, "nvlink4", "latency_us", 2.0);
	/* No measurement computes in FP8: not fitted, not in the overlay. */
	const struct calib_param *fp8 = find(&r, "H100-SXM", "mamf_fp8");
	assert_non_null(fp8);
	assert_int_equal(fp8->state, CALIB_UNUSED);
	json_t *ov = calib_overlay(&r, "calibrate from test on 2026-01-01");
	json_t *gpu = json_array_get(json_object_get(ov, "gpus"), 0);
	assert_non_null(gpu);
	assert_null(json_object_get(gpu, "mamf_fp8"));
	assert_string_equal(json_string_value(json_object_get(gpu, "calibration")), "calibrate from test on 2026-01-01");
	for (size_t i = 0; i < r.n_points; i++) {
		assert_true(r.points[i].after_ok);
		assert_true(fabs(calib_error_pct(r.points[i].measured, r.points[i].after)) < 0.1);
	}
	json_decref(ov);
	calib_result_release(&r);
	measure_set_release(&set);
}

/* A point 1.5x off the others: the fit without it (held out) recovers the
 * truth, so its held-out prediction misses it by a third; so does the fit
 * that used it, whose Cauchy loss lets a point 4,000 sigmas off weigh next
 * to nothing (the held-out and the after predictions agree within 0.1%). */
static void test_heldout(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct calib_result r;
	struct cs_error err;
	const size_t odd = 4;  /* nccl_h100_128m */
	make_set(&set, N_FILES, odd, 1.5);
	assert_int_equal(calib_run(base, &set, 1e-4, &r, &err), 0);
	const struct calib_point *pt = &r.points[odd];
	assert_true(pt->has_heldout);
	double held = calib_error_pct(pt->measured, pt->heldout);
	if (!(fabs(held) > 30 && fabs(calib_error_pct(pt->measured, pt->after)) > 30 &&
	      fabs(pt->heldout / pt->after - 1) < 1e-3))
		fail_msg("held out %.4g%%, after %.6g, held-out prediction %.6g", held, pt->after, pt->heldout);
	/* The points of the other kinds are held out too (3 training points). */
	assert_true(r.points[0].has_heldout);
	calib_result_release(&r);
	measure_set_release(&set);
}

/* The held-out column is the prediction at constants fitted without the
 * point (one Gauss-Newton step from the full fit): an exact refit without
 * it (calib_heldout_refit) agrees within 1% of the value (0.51% at worst
 * with the Cauchy loss, 0.006% with least squares), on the
 * training and collective points with a 5% outlier, at the default error
 * (the prior then matters); the outlier's held-out prediction differs from
 * its after one (it was not used). */
static void test_heldout_first_order(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct calib_result r;
	struct cs_error err;
	const size_t odd = 1;  /* mpt_13b */
	make_set(&set, N_FILES, odd, 1.05);
	assert_int_equal(calib_run(base, &set, 0, &r, &err), 0);
	size_t compared = 0;
	double worst = 0;
	for (size_t i = 0; i < r.n_points; i++) {
		double exact;
		if (!r.points[i].has_heldout)
			continue;
		assert_int_equal(calib_heldout_refit(base, &r, i, &exact), 0);
		if (fabs(r.points[i].heldout / exact - 1) > 0.01)
			fail_msg("%s: first-order held out %.6g, exact refit %.6g", r.points[i].id, r.points[i].heldout, exact);
		worst = fmax(worst, fabs(r.points[i].heldout / exact - 1));
		compared++;
	}
	print_message("held out, first order vs exact refit: worst %.3g%%\n", 100 * worst);
	assert_int_equal(compared, N_FILES);
	assert_true(fabs(r.points[odd].heldout / r.points[odd].after - 1) > 1e-4);
	calib_result_release(&r);
	measure_set_release(&set);
}

/* The published measurements themselves (3 training runs, 5 all-reduces)
 * at the default error: a constant is fitted exactly when its posterior sd
 * is below CALIB_DETERMINED times its prior sd (or a physical bound holds
 * it); the others keep the catalog's value and stay out of the overlay;
 * every value is within its physical bound and the fit's range. */
static void test_determination(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct calib_result r;
	struct cs_error err;
	char path[1024];
	const char *top = getenv("TOP");
	for (size_t i = 0; i < N_FILES; i++) {
		snprintf(path, sizeof path, "%s/scenarios/validation/%s", top != NULL ? top : ".", files[i]);
		json_t *doc = scenario_read_json("measurement", path, &err);
		assert_non_null(doc);
		measure_set_add(&set, doc, path, 0);
	}
	assert_int_equal(calib_run(base, &set, 0, &r, &err), 0);
	assert_true(fabs(r.error_rel - CALIB_ERROR_DEFAULT) < 1e-12);
	json_t *ov = calib_overlay(&r, "x");
	size_t undetermined = 0;
	for (size_t j = 0; j < r.n_params; j++) {
		const struct calib_param *p = &r.params[j];
		json_t *entry = NULL, *e;
		size_t k;
		json_array_foreach(json_object_get(ov, p->section == CALIB_GPU ? "gpus" : "fabrics"), k, e)
			if (strcmp(json_string_value(json_object_get(e, "name")), p->entry) == 0)
				entry = e;
		if (p->state == CALIB_FITTED) {
			assert_true(p->at_bound || p->sd_post < CALIB_DETERMINED * p->sd_prior);
		} else {
			undetermined += p->state == CALIB_UNDETERMINED;
			assert_true(p->state == CALIB_UNUSED || p->sd_post >= CALIB_DETERMINED * p->sd_prior);
			assert_true(p->after == p->before);
			assert_true(entry == NULL || json_object_get(entry, p->field) == NULL);
		}
		assert_true(p->after >= p->lo && p->after <= p->hi);
		assert_true(p->upper == 0 || p->after <= p->upper);
	}
	assert_true(r.n_fitted > 0 && undetermined > 0);
	json_decref(ov);
	calib_result_release(&r);
	measure_set_release(&set);
}

/* Three training runs faster than the datasheet allows: mamf_bf16 stops at 1,
 * and any other constant fitted from the one measurement is held at its
 * physical bound too (none is determined beyond the bounds). */
static void test_bound(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct calib_result r;
	struct cs_error err;
	char path[1024];
	for (size_t i = 0; i < 3; i++)  /* the three training runs, each 1.6x the catalog's 0.8: 1.28 */
		measure_set_add(&set, measured_doc(i, 1.6 / 0.9, path, sizeof path), path, 0);
	assert_int_equal(calib_run(base, &set, 0, &r, &err), 0);
	const struct calib_param *p = find(&r, "H100-SXM", "mamf_bf16");
	assert_non_null(p);
	assert_int_equal(p->state, CALIB_FITTED);
	assert_true(p->at_bound);
	assert_true(p->after == 1.0);
	for (size_t j = 0; j < r.n_params; j++)
		if (r.params[j].state == CALIB_FITTED)
			assert_true(r.params[j].at_bound && r.params[j].after == r.params[j].upper);
	calib_result_release(&r);
	measure_set_release(&set);
}

/* No measurements: an error. One the model cannot predict (a serving metric
 * of a training run): listed with the reason, not fitted, no crash. */
static void test_bad(void **state)
{
	(void)state;
	struct measure_set set = { 0 };
	struct calib_result r;
	struct cs_error err;
	char path[1024];
	assert_int_equal(calib_run(base, &set, 1e-4, &r, &err), -1);
	json_t *doc = measured_doc(0, 1, path, sizeof path);
	json_object_set_new(json_object_get(doc, "validation"), "metric", json_string("output_tok_s"));
	measure_set_add(&set, doc, path, 0);
	assert_int_equal(calib_run(base, &set, 1e-4, &r, &err), 0);
	assert_false(r.points[0].ok);
	assert_true(r.points[0].why[0] != '\0');
	assert_int_equal(r.n_fitted, 0);
	assert_null(calib_overlay(&r, "x"));
	calib_result_release(&r);
	measure_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recovery),
		cmocka_unit_test(test_heldout),
		cmocka_unit_test(test_heldout_first_order),
		cmocka_unit_test(test_determination),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
