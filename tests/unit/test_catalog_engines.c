/*
 * The catalog's engines section (models/hw/catalog_read.c, catalog_read_engine):
 * the built-in entries are scenarios/catalog/engines.json's values in seconds;
 * an overlay (what `clustersim calibrate` writes) changes only the fields it
 * gives; every bad input is one line naming the file, the path and what is
 * wrong. engines.json is found under $TOP/scenarios/catalog (tests/run.sh
 * sets TOP; "." otherwise).
 */
#include "testutil.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/hw/catalog.h"
#include "models/hw/catalog_read.h"

static catalog *builtin(void)
{
	struct cs_error err;
	error_clear(&err);
	catalog *c = catalog_new_builtin(&err);
	if (c == NULL)
		print_error("%s\n", err.msg);
	assert_non_null(c);
	return c;
}

static const char *engines_json_path(void)
{
	static char path[1024];
	const char *top = getenv("TOP");
	int len = snprintf(path, sizeof path, "%s/scenarios/catalog/engines.json", top != NULL ? top : ".");
	assert_true(len > 0 && (size_t)len < sizeof path);
	return path;
}

/* Merge the document `text` into c as file "mine.json": the rc, and the
 * message in err. */
static int merge_text(catalog *c, const char *text, struct cs_error *err)
{
	json_error_t jerr;
	json_t *doc = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	int rc;
	if (doc == NULL)
		print_error("%s: %s\n", text, jerr.text);
	assert_non_null(doc);
	error_clear(err);
	rc = catalog_merge_json(c, doc, "catalog", "mine.json", NULL, err);
	json_decref(doc);
	return rc;
}

/* obj[key] (a number in the file), or -1 when absent. */
static double number_or_absent(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return v != NULL ? json_number_value(v) : -1;
}

/* Every entry of engines.json, read here with jansson on its own, is the
 * built-in catalog's entry of that name, with ms and us in seconds; the
 * model's engines are all there, in catalog_engine_names' order. */
static void test_builtin_is_the_json_in_seconds(void **state)
{
	(void)state;
	catalog *c = builtin();
	json_error_t jerr;
	json_t *root = json_load_file(engines_json_path(), 0, &jerr);
	json_t *arr, *obj;
	size_t i;

	assert_non_null(root);
	arr = json_object_get(root, "engines");
	assert_int_equal(json_array_size(arr), catalog_engine_count(c));
	for (i = 0; catalog_engine_names[i] != NULL; i++) {
		const struct engine_spec *e = catalog_engine(c, catalog_engine_names[i]);
		assert_non_null(e);
		assert_ptr_equal(e, catalog_engine_at(c, i));
		assert_int_equal(e->kind, catalog_engine_kinds[i]);
	}
	assert_int_equal(i, catalog_engine_count(c));
	json_array_foreach(arr, i, obj) {
		const char *name = json_string_value(json_object_get(obj, "name"));
		const struct engine_spec *e = catalog_engine(c, name);
		assert_non_null(e);
		assert_string_equal(e->id.name, name);
		assert_string_equal(e->id.confidence, json_string_value(json_object_get(obj, "confidence")));
		if (e->kind == ENGINE_SERVING) {
			assert_close(e->step_overhead_s, number_or_absent(obj, "step_overhead_ms") * 1e-3, 1e-15);
			assert_close(e->seq_overhead_s, number_or_absent(obj, "seq_overhead_us") * 1e-6, 1e-15);
			assert_close(e->kernel_s, number_or_absent(obj, "kernel_us") * 1e-6, 1e-15);
			assert_close(e->gemm_over_mamf, number_or_absent(obj, "gemm_over_mamf"), 0);
			assert_close(e->hbm_efficiency, number_or_absent(obj, "hbm_efficiency"), 0);
			assert_true(e->overlap_slowdown == 0 && e->ep_overlap_slowdown == 0 && e->straggler_sigma == 0);
		} else {
			assert_close(e->overlap_slowdown, number_or_absent(obj, "overlap_slowdown"), 0);
			assert_close(e->ep_overlap_slowdown, number_or_absent(obj, "ep_overlap_slowdown"), 0);
			assert_close(e->straggler_sigma, number_or_absent(obj, "straggler_sigma"), 0);
			assert_true(e->step_overhead_s == 0 && e->kernel_s == 0 && e->gemm_over_mamf == 0);
		}
	}
	json_decref(root);
	/* and the figures themselves, in seconds (docs/explanation/calibration.md) */
	const struct engine_spec *v1 = catalog_engine(c, "vllm-v1"), *tr = catalog_engine(c, "training");
	assert_close(v1->step_overhead_s, 1e-3, 1e-12);
	assert_close(v1->seq_overhead_s, 3e-6, 1e-12);
	assert_close(v1->kernel_s, 5e-6, 1e-12);
	assert_close(v1->gemm_over_mamf, 0.95, 0);
	assert_close(v1->hbm_efficiency, 0.9, 0);
	assert_int_equal(tr->kind, ENGINE_TRAINING);
	assert_close(tr->overlap_slowdown, 0.22, 0);
	assert_close(tr->ep_overlap_slowdown, 0.54, 0);
	assert_close(tr->straggler_sigma, 0.015, 0);
	assert_null(catalog_engine(c, "vllm"));
	catalog_free(c);
}

