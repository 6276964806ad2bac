/*
 * clustersim sweep: every point of a sweep file through the runner, as one
 * result table with a row_id per point. The command: its options, the shard
 * it runs, the progress line and the signals that stop it.
 *
 * The points of shard I/N are those with k mod N == I. With --jobs J the
 * points left to compute are jobs of a pool of J forked workers (workers.h),
 * taken back in point order, so the output bytes do not depend on J. A
 * point's rows come from sweep_point, or with --resume from -o FILE and its
 * journal FILE.partial (sweep_resume); they go to sweep_sink, which writes
 * CSV to the journal point by point, so that a kill loses no finished
 * point. Every row ends with the sweep's fingerprint (sweep_fingerprint).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep/sweep_point.h"
#include "cli/sweep/sweep_resume.h"
#include "cli/sweep/sweep_run.h"
#include "cli/sweep/sweep_shard.h"
#include "cli/sweep/sweep_sink.h"
#include "cli/workers.h"
#include "output/outfile.h"
#include "util/xalloc.h"

static const char usage_text[] =
	"usage: clustersim sweep SWEEP.json [--jobs N] [--shard I/N] [--resume] [-o FILE]\n"
	"                        [--format table|csv|json|jsonl] [--set PATH=VALUE]... [--seed N]\n"
	"                        [--catalog FILE]... [--dry-run] [--columns LIST]\n\n"
	"Runs every point of a sweep file (a base scenario and the values of --set paths to\n"
	"combine) and prints their result rows; every row of point k has row_id k, and one\n"
	"column per varied path (set:PATH) holds the point's value. A point whose scenario is\n"
	"invalid becomes a row with status invalid and the reason; the sweep goes on.\n"
	"  --jobs N       compute with N worker processes (the output does not depend on N)\n"
	"  --shard I/N    run only the points k with k mod N = I (default: from an array task's\n"
	"                 index and count, said on standard error: SLURM_ARRAY_TASK_ID and\n"
	"                 SLURM_ARRAY_TASK_COUNT, JOB_COMPLETION_INDEX and JOB_COMPLETIONS (a\n"
	"                 Kubernetes Indexed Job; the manifest sets JOB_COMPLETIONS to its\n"
	"                 completions), AWS_BATCH_JOB_ARRAY_INDEX and AWS_BATCH_JOB_ARRAY_SIZE,\n"
	"                 BATCH_TASK_INDEX and BATCH_TASK_COUNT (Google Cloud Batch),\n"
	"                 CLOUD_RUN_TASK_INDEX and CLOUD_RUN_TASK_COUNT); --shard none runs every\n"
	"                 point even inside an array\n"
	"  --resume       keep the points of this shard that -o FILE holds complete (FILE must\n"
	"                 be this sweep's CSV: its header and sweep_fingerprint), compute the\n"
	"                 rest, and rewrite FILE with exactly what a fresh run writes (CSV only)\n"
	"  --set PATH=VALUE  override a field of the base scenario before the axes apply\n"
	"  --seed N       replace every point's seed\n"
	"  --catalog FILE merge a user's catalog file first\n"
	"  --dry-run      each candidate's shape and price only, as run --dry-run\n"
	"  --format F     table (on a terminal), csv (otherwise, and for -o FILE), json, or\n"
	"                 jsonl (one object a line, written as the points finish, like csv)\n"
	"  --columns a,b,c  write only these columns (set:PATH and sweep_fingerprint too), in\n"
	"                 this order; all: every column; help: list them with their units\n"
	"  -o, --output FILE  write results to FILE (atomically; CSV unless --format says otherwise)\n"
	"  -h, --help     print this help\n"
	"The last column, sweep_fingerprint, says what the rows were computed from (the inputs,\n"
	"options and the contents of every catalog and trace the points read).\n"
	"CSV to -o FILE goes to FILE.partial as each point finishes (synced to disk at most once\n"
	"a second) and becomes FILE at the end, so a run killed in any way (SIGKILL too) keeps its\n"
	"finished points there: --resume reads FILE and FILE.partial and computes only the rest.\n"
	"Interrupted (SIGINT, SIGTERM), it writes the points finished so far to FILE and exits 1;\n"
	"--resume then finishes the shard. A FILE that existed before a run without --resume is\n"
	"left as it was: the points finished stay in FILE.partial.\n";

#define JOBS_MAX 1024

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* ---- the shard ----------------------------------------------------------- */

/* What --resume reads: FILE, then its journal FILE.partial (which a run
 * that was killed or interrupted left). */
