/* A cmocka group fixture shared by the calibration tests: `base` is the
 * built-in catalog and `truth` the same with the test's truth_json merged
 * (the constants the synthetic measurements are generated under; the test
 * defines truth_json before including this); find() and assert_factor()
 * read a fit's constants. */
#ifndef CLUSTERSIM_TESTS_CALIB_FIXTURE_H
#define CLUSTERSIM_TESTS_CALIB_FIXTURE_H

#include <jansson.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "models/calib/calib.h"
#include "models/hw/catalog.h"

static catalog *base, *truth;

static int setup(void **state)
{
	(void)state;
	struct cs_error err;
	json_error_t jerr;
	json_t *t = json_loads(truth_json, 0, &jerr);
	base = catalog_new_builtin(&err);
	truth = catalog_copy(base);
	int rc = catalog_merge_json(truth, t, "truth", "truth", NULL, &err);
	json_decref(t);
	return rc;
}

static int teardown(void **state)
{
	(void)state;
	catalog_free(base);
	catalog_free(truth);
	return 0;
}

/* The constant entry.field of the fit r, or NULL. */
static const struct calib_param *find(const struct calib_result *r, const char *entry, const char *field)
{
	for (size_t j = 0; j < r->n_params; j++)
		if (strcasecmp(r->params[j].entry, entry) == 0 && strcmp(r->params[j].field, field) == 0)
			return &r->params[j];
	return NULL;
}

/* entry.field was fitted to `factor` times its catalog value, within 1%. */
static void assert_factor(const struct calib_result *r, const char *entry, const char *field, double factor)
{
	const struct calib_param *p = find(r, entry, field);
	assert_non_null(p);
	double got = p->after / p->before;
	print_message("%s.%s: factor %.6g (true %.6g), +/- %.3g, %s\n", entry, field, got, factor, got * p->sd_post,
		      p->state == CALIB_FITTED ? "fitted" : "not fitted");
	assert_int_equal(p->state, CALIB_FITTED);
	if (fabs(got / factor - 1) > 0.01)
		fail_msg("%s.%s: factor %.6g, true %.6g", entry, field, got, factor);
}

#endif
