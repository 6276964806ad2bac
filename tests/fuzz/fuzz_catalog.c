/*
 * fuzz_catalog: bytes -> a catalog override document (`--catalog FILE`).
 *
 * The document is parsed as jread_load() would, merged into a fresh built-in
 * catalog with catalog_merge_json(), checked with catalog_check(), and, when
 * it passes, every `clustersim catalog SECTION` listing is written as CSV, as
 * `clustersim catalog --catalog FILE SECTION` would.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/catalog.h"
#include "output/catalog_rows.h"
#include "output/writer.h"
#include "util/jread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rowset *(*const listings[])(const catalog *) = {
		catalog_rows_gpus, catalog_rows_fabrics, catalog_rows_storage,
		catalog_rows_presets, catalog_rows_prices, catalog_rows_models,
		catalog_rows_sources, catalog_rows_engines,
	};
	struct cs_error err;
	catalog *cat;
	json_t *root;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	error_clear(&err);
	root = jread_load_buffer("catalog", "fuzz.json", (const char *)data, size, &err);
	if (root == NULL)
		return 0;
	static catalog *builtin;
	if (builtin == NULL && (builtin = catalog_new_builtin(&err)) == NULL)
		abort();
	cat = catalog_copy(builtin);
	if (catalog_merge_json(cat, root, "catalog", "fuzz.json", NULL, &err) == 0 &&
	    catalog_check(cat, &err) == 0) {
		for (size_t i = 0; i < sizeof listings / sizeof listings[0]; i++) {
			rowset *rs = listings[i](cat);
			writer_csv(devnull, rs);
			rowset_free(rs);
		}
	} else if (strchr(err.msg, '\n') != NULL || err.msg[0] == '\0') {
		abort();
	}
	catalog_free(cat);
	json_decref(root);
	return 0;
}
