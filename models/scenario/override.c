#include "override.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"

/* Where an override's path is in its walk, and what messages name. */
struct walk {
	const char *what;        /* "scenario", "sweep" */
	const char *shown_file;  /* "-" shown as "<stdin>" */
	char shown_path[256];    /* the path up to '='; past 200 bytes cut, with "... (N bytes)" */
	const char *path;
	size_t path_len;         /* characters before the '=' */
	size_t at;               /* next character of path to read */
	json_t *value;           /* owned until it is stored in the tree */
};

/* One segment of a path: a key, or an [index]. */
struct segment {
	bool is_index;
	long index;
	char key[128];
	bool last;
};

/* Fail, dropping the value not yet stored; returns -1. */
static int walk_fail(struct walk *w, struct cs_error *err, const char *msg)
{
	json_decref(w->value);
	w->value = NULL;
	return error_set(err, "--set %s: %s", w->shown_path, msg);
}

/* Read the segment at w->at into *sg and step past it (and a following '.'). */
static int next_segment(struct walk *w, struct segment *sg, struct cs_error *err)
{
	const char *path = w->path;
	size_t i = w->at, k = 0;

	sg->is_index = path[i] == '[';
	sg->index = 0;
	sg->key[0] = '\0';
	if (sg->is_index) {
		char *end;
		errno = 0;
		sg->index = strtol(path + i + 1, &end, 10);
		if (end == path + i + 1 || *end != ']' || sg->index < 0 || errno != 0 ||
		    (size_t)(end - path) > w->path_len)
			return walk_fail(w, err, "bad index in path");
		i = (size_t)(end - path) + 1;
	} else {
		while (i < w->path_len && path[i] != '.' && path[i] != '[') {
			if (k + 1 >= sizeof sg->key)
				return walk_fail(w, err, "key too long");
			sg->key[k++] = path[i++];
		}
		sg->key[k] = '\0';
		if (k == 0)
			return walk_fail(w, err, "empty key in path");
	}
	if (i < w->path_len && path[i] == '.')
		i++;
	w->at = i;
	sg->last = i >= w->path_len;
	return 0;
}

/* Step into array *node at sg->index, or store the value there when the
 * segment is the last. */
static int step_array(struct walk *w, const struct segment *sg, json_t **node, struct cs_error *err)
{
	if (!json_is_array(*node)) {
		json_decref(w->value);
		return error_set(err, "%s '%s': --set %s: [%ld] applied to something that is not an array",
				 w->what, w->shown_file, w->shown_path, sg->index);
	}
	size_t n = json_array_size(*node);
	if ((size_t)sg->index > n) {
		json_decref(w->value);
		return error_set(err, "%s '%s': --set %s: index %ld is past the end (the array has %zu)",
				 w->what, w->shown_file, w->shown_path, sg->index, n);
	}
	if (sg->last) {
		if ((size_t)sg->index == n)
			json_array_append_new(*node, w->value);
		else
			json_array_set_new(*node, (size_t)sg->index, w->value);
		w->value = NULL;
		return 0;
	}
	if ((size_t)sg->index == n)
		json_array_append_new(*node, json_object());
	*node = json_array_get(*node, (size_t)sg->index);
	return 0;
}

/* Step into object *node at sg->key, creating what the rest of the path
 * needs, or store the value there when the segment is the last. */
