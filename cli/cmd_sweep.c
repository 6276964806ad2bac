/*
 * clustersim sweep: every point of a sweep file through the runner, as one
 * result table with a row_id per point.
 *
 * The points of shard I/N are those with k mod N == I. With --jobs J the
 * points left to compute are jobs of a pool of J forked workers (workers.h),
 * taken back in point order, so the output bytes do not depend on J. CSV is
 * written as the points arrive; tables and JSON at the end.
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
#include "models/scenario/sweep.h"
#include "output/csvtable.h"
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
	"  --resume       keep the complete rows of this shard already in -o FILE, compute the\n"
	"                 rest, and rewrite FILE with exactly what a fresh run writes (CSV only)\n"
	"  --set PATH=VALUE  override a field of the base scenario before the axes apply\n"
	"  --seed N       replace every point's seed\n"
	"  --catalog FILE merge a user's catalog file first\n"
	"  --dry-run      each candidate's shape and price only, as run --dry-run\n"
	"  --format F     table (on a terminal), csv (otherwise, and for -o FILE) or json\n"
	"  -o, --output FILE  write results to FILE (atomically; CSV unless --format says otherwise)\n"
	"  -h, --help     print this help\n"
	"Interrupted (SIGINT, SIGTERM) with -o FILE and CSV output, it writes the points finished\n"
	"so far to FILE and exits 1; --resume then finishes the shard.\n";

#define JOBS_MAX 1024
#define SHARDS_MAX 1000000

static const char *const head_columns[] = {
	"scenario", "candidate", "row_id", "seed", "status", "reason"
};

struct sweep_run {
	const sweep *sw;
	const struct cli_options *o;
	catalog *cat;            /* built-in + --catalog: points without a catalog of their own */
	bool dry_run;
	char **cols;             /* result columns, then one set:PATH per varied path */
	size_t ncols, nresult;
	uint64_t cols_point;     /* the point that gave the result columns, or UINT64_MAX */
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
	catalog *cat = run->cat;
	int rc;

	*fresh = NULL;
	if (doc_out != NULL)
		*doc_out = NULL;
	memset(s, 0, sizeof *s);
	if (doc == NULL)
		return -1;
	if (json_object_get(doc, "catalog") != NULL) {
		cat = *fresh = cli_catalog(run->o, err);
		if (cat == NULL) {
			json_decref(doc);
			return -1;
		}
	}
	rc = scenario_from_json(doc, sweep_base_file(run->sw), cat, s, err);
	if (rc == 0 && run->o->seed >= 0)
		s->seed = (uint64_t)run->o->seed;
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

