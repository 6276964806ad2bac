/* plan_disagg: the split found meets the SLO when rerun on its own and is
 * locally minimal, its price is its whole instances', no colocated
 * deployment at another tp on fewer instances meets the SLO; the SLO's
 * monotonicity in each pool's replicas, which the walk assumes, holds on a
 * grid; the plan's work bound stops the search with the figures. */
#include "testutil.h"

#include <string.h>

#include "catalog_fixture.h"
#include "models/eval/evaluate.h"
#include "models/plan/plan.h"
#include "models/plan/plan_disagg.h"
#include "models/scenario/space.h"

struct shape_ctx {
	const struct space *space;
};

static bool get_shape(void *ctx, size_t i, struct cluster_spec *c)
{
	const struct shape_ctx *s = ctx;
	return space_shape(s->space, cat, i, c, NULL, 0);
}

static struct shape_ctx ctx;

static struct plan_problem problem(const struct scenario *s)
{
	ctx.space = s->space;
	return (struct plan_problem){
		.workload = &s->workload, .monte_carlo = &s->monte_carlo, .objective = s->objective,
		.scenario = s->name, .seed = s->seed, .n_shapes = space_count(s->space),
		.shape = get_shape, .shape_ctx = &ctx,
	};
}

/* Llama 3 70B, long prompts, a tight TPOT: scenarios/examples/llama3-70b-disagg-plan.json on one instance type. */
static const char lambda_scenario[] =
	"{\"name\": \"disagg\", \"seed\": 1,"
	" \"workload\": {\"kind\": \"inference\", \"model\": \"llama3-70b\", \"precision\": \"bf16\","
	"  \"serving\": {\"arrival\": {\"process\": \"poisson\", \"rate_per_s\": 10},"
	"   \"prompt_tokens\": {\"dist\": \"lognormal\", \"mean\": 3000, \"sd\": 1000, \"min\": 64, \"max\": 7000},"
	"   \"output_tokens\": {\"dist\": \"lognormal\", \"mean\": 250, \"sd\": 150, \"min\": 4, \"max\": 1000},"
	"   \"duration_s\": 60, \"slo\": {\"ttft_p99_ms\": 2000, \"tpot_p99_ms\": 35}, \"replicas\": \"auto\", \"tp\": 8}},"
	" \"candidates\": [{\"name\": \"x\", \"preset\": \"lambda-8x-h100\"}],"
	" \"search\": {\"presets\": [\"lambda-8x-h100\"], \"nodes\": [4], \"disaggregated\": true}}";

/* Serve the scenario's load on shape 0 as x prefill replicas (tp ptp) and
 * y decode ones (tp dtp), or, with x 0, as y colocated replicas of tp dtp. */
static void serve(const struct scenario *s, int ptp, int dtp, int x, int y, struct result *r)
{
	struct workload_spec w = s->workload;
	struct cluster_spec c;
	if (x > 0) {
		w.serving.replicas = 0;
		w.serving.prefill_replicas = x;
		w.serving.decode_replicas = y;
		w.serving.prefill_tp = ptp;
		w.serving.decode_tp = dtp;
	} else {
		w.serving.replicas = y;
		w.serving.tp = dtp;
	}
	assert_true(get_shape(&ctx, 0, &c));
	struct job j = { .kind = w.kind, .workload = &w, .cluster = &c, .monte_carlo = &s->monte_carlo,
			 .objective = &s->objective, .scenario = s->name, .seed = s->seed };
	evaluate(&j, r);
}

static bool meets(const struct result *r)
{
	return r->outcome.status == OUTCOME_OK && r->serve.slo_met;
}

