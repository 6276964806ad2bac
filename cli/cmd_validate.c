/* clustersim validate: predict published figures and report the error. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "models/measure/measure.h"
#include "models/validate/validation.h"
#include "output/outfile.h"
#include "sim/stats.h"
#include "util/xalloc.h"

static const char usage_text[] =
	"usage: clustersim validate [FILES...] [--on SCENARIO] [--format table|csv|json] [--catalog FILE]...\n"
	"                           [--columns LIST] [-o FILE]\n\n"
	"Runs every validation scenario (default: scenarios/validation/*.json, or the installed\n"
	"copy) and prints id,metric,published,predicted,error_pct,status,reason,source,kind\n"
	"(kind: training, finetune, collective or serving). A summary goes to standard error:\n"
	"all rows, then each kind on a line of its own, then each source family's mean signed\n"
	"error (+ = the model is too fast or optimistic; a time's sign is flipped) and |error|.\n"
	"A family is validation.family, else the id up to its first '_' (docs/explanation/validation.md).\n"
	"Exit status 1 when the median absolute error exceeds 10% or any row exceeds 25%.\n"
	"FILES may also be your own measurements, recognised by their content: scenarios with a\n"
	"\"measured\" block (JSON, a JSON array or JSON Lines), nccl-tests output, the JSON vLLM's\n"
	"serving benchmark saves, trtllm-bench's report, a GEMM sweep (hipblaslt-bench CSV,\n"
	"mamf-finder.py's report: docs/reference/measurements.md); their rows' published column\n"
	"is the measured figure.\n"
	"  --on SCENARIO      the cluster (first candidate) and deployment the measurements without\n"
	"                     one ran on: nccl-tests, vLLM, trtllm-bench and GEMM sweep files\n"
	"  --format F         table (on a terminal), csv (otherwise) or json\n"
	"  --catalog FILE     merge a user's catalog file before reading the scenarios\n"
	"  --columns a,b,c    print only these columns, in this order\n"
	"  -o, --output FILE  write the rows to FILE (atomically) instead of standard output\n"
	"  -h, --help         print this help\n";

/* Targets of the issue: median |error| <= 10%, no row beyond 25%. */
#define MEDIAN_TARGET_PCT 10.0
#define WORST_TARGET_PCT 25.0

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .json files of a directory, sorted. Caller frees each and the array. */
static char **list_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t cap = 0;
	struct dirent *e;
	*n = 0;
	if (d == NULL)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		names = xgrow(names, &cap, *n + 1, sizeof *names, 64);
		names[(*n)++] = xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (*n > 0)
		qsort(names, *n, sizeof *names, cmp_str);
	return names;
}

/* The scenario files of one run of the command. */
struct validate_files {
	char **names;
	size_t n;
	bool owned;  /* listed from a directory: names and array are ours to free */
};

/* The FILES operands, else the .json files of the first validation
 * directory that has any. Returns false, with *status set, when there are
 * none. */
static bool validate_files_list(const struct cli_call *call, struct validate_files *vf, int *status,
				struct cs_error *err)
{
	static const char *const dirs[] = {
		"scenarios/validation", CLUSTERSIM_PREFIX "/share/clustersim/validation", NULL
	};
	vf->names = NULL;
	vf->n = 0;
	vf->owned = false;
	if (call->n_operands > 0) {
		vf->names = call->operands;
		vf->n = call->n_operands;
		return true;
	}
	for (int i = 0; dirs[i] != NULL && vf->n == 0; i++) {
		vf->names = list_dir(dirs[i], &vf->n);
		vf->owned = vf->names != NULL;
	}
	if (vf->n == 0) {
		*status = cli_usage_error(err, "validate", "no validation scenarios found (give FILES or run from the source tree)");
		return false;
	}
	return true;
}

static void validate_files_release(struct validate_files *vf)
{
	if (!vf->owned)
		return;
	for (size_t i = 0; i < vf->n; i++)
		free(vf->names[i]);
	free(vf->names);
}

