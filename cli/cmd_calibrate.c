/* clustersim calibrate: fit the catalog's measured constants to a user's
 * measurements; write the overlay of what moved and report every
 * measurement's error before, after and held out. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "models/calib/calib.h"
#include "models/calib/calib_param.h"
#include "output/outfile.h"
#include "util/text.h"
#include "util/xalloc.h"

static const char usage_text[] =
	"usage: clustersim calibrate FILES... [-o OVERLAY] [--on SCENARIO] [--error PCT] [--catalog FILE]...\n"
	"                            [--format table|csv|json] [--columns LIST]\n\n"
	"Fits the catalog constants that the measurements in FILES determine (per GPU: mamf_bf16,\n"
	"mamf_fp8, mamf_fp4, mem_bw_measured_GBps, attn_train_over_gemm; per fabric: efficiency,\n"
	"latency_us, nvls_algbw_efficiency): the maximum a posteriori values, the catalog's as the\n"
	"prior, within their physical bounds. A constant is fitted when its posterior sd is below\n"
	"half its prior sd (or the fit holds it at its physical bound); the others keep the\n"
	"catalog's value. Writes the entries that moved as a catalog overlay to OVERLAY, for\n"
	"--catalog in plan, run, sweep and validate.\n"
	"FILES are read as validate reads them: your measurements (runs with a \"measured\" block,\n"
	"nccl-tests output, vLLM's and trtllm-bench's reports, GEMM sweeps: the last four with\n"
	"--on; docs/reference/measurements.md) or scenarios with a \"validation\" block.\n"
	"Measurements the model still misses by more than 3 sigma after the fit weigh little\n"
	"(Cauchy's loss) and are named in a warning.\n"
	"Prints id,kind,metric,measured,before,after,factor,factor_sd,error_before_pct,\n"
	"error_after_pct,heldout_error_pct,status,reason,source: one row per measurement (predicted\n"
	"before and after the fit; held out: at the constants fitted without it, to first order (one\n"
	"Gauss-Newton step from the fit's optimum), when its kind has at least 3 measurements), then\n"
	"one per candidate constant (kind constant: before, after, factor and its posterior sd;\n"
	"status fitted, at-bound or not-fitted, with the reason). A summary goes to standard error\n"
	"(docs/explanation/calibration.md).\n"
	"  -o, --output OVERLAY  write the overlay to OVERLAY (atomically; never over an input)\n"
	"  --on SCENARIO      the scenario of the cluster a measurement file ran on (for the\n"
	"                     formats that do not say)\n"
	"  --error PCT        the error of a prediction when the constants are right, in percent\n"
	"                     (model plus measurement; default 5.5, from the built-in validation)\n"
	"  --format F         table (on a terminal), csv (otherwise) or json\n"
	"  --catalog FILE     merge a user's catalog file first (the catalog being calibrated)\n"
	"  --columns a,b,c    print only these columns, in this order\n"
	"  -h, --help         print this help\n";

enum { KEY_ON = 'N', KEY_ERROR = 'E' };

/* --error PCT: a percentage in (0, 100). */
static int read_error(const char *cmd, const char *arg, double *pct, struct cs_error *err)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (end == arg || *end != '\0' || errno != 0 || !(v > 0) || !(v < 100))
		return cli_usage_error(err, cmd, "--error expects a percentage above 0 and below 100, got '%.40s'", arg);
	*pct = v;
	return 0;
}

static int check_error(const char *cmd, const char *arg, struct cs_error *err)
{
	double v;
	return read_error(cmd, arg, &v, err);
}

static const struct cli_option options[] = {
	{ .name = "on", .key = KEY_ON, .takes_value = true },
	{ .name = "error", .key = KEY_ERROR, .takes_value = true, .check = check_error },
	{ .name = NULL },
};

