/* Sweep files: point numbering (last axis fastest, zip advancing together),
 * the values each point applies, and exact errors. */
#include "testutil.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sweep/sweep_fingerprint.h"
#include "models/scenario/sweep.h"

#include "catalog_fixture.h"

#define BASE "\"base\": { \"name\": \"b\", \"seed\": 4, \"workload\": { \"kind\": \"collective\"," \
	" \"collective\": { \"op\": \"all_reduce\", \"bytes\": [8] } }, \"candidates\": [ { \"name\": \"a\"," \
	" \"preset\": \"dgx-h100\", \"nodes\": 1 } ] }"

/* Parse a sweep given as text; NULL with err set on failure. */
static sweep *sweep_text(const char *text, struct cs_error *err)
{
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	sweep *sw;
	assert_non_null(root);
	error_clear(err);
	sw = sweep_from_json(root, "s.json", err);
	json_decref(root);
	return sw;
}

static void test_product_order(void **state)
{
	(void)state;
	struct cs_error err;
	sweep *sw = sweep_text("{ " BASE ", \"axes\": { \"candidates[0].nodes\": [1, 2, 4],"
			       " \"seed\": [10, 20] },"
			       " \"zip\": [ { \"name\": [\"x\", \"y\"], \"candidates[0].preset\": [\"dgx-a100\", \"dgx-b200\"] } ] }",
			       &err);
	assert_non_null(sw);
	/* 3 x 2 x 2 points; paths in axis order, zip paths in the order written. */
	assert_int_equal(sweep_points(sw), 12);
	assert_int_equal(sweep_path_count(sw), 4);
	assert_string_equal(sweep_path(sw, 0), "candidates[0].nodes");
	assert_string_equal(sweep_path(sw, 3), "candidates[0].preset");
	/* k = 7 = (1 * 2 + 1) * 2 + 1: nodes[1], seed[1], zip[1]. */
	assert_int_equal(json_integer_value(sweep_value(sw, 7, 0)), 2);
	assert_int_equal(json_integer_value(sweep_value(sw, 7, 1)), 20);
	assert_string_equal(json_string_value(sweep_value(sw, 7, 2)), "y");
	assert_string_equal(json_string_value(sweep_value(sw, 7, 3)), "dgx-b200");
	/* The last point takes the last value of every axis. */
	assert_int_equal(json_integer_value(sweep_value(sw, 11, 0)), 4);
	assert_string_equal(json_string_value(sweep_value(sw, 11, 2)), "y");
	/* The first axis changes only every 4 points. */
	static const int nodes_by_block[] = { 1, 2, 4 };
	for (uint64_t k = 0; k < 12; k++)
		assert_int_equal(json_integer_value(sweep_value(sw, k, 0)), nodes_by_block[k / 4]);

	struct scenario s;
	assert_int_equal(sweep_point_load(sw, 7, -1, cat, &s, &err), 0);
	assert_string_equal(s.name, "y");
	assert_int_equal(s.seed, 20);
	assert_int_equal(s.candidates[0].nodes, 2);
	assert_string_equal(s.candidates[0].gpu.id.name, "B200");
	scenario_release(&s);
	/* A seed override wins over the axis. */
	assert_int_equal(sweep_point_load(sw, 7, 99, cat, &s, &err), 0);
	assert_int_equal(s.seed, 99);
	scenario_release(&s);
	/* The base is untouched by the points. */
	assert_int_equal(json_integer_value(json_object_get(sweep_base(sw), "seed")), 4);
	sweep_free(sw);
}

static void test_values_exact(void **state)
{
	(void)state;
	struct cs_error err;
	sweep *sw = sweep_text("{ " BASE ", \"axes\": { \"objective.budget_usd\": [0.1, 123456.789012345] } }", &err);
	json_t *doc;
	assert_non_null(sw);
	/* Reals reach the document bit for bit through override_apply's text. */
	doc = sweep_point_json(sw, 1, &err);
	assert_non_null(doc);
	assert_true(json_real_value(json_object_get(json_object_get(doc, "objective"), "budget_usd")) == 123456.789012345);
	json_decref(doc);
	sweep_free(sw);
}

static void test_no_axes(void **state)
{
	(void)state;
	struct cs_error err;
	sweep *sw = sweep_text("{ " BASE " }", &err);
	assert_non_null(sw);
	assert_int_equal(sweep_points(sw), 1);
	assert_int_equal(sweep_path_count(sw), 0);
	assert_string_equal(sweep_base_file(sw), "s.json");
	sweep_free(sw);
}

