/* override: --set PATH=VALUE applied to a JSON tree. */
#include "testutil.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/override.h"

/* Apply `set` (PATH=VALUE) to the document `text`; returns the rc and
 * leaves the result (compact JSON) or the message in out. */
static int apply(const char *text, const char *set, char *out, size_t size)
{
	json_error_t jerr;
	json_t *root = json_loads(text, 0, &jerr);
	struct scenario_override ov;
	struct cs_error err;
	assert_non_null(root);
	assert_true(override_parse(set, &ov));
	error_clear(&err);
	int rc = override_apply(root, "scenario", "a.json", ov.path, ov.value, &err);
	if (rc == 0) {
		char *dump = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS);
		snprintf(out, size, "%s", dump);
		free(dump);
	} else {
		snprintf(out, size, "%.250s", err.msg);
	}
	json_decref(root);
	return rc;
}

static void test_parse(void **state)
{
	(void)state;
	struct scenario_override ov;
	assert_true(override_parse("a.b=c=d", &ov));
	assert_int_equal(strcspn(ov.path, "="), 3);
	assert_string_equal(ov.value, "c=d");
	assert_false(override_parse("=1", &ov));
	assert_false(override_parse("a.b", &ov));
}

/* Values are JSON when they parse, else strings; missing parents are made. */
static void test_apply_creates_and_appends(void **state)
{
	(void)state;
	char out[256];
	assert_int_equal(apply("{\"a\": [1]}", "a[1]=2", out, sizeof out), 0);
	assert_string_equal(out, "{\"a\":[1,2]}");
	assert_int_equal(apply("{}", "x.y[0].z=auto", out, sizeof out), 0);
	assert_string_equal(out, "{\"x\":{\"y\":[{\"z\":\"auto\"}]}}");
	assert_int_equal(apply("{\"a\": {\"b\": 1}}", "a.b={\"c\": true}", out, sizeof out), 0);
	assert_string_equal(out, "{\"a\":{\"b\":{\"c\":true}}}");
}

/* Each failure names the file and the path. */
static void test_apply_errors(void **state)
{
	(void)state;
	char out[256];
	assert_int_equal(apply("{\"a\": [1]}", "a[3]=2", out, sizeof out), -1);
	assert_string_equal(out, "scenario 'a.json': --set a[3]: index 3 is past the end (the array has 1)");
	assert_int_equal(apply("{\"a\": 1}", "a.b=2", out, sizeof out), -1);
	assert_string_equal(out, "scenario 'a.json': --set a.b: \"b\" applied to something that is not an object");
	assert_int_equal(apply("{\"a\": {}}", "a[0]=2", out, sizeof out), -1);
	assert_string_equal(out, "scenario 'a.json': --set a[0]: [0] applied to something that is not an array");
	assert_int_equal(apply("{}", "a..b=2", out, sizeof out), -1);
	assert_string_equal(out, "--set a..b: empty key in path");
	assert_int_equal(apply("{}", "a[x]=2", out, sizeof out), -1);
	assert_string_equal(out, "--set a[x]: bad index in path");
	/* a key is at most 127 bytes */
	char set[160], want[200];
	memset(set, 'k', 128);
	strcpy(set + 128, "=1");
	snprintf(want, sizeof want, "--set %.128s: key too long", set);
	assert_int_equal(apply("{}", set, out, sizeof out), -1);
	assert_string_equal(out, want);
	set[127] = '=';
	assert_int_equal(apply("{}", set, out, sizeof out), 0);
}

/* A value that starts like JSON ('{', '[' or '"' after JSON whitespace)
 * and is not JSON is an input error naming the path, the value and
 * jansson's reason, never a string; other text that is not JSON stays a
 * string. */
static void test_value_looks_like_json(void **state)
{
	(void)state;
	char out[512];
	assert_int_equal(apply("{}", "name={\"a\": 1, \"a\": 2}", out, sizeof out), -1);
	assert_non_null(strstr(out, "scenario 'a.json': --set name: the value \"{\\\"a\\\": 1, \\\"a\\\": 2}\" "
				    "starts like JSON but is not JSON: column "));
	assert_non_null(strstr(out, "duplicate object key"));
	assert_int_equal(apply("{}", "name=\"a\\u0000b\"", out, sizeof out), -1);
	assert_non_null(strstr(out, "--set name: the value \"\\\"a\\\\u0000b\\\"\" starts like JSON but is not JSON"));
	assert_non_null(strstr(out, "a \\u0000 (NUL) escape is not allowed"));
	assert_int_equal(apply("{}", "a.b=[1, 2", out, sizeof out), -1);
	assert_non_null(strstr(out, "--set a.b: the value \"[1, 2\" starts like JSON but is not JSON"));
	assert_int_equal(apply("{}", "x= \t{\"a\": }", out, sizeof out), -1);
	assert_int_equal(apply("{}", "x=[draft] run", out, sizeof out), -1);
	assert_non_null(strstr(out, "(a string that starts with '[' is written quoted, as JSON: --set 'x=\"[...\"')"));
	assert_int_equal(apply("{}", "x=\"unterminated", out, sizeof out), -1);
	assert_int_equal(apply("{}", "x={\"a\": 1} trailing", out, sizeof out), -1);
	/* not JSON and not starting like it: a string, as before */
	assert_int_equal(apply("{}", "name=foo", out, sizeof out), 0);
	assert_string_equal(out, "{\"name\":\"foo\"}");
	assert_int_equal(apply("{}", "name=a{b}", out, sizeof out), 0);
	assert_string_equal(out, "{\"name\":\"a{b}\"}");
	assert_int_equal(apply("{}", "x=tru", out, sizeof out), 0);
	assert_string_equal(out, "{\"x\":\"tru\"}");
	/* JSON that parses: its value */
	assert_int_equal(apply("{}", "name=\"[draft] run\"", out, sizeof out), 0);
	assert_string_equal(out, "{\"name\":\"[draft] run\"}");
	assert_int_equal(apply("{}", "x= [1, {\"a\": null}]", out, sizeof out), 0);
	assert_string_equal(out, "{\"x\":[1,{\"a\":null}]}");
	assert_true(override_looks_like_json(" \r\n\t\""));
	assert_false(override_looks_like_json(""));
	assert_false(override_looks_like_json("\f{"));  /* form feed is not JSON whitespace */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_apply_creates_and_appends),
		cmocka_unit_test(test_apply_errors),
		cmocka_unit_test(test_value_looks_like_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