/* An overlay giving one field of vllm-v1 (as calibrate's does) changes that
 * field only: vllm-v1's others and every other entry are as before, byte
 * for byte; the name matches in any case and keeps the model's spelling. */
static void test_overlay_changes_one_field(void **state)
{
	(void)state;
	catalog *c = builtin(), *before = builtin();
	struct cs_error err;

	assert_int_equal(merge_text(c, "{\"engines\": [{\"name\": \"VLLM-V1\", \"kernel_us\": 7, "
				       "\"calibration\": \"fitted to my runs\"}]}", &err), 0);
	assert_int_equal(catalog_check(c, &err), 0);
	assert_int_equal(catalog_engine_count(c), catalog_engine_count(before));
	for (size_t i = 0; i < catalog_engine_count(c); i++) {
		struct engine_spec a = *catalog_engine_at(c, i), b = *catalog_engine_at(before, i);
		if (strcmp(b.id.name, "vllm-v1") == 0) {
			assert_string_equal(a.id.name, "vllm-v1");
			assert_close(a.kernel_s, 7e-6, 1e-12);
			assert_string_equal(a.calibration, "fitted to my runs");
			a.kernel_s = b.kernel_s;
			memcpy(a.calibration, b.calibration, sizeof a.calibration);
		}
		assert_memory_equal(&a, &b, sizeof a);
	}
	/* a later overlay of the training entry gives one of its keys */
	assert_int_equal(merge_text(c, "{\"engines\": [{\"name\": \"training\", \"straggler_sigma\": 0.02}]}", &err), 0);
	assert_close(catalog_engine(c, "training")->straggler_sigma, 0.02, 0);
	assert_close(catalog_engine(c, "training")->overlap_slowdown, 0.22, 0);
	catalog_free(before);
	catalog_free(c);
}

/* Each bad input is one line: the file, the JSON path, what is wrong. */
static void test_bad_entries(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "{\"engines\": [{\"name\": \"vllm-v2\", \"kernel_us\": 5}]}",
		  "catalog 'mine.json': engines[0].name: \"vllm-v2\" is not an engine the model knows: the engines are "
		  "\"vllm-v0\", \"vllm-v1\", \"trtllm\", \"sglang\", \"training\"" },
		{ "{\"engines\": [{\"name\": \"vllm-v1\", \"straggler_sigma\": 0.01}]}",
		  "catalog 'mine.json': engines[0].straggler_sigma: a training engine's key (\"training\"), not a "
		  "serving engine's" },
		{ "{\"engines\": [{\"name\": \"training\", \"kernel_us\": 5}]}",
		  "catalog 'mine.json': engines[0].kernel_us: a serving engine's key (\"vllm-v0\", \"vllm-v1\", "
		  "\"trtllm\", \"sglang\"), not a training engine's" },
		{ "{\"engines\": [{\"name\": \"sglang\", \"gemm_over_mamf\": 0}]}",
		  "catalog 'mine.json': engines[0].gemm_over_mamf: expected a number above 0 and at most 1.5, got 0" },
		{ "{\"engines\": [{\"name\": \"sglang\", \"hbm_efficiency\": 1.2}]}",
		  "catalog 'mine.json': engines[0].hbm_efficiency: expected a number from 0 to 1, got 1.2" },
		{ "{\"engines\": [{\"name\": \"trtllm\", \"step_overhead_ms\": -1}]}",
		  "catalog 'mine.json': engines[0].step_overhead_ms: expected a number from 0 to 10000, got -1" },
		{ "{\"engines\": [{\"name\": \"training\", \"straggler_sigma\": 0.6}]}",
		  "catalog 'mine.json': engines[0].straggler_sigma: expected a number from 0 to 0.5, got 0.6" },
		{ "{\"engines\": [{\"name\": \"training\", \"kind\": \"serving\"}]}",
		  "catalog 'mine.json': engines[0]: unknown key \"kind\"" },
		{ "{\"engines\": [{\"name\": \"training\"}, {\"name\": \"Training\"}]}",
		  "catalog 'mine.json': engines[1].name: \"Training\" is also the name of engines[0]" },
	};
	catalog *c = builtin();
	struct cs_error err;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(merge_text(c, cases[i][0], &err), -1);
		assert_int_equal(err.kind, ERROR_INPUT);
		assert_null(strchr(err.msg, '\n'));
		if (strncmp(err.msg, cases[i][1], strlen(cases[i][1])) != 0)
			fail_msg("%s:\n got  %s\n want %s", cases[i][0], err.msg, cases[i][1]);
	}
	/* no failed entry was added */
	assert_int_equal(catalog_engine_count(c), 5);
	assert_int_equal(catalog_check(c, &err), 0);
	catalog_free(c);
}

