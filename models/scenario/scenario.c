#include "scenario.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "models/hw/placement.h"
#include "models/scenario/candidate.h"
#include "models/scenario/override.h"
#include "models/scenario/reader.h"
#include "models/scenario/wl.h"
#include "util/jread.h"
#include "util/text.h"
#include "util/xalloc.h"


json_t *scenario_read_json(const char *what, const char *file, struct cs_error *err)
{
	return jread_load(what, file, err);
}

/* ---- the whole scenario -------------------------------------------------- */

static int merge_scenario_catalog(struct jread *r, const json_t *v, const char *file, catalog *cat)
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
		return catalog_merge_file(cat, path, r->err);
	}
	if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			size_t mark = jread_enter_index(r, i);
			if (!json_is_string(e))
				return jread_fail_value(r, e, "a catalog file path");
			if (merge_scenario_catalog(r, e, file, cat) < 0)
				return -1;
			jread_leave(r, mark);
		}
		return 0;
	}
	return jread_fail_value(r, v, "a catalog file path, an array of paths or a catalog object");
}

int scenario_from_json(json_t *root, const char *file, catalog *cat, struct scenario *s,
		       struct cs_error *err)
{
	static const char *const keys[] = {
		"name", "description", "seed", "workload", "candidates", "monte_carlo", "objective",
		"catalog", "validation", NULL
	};
	struct jread r;
	json_t *x;
	size_t mark;
	int64_t seed = 0;
	char desc[CAT_NOTE_MAX];

	memset(s, 0, sizeof *s);
	jread_init(&r, "scenario", file, err);
	text_copy(s->file, sizeof s->file, file);
	s->monte_carlo.trials = 100;
	if (jread_object(&r, root, keys) < 0)
		goto fail;
	if ((x = json_object_get(root, "catalog")) != NULL) {
		mark = jread_enter_key(&r, "catalog");
		if (merge_scenario_catalog(&r, x, file, cat) < 0)
			goto fail;
		jread_leave(&r, mark);
	}
	if (jread_string(&r, root, "name", false, s->name, sizeof s->name) < 0 ||
	    jread_string(&r, root, "description", false, desc, sizeof desc) < 0 ||
	    jread_int(&r, root, "seed", false, 0, INT64_MAX, &seed) < 0)
		goto fail;
	s->seed = (uint64_t)seed;
	if (s->name[0] == '\0') {
		/* Default: the file's base name without .json. */
		const char *base = strrchr(file, '/');
		base = base ? base + 1 : file;
		if (strcmp(file, "-") == 0)
			base = "stdin";
		snprintf(s->name, sizeof s->name, "%.*s", (int)strcspn(base, "."), base);
	}
	if ((x = json_object_get(root, "workload")) == NULL) {
		mark = jread_enter_key(&r, "workload");
		jread_fail(&r, "missing required key");
		goto fail;
	}
	mark = jread_enter_key(&r, "workload");
	if (wl_read(&r, x, file, cat, &s->workload) < 0)
		goto fail;
	jread_leave(&r, mark);

	if ((x = json_object_get(root, "candidates")) == NULL) {
		jread_enter_key(&r, "candidates");
		jread_fail(&r, "missing required key");
		goto fail;
	}
	mark = jread_enter_key(&r, "candidates");
	if (!json_is_array(x) || json_array_size(x) == 0 || json_array_size(x) > 10000) {
		jread_fail_value(&r, x, "an array of 1 to 10000 candidates");
		goto fail;
	}
	s->candidates = xcalloc(json_array_size(x), sizeof *s->candidates);
	{
		size_t i;
		json_t *e;
		json_array_foreach(x, i, e) {
			size_t m2 = jread_enter_index(&r, i);
			if (candidate_read(&r, e, cat, &s->candidates[i]) < 0)
				goto fail;
			s->n_candidates++;
			for (size_t k = 0; k < i; k++) {
				if (strcmp(s->candidates[k].name, s->candidates[i].name) == 0) {
					char q[96];
					text_quote(s->candidates[i].name, q, sizeof q);
					mark = jread_enter_key(&r, "name");
					jread_fail(&r, "%s is also the name of candidates[%zu]", q, k);
					goto fail;
				}
			}
			/* A checkpoint tier must exist on every candidate that checkpoints. */
			if (s->workload.run.checkpoint.enabled) {
				const struct cluster_spec *c = &s->candidates[i];
				bool found = false;
				for (int t = 0; t < c->n_storage; t++)
					found |= text_equal_nocase(c->storage[t].tier, s->workload.run.checkpoint.tier);
				if (!found) {
					jread_fail(&r, "has no storage tier \"%s\" for workload.checkpoint.tier",
						   s->workload.run.checkpoint.tier);
					goto fail;
				}
			}
			jread_leave(&r, m2);
		}
	}
	jread_leave(&r, mark);

	if ((x = json_object_get(root, "monte_carlo")) != NULL) {
		static const char *const mkeys[] = { "trials", NULL };
		mark = jread_enter_key(&r, "monte_carlo");
		if (jread_object(&r, x, mkeys) < 0 ||
		    jread_int32(&r, x, "trials", false, 1, 1000000, &s->monte_carlo.trials) < 0)
			goto fail;
		jread_leave(&r, mark);
	}
	if ((x = json_object_get(root, "validation")) != NULL) {
		static const char *const vkeys[] = { "id", "metric", "published", "source", NULL };
		static const char *const metrics[] = {
			"tflops_per_gpu", "mfu", "hfu", "step_time_s", "tokens_per_s", "samples_per_s",
			"busbw_GBps", "algbw_GBps", "time_us", "busbw_per_nic_GBps", NULL
		};
		int metric = 0;
		mark = jread_enter_key(&r, "validation");
		if (jread_object(&r, x, vkeys) < 0 ||
		    jread_string(&r, x, "id", true, s->validation.id, sizeof s->validation.id) < 0 ||
		    jread_enum(&r, x, "metric", true, metrics, &metric) < 0 ||
		    jread_real(&r, x, "published", true, 1e-12, 1e15, &s->validation.published) < 0 ||
		    jread_string(&r, x, "source", false, s->validation.source, sizeof s->validation.source) < 0)
			goto fail;
		text_copy(s->validation.metric, sizeof s->validation.metric, metrics[metric]);
		s->validation.present = true;
		jread_leave(&r, mark);
	}
	if ((x = json_object_get(root, "objective")) != NULL) {
		static const char *const okeys[] = { "deadline_h", "budget_usd", NULL };
		mark = jread_enter_key(&r, "objective");
		if (jread_object(&r, x, okeys) < 0 ||
		    jread_real(&r, x, "deadline_h", false, 0.001, 1e7, &s->objective.deadline_h) < 0 ||
		    jread_real(&r, x, "budget_usd", false, 0.01, 1e13, &s->objective.budget_usd) < 0)
			goto fail;
		jread_leave(&r, mark);
	}
	return 0;
fail:
	scenario_release(s);
	return -1;
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
	free(s->candidates);
	free(s->workload.collective.bytes);
	s->candidates = NULL;
	s->workload.collective.bytes = NULL;
	s->n_candidates = 0;
}
