#include "cli.h"

#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/price_notes.h"
#include "output/outfile.h"
#include "output/results.h"
#include "util/xalloc.h"

int cli_status(const struct cs_error *err)
{
	switch (err->kind) {
	case ERROR_NONE: return EXIT_OK;
	case ERROR_INPUT: return EXIT_USAGE;
	case ERROR_RUNTIME: return EXIT_RUNTIME;
	}
	return EXIT_RUNTIME;
}

static void options_init(struct cli_options *o)
{
	memset(o, 0, sizeof *o);
	o->seed = -1;
	opterr = 0;  /* errors are ours to word */
	optind = 1;
}

static void options_release(struct cli_options *o)
{
	free(o->sets);
	free(o->catalogs);
	options_init(o);
}

int cli_usage_error(struct cs_error *err, const char *cmd, const char *fmt, ...)
{
	char msg[ERROR_MSG_MAX / 2];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	error_set(err, "%s: %s (see 'clustersim %s --help')", cmd, msg, cmd);
	return EXIT_USAGE;
}

/* Handle the common option getopt_long returned as ch, with arg.
 * Returns 1 if handled, 0 if ch is not one of them, -1 on a bad value. */

/* True (with a usage error) when --columns names a column twice: CSV would
 * repeat it and JSON could not, so neither gets it. */
static bool columns_repeat(const char *cmd, const char *list, struct cs_error *err)
{
	char *copy = xstrdup(list), *save = NULL;
	char **seen = NULL;
	size_t n = 0;
	bool repeated = false;

	for (char *name = strtok_r(copy, ",", &save); name != NULL && !repeated; name = strtok_r(NULL, ",", &save)) {
		for (size_t i = 0; i < n && !repeated; i++)
			if (strcmp(seen[i], name) == 0) {
				cli_usage_error(err, cmd, "--columns: '%.60s' is given twice", name);
				repeated = true;
			}
		seen = xreallocarray(seen, n + 1, sizeof *seen);
		seen[n++] = name;
	}
	free(seen);
	free(copy);
	return repeated;
}

static int common_option(struct cli_options *o, const char *cmd, int ch,
			 const char *arg, struct cs_error *err)
{
	if (ch == 'f') {  /* --format */
		for (int i = 0; output_format_names[i] != NULL; i++) {
			if (strcmp(arg, output_format_names[i]) == 0) {
				o->format = (enum output_format)i;
				o->format_given = true;
				return 1;
			}
		}
		cli_usage_error(err, cmd, "--format must be table, csv, json or jsonl, not '%s'", arg);
		return -1;
	}
	if (ch == 'o') {  /* --output */
		if (arg[0] == '\0') {
			cli_usage_error(err, cmd, "-o needs a file name");
			return -1;
		}
		o->output = arg;
		return 1;
	}
	if (ch == 's') {  /* --set */
		struct scenario_override ov;
		if (!override_parse(arg, &ov)) {
			cli_usage_error(err, cmd, "--set expects PATH=VALUE, got '%s'", arg);
			return -1;
		}
		o->sets = xreallocarray(o->sets, o->n_sets + 1, sizeof *o->sets);
		o->sets[o->n_sets++] = ov;
		return 1;
	}
	if (ch == 'S') {  /* --seed */
		char *end;
		errno = 0;
		/* digits only: strtoll alone would take ' 5' and '+5' but not '5 ' */
		long long v = arg[0] >= '0' && arg[0] <= '9' ? strtoll(arg, &end, 10) : -1;
		if (v >= 0 && errno == ERANGE) {
			cli_usage_error(err, cmd, "--seed expects an integer from 0 to %lld, got '%s'", LLONG_MAX, arg);
			return -1;
		}
		if (v < 0 || *end != '\0') {
			cli_usage_error(err, cmd, "--seed expects a non-negative integer, got '%s'", arg);
			return -1;
		}
		o->seed = v;
		return 1;
	}
	if (ch == 'k') {  /* --columns */
		if (arg[0] == '\0') {
			cli_usage_error(err, cmd, "--columns needs column names separated by commas");
			return -1;
		}
		if (columns_repeat(cmd, arg, err))
			return -1;
		o->columns = arg;
		return 1;
	}
	if (ch == 'c') {  /* --catalog */
		o->catalogs = xreallocarray(o->catalogs, o->n_catalogs + 1, sizeof *o->catalogs);
		o->catalogs[o->n_catalogs++] = arg;
		return 1;
	}
	return 0;
}

