/* clustersim plot: a chart of result rows as a gnuplot script, rendered by gnuplot. */
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "output/csvtable.h"
#include "output/gpquote.h"
#include "output/outfile.h"
#include "output/plot.h"
#include "util/xalloc.h"

extern char **environ;

static const char usage_text[] =
	"usage: clustersim plot RESULTS.csv --chart KIND [-o FILE.png|FILE.svg] [--deadline-h H]\n"
	"                       [--budget-usd D] [--slo-ttft-ms MS] [--slo-tpot-ms MS]\n"
	"                       [--x COLUMN] [--y COLUMN[,COLUMN...]] [--group COLUMN]\n"
	"                       [--color-by provider|price_type] [--xlabel TEXT] [--ylabel TEXT]\n"
	"                       [--script-only]\n\n"
	"Charts the CSV results of run, sweep or plan: writes a gnuplot script with the data\n"
	"inline beside the image (FILE.gp for FILE.png), then runs gnuplot on it (pngcairo or svg\n"
	"by the extension; 1600 x 1000 pixels, an 18-point font). Only rows with status ok are\n"
	"drawn; a point equal to an earlier one is drawn once. KIND is one of:\n"
	"  pareto     wall_time_p50_h against cost_usd_p50, one colour per gpu, each point\n"
	"             labelled by candidate, the Pareto front (no other point faster and cheaper)\n"
	"             joined; --deadline-h and --budget-usd draw those lines\n"
	"  breakdown  one stacked bar per candidate: the frac_ columns, where held GPU time goes\n"
	"  scaling    tokens_per_s (or throughput_tok_s) against gpus, one line per gpu through\n"
	"             its best point at each count, with ideal linear scaling from its smallest\n"
	"             count (1/GPUs for a time)\n"
	"  latency    ttft_p50_ms, ttft_p99_ms, tpot_p50_ms, tpot_p99_ms against rate_per_s,\n"
	"             one line per candidate; --slo-ttft-ms and --slo-tpot-ms draw the SLOs\n"
	"  cost       usd_per_mtok_output (per million output tokens; usd_per_mtok in an older\n"
	"             file) per candidate as bars, cheapest first; --y usd_per_mtok_total charts\n"
	"             the cost per million prompt and output tokens\n"
	"  scatter    --y against --x, one colour per --group\n"
	"  waits      a fleet's team rows: queue_wait_p50_h, _p90_h, _p99_h per team as nested bars\n"
	"  team-cost  a fleet's team rows: usd_total per team, split into its own GPU-hours'\n"
	"             dollars and its share of the idle ones (idle_usd)\n"
	"  utilization  a fleet's series from run (its series file): allocated_frac and busy_frac\n"
	"             (one panel) and queued_jobs (another) against time_h, one colour per candidate\n"
	"A missing column is named (exit 2); a file with no row with status ok, or none with\n"
	"the chart's values, is an error (exit 2), never an empty picture. Without gnuplot\n"
	"(not on PATH, or $CLUSTERSIM_GNUPLOT naming no program) the script is kept and the\n"
	"error says how to render it (exit 1).\n"
	"  --chart KIND        the chart (above)\n"
	"  -o, --output FILE   the image, .png or .svg (default: RESULTS-KIND.png beside the results)\n"
	"  --deadline-h H      pareto: a vertical line at H hours\n"
	"  --budget-usd D      pareto: a horizontal line at D dollars\n"
	"  --slo-ttft-ms MS    latency: a line at MS in the TTFT panel\n"
	"  --slo-tpot-ms MS    latency: a line at MS in the TPOT panel\n"
	"  --x COLUMN          the x column instead of the chart's (the bars' labels for breakdown, cost)\n"
	"  --y COLUMN          the y column (a comma list for breakdown and latency)\n"
	"  --group COLUMN      one colour per value of COLUMN (pareto, scaling, latency, scatter)\n"
	"  --color-by C        pareto, cost: one colour per provider or per price_type, each with\n"
	"                      its legend entry ((none) for a row without one)\n"
	"  --xlabel TEXT       the x axis's label instead of the column's words and unit\n"
	"  --ylabel TEXT       the y axis's label (every panel's, for latency and utilization)\n"
	"  --script-only       write the script, do not run gnuplot\n"
	"  -h, --help          print this help\n"
	"environment: CLUSTERSIM_GNUPLOT  the gnuplot program to run (default: gnuplot on PATH)\n";

static int check_kind(const char *cmd, const char *value, struct cs_error *err)
{
	enum plot_kind k;
	if (plot_kind_parse(value, &k))
		return 0;
	return cli_usage_error(err, cmd, "--chart must be pareto, breakdown, scaling, latency, cost, scatter, "
				    "waits, team-cost or utilization, not '%.60s'", value);
}

/* A positive, finite number. */
static bool positive(const char *value, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(value, &end);
	return end != value && *end == '\0' && errno == 0 && isfinite(*out) && *out > 0;
}

