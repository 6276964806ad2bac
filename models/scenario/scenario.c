#include "scenario.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/candidate.h"
#include "models/scenario/override.h"
#include "models/scenario/keys.h"
#include "models/scenario/reader.h"
#include "models/scenario/space.h"
#include "models/scenario/wl.h"
#include "models/scenario/wl_fleet.h"
#include "models/scenario/wl_serve.h"
#include "util/jread.h"
#include "util/text.h"
#include "util/xalloc.h"

json_t *scenario_read_json(const char *what, const char *file, struct cs_error *err)
{
	return jread_load(what, file, err);
}

/* The `catalog` value: a file path (relative to the scenario), a list of
 * paths, or an inline catalog object, merged into cat and checked. */
static int merge_scenario_catalog(struct jread *r, const json_t *v, const char *file, catalog *cat,
				  struct scenario *s)
{
	if (json_is_object(v)) {
		if (catalog_merge_json(cat, v, "scenario", file, r->path, r->err) < 0)
			return -1;
		if (catalog_check(cat, r->err) < 0) {
			error_prefix(r->err, "scenario '%s': catalog", strcmp(file, "-") == 0 ? "<stdin>" : file);
			return -1;
		}
		return 0;
	}
	if (json_is_string(v)) {
		char path[1024];
		reader_resolve_relative(file, json_string_value(v), path, sizeof path);
		s->catalog_files = xreallocarray(s->catalog_files, s->n_catalog_files + 1, sizeof *s->catalog_files);
		s->catalog_files[s->n_catalog_files++] = xstrdup(path);
		return catalog_merge_file(cat, path, r->err);
	}
	if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			size_t mark = jread_enter_index(r, i);
			if (!json_is_string(e))
				return jread_fail_value(r, e, "a catalog file path");
			if (merge_scenario_catalog(r, e, file, cat, s) < 0)
				return -1;
			jread_leave(r, mark);
		}
		return 0;
	}
	return jread_fail_value(r, v, "a catalog file path, an array of paths or a catalog object");
}

/* name (the file's base name without .json by default), description, seed. */
static int read_header(struct jread *r, const json_t *root, const char *file, struct scenario *s)
{
	int64_t seed = 0;
	char desc[CAT_NOTE_MAX];

	if (jread_string(r, root, "name", false, s->name, sizeof s->name) < 0 ||
	    jread_string(r, root, "description", false, desc, sizeof desc) < 0 ||
	    jread_int(r, root, "seed", false, 0, INT64_MAX, &seed) < 0)
		return -1;
	s->seed = (uint64_t)seed;
	if (s->name[0] == '\0') {
		const char *base = strrchr(file, '/');
		base = base ? base + 1 : file;
		if (strcmp(file, "-") == 0)
			base = "stdin";
		snprintf(s->name, sizeof s->name, "%.*s", (int)strcspn(base, "."), base);
	}
	return 0;
}

/* Candidate i's name differs from the earlier ones', and it has the tiers
 * the workload checkpoints to and reads its data from. Fails at candidates[i]. */
static int check_candidate(struct jread *r, const struct scenario *s, size_t i)
{
	const struct cluster_spec *c = &s->candidates[i];
	for (size_t k = 0; k < i; k++) {
		if (strcmp(s->candidates[k].name, c->name) == 0) {
			char q[96];
			text_quote(c->name, q, sizeof q);
			jread_enter_key(r, "name");
			return jread_fail(r, "%s is also the name of candidates[%zu]", q, k);
		}
	}
	if (s->workload.run.checkpoint.enabled) {
		bool found = false;
		for (int t = 0; t < c->n_storage; t++)
			found |= text_equal_nocase(c->storage[t].tier, s->workload.run.checkpoint.tier);
		if (!found)
			return jread_fail(r, "has no storage tier \"%s\" for workload.checkpoint.tier",
					  s->workload.run.checkpoint.tier);
	}
	if (s->workload.run.data.enabled) {
		bool found = false;
		for (int t = 0; t < c->n_storage; t++)
			found |= text_equal_nocase(c->storage[t].tier, s->workload.run.data.tier);
		if (!found)
			return jread_fail(r, "has no storage tier \"%s\" for workload.data.tier",
					  s->workload.run.data.tier);
	}
	return 0;
}

/* The required `candidates`: 1 to 10000 clusters with distinct names. */
static int read_candidates(struct jread *r, const json_t *root, const catalog *cat,
			   struct scenario *s)
{
	size_t mark, i;
	json_t *e;
	const json_t *x = reader_enter_required(r, root, "candidates", &mark);

	if (x == NULL)
		return -1;
	if (!json_is_array(x) || json_array_size(x) == 0 || json_array_size(x) > 10000)
		return jread_fail_value(r, x, "an array of 1 to 10000 candidates");
	s->candidates = xcalloc(json_array_size(x), sizeof *s->candidates);
	json_array_foreach(x, i, e) {
		size_t m2 = jread_enter_index(r, i);
		if (candidate_read(r, e, cat, &s->candidates[i]) < 0)
			return -1;
		s->n_candidates++;
		if (check_candidate(r, s, i) < 0)
			return -1;
		jread_leave(r, m2);
	}
	jread_leave(r, mark);
	return 0;
}

