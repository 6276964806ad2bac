/*
 * clustersim sweep: every point of a sweep file through the runner, as one
 * result table with a row_id per point.
 *
 * The points of shard I/N are those with k mod N == I. With --jobs J the
 * points left to compute are jobs of a pool of J forked workers (workers.h),
 * taken back in point order, so the output bytes do not depend on J. CSV is
 * written as the points arrive; tables and JSON at the end. Every row ends
 * with the sweep's fingerprint (what it was computed from); --resume streams
 * FILE twice, one row at a time, and keeps only the points it holds complete
 * for this very sweep.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/runner.h"
#include "cli/workers.h"
#include "models/scenario/jobs.h"
#include "models/scenario/reader.h"
#include "models/scenario/sweep.h"
#include "output/csvreader.h"
#include "output/outfile.h"
#include "output/results.h"
#include "util/text.h"
#include "util/xalloc.h"

static const char usage_text[] =
	"usage: clustersim sweep SWEEP.json [--jobs N] [--shard I/N] [--resume] [-o FILE]\n"
	"                        [--format table|csv|json] [--set PATH=VALUE]... [--seed N]\n"
	"                        [--catalog FILE]... [--dry-run]\n\n"
	"Runs every point of a sweep file (a base scenario and the values of --set paths to\n"
	"combine) and prints their result rows; every row of point k has row_id k, and one\n"
	"column per varied path (set:PATH) holds the point's value. A point whose scenario is\n"
	"invalid becomes a row with status invalid and the reason; the sweep goes on.\n"
	"  --jobs N       compute with N worker processes (the output does not depend on N)\n"
	"  --shard I/N    run only the points k with k mod N = I (default: from\n"
	"                 SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT when both are set)\n"
	"  --resume       keep the points of this shard that -o FILE holds complete (FILE must\n"
	"                 be this sweep's CSV: its header and sweep_fingerprint), compute the\n"
	"                 rest, and rewrite FILE with exactly what a fresh run writes (CSV only)\n"
	"  --set PATH=VALUE  override a field of the base scenario before the axes apply\n"
	"  --seed N       replace every point's seed\n"
	"  --catalog FILE merge a user's catalog file first\n"
	"  --dry-run      each candidate's shape and price only, as run --dry-run\n"
	"  --format F     table (on a terminal), csv (otherwise, and for -o FILE) or json\n"
	"  -o, --output FILE  write results to FILE (atomically; CSV unless --format says otherwise)\n"
	"  -h, --help     print this help\n"
	"The last column, sweep_fingerprint, says what the rows were computed from.\n"
	"Interrupted (SIGINT, SIGTERM) with -o FILE and CSV output, it writes the points finished\n"
	"so far to FILE and exits 1; --resume then finishes the shard. A FILE that existed before\n"
	"a run without --resume is left as it was: the points finished go to FILE.partial.\n";

#define JOBS_MAX 1024
#define SHARDS_MAX 1000000

static const char *const head_columns[] = {
	"scenario", "candidate", "row_id", "seed", "status", "reason"
};

/* The last column of every row: what the rows were computed from. */
static const char fingerprint_column[] = "sweep_fingerprint";

struct sweep_run {
	const sweep *sw;
	const struct cli_options *o;
	catalog *cat;            /* built-in + --catalog: points without a catalog of their own */
	bool dry_run;
	char **cols;             /* result columns, one set:PATH per varied path, sweep_fingerprint */
	size_t ncols, nresult;
	uint64_t cols_point;     /* the point that gave the result columns, or UINT64_MAX */
	char fingerprint[17];    /* 16 hex digits (sweep_fingerprint()) */
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* ---- one point ----------------------------------------------------------- */

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
		struct scenario head;
		fallback_head(run, doc, &head);
		status_row(run, chunk, &head, k, err.kind == ERROR_RUNTIME ? "error" : "invalid", err.msg);
		json_decref(doc);
		catalog_free(*fresh);
		*fresh = NULL;
		return false;
	}
	cols = runner_columns(s, &ro);
	same = same_columns(cols, run->cols, run->nresult);
	rowset_free(cols);
	if (!same) {
		char reason[256];
		snprintf(reason, sizeof reason,
			 "its result columns differ from those of point %" PRIu64 " (workload.kind \"%s\"): a sweep cannot mix workload kinds",
			 run->cols_point, workload_kind_names[s->workload.kind]);
		status_row(run, chunk, s, k, "invalid", reason);
		scenario_release(s);
		catalog_free(*fresh);
		*fresh = NULL;
	}
	return same;
}

/* Point k's rows, in the sweep's columns. Never fails: a point that cannot
 * run is a row with status invalid (bad input) or error. Caller frees. */
