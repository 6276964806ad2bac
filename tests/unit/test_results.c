/* The row writer's guard against NaN and infinity (results_row): an ok
 * result with a non-finite figure becomes exactly the error row any error
 * has, its reason naming the column; a row that is not ok only loses the
 * cell; and every figure that models/eval/evaluate.c's lists of finite
 * fields check either reaches a cell the guard sees or prints nowhere. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/eval/evaluate.h"
#include "models/scenario/jobs.h"
#include "output/results.h"
#include "output/writer.h"
#include "util/xalloc.h"

#include "catalog_fixture.h"

static const char training_text[] =
	"{\"name\": \"t\", \"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\","
	" \"seq_len\": 4096, \"global_batch_tokens\": 1048576, \"tokens\": 1e9, \"parallelism\": {\"tp\": 1,"
	" \"pp\": 1, \"dp\": 8, \"zero\": 1, \"micro_batch\": 1, \"cp\": 1, \"recompute\": \"full\"}},"
	" \"candidates\": [{\"name\": \"c\", \"preset\": \"dgx-h100\", \"nodes\": 1,"
	" \"price\": {\"usd_per_gpu_hour\": 3}}]}";

static const char serving_text[] =
	"{\"name\": \"s\", \"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\", \"precision\": \"bf16\","
	" \"serving\": {\"arrival\": {\"process\": \"poisson\", \"rate_per_s\": 2}, \"prompt_tokens\": 500,"
	" \"output_tokens\": 100, \"requests\": 50, \"tp\": 1, \"replicas\": 1}},"
	" \"candidates\": [{\"name\": \"c\", \"preset\": \"dgx-h100\", \"nodes\": 1,"
	" \"price\": {\"usd_per_gpu_hour\": 3}}]}";

static const char fleet_text[] =
	"{\"name\": \"f\", \"workload\": {\"kind\": \"fleet\", \"fleet\": {\"duration_h\": 48,"
	" \"objective\": {\"wait_p90_h\": 1}, \"jobs\": ["
	"{\"name\": \"a\", \"team\": \"x\", \"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 8,"
	" \"duration_s\": 3600},"
	"{\"name\": \"b\", \"team\": \"y\", \"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 8,"
	" \"duration_s\": 7200}]}},"
	" \"candidates\": [{\"name\": \"c\", \"preset\": \"dgx-h100\", \"nodes\": 2,"
	" \"price\": {\"usd_per_gpu_hour\": 3}}]}";

/* The scenario's first job and its evaluated result (ok). */
struct evaluated {
	struct scenario s;
	struct job *jobs;
	struct result r;
};

static void evaluated_load(struct evaluated *ev, const char *text)
{
	struct cs_error err;
	size_t n;
	assert_int_equal(scenario_of_text(text, &ev->s, &err), 0);
	ev->jobs = jobs_from_scenario(&ev->s, false, -1, &n);
	assert_true(n >= 1);
	evaluate(&ev->jobs[0], &ev->r);
	assert_int_equal(ev->r.outcome.status, OUTCOME_OK);
}

static void evaluated_release(struct evaluated *ev)
{
	free(ev->jobs);
	scenario_release(&ev->s);
}

/* r's rows as CSV (caller frees). */
static char *csv_of(const struct job *j, const struct result *r)
{
	rowset *rs = results_new(r->kind);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	results_row(rs, j, r);
	assert_int_equal(writer_write(f, rs, FORMAT_CSV, 0), 0);
	fclose(f);
	rowset_free(rs);
	return buf;
}

/* The same for JSON. */
static char *json_of(const struct job *j, const struct result *r)
{
	rowset *rs = results_new(r->kind);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	results_row(rs, j, r);
	assert_int_equal(writer_write(f, rs, FORMAT_JSON, 0), 0);
	fclose(f);
	rowset_free(rs);
	return buf;
}

static bool prints_nonfinite(const char *s)
{
	return strstr(s, "nan") != NULL || strstr(s, "inf") != NULL || strstr(s, "NaN") != NULL;
}

/* A NaN step time: the row is exactly the error row evaluate would give,
 * the reason naming step_time_s, in CSV and JSON alike. */
