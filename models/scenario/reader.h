/*
 * reader: the few steps every scenario reader (scenario, candidate, wl_*)
 * shares on top of util/jread: failing at a key, naming an unknown catalog
 * entry with a "did you mean", entering a required key, and resolving a path
 * relative to the scenario file.
 *
 * It knows no scenario key by name and never prints; every failure goes to
 * the jread's error, at the jread's current JSON path.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_READER_H
#define CLUSTERSIM_MODELS_SCENARIO_READER_H

#include <jansson.h>
#include <stddef.h>

#include "models/hw/catalog.h"
#include "util/jread.h"

/* Fail at obj's `key` (below the current path) with `msg`; returns -1. */
int reader_fail_at(struct jread *r, const char *key, const char *msg);

/*
 * Fail with "unknown <what> "<name>"" and the closest names of catalog
 * section `sec`; at `key` below the current path, or at the current path
 * when key is NULL. Returns -1.
 */
int reader_unknown_name(struct jread *r, const catalog *cat, enum catalog_section sec,
			const char *key, const char *what, const char *name);

/*
 * obj[key] with the path entered (*mark for jread_leave), or NULL after
 * failing with "missing required key" at key when it is absent.
 */
const json_t *reader_enter_required(struct jread *r, const json_t *obj, const char *key,
				    size_t *mark);

/* Write `name` resolved against the directory of `base_file` (a scenario or
 * sweep file; "-" = none) to out, cut to size. */
void reader_resolve_relative(const char *base_file, const char *name, char *out, size_t size);

#endif