enum { RESUME_FILES = 2 };

struct shard_plan {
	uint64_t shard, nshards;
	uint64_t npoints;        /* points of this shard: k = shard + i * nshards */
	/* with --resume: FILE and FILE.partial, each holding some points
	 * complete, or NULL */
	struct sweep_resume *resume[RESUME_FILES];
	char *journal;           /* FILE.partial's name, or NULL */
	uint64_t nkept;
	uint64_t *compute;       /* shard indexes to compute, ascending */
	uint64_t ncompute;
};

static uint64_t shard_point(const struct shard_plan *sp, uint64_t i)
{
	return sp->shard + i * sp->nshards;
}

/* The reader that holds shard index i complete, or NULL. */
static struct sweep_resume *kept_by(const struct shard_plan *sp, uint64_t i)
{
	for (size_t r = 0; r < RESUME_FILES; r++)
		if (sweep_resume_kept(sp->resume[r], i))
			return sp->resume[r];
	return NULL;
}

static bool is_kept(const struct shard_plan *sp, uint64_t i)
{
	return kept_by(sp, i) != NULL;
}

/* "'FILE'", "'FILE.partial'" or "'FILE' and 'FILE.partial'": what was resumed. */
static void resumed_names(const struct shard_plan *sp, const char *file, char *buf, size_t size)
{
	if (sp->resume[0] != NULL && sp->resume[1] != NULL)
		snprintf(buf, size, "'%s' and '%s'", file, sp->journal);
	else
		snprintf(buf, size, "'%s'", sp->resume[0] != NULL ? file : sp->journal);
}

/* The shard's points, those FILE and FILE.partial hold with --resume, and
 * those to compute. */
static int plan_shard(const struct sweep_run *run, struct shard_plan *sp, bool resume, struct cs_error *err)
{
	uint64_t n = sweep_points(run->sw);

	sp->npoints = n > sp->shard ? (n - sp->shard - 1) / sp->nshards + 1 : 0;
	if (resume) {
		struct sweep_resume_shard sh = { sp->shard, sp->nshards, sp->npoints };
		sp->journal = outfile_journal_name(run->o->output);
		if (sweep_resume_open(run, &sh, run->o->output, &sp->resume[0], err) < 0 ||
		    (sp->journal != NULL && sweep_resume_open(run, &sh, sp->journal, &sp->resume[1], err) < 0))
			return -1;
	}
	for (uint64_t i = 0; i < sp->npoints; i++)
		sp->nkept += is_kept(sp, i);
	if (sp->resume[0] != NULL || sp->resume[1] != NULL) {  /* a file with this sweep's header was there */
		char names[2 * 1024];
		resumed_names(sp, run->o->output, names, sizeof names);
		fprintf(stderr, "sweep: resuming %s: kept %" PRIu64 " of %" PRIu64 " points, computing %" PRIu64 "\n",
			names, sp->nkept, sp->npoints, sp->npoints - sp->nkept);
	}
	sp->compute = xcalloc(sp->npoints - sp->nkept + 1, sizeof *sp->compute);
	for (uint64_t i = 0; i < sp->npoints; i++)
		if (!is_kept(sp, i))
			sp->compute[sp->ncompute++] = i;
	return 0;
}

static void shard_plan_release(struct shard_plan *sp)
{
	for (size_t r = 0; r < RESUME_FILES; r++)
		sweep_resume_free(sp->resume[r]);
	free(sp->journal);
	free(sp->compute);
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
	return sweep_point_rows(job->run, shard_point(job->sp, job->sp->compute[j]));
}

/* The shard being run: where its points come from and how far it got. */
struct shard_exec {
	struct sweep_run *run;
	struct shard_plan *sp;
	struct sweep_sink *sink;
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
		return sweep_resume_take(kept_by(x->sp, i), k, err);
	if (x->ws.n > 0)
		return workers_take(&x->ws, x->next_compute++, k, (const char *const *)run->cols, run->ncols, err);
	return sweep_point_rows(run, k);
}

/* Say in err, after its message, where the points written so far are and
 * how to finish: `journal` holds them; FILE too when it was not there
 * before (or was resumed), else only -o journal --resume continues them. */
