/*
 * catalog: GPUs, fabrics, storage tiers, node presets, prices, model shapes
 * and the engines' step constants.
 *
 * The catalog is data: the JSON files in scenarios/catalog/ are read into
 * plain records, each keeping the source of its numbers. The built-in
 * catalog is read at build time: a generator (tools/gencatalog.c) loads the
 * JSON files with catalog_new_json_files and writes the records as C tables,
 * compiled into the binary, so that a process starts without parsing them
 * and works from any directory. A user's JSON file
 * of the same form can add entries or override fields of existing ones (an
 * entry whose name matches is merged field by field; prices are prepended so
 * they win lookups). Names match case-insensitively, as do aliases.
 *
 * Internal units: bytes, bytes per second, FLOP/s, seconds, watts, US dollars.
 * Conversion from the JSON units (GiB, GB/s, TFLOP/s, us, ms) happens here.
 * This module never prints.
 */
#ifndef CLUSTERSIM_MODELS_CATALOG_H
#define CLUSTERSIM_MODELS_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "models/hw/hw.h"
#include "util/error.h"

/* jansson's document type, without its header (hw.h and this header are
 * included by models that never read JSON). */
struct json_t;

typedef struct catalog catalog;

/* The built-in catalog (the generated tables, models/hw/catalog_builtin.c).
 * Caller frees with catalog_free(). Never fails today; err is kept for the
 * callers' sake. */
catalog *catalog_new_builtin(struct cs_error *err);
void catalog_free(catalog *c);

/* A catalog's records as constant tables, each section's entries in the
 * catalog's order (prices and billing as lookups see them), and its as_of
 * (NULL or ""). */
struct catalog_tables {
	const struct gpu_spec *gpus;
	size_t n_gpus;
	const struct fabric_spec *fabrics;
	size_t n_fabrics;
	const struct storage_spec *storage;
	size_t n_storage;
	const struct preset_spec *presets;
	size_t n_presets;
	const struct price_spec *prices;
	size_t n_prices;
	const struct billing_spec *billing;
	size_t n_billing;
	const struct model_spec *models;
	size_t n_models;
	const struct catalog_source *sources;
	size_t n_sources;
	const struct engine_spec *engines;
	size_t n_engines;
	const char *as_of;
};

/* A catalog over the tables, which it borrows (t's arrays must outlive it
 * and are never written: a section is copied to the heap when a merge first
 * changes it). Not checked: the tables are a checked catalog's. Caller frees. */
catalog *catalog_new_tables(const struct catalog_tables *t);

/* A catalog read from JSON files, merged in order (as catalog_merge_json,
 * `what` naming them in messages with each file's base name) and then
 * checked (catalog_check): what the built-in tables are generated from.
 * NULL with a runtime error on bad input. Caller frees. */
catalog *catalog_new_json_files(const char *const *paths, size_t n, const char *what, struct cs_error *err);

/* A deep copy (to merge a scenario's additions into without touching the
 * original). Caller frees. */
catalog *catalog_copy(const catalog *c);

/* Merge a user's catalog file (same form as the files in scenarios/catalog). */
int catalog_merge_file(catalog *c, const char *path, struct cs_error *err);

/* Merge a parsed document; `what` and `file` name it in messages, and
 * path_prefix (or NULL) is where it sits in a larger document. Borrows root. */
int catalog_merge_json(catalog *c, const struct json_t *root, const char *what, const char *file,
		       const char *path_prefix, struct cs_error *err);

/* Lookups by name or alias, case-insensitive; NULL when unknown. */
const struct gpu_spec *catalog_gpu(const catalog *c, const char *name);
const struct fabric_spec *catalog_fabric(const catalog *c, const char *name);
const struct storage_spec *catalog_storage(const catalog *c, const char *name);
const struct preset_spec *catalog_preset(const catalog *c, const char *name);
const struct model_spec *catalog_model(const catalog *c, const char *name);
/* The engine entry of that name (catalog_engine_names), or NULL. */
const struct engine_spec *catalog_engine(const catalog *c, const char *name);