/* Fill the current row's prediction columns and count it in sum. */
static void validate_predict_row(const struct scenario *s, rowset *rs, struct validation_summary *sum)
{
	char why[4096] = "", family[CAT_NAME_MAX];  /* a result's reason (2048) and its status */
	double predicted, e = 0, signed_e = 0;
	const struct validation_spec *v = &s->validation;
	bool ok = validation_predict(s, &predicted, why, sizeof why) && isfinite(predicted);
	if (ok) {
		e = 100.0 * (predicted - v->published) / v->published;
		signed_e = validation_signed_error_pct(v->metric, v->published, predicted);
		rowset_real(rs, "predicted", predicted);
		rowset_real(rs, "error_pct", e);
		rowset_text(rs, "status", "ok");
		if (why[0] != '\0')
			rowset_text(rs, "reason", why);  /* the assumptions the figure rests on */
	} else {
		rowset_text(rs, "status", "not-predicted");
		rowset_text(rs, "reason", why);
	}
	validation_family(s, family, sizeof family);
	validation_summary_add(sum, v->id, validation_kind(s), family, ok, e, signed_e);
}

static void validate_row(const struct scenario *s, rowset *rs, struct validation_summary *sum);

/* Load one validation scenario (over a copy of base: a file's catalog block
 * stays its own) and add its row. Returns false, with *status set, when the
 * file cannot be read or has no validation block. */
static bool validate_file(const char *file, const catalog *base, rowset *rs, struct validation_summary *sum,
			  int *status, struct cs_error *err)
{
	struct scenario s;
	catalog *cat = catalog_copy(base);
	if (scenario_load(file, NULL, 0, -1, cat, &s, err) < 0) {
		catalog_free(cat);
		*status = cli_status(err);
		return false;
	}
	catalog_free(cat);
	if (!s.validation.present) {
		scenario_release(&s);
		*status = cli_usage_error(err, "validate", "'%s' has no \"validation\" block", file);
		return false;
	}
	validate_row(&s, rs, sum);
	scenario_release(&s);
	return true;
}

/* The rows of a measurement file (measure.h), each read over a copy of
 * base as a scenario file is. Returns false, with *status set, when the
 * file or a document of it is bad. */
static bool validate_measurements(const char *file, const char *on, const catalog *base, rowset *rs,
				  struct validation_summary *sum, int *status, struct cs_error *err)
{
	struct measure_set set = { 0 };
	const char *files[1] = { file };
	bool ok = measure_load_files(files, 1, on, &set, err) == 0;
	for (size_t i = 0; ok && i < set.n; i++) {
		const struct measure_doc *d = &set.docs[i];
		struct scenario s;
		catalog *cat = catalog_copy(base);
		char *name = d->line > 0 && d->anchor == NULL ? xasprintf("%s:%ld", d->file, d->line)
							     : xstrdup(d->anchor ? d->anchor : d->file);
		ok = scenario_from_json(d->scenario, name, cat, &s, err) == 0;
		free(name);
		catalog_free(cat);
		if (!ok)
			break;
		ok = measure_doc_check(d, &s, err) == 0;
		if (ok)
			validate_row(&s, rs, sum);
		scenario_release(&s);
	}
	if (!ok)
		*status = cli_status(err);
	measure_set_release(&set);
	return ok;
}

/* The row of s, a scenario with its validation block. */
static void validate_row(const struct scenario *s_in, rowset *rs, struct validation_summary *sum)
{
	const struct scenario *sp = s_in;
	rowset_add_row(rs);
	rowset_text(rs, "id", sp->validation.id);
	rowset_text(rs, "metric", sp->validation.metric);
	rowset_real(rs, "published", sp->validation.published);
	rowset_text(rs, "source", sp->validation.source);
	rowset_text(rs, "kind", validation_kind_names[validation_kind(sp)]);
	validate_predict_row(sp, rs, sum);
}

/* One summary line of group g ("" for all rows, else "KIND: "); the number
 * of rows beyond the worst-row target into *over. The line of all rows is
 * read by scripts: keep its text. */
static double validate_summary_line(const char *label, struct validation_group *g, size_t *over)
{
	size_t nerr = validation_group_count(g);
	*over = 0;
	for (size_t i = 0; i < nerr; i++)
		*over += g->abs_err_pct.v[i] > WORST_TARGET_PCT;
	double median = validation_group_median_pct(g);
	fprintf(stderr, "validate: %s%zu rows predicted, %zu not; median |error| %.1f%%, worst %.1f%% (%s); %zu rows beyond %.0f%%\n",
		label, nerr, g->failed, median, g->worst_pct, g->worst_id[0] ? g->worst_id : "-", *over,
		WORST_TARGET_PCT);
	return median;
}