enum output_format cli_format(const struct cli_options *o)
{
	if (o->format_given)
		return o->format;
	/* a table only for a person at a terminal; files and pipes get CSV */
	if (o->output != NULL && strcmp(o->output, "-") != 0)
		return FORMAT_CSV;
	return isatty(STDOUT_FILENO) ? FORMAT_TABLE : FORMAT_CSV;
}

int cli_table_width(void)
{
	const char *cols = getenv("COLUMNS");
	if (!isatty(STDOUT_FILENO))
		return 0;
	if (cols != NULL && atoi(cols) > 20)
		return atoi(cols);
	return 120;
}

catalog *cli_catalog(const struct cli_options *o, struct cs_error *err)
{
	catalog *c = catalog_new_builtin(err);
	if (c == NULL)
		return NULL;
	for (size_t i = 0; i < o->n_catalogs; i++) {
		if (catalog_merge_file(c, o->catalogs[i], err) < 0) {
			catalog_free(c);
			return NULL;
		}
	}
	return c;
}

bool cli_columns_help(const struct cli_options *o)
{
	return o->columns != NULL && strcmp(o->columns, "help") == 0;
}

int cli_print_columns(FILE *f, const rowset *rs)
{
	size_t wn = strlen("column"), wu = strlen("unit");
	for (size_t c = 0; c < rowset_ncols(rs); c++) {
		const struct results_column *info = results_column_info(rowset_column(rs, c));
		if (strlen(rowset_column(rs, c)) > wn)
			wn = strlen(rowset_column(rs, c));
		if (info != NULL && strlen(info->unit_text) > wu)
			wu = strlen(info->unit_text);
	}
	fprintf(f, "%-*s  %-*s  %s\n", (int)wn, "column", (int)wu, "unit", "meaning");
	for (size_t c = 0; c < rowset_ncols(rs); c++) {
		const struct results_column *info = results_column_info(rowset_column(rs, c));
		fprintf(f, "%-*s  %-*s  %s\n", (int)wn, rowset_column(rs, c), (int)wu,
			info != NULL ? info->unit_text : "-", info != NULL ? info->meaning : "(see docs/explanation/catalog.md)");
	}
	fputs("\nfraction: 0 to 1 in CSV and JSON, a percent in a table; USD: $ and thousands separators in a\n"
	      "table; h: hours in CSV and JSON, minutes, hours or days in a table. --columns all: every column.\n", f);
	return ferror(f) ? -1 : 0;
}

int cli_select_columns(const char *list, const rowset *rs, rowset **out, struct cs_error *err)
{
	char *copy;
	const char **names = NULL;
	size_t n = 0;
	const char *bad = NULL;

	*out = NULL;
	if (list == NULL || strcmp(list, "all") == 0)
		return 0;
	copy = xstrdup(list);
	for (char *tok = copy, *next; tok != NULL; tok = next) {
		next = strchr(tok, ',');
		if (next != NULL)
			*next++ = '\0';
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = tok;
	}
	*out = rowset_select(rs, names, n, &bad);
	if (*out == NULL)
		error_set(err, "--columns: no column named '%.60s' (the output has %zu columns, e.g. '%s'; "
			  "--columns help lists them)",
			  bad, rowset_ncols(rs), rowset_ncols(rs) > 0 ? rowset_column(rs, 0) : "");
	free(names);
	free(copy);
	return *out == NULL ? -1 : 0;
}

