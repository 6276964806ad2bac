/* clustersim run: simulate one scenario on each of its candidate clusters. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/runner.h"
#include "output/outfile.h"
#include "output/results.h"
#include "output/writer.h"

static const char usage_text[] =
	"usage: clustersim run SCENARIO.json [--format table|csv|json|jsonl] [--set PATH=VALUE]...\n"
	"                      [--seed N] [--catalog FILE]... [--dry-run] [--columns LIST] [-o FILE]\n"
	"                      [--series FILE.csv]\n\n"
	"Reads the scenario (- for standard input) and prints one result row per candidate.\n"
	"  --format F        table (on a terminal), csv (otherwise), json or jsonl (an object a line)\n"
	"  --set PATH=VALUE  override a field, e.g. --set candidates[0].nodes=4\n"
	"  --seed N          replace the scenario's seed\n"
	"  --catalog FILE    merge a user's catalog file before reading the scenario\n"
	"  --dry-run         print each candidate's shape, peak FLOP/s, memory and price only, and\n"
	"                    on standard error the values an inline model assumed for unstated fields\n"
	"  --columns a,b,c   print only these result columns, in this order; all: every column;\n"
	"                    help: list the columns with their units. A table on a terminal shows\n"
	"                    a short set by default; CSV, JSON and -o FILE have every column\n"
	"  -o, --output FILE write results to FILE (atomically) instead of standard output\n"
	"  --series FILE.csv a fleet: also write each candidate's utilization over time to FILE\n"
	"                    (CSV, atomically): time_h,candidate,allocated_frac,busy_frac,queued_jobs,\n"
	"                    one row per bucket (docs/explanation/fleet.md), for plot's utilization chart\n"
	"  -h, --help        print this help\n\n"
	"Each row's status is ok, oom, invalid, unsupported (asked for but not modelled yet: the\n"
	"reason names it) or error. Exit status: 0 when a row is ok (or with --dry-run), 1 when\n"
	"none is (the rows are still written) or on a failure while running, 2 for bad usage or\n"
	"bad input.\n";

/* --series FILE: a fleet's, to a file that is none of the inputs nor -o. */
static int check_series(struct cli_call *call, const char *path, bool dry_run, struct cs_error *err)
{
	const struct scenario *s = &call->scenario;
	if (s->workload.kind != WORKLOAD_FLEET)
		return cli_usage_error(err, "run", "--series: '%s' is a %s workload; --series writes a fleet's "
				       "utilization over time", call->operands[0], workload_kind_names[s->workload.kind]);
	if (dry_run)
		return cli_usage_error(err, "run", "--series with --dry-run: nothing is simulated");
	if (strcmp(path, "-") == 0)
		return cli_usage_error(err, "run", "--series needs a file name, not standard output");
	if (call->o.output != NULL && (strcmp(call->o.output, path) == 0 ||
				       outfile_check_not_input(path, call->o.output, "results file (-o)", err) < 0))
		return cli_usage_error(err, "run", "--series '%.200s' is the results file (-o)", path);
	if (cli_check_not_input(call, path, err) != 0)
		return EXIT_USAGE;
	return 0;
}

static int write_series(const char *path, const rowset *rs, struct cs_error *err)
{
	struct outfile out;
	if (outfile_open(&out, path, err) < 0)
		return -1;
	if (writer_csv(out.f, rs) < 0) {
		outfile_abort(&out);
		return error_runtime(err, "cannot write '%s'", path);
	}
	return outfile_commit(&out, err);
}

static int run_exec(struct cli_call *call, struct cs_error *err)
{
	const struct scenario *s = &call->scenario;
	bool dry_run = cli_value(call, 'n') != NULL;
	const char *series_path = cli_value(call, 'U');
	rowset *rs = NULL, *series = NULL;
	int status = EXIT_OK;

	if (series_path != NULL && (status = check_series(call, series_path, dry_run, err)) != 0)
		return status;
	if (series_path != NULL && !cli_columns_help(&call->o))
		series = results_fleet_series_new();

	size_t ok_rows = 0;
	/* what an inline model assumed for the fields it left out, on
	 * standard error so the rows' columns stay the same */
	if (dry_run && s->workload.has_model && s->workload.model_defaults[0])
		fprintf(stderr, "clustersim: note: workload.model: not stated, assumed: %s\n", s->workload.model_defaults);
	{
		struct runner_options ro = { .dry_run = dry_run, .row_id = -1, .ok_rows = &ok_rows,
					     .fleet_series = series };
		rs = runner_columns(s, &ro);
		if (cli_columns_help(&call->o)) {  /* the columns, without computing rows */
			if (cli_write(&call->o, rs, err) < 0)
				status = cli_status(err);
			goto out;
		}
		if (runner_run(s, &ro, rs, err) < 0) {
			status = cli_status(err);
			goto out;
		}
	}
	if (series != NULL && write_series(series_path, series, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	if (cli_write(&call->o, rs, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	/* the rows say why; the status lets a script notice */
	if (!dry_run && ok_rows == 0) {
		error_runtime(err, "run: no row of '%s' is ok (see the status and reason columns)",
			      call->operands[0]);
		status = EXIT_RUNTIME;
	}
out:
	rowset_free(rs);
	rowset_free(series);
	return status;
}

static const struct cli_option run_options[] = {
	{ .name = "dry-run", .key = 'n' },
	{ .name = "series", .key = 'U', .takes_value = true },
	{ .name = NULL },
};

const struct cli_command cli_cmd_run = {
	.name = "run",
	.summary = "simulate a scenario on each candidate cluster",
	.usage = usage_text,
	.common = CLI_FORMAT | CLI_OUTPUT | CLI_SET | CLI_SEED | CLI_CATALOG | CLI_COLUMNS,
	.options = run_options,
	.operands = { .min = 1, .max = 1, .name = "SCENARIO.json" },
	.load = CLI_LOAD_SCENARIO,
	.exec = run_exec,
};