static rowset *run_point(const struct sweep_run *run, uint64_t k)
{
	rowset *chunk = rowset_new_n((const char *const *)run->cols, run->ncols);
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

/*
 * The sweep's columns: those of the first point (in point order, whatever the
 * shard) whose scenario loads, so every shard agrees; the six leading columns
 * when none does. Then set:PATH for each varied path, then sweep_fingerprint.
 */
static void choose_columns(struct sweep_run *run)
{
	uint64_t n = sweep_points(run->sw);
	size_t npaths = sweep_path_count(run->sw);
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
	run->nresult = rs != NULL ? rowset_ncols(rs) : sizeof head_columns / sizeof head_columns[0];
	run->ncols = run->nresult + npaths + 1;
	run->cols = xcalloc(run->ncols, sizeof *run->cols);
	for (size_t c = 0; c < run->nresult; c++)
		run->cols[c] = xstrdup(rs != NULL ? rowset_column(rs, c) : head_columns[c]);
	for (size_t i = 0; i < npaths; i++)
		run->cols[run->nresult + i] = xasprintf("set:%s", sweep_path(run->sw, i));
	run->cols[run->ncols - 1] = xstrdup(fingerprint_column);
	rowset_free(rs);
}

/* ---- what the rows are computed from ------------------------------------- */

#ifndef CLUSTERSIM_VERSION
#define CLUSTERSIM_VERSION "0.0.0"
#endif

static const uint64_t fnv_offset = 14695981039346656037u;
static const uint64_t fnv_prime = 1099511628211u;

/* FNV-1a 64 of n bytes, on from h. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= fnv_prime;
	}
	return h;
}

/* One named field, each part ended by its NUL so that none runs into the next. */
static uint64_t fnv_field(uint64_t h, const char *name, const char *text)
{
	h = fnv1a(h, name, strlen(name) + 1);
	return fnv1a(h, text, strlen(text) + 1);
}

static uint64_t fnv_json(uint64_t h, const char *name, const json_t *v, size_t flags)
{
	char *text = v != NULL ? json_dumps(v, flags | JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	h = fnv_field(h, name, text != NULL ? text : "null");
	free(text);
	return h;
}

/*
 * The sweep_fingerprint of every row: FNV-1a 64, as 16 hex digits, of the
 * program's version, the base scenario after --set as canonical JSON (keys
 * sorted, compact), the sweep file's axes and zip as written (their order
 * numbers the points), --seed and --dry-run. Never the shard or --jobs, so
 * every part of one sweep carries the same one.
 */
static void sweep_fingerprint(struct sweep_run *run, const json_t *root)
{
	char seed[24];
	uint64_t h = fnv_offset;

	snprintf(seed, sizeof seed, "%" PRId64, run->o->seed >= 0 ? run->o->seed : -1);
	h = fnv_field(h, "version", CLUSTERSIM_VERSION);
	h = fnv_json(h, "base", sweep_base(run->sw), JSON_SORT_KEYS);
	h = fnv_json(h, "axes", json_object_get(root, "axes"), JSON_PRESERVE_ORDER);
	h = fnv_json(h, "zip", json_object_get(root, "zip"), JSON_PRESERVE_ORDER);
	h = fnv_field(h, "seed", seed);
	h = fnv_field(h, "dry_run", run->dry_run ? "1" : "0");
	snprintf(run->fingerprint, sizeof run->fingerprint, "%016" PRIx64, h);
}

/* ---- the shard ----------------------------------------------------------- */

struct resume_reader;

struct shard_plan {
	uint64_t shard, nshards;
	uint64_t npoints;        /* points of this shard: k = shard + i * nshards */
	unsigned char *kept;     /* with --resume: a bit per shard index, set when FILE holds it complete */
	uint64_t nkept;
	struct resume_reader *resume;  /* FILE read again for the kept rows, or NULL */
	uint64_t *compute;       /* shard indexes to compute, ascending */
	uint64_t ncompute;
};

static uint64_t shard_point(const struct shard_plan *sp, uint64_t i)
{
	return sp->shard + i * sp->nshards;
}

static bool is_kept(const struct shard_plan *sp, uint64_t i)
{
	return sp->kept != NULL && (sp->kept[i / 8] >> (i % 8) & 1u) != 0;
}

/* ---- --resume: FILE read as a stream of points ---------------------------- */

/*
 * FILE is read twice through one open stream, one row at a time: a first
 * pass marks the points it holds complete (sp->kept), a second copies their
 * rows while the sweep runs in point order. Memory is one point's rows,
 * whatever the file's size.
 *
 * A group is a run of consecutive rows of one point of this shard (rows of
 * other shards and rows without a row_id of this sweep are skipped). Only a
 * group whose point comes after that of the last group counts, so each point
 * has at most one and the kept ones come in point order; a point seen again
 * later (a file given twice) is dropped, as merge drops repeated rows.
 */
struct resume_reader {
	const struct sweep_run *run;
	const struct shard_plan *sp;
	const char *file;
	FILE *f;
	struct csvreader r;
	bool open;
	struct csvtable_row ahead;   /* the first row of the next group, when has_ahead */
	uint64_t ahead_k;
	bool has_ahead;
	uint64_t last_k;             /* the point of the last group in order */
	bool any;
};

/*
 * What the rows of a point must be: the expected head of each row it yields
 * (scenario, candidate, row_id, seed, the set:PATH cells and the
 * fingerprint), and the rows of the group that matched so far.
 */
struct point_check {
	rowset *expect;
	rowset *rows;                /* the group's rows kept, as text cells */
	size_t matched;
	bool broken;
};

/* The rows point k yields, without the figures: the cells a resumed row
 * must repeat. Caller frees. */
static rowset *expected_rows(const struct sweep_run *run, uint64_t k)
{
	rowset *ex = rowset_new_n((const char *const *)run->cols, run->ncols);
	struct scenario s;
	catalog *fresh;
	struct job *jobs;
	size_t n;

	if (!point_ready(run, k, ex, &s, &fresh))
		return ex;
	jobs = jobs_from_scenario(&s, run->dry_run, (int64_t)k, &n);
	for (size_t j = 0; j < n; j++) {
		results_head_row(ex, jobs[j].scenario, jobs[j].cluster->name, k, jobs[j].seed, "", "");
		put_tail(run, ex, rowset_nrows(ex) - 1, k);
	}
	free(jobs);
	scenario_release(&s);
	catalog_free(fresh);
	return ex;
}

/* Is cell (row, col) written as text? Formatted as writer_csv() formats it,
 * cut to WRITER_CELL_MAX - 1 bytes. */
static bool cell_is(const rowset *rs, size_t row, size_t col, const char *text)
{
	char buf[WRITER_CELL_MAX];
	rowset_format(rs, row, col, buf, sizeof buf);
	return strcmp(buf, text) == 0;
}

/* Does the file's row repeat expected row `e`'s head and tail cells? */
static bool row_matches(const struct sweep_run *run, const rowset *ex, size_t e,
			const struct csvtable_row *row)
{
	for (size_t c = 0; c < run->ncols; c++) {
		bool checked = c < 4 || c >= run->nresult;  /* scenario, candidate, row_id, seed; the tail */
		if (checked && !cell_is(ex, e, c, row->cells[c]))
			return false;
	}
	return true;
}

/* Does the file's row repeat, cell for cell, a row the group already kept? */
static bool row_repeats(const struct point_check *pc, const struct csvtable_row *row)
{
	for (size_t r = 0; r < rowset_nrows(pc->rows); r++) {
		size_t c = 0;
		while (c < row->ncells && cell_is(pc->rows, r, c, row->cells[c]))
			c++;
		if (c == row->ncells)
			return true;
	}
	return false;
}

static void point_check_start(struct point_check *pc, const struct sweep_run *run, uint64_t k)
{
	pc->expect = expected_rows(run, k);
	pc->rows = rowset_new_n((const char *const *)run->cols, run->ncols);
	pc->matched = 0;
	pc->broken = false;
}

static void point_check_release(struct point_check *pc)
{
	rowset_free(pc->expect);
	rowset_free(pc->rows);
	memset(pc, 0, sizeof *pc);
}

/* One row of the group: the next one the point yields, a repeat of one
 * already kept (dropped), or anything else (the point is not complete). */
static void point_check_feed(struct point_check *pc, const struct sweep_run *run,
			     const struct csvtable_row *row)
{
	if (pc->broken)
		return;
	if (!row->terminated || row->ncells != run->ncols) {
		pc->broken = true;
	} else if (pc->matched < rowset_nrows(pc->expect) && row_matches(run, pc->expect, pc->matched, row)) {
		size_t r = rowset_add_row(pc->rows);
		for (size_t c = 0; c < run->ncols; c++)
			if (row->cells[c][0] != '\0')
				rowset_set_text(pc->rows, r, c, row->cells[c]);
		pc->matched++;
	} else if (!row_repeats(pc, row)) {
		pc->broken = true;
	}
}

static bool point_check_complete(const struct point_check *pc)
{
	return !pc->broken && pc->matched == rowset_nrows(pc->expect);
}

/* A complete row of another sweep: FILE is not to be continued. */
static int refuse_other_sweep(const struct resume_reader *rr, const struct csvtable_row *row,
			      struct cs_error *err)
{
	const char *cell = row->cells[rr->run->ncols - 1];
	char shown[40];
	if (strlen(cell) == 16 && strspn(cell, "0123456789abcdef") == 16)
		text_copy(shown, sizeof shown, cell);
	else
		text_quote(cell, shown, sizeof shown);
	return error_set(err, "sweep: --resume: '%s': line %zu: computed from another sweep (fingerprint %s, this sweep %s): another --seed, --set, --dry-run, base, axes or version (remove it or choose another -o)",
			 rr->file, row->line, shown, rr->run->fingerprint);
}

/* The next row of this shard into rr->ahead: 1, 0 at the end, -1 with err set. */
static int resume_read_row(struct resume_reader *rr, struct cs_error *err)
{
	const struct sweep_run *run = rr->run;
	struct csvtable_row *row = &rr->ahead;
	int rc;

	while ((rc = csvreader_next(&rr->r, row, err)) == 1) {
		uint64_t k;
		if (row->terminated && row->ncells == run->ncols &&
		    strcmp(row->cells[run->ncols - 1], run->fingerprint) != 0) {
			rc = refuse_other_sweep(rr, row, err);
			csvtable_row_release(row);
			return rc;
		}
		if (row->ncells > 2 && csvtable_row_id(row->cells[2], &k) && k < sweep_points(run->sw) &&
		    k % rr->sp->nshards == rr->sp->shard) {
			rr->ahead_k = k;
			rr->has_ahead = true;
			return 1;
		}
		csvtable_row_release(row);
	}
	return rc;
}

/*
 * The next group: its point into *k and whether it comes in order (after the
 * last group's point). Returns 1, 0 at the end, -1 with err set. Then
 * resume_take_group() reads its rows.
 */
static int resume_next_group(struct resume_reader *rr, uint64_t *k, bool *in_order, struct cs_error *err)
{
	int rc = rr->has_ahead ? 1 : resume_read_row(rr, err);
	if (rc <= 0)
		return rc;
	*k = rr->ahead_k;
	*in_order = !rr->any || *k > rr->last_k;
	if (*in_order) {
		rr->last_k = *k;
		rr->any = true;
	}
	return 1;
}

/* The rows of the group whose point is k into pc (or dropped when pc is
 * NULL), up to the first row of the next group. 0, or -1 with err set. */
static int resume_take_group(struct resume_reader *rr, uint64_t k, struct point_check *pc, struct cs_error *err)
{
	int rc = 1;
	while (rc == 1 && rr->has_ahead && rr->ahead_k == k) {
		if (pc != NULL)
			point_check_feed(pc, rr->run, &rr->ahead);
		csvtable_row_release(&rr->ahead);
		rr->has_ahead = false;
		rc = resume_read_row(rr, err);
	}
	return rc < 0 ? -1 : 0;
}

/* Read FILE from its first row again (after its header). */
static int resume_rewind(struct resume_reader *rr, struct cs_error *err)
{
	if (rr->open)
		csvreader_close(&rr->r);
	rr->open = false;
	csvtable_row_release(&rr->ahead);
	rr->has_ahead = rr->any = false;
	rr->last_k = 0;
	rewind(rr->f);
	if (csvreader_open_stream(&rr->r, rr->f, rr->file, CSVTABLE_SALVAGE, "results", err) < 0)
		return -1;
	rr->open = true;
	return 0;
}

static void resume_free(struct resume_reader *rr)
{
	if (rr == NULL)
		return;
	if (rr->open)
		csvreader_close(&rr->r);
	csvtable_row_release(&rr->ahead);
	if (rr->f != NULL)
		fclose(rr->f);
	free(rr);
}

/* First pass: mark the points FILE holds complete, in order. */
static int resume_mark_kept(struct resume_reader *rr, struct shard_plan *sp, struct cs_error *err)
{
	uint64_t k;
	bool in_order;
	int rc;

	sp->kept = xcalloc(sp->npoints / 8 + 1, 1);
	while ((rc = resume_next_group(rr, &k, &in_order, err)) == 1) {
		struct point_check pc;
		if (!in_order) {
			rc = resume_take_group(rr, k, NULL, err);
		} else {
			point_check_start(&pc, rr->run, k);
			rc = resume_take_group(rr, k, &pc, err);
			if (rc == 0 && point_check_complete(&pc)) {
				uint64_t i = k / sp->nshards;
				sp->kept[i / 8] |= (unsigned char)(1u << (i % 8));
				sp->nkept++;
			}
			point_check_release(&pc);
		}
		if (rc < 0)
			return -1;
	}
	return rc;
}

/* Second pass: kept point k's rows, the next kept group in FILE. NULL with
 * err set when the file changed under the sweep. Caller frees. */
static rowset *resume_take(struct resume_reader *rr, uint64_t k, struct cs_error *err)
{
	uint64_t g;
	bool in_order;
	int rc;

	while ((rc = resume_next_group(rr, &g, &in_order, err)) == 1 && !(in_order && g == k))
		if (resume_take_group(rr, g, NULL, err) < 0)
			return NULL;
	if (rc == 1) {
		struct point_check pc;
		rowset *rows = NULL;
		point_check_start(&pc, rr->run, k);
		if (resume_take_group(rr, k, &pc, err) < 0) {
			/* err says why */
		} else if (point_check_complete(&pc)) {
			rows = pc.rows;
			pc.rows = NULL;
		} else {
			error_runtime(err, "sweep: --resume: '%s' changed while the sweep read it (point %" PRIu64 ")",
				      rr->file, k);
		}
		point_check_release(&pc);
		return rows;
	}
	if (rc == 0)
		error_runtime(err, "sweep: --resume: '%s' changed while the sweep read it (point %" PRIu64 " is gone)",
			      rr->file, k);
	return NULL;
}

/* The header line writer_csv() writes for the sweep's columns, into a new
 * buffer *buf of *len bytes. 0, or -1 (errno set). */
static int csv_header(const struct sweep_run *run, char **buf, size_t *len)
{
	rowset *empty = rowset_new_n((const char *const *)run->cols, run->ncols);
	FILE *mem = open_memstream(buf, len);
	int rc = 0;

	if (mem == NULL || writer_csv(mem, empty) < 0)
		rc = -1;
	if (mem != NULL && fclose(mem) != 0)
		rc = -1;
	rowset_free(empty);
	if (rc < 0) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

/* Why FILE's first got bytes (line) are not the header: a one-line reason. */
static void header_mismatch(const char *line, size_t got, const char *header, size_t len, char *why, size_t size)
{
	const char *nl = memchr(line, '\n', got);
	size_t first = nl != NULL ? (size_t)(nl - line) : got, m = 0, col = 1;

	while (m < got && m < len && line[m] == header[m])
		m++;
	for (size_t i = 0; i < m; i++)
		col += header[i] == ',';
	if (memchr(line, '\0', first) != NULL)
		snprintf(why, size, "it is not CSV (a NUL byte in its first line)");
	else
		snprintf(why, size, "its first line differs from the header this sweep writes at column %zu", col);
}

/*
 * FILE (open as f) must start with exactly this sweep's header. Returns 1
 * when it does, 0 when it holds no more than a beginning of it (a run
 * stopped while writing it), -1 with err set otherwise.
 */
static int check_header(const struct sweep_run *run, FILE *f, const char *file, struct cs_error *err)
{
	char *header = NULL, *line;
	size_t len = 0, got;
	int rc;

	if (csv_header(run, &header, &len) < 0)
		return error_runtime(err, "sweep: --resume: '%s': %s", file, strerror(errno ? errno : ENOMEM));
	line = xmalloc(len + 1);
	got = fread(line, 1, len, f);
	if (ferror(f)) {
		rc = error_runtime(err, "sweep: --resume: cannot read '%s': %s", file, strerror(errno ? errno : EIO));
	} else if (got == len && memcmp(line, header, len) == 0) {
		rc = 1;
	} else if (got < len && memcmp(line, header, got) == 0) {
		rc = 0;
	} else {
		char why[128];
		header_mismatch(line, got, header, len, why, sizeof why);
		rc = error_set(err, "sweep: --resume: '%s': %s: it holds other results (remove it or choose another -o)",
			       file, why);
	}
	free(line);
	free(header);
	return rc;
}

/* FILE for --resume opened, or NULL with err set (a directory, unreadable:
 * runtime errors) or *absent true (no such file, not a regular file: a
 * device or pipe, which is written as for a fresh run). */
static FILE *resume_open(const char *file, bool *absent, struct cs_error *err)
{
	struct stat st;
	bool found = stat(file, &st) == 0;
	FILE *f;

	*absent = found ? !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) : errno == ENOENT;
	if (*absent)
		return NULL;
	if (found && S_ISDIR(st.st_mode)) {
		error_runtime(err, "cannot write '%s': is a directory", file);
		return NULL;
	}
	f = fopen(file, "r");
	if (f == NULL)
		error_runtime(err, "sweep: --resume: cannot read '%s': %s", file, strerror(errno));
	return f;
}

/*
 * --resume: decide which points of the shard FILE already holds complete
 * (sp->kept; left NULL when FILE holds nothing of this sweep yet) and keep
 * FILE open for their rows (sp->resume). A point is complete when FILE has
 * exactly the rows it yields, in order, each whole; repeated rows are
 * dropped. FILE must be this sweep's CSV: its header, and rows with this
 * sweep's fingerprint.
 */
static int plan_resume(const struct sweep_run *run, struct shard_plan *sp, const char *file,
		       struct cs_error *err)
{
	struct resume_reader *rr;
	bool absent;
	FILE *f = resume_open(file, &absent, err);
	int rc;

	if (f == NULL)
		return absent ? 0 : -1;
	rc = check_header(run, f, file, err);
	if (rc <= 0) {
		fclose(f);
		return rc;
	}
	rr = xcalloc(1, sizeof *rr);
	*rr = (struct resume_reader){ .run = run, .sp = sp, .file = file, .f = f };
	if (resume_rewind(rr, err) < 0 || resume_mark_kept(rr, sp, err) < 0 || resume_rewind(rr, err) < 0) {
		resume_free(rr);
		return -1;
	}
	sp->resume = rr;
	return 0;
}

static void shard_plan_release(struct shard_plan *sp)
{
	resume_free(sp->resume);
	free(sp->kept);
	free(sp->compute);
}

/* ---- output -------------------------------------------------------------- */

struct sink {
	struct outfile out;
	const char *path;        /* -o as given, NULL for standard output */
	enum output_format format;
	int width;
	rowset *all;             /* table and JSON: everything, written at the end */
	size_t header_len;       /* CSV: bytes of the header line writer_csv() writes */
	bool existed;            /* -o named a regular file before the sweep began */
};

static bool sink_to_file(const struct sink *k)
{
	return k->path != NULL && strcmp(k->path, "-") != 0;
}

/* CSV: write the chunk's rows as writer_csv() would, without its header. */
static int sink_put(struct sink *k, rowset *chunk)
{
	if (k->format != FORMAT_CSV) {
		for (size_t r = 0; r < rowset_nrows(chunk); r++) {
			size_t row = rowset_add_row(k->all);
			for (size_t c = 0; c < rowset_ncols(chunk); c++)
				rowset_copy_cell(k->all, row, c, chunk, r, c);
		}
		return 0;
	}
	char *buf = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&buf, &size);
	int rc;
	if (mem == NULL)
		return -1;
	rc = writer_csv(mem, chunk);
	if (fclose(mem) != 0)
		rc = -1;
	if (rc == 0 && size >= k->header_len &&
	    fwrite(buf + k->header_len, 1, size - k->header_len, k->out.f) != size - k->header_len)
		rc = -1;
	free(buf);
	return rc < 0 || ferror(k->out.f) ? -1 : 0;
}

/* The failure to write the output, as a runtime error; returns EXIT_RUNTIME. */
static int sink_write_error(const struct sink *k, int e, struct cs_error *err)
{
	if (sink_to_file(k))
		error_runtime(err, "cannot write '%s': %s", k->path, strerror(e ? e : EIO));
	else
		error_runtime(err, "cannot write standard output: %s", strerror(e ? e : EIO));
	return EXIT_RUNTIME;
}

static int sink_open(struct sink *k, const struct sweep_run *run, const char *path,
		     enum output_format format, struct cs_error *err)
{
	struct stat st;
	char *header = NULL;
	size_t size = 0;

	k->path = path;
	k->format = format;
	k->width = path == NULL || strcmp(path, "-") == 0 ? cli_table_width() : 0;
	k->existed = sink_to_file(k) && stat(path, &st) == 0 && S_ISREG(st.st_mode);
	if (outfile_open(&k->out, path, err) < 0)
		return -1;
	if (format != FORMAT_CSV) {
		k->all = rowset_new_n((const char *const *)run->cols, run->ncols);
		return 0;
	}
	/* The header as writer_csv() writes it, measured so that sink_put()
	 * can skip it in each chunk's output. */
	if (csv_header(run, &header, &size) < 0 || fwrite(header, 1, size, k->out.f) != size) {
		int e = errno;
		free(header);
		outfile_abort(&k->out);
		sink_write_error(k, e, err);
		return -1;
	}
	k->header_len = size;
	free(header);
	return 0;
}

/* Copy what the output's temporary file holds so far to PATH.partial,
 * atomically; the output itself is given up. 0, or -1 with err set. */
static int sink_commit_partial(struct sink *k, char **partial, struct cs_error *err)
{
	struct outfile part;
	char buf[65536];
	size_t n;
	FILE *in;
	int rc = 0;

	*partial = xasprintf("%s.partial", k->path);
	if (fflush(k->out.f) != 0 || (in = fopen(k->out.tmp_path, "r")) == NULL) {
		int e = errno;
		outfile_abort(&k->out);
		sink_write_error(k, e, err);
		return -1;
	}
	if (outfile_open(&part, *partial, err) < 0) {
		fclose(in);
		outfile_abort(&k->out);
		return -1;
	}
	while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, part.f) != n)
			rc = -1;
	if (ferror(in))
		rc = -1;
	fclose(in);
	outfile_abort(&k->out);
	if (rc < 0) {
		int e = errno;
		outfile_abort(&part);
		return error_runtime(err, "cannot write '%s': %s", *partial, strerror(e ? e : EIO));
	}
	return outfile_commit(&part, err);
}