static void test_nan_is_an_error_row(void **state)
{
	(void)state;
	struct evaluated ev;
	struct result *want = xmalloc(sizeof *want);
	char *got_csv, *want_csv, *got_json, *want_json;

	evaluated_load(&ev, training_text);
	ev.r.train.step_time_s = NAN;
	*want = ev.r;
	want->outcome.status = OUTCOME_ERROR;
	snprintf(want->outcome.reason, sizeof want->outcome.reason, "non-finite value in column step_time_s");
	got_csv = csv_of(&ev.jobs[0], &ev.r);
	want_csv = csv_of(&ev.jobs[0], want);
	assert_string_equal(got_csv, want_csv);
	assert_non_null(strstr(got_csv, "\nt,c,0,0,error,non-finite value in column step_time_s,H100-SXM,1,8,8,1,1,"));
	assert_false(prints_nonfinite(got_csv));
	got_json = json_of(&ev.jobs[0], &ev.r);
	want_json = json_of(&ev.jobs[0], want);
	assert_string_equal(got_json, want_json);
	assert_non_null(strstr(got_json, "\"reason\": \"non-finite value in column step_time_s\""));
	assert_non_null(strstr(got_json, "\"step_time_s\": null,"));  /* empty, as in any error row */
	free(got_csv);
	free(want_csv);
	free(got_json);
	free(want_json);
	free(want);
	evaluated_release(&ev);
}

/* An infinity in several cells names the first column and counts the rest. */
static void test_inf_counts_the_other_cells(void **state)
{
	(void)state;
	struct evaluated ev;
	char *csv;
	evaluated_load(&ev, training_text);
	ev.r.train.tokens_per_s = INFINITY;
	ev.r.train.mfu = -INFINITY;
	csv = csv_of(&ev.jobs[0], &ev.r);
	assert_non_null(strstr(csv, ",error,non-finite value in column tokens_per_s (and 1 other cell),"));
	free(csv);
	evaluated_release(&ev);
}

/* A row that is not ok keeps its status and reason; only the cell empties. */
static void test_not_ok_row_only_loses_the_cell(void **state)
{
	(void)state;
	struct evaluated ev;
	char *got, *want;
	evaluated_load(&ev, training_text);
	ev.r.outcome.status = OUTCOME_OOM;
	snprintf(ev.r.outcome.reason, sizeof ev.r.outcome.reason, "needs too much");
	want = csv_of(&ev.jobs[0], &ev.r);
	ev.r.train.mem.total = INFINITY;
	got = csv_of(&ev.jobs[0], &ev.r);
	assert_non_null(strstr(got, ",oom,needs too much,"));
	assert_false(prints_nonfinite(got));
	assert_string_not_equal(got, want);  /* mem_per_gpu_gb empty */
	free(got);
	free(want);
	evaluated_release(&ev);
}

/* One field of a result: where it is and the column that shows it (NULL:
 * no column prints it). */
struct field {
	const char *name;
	double *(*at)(struct result *r);
	const char *column;
};

/* Set the field to NaN in an ok result: either the rows are the error row
 * naming column, or (no column) they are unchanged and print no NaN. */
static void check_field(const char *text, const struct field *fd)
{
	struct evaluated ev;
	char *before, *after, want[160];
	evaluated_load(&ev, text);
	before = csv_of(&ev.jobs[0], &ev.r);
	*fd->at(&ev.r) = NAN;
	after = csv_of(&ev.jobs[0], &ev.r);
	assert_false(prints_nonfinite(after));
	if (fd->column != NULL) {
		snprintf(want, sizeof want, ",error,non-finite value in column %s", fd->column);
		if (strstr(after, want) == NULL)
			print_error("%s: wanted '%s' in\n%s\n", fd->name, want, after);
		assert_non_null(strstr(after, want));
		assert_null(strstr(after, ",ok,"));
	} else {
		if (strcmp(before, after) != 0)
			print_error("%s: no column shows it, but the rows changed:\n%s\n", fd->name, after);
		assert_string_equal(before, after);
	}
	free(before);
	free(after);
	evaluated_release(&ev);
}

static double *f_step(struct result *r) { return &r->train.step_time_s; }
static double *f_tokens(struct result *r) { return &r->train.tokens_per_s; }
static double *f_tflops(struct result *r) { return &r->train.tflops_per_gpu; }
static double *f_mfu(struct result *r) { return &r->train.mfu; }
static double *f_hfu(struct result *r) { return &r->train.hfu; }
static double *f_wall(struct result *r) { return &r->run.wall_time_p50_s; }
static double *f_mem(struct result *r) { return &r->train.mem.total; }
static double *f_cost(struct result *r) { return &r->run.cost_usd_p50; }