const char *cli_columns_for(const struct cli_options *o, const rowset *rs, enum output_format fmt)
{
	bool to_stdout = o->output == NULL || strcmp(o->output, "-") == 0;
	if (o->columns != NULL)
		return o->columns;
	/* a person at a table: the few columns that answer; scripts get all */
	return fmt == FORMAT_TABLE && to_stdout ? results_brief(rs) : NULL;
}

int cli_write(const struct cli_options *o, const rowset *rs, struct cs_error *err)
{
	struct outfile out;
	enum output_format fmt = cli_format(o);
	int width = o->output == NULL ? cli_table_width() : 0;
	rowset *narrow = NULL;

	if (cli_columns_help(o))
		return cli_print_columns(stdout, rs) < 0 ?
			error_runtime(err, "cannot write standard output: %s", strerror(errno ? errno : EIO)) : 0;
	/* a table for people: a fleet's reason once, on the fleet's row */
	rowset *once = fmt == FORMAT_TABLE ? results_reasons_once(rs) : NULL;
	if (once != NULL)
		rs = once;
	if (cli_select_columns(cli_columns_for(o, rs, fmt), rs, &narrow, err) < 0) {
		rowset_free(once);
		return -1;
	}
	if (narrow != NULL)
		rs = narrow;
	if (outfile_open(&out, o->output, err) < 0) {
		rowset_free(narrow);
		rowset_free(once);
		return -1;
	}
	if (writer_write(out.f, rs, fmt, width) < 0) {
		int e = errno;
		outfile_abort(&out);
		rowset_free(narrow);
		rowset_free(once);
		return error_runtime(err, "cannot write %s%s%s: %s", o->output ? "'" : "",
				     o->output ? o->output : "standard output", o->output ? "'" : "",
				     strerror(e ? e : EIO));
	}
	rowset_free(narrow);
	rowset_free(once);
	return outfile_commit(&out, err);
}

enum { OPTION_ERROR = -2 };

/* The next option of argv that is the command's own (or --help): handles
 * the common ones on the way. Returns its character, -1 at the end of the
 * options, or OPTION_ERROR with err set (a bad value, a missing value, an
 * unknown option). Call after options_init(), which rewinds getopt. */
static int next_option(struct cli_options *o, const char *cmd, int argc, char **argv,
		       const char *shortopts, const struct option *longopts, struct cs_error *err)
{
	for (;;) {
		int ch = getopt_long(argc, argv, shortopts, longopts, NULL);
		int rc;
		if (ch == -1)
			return -1;
		if (ch == ':') {
			cli_usage_error(err, cmd, "option '%s' needs a value", argv[optind - 1]);
			return OPTION_ERROR;
		}
		if (ch == '?') {
			cli_usage_error(err, cmd, "unknown option '%s'", argv[optind - 1]);
			return OPTION_ERROR;
		}
		rc = common_option(o, cmd, ch, optarg, err);
		if (rc < 0)
			return OPTION_ERROR;
		if (rc == 0)
			return ch;
	}
}

/* The common options, in the order cli_list_options() lists them. */
static const struct {
	unsigned bit;
	struct option opt;
} common_options[] = {
	{ CLI_FORMAT, { "format", required_argument, NULL, 'f' } },
	{ CLI_OUTPUT, { "output", required_argument, NULL, 'o' } },
	{ CLI_SET, { "set", required_argument, NULL, 's' } },
	{ CLI_SEED, { "seed", required_argument, NULL, 'S' } },
	{ CLI_CATALOG, { "catalog", required_argument, NULL, 'c' } },
	{ CLI_COLUMNS, { "columns", required_argument, NULL, 'k' } },
};

enum {
	N_COMMON = sizeof common_options / sizeof common_options[0],
	HELP_KEY = 'h'
};

static const struct option help_option = { "help", no_argument, NULL, HELP_KEY };

/* getopt_long's tables for cmd: the common options it takes, its own and
 * --help; short ones are -o (with --output), -h and the own ones marked so. */