static int check_positive(const char *cmd, const char *value, struct cs_error *err)
{
	double v;
	if (positive(value, &v))
		return 0;
	return cli_usage_error(err, cmd, "expected a positive number, got '%.60s'", value);
}

static int check_color_by(const char *cmd, const char *value, struct cs_error *err)
{
	if (strcmp(value, "provider") == 0 || strcmp(value, "price_type") == 0)
		return 0;
	return cli_usage_error(err, cmd, "--color-by must be provider or price_type, not '%.60s'", value);
}

static const struct cli_option options[] = {
	{ .name = "chart", .key = 'K', .takes_value = true, .check = check_kind },
	{ .name = "deadline-h", .key = 'D', .takes_value = true, .check = check_positive },
	{ .name = "budget-usd", .key = 'B', .takes_value = true, .check = check_positive },
	{ .name = "slo-ttft-ms", .key = 'T', .takes_value = true, .check = check_positive },
	{ .name = "slo-tpot-ms", .key = 'P', .takes_value = true, .check = check_positive },
	{ .name = "x", .key = 'X', .takes_value = true },
	{ .name = "y", .key = 'Y', .takes_value = true },
	{ .name = "group", .key = 'G', .takes_value = true },
	{ .name = "color-by", .key = 'C', .takes_value = true, .check = check_color_by },
	{ .name = "xlabel", .key = 'x', .takes_value = true },
	{ .name = "ylabel", .key = 'y', .takes_value = true },
	{ .name = "script-only", .key = 'O' },
	{ .name = NULL },
};

static double value_or_zero(const struct cli_call *call, int key)
{
	const char *v = cli_value(call, key);
	double d = 0;
	if (v != NULL && !positive(v, &d))
		d = 0;  /* checked when read */
	return d;
}

/* path with its last extension (after the last '/') replaced by ext. Caller frees. */
static char *with_extension(const char *path, const char *ext)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	size_t keep = dot != NULL && (slash == NULL || dot > slash + 1) ? (size_t)(dot - path) : strlen(path);
	return xasprintf("%.*s%s", (int)keep, path, ext);
}

/* Write the script atomically to path. */
static int write_script(const char *path, const char *script, struct cs_error *err)
{
	struct outfile out;
	if (outfile_open(&out, path, err) < 0)
		return -1;
	if (fputs(script, out.f) == EOF) {
		int e = errno;
		outfile_abort(&out);
		return error_runtime(err, "cannot write '%s': %s", path, strerror(e ? e : EIO));
	}
	return outfile_commit(&out, err);
}

/*
 * Run gnuplot on the script with the image going to a temporary beside it
 * (outfile: created and locked here, renamed over the image only when
 * gnuplot succeeded), so a reader never sees half a picture and a failure
 * leaves any earlier image in place.
 */
static int render(const char *script, const char *image, struct cs_error *err)
{
	const char *env = getenv("CLUSTERSIM_GNUPLOT");
	const char *prog = env != NULL && env[0] != '\0' ? env : "gnuplot";
	const char *shown = env != NULL && env[0] != '\0' ? "CLUSTERSIM_GNUPLOT" : "PATH";
	struct outfile out;
	posix_spawn_file_actions_t actions;
	char *quoted, *assign, *script_arg;
	char *argv[6];
	pid_t pid;
	int rc, wstatus;
	struct stat st;

	if (outfile_open(&out, image, err) < 0)
		return -1;
	/* the image's name as a gnuplot string (output/gpquote.h: nothing in it
	 * is read as a command, a leading '|' is not a pipe) */
	quoted = gpquote_file_new(out.tmp_path != NULL ? out.tmp_path : image);
	assign = xasprintf("outfile=%s", quoted);
	/* a script named "-x.gp" is a file, not an option */
	script_arg = script[0] == '-' ? xasprintf("./%s", script) : xstrdup(script);
	/* -d: the user's ~/.gnuplot does not change what this command draws */
	argv[0] = (char *)prog;
	argv[1] = (char *)"-d";
	argv[2] = (char *)"-e";
	argv[3] = assign;
	argv[4] = script_arg;
	argv[5] = NULL;
	posix_spawn_file_actions_init(&actions);
	/* gnuplot's chatter goes with our messages, never into a pipe of results */
	posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
	rc = posix_spawnp(&pid, prog, &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	free(script_arg);
	free(assign);
	free(quoted);
	if (rc != 0) {
		outfile_abort(&out);
		return error_runtime(err, "cannot run gnuplot '%s' (from %s): %s; the script is in '%s': render it "
				     "with 'gnuplot %s' (Debian: apt-get install gnuplot-nox)",
				     prog, shown, strerror(rc), script, script);
	}
	while (waitpid(pid, &wstatus, 0) < 0) {
		if (errno != EINTR) {
			int e = errno;
			outfile_abort(&out);
			return error_runtime(err, "gnuplot: cannot wait for it: %s", strerror(e));
		}
	}
	if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
		outfile_abort(&out);
		if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 127)
			return error_runtime(err, "cannot run gnuplot '%s' (from %s); the script is in '%s': render "
					     "it with 'gnuplot %s'", prog, shown, script, script);
		return error_runtime(err, "gnuplot '%s' failed on '%s' (%s %d; its messages are above); the script "
				     "is kept", prog, script, WIFEXITED(wstatus) ? "exit" : "signal",
				     WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus));
	}
	if (out.tmp_path != NULL && (stat(out.tmp_path, &st) != 0 || st.st_size == 0)) {
		outfile_abort(&out);
		return error_runtime(err, "gnuplot '%s' wrote nothing for '%s'; the script is in '%s'", prog, image,
				     script);
	}
	return outfile_commit(&out, err);
}