/* train_figures_finite's fields */
static void test_training_fields(void **state)
{
	(void)state;
	static const struct field fields[] = {
		{ "step_time_s", f_step, "step_time_s" },
		{ "tokens_per_s", f_tokens, "tokens_per_s" },
		{ "tflops_per_gpu", f_tflops, "tflops_per_gpu" },
		{ "mfu", f_mfu, "mfu" },
		{ "hfu", f_hfu, "hfu" },
		{ "run.wall_time_p50_s", f_wall, "wall_time_p50_h" },
		{ "mem.total", f_mem, "mem_per_gpu_gb" },
		{ "run.cost_usd_p50", f_cost, "cost_usd_p50" },
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		check_field(training_text, &fields[i]);
}

static double *s_rate(struct result *r) { return &r->serve.rate_per_s; }
static double *s_weights(struct result *r) { return &r->serve.weights_gb_per_gpu; }
static double *s_kvcap(struct result *r) { return &r->serve.kv_capacity_tokens; }
static double *s_span(struct result *r) { return &r->serve.m.span_s; }
static double *s_reqs(struct result *r) { return &r->serve.m.request_per_s; }
static double *s_thr(struct result *r) { return &r->serve.m.throughput_tok_s; }
static double *s_out(struct result *r) { return &r->serve.m.output_tok_s; }
static double *s_good(struct result *r) { return &r->serve.m.goodput_req_s; }
static double *s_slo(struct result *r) { return &r->serve.m.slo_attainment; }
static double *s_busy(struct result *r) { return &r->serve.m.busy_frac; }
static double *s_flops(struct result *r) { return &r->serve.m.flops_frac; }
static double *s_hbm(struct result *r) { return &r->serve.m.hbm_frac; }
static double *s_kv(struct result *r) { return &r->serve.m.kv_util; }
static double *s_kvpeak(struct result *r) { return &r->serve.m.kv_util_peak; }
static double *s_insys(struct result *r) { return &r->serve.m.mean_in_system; }
static double *s_ttft50(struct result *r) { return &r->serve.m.ttft_ms.p50; }
static double *s_ttft90(struct result *r) { return &r->serve.m.ttft_ms.p90; }
static double *s_ttft99(struct result *r) { return &r->serve.m.ttft_ms.p99; }
static double *s_ttftm(struct result *r) { return &r->serve.m.ttft_ms.mean; }
static double *s_tpot50(struct result *r) { return &r->serve.m.tpot_ms.p50; }
static double *s_tpot90(struct result *r) { return &r->serve.m.tpot_ms.p90; }
static double *s_tpot99(struct result *r) { return &r->serve.m.tpot_ms.p99; }
static double *s_tpotm(struct result *r) { return &r->serve.m.tpot_ms.mean; }
static double *s_itl50(struct result *r) { return &r->serve.m.itl_ms.p50; }
static double *s_itl90(struct result *r) { return &r->serve.m.itl_ms.p90; }
static double *s_itl99(struct result *r) { return &r->serve.m.itl_ms.p99; }
static double *s_itlm(struct result *r) { return &r->serve.m.itl_ms.mean; }
static double *s_e2e50(struct result *r) { return &r->serve.m.e2e_s.p50; }
static double *s_e2e90(struct result *r) { return &r->serve.m.e2e_s.p90; }
static double *s_e2e99(struct result *r) { return &r->serve.m.e2e_s.p99; }
static double *s_e2em(struct result *r) { return &r->serve.m.e2e_s.mean; }

/* serve_figures_finite's fields (kv_transfer_ms is shown only for a
 * disaggregated deployment, which this one is not; span_s and the means
 * of the percentiles are in no column) */
static void test_serving_fields(void **state)
{
	(void)state;
	static const struct field fields[] = {
		{ "rate_per_s", s_rate, "rate_per_s" },
		{ "weights_gb_per_gpu", s_weights, "weights_gb_per_gpu" },
		{ "kv_capacity_tokens", s_kvcap, "kv_capacity_tokens" },
		{ "m.span_s", s_span, NULL },
		{ "m.request_per_s", s_reqs, "request_per_s" },
		{ "m.throughput_tok_s", s_thr, "throughput_tok_s" },
		{ "m.output_tok_s", s_out, "output_tok_s" },
		{ "m.goodput_req_s", s_good, "goodput_req_s" },
		{ "m.slo_attainment", s_slo, "slo_attainment" },
		{ "m.busy_frac", s_busy, "gpu_busy" },
		{ "m.flops_frac", s_flops, "flops_util" },
		{ "m.hbm_frac", s_hbm, "hbm_util" },
		{ "m.kv_util", s_kv, "kv_util" },
		{ "m.kv_util_peak", s_kvpeak, "kv_util_peak" },
		{ "m.mean_in_system", s_insys, "mean_in_system" },
		{ "m.ttft_ms.p50", s_ttft50, "ttft_p50_ms" },
		{ "m.ttft_ms.p90", s_ttft90, "ttft_p90_ms" },
		{ "m.ttft_ms.p99", s_ttft99, "ttft_p99_ms" },
		{ "m.ttft_ms.mean", s_ttftm, NULL },
		{ "m.tpot_ms.p50", s_tpot50, "tpot_p50_ms" },
		{ "m.tpot_ms.p90", s_tpot90, "tpot_p90_ms" },
		{ "m.tpot_ms.p99", s_tpot99, "tpot_p99_ms" },
		{ "m.tpot_ms.mean", s_tpotm, NULL },
		{ "m.itl_ms.p50", s_itl50, "itl_p50_ms" },
		{ "m.itl_ms.p90", s_itl90, "itl_p90_ms" },
		{ "m.itl_ms.p99", s_itl99, "itl_p99_ms" },
		{ "m.itl_ms.mean", s_itlm, NULL },
		{ "m.e2e_s.p50", s_e2e50, "e2e_p50_s" },
		{ "m.e2e_s.p90", s_e2e90, "e2e_p90_s" },
		{ "m.e2e_s.p99", s_e2e99, "e2e_p99_s" },
		{ "m.e2e_s.mean", s_e2em, NULL },
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		check_field(serving_text, &fields[i]);
}

static double *l_w50(struct result *r) { return &r->fleet.m.fleet.wait_h.p50; }
static double *l_w90(struct result *r) { return &r->fleet.m.fleet.wait_h.p90; }
static double *l_w99(struct result *r) { return &r->fleet.m.fleet.wait_h.p99; }
static double *l_jct(struct result *r) { return &r->fleet.m.fleet.jct_h.p50; }
static double *l_util(struct result *r) { return &r->fleet.m.utilization; }
static double *l_busy(struct result *r) { return &r->fleet.m.busy_utilization; }
static double *l_idle(struct result *r) { return &r->fleet.m.idle_gpu_hours; }
static double *l_frag(struct result *r) { return &r->fleet.m.fragmentation; }
static double *l_span(struct result *r) { return &r->fleet.m.makespan_h; }
static double *l_held(struct result *r) { return &r->fleet.m.held_gpu_hours; }
static double *l_usd(struct result *r) { return &r->fleet.usd_total; }
static double *l_perjob(struct result *r) { return &r->fleet.usd_per_job; }
static double *l_sized(struct result *r) { return &r->fleet.sized_usd; }
static double *l_team(struct result *r) { return &r->fleet.per_team_usd; }
static double *l_peak(struct result *r) { return &r->fleet.peak_usd; }
static double *l_groupusd(struct result *r) { return &r->fleet.m.fleet.usd; }

/* fleet_figures_finite's fields. usd_total and usd_per_job are copies of
 * the fleet group's dollars, which the row shows (usd_total, and
 * usd_per_job divided from it): a NaN there is in m.fleet.usd too, which
 * the guard finds. */
static void test_fleet_fields(void **state)
{
	(void)state;
	static const struct field fields[] = {
		{ "m.fleet.wait_h.p50", l_w50, "queue_wait_p50_h" },
		{ "m.fleet.wait_h.p90", l_w90, "queue_wait_p90_h" },
		{ "m.fleet.wait_h.p99", l_w99, "queue_wait_p99_h" },
		{ "m.fleet.jct_h.p50", l_jct, "jct_p50_h" },
		{ "m.utilization", l_util, "utilization" },
		{ "m.busy_utilization", l_busy, "busy_utilization" },
		{ "m.idle_gpu_hours", l_idle, "idle_gpu_hours" },
		{ "m.fragmentation", l_frag, "fragmentation" },
		{ "m.makespan_h", l_span, "makespan_h" },
		{ "m.held_gpu_hours", l_held, "held_gpu_hours" },
		{ "usd_total", l_usd, NULL },
		{ "usd_per_job", l_perjob, NULL },
		{ "m.fleet.usd", l_groupusd, "usd_per_job" },
		{ "sized_usd", l_sized, "sized_usd" },
		{ "per_team_usd", l_team, "per_team_usd" },
		{ "peak_usd", l_peak, "peak_usd" },
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		check_field(fleet_text, &fields[i]);
}

/* A fleet's rows all become error rows (the fleet's, each team's, each
 * class's), as they do for any error. */
static void test_fleet_rows_all_error(void **state)
{
	(void)state;
	struct evaluated ev;
	char *csv;
	static const char want[] = "f,c,0,0,error,non-finite value in column utilization,";
	size_t rows = 0, errors = 0;
	evaluated_load(&ev, fleet_text);
	ev.r.fleet.m.utilization = NAN;
	csv = csv_of(&ev.jobs[0], &ev.r);
	for (const char *p = strchr(csv, '\n'); p != NULL && p[1] != '\0'; p = strchr(p + 1, '\n')) {
		rows++;
		errors += strncmp(p + 1, want, strlen(want)) == 0;
	}
	assert_int_equal(rows, 5);  /* the fleet, 2 teams, 2 classes */
	assert_int_equal(errors, 5);
	free(csv);
	evaluated_release(&ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nan_is_an_error_row),
		cmocka_unit_test(test_inf_counts_the_other_cells),
		cmocka_unit_test(test_not_ok_row_only_loses_the_cell),
		cmocka_unit_test(test_training_fields),
		cmocka_unit_test(test_serving_fields),
		cmocka_unit_test(test_fleet_fields),
		cmocka_unit_test(test_fleet_rows_all_error),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