static void option_tables(const struct cli_command *cmd, struct option longopts[N_COMMON + CLI_OWN_MAX + 2],
			  char shortopts[2 * (CLI_OWN_MAX + 2) + 3])
{
	size_t n = 0, ns = 0;

	if (cmd->options_before_operands)
		shortopts[ns++] = '+';  /* getopt stops at the first operand */
	shortopts[ns++] = ':';
	for (size_t i = 0; i < N_COMMON; i++) {
		if ((cmd->common & common_options[i].bit) == 0)
			continue;
		longopts[n++] = common_options[i].opt;
		if (common_options[i].bit == CLI_OUTPUT) {
			shortopts[ns++] = 'o';
			shortopts[ns++] = ':';
		}
	}
	for (const struct cli_option *op = cmd->options; op != NULL && op->name != NULL; op++) {
		assert(op - cmd->options < CLI_OWN_MAX);
		longopts[n++] = (struct option){ op->name, op->takes_value ? required_argument : no_argument,
						 NULL, op->key };
		if (op->short_too) {
			shortopts[ns++] = (char)op->key;
			if (op->takes_value)
				shortopts[ns++] = ':';
		}
	}
	longopts[n++] = help_option;
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[ns++] = HELP_KEY;
	shortopts[ns] = '\0';
}

/* The index of cmd's own option key, or -1. */
static int own_index(const struct cli_command *cmd, int key)
{
	for (int i = 0; cmd->options != NULL && cmd->options[i].name != NULL; i++)
		if (cmd->options[i].key == key)
			return i;
	return -1;
}

const char *cli_value(const struct cli_call *call, int key)
{
	int i = own_index(call->cmd, key);
	return i < 0 ? NULL : call->values[i];
}

void cli_list_options(const struct cli_command *cmd, FILE *f)
{
	for (size_t i = 0; i < N_COMMON; i++)
		if (cmd->common & common_options[i].bit)
			fprintf(f, "%s\n", common_options[i].opt.name);
	for (const struct cli_option *op = cmd->options; op != NULL && op->name != NULL; op++)
		fprintf(f, "%s\n", op->name);
	fprintf(f, "%s\n", help_option.name);
}

/* The operands the entry allows: "missing NAME" when too few, the first
 * one too many named when too many. */
static int check_operands(const struct cli_call *call, struct cs_error *err)
{
	const struct cli_command *cmd = call->cmd;
	if (call->n_operands < cmd->operands.min)
		return cli_usage_error(err, cmd->name, "missing %s", cmd->operands.name);
	if (call->n_operands > cmd->operands.max)
		return cli_usage_error(err, cmd->name, "unexpected argument '%s'",
				       call->operands[cmd->operands.max]);
	return 0;
}

/* The options and the operands of argv, into call. Returns 0, or
 * EXIT_USAGE with err set; on --help prints the usage and sets *helped. */
static int parse_args(struct cli_call *call, int argc, char **argv, bool *helped,
		      struct cs_error *err)
{
	const struct cli_command *cmd = call->cmd;
	struct option longopts[N_COMMON + CLI_OWN_MAX + 2];
	char shortopts[2 * (CLI_OWN_MAX + 2) + 3];
	int ch;

	option_tables(cmd, longopts, shortopts);
	while ((ch = next_option(&call->o, cmd->name, argc, argv, shortopts, longopts, err)) != -1) {
		int i;
		if (ch == OPTION_ERROR)
			return EXIT_USAGE;
		if (ch == HELP_KEY) {
			fputs(cmd->usage, stdout);
			*helped = true;
			return EXIT_OK;
		}
		i = own_index(cmd, ch);
		if (cmd->options[i].check != NULL && cmd->options[i].check(cmd->name, optarg, err) != 0)
			return EXIT_USAGE;
		call->values[i] = cmd->options[i].takes_value ? optarg : "";
	}
	call->operands = argv + optind;
	call->n_operands = (size_t)(argc - optind);
	return check_operands(call, err);
}

/* -o names a file the command reads: refuse before computing anything, so
 * the input survives (through a link too: same device and inode). */
