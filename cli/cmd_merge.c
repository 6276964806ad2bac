/* clustersim merge: the CSV parts of a sharded sweep -> one file sorted by row_id. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "output/csvtable.h"
#include "util/xalloc.h"

static const char usage_text[] =
	"usage: clustersim merge PART.csv... [-o FILE]\n\n"
	"Merges the CSV results of sweep shards (or any result files with the same header and a\n"
	"row_id column) into one CSV: rows sorted by row_id, ties in the order of the parts and of\n"
	"their rows; a row repeating a row of an earlier part with the same row_id is dropped, so a\n"
	"part given twice or a rerun shard adds nothing. Merging every shard of a sweep gives the\n"
	"bytes the unsharded sweep writes. PART may be - for standard input.\n"
	"  -o, --output FILE  write the result to FILE (atomically) instead of standard output\n"
	"  -h, --help         print this help\n";

static int merge_exec(struct cli_call *call, struct cs_error *err)
{
	struct csvtable *parts = NULL;
	const char **names = NULL;
	size_t nparts = 0, loaded = 0;
	rowset *rs = NULL;
	int status = EXIT_OK;
	bool stdin_used = false;

	nparts = call->n_operands;
	parts = xcalloc(nparts, sizeof *parts);
	names = xcalloc(nparts, sizeof *names);
	for (size_t i = 0; i < nparts; i++) {
		names[i] = call->operands[i];
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
	call->o.format = FORMAT_CSV;
	call->o.format_given = true;
	if (cli_write(&call->o, rs, err) < 0)
		status = cli_status(err);
out:
	rowset_free(rs);
	for (size_t i = 0; i < loaded; i++)
		csvtable_release(&parts[i]);
	free(parts);
	free(names);
	return status;
}

const struct cli_command cli_cmd_merge = {
	.name = "merge",
	.summary = "merge the CSV parts of a sharded sweep by row_id",
	.usage = usage_text,
	.common = CLI_OUTPUT,
	.operands = { .min = 1, .max = SIZE_MAX, .name = "PART.csv" },
	.load = CLI_LOAD_NOTHING,
	.exec = merge_exec,
};
