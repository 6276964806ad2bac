#include "sweep_fingerprint.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/fnv.h"

#ifndef CLUSTERSIM_VERSION
#define CLUSTERSIM_VERSION "0.0.0"
#endif

const char sweep_fingerprint_column[] = "sweep_fingerprint";

/* One named field, each part ended by its NUL so that none runs into the next. */
static uint64_t fnv_field(uint64_t h, const char *name, const char *text)
{
	h = fnv_hash(h, name, strlen(name) + 1);
	return fnv_hash(h, text, strlen(text) + 1);
}

static uint64_t fnv_json(uint64_t h, const char *name, const json_t *v, size_t flags)
{
	char *text = v != NULL ? json_dumps(v, flags | JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	h = fnv_field(h, name, text != NULL ? text : "null");
	free(text);
	return h;
}

/*
 * FNV-1a 64, as 16 hex digits, of the program's version, the base scenario
 * after --set as canonical JSON (keys sorted, compact), the sweep file's axes
 * and zip as written (their order numbers the points), --seed, --dry-run and
 * the digest of the input files' contents.
 */
void sweep_fingerprint(const sweep *sw, int64_t seed, bool dry_run, const char *inputs,
		       char out[SWEEP_FINGERPRINT_LEN + 1])
{
	const json_t *doc = sweep_document(sw);
	char seed_text[24];
	uint64_t h = FNV_OFFSET_BASIS;

	snprintf(seed_text, sizeof seed_text, "%" PRId64, seed >= 0 ? seed : -1);
	h = fnv_field(h, "version", CLUSTERSIM_VERSION);
	h = fnv_json(h, "base", sweep_base(sw), JSON_SORT_KEYS);
	h = fnv_json(h, "axes", json_object_get(doc, "axes"), JSON_PRESERVE_ORDER);
	h = fnv_json(h, "zip", json_object_get(doc, "zip"), JSON_PRESERVE_ORDER);
	h = fnv_field(h, "seed", seed_text);
	h = fnv_field(h, "dry_run", dry_run ? "1" : "0");
	h = fnv_field(h, "inputs", inputs != NULL ? inputs : "");
	snprintf(out, SWEEP_FINGERPRINT_LEN + 1, "%016" PRIx64, h);
}

bool sweep_fingerprint_valid(const char *text)
{
	return strlen(text) == SWEEP_FINGERPRINT_LEN &&
	       strspn(text, "0123456789abcdef") == SWEEP_FINGERPRINT_LEN;
}