static int check_not_input_before_load(const struct cli_call *call, const char *out, struct cs_error *err)
{
	for (size_t i = 0; i < call->n_operands; i++)
		if (outfile_check_not_input(out, call->operands[i], "input file", err) < 0)
			return EXIT_USAGE;
	for (size_t i = 0; i < call->o.n_catalogs; i++)
		if (outfile_check_not_input(out, call->o.catalogs[i], "catalog file", err) < 0)
			return EXIT_USAGE;
	return 0;
}

/* A catalog price observed over a year before the catalog's as_of date is
 * used, but said on standard error (never in the rows, which stay the same
 * whatever the day): once per price (cli/price_notes.h), and not at all
 * when the command only lists its columns. */
static void warn_stale_prices(const struct cli_call *call)
{
	const struct scenario *s = &call->scenario;
	struct price_notes ns = { 0 };
	if (cli_columns_help(&call->o))
		return;
	for (size_t i = 0; i < s->n_candidates; i++)
		price_notes_add(&ns, s->candidates[i].name, s->candidates[i].price.stale);
	price_notes_say(&ns, stderr, "candidate");
	price_notes_release(&ns);
}

/* The same for the files the loaded scenario itself names. */
static int check_not_input_after_load(const struct cli_call *call, const char *out, struct cs_error *err)
{
	const struct scenario *s = &call->scenario;
	for (size_t i = 0; i < s->n_catalog_files; i++)
		if (outfile_check_not_input(out, s->catalog_files[i], "catalog file", err) < 0)
			return EXIT_USAGE;
	if (s->workload.kind == WORKLOAD_INFERENCE && s->workload.serving.trace[0] != '\0' &&
	    outfile_check_not_input(out, s->workload.serving.trace, "request trace", err) < 0)
		return EXIT_USAGE;
	for (int i = 0; s->workload.kind == WORKLOAD_FLEET && i < s->workload.fleet->n_classes; i++) {
		const char *trace = s->workload.fleet->classes[i].trace;
		if (trace[0] != '\0' && outfile_check_not_input(out, trace, "job trace", err) < 0)
			return EXIT_USAGE;
	}
	return 0;
}

static int check_output_before_load(const struct cli_call *call, struct cs_error *err)
{
	return check_not_input_before_load(call, call->o.output, err);
}

static int check_output_after_load(const struct cli_call *call, struct cs_error *err)
{
	return check_not_input_after_load(call, call->o.output, err);
}

int cli_check_not_input(const struct cli_call *call, const char *path, struct cs_error *err)
{
	int rc = check_not_input_before_load(call, path, err);
	if (rc == 0 && call->cmd->load == CLI_LOAD_SCENARIO)
		rc = check_not_input_after_load(call, path, err);
	return rc;
}

int cli_invoke(const struct cli_command *cmd, int argc, char **argv, struct cs_error *err)
{
	struct cli_call call;
	bool loaded = false, helped = false;
	int status;

	memset(&call, 0, sizeof call);
	call.cmd = cmd;
	options_init(&call.o);
	if ((status = parse_args(&call, argc, argv, &helped, err)) != 0 || helped)
		goto out;
	if ((status = check_output_before_load(&call, err)) != 0)
		goto out;
	if (cmd->load != CLI_LOAD_NOTHING) {
		call.cat = cli_catalog(&call.o, err);
		if (call.cat == NULL) {
			status = cli_status(err);
			goto out;
		}
	}
	if (cmd->load == CLI_LOAD_SCENARIO) {
		if (scenario_load(call.operands[0], call.o.sets, call.o.n_sets, call.o.seed, call.cat,
				  &call.scenario, err) < 0) {
			status = cli_status(err);
			goto out;
		}
		loaded = true;
		warn_stale_prices(&call);
		if ((status = check_output_after_load(&call, err)) != 0)
			goto out;
	}
	status = cmd->exec(&call, err);
out:
	if (loaded)
		scenario_release(&call.scenario);
	catalog_free(call.cat);
	options_release(&call.o);
	return status;
}