static const char *const cols[] = {
	"id", "kind", "metric", "measured", "before", "after", "factor", "factor_sd", "error_before_pct", "error_after_pct",
	"heldout_error_pct", "status", "reason", "source", NULL
};

/* The measurement files into set: today each a scenario with a validation
 * block. `on` (the --on scenario's path, or NULL) is for the formats that
 * need the cluster's scenario; none of these does. */
static int calib_load_files(char *const *files, size_t n, const char *on, struct measure_set *set,
			    struct cs_error *err)
{
	for (size_t i = 0; i < n; i++) {
		/* As validate reads its FILES: a measurement file of a known format
		 * (measured runs, nccl-tests, vLLM, trtllm-bench, a GEMM sweep), else a
		 * scenario with a validation block (the built-in rows' form). */
		if (measure_file_format(files[i]) != NULL || !measure_file_is_scenario(files[i])) {
			const char *one[1] = { files[i] };
			if (measure_load_files(one, 1, on, set, err) < 0)
				return -1;
			continue;
		}
		json_t *doc = scenario_read_json("measurement", files[i], err);
		if (doc == NULL)
			return -1;
		measure_set_add(set, doc, files[i], 0);
	}
	return 0;
}

/* Append piece to the heap string *s (NULL: empty). */
static void str_append(char **s, const char *piece)
{
	char *n = xasprintf("%s%s", *s != NULL ? *s : "", piece);
	free(*s);
	*s = n;
}

/* "calibrate from FILES on DATE": DATE from SOURCE_DATE_EPOCH when set (for
 * reproducible output), else today, UTC; the files named while they fit. */
static void calib_source(char *const *files, size_t n, char *buf, size_t size)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = sde != NULL && sde[0] != '\0' ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;
	char date[16] = "";
	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%Y-%m-%d", &tm);
	char *s = xstrdup("calibrate from");
	for (size_t i = 0; i < n; i++) {
		str_append(&s, i ? ", " : " ");
		str_append(&s, files[i]);
	}
	str_append(&s, " on ");
	str_append(&s, date);
	/* Too long for a catalog source: the count and the first file, the cut
	 * marked (text_setf) when even that does not fit. */
	if (strlen(s) < size)
		text_setf(buf, size, "%s", s);
	else
		text_setf(buf, size, "calibrate from %zu files (the first %s) on %s", n, files[0], date);
	free(s);
}

static void point_row(rowset *rs, const struct calib_point *pt)
{
	rowset_add_row(rs);
	rowset_text(rs, "id", pt->id);
	rowset_text(rs, "kind", validation_kind_names[pt->kind]);
	rowset_text(rs, "metric", pt->metric);
	rowset_real(rs, "measured", pt->measured);
	rowset_text(rs, "source", pt->source);
	if (!pt->ok) {
		rowset_text(rs, "status", "not-predicted");
		rowset_text(rs, "reason", pt->why);
		return;
	}
	rowset_text(rs, "status", "ok");
	rowset_real(rs, "before", pt->before);
	rowset_real(rs, "error_before_pct", calib_error_pct(pt->measured, pt->before));
	if (pt->after_ok) {
		rowset_real(rs, "after", pt->after);
		rowset_real(rs, "error_after_pct", calib_error_pct(pt->measured, pt->after));
	}
	if (pt->has_heldout)
		rowset_real(rs, "heldout_error_pct", calib_error_pct(pt->measured, pt->heldout));
	else
		rowset_text(rs, "reason", pt->heldout_why);
}

