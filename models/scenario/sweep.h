/*
 * sweep: sweep files (the README's "Sweeps"): one base scenario and the
 * values to vary, read into numbered points.
 *
 * A sweep names a base scenario (a path relative to the sweep file, or an
 * inline object) and axes: `axes` maps --set paths to non-empty lists of
 * values, and each object in `zip` is one more axis whose lists have equal
 * lengths and advance together. The points are the Cartesian product of the
 * axes in the order written (`axes` first, then `zip`; the last axis varies
 * fastest), numbered from 0. Point k's scenario is the base with k's values
 * applied by override_apply(), then read by scenario_from_json().
 *
 * Every error names the sweep file, the JSON path and the value, and is an
 * input error. This module never prints and never runs a scenario.
 */
#ifndef CLUSTERSIM_MODELS_SWEEP_H
#define CLUSTERSIM_MODELS_SWEEP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "models/hw/catalog.h"
#include "models/scenario/scenario.h"
#include "util/error.h"

/* The most points a sweep may have, and the most paths it may vary. */
#define SWEEP_POINTS_MAX 10000000u
#define SWEEP_PATHS_MAX 256u

typedef struct sweep sweep;

/* Read sweep file `file` ("-" = standard input) and the base scenario it
 * names. Returns a new sweep (caller frees with sweep_free), or NULL with err
 * set. */
sweep *sweep_load(const char *file, struct cs_error *err);

/* Same from a parsed document (borrowed); `file` names it in messages and
 * anchors a relative `base` path. */
sweep *sweep_from_json(const json_t *root, const char *file, struct cs_error *err);

void sweep_free(sweep *sw);

/* Number of points (at least 1: a sweep without axes is its base). */
uint64_t sweep_points(const sweep *sw);

/* The paths the sweep varies, in axis order (zip paths in the order written). */
size_t sweep_path_count(const sweep *sw);
const char *sweep_path(const sweep *sw, size_t i);

/* The value path i takes at point k (< sweep_points); borrowed from sw. */
const json_t *sweep_value(const sweep *sw, uint64_t k, size_t i);

/* The name scenario messages and relative paths are anchored to: the base
 * scenario's file, or the sweep file for an inline base. Borrowed. */
const char *sweep_base_file(const sweep *sw);

/* The base scenario document, before any point's values; borrowed. */
const json_t *sweep_base(const sweep *sw);

/* The sweep file's document as read, before --set: its axes and zip as
 * written, whose order numbers the points. Borrowed. */
const json_t *sweep_document(const sweep *sw);

/* Apply a --set PATH=VALUE to the base before any point (sweep --set). */
int sweep_set_base(sweep *sw, const char *path, const char *value, struct cs_error *err);

/* The base with point k's values applied, as a new JSON document (caller
 * decrefs), or NULL with err set when a value cannot be applied (an index
 * past the end of an array, a key into a number). */
json_t *sweep_point_json(const sweep *sw, uint64_t k, struct cs_error *err);

/* Point k's scenario: sweep_point_json() then scenario_from_json() against
 * `cat` (which the scenario's own catalog additions are merged into). A
 * seed_override >= 0 replaces the seed. Returns 0, or -1 with err set; the
 * caller releases *s after success. */
int sweep_point_load(const sweep *sw, uint64_t k, int64_t seed_override, catalog *cat,
		     struct scenario *s, struct cs_error *err);

#endif
