#include "sweep_point.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/runner.h"
#include "models/scenario/jobs.h"
#include "output/results.h"
#include "util/text.h"
#include "util/xalloc.h"

static const char *const head_columns[] = {
	"scenario", "candidate", "row_id", "seed", "status", "reason"
};

/* The name and seed an invalid point's row shows: as its document (or, when
 * its values could not be applied, the base) gives them where they are
 * readable, else the defaults scenario_from_json uses. */
static void fallback_head(const struct sweep_run *run, const json_t *doc, struct scenario *s)
{
	const char *file = sweep_base_file(run->sw);
	const json_t *name, *seed;

	if (doc == NULL)
		doc = sweep_base(run->sw);
	name = json_object_get(doc, "name");
	seed = json_object_get(doc, "seed");

	memset(s, 0, sizeof *s);
	if (json_is_string(name) && json_string_length(name) < sizeof s->name &&
	    strlen(json_string_value(name)) == json_string_length(name)) {
		text_copy(s->name, sizeof s->name, json_string_value(name));
	} else {
		const char *base = strrchr(file, '/');
		base = base ? base + 1 : file;
		if (strcmp(file, "-") == 0)
			base = "stdin";
		snprintf(s->name, sizeof s->name, "%.*s", (int)strcspn(base, "."), base);
	}
	if (run->o->seed >= 0)
		s->seed = (uint64_t)run->o->seed;
	else if (json_is_integer(seed) && json_integer_value(seed) >= 0)
		s->seed = (uint64_t)json_integer_value(seed);
}

/* Read scenario document doc into *s, against a fresh catalog (*fresh, which
 * the caller frees) when it has a catalog of its own, with --seed applied. */
static int doc_load(const struct sweep_run *run, json_t *doc, struct scenario *s, catalog **fresh,
		    struct cs_error *err)
{
	catalog *cat = run->cat;
	int rc;

	*fresh = NULL;
	if (json_object_get(doc, "catalog") != NULL) {
		cat = *fresh = cli_catalog(run->o, err);
		if (cat == NULL)
			return -1;
	}
	rc = scenario_from_json(doc, sweep_base_file(run->sw), cat, s, err);
	if (rc == 0 && run->o->seed >= 0)
		s->seed = (uint64_t)run->o->seed;
	return rc;
}

/*
 * Load point k's scenario into *s. A point whose document has a catalog of
 * its own gets a fresh catalog (*fresh, which the caller frees), so that one
 * point's additions never reach another. On failure *doc_out (if not NULL)
 * keeps the document, when there is one, for the row's name and seed.
 */
static int point_load(const struct sweep_run *run, uint64_t k, struct scenario *s, catalog **fresh,
		      json_t **doc_out, struct cs_error *err)
{
	json_t *doc = sweep_point_json(run->sw, k, err);
	int rc;

	*fresh = NULL;
	if (doc_out != NULL)
		*doc_out = NULL;
	memset(s, 0, sizeof *s);
	if (doc == NULL)
		return -1;
	rc = doc_load(run, doc, s, fresh, err);
	if (rc < 0 && doc_out != NULL)
		*doc_out = doc;
	else
		json_decref(doc);
	return rc;
}

/* The shortest decimal that reads back as exactly x. */
static void format_real_exact(double x, char *buf, size_t size)
{
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(buf, size, "%.*g", digits, x);
		if (strtod(buf, NULL) == x)
			return;
	}
}

/* Fill the set:PATH cells of row `row` with point k's values, and its
 * sweep_fingerprint. */
static void put_tail(const struct sweep_run *run, rowset *chunk, size_t row, uint64_t k)
{
	for (size_t i = 0; i < sweep_path_count(run->sw); i++) {
		const json_t *v = sweep_value(run->sw, k, i);
		size_t col = run->nresult + i;
		char buf[64];
		if (json_is_integer(v)) {
			rowset_set_int(chunk, row, col, (int64_t)json_integer_value(v));
		} else if (json_is_string(v)) {
			rowset_set_text(chunk, row, col, json_string_value(v));
		} else if (json_is_real(v)) {
			format_real_exact(json_real_value(v), buf, sizeof buf);
			rowset_set_text(chunk, row, col, buf);
		} else {
			char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER);
			rowset_set_text(chunk, row, col, text != NULL ? text : "?");
			free(text);
		}
	}
	rowset_set_text(chunk, row, run->ncols - 1, run->fingerprint);
}

static bool same_columns(const rowset *rs, char *const cols[], size_t n)
{
	if (rowset_ncols(rs) != n)
		return false;
	for (size_t c = 0; c < n; c++)
		if (strcmp(rowset_column(rs, c), cols[c]) != 0)
			return false;
	return true;
}

static void status_row(const struct sweep_run *run, rowset *chunk, const struct scenario *s,
		       uint64_t k, const char *status, const char *reason)
{
	results_head_row(chunk, s->name, "", k, s->seed, status, reason);
	put_tail(run, chunk, rowset_nrows(chunk) - 1, k);
}

/* A point that does not load: its one row, status error (runtime) or invalid. */
static void load_failed_row(const struct sweep_run *run, uint64_t k, rowset *chunk, const json_t *doc,
			    const struct cs_error *err)
{
	struct scenario head;
	fallback_head(run, doc, &head);
	status_row(run, chunk, &head, k, err->kind == ERROR_RUNTIME ? "error" : "invalid", err->msg);
}

