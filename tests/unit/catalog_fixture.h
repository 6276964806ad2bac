/* A cmocka group fixture shared by the unit tests that need the built-in
 * catalog: `cat` is loaded once before the group and freed after it; and
 * scenario_of_text() to read a scenario written in the test. */
#ifndef CLUSTERSIM_TESTS_CATALOG_FIXTURE_H
#define CLUSTERSIM_TESTS_CATALOG_FIXTURE_H

#include <jansson.h>

#include "models/hw/catalog.h"
#include "models/scenario/scenario.h"
#include "util/error.h"

static catalog *cat;

static int setup(void **state)
{
	(void)state;
	struct cs_error err;
	cat = catalog_new_builtin(&err);
	return cat == NULL;
}

static int teardown(void **state)
{
	(void)state;
	catalog_free(cat);
	return 0;
}

/* Parse a scenario given as JSON text against `cat`; 0, or -1 with err set
 * (and the message printed, since a test's own scenario should load). */
static inline int scenario_of_text(const char *text, struct scenario *s, struct cs_error *err)
{
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	int rc;
	error_clear(err);
	if (root == NULL) {
		error_set(err, "test scenario: %s", jerr.text);
		print_error("%s\n", err->msg);
		return -1;
	}
	rc = scenario_from_json(root, "test.json", cat, s, err);
	json_decref(root);
	if (rc != 0)
		print_error("%s\n", err->msg);
	return rc;
}

/* One candidate (a JSON object) resolved against `cat` into *out, in a
 * collective scenario around it; the test fails if it does not load. */
static inline void cluster_of(const char *candidate_json, struct cluster_spec *out)
{
	char text[2048];
	struct scenario s;
	struct cs_error err;
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"collective\", \"collective\": {\"op\": \"all_reduce\", \"bytes\": 1}},"
		 " \"candidates\": [%s]}", candidate_json);
	assert_int_equal(scenario_of_text(text, &s, &err), 0);
	*out = s.candidates[0];
	scenario_release(&s);
}

#endif