static void test_split(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct plan_outcome o;
	struct plan_disagg d;
	struct result *r = malloc(sizeof *r);
	assert_int_equal(scenario_of_text(lambda_scenario, &s, &err), 0);
	assert_true(space_disaggregated(s.space));
	struct plan_problem p = problem(&s);
	plan_search(&p, &o);
	plan_disagg_search(&p, &o, &d);
	assert_true(d.searched && !d.stopped);
	assert_int_equal(d.n_bases, 1);
	assert_int_equal(d.n_providers, 1);
	assert_string_equal(d.providers[0].provider, "lambda");
	const struct plan_disagg_base *b = &d.bases[0];
	/* an instance is 8 GPUs at the catalog's lambda H100 SXM price a GPU-hour */
	const double instance_usd = 8 * catalog_price_find(cat, "lambda", PRICE_ON_DEMAND, "gpu_8x_h100_sxm5", "H100-SXM", "")->usd_per_gpu_hour;
	assert_close(b->usd_per_instance_hour, instance_usd, 1e-9);

	/* colocated: the plan's 4 tp-8 replicas, 4 instances; no other tp on fewer instances meets the SLO */
	assert_true(b->colocated.found);
	assert_int_equal(b->colocated.point, 0);
	assert_int_equal(b->colocated.replicas, 4);
	assert_close(b->colocated.usd_per_hour, 4 * instance_usd, 1e-9);
	for (int t = 1; t <= 8; t *= 2) {
		int most = (int)((b->colocated.instances - 1) * 8 / t);
		serve(&s, t, t, 0, most, r);
		assert_false(meets(r));  /* tp 1 does not fit (oom), the others miss the SLO */
	}

	/* the split: cheaper, meets the SLO on its own, and its price is its whole instances' */
	const struct plan_disagg_deploy *sp = &b->split;
	assert_true(sp->found);
	assert_true(sp->instances < b->colocated.instances);
	serve(&s, sp->prefill_tp, sp->decode_tp, sp->prefill_replicas, sp->decode_replicas, r);
	assert_true(meets(r));
	assert_true(r->serve.m.ttft_ms.p99 <= 2000 && r->serve.m.tpot_ms.p99 <= 35);
	assert_int_equal(r->serve.gpus_used,
			 (long)sp->prefill_replicas * sp->prefill_tp + (long)sp->decode_replicas * sp->decode_tp);
	assert_true(r->serve_usd.usd_per_hour == sp->usd_per_hour);
	assert_close(sp->usd_per_hour, (double)((sp->gpus + 7) / 8) * instance_usd, 1e-9);
	assert_true(sp->ttft_p99_ms == r->serve.m.ttft_ms.p99 && sp->tpot_p99_ms == r->serve.m.tpot_ms.p99);
	/* locally minimal: one fewer prefill or decode replica misses the SLO */
	if (sp->prefill_replicas > 1) {
		serve(&s, sp->prefill_tp, sp->decode_tp, sp->prefill_replicas - 1, sp->decode_replicas, r);
		assert_false(meets(r));
	}
	if (sp->decode_replicas > 1) {
		serve(&s, sp->prefill_tp, sp->decode_tp, sp->prefill_replicas, sp->decode_replicas - 1, r);
		assert_false(meets(r));
	}
	/* the figures found (docs/explanation/planning.md): 5P1D of tp 2 and tp 4 on 2 instances, half the price */
	assert_int_equal(sp->prefill_replicas, 5);
	assert_int_equal(sp->decode_replicas, 1);
	assert_int_equal(sp->prefill_tp, 2);
	assert_int_equal(sp->decode_tp, 4);
	assert_int_equal(sp->instances, 2);
	assert_string_equal(b->interconnect, "nvlink4 and ib-ndr");
	assert_int_equal(d.base_of[0], 0);
	plan_disagg_release(&d);
	plan_outcome_release(&o);
	scenario_release(&s);
	free(r);
}

/* The walk takes a split that meets the SLO to meet it with more replicas
 * of either pool. Every split of three tp pairs on 4 nodes of the load
 * above: wherever (x, y) meets the SLO, (x + 1, y) and (x, y + 1) do too
 * (the latencies themselves are not monotone: docs/explanation/planning.md). */
