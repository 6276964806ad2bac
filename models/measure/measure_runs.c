/*
 * measure_runs: measured runs, scenarios with a `measured` block
 * (docs/reference/measurements.md): one scenario per file, a JSON array of
 * them, or JSON Lines (one scenario a line; https://jsonlines.org). The
 * scenario reader reads the block (models/scenario/scenario.c); this module
 * only splits the file and names each scenario's place in it.
 */
#define _GNU_SOURCE  /* memmem */
#include "models/measure/measure.h"

#include <string.h>

#include "util/text.h"

static const char *shown(const char *file)
{
	return strcmp(file, "-") == 0 ? "<stdin>" : file;
}

static bool detect_runs(const char *file, const char *text, size_t len)
{
	(void)file;
	size_t i = 0;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i == len || (text[i] != '{' && text[i] != '[') || memmem(text, len, "\"measured\"", 10) == NULL)
		return false;
	/* the whole document, else its first line (JSON Lines) */
	json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
	if (doc == NULL) {
		const char *nl = memchr(text + i, '\n', len - i);
		doc = json_loadb(text + i, nl != NULL ? (size_t)(nl - text) - i : len - i, JSON_REJECT_DUPLICATES, NULL);
	}
	const json_t *first = json_is_array(doc) ? json_array_get(doc, 0) : doc;
	bool yes = json_is_object(first) && json_object_get(first, "measured") != NULL;
	json_decref(doc);
	return yes;
}

/* Give doc's measured block the id "STEM_SUFFIX" unless it has one. */
static int default_id(json_t *doc, const char *file, const char *suffix, const char *where, struct cs_error *err)
{
	json_t *m = json_object_get(doc, "measured");
	char stem[128], id[128];
	if (!json_is_object(m) || json_object_get(m, "id") != NULL)
		return 0;
	measure_file_stem(file, stem, sizeof stem);
	if (!text_setf(id, sizeof id, "%s_%s", stem, suffix))
		return error_set(err, "measurements '%s': %s: the file's name is too long for a row id: give measured.id",
				 shown(file), where);
	json_object_set_new(m, "id", json_string(id));
	return 0;
}

/* Append doc (taken) when it is a scenario with a measured block. */
static int add_run(json_t *doc, const char *file, long line, const char *where, struct measure_set *set,
		   struct cs_error *err)
{
	if (!json_is_object(doc) || !json_is_object(json_object_get(doc, "measured"))) {
		json_decref(doc);
		return error_set(err, "measurements '%s': %s: expected a scenario with a \"measured\" object", shown(file),
				 where);
	}
	measure_set_add(set, doc, file, line);
	return 0;
}

/* JSON Lines: every line that is not blank is one scenario. */
static int load_lines(const char *file, const char *text, size_t len, struct measure_set *set, struct cs_error *err)
{
	long line = 0;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl != NULL ? (size_t)(nl - text) : len, i = at;
		char where[48], suffix[32];
		json_error_t je;
		line++;
		while (i < end && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
			i++;
		if (i < end) {
			json_t *doc = json_loadb(text + at, end - at, JSON_REJECT_DUPLICATES, &je);
			snprintf(where, sizeof where, "line %ld", line);
			if (doc == NULL)
				return error_set(err, "measurements '%s': line %ld: not JSON (JSON Lines: one scenario a "
						 "line): column %d: %s", shown(file), line, je.column, je.text);
			snprintf(suffix, sizeof suffix, "L%ld", line);
			if (default_id(doc, file, suffix, where, err) < 0) {
				json_decref(doc);
				return -1;
			}
			if (add_run(doc, file, line, where, set, err) < 0)
				return -1;
		}
		at = end + 1;
	}
	return 0;
}

static int load_runs(const char *file, const char *text, size_t len, const json_t *on, struct measure_set *set,
		     struct cs_error *err)
{
	json_error_t je;
	size_t i;
	json_t *e;
	(void)on;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL) {
		if (strstr(je.text, "end of file expected") != NULL)
			return load_lines(file, text, len, set, err);
		return error_set(err, "measurements '%s': line %d, column %d: %s", shown(file), je.line, je.column,
				 je.text);
	}
	if (!json_is_array(root))
		return add_run(root, file, 0, "the document", set, err);
	json_array_foreach(root, i, e) {
		char where[32], suffix[32];
		snprintf(where, sizeof where, "[%zu]", i);
		snprintf(suffix, sizeof suffix, "%zu", i + 1);
		if (default_id(e, file, suffix, where, err) < 0 || add_run(json_incref(e), file, 0, where, set, err) < 0) {
			json_decref(root);
			return -1;
		}
	}
	json_decref(root);
	return 0;
}

const struct measure_format measure_format_runs = {
	.name = "measured-runs",
	.needs_scenario = false,
	.detect = detect_runs,
	.load = load_runs,
};
