/*
 * cli: the command line of clustersim: the table entry each command is
 * (struct cli_command), the prologue every command shares (options, --help,
 * operands, the catalog, the scenario), exit statuses and writing results.
 *
 * A command is one const entry (name, summary, usage, options, operands,
 * what to load, exec) defined in its cmd_NAME.c; main() looks the name up
 * in its table and hands the entry to cli_invoke(), which parses argv as the
 * entry says, loads what it asks for, calls its exec and releases it all.
 * A status other than 0 comes with err set; main() prints it with the
 * program prefix.
 *
 * It never models anything nor decides what a command computes (that is
 * the exec's and runner's business), never exits the process (statuses are
 * returned), and writes to standard output only a command's usage on
 * --help and results through cli_write().
 */
#ifndef CLUSTERSIM_CLI_CLI_H
#define CLUSTERSIM_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "models/hw/catalog.h"
#include "models/scenario/scenario.h"
#include "output/rowset.h"
#include "output/writer.h"
#include "util/error.h"

/* The exit statuses of every command. */
enum exit_status {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,  /* failure while running: I/O, overflow */
	EXIT_USAGE = 2     /* bad usage or bad input */
};

/* Exit status for an error: 2 for input errors, 1 for runtime ones. */
int cli_status(const struct cs_error *err);

/* The common options a command was given. */
struct cli_options {
	enum output_format format;
	bool format_given;
	const char *output;                  /* -o, NULL = stdout */
	struct scenario_override *sets;      /* owned array, borrowed strings */
	size_t n_sets;
	int64_t seed;                        /* -1 = the scenario's */
	const char **catalogs;               /* owned array, borrowed strings */
	size_t n_catalogs;
	const char *columns;                 /* --columns a,b,c, "all", "help", or NULL: the default */
};

/* The common options a command may accept, as bits of cli_command.common
 * (--help is accepted by every command). */
enum cli_common {
	CLI_FORMAT = 1 << 0,   /* --format table|csv|json|jsonl */
	CLI_OUTPUT = 1 << 1,   /* -o, --output FILE */
	CLI_SET = 1 << 2,      /* --set PATH=VALUE, repeated */
	CLI_SEED = 1 << 3,     /* --seed N */
	CLI_CATALOG = 1 << 4,  /* --catalog FILE, repeated */
	CLI_COLUMNS = 1 << 5   /* --columns a,b,c */
};

/* One of a command's own options. */
struct cli_option {
	const char *name;       /* the long name, without "--" */
	int key;                /* what cli_value() finds it by; -KEY too when short */
	bool short_too;
	bool takes_value;
	/* Checks the value where it is read (NULL: any value): returns 0, or
	 * a usage error (cli_usage_error) and EXIT_USAGE. */
	int (*check)(const char *cmd, const char *value, struct cs_error *err);
};

/* The most own options one command may have. */
enum { CLI_OWN_MAX = 12 };

/* What cli_invoke() loads before a command's exec runs. */
enum cli_load {
	CLI_LOAD_NOTHING,   /* the exec reads its inputs itself */
	CLI_LOAD_CATALOG,   /* the built-in catalog plus the --catalog files */
	CLI_LOAD_SCENARIO   /* that catalog, then the scenario the first operand
			     * names, with --set and --seed applied */
};

struct cli_call;

/* A command: its table entry. */
struct cli_command {
	const char *name;
	const char *summary;                 /* one line for the general help */
	const char *usage;                   /* what --help prints */
	unsigned common;                     /* enum cli_common bits */
	const struct cli_option *options;    /* own options, ended by a NULL name; or NULL */
	struct {
		size_t min, max;             /* max SIZE_MAX: any number */
		const char *name;            /* for "missing NAME" */
	} operands;
	enum cli_load load;
	int (*exec)(struct cli_call *call, struct cs_error *err);
	/* Options are read only before the first operand; the words after it
	 * are the exec's own (import's argument lists of other tools). */
	bool options_before_operands;
};

