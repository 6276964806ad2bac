/*
 * space: a scenario's `search` block (docs/explanation/planning.md): the cluster shapes
 * `clustersim plan` searches, read and checked at load time and resolved
 * one at a time on demand (a cluster record is ~27 KB, so thousands are
 * never held at once).
 *
 * A shape is a base (a catalog preset the block names, or one of the
 * scenario's candidates) x a price type x a node count, narrowed by the
 * block's GPU and provider lists. A price type other than the base's own
 * takes that type's catalog price (the base's own dollars are its type's),
 * and a spot shape the preemptions its base gives, else the block's
 * "spot" fields. Reading fails with the file, the JSON
 * path and the value; a combination the catalog cannot make (no price of
 * that type for that instance) is not an error: space_shape() says so.
 * Never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_SPACE_H
#define CLUSTERSIM_MODELS_SCENARIO_SPACE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "models/hw/catalog.h"
#include "models/hw/hw.h"
#include "util/jread.h"

typedef struct space space;

/* The most shapes one search block may describe. */
enum { SPACE_MAX_SHAPES = 200000 };

/* Read the block x (borrowed; r's path at it) against cat, with the
 * scenario's candidates array (borrowed) as the bases when the block
 * names no presets. Returns a new space (caller frees), or NULL with r's
 * error set. */
space *space_read(struct jread *r, const json_t *x, const json_t *candidates, const catalog *cat,
		  const char *file);

/* The space of the candidates as they are (no search block): one shape each. */
space *space_of_candidates(const json_t *candidates, const char *file);

/* Whether the block asks for mixes of two GPU types (serving: "mix": true). */
bool space_mix(const space *sp);

/* The block's "tie_tolerance" (a fraction of time within which plan calls
 * two shapes equally fast); < 0 when not given. */
double space_tie_tolerance(const space *sp);
/* Whether the block asks for prefill/decode splits (serving:
 * "disaggregated": true; models/plan/plan_disagg.h). */
bool space_disaggregated(const space *sp);

/* How many shapes the space has (bases x price types x node counts). */
size_t space_count(const space *sp);

/* Resolve shape i (< space_count) into *c against cat; false when the
 * catalog cannot make it or the block's GPU or provider lists leave it out
 * (*why says which, when not NULL). */
bool space_shape(const space *sp, const catalog *cat, size_t i, struct cluster_spec *c, char *why, size_t why_size);

/* Shape i's name (as its cluster has it when resolved) into buf. */
void space_shape_name(const space *sp, size_t i, char *buf, size_t size);

/* The price type shape i asks for (whether or not the catalog has it). */
enum price_type space_shape_price_type(const space *sp, size_t i);

/* The price type shape i asks for with its term, as the price_type column
 * spells it (price_type_label: "reserved-1y"), into buf of at least
 * PRICE_TYPE_LABEL_MAX bytes; for a resolved shape the same as the label
 * of its price's type and the term the scenario asked for. */
void space_shape_price_label(const space *sp, size_t i, char *buf, size_t size);

/* The candidate object shape i resolves from, as compact JSON: `clustersim
 * run SCENARIO --set 'candidates=[TEXT]'` evaluates that shape alone. Caller
 * frees; NULL only when out of memory. */
char *space_shape_json(const space *sp, size_t i);

void space_free(space *sp);

#endif
