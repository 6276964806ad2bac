/* Every file an input names, at any depth: catalogs and traces of a
 * scenario, of a --set value and of a sweep's axes; an output refused when
 * it is one of them (through links too); the digest of their contents. */
#include "testutil.h"

#include <jansson.h>
#include <string.h>
#include <unistd.h>

#include "cli/input_files.h"
#include "models/scenario/sweep.h"
#include "util/error.h"

static int setup(void **state)
{
	(void)state;
	return test_dir_make("test_input_files");
}

static int teardown(void **state)
{
	(void)state;
	return test_dir_remove();
}

static json_t *parse(const char *text)
{
	json_error_t jerr;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &jerr);
	assert_non_null(v);
	return v;
}

/* Is path listed as `what`? */
static bool listed(const struct input_files *l, const char *path, const char *what)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].path, path) == 0)
			return strcmp(l->v[i].what, what) == 0;
	return false;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_scenario_files(void **state)
{
	(void)state;
	struct input_files l;
	json_t *doc = parse("{ \"catalog\": [\"cat.json\", \"/abs/more.json\"],"
			    " \"workload\": { \"kind\": \"inference\", \"serving\": { \"arrival\": { \"process\": \"trace\", \"trace\": \"reqs.csv\" } } },"
			    " \"candidates\": [ { \"name\": \"trace\", \"nodes\": 1 } ] }");
	input_files_init(&l);
	input_files_add_scenario(&l, doc, "dir/s.json");
	/* a name "trace" is no file: only the values of catalog and trace keys */
	assert_int_equal(l.n, 3);
	assert_true(listed(&l, "dir/cat.json", "catalog"));
	assert_true(listed(&l, "/abs/more.json", "catalog"));
	assert_true(listed(&l, "dir/reqs.csv", "request trace"));
	json_decref(doc);

	doc = parse("{ \"catalog\": \"c.json\", \"workload\": { \"kind\": \"fleet\", \"fleet\": { \"jobs\": ["
		    " { \"arrival\": { \"process\": \"trace\", \"trace\": \"sacct.txt\" } },"
		    " { \"arrival\": { \"process\": \"poisson\", \"rate_per_h\": 1 } },"
		    " { \"arrival\": { \"process\": \"trace\", \"trace\": \"jobs.csv\" } } ] } } }");
	input_files_add_scenario(&l, doc, "s.json");
	assert_int_equal(l.n, 6);
	assert_true(listed(&l, "c.json", "catalog"));
	assert_true(listed(&l, "sacct.txt", "job trace"));
	assert_true(listed(&l, "jobs.csv", "job trace"));
	/* a path already listed is listed once */
	input_files_add(&l, "c.json", "catalog file", true);
	input_files_add(&l, "-", "sweep file", false);
	assert_int_equal(l.n, 6);
	json_decref(doc);
	input_files_release(&l);
	assert_int_equal(l.n, 0);
}