static void test_point_errors(void **state)
{
	(void)state;
	struct cs_error err;
	struct scenario s;
	sweep *sw = sweep_text("{ " BASE ", \"axes\": { \"candidates[0].nodes\": [0], \"candidates[2].x\": [1, 2] } }", &err);
	assert_non_null(sw);
	/* An index past the end fails when the point is built. */
	assert_int_equal(sweep_point_load(sw, 0, -1, cat, &s, &err), -1);
	assert_string_equal(err.msg, "sweep 's.json': --set candidates[2].x: index 2 is past the end (the array has 1)");
	sweep_free(sw);
	sw = sweep_text("{ " BASE ", \"axes\": { \"candidates[0].nodes\": [0] } }", &err);
	assert_int_equal(sweep_point_load(sw, 0, -1, cat, &s, &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_string_equal(err.msg, "scenario 's.json': candidates[0].nodes: expected an integer from 1 to 1000000, got 0");
	sweep_free(sw);
}

static void expect_error(const char *text, const char *msg)
{
	struct cs_error err;
	sweep *sw = sweep_text(text, &err);
	assert_null(sw);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_string_equal(err.msg, msg);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("{ \"axes\": {} }", "sweep 's.json': base: missing required key");
	expect_error("{ " BASE ", \"axis\": {} }", "sweep 's.json': (top level): unknown key \"axis\", did you mean \"axes\"?");
	expect_error("{ \"base\": [] }",
		     "sweep 's.json': base: expected a scenario file path or an inline scenario object, got an array");
	expect_error("{ " BASE ", \"axes\": [] }", "sweep 's.json': axes: expected an object of PATH: [values], got an array");
	expect_error("{ " BASE ", \"axes\": { \"seed\": [] } }",
		     "sweep 's.json': axes.\"seed\": expected a non-empty array of values, got an array");
	expect_error("{ " BASE ", \"axes\": { \"a.\": [1] } }",
		     "sweep 's.json': axes.\"a.\": not a --set path: an empty key at offset 2");
	expect_error("{ " BASE ", \"axes\": { \"a[1\": [1] } }",
		     "sweep 's.json': axes.\"a[1\": not a --set path: bad index at offset 1");
	expect_error("{ " BASE ", \"axes\": { \"a=b\": [1] } }",
		     "sweep 's.json': axes.\"a=b\": a path may not contain '='");
	expect_error("{ " BASE ", \"axes\": { \"seed\": [1] }, \"zip\": [ { \"seed\": [1] } ] }",
		     "sweep 's.json': zip[0].\"seed\": the path is already varied by another axis");
	expect_error("{ " BASE ", \"zip\": [ { \"seed\": [1, 2], \"name\": [\"a\"] } ] }",
		     "sweep 's.json': zip[0].\"name\": has 1 values but \"seed\" has 2: zipped lists advance together");
	expect_error("{ " BASE ", \"zip\": {} }", "sweep 's.json': zip: expected an array of objects of PATH: [values], got an object");
	expect_error("{ " BASE ", \"description\": 3 }", "sweep 's.json': description: expected a string, got 3");
}

static void test_points_cap(void **state)
{
	(void)state;
	/* 10^7 points is the most; one more axis of 2 is too many. */
	char text[2048];
	const char *ten = "[0,1,2,3,4,5,6,7,8,9]";
	struct cs_error err;
	sweep *sw;
	snprintf(text, sizeof text, "{ " BASE ", \"axes\": { \"a\": %s, \"b\": %s, \"c\": %s, \"d\": %s, \"e\": %s, \"f\": %s, \"g\": %s } }",
		 ten, ten, ten, ten, ten, ten, ten);
	sw = sweep_text(text, &err);
	assert_non_null(sw);
	assert_int_equal(sweep_points(sw), 10000000);
	assert_int_equal(json_integer_value(sweep_value(sw, 9999999, 6)), 9);
	assert_int_equal(json_integer_value(sweep_value(sw, 1234567, 0)), 1);
	assert_int_equal(json_integer_value(sweep_value(sw, 1234567, 6)), 7);
	sweep_free(sw);
	snprintf(text, sizeof text, "{ " BASE ", \"axes\": { \"a\": %s, \"b\": %s, \"c\": %s, \"d\": %s, \"e\": %s, \"f\": %s, \"g\": %s, \"h\": [1, 2] } }",
		 ten, ten, ten, ten, ten, ten, ten);
	expect_error(text, "sweep 's.json': axes: more than 10000000 points, the most a sweep may have: split it");
}

/* The fingerprint covers what the points read: the digest of the input
 * files' contents (cli/input_files.h) as well as the sweep itself. */
static void test_fingerprint_inputs(void **state)
{
	(void)state;
	struct cs_error err;
	char a[SWEEP_FINGERPRINT_LEN + 1], b[SWEEP_FINGERPRINT_LEN + 1], c[SWEEP_FINGERPRINT_LEN + 1];
	sweep *sw = sweep_text("{ " BASE ", \"axes\": { \"catalog\": [\"c.json\"] } }", &err);
	assert_non_null(sw);
	sweep_fingerprint(sw, -1, false, "0123456789abcdef", a);
	sweep_fingerprint(sw, -1, false, "0123456789abcdef", b);
	assert_true(sweep_fingerprint_valid(a));
	assert_string_equal(a, b);
	/* another catalog's contents: another sweep */
	sweep_fingerprint(sw, -1, false, "0123456789abcdee", c);
	assert_string_not_equal(a, c);
	sweep_fingerprint(sw, -1, false, NULL, c);
	assert_string_not_equal(a, c);
	sweep_free(sw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_product_order),
		cmocka_unit_test(test_values_exact),
		cmocka_unit_test(test_no_axes),
		cmocka_unit_test(test_point_errors),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_points_cap),
		cmocka_unit_test(test_fingerprint_inputs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
