#include "sweep.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/override.h"
#include "models/scenario/reader.h"
#include "util/jread.h"
#include "util/text.h"
#include "util/xalloc.h"

/* One varied path and its list of values. */
struct sweep_param {
	char *path;      /* owned */
	json_t *values;  /* owned reference to a non-empty array */
	size_t axis;
};

/* One axis: `count` consecutive params that advance together. */
struct sweep_axis {
	size_t first, count;
	size_t len;      /* values per param */
};

struct sweep {
	char *file;       /* the sweep file as given */
	char *base_file;  /* what scenario messages name */
	json_t *base;     /* owned */
	json_t *doc;      /* owned: the sweep document as read (axes and zip as written) */
	struct sweep_param *params;
	size_t nparams;
	struct sweep_axis *axes;
	size_t naxes;
	uint64_t npoints;
};

/* ---- paths --------------------------------------------------------------- */

/* Enter an object key that is a --set path, shown quoted so that its dots do
 * not read as nesting: axes."candidates[0].nodes". */
static size_t enter_path_key(struct jread *r, const char *key)
{
	char seg[JREAD_PATH_MAX];
	snprintf(seg, sizeof seg, "\"%.200s\"", key);
	return jread_enter_key(r, seg);
}

/*
 * Check that `path` is a --set path: keys separated by dots, each key
 * optionally followed by [index]es, as override_apply() reads it. Fails
 * at the current jread path. Catching this here turns a typo into one error
 * instead of one invalid row per point.
 */
static int check_path(struct jread *r, const char *path)
{
	const char *p = path;

	if (*p == '\0')
		return jread_fail(r, "an empty path");
	if (strchr(path, '=') != NULL)
		return jread_fail(r, "a path may not contain '='");
	for (;;) {
		size_t n = strcspn(p, ".[");
		if (n == 0)
			return jread_fail(r, "not a --set path: an empty key at offset %zu", (size_t)(p - path));
		if (n > 127)
			return jread_fail(r, "not a --set path: a key longer than 127 bytes");
		p += n;
		while (*p == '[') {
			size_t digits = strspn(p + 1, "0123456789");
			if (digits == 0 || digits > 9 || p[1 + digits] != ']')
				return jread_fail(r, "not a --set path: bad index at offset %zu", (size_t)(p - path));
			p += digits + 2;
		}
		if (*p == '\0')
			return 0;
		if (*p != '.')
			return jread_fail(r, "not a --set path: unexpected '%c' at offset %zu", *p, (size_t)(p - path));
		p++;
	}
}

/* ---- reading ------------------------------------------------------------- */

static bool path_taken(const sweep *sw, const char *path)
{
	for (size_t i = 0; i < sw->nparams; i++)
		if (strcmp(sw->params[i].path, path) == 0)
			return true;
	return false;
}

/* Add param `path` with the array `values` (borrowed) to the axis being built. */
static int add_param(struct jread *r, sweep *sw, const char *path, json_t *values, size_t axis)
{
	if (check_path(r, path) < 0)
		return -1;
	if (path_taken(sw, path))
		return jread_fail(r, "the path is already varied by another axis");
	if (!json_is_array(values) || json_array_size(values) == 0)
		return jread_fail_value(r, values, "a non-empty array of values");
	if (sw->nparams >= SWEEP_PATHS_MAX)
		return jread_fail(r, "a sweep may vary at most %u paths", SWEEP_PATHS_MAX);
	sw->params = xreallocarray(sw->params, sw->nparams + 1, sizeof *sw->params);
	sw->params[sw->nparams].path = xstrdup(path);
	sw->params[sw->nparams].values = json_incref(values);
	sw->params[sw->nparams].axis = axis;
	sw->nparams++;
	return 0;
}

/* Start a new axis at the next param; returns its index. */
static size_t new_axis(sweep *sw)
{
	sw->axes = xreallocarray(sw->axes, sw->naxes + 1, sizeof *sw->axes);
	sw->axes[sw->naxes].first = sw->nparams;
	sw->axes[sw->naxes].count = 0;
	sw->axes[sw->naxes].len = 0;
	return sw->naxes++;
}