/* Iteration. */
size_t catalog_gpu_count(const catalog *c);
const struct gpu_spec *catalog_gpu_at(const catalog *c, size_t i);
size_t catalog_fabric_count(const catalog *c);
const struct fabric_spec *catalog_fabric_at(const catalog *c, size_t i);
size_t catalog_storage_count(const catalog *c);
const struct storage_spec *catalog_storage_at(const catalog *c, size_t i);
size_t catalog_preset_count(const catalog *c);
const struct preset_spec *catalog_preset_at(const catalog *c, size_t i);
size_t catalog_price_count(const catalog *c);
const struct price_spec *catalog_price_at(const catalog *c, size_t i);
size_t catalog_billing_count(const catalog *c);
const struct billing_spec *catalog_billing_at(const catalog *c, size_t i);
size_t catalog_model_count(const catalog *c);
const struct model_spec *catalog_model_at(const catalog *c, size_t i);
size_t catalog_source_count(const catalog *c);
const struct catalog_source *catalog_source_at(const catalog *c, size_t i);
size_t catalog_engine_count(const catalog *c);
const struct engine_spec *catalog_engine_at(const catalog *c, size_t i);

/* Sections for suggestions and messages. */
enum catalog_section { CAT_GPUS, CAT_FABRICS, CAT_STORAGE, CAT_PRESETS, CAT_MODELS };

/* Write `, did you mean "x", "y"?` for a misspelt name of a section (or ""). */
void catalog_suggest(const catalog *c, enum catalog_section section, const char *wanted,
		     char *buf, size_t size);

/*
 * The first price matching provider (required), type and term (if
 * non-empty), then offering and gpu (a row of the offering for another GPU
 * never answers: providers reuse one offering name for several GPUs), else
 * gpu alone (if non-empty); NULL if none. An empty gpu matches any GPU of the
 * offering (see catalog_price_rival). A reserved price asked without a term
 * skips the rows of term "capacity-block" (the older spelling of the
 * capacity-block type).
 */
const struct price_spec *catalog_price_find(const catalog *c, const char *provider,
					    enum price_type type, const char *offering,
					    const char *gpu, const char *term);

/*
 * Another row that fits an ask answered by `p` (the row catalog_price_find
 * gave for the same offering, gpu and term) as well as `p` does, so that the
 * ask cannot choose: asked by offering without a GPU, a row of the offering
 * for another GPU; asked by GPU alone, a row of another named offering of
 * that GPU (a provider's secure and community tiers, its 1- and 8-GPU
 * instances). Rows of one offering and GPU differ by date or region (a file
 * refuses two of one date and region): a history or a variant, never a
 * rival. NULL when the answer is unambiguous.
 */
const struct price_spec *catalog_price_rival(const catalog *c, const struct price_spec *p,
					     const char *offering, const char *gpu, const char *term);

/* The first billing record of the provider whose type and term (when the
 * record gives them) match; a built-in hourly default (granularity 3600 s,
 * no minimum, confidence "assumption") when there is none. Never NULL. */
const struct billing_spec *catalog_billing_find(const catalog *c, const char *provider,
						enum price_type type, const char *term);

/* A catalog price's billing: its own billing_s (and minimum_s) when it gives
 * one (*record NULL), else its provider's record (a minimum_s of its own
 * still replaces the record's minimum). */
void catalog_price_billing(const catalog *c, const struct price_spec *p, double *granularity_s,
			   double *minimum_s, const struct billing_spec **record);

/* The catalog's reference date (`as_of`, YYYY-MM-DD; "" when no file gave
 * one). Price ages are measured against it, never against the clock, so that
 * outputs do not depend on the day a program runs. */
const char *catalog_as_of(const catalog *c);

/* True when the price's `observed` date is more than a year before as_of
 * (a YYYY-MM date counts by whole months). False without either date. */
bool catalog_price_stale(const catalog *c, const struct price_spec *p);

/* How current a catalog price is, in words for `catalog prices`:
 * "superseded" when a lookup for its provider, type, term and offering (or
 * GPU) takes another row of the same region (a newer row of its history),
 * else "over a year" (catalog_price_stale), "undated" (no observed date),
 * or "" (current). Never NULL; a static string. */
const char *catalog_price_status(const catalog *c, const struct price_spec *p);

/* True when any price has this provider. */
bool catalog_provider_known(const catalog *c, const char *provider);

/* Check cross references (preset -> gpu/fabric/storage, price -> gpu) and
 * that every engine of catalog_engine_names has an entry. The message names
 * the entry, not the file: callers add that with error_prefix(). */
int catalog_check(const catalog *c, struct cs_error *err);

#endif