static void add_resume_hint(struct cs_error *err, const struct shard_exec *x, const char *journal, bool resumed)
{
	bool elsewhere = x->sink->existed && !resumed;
	/* whole paths (a cut one would name another file); a message past
	 * ERROR_MSG_MAX ends with util/text.h's mark */
	char *msg = xasprintf("%s; the %" PRIu64 " points written are in '%s': run the same command with %s%s%s--resume to finish",
			      err->msg, x->done, journal, elsewhere ? "-o '" : "", elsewhere ? journal : "", elsewhere ? "' " : "");
	if (err->kind == ERROR_INPUT)
		error_set(err, "%s", msg);
	else
		error_runtime(err, "%s", msg);
	free(msg);
}

/* Give the output up after a failure (err says why); returns status. The
 * points written to the journal (FILE.partial) stay there for --resume,
 * and err says so. */
static int shard_fail(struct shard_exec *x, int status, bool resumed, struct cs_error *err)
{
	struct sweep_sink *k = x->sink;
	char *kept = NULL;
	struct cs_error keep_err;

	workers_stop(&x->ws);
	error_clear(&keep_err);
	if (!k->journal || x->done == 0)
		sweep_sink_abort(k);
	else if (sweep_sink_commit_partial(k, &kept, &keep_err) == 0)
		add_resume_hint(err, x, kept, resumed);
	free(kept);
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
	struct sweep_sink *k = x->sink;
	uint64_t n = x->sp->npoints;
	char *partial = NULL;

	workers_stop(&x->ws);
	if (x->show && x->done > 0 && x->done < n)
		fputc('\n', stderr);
	if (k->format != FORMAT_CSV || !sweep_sink_replaces(k)) {
		sweep_sink_abort(k);
		error_runtime(err, "sweep: interrupted after %" PRIu64 " of %" PRIu64 " points", x->done, n);
	} else if (k->existed && !resumed) {
		if (sweep_sink_commit_partial(k, &partial, err) == 0)
			error_runtime(err, "sweep: interrupted: '%s' is unchanged; the first %" PRIu64 " of its %" PRIu64
				      " points are in '%s': run the same command with -o '%s' --resume to finish them there",
				      k->path, x->done, n, partial, partial);
		free(partial);
	} else if (sweep_sink_finish(k, err) == 0) {
		error_runtime(err, "sweep: interrupted: '%s' holds %s%" PRIu64 " of its %" PRIu64
			      " points; run the same command with --resume to finish", k->path,
			      x->sp->resume[0] != NULL || x->sp->resume[1] != NULL ? "" : "the first ", x->done, n);
	}
	return EXIT_RUNTIME;
}

/* All points written: reap the workers, write tables and JSON, commit. */
static int shard_complete(struct shard_exec *x, bool resumed, struct cs_error *err)
{
	if (x->ws.n > 0 && workers_finish(&x->ws, err) < 0)
		return shard_fail(x, cli_status(err), resumed, err);
	if (sweep_sink_finish(x->sink, err) < 0)  /* the workers are reaped */
		return cli_status(err);
	return EXIT_OK;
}

/*
 * Write the shard's points (computed, or taken from the resumed file) in
 * point order to the sink, which this commits or aborts. Returns an exit
 * status. Once interrupted, only kept points are still copied, so that a
 * resumed file never loses one.
 */
static int run_shard(struct sweep_run *run, struct shard_plan *sp, struct sweep_sink *sink, uint64_t jobs,
		     bool resumed, struct cs_error *err)
{
	struct shard_exec x = { .run = run, .sp = sp, .sink = sink, .job = { run, sp },
				.show = isatty(STDERR_FILENO) };

	if (jobs > sp->ncompute)
		jobs = sp->ncompute;
	if (jobs > 1 && workers_start(&x.ws, (size_t)jobs, sp->ncompute, compute_job, &x.job, &interrupted, err) < 0)
		return shard_fail(&x, cli_status(err), resumed, err);
	for (uint64_t i = 0; i < sp->npoints; i++) {
		rowset *chunk;
		if (interrupted && !is_kept(sp, i))
			continue;
		chunk = shard_chunk(&x, i, err);
		if (chunk == NULL && interrupted && !is_kept(sp, i))
			continue;
		if (chunk == NULL)
			return shard_fail(&x, cli_status(err), resumed, err);
		if (sweep_sink_put(sink, chunk) < 0) {
			int e = errno;
			rowset_free(chunk);
			return shard_fail(&x, sweep_sink_write_error(sink, e, err), resumed, err);
		}
		rowset_free(chunk);
		x.done++;
		progress(x.show && !interrupted, x.done, sp->npoints, &x.last);
	}
	if (interrupted)
		return shard_interrupted(&x, resumed, err);
	return shard_complete(&x, resumed, err);
}