/* Fill the set:PATH cells of row `row` with point k's values. */
static void put_values(const struct sweep_run *run, rowset *chunk, size_t row, uint64_t k)
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
	put_values(run, chunk, rowset_nrows(chunk) - 1, k);
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
	json_t *doc;
	rowset *rs;

	error_clear(&err);
	if (point_load(run, k, &s, &fresh, &doc, &err) < 0) {
		struct scenario head;
		fallback_head(run, doc, &head);
		status_row(run, chunk, &head, k, err.kind == ERROR_RUNTIME ? "error" : "invalid", err.msg);
		json_decref(doc);
		catalog_free(fresh);
		return chunk;
	}
	rs = runner_columns(&s, &ro);
	if (!same_columns(rs, run->cols, run->nresult)) {
		char reason[256];
		snprintf(reason, sizeof reason,
			 "its result columns differ from those of point %" PRIu64 " (workload.kind \"%s\"): a sweep cannot mix workload kinds",
			 run->cols_point, workload_kind_names[s.workload.kind]);
		status_row(run, chunk, &s, k, "invalid", reason);
	} else if (runner_run(&s, &ro, rs, &err) < 0) {
		status_row(run, chunk, &s, k, err.kind == ERROR_INPUT ? "invalid" : "error", err.msg);
	} else {
		for (size_t r = 0; r < rowset_nrows(rs); r++) {
			size_t row = rowset_add_row(chunk);
			for (size_t c = 0; c < run->nresult; c++)
				rowset_copy_cell(chunk, row, c, rs, r, c);
			put_values(run, chunk, row, k);
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
 * when none does. Then set:PATH for each varied path.
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
	run->ncols = run->nresult + npaths;
	run->cols = xcalloc(run->ncols, sizeof *run->cols);
	for (size_t c = 0; c < run->nresult; c++)
		run->cols[c] = xstrdup(rs != NULL ? rowset_column(rs, c) : head_columns[c]);
	for (size_t i = 0; i < npaths; i++)
		run->cols[run->nresult + i] = xasprintf("set:%s", sweep_path(run->sw, i));
	rowset_free(rs);
}

/* ---- the shard ----------------------------------------------------------- */

struct shard_plan {
	uint64_t shard, nshards;
	uint64_t npoints;        /* points of this shard: k = shard + i * nshards */
	/* With --resume: the rows kept for point i are kept_rows[kept_at[i] ..
	 * kept_at[i + 1]), indexes into `resume`'s rows. */
	struct csvtable resume;
	size_t *kept_at;
	size_t *kept_rows;
	uint64_t nkept;
	uint64_t *compute;       /* shard indexes to compute, ascending */
	uint64_t ncompute;
};

static uint64_t shard_point(const struct shard_plan *sp, uint64_t i)
{
	return sp->shard + i * sp->nshards;
}

static bool is_kept(const struct shard_plan *sp, uint64_t i)
{
	return sp->kept_at != NULL && sp->kept_at[i + 1] > sp->kept_at[i];
}

static void shard_plan_release(struct shard_plan *sp)
{
	csvtable_release(&sp->resume);
	free(sp->kept_at);
	free(sp->kept_rows);
	free(sp->compute);
}

/*
 * Read FILE for --resume and decide which points of the shard it already
 * holds: every row of the point complete (all fields, a final newline) and
 * in this shard. The point with the highest row_id in the file is computed
 * again, since the file may end exactly after some of its rows.
 */
static int plan_resume(const struct sweep_run *run, struct shard_plan *sp, const char *file,
		       struct cs_error *err)
{
	struct csvtable *t = &sp->resume;
	unsigned char *state;  /* per shard index: 0 absent, 1 complete, 2 to compute */
	uint64_t maxk = 0;
	bool any = false;
	size_t id_col = 2;     /* row_id is the third of the leading columns */
	struct stat st;

	if (stat(file, &st) != 0 && errno == ENOENT)
		return 0;
	if (csvtable_load(t, file, CSVTABLE_SALVAGE, "results", err) < 0)
		return -1;
	if (t->header == NULL)
		return 0;
	if (t->ncols != run->ncols) {
		return error_set(err, "sweep: --resume: '%s' has %zu columns, this sweep writes %zu: it holds other results (remove it or choose another -o)",
				 file, t->ncols, run->ncols);
	}
	for (size_t c = 0; c < t->ncols; c++) {
		if (strcmp(t->header[c], run->cols[c]) != 0) {
			char qa[96], qb[96];
			text_quote(t->header[c], qa, sizeof qa);
			text_quote(run->cols[c], qb, sizeof qb);
			return error_set(err, "sweep: --resume: '%s': column %zu is %s, this sweep writes %s: it holds other results (remove it or choose another -o)",
					 file, c + 1, qa, qb);
		}
	}
	state = xcalloc(sp->npoints ? sp->npoints : 1, 1);
	sp->kept_at = xcalloc(sp->npoints + 1, sizeof *sp->kept_at);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct csvtable_row *row = &t->rows[r];
		uint64_t k;
		if (row->ncells <= id_col || !csvtable_row_id(row->cells[id_col], &k))
			continue;
		if (!any || k > maxk)
			maxk = k;
		any = true;
		if (k >= sweep_points(run->sw) || k % sp->nshards != sp->shard)
			continue;
		uint64_t i = k / sp->nshards;
		if (row->terminated && row->ncells == t->ncols && state[i] != 2) {
			state[i] = 1;
			sp->kept_at[i + 1]++;
		} else {
			state[i] = 2;
		}
	}
	if (any && maxk < sweep_points(run->sw) && maxk % sp->nshards == sp->shard)
		state[maxk / sp->nshards] = 2;
	/* Counts to offsets, then the rows of each kept point in file order. */
	for (uint64_t i = 0; i < sp->npoints; i++) {
		if (state[i] != 1)
			sp->kept_at[i + 1] = 0;
		else
			sp->nkept++;
		sp->kept_at[i + 1] += sp->kept_at[i];
	}
	sp->kept_rows = xcalloc(sp->kept_at[sp->npoints] + 1, sizeof *sp->kept_rows);
	{
		size_t *fill = xcalloc(sp->npoints + 1, sizeof *fill);
		for (size_t r = 0; r < t->nrows; r++) {
			const struct csvtable_row *row = &t->rows[r];
			uint64_t k;
			if (row->ncells <= id_col || !csvtable_row_id(row->cells[id_col], &k) ||
			    k >= sweep_points(run->sw) || k % sp->nshards != sp->shard)
				continue;
			uint64_t i = k / sp->nshards;
			if (state[i] == 1)
				sp->kept_rows[sp->kept_at[i] + fill[i]++] = r;
		}
		free(fill);
	}
	free(state);
	return 0;
}

