/*
 * fuzz_sweep: bytes -> a sweep file, and three of its points as scenarios.
 *
 * The document goes through jread_load_buffer() and sweep_from_json(); a
 * `base` that names a file is replaced by a small inline scenario so that the
 * fuzzer never reads files. For a sweep that loads, the first, a middle and
 * the last point are built with sweep_point_json() and read with
 * scenario_from_json(), and every value of those points is written out.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/catalog.h"
#include "models/scenario/scenario.h"
#include "models/scenario/sweep.h"
#include "util/jread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base_text[] =
	"{ \"name\": \"b\", \"workload\": { \"kind\": \"collective\", \"collective\": { \"op\": \"all_reduce\","
	" \"bytes\": [8, 1024] } }, \"candidates\": [ { \"name\": \"a\", \"preset\": \"dgx-h100\", \"nodes\": 1 } ] }";

static catalog *builtin;

static void try_point(const sweep *sw, uint64_t k)
{
	struct cs_error err;
	struct scenario s;
	catalog *cat = builtin;
	json_t *doc, *c;

	error_clear(&err);
	for (size_t i = 0; i < sweep_path_count(sw); i++) {
		char *text = json_dumps(sweep_value(sw, k, i), JSON_ENCODE_ANY | JSON_COMPACT);
		if (text == NULL || sweep_path(sw, i)[0] == '\0')
			abort();
		free(text);
	}
	doc = sweep_point_json(sw, k, &err);
	if (doc == NULL)
		return;
	c = json_object_get(doc, "catalog");
	if (c != NULL && !json_is_object(c))
		json_object_del(doc, "catalog");
	if (json_object_get(doc, "catalog") != NULL)
		cat = catalog_copy(builtin);
	if (scenario_from_json(doc, sweep_base_file(sw), cat, &s, &err) == 0)
		scenario_release(&s);
	if (cat != builtin)
		catalog_free(cat);
	json_decref(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cs_error err;
	json_t *root, *base;
	sweep *sw;

	error_clear(&err);
	if (builtin == NULL && (builtin = catalog_new_builtin(&err)) == NULL)
		abort();
	root = jread_load_buffer("sweep", "fuzz-sweep.json", (const char *)data, size, &err);
	if (root == NULL)
		return 0;
	base = json_object_get(root, "base");
	if (json_is_string(base)) {
		json_error_t jerr;
		json_object_set_new(root, "base", json_loads(base_text, 0, &jerr));
	}
	sw = sweep_from_json(root, "fuzz-sweep.json", &err);
	if (sw != NULL) {
		uint64_t n = sweep_points(sw);
		if (n == 0 || n > SWEEP_POINTS_MAX)
			abort();
		try_point(sw, 0);
		if (n > 2)
			try_point(sw, n / 2);
		if (n > 1)
			try_point(sw, n - 1);
		sweep_free(sw);
	} else if (strchr(err.msg, '\n') != NULL || err.msg[0] == '\0') {
		abort();
	}
	json_decref(root);
	return 0;
}
