/*
 * clustersim: which GPU cluster shape finishes a job when, at what
 * utilization, for how many dollars.
 *
 * main() only dispatches the subcommand and maps failures to exit statuses
 * (0 ok, 1 failure while running, 2 bad usage or input).
 */
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

#ifndef CLUSTERSIM_VERSION
#define CLUSTERSIM_VERSION "0.0.0"
#endif

struct command {
	const char *name;
	int (*fn)(int argc, char **argv, struct cs_error *err);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "simulate a scenario on each candidate cluster" },
	{ "catalog", cmd_catalog, "list GPUs, fabrics, storage, presets, prices and models" },
	{ "validate", cmd_validate, "predict published runs and collectives; report the error" },
	{ "trace", cmd_trace, "write one training step as a Chrome/Perfetto trace" },
	{ "sweep", cmd_sweep, "run every point of a sweep file, sharded and in parallel" },
	{ "merge", cmd_merge, "merge the CSV parts of a sharded sweep by row_id" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: clustersim COMMAND [ARGS]\n"
		   "       clustersim --version | --help | COMMAND --help\n\n"
		   "Which GPU cluster shape finishes a job when, at what utilization, for how many dollars.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nexit status: 0 success, 1 failure while running, 2 bad usage or bad input\n");
}

int main(int argc, char **argv)
{
	struct cs_error err;
	int status;

	gsl_set_error_handler_off();
	error_clear(&err);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("clustersim %s\n", CLUSTERSIM_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(argv[1], commands[i].name) == 0) {
			status = commands[i].fn(argc - 1, argv + 1, &err);
			if (status != EXIT_OK && err.msg[0] != '\0')
				fprintf(stderr, "clustersim: %s\n", err.msg);
			return status;
		}
	}
	fprintf(stderr, "clustersim: unknown command '%.60s' (see 'clustersim --help')\n", argv[1]);
	return EXIT_USAGE;
}
