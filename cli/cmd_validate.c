/* clustersim validate: predict published figures and report the error. */
#include <dirent.h>
#include <getopt.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "models/nccl_tests.h"
#include "models/training.h"
#include "util/xalloc.h"

static const char *const usage_text =
	"usage: clustersim validate [FILES...] [--format table|csv] [-o FILE]\n\n"
	"Runs every validation scenario (default: scenarios/validation/*.json, or the installed\n"
	"copy) and prints id,metric,published,predicted,error_pct; a summary goes to standard\n"
	"error. Exit status 1 when the median absolute error exceeds 10% or any row exceeds 25%.\n";

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

/* The predicted value of the scenario's metric; false with why when none. */
static bool predict(const struct scenario *s, double *out, char *why, size_t size)
{
	const struct validation_spec *v = &s->validation;
	const struct cluster_spec *c = &s->candidates[0];
	if (s->workload.kind == WORKLOAD_COLLECTIVE) {
		struct nccl_point p;
		nccl_tests_point(c, &s->workload.collective, s->workload.collective.bytes[0], &p);
		if (!p.ok) {
			snprintf(why, size, "%s", p.reason);
			return false;
		}
		if (strcmp(v->metric, "busbw_GBps") == 0)
			*out = p.busbw_bytes_per_s / 1e9;
		else if (strcmp(v->metric, "busbw_per_nic_GBps") == 0)
			*out = p.busbw_bytes_per_s / 1e9 / (c->nics_per_node > 0 ? c->nics_per_node : 1);
		else if (strcmp(v->metric, "algbw_GBps") == 0)
			*out = p.algbw_bytes_per_s / 1e9;
		else if (strcmp(v->metric, "time_us") == 0)
			*out = p.time_s * 1e6;
		else {
			snprintf(why, size, "metric %s does not apply to a collective", v->metric);
			return false;
		}
		return true;
	}
	if (s->workload.kind == WORKLOAD_TRAINING || s->workload.kind == WORKLOAD_FINETUNE) {
		struct train_result r;
		training_evaluate(&s->workload, c, &r);
		if (r.status != TRAIN_OK) {
			snprintf(why, size, "%s: %s", train_status_names[r.status], r.reason);
			return false;
		}
		if (strcmp(v->metric, "tflops_per_gpu") == 0)
			*out = r.tflops_per_gpu;
		else if (strcmp(v->metric, "mfu") == 0)
			*out = r.mfu;
		else if (strcmp(v->metric, "hfu") == 0)
			*out = r.hfu;
		else if (strcmp(v->metric, "step_time_s") == 0)
			*out = r.step_time_s;
		else if (strcmp(v->metric, "tokens_per_s") == 0)
			*out = r.tokens_per_s;
		else if (strcmp(v->metric, "samples_per_s") == 0)
			*out = r.tokens_per_s / s->workload.seq_len;
		else {
			snprintf(why, size, "metric %s does not apply to training", v->metric);
			return false;
		}
		return true;
	}
	snprintf(why, size, "workload kind %s is not validated yet", workload_kind_names[s->workload.kind]);
	return false;
}

int cmd_validate(int argc, char **argv, struct cs_error *err)
{
	static const struct option longopts[] = {
		CLI_OPT_FORMAT,
		CLI_OPT_OUTPUT,
		CLI_OPT_CATALOG,
		CLI_OPT_COLUMNS,
		CLI_OPT_HELP,
		{ NULL, 0, NULL, 0 },
	};
	static const char *const cols[] = {
		"id", "metric", "published", "predicted", "error_pct", "status", "reason", "source", NULL
	};
	struct cli_options o;
	char **files = NULL;
	size_t nfiles = 0;
	bool owned = false;
	catalog *base = NULL;
	rowset *rs = NULL;
	double *abs_err = NULL;
	size_t nerr = 0, failed = 0;
	int ch, status = EXIT_OK;
	char worst_id[128] = "";
	double worst = 0;

	cli_options_init(&o);
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		int rc = cli_common_option(&o, "validate", ch, optarg, err);
		if (rc < 0) {
			status = EXIT_USAGE;
			goto out;
		}
		if (rc > 0)
			continue;
		switch (ch) {
		case 'h':
			fputs(usage_text, stdout);
			cli_options_release(&o);
			return EXIT_OK;
		default:
			status = cli_bad_option(err, "validate", ch, argv);
			goto out;
		}
	}
	if (optind < argc) {
		files = argv + optind;
		nfiles = (size_t)(argc - optind);
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
	base = cli_catalog(&o, err);
	if (base == NULL) {
		status = cli_status(err);
		goto out;
	}
	rs = rowset_new(cols);
	abs_err = xcalloc(nfiles, sizeof *abs_err);
	for (size_t i = 0; i < nfiles; i++) {
		struct scenario s;
		catalog *cat = cli_catalog(&o, err);
		char why[512] = "";
		double predicted;
		if (cat == NULL || scenario_load(files[i], NULL, 0, -1, cat, &s, err) < 0) {
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
		if (predict(&s, &predicted, why, sizeof why) && isfinite(predicted)) {
			double e = 100.0 * (predicted - s.validation.published) / s.validation.published;
			rowset_real(rs, "predicted", predicted);
			rowset_real(rs, "error_pct", e);
			rowset_text(rs, "status", "ok");
			abs_err[nerr++] = fabs(e);
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
	if (cli_write(&o, rs, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	{
		double median = 0;
		size_t over = 0;
		for (size_t i = 0; i < nerr; i++)
			over += abs_err[i] > WORST_TARGET_PCT;
		if (nerr > 0) {
			gsl_sort(abs_err, 1, nerr);
			median = gsl_stats_median_from_sorted_data(abs_err, 1, nerr);
		}
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
	free(abs_err);
	rowset_free(rs);
	catalog_free(base);
	cli_options_release(&o);
	return status;
}
