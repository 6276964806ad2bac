/* clustersim validate: predict published figures and report the error. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "models/validate/validation.h"
#include "sim/stats.h"
#include "util/xalloc.h"

static const char usage_text[] =
	"usage: clustersim validate [FILES...] [--format table|csv|json] [--catalog FILE]... [--columns LIST]\n"
	"                           [-o FILE]\n\n"
	"Runs every validation scenario (default: scenarios/validation/*.json, or the installed\n"
	"copy) and prints id,metric,published,predicted,error_pct; a summary goes to standard\n"
	"error. Exit status 1 when the median absolute error exceeds 10% or any row exceeds 25%.\n"
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
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			names = xreallocarray(names, cap, sizeof *names);
		}
		names[(*n)++] = xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (*n > 0)
		qsort(names, *n, sizeof *names, cmp_str);
	return names;
}

static int validate_exec(struct cli_call *call, struct cs_error *err)
{
	static const char *const cols[] = {
		"id", "metric", "published", "predicted", "error_pct", "status", "reason", "source", NULL
	};
	char **files = NULL;
	size_t nfiles = 0;
	bool owned = false;
	const catalog *base = call->cat;
	rowset *rs = NULL;
	struct stats_sample abs_err;
	size_t failed = 0;
	int status = EXIT_OK;
	char worst_id[128] = "";
	double worst = 0;

	stats_sample_init(&abs_err);
	if (call->n_operands > 0) {
		files = call->operands;
		nfiles = call->n_operands;
	} else {
		static const char *const dirs[] = {
			"scenarios/validation", CLUSTERSIM_PREFIX "/share/clustersim/validation", NULL
		};
		for (int i = 0; dirs[i] != NULL && nfiles == 0; i++) {
			files = list_dir(dirs[i], &nfiles);
			owned = files != NULL;
		}
		if (nfiles == 0) {
			status = cli_usage_error(err, "validate", "no validation scenarios found (give FILES or run from the source tree)");
			goto out;
		}
	}
	rs = rowset_new(cols);
	for (size_t i = 0; i < nfiles; i++) {
		struct scenario s;
		catalog *cat = catalog_copy(base);  /* a file's catalog block stays its own */
		char why[512] = "";
		double predicted;
		if (scenario_load(files[i], NULL, 0, -1, cat, &s, err) < 0) {
			catalog_free(cat);
			status = cli_status(err);
			goto out;
		}
		catalog_free(cat);
		if (!s.validation.present) {
			scenario_release(&s);
			status = cli_usage_error(err, "validate", "'%s' has no \"validation\" block", files[i]);
			goto out;
		}
		rowset_add_row(rs);
		rowset_text(rs, "id", s.validation.id);
		rowset_text(rs, "metric", s.validation.metric);
		rowset_real(rs, "published", s.validation.published);
		rowset_text(rs, "source", s.validation.source);
		if (validation_predict(&s, &predicted, why, sizeof why) && isfinite(predicted)) {
			double e = 100.0 * (predicted - s.validation.published) / s.validation.published;
			rowset_real(rs, "predicted", predicted);
			rowset_real(rs, "error_pct", e);
			rowset_text(rs, "status", "ok");
			stats_sample_add(&abs_err, fabs(e));
			if (fabs(e) > worst) {
				worst = fabs(e);
				snprintf(worst_id, sizeof worst_id, "%s", s.validation.id);
			}
		} else {
			rowset_text(rs, "status", "not-predicted");
			rowset_text(rs, "reason", why);
			failed++;
		}
		scenario_release(&s);
	}
	if (cli_write(&call->o, rs, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	{
		size_t nerr = abs_err.n, over = 0;
		for (size_t i = 0; i < nerr; i++)
			over += abs_err.v[i] > WORST_TARGET_PCT;
		double median = stats_sample_percentile(&abs_err, 50);
		fprintf(stderr, "validate: %zu rows predicted, %zu not; median |error| %.1f%%, worst %.1f%% (%s); %zu rows beyond %.0f%%\n",
			nerr, failed, median, worst, worst_id[0] ? worst_id : "-", over, WORST_TARGET_PCT);
		if (median > MEDIAN_TARGET_PCT || over > 0 || failed > 0) {
			error_runtime(err, "validate: the targets (median <= %.0f%%, every row <= %.0f%%, every row predicted) are not met",
				      MEDIAN_TARGET_PCT, WORST_TARGET_PCT);
			status = EXIT_RUNTIME;
		}
	}
out:
	if (owned) {
		for (size_t i = 0; i < nfiles; i++)
			free(files[i]);
		free(files);
	}
	stats_sample_release(&abs_err);
	rowset_free(rs);
	return status;
}

const struct cli_command cli_cmd_validate = {
	.name = "validate",
	.summary = "predict published runs and collectives; report the error",
	.usage = usage_text,
	.common = CLI_FORMAT | CLI_OUTPUT | CLI_CATALOG | CLI_COLUMNS,
	.operands = { .min = 0, .max = SIZE_MAX, .name = "FILES" },
	.load = CLI_LOAD_CATALOG,
	.exec = validate_exec,
};