/* ---- progress ------------------------------------------------------------ */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void progress(bool on, uint64_t done, uint64_t total, double *last)
{
	double t;
	if (!on)
		return;
	t = now_s();
	if (done < total && t - *last < 0.1)
		return;
	*last = t;
	fprintf(stderr, "\rsweep: %" PRIu64 "/%" PRIu64 " points", done, total);
	if (done == total)
		fputc('\n', stderr);
}

/* ---- the shard's run ----------------------------------------------------- */

/* The workers' job j: the j-th point of the shard left to compute. */
struct shard_job {
	const struct sweep_run *run;
	const struct shard_plan *sp;
};

static rowset *compute_job(void *ctx, uint64_t j)
{
	const struct shard_job *job = ctx;
	return run_point(job->run, shard_point(job->sp, job->sp->compute[j]));
}

/* The shard being run: where its points come from and how far it got. */
struct shard_exec {
	struct sweep_run *run;
	struct shard_plan *sp;
	struct sink *sink;
	struct shard_job job;
	struct workers ws;
	uint64_t next_compute;   /* the next job to take from the workers */
	uint64_t done;           /* points written */
	bool show;
	double last;
};

/* Shard index i's rows: FILE's when kept, else computed (by the workers when
 * there are). NULL with err set on a failure, or with err untouched when a
 * signal cut a worker's read short. Caller frees. */
