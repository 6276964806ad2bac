#include "input_files.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "models/scenario/reader.h"
#include "output/outfile.h"
#include "util/xalloc.h"
#include "util/fnv.h"

void input_files_init(struct input_files *l)
{
	l->v = NULL;
	l->n = 0;
}

void input_files_release(struct input_files *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].path);
	free(l->v);
	input_files_init(l);
}

void input_files_add(struct input_files *l, const char *path, const char *what, bool content)
{
	if (path == NULL || path[0] == '\0' || strcmp(path, "-") == 0)
		return;
	for (size_t i = 0; i < l->n; i++) {
		if (strcmp(l->v[i].path, path) == 0) {
			l->v[i].content |= content;
			return;
		}
	}
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n++] = (struct input_file){ .path = xstrdup(path), .what = what, .content = content };
}

/* What a file under `key` is, from where it stands (`context`: the keys on
 * the way, or a --set path): NULL when the key names no file. */
static const char *file_kind(const char *key, const char *context)
{
	if (strcmp(key, "catalog") == 0)
		return "catalog";
	if (strcmp(key, "trace") != 0)
		return NULL;
	if (strstr(context, "fleet") != NULL || strstr(context, "jobs") != NULL)
		return "job trace";
	if (strstr(context, "serving") != NULL || strstr(context, "arrival") != NULL)
		return "request trace";
	return "trace";
}

/* Walk v, which stands under `key` (context: the keys on the way), adding
 * the strings that name files. An array's elements stand under its key. */
static void walk(struct input_files *l, const json_t *v, const char *key, const char *context,
		 const char *anchor, int depth)
{
	if (depth > 64)  /* JSON this deep is no scenario; jansson limits it too */
		return;
	if (json_is_string(v)) {
		const char *what = file_kind(key, context);
		if (what == NULL || json_string_length(v) == 0 ||
		    strlen(json_string_value(v)) != json_string_length(v))
			return;
		/* sized to the name and its anchor's folder: a path cut short
		 * would name another file, and the output check would miss it */
		size_t size = (anchor != NULL ? strlen(anchor) : 0) + json_string_length(v) + 2;
		char *path = xmalloc(size);
		reader_resolve_relative(anchor, json_string_value(v), path, size);
		input_files_add(l, path, what, true);
		free(path);
	} else if (json_is_array(v)) {
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e)
			walk(l, e, key, context, anchor, depth + 1);
	} else if (json_is_object(v)) {
		const char *k;
		const json_t *e;
		json_object_foreach((json_t *)v, k, e) {
			char *inner = xasprintf("%s.%s", context, k);
			walk(l, e, k, inner, anchor, depth + 1);
			free(inner);
		}
	}
}

void input_files_add_scenario(struct input_files *l, const json_t *doc, const char *anchor)
{
	walk(l, doc, "", "", anchor, 0);
}

/* The last key of a --set path: "trace" for workload.serving.arrival.trace,
 * "catalog" for catalog[1]. Into key (size bytes). */
static void last_key(const char *set_path, char *key, size_t size)
{
	const char *s = set_path, *best = set_path;
	size_t best_len = 0;

	while (*s != '\0') {
		if (*s == '[') {  /* an index: no key */
			s = strchr(s, ']');
			if (s == NULL)
				break;
			s++;
		} else if (*s == '.') {
			s++;
		} else {
			best = s;
			while (*s != '\0' && *s != '.' && *s != '[')
				s++;
			best_len = (size_t)(s - best);
		}
	}
	snprintf(key, size, "%.*s", (int)best_len, best);
}

void input_files_add_value(struct input_files *l, const char *set_path, const json_t *value,
			   const char *anchor)
{
	char key[256];
	last_key(set_path, key, sizeof key);
	walk(l, value, key, set_path, anchor, 0);
}

/* The values of each path of one `axes`-like object: { PATH: [values] }. */
static void add_axes(struct input_files *l, const json_t *axes, const char *anchor)
{
	const char *path;
	const json_t *values;

	json_object_foreach((json_t *)axes, path, values) {
		size_t i;
		const json_t *v;
		json_array_foreach(values, i, v)
			input_files_add_value(l, path, v, anchor);
	}
}

void input_files_add_sweep(struct input_files *l, const sweep *sw, const char *sweep_file)
{
	const json_t *doc = sweep_document(sw), *zip = json_object_get(doc, "zip");
	const char *anchor = sweep_base_file(sw);
	size_t i;
	const json_t *z;

	input_files_add(l, sweep_file, "sweep file", false);
	if (strcmp(anchor, sweep_file) != 0)
		input_files_add(l, anchor, "base scenario", false);
	input_files_add_scenario(l, sweep_base(sw), anchor);
	add_axes(l, json_object_get(doc, "axes"), anchor);
	json_array_foreach(zip, i, z)
		add_axes(l, z, anchor);
}

int input_files_check_output(const struct input_files *l, const char *output, struct cs_error *err)
{
	for (size_t i = 0; i < l->n; i++)
		if (outfile_check_not_input(output, l->v[i].path, l->v[i].what, err) < 0)
			return -1;
	return 0;
}

/* One file's bytes on from h: its size first, so that two files never run
 * into each other, then the bytes; or "unreadable" and the errno. */
static uint64_t hash_file(uint64_t h, const char *path)
{
	FILE *f = fopen(path, "rb");
	char buf[65536], mark[48];
	size_t n;
	uint64_t size = 0;
	uint64_t body = FNV_OFFSET_BASIS;

	if (f != NULL) {
		while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
			body = fnv_hash(body, buf, n);
			size += n;
		}
		if (!ferror(f)) {
			fclose(f);
			snprintf(mark, sizeof mark, "%" PRIu64 ":%016" PRIx64, size, body);
			return fnv_hash(h, mark, strlen(mark) + 1);
		}
		fclose(f);
		errno = EIO;
	}
	snprintf(mark, sizeof mark, "unreadable:%d", errno);
	return fnv_hash(h, mark, strlen(mark) + 1);
}

void input_files_digest(const struct input_files *l, char out[17])
{
	uint64_t h = FNV_OFFSET_BASIS;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].content)
			h = hash_file(h, l->v[i].path);
	snprintf(out, 17, "%016" PRIx64, h);
}
