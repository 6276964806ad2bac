/* clustersim merge: the CSV parts of a sharded sweep -> one file sorted by row_id. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "output/csvtable.h"
#include "util/xalloc.h"

static const char *const usage_text =
	"usage: clustersim merge PART.csv... [-o FILE]\n\n"
	"Merges the CSV results of sweep shards (or any result files with the same header and a\n"
	"row_id column) into one CSV: rows sorted by row_id, ties in the order of the parts and of\n"
	"their rows; a row repeating a row of an earlier part with the same row_id is dropped, so a\n"
	"part given twice or a rerun shard adds nothing. Merging every shard of a sweep gives the\n"
	"bytes the unsharded sweep writes. PART may be - for standard input.\n"
	"  -o FILE   write the result to FILE (atomically) instead of standard output\n";

int cmd_merge(int argc, char **argv, struct cs_error *err)
{
	static const struct option longopts[] = {
		CLI_OPT_OUTPUT,
		CLI_OPT_HELP,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_options o;
	struct csvtable *parts = NULL;
	const char **names = NULL;
	size_t nparts = 0, loaded = 0;
	rowset *rs = NULL;
	int ch, status = EXIT_OK;
	bool stdin_used = false;

	cli_options_init(&o);
	while ((ch = cli_next_option(&o, "merge", argc, argv, ":o:h", longopts, err)) != -1) {
		switch (ch) {
		case 'h':
			fputs(usage_text, stdout);
			cli_options_release(&o);
			return EXIT_OK;
		default:
			status = EXIT_USAGE;  /* CLI_OPTION_ERROR: err says why */
			goto out;
		}
	}
	if (optind >= argc) {
		status = cli_usage_error(err, "merge", "missing PART.csv");
		goto out;
	}
	nparts = (size_t)(argc - optind);
	parts = xcalloc(nparts, sizeof *parts);
	names = xcalloc(nparts, sizeof *names);
	for (size_t i = 0; i < nparts; i++) {
		names[i] = argv[optind + (int)i];
		if (strcmp(names[i], "-") == 0) {
			if (stdin_used) {
				status = cli_usage_error(err, "merge", "standard input (-) given twice");
				goto out;
			}
			stdin_used = true;
		}
		if (csvtable_load(&parts[i], names[i], CSVTABLE_STRICT, "part", err) < 0) {
			status = cli_status(err);
			goto out;
		}
		loaded++;
	}
	rs = csvtable_merge(parts, names, nparts, err);
	if (rs == NULL) {
		status = cli_status(err);
		goto out;
	}
	/* Always CSV: parts are CSV, and text cells carry no types to tabulate. */
	o.format = FORMAT_CSV;
	o.format_given = true;
	if (cli_write(&o, rs, err) < 0)
		status = cli_status(err);
out:
	rowset_free(rs);
	for (size_t i = 0; i < loaded; i++)
		csvtable_release(&parts[i]);
	free(parts);
	free(names);
	cli_options_release(&o);
	return status;
}