static rowset *shard_chunk(struct shard_exec *x, uint64_t i, struct cs_error *err)
{
	const struct sweep_run *run = x->run;
	uint64_t k = shard_point(x->sp, i);

	if (is_kept(x->sp, i))
		return resume_take(x->sp->resume, k, err);
	if (x->ws.n > 0)
		return workers_take(&x->ws, x->next_compute++, k, (const char *const *)run->cols, run->ncols, err);
	return run_point(run, k);
}

/* Give the output up after a failure; returns the exit status for err. */
static int shard_fail(struct shard_exec *x, int status)
{
	workers_stop(&x->ws);
	outfile_abort(&x->sink->out);
	return status;
}

/*
 * After SIGINT or SIGTERM: CSV to a file keeps what was finished. A file
 * that existed before a run without --resume (it may hold a finished sweep)
 * is left as it was and the points go to FILE.partial beside it; otherwise
 * FILE gets them (with --resume it keeps every point it held complete, since
 * the kept points are all copied). Returns EXIT_RUNTIME with err set.
 */
static int shard_interrupted(struct shard_exec *x, bool resumed, struct cs_error *err)
{
	struct sink *k = x->sink;
	uint64_t n = x->sp->npoints;
	char *partial = NULL;

	workers_stop(&x->ws);
	if (x->show && x->done > 0 && x->done < n)
		fputc('\n', stderr);
	if (k->format != FORMAT_CSV || !sink_to_file(k)) {
		outfile_abort(&k->out);
		error_runtime(err, "sweep: interrupted after %" PRIu64 " of %" PRIu64 " points", x->done, n);
	} else if (k->existed && !resumed) {
		if (sink_commit_partial(k, &partial, err) == 0)
			error_runtime(err, "sweep: interrupted: '%s' is unchanged; the first %" PRIu64 " of its %" PRIu64
				      " points are in '%s': run the same command with -o '%s' --resume to finish them there",
				      k->path, x->done, n, partial, partial);
		free(partial);
	} else if (outfile_commit(&k->out, err) == 0) {
		error_runtime(err, "sweep: interrupted: '%s' holds %s%" PRIu64 " of its %" PRIu64
			      " points; run the same command with --resume to finish", k->path,
			      x->sp->kept != NULL ? "" : "the first ", x->done, n);
	}
	return EXIT_RUNTIME;
}