/* A new entry (a catalog built from files only, as gencatalog's) needs every
 * key of its kind; a later file may give only some. */
static void test_new_entry_needs_every_key(void **state)
{
	(void)state;
	static const struct catalog_tables none = { 0 };
	catalog *c = catalog_new_tables(&none);
	struct cs_error err;

	assert_int_equal(merge_text(c, "{\"engines\": [{\"name\": \"vllm-v0\", \"step_overhead_ms\": 1, "
				       "\"seq_overhead_us\": 3, \"gemm_over_mamf\": 0.9, \"hbm_efficiency\": 0.9}]}", &err), -1);
	assert_string_equal(err.msg, "catalog 'mine.json': engines[0].kernel_us: missing required key");
	assert_int_equal(catalog_engine_count(c), 0);
	assert_int_equal(merge_text(c, "{\"engines\": [{\"name\": \"training\", \"overlap_slowdown\": 0.2, "
				       "\"straggler_sigma\": 0.01}]}", &err), -1);
	assert_string_equal(err.msg, "catalog 'mine.json': engines[0].ep_overlap_slowdown: missing required key");
	assert_int_equal(merge_text(c, "{\"engines\": [{\"name\": \"training\", \"overlap_slowdown\": 0.2, "
				       "\"ep_overlap_slowdown\": 0.5, \"straggler_sigma\": 0.01}]}", &err), 0);
	assert_int_equal(merge_text(c, "{\"engines\": [{\"name\": \"training\", \"straggler_sigma\": 0.02}]}", &err), 0);
	assert_close(catalog_engine(c, "training")->straggler_sigma, 0.02, 0);
	assert_close(catalog_engine(c, "training")->ep_overlap_slowdown, 0.5, 0);
	catalog_free(c);
}

/* Write text to a new temporary file; its path in path (a mkstemp pattern). */
static void write_temp(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The checked catalog has every engine the model reads: built from files
 * only, one missing "training" is an error naming it; engines.json alone
 * is a whole catalog's engines. */
static void test_catalog_missing_an_engine(void **state)
{
	(void)state;
	char path[] = "/tmp/clustersim-test-engines-XXXXXX";
	const char *paths[] = { path };
	const char *json = engines_json_path();
	struct cs_error err;
	catalog *c;

	write_temp(path, "{\"engines\": [{\"name\": \"vllm-v0\", \"step_overhead_ms\": 1, \"seq_overhead_us\": 3,"
		   " \"kernel_us\": 5, \"gemm_over_mamf\": 0.95, \"hbm_efficiency\": 0.9}]}");
	error_clear(&err);
	assert_null(catalog_new_json_files(paths, 1, "built-in catalog", &err));
	assert_int_equal(err.kind, ERROR_RUNTIME);
	assert_string_equal(err.msg, "built-in catalog: engines: no entry \"vllm-v1\": the model needs every "
			    "engine's constants (\"vllm-v0\", \"vllm-v1\", \"trtllm\", \"sglang\", \"training\")");
	unlink(path);

	/* engines.json without its training entry */
	json_error_t jerr;
	json_t *root = json_load_file(json, 0, &jerr);
	assert_non_null(root);
	json_t *arr = json_object_get(root, "engines");
	for (size_t i = 0; i < json_array_size(arr); i++)
		if (strcmp(json_string_value(json_object_get(json_array_get(arr, i), "name")), "training") == 0)
			json_array_remove(arr, i--);
	char *text = json_dumps(root, 0);
	json_decref(root);
	char path2[] = "/tmp/clustersim-test-engines-XXXXXX";
	write_temp(path2, text);
	free(text);
	paths[0] = path2;
	error_clear(&err);
	assert_null(catalog_new_json_files(paths, 1, "built-in catalog", &err));
	assert_non_null(strstr(err.msg, "engines: no entry \"training\": the model needs every engine's constants"));
	assert_null(strchr(err.msg, '\n'));
	unlink(path2);

	paths[0] = json;
	c = catalog_new_json_files(paths, 1, "built-in catalog", &err);
	if (c == NULL)
		print_error("%s\n", err.msg);
	assert_non_null(c);
	assert_int_equal(catalog_engine_count(c), 5);
	catalog_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_is_the_json_in_seconds),
		cmocka_unit_test(test_overlay_changes_one_field),
		cmocka_unit_test(test_bad_entries),
		cmocka_unit_test(test_new_entry_needs_every_key),
		cmocka_unit_test(test_catalog_missing_an_engine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
