/*
 * The built-in catalog's generated tables (tools/gencatalog.c) against the
 * JSON they are generated from, read here at run time by the same reader a
 * user's --catalog file goes through; and a catalog that borrows the tables
 * copies a section before a merge changes it, never writing the tables.
 * The JSON files are found under $TOP/scenarios/catalog (tests/run.sh sets
 * TOP; "." otherwise).
 */
#include "testutil.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "models/hw/catalog.h"

/* The catalog read from the JSON files, in the Makefile's order ($(sort)
 * of the names: byte order, as glob's in the C locale). */
static catalog *json_catalog(void)
{
	const char *top = getenv("TOP");
	char pattern[1024];
	glob_t g;
	struct cs_error err;
	catalog *c;

	int len = snprintf(pattern, sizeof pattern, "%s/scenarios/catalog/*.json", top != NULL ? top : ".");
	assert_true(len > 0 && (size_t)len < sizeof pattern);
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 8);
	error_clear(&err);
	c = catalog_new_json_files((const char *const *)g.gl_pathv, g.gl_pathc, "built-in catalog", &err);
	if (c == NULL)
		print_error("%s\n", err.msg);
	globfree(&g);
	assert_non_null(c);
	return c;
}

/* Entries i of two sections, byte for byte: every field (a field the
 * generator forgot is 0 in the tables and differs here), with the padding,
 * which both sides have zero (the reader zeroes a record before it fills
 * it; a static initializer zeroes padding), so a difference in padding
 * fails too, never passes. */
static int first_difference(const void *a, const void *b, size_t size)
{
	const unsigned char *x = a, *y = b;
	for (size_t k = 0; k < size; k++)
		if (x[k] != y[k])
			return (int)k;
	return -1;
}

#define SAME_SECTION(tables, json, count, at, type, label)                                     \
	do {                                                                                     \
		assert_int_equal(count(tables), count(json));                                    \
		for (size_t i_ = 0; i_ < count(json); i_++) {                                    \
			int off_ = first_difference(at(tables, i_), at(json, i_), sizeof(type)); \
			if (off_ >= 0)                                                           \
				print_error("%s[%zu]: tables differ from the JSON at byte %d of %zu\n", \
					    label, i_, off_, sizeof(type));                      \
			assert_int_equal(off_, -1);                                              \
		}                                                                                \
	} while (0)

static void test_tables_equal_json(void **state)
{
	(void)state;
	struct cs_error err;
	catalog *t = catalog_new_builtin(&err);
	catalog *j = json_catalog();

	assert_non_null(t);
	assert_string_equal(catalog_as_of(t), catalog_as_of(j));
	SAME_SECTION(t, j, catalog_gpu_count, catalog_gpu_at, struct gpu_spec, "gpus");
	SAME_SECTION(t, j, catalog_fabric_count, catalog_fabric_at, struct fabric_spec, "fabrics");
	SAME_SECTION(t, j, catalog_storage_count, catalog_storage_at, struct storage_spec, "storage");
	SAME_SECTION(t, j, catalog_preset_count, catalog_preset_at, struct preset_spec, "presets");
	SAME_SECTION(t, j, catalog_price_count, catalog_price_at, struct price_spec, "prices");
	SAME_SECTION(t, j, catalog_billing_count, catalog_billing_at, struct billing_spec, "billing");
	SAME_SECTION(t, j, catalog_model_count, catalog_model_at, struct model_spec, "models");
	SAME_SECTION(t, j, catalog_source_count, catalog_source_at, struct catalog_source, "sources");
	SAME_SECTION(t, j, catalog_engine_count, catalog_engine_at, struct engine_spec, "engines");
	/* and the tables pass the checks the JSON passed */
	assert_int_equal(catalog_check(t, &err), 0);
	catalog_free(j);
	catalog_free(t);
}

static int merge_text(catalog *c, const char *text, struct cs_error *err)
{
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	int rc;
	assert_non_null(root);
	rc = catalog_merge_json(c, root, "catalog", "test.json", NULL, err);
	json_decref(root);
	return rc;
}

/* A merge into the built-in catalog (as --catalog does) changes that
 * catalog only: a new one from the same tables, and a copy made before,
 * still have the built-in values; user prices go in front. */
static void test_merge_copies_the_tables(void **state)
{
	(void)state;
	struct cs_error err;
	catalog *a = catalog_new_builtin(&err);
	catalog *before = catalog_copy(a);
	size_t prices = catalog_price_count(a);
	double tdp = catalog_gpu(a, "H100-SXM")->tdp_w;

	assert_true(tdp > 0 && tdp != 123);
	assert_int_equal(merge_text(a, "{\"gpus\": [{\"name\": \"H100\", \"tdp_w\": 123}],"
				       " \"prices\": [{\"provider\": \"me\", \"offering\": \"x\", \"gpu\": \"H100\","
				       " \"type\": \"on-demand\", \"usd_per_gpu_hour\": 1.5, \"source\": \"S01\","
				       " \"confidence\": \"low\", \"observed\": \"2026-11\"}]}", &err), 0);
	assert_true(catalog_gpu(a, "H100-SXM")->tdp_w == 123);
	assert_int_equal(catalog_price_count(a), prices + 1);
	assert_string_equal(catalog_price_at(a, 0)->provider, "me");

	catalog *b = catalog_new_builtin(&err);
	assert_true(catalog_gpu(b, "H100-SXM")->tdp_w == tdp);
	assert_true(catalog_gpu(before, "H100-SXM")->tdp_w == tdp);
	assert_int_equal(catalog_price_count(b), prices);
	assert_string_not_equal(catalog_price_at(b, 0)->provider, "me");
	/* a section the merge did not touch is still the tables' */
	assert_ptr_equal(catalog_model_at(a, 0), catalog_model_at(b, 0));
	assert_ptr_not_equal(catalog_gpu_at(a, 0), catalog_gpu_at(b, 0));

	/* a copy of a merged catalog is its own */
	catalog *c = catalog_copy(a);
	catalog_free(a);
	assert_true(catalog_gpu(c, "H100-SXM")->tdp_w == 123);
	catalog_free(c);
	catalog_free(b);
	catalog_free(before);
}

/* The JSON path names the file that is wrong. */
static void test_json_files_errors(void **state)
{
	(void)state;
	char path[] = "/tmp/clustersim-test-catalog-XXXXXX";
	const char *paths[] = { path };
	struct cs_error err;
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("{\"gpus\": [{\"name\": \"X\"}]}", f);
	fclose(f);
	error_clear(&err);
	assert_null(catalog_new_json_files(paths, 1, "built-in catalog", &err));
	assert_int_equal(err.kind, ERROR_RUNTIME);
	assert_non_null(strstr(err.msg, strrchr(path, '/') + 1));
	assert_non_null(strstr(err.msg, "memory_gib"));

	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"gpus\": [", f);
	fclose(f);
	error_clear(&err);
	assert_null(catalog_new_json_files(paths, 1, "built-in catalog", &err));
	assert_non_null(strstr(err.msg, "built-in catalog '"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_equal_json),
		cmocka_unit_test(test_merge_copies_the_tables),
		cmocka_unit_test(test_json_files_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