/* All points written: reap the workers, write tables and JSON, commit. */
static int shard_complete(struct shard_exec *x, struct cs_error *err)
{
	struct sink *k = x->sink;

	if (x->ws.n > 0 && workers_finish(&x->ws, err) < 0)
		return shard_fail(x, cli_status(err));
	if (k->format != FORMAT_CSV && writer_write(k->out.f, k->all, k->format, k->width) < 0)
		return shard_fail(x, sink_write_error(k, errno, err));
	if (outfile_commit(&k->out, err) < 0)
		return cli_status(err);
	return EXIT_OK;
}

/*
 * Write the shard's points (computed, or taken from the resumed file) in
 * point order to the sink, which this commits or aborts. Returns an exit
 * status. Once interrupted, only kept points are still copied, so that a
 * resumed file never loses one.
 */
static int run_shard(struct sweep_run *run, struct shard_plan *sp, struct sink *sink, uint64_t jobs,
		     bool resumed, struct cs_error *err)
{
	struct shard_exec x = { .run = run, .sp = sp, .sink = sink, .job = { run, sp },
				.show = isatty(STDERR_FILENO) };

	if (jobs > sp->ncompute)
		jobs = sp->ncompute;
	if (jobs > 1 && workers_start(&x.ws, (size_t)jobs, sp->ncompute, compute_job, &x.job, &interrupted, err) < 0)
		return shard_fail(&x, cli_status(err));
	for (uint64_t i = 0; i < sp->npoints; i++) {
		rowset *chunk;
		if (interrupted && !is_kept(sp, i))
			continue;
		chunk = shard_chunk(&x, i, err);
		if (chunk == NULL && interrupted && !is_kept(sp, i))
			continue;
		if (chunk == NULL)
			return shard_fail(&x, cli_status(err));
		if (sink_put(sink, chunk) < 0) {
			int e = errno;
			rowset_free(chunk);
			return shard_fail(&x, sink_write_error(sink, e, err));
		}
		rowset_free(chunk);
		x.done++;
		progress(x.show && !interrupted, x.done, sp->npoints, &x.last);
	}
	if (interrupted)
		return shard_interrupted(&x, resumed, err);
	return shard_complete(&x, err);
}