static int read_axes(struct jread *r, sweep *sw, const json_t *axes)
{
	const char *key;
	json_t *values;

	if (!json_is_object(axes))
		return jread_fail_value(r, axes, "an object of PATH: [values]");
	json_object_foreach((json_t *)axes, key, values) {
		size_t mark = enter_path_key(r, key);
		size_t a = new_axis(sw);
		if (add_param(r, sw, key, values, a) < 0)
			return -1;
		sw->axes[a].count = 1;
		sw->axes[a].len = json_array_size(values);
		jread_leave(r, mark);
	}
	return 0;
}

static int read_zip(struct jread *r, sweep *sw, const json_t *zip)
{
	size_t i;
	json_t *group;

	if (!json_is_array(zip))
		return jread_fail_value(r, zip, "an array of objects of PATH: [values]");
	json_array_foreach(zip, i, group) {
		size_t mark = jread_enter_index(r, i);
		const char *key, *first_key = NULL;
		json_t *values;
		size_t a;

		if (!json_is_object(group) || json_object_size(group) == 0)
			return jread_fail_value(r, group, "a non-empty object of PATH: [values]");
		a = new_axis(sw);
		json_object_foreach(group, key, values) {
			size_t m2 = enter_path_key(r, key);
			if (add_param(r, sw, key, values, a) < 0)
				return -1;
			if (first_key == NULL) {
				first_key = key;
				sw->axes[a].len = json_array_size(values);
			} else if (json_array_size(values) != sw->axes[a].len) {
				char q[96];
				text_quote(first_key, q, sizeof q);
				return jread_fail(r, "has %zu values but %s has %zu: zipped lists advance together",
						  json_array_size(values), q, sw->axes[a].len);
			}
			sw->axes[a].count++;
			jread_leave(r, m2);
		}
		jread_leave(r, mark);
	}
	return 0;
}

void sweep_free(sweep *sw)
{
	if (sw == NULL)
		return;
	for (size_t i = 0; i < sw->nparams; i++) {
		free(sw->params[i].path);
		json_decref(sw->params[i].values);
	}
	free(sw->params);
	free(sw->axes);
	json_decref(sw->base);
	json_decref(sw->doc);
	free(sw->file);
	free(sw->base_file);
	free(sw);
}

/* The required `base`: a scenario file path (relative to the sweep file),
 * loaded now, or an inline scenario object, copied. */
static int read_base(struct jread *r, const json_t *root, const char *file, sweep *sw)
{
	const char *shown = strcmp(file, "-") == 0 ? "<stdin>" : file;
	const json_t *x = json_object_get(root, "base");
	size_t mark = jread_enter_key(r, "base");

	if (x == NULL)
		return jread_fail(r, "missing required key");
	if (json_is_string(x)) {
		char path[1024];
		if (json_string_length(x) == 0 || json_string_length(x) > 900 ||
		    strlen(json_string_value(x)) != json_string_length(x))
			return jread_fail_value(r, x, "a scenario file path");
		reader_resolve_relative(file, json_string_value(x), path, sizeof path);
		sw->base = jread_load("scenario", path, r->err);
		if (sw->base == NULL) {
			error_prefix(r->err, "sweep '%s': base", shown);
			return -1;
		}
		sw->base_file = xstrdup(path);
	} else if (json_is_object(x)) {
		sw->base = json_deep_copy(x);
		sw->base_file = xstrdup(file);
	} else {
		return jread_fail_value(r, x, "a scenario file path or an inline scenario object");
	}
	jread_leave(r, mark);
	return 0;
}

/* sw->npoints: the product of the axes' lengths, at most SWEEP_POINTS_MAX. */
static int count_points(struct jread *r, const json_t *root, sweep *sw)
{
	sw->npoints = 1;
	for (size_t a = 0; a < sw->naxes; a++) {
		if (sw->npoints > SWEEP_POINTS_MAX / sw->axes[a].len) {
			jread_enter_key(r, json_object_get(root, "zip") != NULL ? "axes and zip" : "axes");
			return jread_fail(r, "more than %u points, the most a sweep may have: split it",
					  SWEEP_POINTS_MAX);
		}
		sw->npoints *= sw->axes[a].len;
	}
	return 0;
}