static void test_monotone(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct result *r = malloc(sizeof *r);
	static const int pairs[][2] = { { 2, 4 }, { 4, 4 }, { 8, 8 } };
	assert_int_equal(scenario_of_text(lambda_scenario, &s, &err), 0);
	ctx.space = s.space;
	int met = 0, missed = 0;
	for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
		int ptp = pairs[k][0], dtp = pairs[k][1];
		bool grid[33][33] = { { false } };
		int most = 24;  /* GPUs: 3 instances, below the colocated 4 */
		for (int x = 1; x * ptp + dtp <= most; x++)
			for (int y = 1; x * ptp + y * dtp <= most; y++) {
				serve(&s, ptp, dtp, x, y, r);
				assert_int_equal(r->outcome.status, OUTCOME_OK);
				grid[x][y] = meets(r);
				met += grid[x][y];
				missed += !grid[x][y];
			}
		for (int x = 1; x * ptp + dtp <= most; x++)
			for (int y = 1; x * ptp + y * dtp <= most; y++)
				if (grid[x][y]) {
					if ((x + 1) * ptp + y * dtp <= most)
						assert_true(grid[x + 1][y]);
					if (x * ptp + (y + 1) * dtp <= most)
						assert_true(grid[x][y + 1]);
				}
	}
	assert_true(met > 0 && missed > 0);  /* the grid crosses the SLO's boundary */
	scenario_release(&s);
	free(r);
}

/* The plan's work bound: the search stops before a simulation would pass it. */
static void test_work_bound(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct plan_outcome o;
	struct plan_disagg d;
	assert_int_equal(scenario_of_text(lambda_scenario, &s, &err), 0);
	struct plan_problem p = problem(&s);
	plan_search(&p, &o);
	p.work_max = o.progress.work + 120;  /* a few simulations of about 25 units */
	plan_disagg_search(&p, &o, &d);
	assert_true(d.searched && d.stopped);
	assert_true(d.simulated >= 1);
	assert_true(o.progress.work + d.work <= p.work_max);
	assert_non_null(strstr(d.stop_reason, "would pass 1"));
	assert_non_null(strstr(d.stop_reason, "search.disaggregated false"));
	assert_int_equal(d.n_providers, 0);
	plan_disagg_release(&d);
	plan_outcome_release(&o);
	scenario_release(&s);
}

/* Not searched: stated pools, no SLO, training. */
static void test_not_searched(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"{\"name\": \"a\", \"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\", \"precision\": \"bf16\","
		" \"serving\": {\"arrival\": {\"process\": \"poisson\", \"rate_per_s\": 1}, \"prompt_tokens\": 100,"
		" \"output_tokens\": 10, \"duration_s\": 10, \"slo\": {\"ttft_p99_ms\": 2000},"
		" \"disaggregated\": {\"prefill_replicas\": 1, \"decode_replicas\": 1}}},"
		" \"candidates\": [{\"name\": \"x\", \"preset\": \"lambda-8x-h100\"}], \"search\": {\"disaggregated\": true}}",
		"{\"name\": \"b\", \"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\", \"precision\": \"bf16\","
		" \"serving\": {\"arrival\": {\"process\": \"poisson\", \"rate_per_s\": 1}, \"prompt_tokens\": 100,"
		" \"output_tokens\": 10, \"duration_s\": 10, \"replicas\": 1}},"
		" \"candidates\": [{\"name\": \"x\", \"preset\": \"lambda-8x-h100\"}], \"search\": {\"disaggregated\": true}}",
		"{\"name\": \"c\", \"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\","
		" \"seq_len\": 8192, \"global_batch_tokens\": 1048576, \"tokens\": 1e9, \"parallelism\": {\"tp\": 8}},"
		" \"candidates\": [{\"name\": \"x\", \"preset\": \"lambda-8x-h100\"}], \"search\": {\"disaggregated\": true}}",
	};
	static const char *const why[] = { "states its pools", "against serving.slo", "for serving" };
	for (size_t k = 0; k < 3; k++) {
		struct scenario s;
		struct cs_error err;
		struct plan_outcome o;
		struct plan_disagg d;
		assert_int_equal(scenario_of_text(texts[k], &s, &err), 0);
		struct plan_problem p = problem(&s);
		plan_search(&p, &o);
		plan_disagg_search(&p, &o, &d);
		assert_false(d.searched);
		assert_int_equal(d.simulated, 0);
		assert_non_null(strstr(d.why_not, why[k]));
		plan_disagg_release(&d);
		plan_outcome_release(&o);
		scenario_release(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_monotone),
		cmocka_unit_test(test_work_bound),
		cmocka_unit_test(test_not_searched),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