/* ---- the command --------------------------------------------------------- */

static int parse_count(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (*s == '\0' || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9)
		return -1;
	for (; *s; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

/* "I/N" with 0 <= I < N <= SHARDS_MAX. */
static int parse_shard(const char *arg, uint64_t *i, uint64_t *n)
{
	const char *slash = strchr(arg, '/');
	char head[16];
	if (slash == NULL || (size_t)(slash - arg) >= sizeof head)
		return -1;
	memcpy(head, arg, (size_t)(slash - arg));
	head[slash - arg] = '\0';
	if (parse_count(head, SHARDS_MAX, i) < 0 || parse_count(slash + 1, SHARDS_MAX, n) < 0 ||
	    *n == 0 || *i >= *n)
		return -1;
	return 0;
}

/* --shard's default from a Slurm array task; 0 when not in one. */
static int shard_from_slurm(uint64_t *i, uint64_t *n, struct cs_error *err)
{
	const char *id = getenv("SLURM_ARRAY_TASK_ID");
	const char *count = getenv("SLURM_ARRAY_TASK_COUNT");
	if (id == NULL || count == NULL)
		return 0;
	if (parse_count(count, SHARDS_MAX, n) < 0 || *n == 0) {
		cli_usage_error(err, "sweep", "SLURM_ARRAY_TASK_COUNT='%.40s' is not a shard count from 1 to %d",
				count, SHARDS_MAX);
		return -1;
	}
	if (parse_count(id, SHARDS_MAX, i) < 0 || *i >= *n) {
		cli_usage_error(err, "sweep", "SLURM_ARRAY_TASK_ID='%.40s' is not a shard from 0 to %" PRIu64
				" (submit the array as --array=0-%" PRIu64 ", or give --shard)", id, *n - 1, *n - 1);
		return -1;
	}
	return 0;
}

/* --jobs N into *jobs, or a usage error. */
static int read_jobs(const char *cmd, const char *arg, uint64_t *jobs, struct cs_error *err)
{
	if (parse_count(arg, JOBS_MAX, jobs) < 0 || *jobs == 0)
		return cli_usage_error(err, cmd, "--jobs expects a number from 1 to %d, got '%.40s'", JOBS_MAX, arg);
	return 0;
}

/* --shard I/N into *i and *n, or a usage error. */
static int read_shard(const char *cmd, const char *arg, uint64_t *i, uint64_t *n, struct cs_error *err)
{
	if (parse_shard(arg, i, n) < 0)
		return cli_usage_error(err, cmd, "--shard expects I/N with 0 <= I < N <= %d, got '%.40s'",
				       SHARDS_MAX, arg);
	return 0;
}

static int check_jobs(const char *cmd, const char *arg, struct cs_error *err)
{
	uint64_t jobs;
	return read_jobs(cmd, arg, &jobs, err);
}

static int check_shard(const char *cmd, const char *arg, struct cs_error *err)
{
	uint64_t i, n;
	return read_shard(cmd, arg, &i, &n, err);
}

/* The sweep's own options and the output format, or a usage error. */
static int read_options(const struct cli_call *call, struct shard_plan *sp, uint64_t *jobs,
			enum output_format *format, struct cs_error *err)
{
	const struct cli_options *o = &call->o;
	const char *jobs_arg = cli_value(call, 'j'), *shard_arg = cli_value(call, 'x');
	bool resume = cli_value(call, 'r') != NULL;
	int status;

	if (jobs_arg != NULL && (status = read_jobs("sweep", jobs_arg, jobs, err)) != 0)
		return status;
	if (shard_arg != NULL && (status = read_shard("sweep", shard_arg, &sp->shard, &sp->nshards, err)) != 0)
		return status;
	if (shard_arg == NULL && shard_from_slurm(&sp->shard, &sp->nshards, err) < 0)
		return EXIT_USAGE;
	*format = o->format_given ? o->format : o->output != NULL ? FORMAT_CSV : cli_format(o);
	if (resume && (o->output == NULL || strcmp(o->output, "-") == 0))
		return cli_usage_error(err, "sweep", "--resume needs -o FILE (the results to continue)");
	if (resume && *format != FORMAT_CSV)
		return cli_usage_error(err, "sweep", "--resume works on CSV results, not --format %s",
				       output_format_names[*format]);
	return EXIT_OK;
}

/* A catalog file the base scenario names (relative to it) as -o? */
static int check_base_catalog(const char *output, const char *base_file, const json_t *name,
			      struct cs_error *err)
{
	char path[1024];
	if (!json_is_string(name))
		return 0;
	reader_resolve_relative(base_file, json_string_value(name), path, sizeof path);
	return outfile_check_not_input(output, path, "catalog", err);
}

/* Refuse an -o that names a file the sweep reads: the sweep file, its base
 * scenario, a catalog the base names, a --catalog file. */
static int check_inputs(const struct sweep_run *run, const char *sweep_file, struct cs_error *err)
{
	const char *out = run->o->output, *base = sweep_base_file(run->sw);
	const json_t *cat = json_object_get(sweep_base(run->sw), "catalog");

	if (outfile_check_not_input(out, sweep_file, "sweep file", err) < 0)
		return -1;
	if (strcmp(base, sweep_file) != 0 && outfile_check_not_input(out, base, "base scenario", err) < 0)
		return -1;
	for (size_t i = 0; i < run->o->n_catalogs; i++)
		if (outfile_check_not_input(out, run->o->catalogs[i], "catalog", err) < 0)
			return -1;
	if (check_base_catalog(out, base, cat, err) < 0)
		return -1;
	for (size_t i = 0; json_is_array(cat) && i < json_array_size(cat); i++)
		if (check_base_catalog(out, base, json_array_get(cat, i), err) < 0)
			return -1;
	return 0;
}

/* When no point loads, the base itself (after --set) may be what is wrong:
 * then the sweep is bad input, with the base's message. */
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

/* Read the sweep file into *sw (which the caller frees), apply --set, check
 * -o against the inputs, then the fingerprint, the catalog and the columns. */
static int load_sweep(struct sweep_run *run, const char *sweep_file, sweep **sw, struct cs_error *err)
{
	*sw = sweep_load(sweep_file, err);
	run->sw = *sw;
	if (*sw == NULL)
		return -1;
	for (size_t i = 0; i < run->o->n_sets; i++)
		if (sweep_set_base(*sw, run->o->sets[i].path, run->o->sets[i].value, err) < 0)
			return -1;
	if (check_inputs(run, sweep_file, err) < 0)
		return -1;
	sweep_fingerprint(run, sweep_document(*sw));
	run->cat = cli_catalog(run->o, err);
	if (run->cat == NULL)
		return -1;
	choose_columns(run);
	return check_base(run, err);
}

/* The shard's points, those FILE holds with --resume, and those to compute. */
static int plan_shard(const struct sweep_run *run, struct shard_plan *sp, bool resume, struct cs_error *err)
{
	uint64_t n = sweep_points(run->sw);

	sp->npoints = n > sp->shard ? (n - sp->shard - 1) / sp->nshards + 1 : 0;
	if (resume && plan_resume(run, sp, run->o->output, err) < 0)
		return -1;
	if (sp->kept != NULL)  /* a file with this sweep's header was there */
		fprintf(stderr, "sweep: resuming '%s': kept %" PRIu64 " of %" PRIu64 " points, computing %" PRIu64 "\n",
			run->o->output, sp->nkept, sp->npoints, sp->npoints - sp->nkept);
	sp->compute = xcalloc(sp->npoints - sp->nkept + 1, sizeof *sp->compute);
	for (uint64_t i = 0; i < sp->npoints; i++)
		if (!is_kept(sp, i))
			sp->compute[sp->ncompute++] = i;
	return 0;
}

struct saved_signals {
	struct sigaction sigint, sigterm;
};

/* Catch SIGINT and SIGTERM (Slurm's time limit) before the output exists,
 * so that the points finished when one comes are kept. */
static void catch_signals(struct saved_signals *saved)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &saved->sigint);
	sigaction(SIGTERM, &sa, &saved->sigterm);
}