static void param_row(rowset *rs, const struct calib_result *res, const struct calib_param *p)
{
	char name[2 * CAT_NAME_MAX], why[512];
	calib_param_name(p, name, sizeof name);
	calib_param_reason(res, p, why, sizeof why);
	rowset_add_row(rs);
	rowset_text(rs, "id", name);
	rowset_text(rs, "kind", "constant");
	rowset_text(rs, "metric", p->field);
	rowset_real(rs, "before", p->before);
	rowset_real(rs, "after", p->after);
	rowset_real(rs, "factor", p->after / p->before);
	if (p->state == CALIB_FITTED)
		rowset_real(rs, "factor_sd", p->after / p->before * p->sd_post);  /* sd of log(value), to first order */
	rowset_text(rs, "status", p->state != CALIB_FITTED ? "not-fitted" : p->at_bound ? "at-bound" : "fitted");
	if (why[0] != '\0')
		rowset_text(rs, "reason", why);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median |error| of the points' before (0), after (1) or held-out (2)
 * predictions; NAN when none. */
static double median_abs(const struct calib_result *res, int which)
{
	double *v = xcalloc(res->n_points + 1, sizeof *v), m = NAN;
	size_t n = 0;
	for (size_t i = 0; i < res->n_points; i++) {
		const struct calib_point *pt = &res->points[i];
		bool has = which == 0 ? pt->ok : which == 1 ? pt->after_ok : pt->has_heldout;
		double pred = which == 0 ? pt->before : which == 1 ? pt->after : pt->heldout;
		if (has)
			v[n++] = fabs(calib_error_pct(pt->measured, pred));
	}
	if (n > 0) {
		qsort(v, n, sizeof *v, cmp_double);
		m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return m;
}

/* The summary line on standard error, and a warning per constant at its
 * bound and per measurement not predicted. */
/* Say when the fitted model still misses measurements by more than 3
 * sigma: no constants it fits make its form follow them (a fabric whose
 * library switches algorithm at some size, a kernel the model lacks), and
 * the fitted values are a compromise among the rest. */
static void misfit_warning(const struct calib_result *res)
{
	size_t n = 0, off = 0, worst = SIZE_MAX;
	double worst_z = 0;
	for (size_t i = 0; i < res->n_points; i++) {
		const struct calib_point *pt = &res->points[i];
		if (!pt->ok || !pt->after_ok)
			continue;
		n++;
		double z = fabs(log(pt->after / pt->measured)) / res->error_rel;
		if (z > 3) {
			off++;
			if (z > worst_z) {
				worst_z = z;
				worst = i;
			}
		}
	}
	if (off == 0)
		return;
	const struct calib_point *w = &res->points[worst];
	fprintf(stderr,
		"calibrate: warning: %zu of %zu measurements are still off by more than 3 x the stated error "
		"(%.1f%%), the worst %s by %+.1f%%: no value of the fitted constants makes the model follow them, "
		"and the fitted values are a compromise; read the after column before you plan with the overlay\n",
		off, n, 100 * (exp(3 * res->error_rel) - 1), w->id, 100 * (w->after / w->measured - 1));
}

static void calib_summary(const struct calib_result *res)
{
	char *fitted = NULL, *unfitted = NULL, *piece;
	char name[2 * CAT_NAME_MAX], why[512];
	size_t failed = 0;
	for (size_t j = 0; j < res->n_params; j++) {
		const struct calib_param *p = &res->params[j];
		calib_param_name(p, name, sizeof name);
		calib_param_reason(res, p, why, sizeof why);
		if (p->state == CALIB_FITTED) {
			piece = xasprintf("%s%s %.6g -> %.6g", fitted ? ", " : "", name, p->before, p->after);
			str_append(&fitted, piece);
			free(piece);
			if (p->at_bound)
				fprintf(stderr, "calibrate: warning: %s %s\n", name, why);
			continue;
		}
		piece = xasprintf("%s%s (%s)", unfitted ? ", " : "", name, why);
		str_append(&unfitted, piece);
		free(piece);
	}
	for (size_t i = 0; i < res->n_points; i++)
		failed += !res->points[i].ok;
	if (failed > 0)
		fprintf(stderr, "calibrate: %zu of %zu measurements not predicted, not fitted (their rows say why)\n", failed,
			res->n_points);
	fprintf(stderr, "calibrate: fitted %zu constants (%s); not fitted: %s\n", res->n_fitted, fitted ? fitted : "none",
		unfitted ? unfitted : "none");
	fprintf(stderr, "calibrate: %zu model predictions, %d fit iterations\n", res->n_evals, res->iterations);
	misfit_warning(res);
	double before = median_abs(res, 0), after = median_abs(res, 1), held = median_abs(res, 2);
	if (isnan(before)) {
		fprintf(stderr, "calibrate: no measurement predicted\n");
	} else {
		fprintf(stderr, "calibrate: on your runs the model is now off by %.1f%% median (%.1f%% before)", after, before);
		if (isnan(held))
			fprintf(stderr, "; no held-out error (no kind has 3 predicted measurements)\n");
		else
			fprintf(stderr, ", %.1f%% held out\n", held);
	}
	free(fitted);
	free(unfitted);
}

/* Write the overlay of what moved to path, atomically. */
static int write_overlay(const char *path, const struct calib_result *res, const char *source, struct cs_error *err)
{
	struct outfile out;
	json_t *ov = calib_overlay(res, source);
	if (ov == NULL)
		ov = json_object();  /* nothing moved: an overlay that changes nothing */
	if (outfile_open(&out, path, err) < 0) {
		json_decref(ov);
		return -1;
	}
	int rc = json_dumpf(ov, out.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	json_decref(ov);
	if (rc < 0 || fputc('\n', out.f) == EOF) {
		outfile_abort(&out);
		return error_runtime(err, "calibrate: cannot write '%s'", path);
	}
	return outfile_commit(&out, err);
}

static int calibrate_exec(struct cli_call *call, struct cs_error *err)
{
	/* -o names the overlay; the report goes to standard output. */
	const char *overlay = call->o.output, *on = cli_value(call, KEY_ON), *error = cli_value(call, KEY_ERROR);
	double error_pct = 100 * CALIB_ERROR_DEFAULT;
	struct cli_options report = call->o;
	struct measure_set set = { 0 };
	struct calib_result res = { 0 };
	rowset *rs = rowset_new(cols);
	int status = EXIT_OK;
	char source[CAT_TEXT_MAX];

	report.output = NULL;
	if (error != NULL)
		read_error("calibrate", error, &error_pct, err);  /* checked where read */

	if (cli_columns_help(&call->o)) {
		if (cli_write(&report, rs, err) < 0)
			status = cli_status(err);
		goto out;
	}
	if (overlay != NULL && (cli_check_not_input(call, overlay, err) < 0 ||
				(on != NULL && outfile_check_not_input(overlay, on, "scenario", err) < 0))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (calib_load_files(call->operands, call->n_operands, on, &set, err) < 0 ||
	    calib_run(call->cat, &set, error_pct / 100, &res, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	for (size_t i = 0; i < res.n_points; i++)
		point_row(rs, &res.points[i]);
	for (size_t j = 0; j < res.n_params; j++)
		param_row(rs, &res, &res.params[j]);
	calib_source(call->operands, call->n_operands, source, sizeof source);
	if ((overlay != NULL && write_overlay(overlay, &res, source, err) < 0) || cli_write(&report, rs, err) < 0) {
		status = cli_status(err);
		goto out;
	}
	calib_summary(&res);
out:
	calib_result_release(&res);
	measure_set_release(&set);
	rowset_free(rs);
	return status;
}

const struct cli_command cli_cmd_calibrate = {
	.name = "calibrate",
	.summary = "fit the catalog's measured constants to your measurements; write the overlay",
	.usage = usage_text,
	.common = CLI_FORMAT | CLI_OUTPUT | CLI_CATALOG | CLI_COLUMNS,
	.options = options,
	.operands = { .min = 1, .max = SIZE_MAX, .name = "FILES" },
	.load = CLI_LOAD_CATALOG,
	.exec = calibrate_exec,
};