static int plot_exec(struct cli_call *call, struct cs_error *err)
{
	const char *input = call->operands[0], *kind_name = cli_value(call, 'K');
	struct plot_request req;
	struct plot_info info;
	struct csvtable t;
	char *image = NULL, *script_path = NULL, *script = NULL;
	int status = EXIT_OK;

	memset(&req, 0, sizeof req);
	if (kind_name == NULL)
		return cli_usage_error(err, "plot", "missing --chart KIND (pareto, breakdown, scaling, latency, cost, "
					   "scatter, waits, team-cost or utilization)");
	plot_kind_parse(kind_name, &req.kind);
	if (call->o.output != NULL && strcmp(call->o.output, "-") == 0)
		return cli_usage_error(err, "plot", "-o names the image file; a chart cannot go to standard output");
	if (call->o.output != NULL) {
		image = xstrdup(call->o.output);
	} else {
		if (strcmp(input, "-") == 0)
			return cli_usage_error(err, "plot", "-o FILE.png is needed when the results come from standard input");
		image = with_extension(input, "");
		char *named = xasprintf("%s-%s.png", image, kind_name);
		free(image);
		image = named;
	}
	if (!plot_format_of(image, &req.format)) {
		status = cli_usage_error(err, "plot", "-o '%.200s': the image must end in .png or .svg", image);
		goto out;
	}
	script_path = with_extension(image, ".gp");
	if (outfile_check_not_input(image, input, "results file", err) < 0 ||
	    outfile_check_not_input(script_path, input, "results file", err) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	req.input = input;
	req.image_path = image;
	req.script_path = script_path;
	req.x = cli_value(call, 'X');
	req.y = cli_value(call, 'Y');
	req.group = cli_value(call, 'G');
	req.xlabel = cli_value(call, 'x');
	req.ylabel = cli_value(call, 'y');
	if (cli_value(call, 'C') != NULL) {
		/* the run rows' provider or price_type column as the colour groups */
		if (req.kind != PLOT_PARETO && req.kind != PLOT_COST) {
			status = cli_usage_error(err, "plot", "--color-by is for the pareto and cost charts, not %s",
						 kind_name);
			goto out;
		}
		if (req.group != NULL) {
			status = cli_usage_error(err, "plot", "--color-by and --group both choose the colours: give one");
			goto out;
		}
		req.group = cli_value(call, 'C');
	}
	req.deadline_h = value_or_zero(call, 'D');
	req.budget_usd = value_or_zero(call, 'B');
	req.slo_ttft_ms = value_or_zero(call, 'T');
	req.slo_tpot_ms = value_or_zero(call, 'P');
	if (csvtable_load(&t, input, CSVTABLE_STRICT, "results", err) < 0) {
		status = cli_status(err);
		goto out;
	}
	script = plot_script(&t, &req, &info, err);
	if (script == NULL) {
		csvtable_release(&t);
		status = cli_status(err);
		goto out;
	}
	/* (the column's name is the table's, free of control characters: plot_script checks the ones it reads) */
	if (info.no_value > 0)
		fprintf(stderr, "clustersim: warning: plot: left out %zu of the %zu rows with status ok: no value in "
			"'%s'\n", info.no_value, info.ok, info.no_value_column);
	csvtable_release(&t);
	if (write_script(script_path, script, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	if (cli_value(call, 'O') == NULL && render(script_path, image, err) < 0)
		status = cli_status(err);
out:
	free(script);
	free(script_path);
	free(image);
	return status;
}

const struct cli_command cli_cmd_plot = {
	.name = "plot",
	.summary = "chart results (pareto, breakdown, scaling, latency, cost, fleet charts) with gnuplot",
	.usage = usage_text,
	.common = CLI_OUTPUT,
	.options = options,
	.operands = { .min = 1, .max = 1, .name = "RESULTS.csv" },
	.load = CLI_LOAD_NOTHING,
	.exec = plot_exec,
};
