/* measure: measurement files read into validation documents (measure.h). */
#include "models/measure/measure.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/scenario.h"
#include "util/jread.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The formats, in the order detection tries them: the most specific first. */
const struct measure_format *const measure_formats[] = {
	&measure_format_runs,
	&measure_format_nccl,
	&measure_format_vllm,
	&measure_format_trtllm,
	&measure_format_gemm_csv,
	NULL
};

static const char *shown(const char *file)
{
	return strcmp(file, "-") == 0 ? "<stdin>" : file;
}

/* Read file whole (at most MEASURE_FILE_MAX_BYTES) into a new NUL-terminated
 * buffer (caller frees); NULL with err set when it cannot be read. */
static char *read_whole(const char *file, size_t *len, struct cs_error *err)
{
	bool too_big = false;
	FILE *f = strcmp(file, "-") == 0 ? stdin : fopen(file, "rb");
	char *buf;
	if (f == NULL) {
		error_set(err, "measurements '%s': cannot open: %s", file, strerror(errno));
		return NULL;
	}
	buf = text_read_stream(f, MEASURE_FILE_MAX_BYTES, len, &too_big);
	if (ferror(f) && !too_big) {
		error_set(err, "measurements '%s': cannot read: %s", shown(file), strerror(errno));
		free(buf);
		buf = NULL;
	} else if (too_big) {
		error_set(err, "measurements '%s': file is larger than %u bytes (%u MiB), the bound on a measurement file",
			  shown(file), MEASURE_FILE_MAX_BYTES, MEASURE_FILE_MAX_BYTES >> 20);
		free(buf);
		buf = NULL;
	} else {
		buf = xreallocarray(buf, *len + 1, 1);
		buf[*len] = '\0';
	}
	if (f != stdin)
		fclose(f);
	return buf;
}

static const struct measure_format *detect(const char *file, const char *text, size_t len)
{
	for (int i = 0; measure_formats[i] != NULL; i++)
		if (measure_formats[i]->detect(file, text, len))
			return measure_formats[i];
	return NULL;
}

const struct measure_format *measure_file_format(const char *file)
{
	struct cs_error err;
	size_t len;
	const struct measure_format *fmt = NULL;
	if (strcmp(file, "-") == 0)
		return NULL;  /* standard input can be read once: a scenario, as before */
	char *text = read_whole(file, &len, &err);
	if (text != NULL)
		fmt = detect(file, text, len);
	free(text);
	return fmt;
}

bool measure_file_is_scenario(const char *file)
{
	struct cs_error err;
	size_t len;
	if (strcmp(file, "-") == 0)
		return true;
	char *text = read_whole(file, &len, &err);
	if (text == NULL)
		return true;  /* the scenario reader says why, as before */
	json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
	bool yes = doc == NULL ? text[strspn(text, " \t\r\n")] == '{' :
		   json_is_object(doc) && (json_object_get(doc, "workload") != NULL ||
					   json_object_get(doc, "candidates") != NULL ||
					   json_object_get(doc, "validation") != NULL);
	json_decref(doc);
	free(text);
	return yes;
}

void measure_file_stem(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t n = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
	if (strcmp(path, "-") == 0) {
		base = "stdin";
		n = 5;
	}
	text_setf(buf, size, "%.*s", (int)n, base);
}

/* The formats' names for the message of a file of none of them. */
static void format_names(char *buf, size_t size)
{
	buf[0] = '\0';
	for (int i = 0; measure_formats[i] != NULL; i++)
		text_append_itemf(buf, size, ", ", "%s", measure_formats[i]->name);
}

static int load_one(const char *file, const json_t *on, const char *on_file, struct measure_set *set,
		    struct cs_error *err)
{
	size_t len, first = set->n;
	char names[256];
	char *text = read_whole(file, &len, err);
	if (text == NULL)
		return -1;
	const struct measure_format *fmt = detect(file, text, len);
	int rc = -1;
	if (fmt == NULL) {
		format_names(names, sizeof names);
		error_set(err, "measurements '%s': not a measurement file of a known format (read: %s; a scenario "
			  "file needs a \"validation\" or \"measured\" block)", shown(file), names);
	} else if (fmt->needs_scenario && on == NULL) {
		error_set(err, "measurements '%s': %s output says what was measured but not on what: give the "
			  "cluster's (and deployment's) scenario with --on SCENARIO", shown(file), fmt->name);
	} else {
		rc = fmt->load(file, text, len, on, set, err);
		if (rc == 0 && set->n == first)
			rc = error_set(err, "measurements '%s': %s output with no figure clustersim predicts", shown(file),
				       fmt->name);
	}
	if (rc == 0 && fmt->needs_scenario)
		for (size_t i = first; i < set->n; i++)
			set->docs[i].anchor = xstrdup(on_file);
	free(text);
	return rc;
}

int measure_load_files(const char *const *files, size_t n, const char *on_scenario_file, struct measure_set *set,
		       struct cs_error *err)
{
	json_t *on = NULL;
	int rc = 0;
	if (on_scenario_file != NULL && (on = jread_load("scenario", on_scenario_file, err)) == NULL)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = load_one(files[i], on, on_scenario_file, set, err);
	json_decref(on);
	return rc;
}

int measure_doc_check(const struct measure_doc *d, const struct scenario *s, struct cs_error *err)
{
	if (d->gpus <= 0 || s->n_candidates == 0)
		return 0;
	long have = (long)s->candidates[0].nodes * s->candidates[0].gpus_per_node;
	if (have != d->gpus)
		return error_set(err, "measurements '%s': line %ld: the run was on %d GPUs, but the --on scenario's "
				 "cluster '%s' has %ld (%d nodes x %d): give the scenario of the cluster that ran it",
				 shown(d->file), d->line, d->gpus, s->candidates[0].name, have,
				 s->candidates[0].nodes, s->candidates[0].gpus_per_node);
	return 0;
}