/* A point whose result columns are not the sweep's: its one row, invalid. */
static void other_columns_row(const struct sweep_run *run, uint64_t k, rowset *chunk,
			      const struct scenario *s)
{
	char reason[256];
	text_setf(reason, sizeof reason,
		 "its result columns differ from those of point %" PRIu64 " (workload.kind \"%s\"): a sweep cannot mix workload kinds",
		 run->cols_point, workload_kind_names[s->workload.kind]);
	status_row(run, chunk, s, k, "invalid", reason);
}

/*
 * Load point k into *s (with *fresh, its own catalog or NULL, for the caller
 * to free) and return true. A point that cannot run instead gets its one row
 * in chunk, status invalid (bad input) or error with the reason, and false:
 * one that does not load, or whose result columns are not the sweep's.
 */
static bool point_ready(const struct sweep_run *run, uint64_t k, rowset *chunk, struct scenario *s,
			catalog **fresh)
{
	struct runner_options ro = { .dry_run = run->dry_run, .row_id = (int64_t)k };
	struct cs_error err;
	json_t *doc;
	rowset *cols;
	bool same;

	error_clear(&err);
	if (point_load(run, k, s, fresh, &doc, &err) < 0) {
		load_failed_row(run, k, chunk, doc, &err);
		json_decref(doc);
	} else {
		cols = runner_columns(s, &ro);
		same = same_columns(cols, run->cols, run->nresult);
		rowset_free(cols);
		if (same)
			return true;
		other_columns_row(run, k, chunk, s);
		scenario_release(s);
	}
	catalog_free(*fresh);
	*fresh = NULL;
	return false;
}

rowset *sweep_point_rows(const struct sweep_run *run, uint64_t k)
{
	rowset *chunk = sweep_run_rowset(run);
	struct runner_options ro = { .dry_run = run->dry_run, .row_id = (int64_t)k };
	struct cs_error err;
	struct scenario s;
	catalog *fresh;
	rowset *rs;

	if (!point_ready(run, k, chunk, &s, &fresh))
		return chunk;
	error_clear(&err);
	rs = runner_columns(&s, &ro);
	if (runner_run(&s, &ro, rs, &err) < 0) {
		status_row(run, chunk, &s, k, err.kind == ERROR_INPUT ? "invalid" : "error", err.msg);
	} else {
		for (size_t r = 0; r < rowset_nrows(rs); r++) {
			size_t row = rowset_add_row(chunk);
			for (size_t c = 0; c < run->nresult; c++)
				rowset_copy_cell(chunk, row, c, rs, r, c);
			put_tail(run, chunk, row, k);
		}
	}
	rowset_free(rs);
	scenario_release(&s);
	catalog_free(fresh);
	return chunk;
}

rowset *sweep_point_expected(const struct sweep_run *run, uint64_t k)
{
	rowset *ex = sweep_run_rowset(run);
	struct scenario s;
	catalog *fresh;
	struct job *jobs;
	size_t n;

	if (!point_ready(run, k, ex, &s, &fresh))
		return ex;
	jobs = jobs_from_scenario(&s, run->dry_run, (int64_t)k, &n);
	size_t per = jobs_rows_per_job(&s, run->dry_run);
	for (size_t j = 0; j < n * per; j++) {
		results_head_row(ex, jobs[j / per].scenario, jobs[j / per].cluster->name, k, jobs[j / per].seed, "", "");
		put_tail(run, ex, rowset_nrows(ex) - 1, k);
	}
	free(jobs);
	scenario_release(&s);
	catalog_free(fresh);
	return ex;
}

/* The result columns of the first point that loads, or NULL when none does;
 * that point into run->cols_point. Caller frees. */
static rowset *first_columns(struct sweep_run *run)
{
	uint64_t n = sweep_points(run->sw);
	struct runner_options ro = { .dry_run = run->dry_run, .row_id = 0 };
	rowset *rs = NULL;

	run->cols_point = UINT64_MAX;
	for (uint64_t k = 0; k < n && rs == NULL; k++) {
		struct cs_error err;
		struct scenario s;
		catalog *fresh;
		error_clear(&err);
		if (point_load(run, k, &s, &fresh, NULL, &err) == 0) {
			rs = runner_columns(&s, &ro);
			run->cols_point = k;
			scenario_release(&s);
		}
		catalog_free(fresh);
	}
	return rs;
}

/* When no point loads, the base itself (after --set) may be what is wrong:
 * then -1 with the base's error (bad input). 0 otherwise. */
static int check_base(const struct sweep_run *run, struct cs_error *err)
{
	json_t *doc;
	struct scenario s;
	catalog *fresh;
	int rc;

	if (run->cols_point != UINT64_MAX)
		return 0;
	doc = json_deep_copy(sweep_base(run->sw));
	memset(&s, 0, sizeof s);
	rc = doc_load(run, doc, &s, &fresh, err);
	if (rc == 0)
		scenario_release(&s);
	catalog_free(fresh);
	json_decref(doc);
	return rc;
}

int sweep_point_columns(struct sweep_run *run, struct cs_error *err)
{
	size_t npaths = sweep_path_count(run->sw);
	rowset *rs = first_columns(run);

	run->nresult = rs != NULL ? rowset_ncols(rs) : sizeof head_columns / sizeof head_columns[0];
	run->ncols = run->nresult + npaths + 1;
	run->cols = xcalloc(run->ncols, sizeof *run->cols);
	for (size_t c = 0; c < run->nresult; c++)
		run->cols[c] = xstrdup(rs != NULL ? rowset_column(rs, c) : head_columns[c]);
	for (size_t i = 0; i < npaths; i++)
		run->cols[run->nresult + i] = xasprintf("set:%s", sweep_path(run->sw, i));
	run->cols[run->ncols - 1] = xstrdup(sweep_fingerprint_column);
	rowset_free(rs);
	return check_base(run, err);
}

