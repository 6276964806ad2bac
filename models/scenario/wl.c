#include "wl.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "models/scenario/reader.h"
#include "models/scenario/wl_collective.h"
#include "models/scenario/wl_fleet.h"
#include "models/scenario/wl_serve.h"
#include "models/scenario/wl_train.h"

/* The workload readers, one entry per kind. */
static const struct wl_reader wl_readers[] = {
	{
		.kind = WORKLOAD_TRAINING,
		.name = "training",
		.read = wl_train_read,
		.keys = (const char *const[]){
			"model", "global_batch_tokens", "parallelism", "search_numerics", "checkpoint", "mode", "data", NULL
		},
	},
	{
		.kind = WORKLOAD_FINETUNE,
		.name = "finetune",
		.read = wl_train_read,
		.keys = (const char *const[]){
			"model", "global_batch_tokens", "parallelism", "search_numerics", "checkpoint", "mode", "finetune",
			"examples", "epochs", "data", NULL
		},
	},
	{
		.kind = WORKLOAD_INFERENCE,
		.name = "inference",
		.read = wl_serve_read,
		.keys = (const char *const[]){ "model", "serving", NULL },
	},
	{
		.kind = WORKLOAD_COLLECTIVE,
		.name = "collective",
		.read = wl_collective_read,
		.keys = (const char *const[]){ "collective", NULL },
	},
	{
		.kind = WORKLOAD_FLEET,
		.name = "fleet",
		.read = wl_fleet_read,
		.keys = (const char *const[]){ "fleet", NULL },
	},
};

enum { N_READERS = sizeof wl_readers / sizeof wl_readers[0] };

/*
 * The keys a workload object may hold, in the order "did you mean" ranks
 * equally close names. A key no entry lists is accepted by every kind (its
 * reader may still refuse it, as the non-training kinds do `tokens`). Keys
 * of an entry that are missing here are accepted too, ranked after these.
 */
static const char *const ranked_keys[] = {
	"kind", "model", "precision", "seq_len", "global_batch_tokens", "tokens", "examples",
	"epochs", "parallelism", "checkpoint", "failures", "finetune", "serving", "collective",
	"kernels", "mode", NULL
};

/* The most keys a workload object may hold, with room for more kinds. */
enum { KNOWN_KEYS_MAX = 64 };

static bool listed(const char *const keys[], const char *key)
{
	for (size_t i = 0; keys[i] != NULL; i++) {
		if (strcmp(keys[i], key) == 0)
			return true;
	}
	return false;
}

/* Fill out[] with ranked_keys, then every entry's other keys; NULL-terminated. */
static void known_keys(const char *out[KNOWN_KEYS_MAX])
{
	size_t n = 0;
	for (; ranked_keys[n] != NULL; n++)
		out[n] = ranked_keys[n];
	out[n] = NULL;
	for (size_t e = 0; e < N_READERS; e++) {
		for (size_t i = 0; wl_readers[e].keys[i] != NULL; i++) {
			if (listed(out, wl_readers[e].keys[i]))
				continue;
			assert(n + 1 < KNOWN_KEYS_MAX);
			out[n++] = wl_readers[e].keys[i];
			out[n] = NULL;
		}
	}
}

/* Whether some entry lists `key` (so a kind that does not list it refuses it). */
static bool owned(const char *key)
{
	for (size_t e = 0; e < N_READERS; e++) {
		if (listed(wl_readers[e].keys, key))
			return true;
	}
	return false;
}

/* Fail at the first key of v (in `known` order) that belongs to other kinds. */
static int reject_other_kinds_keys(struct jread *r, const json_t *v, const struct wl_reader *rd,
				   const char *const known[])
{
	for (size_t i = 0; known[i] != NULL; i++) {
		const char *key = known[i];
		if (json_object_get(v, key) != NULL && owned(key) && !listed(rd->keys, key)) {
			char msg[128];
			snprintf(msg, sizeof msg, "not used by %s workloads", rd->name);
			return reader_fail_at(r, key, msg);
		}
	}
	return 0;
}

const struct wl_reader *wl_reader_of(enum workload_kind kind)
{
	for (size_t e = 0; e < N_READERS; e++) {
		if (wl_readers[e].kind == kind)
			return &wl_readers[e];
	}
	return NULL;
}

int wl_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
	    struct workload_spec *w)
{
	const char *known[KNOWN_KEYS_MAX];
	int kind = 0, prec = PREC_BF16;

	known_keys(known);
	if (jread_object(r, v, known) < 0 ||
	    jread_enum(r, v, "kind", true, workload_kind_names, &kind) < 0 ||
	    jread_enum(r, v, "precision", false, precision_names, &prec) < 0)
		return -1;
	w->kind = (enum workload_kind)kind;
	w->model.precision = (enum precision)prec;
	const struct wl_reader *rd = wl_reader_of(w->kind);
	assert(rd != NULL); /* every kind has an entry (test_scenario checks) */
	if (reject_other_kinds_keys(r, v, rd, known) < 0)
		return -1;
	workload_bind(w);
	return rd->read(r, v, file, cat, w);
}
