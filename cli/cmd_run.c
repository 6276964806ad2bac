/* clustersim run: simulate one scenario on each of its candidate clusters. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/runner.h"

static const char *const usage_text =
	"usage: clustersim run SCENARIO.json [--format table|csv|json] [--set PATH=VALUE]...\n"
	"                      [--seed N] [--catalog FILE]... [--dry-run] [--columns LIST] [-o FILE]\n\n"
	"Reads the scenario (- for standard input) and prints one result row per candidate.\n"
	"  --set PATH=VALUE  override a field, e.g. --set candidates[0].nodes=4\n"
	"  --seed N          replace the scenario's seed\n"
	"  --catalog FILE    merge a user's catalog file before reading the scenario\n"
	"  --dry-run         print each candidate's shape, peak FLOP/s, memory and price only\n"
	"  --columns a,b,c   print only these result columns, in this order\n"
	"  -o FILE           write results to FILE (atomically) instead of standard output\n";

int cmd_run(int argc, char **argv, struct cs_error *err)
{
	static const struct option longopts[] = {
		CLI_OPT_FORMAT,
		CLI_OPT_OUTPUT,
		CLI_OPT_SET,
		CLI_OPT_SEED,
		CLI_OPT_CATALOG,
		{ "dry-run", no_argument, NULL, 'n' },
		CLI_OPT_COLUMNS,
		CLI_OPT_HELP,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_options o;
	struct scenario s;
	catalog *cat = NULL;
	rowset *rs = NULL;
	int ch, status = EXIT_OK;
	bool dry_run = false, loaded = false;
	const char *file;

	cli_options_init(&o);
	while ((ch = cli_next_option(&o, "run", argc, argv, ":o:h", longopts, err)) != -1) {
		switch (ch) {
		case 'n': dry_run = true; break;
		case 'h':
			fputs(usage_text, stdout);
			cli_options_release(&o);
			return EXIT_OK;
		default:
			status = EXIT_USAGE;  /* CLI_OPTION_ERROR: err says why */
			goto out;
		}
	}
	if ((status = cli_one_operand(argc, argv, "run", "SCENARIO.json", &file, err)) != 0)
		goto out;
	cat = cli_catalog(&o, err);
	if (cat == NULL) {
		status = cli_status(err);
		goto out;
	}
	if (scenario_load(file, o.sets, o.n_sets, o.seed, cat, &s, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	loaded = true;
	size_t ok_rows = 0;
	{
		struct runner_options ro = { .dry_run = dry_run, .row_id = -1, .ok_rows = &ok_rows };
		rs = runner_columns(&s, &ro);
		if (runner_run(&s, &ro, rs, err) < 0) {
			status = cli_status(err);
			goto out;
		}
	}
	if (cli_write(&o, rs, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	/* the rows say why; the status lets a script notice */
	if (!dry_run && ok_rows == 0) {
		error_runtime(err, "run: no row of '%s' is ok (see the status and reason columns)", file);
		status = EXIT_RUNTIME;
	}
out:
	rowset_free(rs);
	if (loaded)
		scenario_release(&s);
	catalog_free(cat);
	cli_options_release(&o);
	return status;
}