static void test_set_values(void **state)
{
	(void)state;
	struct input_files l;
	json_t *v;
	input_files_init(&l);
	struct { const char *path, *value, *file, *what; } cases[] = {
		{ "catalog", "\"a.json\"", "d/a.json", "catalog" },
		{ "catalog[1]", "\"b.json\"", "d/b.json", "catalog" },
		{ "catalog", "[\"c.json\", \"e.json\"]", "d/e.json", "catalog" },
		{ "workload.serving.arrival.trace", "\"r.csv\"", "d/r.csv", "request trace" },
		{ "workload.fleet.jobs[0].arrival", "{ \"process\": \"trace\", \"trace\": \"j.txt\" }", "d/j.txt", "job trace" },
		{ "workload", "{ \"serving\": { \"arrival\": { \"trace\": \"w.csv\" } } }", "d/w.csv", "request trace" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		v = parse(cases[i].value);
		input_files_add_value(&l, cases[i].path, v, "d/s.json");
		json_decref(v);
		assert_true(listed(&l, cases[i].file, cases[i].what));
	}
	size_t n = l.n;
	/* values at other paths name no file */
	v = parse("\"x.json\"");
	input_files_add_value(&l, "name", v, "d/s.json");
	input_files_add_value(&l, "candidates[0].preset", v, "d/s.json");
	json_decref(v);
	assert_int_equal(l.n, n);
	input_files_release(&l);
}

static void test_sweep_files(void **state)
{
	(void)state;
	struct input_files l;
	struct cs_error err;
	json_t *root = parse("{ \"base\": { \"name\": \"b\", \"catalog\": \"base-cat.json\", \"workload\": { \"kind\": \"collective\","
			     " \"collective\": { \"op\": \"all_reduce\", \"bytes\": [8] } }, \"candidates\": [ { \"name\": \"a\","
			     " \"preset\": \"dgx-h100\", \"nodes\": 1 } ] },"
			     " \"axes\": { \"catalog\": [\"c1.json\", \"c2.json\"], \"seed\": [1, 2] },"
			     " \"zip\": [ { \"workload.serving.arrival.trace\": [\"t1.csv\", \"t2.csv\"], \"name\": [\"x\", \"y\"] } ] }");
	error_clear(&err);
	sweep *sw = sweep_from_json(root, "d/sw.json", &err);
	json_decref(root);
	assert_non_null(sw);
	input_files_init(&l);
	input_files_add_sweep(&l, sw, "d/sw.json");
	/* an inline base: its files are found beside the sweep file */
	assert_int_equal(l.n, 6);
	assert_true(listed(&l, "d/sw.json", "sweep file"));
	assert_false(l.v[0].content);
	assert_true(listed(&l, "d/base-cat.json", "catalog"));
	assert_true(listed(&l, "d/c1.json", "catalog"));
	assert_true(listed(&l, "d/c2.json", "catalog"));
	assert_true(listed(&l, "d/t1.csv", "request trace"));
	assert_true(listed(&l, "d/t2.csv", "request trace"));
	input_files_release(&l);
	sweep_free(sw);
}

static void test_check_output(void **state)
{
	(void)state;
	struct input_files l;
	struct cs_error err;
	char trace[128], lnk[128], other[128];
	snprintf(trace, sizeof trace, "%s/reqs.csv", test_dir());
	snprintf(lnk, sizeof lnk, "%s/out.csv", test_dir());
	snprintf(other, sizeof other, "%s/other.csv", test_dir());
	write_text(trace, "arrival_s\n");
	assert_int_equal(symlink("reqs.csv", lnk), 0);
	input_files_init(&l);
	input_files_add(&l, trace, "request trace", true);
	error_clear(&err);
	assert_int_equal(input_files_check_output(&l, lnk, &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	char want[512];
	snprintf(want, sizeof want, "refusing to write results to '%s': it is the request trace '%s'", lnk, trace);
	assert_string_equal(err.msg, want);
	error_clear(&err);
	assert_int_equal(input_files_check_output(&l, other, &err), 0);  /* not there yet */
	write_text(other, "x");
	assert_int_equal(input_files_check_output(&l, other, &err), 0);
	assert_int_equal(input_files_check_output(&l, "-", &err), 0);
	assert_int_equal(input_files_check_output(&l, NULL, &err), 0);
	assert_false(error_is_set(&err));
	input_files_release(&l);
}

static void test_digest(void **state)
{
	(void)state;
	struct input_files l;
	char cat[128], sw[128], d1[17], d2[17], d3[17], d4[17];
	snprintf(cat, sizeof cat, "%s/cat.json", test_dir());
	snprintf(sw, sizeof sw, "%s/sw.json", test_dir());
	write_text(cat, "{ \"gpus\": [] }\n");
	write_text(sw, "{}");
	input_files_init(&l);
	input_files_add(&l, sw, "sweep file", false);
	input_files_add(&l, cat, "catalog", true);
	input_files_digest(&l, d1);
	assert_int_equal(strlen(d1), 16);
	input_files_digest(&l, d2);
	assert_string_equal(d1, d2);
	/* the sweep file's bytes are not part of it (its JSON is, elsewhere) */
	write_text(sw, "{ }\n");
	input_files_digest(&l, d2);
	assert_string_equal(d1, d2);
	/* one byte of a catalog changes it */
	write_text(cat, "{ \"gpus\": [ ] }\n");
	input_files_digest(&l, d3);
	assert_string_not_equal(d1, d3);
	/* a missing file changes it too, and the same each time */
	unlink(cat);
	input_files_digest(&l, d4);
	assert_string_not_equal(d4, d3);
	assert_string_not_equal(d4, d1);
	input_files_digest(&l, d2);
	assert_string_equal(d4, d2);
	input_files_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scenario_files),
		cmocka_unit_test(test_set_values),
		cmocka_unit_test(test_sweep_files),
		cmocka_unit_test(test_check_output),
		cmocka_unit_test(test_digest),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
