#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/outfile.h"
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

void cli_options_init(struct cli_options *o)
{
	memset(o, 0, sizeof *o);
	o->seed = -1;
	opterr = 0;  /* errors are ours to word */
	optind = 1;
}

void cli_options_release(struct cli_options *o)
{
	free(o->sets);
	free(o->catalogs);
	cli_options_init(o);
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

int cli_next_option(struct cli_options *o, const char *cmd, int argc, char **argv,
		    const char *shortopts, const struct option *longopts, struct cs_error *err)
{
	for (;;) {
		int ch = getopt_long(argc, argv, shortopts, longopts, NULL);
		int rc;
		if (ch == -1)
			return -1;
		if (ch == ':') {
			cli_usage_error(err, cmd, "option '%s' needs a value", argv[optind - 1]);
			return CLI_OPTION_ERROR;
		}
		if (ch == '?') {
			cli_usage_error(err, cmd, "unknown option '%s'", argv[optind - 1]);
			return CLI_OPTION_ERROR;
		}
		rc = cli_common_option(o, cmd, ch, optarg, err);
		if (rc < 0)
			return CLI_OPTION_ERROR;
		if (rc == 0)
			return ch;
	}
}

int cli_one_operand(int argc, char **argv, const char *cmd, const char *what,
		    const char **arg, struct cs_error *err)
{
	if (optind >= argc)
		return cli_usage_error(err, cmd, "missing %s", what);
	if (optind + 1 < argc)
		return cli_usage_error(err, cmd, "unexpected argument '%s'", argv[optind + 1]);
	*arg = argv[optind];
	return 0;
}

int cli_common_option(struct cli_options *o, const char *cmd, int ch,
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
		cli_usage_error(err, cmd, "--format must be table, csv or json, not '%s'", arg);
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
		long long v = strtoll(arg, &end, 10);
		if (end == arg || *end != '\0' || errno != 0 || v < 0) {
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

/* The rowset narrowed to --columns (a new one), or NULL with err set. */
static rowset *select_columns(const struct cli_options *o, const rowset *rs, struct cs_error *err)
{
	char *copy = xstrdup(o->columns);
	const char **names = NULL;
	size_t n = 0;
	const char *bad = NULL;
	rowset *out;
	for (char *tok = copy, *next; tok != NULL; tok = next) {
		next = strchr(tok, ',');
		if (next != NULL)
			*next++ = '\0';
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = tok;
	}
	out = rowset_select(rs, names, n, &bad);
	if (out == NULL)
		error_set(err, "--columns: no column named '%.60s' (the output has %zu columns, e.g. '%s')",
			  bad, rowset_ncols(rs), rowset_ncols(rs) > 0 ? rowset_column(rs, 0) : "");
	free(names);
	free(copy);
	return out;
}

int cli_write(const struct cli_options *o, const rowset *rs, struct cs_error *err)
{
	struct outfile out;
	enum output_format fmt = cli_format(o);
	int width = o->output == NULL ? cli_table_width() : 0;
	rowset *narrow = NULL;

	if (o->columns != NULL) {
		narrow = select_columns(o, rs, err);
		if (narrow == NULL)
			return -1;
		rs = narrow;
	}
	if (outfile_open(&out, o->output, err) < 0) {
		rowset_free(narrow);
		return -1;
	}
	if (writer_write(out.f, rs, fmt, width) < 0) {
		int e = errno;
		outfile_abort(&out);
		rowset_free(narrow);
		return error_runtime(err, "cannot write %s%s%s: %s", o->output ? "'" : "",
				     o->output ? o->output : "standard output", o->output ? "'" : "",
				     strerror(e ? e : EIO));
	}
	rowset_free(narrow);
	return outfile_commit(&out, err);
}