sweep *sweep_from_json(const json_t *root, const char *file, struct cs_error *err)
{
	static const char *const keys[] = { "base", "axes", "zip", "description", NULL };
	sweep *sw = xcalloc(1, sizeof *sw);
	struct jread r;
	json_t *x;
	size_t mark;

	jread_init(&r, "sweep", file, err);
	sw->file = xstrdup(file);
	if (jread_object(&r, root, keys) < 0)
		goto fail;
	if ((x = json_object_get(root, "description")) != NULL && !json_is_string(x)) {
		jread_enter_key(&r, "description");
		jread_fail_value(&r, x, "a string");
		goto fail;
	}
	if (read_base(&r, root, file, sw) < 0)
		goto fail;
	if ((x = json_object_get(root, "axes")) != NULL) {
		mark = jread_enter_key(&r, "axes");
		if (read_axes(&r, sw, x) < 0)
			goto fail;
		jread_leave(&r, mark);
	}
	if ((x = json_object_get(root, "zip")) != NULL) {
		mark = jread_enter_key(&r, "zip");
		if (read_zip(&r, sw, x) < 0)
			goto fail;
		jread_leave(&r, mark);
	}
	if (count_points(&r, root, sw) < 0)
		goto fail;
	sw->doc = json_deep_copy(root);
	if (sw->doc == NULL) {
		error_runtime(err, "out of memory copying the sweep file '%s'", file);
		goto fail;
	}
	return sw;
fail:
	sweep_free(sw);
	return NULL;
}

sweep *sweep_load(const char *file, struct cs_error *err)
{
	json_t *root = jread_load("sweep", file, err);
	sweep *sw;

	if (root == NULL)
		return NULL;
	sw = sweep_from_json(root, file, err);
	json_decref(root);
	return sw;
}

/* ---- points -------------------------------------------------------------- */

uint64_t sweep_points(const sweep *sw)
{
	return sw->npoints;
}

size_t sweep_path_count(const sweep *sw)
{
	return sw->nparams;
}

const char *sweep_path(const sweep *sw, size_t i)
{
	return sw->params[i].path;
}

const char *sweep_base_file(const sweep *sw)
{
	return sw->base_file;
}

/* Index into axis a's lists at point k: mixed radix, the last axis fastest. */
static size_t axis_index(const sweep *sw, uint64_t k, size_t a)
{
	for (size_t b = sw->naxes; b-- > a + 1;)
		k /= sw->axes[b].len;
	return (size_t)(k % sw->axes[a].len);
}

const json_t *sweep_value(const sweep *sw, uint64_t k, size_t i)
{
	const struct sweep_param *p = &sw->params[i];
	return json_array_get(p->values, axis_index(sw, k, p->axis));
}

const json_t *sweep_base(const sweep *sw)
{
	return sw->base;
}

const json_t *sweep_document(const sweep *sw)
{
	return sw->doc;
}

int sweep_set_base(sweep *sw, const char *path, const char *value, struct cs_error *err)
{
	return override_apply(sw->base, "sweep", sw->file, path, value, err);
}

json_t *sweep_point_json(const sweep *sw, uint64_t k, struct cs_error *err)
{
	json_t *doc = json_deep_copy(sw->base);

	if (doc == NULL) {
		error_runtime(err, "out of memory copying the base scenario");
		return NULL;
	}
	for (size_t i = 0; i < sw->nparams; i++) {
		/* override_apply() takes the value as JSON text; jansson writes
		 * reals with 17 digits, so they come back bit for bit. */
		char *text = json_dumps(sweep_value(sw, k, i), JSON_ENCODE_ANY | JSON_COMPACT);
		int rc;
		if (text == NULL) {
			json_decref(doc);
			error_runtime(err, "out of memory writing a sweep value");
			return NULL;
		}
		rc = override_apply(doc, "sweep", sw->file, sw->params[i].path, text, err);
		free(text);
		if (rc < 0) {
			json_decref(doc);
			return NULL;
		}
	}
	return doc;
}

int sweep_point_load(const sweep *sw, uint64_t k, int64_t seed_override, catalog *cat,
		     struct scenario *s, struct cs_error *err)
{
	json_t *doc = sweep_point_json(sw, k, err);
	int rc;

	memset(s, 0, sizeof *s);
	if (doc == NULL)
		return -1;
	rc = scenario_from_json(doc, sw->base_file, cat, s, err);
	json_decref(doc);
	if (rc == 0 && seed_override >= 0)
		s->seed = (uint64_t)seed_override;
	return rc;
}