static void restore_signals(const struct saved_signals *saved)
{
	sigaction(SIGINT, &saved->sigint, NULL);
	sigaction(SIGTERM, &saved->sigterm, NULL);
}

static void sweep_run_release(struct sweep_run *run)
{
	for (size_t c = 0; c < run->ncols; c++)
		free(run->cols[c]);
	free(run->cols);
	catalog_free(run->cat);
}

static int sweep_exec(struct cli_call *call, struct cs_error *err)
{
	const struct cli_options o = call->o;  /* a read-only view; cli_invoke releases it */
	struct sweep_run run = { .o = &o, .dry_run = cli_value(call, 'n') != NULL };
	struct shard_plan sp = { .shard = 0, .nshards = 1 };
	struct sink sink = { 0 };
	struct saved_signals saved;
	bool resume = cli_value(call, 'r') != NULL;
	uint64_t jobs = 1;
	enum output_format format = FORMAT_CSV;
	sweep *sw = NULL;
	int status = read_options(call, &sp, &jobs, &format, err);

	if (status == EXIT_OK &&
	    (load_sweep(&run, call->operands[0], &sw, err) < 0 || plan_shard(&run, &sp, resume, err) < 0))
		status = cli_status(err);
	if (status == EXIT_OK) {
		catch_signals(&saved);
		if (sink_open(&sink, &run, o.output, format, err) < 0)
			status = cli_status(err);
		else  /* run_shard() commits or aborts the output */
			status = run_shard(&run, &sp, &sink, jobs, resume, err);
		restore_signals(&saved);
	}
	rowset_free(sink.all);
	shard_plan_release(&sp);
	sweep_run_release(&run);
	sweep_free(sw);
	return status;
}

static const struct cli_option sweep_options[] = {
	{ .name = "dry-run", .key = 'n' },
	{ .name = "jobs", .key = 'j', .short_too = true, .takes_value = true, .check = check_jobs },
	{ .name = "shard", .key = 'x', .takes_value = true, .check = check_shard },
	{ .name = "resume", .key = 'r' },
	{ .name = NULL },
};

const struct cli_command cli_cmd_sweep = {
	.name = "sweep",
	.summary = "run every point of a sweep file, sharded and in parallel",
	.usage = usage_text,
	.common = CLI_FORMAT | CLI_OUTPUT | CLI_SET | CLI_SEED | CLI_CATALOG,
	.options = sweep_options,
	.operands = { .min = 1, .max = 1, .name = "SWEEP.json" },
	.load = CLI_LOAD_NOTHING,
	.exec = sweep_exec,
};
