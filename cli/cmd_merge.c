/* clustersim merge: the CSV parts of a sharded sweep -> one file sorted by row_id. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "output/csvmerge.h"

static const char usage_text[] =
	"usage: clustersim merge PART.csv... [-o FILE]\n\n"
	"Merges the CSV results of sweep shards (or any result files with the same header and a\n"
	"row_id column) into one CSV: rows sorted by row_id, ties in the order of the parts and of\n"
	"their rows; a row repeating a row of an earlier part with the same row_id is dropped, so a\n"
	"part given twice or a rerun shard adds nothing. Merging every shard of a sweep gives the\n"
	"bytes the unsharded sweep writes. PART may be - for standard input (at most 4 GiB,\n"
	"copied to a temporary file under $TMPDIR). Parts are read as they stream, so memory\n"
	"does not grow with their size (an unsorted part is sorted in runs in temporary files\n"
	"under $TMPDIR; no temporary file outlives the command). A line or a row of a part may\n"
	"be at most 1 MiB.\n"
	"  -o, --output FILE  write the result to FILE (atomically) instead of standard output\n"
	"  -h, --help         print this help\n";

static int merge_exec(struct cli_call *call, struct cs_error *err)
{
	bool stdin_used = false;

	for (size_t i = 0; i < call->n_operands; i++) {
		if (strcmp(call->operands[i], "-") == 0) {
			if (stdin_used)
				return cli_usage_error(err, "merge", "standard input (-) given twice");
			stdin_used = true;
		}
	}
	/* streamed: memory does not grow with the parts' sizes */
	if (csvmerge_files((const char *const *)call->operands, call->n_operands, call->o.output, err) < 0)
		return cli_status(err);
	return EXIT_OK;
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