/* The optional `monte_carlo` object. */
static int read_monte_carlo(struct jread *r, const json_t *x, struct scenario *s)
{
	if (s->workload.kind == WORKLOAD_INFERENCE)
		return jread_fail(r, "not used by inference workloads (a serving load is one seeded run; "
				  "vary --seed or workload.serving for more)");
	if (s->workload.kind == WORKLOAD_GEMM)
		return jread_fail(r, "not used by gemm workloads (one GEMM's time has nothing random)");
	s->monte_carlo.given = true;
	if (key_object(r, x, KS_MONTE_CARLO) < 0 ||
	    key_int32(r, x, KS_MONTE_CARLO, "trials", &s->monte_carlo.trials) < 0)
		return -1;
	return 0;
}

/* The metrics a validation or measured block may name
 * (models/validate/validation.h). */
static const char *const validation_metrics[] = {
	"tflops_per_gpu", "mfu", "hfu", "step_time_s", "tokens_per_s", "samples_per_s",
	"busbw_GBps", "algbw_GBps", "time_us", "busbw_per_nic_GBps",
	/* a gemm workload's rate */
	"gemm_tflops",
	/* serving (models/validate/validation.h) */
	"output_tok_s", "throughput_tok_s", "request_per_s", "ttft_p50_ms", "ttft_mean_ms",
	"tpot_p50_ms", "tpot_mean_ms", "itl_p50_ms", "itl_mean_ms", "e2e_p50_s", "e2e_mean_s",
	"ttft_p90_ms", "ttft_p99_ms", "tpot_p90_ms", "tpot_p99_ms", "itl_p90_ms", "itl_p99_ms",
	"e2e_p90_s", "e2e_p99_s", NULL
};

/* The optional `validation` object: the published figure reproduced. */
static int read_validation(struct jread *r, const json_t *x, struct scenario *s)
{
	struct validation_spec *v = &s->validation;
	int metric = 0;
	if (key_object(r, x, KS_VALIDATION) < 0 ||
	    jread_string(r, x, "id", true, v->id, sizeof v->id) < 0 ||
	    jread_enum(r, x, "metric", true, validation_metrics, &metric) < 0 ||
	    key_real(r, x, KS_VALIDATION, "published", &v->published) < 0 ||
	    jread_string(r, x, "source", false, v->source, sizeof v->source) < 0 ||
	    jread_string(r, x, "family", false, v->family, sizeof v->family) < 0)
		return -1;
	text_copy(v->metric, sizeof v->metric, validation_metrics[metric]);
	v->present = true;
	return 0;
}

/* The optional `measured` object: a figure the user measured, read into
 * the same record as a published one (docs/reference/measurements.md): the
 * value is the published figure, the source what it was measured with and
 * the file; id and family default to the file's name without its
 * directory and extension. */
static int read_measured(struct jread *r, const json_t *x, const char *file, struct scenario *s)
{
	struct validation_spec *v = &s->validation;
	char with[CAT_NOTE_MAX / 2] = "", stem[CAT_NAME_MAX];
	int metric = 0;
	if (v->present)
		return jread_fail(r, "not with a validation block: a scenario states a published figure or a measured one");
	if (key_object(r, x, KS_MEASURED) < 0 ||
	    jread_enum(r, x, "metric", true, validation_metrics, &metric) < 0 ||
	    key_real(r, x, KS_MEASURED, "value", &v->published) < 0 ||
	    jread_string(r, x, "with", false, with, sizeof with) < 0 ||
	    jread_string(r, x, "id", false, v->id, sizeof v->id) < 0 ||
	    jread_string(r, x, "family", false, v->family, sizeof v->family) < 0)
		return -1;
	const char *base = strrchr(file, '/') != NULL ? strrchr(file, '/') + 1 : file;
	const char *dot = strrchr(base, '.');
	int n = (int)(dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base));
	if (!text_setf(stem, sizeof stem, "%.*s", n, strcmp(file, "-") == 0 ? "stdin" : base))
		return jread_fail(r, "the file's name is longer than %d bytes, the most an id takes: give measured.id",
				  CAT_NAME_MAX - 1);
	if (v->id[0] == '\0')
		text_copy(v->id, sizeof v->id, stem);
	if (v->family[0] == '\0')
		text_copy(v->family, sizeof v->family, stem);
	if (!text_setf(v->source, sizeof v->source, "measured with %s; %s", with[0] != '\0' ? with : "(not stated)",
		       strcmp(file, "-") == 0 ? "<stdin>" : file))
		return jread_fail(r, "measured.with and the file's name are longer than %d bytes together", CAT_NOTE_MAX - 1);
	text_copy(v->metric, sizeof v->metric, validation_metrics[metric]);
	v->present = true;
	return 0;
}

