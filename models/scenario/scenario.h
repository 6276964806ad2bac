/*
 * scenario: scenario files (docs/reference/scenarios.md) read into plain C records.
 *
 * scenario_load() reads a JSON file (or standard input for "-"), applies the
 * --set overrides to the JSON tree (override.h), merges any catalog additions
 * the scenario names, reads the top-level keys (name, seed, monte_carlo,
 * objective, validation), the workload through the reader of its kind (wl.h)
 * and each candidate cluster against the catalog (candidate.h). Every
 * failure is one message naming the file, the JSON path and the value. The
 * loaded scenario owns copies of everything it needs, so the catalog may be
 * freed after loading. Never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_SCENARIO_H
#define CLUSTERSIM_MODELS_SCENARIO_SCENARIO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/eval/job.h"
#include "models/hw/catalog.h"
#include "models/scenario/override.h"
#include "util/error.h"

/* A published figure the scenario reproduces (scenarios/validation). */
struct validation_spec {
	bool present;
	char id[CAT_NAME_MAX * 2];
	char metric[CAT_NAME_MAX];   /* a result column, or samples_per_s, busbw_per_nic_GBps */
	double published;
	char source[CAT_NOTE_MAX];
	/* the published source the row belongs to, for validate's per-family
	 * summary: "" when not stated (validation_family: the id's prefix) */
	char family[CAT_NAME_MAX];
};

struct scenario {
	char name[CAT_TEXT_MAX];
	char file[1024];
	uint64_t seed;
	struct workload_spec workload;
	struct cluster_spec *candidates;  /* owned */
	size_t n_candidates;
	struct monte_carlo_spec monte_carlo;
	struct objective_spec objective;
	struct validation_spec validation;
	char **catalog_files;             /* owned: the catalog files the scenario names, resolved */
	size_t n_catalog_files;
	/* owned: the shapes `clustersim plan` searches (space.h): the `search`
	 * block's, else the candidates as they are */
	struct space *space;
	bool has_search;
};

/*
 * Load `file` ("-" = standard input) into *s. Overrides are applied in order
 * before checking. The scenario's own catalog additions are merged into
 * `cat`, which must stay alive during the call. A seed_override >= 0
 * replaces the scenario's seed. Returns 0, or -1 with err set (input error).
 */
int scenario_load(const char *file, const struct scenario_override *overrides, size_t n_overrides,
		  int64_t seed_override, catalog *cat, struct scenario *s, struct cs_error *err);

/* Same from a parsed document (borrowed); `file` names it and anchors relative paths. */
int scenario_from_json(json_t *root, const char *file, catalog *cat, struct scenario *s,
		       struct cs_error *err);

/* Read a JSON document from a file or "-" with duplicate keys rejected.
 * Returns a new reference, or NULL with err set. */
json_t *scenario_read_json(const char *what, const char *file, struct cs_error *err);

/* Free what *s owns (candidates, collective sizes) and leave it empty; safe to
 * call twice. */
void scenario_release(struct scenario *s);

#endif