static rowset *kept_chunk(const struct sweep_run *run, const struct shard_plan *sp, uint64_t i)
{
	rowset *chunk = rowset_new_n((const char *const *)run->cols, run->ncols);
	for (size_t j = sp->kept_at[i]; j < sp->kept_at[i + 1]; j++) {
		const struct csvtable_row *row = &sp->resume.rows[sp->kept_rows[j]];
		size_t r = rowset_add_row(chunk);
		for (size_t c = 0; c < run->ncols; c++)
			if (row->cells[c][0] != '\0')
				rowset_set_text(chunk, r, c, row->cells[c]);
	}
	return chunk;
}

/* ---- output -------------------------------------------------------------- */

struct sink {
	struct outfile out;
	enum output_format format;
	int width;
	rowset *all;             /* table and JSON: everything, written at the end */
	size_t header_len;       /* CSV: bytes of the header line writer_csv() writes */
};

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

static int sink_open(struct sink *k, const struct sweep_run *run, const char *path,
		     enum output_format format, struct cs_error *err)
{
	rowset *empty = rowset_new_n((const char *const *)run->cols, run->ncols);
	int rc = 0;

	k->format = format;
	k->width = path == NULL || strcmp(path, "-") == 0 ? cli_table_width() : 0;
	if (outfile_open(&k->out, path, err) < 0) {
		rowset_free(empty);
		return -1;
	}
	if (format != FORMAT_CSV) {
		k->all = empty;
		return 0;
	}
	/* The header as writer_csv() writes it, measured so that sink_put()
	 * can skip it in each chunk's output. */
	char *buf = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&buf, &size);
	if (mem == NULL || writer_csv(mem, empty) < 0)
		rc = -1;
	if (mem != NULL && fclose(mem) != 0)
		rc = -1;
	if (rc == 0) {
		k->header_len = size;
		if (fwrite(buf, 1, size, k->out.f) != size)
			rc = -1;
	}
	free(buf);
	rowset_free(empty);
	if (rc < 0) {
		int e = errno;
		outfile_abort(&k->out);
		return error_runtime(err, "cannot write %s%s%s: %s", path ? "'" : "",
				     path ? path : "standard output", path ? "'" : "", strerror(e ? e : EIO));
	}
	return 0;
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

/*
 * Compute the shard's points (or take them from the resumed file) in point
 * order and write them to the sink, which this commits or aborts. Returns an
 * exit status. Interrupted with CSV going to a file, it commits the points
 * finished so far, for --resume.
 */
