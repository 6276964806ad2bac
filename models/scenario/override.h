/*
 * override: --set PATH=VALUE overrides, applied to a parsed JSON tree before
 * a scenario or sweep is read.
 *
 * A PATH is keys and [index]es (workload.parallelism.tp, candidates[0].nodes);
 * the VALUE is parsed as JSON, and taken as a string when it is not JSON,
 * unless it looks like JSON (override_looks_like_json()): then it is an
 * input error, never a string. This module only edits JSON: it never reads
 * files, never knows what a scenario key means and never prints.
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

/* True when VALUE is meant as JSON whether or not it parses: its first
 * character after JSON whitespace (space, tab, CR, LF) is '{', '[' or '"'.
 * Such a value that jansson refuses (a syntax error, a duplicate key, a
 * \u0000 escape, text after the end) is an error; any other value that is
 * not JSON (foo, auto, 1e999, tru) is taken as a string. */
bool override_looks_like_json(const char *value);

/*
 * Apply one override to `root` (borrowed; edited in place). `path` may run on
 * past its end as far as an '='. Missing objects and arrays on the way are
 * created; an index may be at most the array's length (which appends).
 * Returns 0, or -1 with err set to a message naming `what`, `file` and the
 * path (an input error); for a value that looks like JSON and is not, also
 * the value and jansson's message.
 */
int override_apply(json_t *root, const char *what, const char *file, const char *path,
		   const char *value, struct cs_error *err);

#endif