/* The line of one family: its mean signed error (+ = the model too fast),
 * then its median and worst |error|. */
static void validate_family_line(struct validation_group *g)
{
	size_t n = validation_group_count(g);
	if (n == 0) {
		fprintf(stderr, "validate: family %s: 0 rows predicted, %zu not\n", g->name, g->failed);
		return;
	}
	fprintf(stderr, "validate: family %s: %zu rows predicted, %zu not; mean signed error %+.1f%% (+ = model too fast), median |error| %.1f%%, worst %.1f%% (%s)\n",
		g->name, n, g->failed, validation_group_mean_signed_pct(g), validation_group_median_pct(g),
		g->worst_pct, g->worst_id);
}

/* Print the summary to standard error: every row, then each kind that has
 * rows, then each family. EXIT_RUNTIME when the targets are not met (over
 * all rows), else EXIT_OK. */
static int validate_summary(struct validation_summary *sum, struct cs_error *err)
{
	size_t over, kind_over;
	double median = validate_summary_line("", &sum->all, &over);
	for (int k = 0; k < VALIDATION_KINDS; k++) {
		struct validation_group *g = &sum->kinds[k];
		if (validation_group_count(g) + g->failed == 0)
			continue;
		char label[80];
		snprintf(label, sizeof label, "%s: ", g->name);
		validate_summary_line(label, g, &kind_over);
	}
	for (size_t i = 0; i < sum->n_families; i++)
		validate_family_line(&sum->families[i]);
	if (median > MEDIAN_TARGET_PCT || over > 0 || sum->all.failed > 0) {
		error_runtime(err, "validate: the targets (median <= %.0f%%, every row <= %.0f%%, every row predicted) are not met",
			      MEDIAN_TARGET_PCT, WORST_TARGET_PCT);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static int validate_exec(struct cli_call *call, struct cs_error *err)
{
	static const char *const cols[] = {
		"id", "metric", "published", "predicted", "error_pct", "status", "reason", "source", "kind", NULL
	};
	const char *on = cli_value(call, 'O');
	struct validate_files vf;
	struct validation_summary sum;
	rowset *rs = NULL;
	int status = EXIT_OK;

	if (cli_columns_help(&call->o)) {  /* the columns, without validating */
		rs = rowset_new(cols);
		if (cli_write(&call->o, rs, err) < 0)
			status = cli_status(err);
		rowset_free(rs);
		return status;
	}
	validation_summary_init(&sum);
	if (!validate_files_list(call, &vf, &status, err))
		goto out;
	if (on != NULL && call->o.output != NULL &&
	    outfile_check_not_input(call->o.output, on, "scenario file", err) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	rs = rowset_new(cols);
	for (size_t i = 0; i < vf.n; i++) {
		bool ok = measure_file_format(vf.names[i]) != NULL || !measure_file_is_scenario(vf.names[i])
			? validate_measurements(vf.names[i], on, call->cat, rs, &sum, &status, err)
			: validate_file(vf.names[i], call->cat, rs, &sum, &status, err);
		if (!ok)
			goto out;
	}
	if (cli_write(&call->o, rs, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	status = validate_summary(&sum, err);
out:
	validate_files_release(&vf);
	validation_summary_release(&sum);
	rowset_free(rs);
	return status;
}

static const struct cli_option validate_options[] = {
	{ .name = "on", .key = 'O', .takes_value = true },
	{ .name = NULL },
};

const struct cli_command cli_cmd_validate = {
	.name = "validate",
	.summary = "predict published runs, collectives and serving benchmarks; report the error",
	.usage = usage_text,
	.common = CLI_FORMAT | CLI_OUTPUT | CLI_CATALOG | CLI_COLUMNS,
	.options = validate_options,
	.operands = { .min = 0, .max = SIZE_MAX, .name = "FILES" },
	.load = CLI_LOAD_CATALOG,
	.exec = validate_exec,
};
