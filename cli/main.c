/*
 * clustersim: which GPU cluster shape finishes a job when, at what
 * utilization, for how many dollars.
 *
 * main() only finds the command's entry in the table and hands it to
 * cli_invoke(), and maps failures to exit statuses (0 ok, 1 failure while
 * running, 2 bad usage or input). `help` is the one command defined here,
 * since it reads the table.
 */
#include <gsl/gsl_errno.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

#ifndef CLUSTERSIM_VERSION
#define CLUSTERSIM_VERSION "0.0.0"
#endif

static const struct cli_command cli_cmd_help;

static const struct cli_command *const commands[] = {
	&cli_cmd_run,
	&cli_cmd_catalog,
	&cli_cmd_validate,
	&cli_cmd_calibrate,
	&cli_cmd_trace,
	&cli_cmd_sweep,
	&cli_cmd_merge,
	&cli_cmd_plan,
	&cli_cmd_plot,
	&cli_cmd_import,
	&cli_cmd_help,
};

enum { N_COMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *f)
{
	fprintf(f, "usage: clustersim COMMAND [ARGS]\n"
		   "       clustersim --version | --help | COMMAND --help | help COMMAND\n\n"
		   "Which GPU cluster shape finishes a job when, at what utilization, for how many dollars.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\nexit status: 0 success, 1 failure while running, 2 bad usage or bad input\n");
}

static const struct cli_command *find_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(name, commands[i]->name) == 0)
			return commands[i];
	return NULL;
}

/* Edit distance between a and b (insertions, deletions, substitutions,
 * swaps of neighbours), up to 63 characters of each. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strnlen(a, 63), lb = strnlen(b, 63);
	size_t d[64][64];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/* The command whose name is closest to name, if within 2 edits, else NULL. */
static const struct cli_command *closest_command(const char *name)
{
	const struct cli_command *best = NULL;
	size_t best_d = 3;
	for (size_t i = 0; i < N_COMMANDS; i++) {
		size_t d = distance(name, commands[i]->name);
		if (d < best_d) {
			best = commands[i];
			best_d = d;
		}
	}
	return best;
}

static int help_exec(struct cli_call *call, struct cs_error *err)
{
	const struct cli_command *cmd, *near;
	if (call->n_operands == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	cmd = find_command(call->operands[0]);
	if (cmd == NULL) {
		near = closest_command(call->operands[0]);
		error_set(err, "help: no command '%.60s'%s%s%s (see 'clustersim --help')", call->operands[0],
			  near != NULL ? "; did you mean '" : "", near != NULL ? near->name : "",
			  near != NULL ? "'?" : "");
		return EXIT_USAGE;
	}
	if (cli_value(call, 'L') != NULL)
		cli_list_options(cmd, stdout);
	else
		fputs(cmd->usage, stdout);
	return EXIT_OK;
}

static const char help_usage[] =
	"usage: clustersim help [COMMAND] [--list-options]\n\n"
	"Prints COMMAND's help, as 'clustersim COMMAND --help' does; without COMMAND, the\n"
	"general help listing every command. 'clustersim help keys' lists every scenario key.\n"
	"  --list-options  print the long options COMMAND accepts instead, one a line (for tests)\n"
	"  -h, --help      print this help\n";

static const struct cli_option help_options[] = {
	{ .name = "list-options", .key = 'L' },
	{ .name = NULL },
};

static const struct cli_command cli_cmd_help = {
	.name = "help",
	.summary = "print a command's help, as COMMAND --help does",
	.usage = help_usage,
	.options = help_options,
	.operands = { .min = 0, .max = 1, .name = "COMMAND" },
	.load = CLI_LOAD_NOTHING,
	.exec = help_exec,
};

/* Whatever went to standard output must have got there: --help into a
 * full disk or a closed descriptor is a failure, not a success. */
static int finish(int status)
{
	if ((fflush(stdout) != 0 || ferror(stdout)) && status == EXIT_OK) {
		int e = errno;
		fprintf(stderr, "clustersim: cannot write standard output: %s\n", strerror(e ? e : EIO));
		return EXIT_RUNTIME;
	}
	return status;
}

int main(int argc, char **argv)
{
	const struct cli_command *cmd;
	struct cs_error err;
	int status;

	gsl_set_error_handler_off();
	error_clear(&err);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return finish(EXIT_OK);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("clustersim %s\n", CLUSTERSIM_VERSION);
		return finish(EXIT_OK);
	}
	cmd = find_command(argv[1]);
	if (argc > 2 && strcmp(argv[1], "help") == 0 && strcmp(argv[2], "keys") == 0) {
		cmd = &cli_cmd_help_keys;  /* the scenario keys (cmd_help_keys.c) */
		argc--;
		argv++;
	}
	if (cmd == NULL) {
		fprintf(stderr, "clustersim: unknown command '%.60s' (see 'clustersim --help')\n", argv[1]);
		return EXIT_USAGE;
	}
	status = cli_invoke(cmd, argc - 1, argv + 1, &err);
	if (status != EXIT_OK && err.msg[0] != '\0')
		fprintf(stderr, "clustersim: %s\n", err.msg);
	return finish(status);
}