static int run_shard(struct sweep_run *run, struct shard_plan *sp, struct sink *sink, uint64_t jobs,
		     const char *output, struct cs_error *err)
{
	struct workers ws = { 0 };
	uint64_t done = 0, next_compute = 0;
	bool show = isatty(STDERR_FILENO);
	bool to_file = output != NULL && strcmp(output, "-") != 0;
	double last = 0;
	int e;

	if (jobs > sp->ncompute)
		jobs = sp->ncompute;
	struct shard_job job = { run, sp };
	if (jobs > 1 && workers_start(&ws, (size_t)jobs, sp->ncompute, compute_job, &job, &interrupted, err) < 0) {
		outfile_abort(&sink->out);
		return cli_status(err);
	}
	for (uint64_t i = 0; i < sp->npoints && !interrupted; i++) {
		rowset *chunk;
		if (is_kept(sp, i)) {
			chunk = kept_chunk(run, sp, i);
		} else if (ws.n > 0) {
			chunk = workers_take(&ws, next_compute++, shard_point(sp, i),
					     (const char *const *)run->cols, run->ncols, err);
			if (chunk == NULL && interrupted)
				break;
			if (chunk == NULL) {
				workers_stop(&ws);
				outfile_abort(&sink->out);
				return cli_status(err);
			}
		} else {
			chunk = run_point(run, shard_point(sp, i));
		}
		if (sink_put(sink, chunk) < 0) {
			rowset_free(chunk);
			goto write_failed;
		}
		rowset_free(chunk);
		done++;
		progress(show, done, sp->npoints, &last);
	}
	if (interrupted) {
		workers_stop(&ws);
		if (show && done > 0 && done < sp->npoints)
			fputc('\n', stderr);
		if (sink->format != FORMAT_CSV || !to_file) {
			outfile_abort(&sink->out);
			error_runtime(err, "sweep: interrupted after %" PRIu64 " of %" PRIu64 " points", done,
				      sp->npoints);
			return EXIT_RUNTIME;
		}
		if (outfile_commit(&sink->out, err) < 0)
			return cli_status(err);
		error_runtime(err, "sweep: interrupted: '%s' holds the first %" PRIu64 " of its %" PRIu64
			      " points; run the same command with --resume to finish", output, done, sp->npoints);
		return EXIT_RUNTIME;
	}
	if (ws.n > 0 && workers_finish(&ws, err) < 0) {
		outfile_abort(&sink->out);
		return cli_status(err);
	}
	if (sink->format != FORMAT_CSV && writer_write(sink->out.f, sink->all, sink->format, sink->width) < 0)
		goto write_failed;
	if (outfile_commit(&sink->out, err) < 0)
		return cli_status(err);
	return EXIT_OK;

write_failed:
	e = errno;
	workers_stop(&ws);
	outfile_abort(&sink->out);
	if (to_file)
		error_runtime(err, "cannot write '%s': %s", output, strerror(e ? e : EIO));
	else
		error_runtime(err, "cannot write standard output: %s", strerror(e ? e : EIO));
	return EXIT_RUNTIME;
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

static int sweep_exec(struct cli_call *call, struct cs_error *err)
{
	const struct cli_options o = call->o;  /* a read-only view; cli_invoke releases it */
	struct sweep_run run = { .dry_run = cli_value(call, 'n') != NULL };
	struct shard_plan sp = { .shard = 0, .nshards = 1 };
	struct sink sink = { 0 };
	struct sigaction sa, old_int, old_term;
	const char *jobs_arg = cli_value(call, 'j'), *shard_arg = cli_value(call, 'x');
	bool resume = cli_value(call, 'r') != NULL, shard_given = shard_arg != NULL, handlers = false;
	uint64_t jobs = 1;
	enum output_format format;
	sweep *sw = NULL;
	const char *sweep_file = call->operands[0];
	int status = EXIT_OK;

	if ((jobs_arg != NULL && (status = read_jobs("sweep", jobs_arg, &jobs, err)) != 0) ||
	    (shard_given && (status = read_shard("sweep", shard_arg, &sp.shard, &sp.nshards, err)) != 0))
		return status;
	if (!shard_given && shard_from_slurm(&sp.shard, &sp.nshards, err) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	format = o.format_given ? o.format : o.output != NULL ? FORMAT_CSV : cli_format(&o);
	if (resume && (o.output == NULL || strcmp(o.output, "-") == 0)) {
		status = cli_usage_error(err, "sweep", "--resume needs -o FILE (the results to continue)");
		goto out;
	}
	if (resume && format != FORMAT_CSV) {
		status = cli_usage_error(err, "sweep", "--resume works on CSV results, not --format %s",
					 output_format_names[format]);
		goto out;
	}

	sw = sweep_load(sweep_file, err);
	if (sw == NULL) {
		status = cli_status(err);
		goto out;
	}
	for (size_t i = 0; i < o.n_sets; i++) {
		if (sweep_set_base(sw, o.sets[i].path, o.sets[i].value, err) < 0) {
			status = cli_status(err);
			goto out;
		}
	}
	run.sw = sw;
	run.o = &o;
	run.cat = cli_catalog(&o, err);
	if (run.cat == NULL) {
		status = cli_status(err);
		goto out;
	}
	choose_columns(&run);

	sp.npoints = sweep_points(sw) > sp.shard ? (sweep_points(sw) - sp.shard - 1) / sp.nshards + 1 : 0;
	if (resume) {
		if (plan_resume(&run, &sp, o.output, err) < 0) {
			status = cli_status(err);
			goto out;
		}
		if (sp.kept_at != NULL)  /* a file with this sweep's header was there */
			fprintf(stderr, "sweep: resuming '%s': kept %" PRIu64 " of %" PRIu64 " points, computing %" PRIu64 "\n",
				o.output, sp.nkept, sp.npoints, sp.npoints - sp.nkept);
	}
	sp.compute = xcalloc(sp.npoints - sp.nkept + 1, sizeof *sp.compute);
	for (uint64_t i = 0; i < sp.npoints; i++)
		if (!is_kept(&sp, i))
			sp.compute[sp.ncompute++] = i;

	/* Catch SIGINT and SIGTERM (Slurm's time limit) before the output
	 * exists, so that the points finished when one comes are kept. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	handlers = true;

	if (sink_open(&sink, &run, o.output, format, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	/* From here run_shard() commits or aborts the output. */
	status = run_shard(&run, &sp, &sink, jobs, o.output, err);

out:
	if (handlers) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	rowset_free(sink.all);
	shard_plan_release(&sp);
	for (size_t c = 0; c < run.ncols; c++)
		free(run.cols[c]);
	free(run.cols);
	catalog_free(run.cat);
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