/* The optional `objective` object: a deadline and a budget. */
static int read_objective(struct jread *r, const json_t *x, struct scenario *s)
{
	if (s->workload.kind == WORKLOAD_INFERENCE)
		return jread_fail(r, "not used by inference workloads (a serving objective is "
				  "workload.serving.slo)");
	if (s->workload.kind == WORKLOAD_FLEET)
		return jread_fail(r, "not used by fleet workloads (a fleet's objective is "
				  "workload.fleet.objective.wait_p90_h)");
	if (s->workload.kind == WORKLOAD_GEMM)
		return jread_fail(r, "not used by gemm workloads (a GEMM benchmark has no deadline or budget)");
	if (key_object(r, x, KS_OBJECTIVE) < 0 ||
	    key_real(r, x, KS_OBJECTIVE, "deadline_h", &s->objective.deadline_h) < 0 ||
	    key_real(r, x, KS_OBJECTIVE, "budget_usd", &s->objective.budget_usd) < 0)
		return -1;
	return 0;
}

/* The optional blocks after the candidates, in the order they are checked. */
static const struct {
	const char *key;
	int (*read)(struct jread *r, const json_t *x, struct scenario *s);
} trailing_blocks[] = {
	{ .key = "monte_carlo", .read = read_monte_carlo },
	{ .key = "validation", .read = read_validation },
	{ .key = "measured", .read = NULL },  /* read_measured: it names the file */
	{ .key = "objective", .read = read_objective },
};

/* Every part of the document in the order its errors are reported. */
static int read_scenario(struct jread *r, json_t *root, const char *file, catalog *cat,
			 struct scenario *s)
{
	const json_t *x;
	size_t mark;

	if (key_object(r, root, KS_TOP) < 0)
		return -1;
	if ((x = json_object_get(root, "catalog")) != NULL) {
		mark = jread_enter_key(r, "catalog");
		if (merge_scenario_catalog(r, x, file, cat, s) < 0)
			return -1;
		jread_leave(r, mark);
	}
	if (read_header(r, root, file, s) < 0 ||
	    (x = reader_enter_required(r, root, "workload", &mark)) == NULL ||
	    wl_read(r, x, file, cat, &s->workload) < 0)
		return -1;
	jread_leave(r, mark);
	if (read_candidates(r, root, cat, s) < 0)
		return -1;
	if ((x = json_object_get(root, "search")) != NULL) {
		/* plan's shapes (docs/explanation/planning.md) */
		mark = jread_enter_key(r, "search");
		s->space = space_read(r, x, json_object_get(root, "candidates"), cat, file);
		if (s->space == NULL)
			return -1;
		s->has_search = true;
		jread_leave(r, mark);
	} else {
		s->space = space_of_candidates(json_object_get(root, "candidates"), file);
	}
	for (size_t i = 0; i < sizeof trailing_blocks / sizeof trailing_blocks[0]; i++) {
		if ((x = json_object_get(root, trailing_blocks[i].key)) == NULL)
			continue;
		mark = jread_enter_key(r, trailing_blocks[i].key);
		if (trailing_blocks[i].read != NULL ? trailing_blocks[i].read(r, x, s) < 0 : read_measured(r, x, file, s) < 0)
			return -1;
		jread_leave(r, mark);
	}
	return 0;
}

int scenario_from_json(json_t *root, const char *file, catalog *cat, struct scenario *s,
		       struct cs_error *err)
{
	struct jread r;

	memset(s, 0, sizeof *s);
	jread_init(&r, "scenario", file, err);
	text_copy(s->file, sizeof s->file, file);
	s->monte_carlo.trials = 100;
	if (read_scenario(&r, root, file, cat, s) < 0) {
		scenario_release(s);
		return -1;
	}
	return 0;
}

int scenario_load(const char *file, const struct scenario_override *overrides, size_t n_overrides,
		  int64_t seed_override, catalog *cat, struct scenario *s, struct cs_error *err)
{
	json_t *root = scenario_read_json("scenario", file, err);
	int rc;

	memset(s, 0, sizeof *s);
	if (root == NULL)
		return -1;
	for (size_t i = 0; i < n_overrides; i++) {
		if (override_apply(root, "scenario", file, overrides[i].path, overrides[i].value, err) < 0) {
			json_decref(root);
			return -1;
		}
	}
	rc = scenario_from_json(root, file, cat, s, err);
	json_decref(root);
	if (rc == 0 && seed_override >= 0)
		s->seed = (uint64_t)seed_override;
	return rc;
}

void scenario_release(struct scenario *s)
{
	for (size_t i = 0; i < s->n_catalog_files; i++)
		free(s->catalog_files[i]);
	free(s->catalog_files);
	s->catalog_files = NULL;
	s->n_catalog_files = 0;
	free(s->candidates);
	free(s->workload.collective.bytes);
	space_free(s->space);
	s->space = NULL;
	wl_serve_release(&s->workload);
	wl_fleet_release(&s->workload);
	s->candidates = NULL;
	s->workload.collective.bytes = NULL;
	s->n_candidates = 0;
}
