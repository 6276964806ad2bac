/*
 * cli: what the subcommands share: exit statuses, option helpers, loading
 * the catalog and writing results.
 *
 * Each subcommand is `int cmd_NAME(int argc, char **argv, struct cs_error *err)`
 * returning an exit status; main() prints err's message with the program
 * prefix when the status is not 0. Nothing here models anything.
 */
#ifndef CLUSTERSIM_CLI_CLI_H
#define CLUSTERSIM_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/hw/catalog.h"
#include "models/scenario/scenario.h"
#include "output/rowset.h"
#include "output/writer.h"
#include "util/error.h"

enum exit_status {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,  /* failure while running: I/O, overflow */
	EXIT_USAGE = 2     /* bad usage or bad input */
};

/* Exit status for an error: 2 for input errors, 1 for runtime ones. */
int cli_status(const struct cs_error *err);

/* Options most commands take. */
struct cli_options {
	enum output_format format;
	bool format_given;
	const char *output;                  /* -o, NULL = stdout */
	struct scenario_override *sets;      /* owned array, borrowed strings */
	size_t n_sets;
	int64_t seed;                        /* -1 = the scenario's */
	const char **catalogs;               /* owned array, borrowed strings */
	size_t n_catalogs;
	const char *columns;                 /* --columns a,b,c or NULL: all */
};

void cli_options_init(struct cli_options *o);
void cli_options_release(struct cli_options *o);

/* The options most commands take, as entries of a struct option array
 * (getopt.h); a command lists the ones it accepts. */
#define CLI_OPT_FORMAT  { "format", required_argument, NULL, 'f' }
#define CLI_OPT_OUTPUT  { "output", required_argument, NULL, 'o' }
#define CLI_OPT_SET     { "set", required_argument, NULL, 's' }
#define CLI_OPT_SEED    { "seed", required_argument, NULL, 'S' }
#define CLI_OPT_CATALOG { "catalog", required_argument, NULL, 'c' }
#define CLI_OPT_COLUMNS { "columns", required_argument, NULL, 'k' }
#define CLI_OPT_HELP    { "help", no_argument, NULL, 'h' }

/* Handle the common option getopt_long returned as ch, with arg.
 * Returns 1 if handled, 0 if ch is not one of them, -1 on a bad value. */
int cli_common_option(struct cli_options *o, const char *cmd, int ch,
		      const char *arg, struct cs_error *err);

/* Table on a terminal, CSV otherwise (and always for -o FILE), unless
 * --format was given. */
enum output_format cli_format(const struct cli_options *o);

/* Terminal width for tables (COLUMNS, else 120; 0 = unlimited when not a tty). */
int cli_table_width(void);

/* The built-in catalog plus the --catalog files. Caller frees. */
catalog *cli_catalog(const struct cli_options *o, struct cs_error *err);

/* Write rows to -o (atomically) or standard output. */
int cli_write(const struct cli_options *o, const rowset *rs, struct cs_error *err);

/* Print a usage error "CMD: message" into err; returns EXIT_USAGE. */
int cli_usage_error(struct cs_error *err, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The next option of argv that is the command's own: handles the common
 * ones (cli_common_option) on the way. Returns its character, -1 at the end
 * of the options, or CLI_OPTION_ERROR with err set (a bad value, a missing
 * value, an unknown option). Call after cli_options_init(), which rewinds
 * getopt. */
#define CLI_OPTION_ERROR (-2)
struct option;
int cli_next_option(struct cli_options *o, const char *cmd, int argc, char **argv,
		    const char *shortopts, const struct option *longopts, struct cs_error *err);

/* Exactly one operand left at argv[optind] (named what in the message):
 * sets *arg and returns 0, else a usage error and EXIT_USAGE. */
int cli_one_operand(int argc, char **argv, const char *cmd, const char *what,
		    const char **arg, struct cs_error *err);

/* Subcommands. */
int cmd_run(int argc, char **argv, struct cs_error *err);
int cmd_catalog(int argc, char **argv, struct cs_error *err);
int cmd_validate(int argc, char **argv, struct cs_error *err);
int cmd_trace(int argc, char **argv, struct cs_error *err);
int cmd_sweep(int argc, char **argv, struct cs_error *err);
int cmd_merge(int argc, char **argv, struct cs_error *err);

#endif