static int step_object(struct walk *w, const struct segment *sg, json_t **node, struct cs_error *err)
{
	if (!json_is_object(*node)) {
		json_decref(w->value);
		return error_set(err, "%s '%s': --set %s: \"%s\" applied to something that is not an object",
				 w->what, w->shown_file, w->shown_path, sg->key);
	}
	if (sg->last) {
		json_t *value = w->value;
		w->value = NULL;
		/* jansson refuses a key that is not UTF-8 (and frees the value). */
		if (json_object_set_new(*node, sg->key, value) < 0)
			return error_set(err, "%s '%s': --set %s: the key is not valid UTF-8 text",
					 w->what, w->shown_file, w->shown_path);
		return 0;
	}
	json_t *next = json_object_get(*node, sg->key);
	if (next == NULL) {
		const char *path = w->path;
		next = path[w->at - 1] == '[' || path[w->at] == '[' ? json_array() : json_object();
		/* On failure (a key that is not UTF-8) jansson frees next. */
		if (json_object_set_new(*node, sg->key, next) < 0) {
			json_decref(w->value);
			return error_set(err, "%s '%s': --set %s: the key is not valid UTF-8 text",
					 w->what, w->shown_file, w->shown_path);
		}
	}
	*node = next;
	return 0;
}

bool override_parse(const char *arg, struct scenario_override *out)
{
	const char *eq = strchr(arg, '=');
	if (eq == NULL || eq == arg)
		return false;
	out->path = arg;  /* the caller keeps arg alive; the path ends at '=' */
	out->value = eq + 1;
	return true;
}

/* An optional minus and digits only: an integer JSON could write, though
 * jansson refuses one beyond 64 bits. */
static bool is_json_integer_text(const char *text)
{
	const char *p = text + (text[0] == '-');
	return p[0] >= '0' && p[0] <= '9' && strspn(p, "0123456789") == strlen(p);
}

bool override_looks_like_json(const char *value)
{
	value += strspn(value, " \t\r\n");  /* JSON's whitespace */
	return value[0] == '{' || value[0] == '[' || value[0] == '"';
}

int override_apply(json_t *root, const char *what, const char *file, const char *path,
		   const char *value, struct cs_error *err)
{
	struct walk w = { .what = what, .path = path };
	json_t *node = root;
	json_error_t jerr;

	w.shown_file = strcmp(file, "-") == 0 ? "<stdin>" : file;
	w.path_len = strcspn(path, "=");
	if (w.path_len <= 200)
		snprintf(w.shown_path, sizeof w.shown_path, "%.*s", (int)w.path_len, path);
	else  /* a cut path says so */
		snprintf(w.shown_path, sizeof w.shown_path, "%.200s... (%zu bytes)", path, w.path_len);
	w.value = json_loads(value, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
	if (w.value == NULL && override_looks_like_json(value)) {
		/* Meant as JSON (an object, an array, a quoted string) but not
		 * JSON: taking it as a string would hide the mistake. */
		char q[96], hint[sizeof w.shown_path + 160] = "";
		char first = value[strspn(value, " \t\r\n")];
		text_quote(value, q, sizeof q);
		if (first != '"')
			text_setf(hint, sizeof hint, " (a string that starts with '%c' is written quoted, as JSON: "
				  "--set '%s=\"%c...\"')", first, w.shown_path, first);
		return error_set(err, "%s '%s': --set %s: the value %s starts like JSON but is not JSON: "
				 "column %d: %s%s", what, w.shown_file, w.shown_path, q, jerr.column,
				 strstr(jerr.text, "\\u0000") != NULL ? "a \\u0000 (NUL) escape is not allowed" : jerr.text,
				 hint);
	}
	if (w.value == NULL && is_json_integer_text(value))
		w.value = json_real(strtod(value, NULL));  /* too big for jansson's integers: still a number */
	if (w.value == NULL)
		w.value = json_string(value);
	if (w.value == NULL) /* not valid UTF-8 */
		return error_set(err, "--set %s: value is not valid UTF-8 text", w.shown_path);

	while (w.at < w.path_len) {
		struct segment sg;
		if (next_segment(&w, &sg, err) < 0)
			return -1;
		int rc = sg.is_index ? step_array(&w, &sg, &node, err) : step_object(&w, &sg, &node, err);
		if (rc < 0 || sg.last)
			return rc;
	}
	json_decref(w.value);
	return error_set(err, "--set: empty path");
}