/* What cli_invoke() prepared for a command's exec; released after it. */
struct cli_call {
	const struct cli_command *cmd;
	struct cli_options o;
	char **operands;                     /* what is left of argv after the options */
	size_t n_operands;
	const char *values[CLI_OWN_MAX];     /* own option i's value ("" for a flag), NULL if not given */
	catalog *cat;                        /* CLI_LOAD_CATALOG or _SCENARIO, else NULL */
	struct scenario scenario;            /* CLI_LOAD_SCENARIO only */
};

/* Run command cmd on argv (argv[0] is the command's name): parse its
 * options, print its usage on --help, check the operands, load what the
 * entry asks for, call its exec and release everything. Returns the exit
 * status, with err set when it is not 0. */
int cli_invoke(const struct cli_command *cmd, int argc, char **argv, struct cs_error *err);

/* The value of the call's own option KEY ("" for a flag), NULL if not given. */
const char *cli_value(const struct cli_call *call, int key);

/* Refuse (a usage error, EXIT_USAGE) a second output file `path` that names
 * a file the command reads: an operand, a catalog, and for a loaded
 * scenario the files it names (catalogs, traces), as -o is refused. */
int cli_check_not_input(const struct cli_call *call, const char *path, struct cs_error *err);

/* Print every long option cmd accepts, one a line, without "--". */
void cli_list_options(const struct cli_command *cmd, FILE *f);

/* Table on a terminal, CSV otherwise (and always for -o FILE), unless
 * --format was given. */
enum output_format cli_format(const struct cli_options *o);

/* Terminal width for tables (COLUMNS, else 120; 0 = unlimited when not a tty). */
int cli_table_width(void);

/* The built-in catalog plus the --catalog files. Caller frees. */
catalog *cli_catalog(const struct cli_options *o, struct cs_error *err);

/* --columns help: list the columns (with cli_print_columns) instead of rows. */
bool cli_columns_help(const struct cli_options *o);

/* Every column of rs with its unit and meaning (output/results.h's table of
 * columns), one a line, then what the units look like in a table. -1 on a
 * write error. */
int cli_print_columns(FILE *f, const rowset *rs);

/* The columns to write ("a,b,c"), or NULL for all: --columns as given
 * ("all" is all), else for a table on standard output the result kind's
 * short default set (results_brief()), else all (CSV, JSON and -o FILE keep
 * every column: the scripts' contract). */
const char *cli_columns_for(const struct cli_options *o, const rowset *rs, enum output_format fmt);

/* rs narrowed to list ("a,b,c") into *out, a new rowset; *out NULL when list
 * is NULL or "all" (every column: use rs). 0, or -1 with err set when a
 * name is not a column. */
int cli_select_columns(const char *list, const rowset *rs, rowset **out, struct cs_error *err);

/* Write rows to -o (atomically) or standard output, in the columns
 * cli_columns_for() says; with --columns help, the columns' list instead. */
int cli_write(const struct cli_options *o, const rowset *rs, struct cs_error *err);

/* Print a usage error "CMD: message" into err; returns EXIT_USAGE. */
int cli_usage_error(struct cs_error *err, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The commands' entries, each defined in its cmd_NAME.c. */
extern const struct cli_command cli_cmd_run;
extern const struct cli_command cli_cmd_catalog;
extern const struct cli_command cli_cmd_validate;
extern const struct cli_command cli_cmd_calibrate;
extern const struct cli_command cli_cmd_trace;
extern const struct cli_command cli_cmd_sweep;
extern const struct cli_command cli_cmd_merge;
extern const struct cli_command cli_cmd_plan;
extern const struct cli_command cli_cmd_plot;
extern const struct cli_command cli_cmd_import;
extern const struct cli_command cli_cmd_help_keys;  /* `help keys`, dispatched by main() */

#endif
