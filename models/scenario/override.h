/*
 * override: --set PATH=VALUE overrides, applied to a parsed JSON tree before
 * a scenario or sweep is read.
 *
 * A PATH is keys and [index]es (workload.parallelism.tp, candidates[0].nodes);
 * the VALUE is parsed as JSON, and taken as a string when it is not JSON.
 * This module only edits JSON: it never reads files, never knows what a
 * scenario key means and never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_OVERRIDE_H
#define CLUSTERSIM_MODELS_SCENARIO_OVERRIDE_H

#include <jansson.h>
#include <stdbool.h>

#include "util/error.h"

/* A --set PATH=VALUE override; both strings are borrowed from the argument. */
struct scenario_override {
	const char *path;   /* ends at the '=' */
	const char *value;
};

/* Parse "PATH=VALUE" into *out (borrowing arg); false when there is no '='
 * or no path. */
bool override_parse(const char *arg, struct scenario_override *out);

/*
 * Apply one override to `root` (borrowed; edited in place). `path` may run on
 * past its end as far as an '='. Missing objects and arrays on the way are
 * created; an index may be at most the array's length (which appends).
 * Returns 0, or -1 with err set to a message naming `what`, `file` and the
 * path (an input error).
 */
int override_apply(json_t *root, const char *what, const char *file, const char *path,
		   const char *value, struct cs_error *err);

#endif