/* ---- the command --------------------------------------------------------- */

/* --jobs N into *jobs, or a usage error. */
static int read_jobs(const char *cmd, const char *arg, uint64_t *jobs, struct cs_error *err)
{
	if (sweep_shard_parse_count(arg, JOBS_MAX, jobs) < 0 || *jobs == 0)
		return cli_usage_error(err, cmd, "--jobs expects a number from 1 to %d, got '%.40s'", JOBS_MAX, arg);
	return 0;
}

/* --shard I/N (or "none": the whole sweep, whatever a scheduler says) into
 * *i and *n, or a usage error. */
static int read_shard(const char *cmd, const char *arg, uint64_t *i, uint64_t *n, struct cs_error *err)
{
	struct sweep_shard sh;
	if (sweep_shard_parse(arg, &sh) < 0)
		return cli_usage_error(err, cmd, "--shard expects I/N with 0 <= I < N <= %d, or none, got '%.40s'",
				       SWEEP_SHARDS_MAX, arg);
	*i = sh.index;
	*n = sh.count;
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
	if (shard_arg == NULL) {
		struct sweep_shard sh;
		char said[256];
		int from_env = sweep_shard_from_env(sweep_shard_getenv, NULL, &sh, said, sizeof said, err);
		if (from_env < 0)
			return EXIT_USAGE;
		/* said aloud: several sweeps run as one array's tasks would each
		 * silently get a slice otherwise */
		if (from_env > 0) {
			sp->shard = sh.index;
			sp->nshards = sh.count;
			fprintf(stderr, "sweep: shard %" PRIu64 "/%" PRIu64 " from %s (--shard none runs every point)\n",
				sp->shard, sp->nshards, said);
		}
	}
	*format = o->format_given ? o->format : o->output != NULL ? FORMAT_CSV : cli_format(o);
	if (resume && (o->output == NULL || strcmp(o->output, "-") == 0))
		return cli_usage_error(err, "sweep", "--resume needs -o FILE (the results to continue)");
	if (resume && o->columns != NULL && !cli_columns_help(o))
		return cli_usage_error(err, "sweep", "--resume keeps whole rows: it does not take --columns");
	if (resume && *format != FORMAT_CSV)
		return cli_usage_error(err, "sweep", "--resume works on CSV results, not --format %s",
				       output_format_names[*format]);
	return EXIT_OK;
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

static int sweep_exec(struct cli_call *call, struct cs_error *err)
{
	const struct cli_options o = call->o;  /* a read-only view; cli_invoke releases it */
	struct sweep_run run = { .o = &o, .dry_run = cli_value(call, 'n') != NULL };
	struct shard_plan sp = { .shard = 0, .nshards = 1 };
	struct sweep_sink sink = { 0 };
	struct saved_signals saved;
	bool resume = cli_value(call, 'r') != NULL;
	uint64_t jobs = 1;
	enum output_format format = FORMAT_CSV;
	int status = read_options(call, &sp, &jobs, &format, err);

	if (status == EXIT_OK &&
	    (sweep_run_load(&run, call->operands[0], err) < 0 || sweep_point_columns(&run, err) < 0))
		status = cli_status(err);
	if (status == EXIT_OK && cli_columns_help(&o)) {  /* the columns, no point computed */
		rowset *empty = sweep_run_rowset(&run);
		if (cli_print_columns(stdout, empty) < 0) {
			error_runtime(err, "cannot write standard output: %s", strerror(errno ? errno : EIO));
			status = EXIT_RUNTIME;
		}
		rowset_free(empty);
		sweep_run_release(&run);
		return status;
	}
	if (status == EXIT_OK && plan_shard(&run, &sp, resume, err) < 0)
		status = cli_status(err);
	if (status == EXIT_OK) {
		catch_signals(&saved);
		if (sweep_sink_open(&sink, &run, o.output, format, o.columns, err) < 0)
			status = cli_status(err);
		else  /* run_shard() commits or aborts the output */
			status = run_shard(&run, &sp, &sink, jobs, resume, err);
		restore_signals(&saved);
	}
	sweep_sink_release(&sink);
	shard_plan_release(&sp);
	sweep_run_release(&run);
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
	.common = CLI_FORMAT | CLI_OUTPUT | CLI_SET | CLI_SEED | CLI_CATALOG | CLI_COLUMNS,
	.options = sweep_options,
	.operands = { .min = 1, .max = 1, .name = "SWEEP.json" },
	.load = CLI_LOAD_NOTHING,
	.exec = sweep_exec,
};
