/*
 * fuzz_scenario: bytes -> a scenario, through the path a file takes.
 *
 * The input is up to four NUL-terminated "PATH=VALUE" --set overrides, then
 * the document: jread_load_buffer() (jread_load's checks on memory), the
 * overrides applied with override_apply(), scenario_from_json() against
 * the built-in catalog, and for a scenario that loads, the shape rows of
 * `run --dry-run` written as CSV (and the rows of `run` for a small analytic
 * collective). A document that names catalog files ("catalog": "path") has
 * that key dropped so that the fuzzer never reads files.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/runner.h"
#include "models/hw/catalog.h"
#include "models/scenario/scenario.h"
#include "output/writer.h"
#include "util/jread.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SETS 4

static catalog *builtin;
static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	size_t left = size, nsets = 0;
	char *sets[MAX_SETS];
	struct cs_error err;
	struct scenario s;
	catalog *cat;
	json_t *root, *c;

	if (builtin == NULL) {
		error_clear(&err);
		builtin = catalog_new_builtin(&err);
		devnull = fopen("/dev/null", "w");
		if (builtin == NULL || devnull == NULL)
			abort();
	}
	while (nsets < MAX_SETS) {
		const char *nul = memchr(p, '\0', left);
		if (nul == NULL)
			break;
		sets[nsets++] = xstrndup(p, (size_t)(nul - p));
		left -= (size_t)(nul - p) + 1;
		p = nul + 1;
	}
	error_clear(&err);
	root = jread_load_buffer("scenario", "fuzz.json", p, left, &err);
	for (size_t i = 0; root != NULL && i < nsets; i++) {
		struct scenario_override ov;
		if (override_parse(sets[i], &ov) &&
		    override_apply(root, "scenario", "fuzz.json", ov.path, ov.value, &err) < 0) {
			json_decref(root);
			root = NULL;
		}
	}
	for (size_t i = 0; i < nsets; i++)
		free(sets[i]);
	if (root == NULL)
		return 0;
	c = json_object_get(root, "catalog");
	if (c != NULL && !json_is_object(c))
		json_object_del(root, "catalog");
	/* A catalog of the document's own is merged into the catalog: use a
	 * fresh one so that no input changes the next. */
	cat = json_object_get(root, "catalog") != NULL ? catalog_copy(builtin) : builtin;
	if (cat == NULL)
		abort();
	if (scenario_from_json(root, "fuzz.json", cat, &s, &err) == 0) {
		struct runner_options ro = { .dry_run = true, .row_id = -1 };
		rowset *rs = runner_columns(&s, &ro);
		if (runner_run(&s, &ro, rs, &err) == 0)
			writer_csv(devnull, rs);
		rowset_free(rs);
		/* Analytic collectives are closed forms, fast whatever the input:
		 * run them too (at most 64 rows), as `run` would. */
		if (s.workload.kind == WORKLOAD_COLLECTIVE &&
		    s.workload.collective.fidelity == FIDELITY_ANALYTIC &&
		    s.n_candidates * s.workload.collective.n_bytes <= 64) {
			ro.dry_run = false;
			rs = runner_columns(&s, &ro);
			if (runner_run(&s, &ro, rs, &err) == 0)
				writer_csv(devnull, rs);
			rowset_free(rs);
		}
		scenario_release(&s);
	} else if (strchr(err.msg, '\n') != NULL || err.msg[0] == '\0') {
		abort();  /* every failure is one non-empty line */
	}
	if (cat != builtin)
		catalog_free(cat);
	json_decref(root);
	return 0;
}
