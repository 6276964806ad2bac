/* clustersim run: simulate one scenario on each of its candidate clusters. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/runner.h"

static const char usage_text[] =
	"usage: clustersim run SCENARIO.json [--format table|csv|json|jsonl] [--set PATH=VALUE]...\n"
	"                      [--seed N] [--catalog FILE]... [--dry-run] [--columns LIST] [-o FILE]\n\n"
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
	"  -h, --help        print this help\n\n"
	"Each row's status is ok, oom, invalid, unsupported (asked for but not modelled yet: the\n"
	"reason names it) or error. Exit status: 0 when a row is ok (or with --dry-run), 1 when\n"
	"none is (the rows are still written) or on a failure while running, 2 for bad usage or\n"
	"bad input.\n";

static int run_exec(struct cli_call *call, struct cs_error *err)
{
	const struct scenario *s = &call->scenario;
	bool dry_run = cli_value(call, 'n') != NULL;
	rowset *rs = NULL;
	int status = EXIT_OK;

	size_t ok_rows = 0;
	/* what an inline model assumed for the fields it left out, on
	 * standard error so the rows' columns stay the same */
	if (dry_run && s->workload.has_model && s->workload.model_defaults[0])
		fprintf(stderr, "clustersim: note: workload.model: not stated, assumed: %s\n", s->workload.model_defaults);
	{
		struct runner_options ro = { .dry_run = dry_run, .row_id = -1, .ok_rows = &ok_rows };
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
	return status;
}

static const struct cli_option run_options[] = {
	{ .name = "dry-run", .key = 'n' },
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
