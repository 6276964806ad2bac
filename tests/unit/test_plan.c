/* plan: the pruned search's front is the brute-force front, no lower bound
 * exceeds the figure it bounds, the verdicts on a hand-made case, the
 * batch reason's nearest divisible batch in closed form, and the rounded
 * batch that gives 12 nodes of H100 a real answer for Llama 3 70B; spot and
 * on-demand in one search, every shape's fate with a reason whose figures
 * hold, and ties (a shape under 1% faster and dearer is not the fastest;
 * the Monte Carlo noise in closed form). */
#include "testutil.h"

#include <string.h>

#include "catalog_fixture.h"
#include "models/eval/evaluate.h"
#include "models/plan/plan.h"
#include "models/plan/plan_mix.h"
#include "models/plan/plan_spot.h"
#include "models/scenario/space.h"
#include "models/train/parallel.h"

struct shape_ctx {
	const struct space *space;
};

static bool get_shape(void *ctx, size_t i, struct cluster_spec *c)
{
	const struct shape_ctx *s = ctx;
	return space_shape(s->space, cat, i, c, NULL, 0);
}

/* As plan's: the name, why and price type of a shape the catalog cannot make. */
static void unresolved_shape(void *ctx, size_t i, char *name, size_t name_size, char *why, size_t why_size,
			     enum price_type *type)
{
	const struct shape_ctx *s = ctx;
	struct cluster_spec c;
	space_shape_name(s->space, i, name, name_size);
	assert_false(space_shape(s->space, cat, i, &c, why, why_size));
	*type = space_shape_price_type(s->space, i);
}

static struct plan_problem problem(const struct scenario *s, bool no_prune)
{
	static struct shape_ctx ctx;
	ctx.space = s->space;
	return (struct plan_problem){
		.workload = &s->workload, .monte_carlo = &s->monte_carlo, .objective = s->objective,
		.scenario = s->name, .seed = s->seed, .n_shapes = space_count(s->space),
		.shape = get_shape, .shape_ctx = &ctx, .no_prune = no_prune, .unresolved = unresolved_shape,
	};
}

static void search(const struct scenario *s, bool no_prune, struct plan_outcome *o)
{
	struct plan_problem p = problem(s, no_prune);
	plan_search(&p, o);
}

static bool dominates(double at, double ac, double bt, double bc)
{
	return at <= bt && ac <= bc && (at < bt || ac < bc);
}

/* A space of 6 presets (one unpriced) x 8 node counts for Llama 3 8B, the
 * batch rounded so 3, 5, 6 and 7 nodes run too, with failures, so P50 and
 * P90 differ. */
static const char space_scenario[] =
	"{\"name\": \"plan-space\", \"seed\": 7,"
	" \"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\", \"seq_len\": 8192,"
	"  \"global_batch_tokens\": {\"target\": 4194304, \"round\": true}, \"tokens\": 2e11, \"parallelism\": \"auto\","
	"  \"failures\": \"llama3\"},"
	" \"candidates\": [{\"name\": \"x\", \"preset\": \"aws-p5.48xlarge\", \"nodes\": 1}],"
	" \"search\": {\"presets\": [\"aws-p5.48xlarge\", \"coreweave-8x-h100\", \"coreweave-8x-h200\","
	"  \"coreweave-8x-b200\", \"nebius-8x-h200\", \"dgx-h100\"], \"nodes\": {\"min\": 1, \"max\": 8}},"
	" \"monte_carlo\": {\"trials\": 10}}";

/* The front is exactly the non-dominated set of the feasible points of
 * the whole space (brute force), at P50 and at P90; the pruned search
 * finds the same front and verdicts while evaluating fewer shapes; every
 * bound is at most the figure it bounds. */
static void test_front_brute_force(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct plan_outcome all, pruned;
	assert_int_equal(scenario_of_text(space_scenario, &s, &err), 0);
	assert_int_equal(space_count(s.space), 48);
	search(&s, true, &all);
	search(&s, false, &pruned);
	assert_int_equal(all.n, 48);
	assert_int_equal(all.fate_count[PLAN_UNPRICED], 8);  /* dgx-h100 has no catalog price */
	assert_int_equal(all.ok, 40);
	size_t on_front = 0;
	for (size_t i = 0; i < all.n; i++) {
		const struct plan_point *a = &all.points[i];
		if (!a->feasible)
			continue;
		const struct run_result *ra = &a->result.run;
		/* lower bounds */
		assert_true(a->time_lb_s > 0 && a->time_lb_s <= ra->wall_time_p50_s);
		assert_true(a->cost_lb_usd > 0 && a->cost_lb_usd <= ra->cost_usd_p50);
		bool d50 = false, d90 = false;
		for (size_t j = 0; j < all.n; j++) {
			const struct run_result *rb = &all.points[j].result.run;
			if (!all.points[j].feasible)
				continue;
			d50 |= dominates(rb->wall_time_p50_s, rb->cost_usd_p50, ra->wall_time_p50_s, ra->cost_usd_p50);
			d90 |= dominates(rb->wall_time_p90_s, rb->cost_usd_p90, ra->wall_time_p90_s, ra->cost_usd_p90);
		}
		assert_int_equal(a->front_p50, !d50);
		assert_int_equal(a->front_p90, !d90);
		on_front += a->front_p50 || a->front_p90;
		/* the pruned search has the same point on its front */
		assert_int_equal(pruned.points[i].front_p50, a->front_p50);
		assert_int_equal(pruned.points[i].front_p90, a->front_p90);
		assert_int_equal(pruned.points[i].rank, a->rank);
	}
	assert_int_equal(all.n_front, on_front);
	assert_int_equal(pruned.n_front, on_front);
	assert_true(on_front >= 2);
	assert_int_equal(pruned.cheapest, all.cheapest);
	assert_int_equal(pruned.fastest, all.fastest);
	/* the pruning did prune */
	assert_true(pruned.fate_count[PLAN_EVALUATED] < all.fate_count[PLAN_EVALUATED]);
	assert_true(pruned.fate_count[PLAN_DOMINATED] + pruned.fate_count[PLAN_NO_MEMORY] > 0);
	/* the front by rank: cost rises, time falls */
	for (size_t k = 1; k < pruned.n_front_p50; k++) {
		const struct run_result *p = &pruned.points[pruned.front[k - 1]].result.run;
		const struct run_result *q = &pruned.points[pruned.front[k]].result.run;
		assert_true(q->cost_usd_p50 >= p->cost_usd_p50);
		assert_true(q->wall_time_p50_s < p->wall_time_p50_s);
	}
	plan_outcome_release(&all);
	plan_outcome_release(&pruned);
	scenario_release(&s);
}

/* Four candidates of one H100 node type at hand-set prices: A 2 nodes at
 * $2/GPU-h, B 4 nodes at $2, C the same 4 nodes at $1 (as fast as B, half
 * the price: B is dominated), D 8 nodes at $3. */
static const char verdict_scenario[] =
	"{\"name\": \"plan-verdicts\", \"seed\": 3,"
	" \"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\", \"seq_len\": 8192,"
	"  \"global_batch_tokens\": 4194304, \"tokens\": 1e11, \"parallelism\": \"auto\", \"failures\": \"none\"},"
	" \"candidates\": ["
	"  {\"name\": \"A\", \"preset\": \"hgx-h100\", \"nodes\": 2, \"price\": {\"usd_per_gpu_hour\": 2}},"
	"  {\"name\": \"B\", \"preset\": \"hgx-h100\", \"nodes\": 4, \"price\": {\"usd_per_gpu_hour\": 2}},"
	"  {\"name\": \"C\", \"preset\": \"hgx-h100\", \"nodes\": 4, \"price\": {\"usd_per_gpu_hour\": 1}},"
	"  {\"name\": \"D\", \"preset\": \"hgx-h100\", \"nodes\": 8, \"price\": {\"usd_per_gpu_hour\": 3}}],"
	" \"monte_carlo\": {\"trials\": 1}}";

static void test_verdicts(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct plan_outcome o;
	assert_int_equal(scenario_of_text(verdict_scenario, &s, &err), 0);
	search(&s, true, &o);  /* unpruned, for every figure */
	assert_int_equal(o.n, 4);
	assert_int_equal(o.ok, 4);
	double tA = o.points[0].result.run.wall_time_p50_s, tC = o.points[2].result.run.wall_time_p50_s;
	double cC = o.points[2].result.run.cost_usd_p50, cD = o.points[3].result.run.cost_usd_p50;
	assert_true(tA > tC);
	assert_true(o.points[1].result.run.wall_time_p50_s == tC);  /* B and C: one cluster */
	plan_outcome_release(&o);

	/* no objective: C is the cheapest (A is slower and costs at least as much), D the fastest */
	search(&s, false, &o);
	assert_true(o.points[2].front_p50);
	assert_false(o.points[1].front_p50);  /* B: C is as fast and cheaper */
	assert_false(o.points[0].front_p50);
	assert_int_equal(o.cheapest, 2);
	assert_int_equal(o.fastest, 3);
	assert_int_equal(o.n_front_p50, 2);
	plan_outcome_release(&o);

	/* a deadline between C's and A's time: C is the cheapest that meets it, D the fastest */
	s.objective.deadline_h = (tA + tC) / 2 / 3600;
	search(&s, false, &o);
	assert_true(o.objective_met);
	assert_int_equal(o.cheapest, 2);
	assert_int_equal(o.fastest, 3);
	assert_false(o.points[0].feasible);
	plan_outcome_release(&o);

	/* and a budget below D's cost: C is also the fastest within it */
	s.objective.budget_usd = (cC + cD) / 2;
	search(&s, false, &o);
	assert_int_equal(o.cheapest, 2);
	assert_int_equal(o.fastest, 2);
	assert_int_equal(o.n_front_p50, 1);
	plan_outcome_release(&o);

	/* a deadline nothing meets: the front of all shapes, and it says so */
	s.objective.deadline_h = 1e-3;
	s.objective.budget_usd = 0;
	search(&s, false, &o);
	assert_true(o.objective_given);
	assert_false(o.objective_met);
	assert_int_equal(o.cheapest, 2);
	assert_int_equal(o.fastest, 3);
	plan_outcome_release(&o);
	scenario_release(&s);
}

/* The nearest whole batches a divisor divides, in closed form. */
static void test_nearest_batch(void **state)
{
	(void)state;
	double lo, hi;
	parallel_nearest_batch(2048, 3, &lo, &hi);   /* 3 x 682 = 2046, 3 x 683 = 2049 */
	assert_true(lo == 2046 && hi == 2049);
	parallel_nearest_batch(2048, 24, &lo, &hi);  /* 24 x 85 = 2040, 24 x 86 = 2064 */
	assert_true(lo == 2040 && hi == 2064);
	parallel_nearest_batch(2048, 8, &lo, &hi);   /* divides */
	assert_true(lo == 2048 && hi == 2048);
	parallel_nearest_batch(2048, 4096, &lo, &hi); /* none below */
	assert_true(lo == 0 && hi == 4096);
}

static const char h100_12[] =
	"{\"name\": \"twelve\", \"seed\": 1,"
	" \"workload\": {\"kind\": \"training\", \"model\": \"llama3-70b\", \"precision\": \"bf16\", \"seq_len\": 8192,"
	"  \"global_batch_tokens\": %s, \"tokens\": 1e12, \"parallelism\": %s, \"failures\": \"none\"},"
	" \"candidates\": [{\"name\": \"c\", \"preset\": \"%s\", \"nodes\": %d}],"
	" \"monte_carlo\": {\"trials\": 1}}";

static void evaluate_first(const char *preset, int nodes, const char *batch, const char *parallelism,
			   struct result *r)
{
	char text[2048];
	struct scenario s;
	struct cs_error err;
	snprintf(text, sizeof text, h100_12, batch, parallelism, preset, nodes);
	assert_int_equal(scenario_of_text(text, &s, &err), 0);
	struct job j = { .kind = s.workload.kind, .workload = &s.workload, .cluster = &s.candidates[0],
			 .monte_carlo = &s.monte_carlo, .objective = &s.objective, .scenario = s.name, .seed = 1 };
	evaluate(&j, r);
	scenario_release(&s);
}

/* 96 H100s = 3 x 32. The search tries every pp that divides the GPUs, so
 * the factor 3 goes to the pipeline and dp x micro_batch divides 2,048
 * sequences as stated. With pp and cp held at 1, tp (a divisor of the
 * node's 8) leaves dp a factor 3 that 2,048 sequences lack: the reason says
 * so and names 2,052 sequences (dp 12 at tp 8: 12 x 171, four away); with round the plan
 * runs on a batch its dp x micro_batch divides, at most half a divisor
 * from 2,048. */
static void test_twelve_nodes(void **state)
{
	(void)state;
	struct result r;
	evaluate_first("aws-p5.48xlarge", 12, "16777216", "\"auto\"", &r);
	assert_int_equal(r.outcome.status, OUTCOME_OK);
	assert_true(r.train.tokens_per_step == 16777216);
	assert_int_equal(r.train.plan.pp % 3, 0);
	assert_int_equal(2048 % (r.train.plan.dp * r.train.plan.micro_batch), 0);

	const char *flat = "{\"pp\": 1, \"cp\": 1}";
	evaluate_first("aws-p5.48xlarge", 12, "16777216", flat, &r);
	assert_int_equal(r.outcome.status, OUTCOME_INVALID);
	assert_non_null(strstr(r.outcome.reason, "2048 sequences per step split over no plan's dp x micro_batch on 96 GPUs"));
	assert_non_null(strstr(r.outcome.reason, "nearest batch that divides is 2052 sequences (16809984 tokens"));
	evaluate_first("aws-p5.48xlarge", 12, "{\"target\": 16777216, \"round\": true}", flat, &r);
	assert_int_equal(r.outcome.status, OUTCOME_OK);
	double seqs = r.train.tokens_per_step / 8192, d = (double)r.train.plan.dp * r.train.plan.micro_batch;
	assert_true(seqs == floor(seqs));
	assert_true(fmod(seqs, d) == 0);
	assert_true(fabs(seqs - 2048) <= d / 2);
	assert_true(seqs != 2048);
	assert_non_null(strstr(r.outcome.reason, "global batch rounded from 2048 to"));
	/* the run's steps follow the rounded batch */
	assert_true(r.run.steps == ceil(1e12 / r.train.tokens_per_step));
}

/* One GB200 NVL72 rack: 72 = 8 x 9. With pp and cp at 1, tp divides
 * Llama 3 70B's 8 KV heads, so dp has a factor 9: invalid with 2,048,
 * ok rounded. The search with pp free puts the 9 in the pipeline. */
static void test_nvl72(void **state)
{
	(void)state;
	struct result r;
	const char *flat = "{\"pp\": 1, \"cp\": 1}";
	evaluate_first("coreweave-gb200-nvl72", 1, "16777216", flat, &r);
	assert_int_equal(r.outcome.status, OUTCOME_INVALID);
	assert_non_null(strstr(r.outcome.reason, "split over no plan's dp x micro_batch on 72 GPUs"));
	evaluate_first("coreweave-gb200-nvl72", 1, "{\"target\": 16777216, \"round\": true}", flat, &r);
	assert_int_equal(r.outcome.status, OUTCOME_OK);
	double seqs = r.train.tokens_per_step / 8192, d = (double)r.train.plan.dp * r.train.plan.micro_batch;
	assert_true(fmod(seqs, d) == 0 && fabs(seqs - 2048) <= d / 2);
	evaluate_first("coreweave-gb200-nvl72", 1, "16777216", "\"auto\"", &r);
	assert_int_equal(r.outcome.status, OUTCOME_OK);
	assert_int_equal(r.train.plan.pp % 9 == 0 || r.train.plan.pp % 3 == 0, 1);
	assert_int_equal(2048 % (r.train.plan.dp * r.train.plan.micro_batch), 0);
}

/* Serving Llama 3 70B at 20 requests/s: H100 instances need 2 replicas,
 * A100s more; 1 H100 replica plus 2 A100 ones is cheaper (at Lambda's
 * 2026-09 prices by $0.08/h: $63.76 against $63.84). The
 * mix search finds a mix cheaper than every single-type shape (all
 * simulated), each part meets the SLO at its share of the Poisson stream
 * (rerun here on its own), the shares split the rate in proportion to the
 * parts' capacity, and the mix's price is its parts'. */
static const char mix_scenario[] =
	"{\"name\": \"mix\", \"seed\": 1,"
	" \"workload\": {\"kind\": \"inference\", \"model\": \"llama3-70b\", \"precision\": \"bf16\","
	"  \"serving\": {\"arrival\": {\"process\": \"poisson\", \"rate_per_s\": 22}, \"prompt_tokens\": 1000,"
	"   \"output_tokens\": 200, \"duration_s\": 300, \"slo\": {\"ttft_p99_ms\": 2000, \"tpot_p99_ms\": 125},"
	"   \"replicas\": \"auto\", \"tp\": 8}},"
	" \"candidates\": [{\"name\": \"x\", \"preset\": \"lambda-8x-h100\"}],"
	" \"search\": {\"presets\": [\"lambda-8x-h100\", \"lambda-8x-a100\", \"coreweave-8x-b200\"],"
	"  \"nodes\": [1, 2, 4, 8], \"mix\": true}}";

static void test_mix(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct plan_outcome o;
	struct plan_mix m;
	static struct shape_ctx ctx;
	assert_int_equal(scenario_of_text(mix_scenario, &s, &err), 0);
	assert_true(space_mix(s.space));
	ctx.space = s.space;
	struct plan_problem p = {
		.workload = &s.workload, .monte_carlo = &s.monte_carlo, .scenario = s.name, .seed = s.seed,
		.n_shapes = space_count(s.space), .shape = get_shape, .shape_ctx = &ctx, .no_prune = true,
	};
	plan_search(&p, &o);
	plan_mix_search(&p, &o, &m);
	assert_true(m.searched);
	assert_int_equal(m.types, 3);
	assert_true(m.found);
	double total = m.usd_per_hour[0] + m.usd_per_hour[1];
	for (size_t i = 0; i < o.n; i++)
		if (o.points[i].feasible)
			assert_true(total < o.points[i].result.serve_usd.usd_per_hour);
	/* 1 H100 replica + 2 A100 ones, each replica one 8-GPU instance at the catalog's price */
	double h100 = catalog_price_find(cat, "lambda", PRICE_ON_DEMAND, "gpu_8x_h100_sxm5", "H100-SXM", "")->usd_per_gpu_hour;
	double a100 = catalog_price_find(cat, "lambda", PRICE_ON_DEMAND, "gpu_8x_a100", "A100-40GB-SXM", "")->usd_per_gpu_hour;
	assert_close(total, 8 * h100 + 2 * 8 * a100, 0.01);
	assert_close(m.share[0] + m.share[1], 1, 1e-12);
	double w[2];
	for (int k = 0; k < 2; k++)
		w[k] = (double)m.replicas[k] / o.points[m.shape[k]].result.serve.replicas;
	assert_close(m.share[0], w[0] / (w[0] + w[1]), 1e-12);
	for (int k = 0; k < 2; k++) {
		/* the part on its own: its replicas at its share of the rate */
		struct workload_spec wk = s.workload;
		struct cluster_spec c;
		struct result r;
		wk.serving.rate_per_s = 22 * m.share[k];
		wk.serving.replicas = m.replicas[k];
		assert_true(get_shape(&ctx, m.shape[k], &c));
		struct job j = { .kind = wk.kind, .workload = &wk, .cluster = &c, .monte_carlo = &s.monte_carlo,
				 .objective = &s.objective, .scenario = s.name, .seed = s.seed, .row_id = (uint64_t)k + 1 };
		evaluate(&j, &r);
		assert_int_equal(r.outcome.status, OUTCOME_OK);
		assert_true(r.serve.slo_met);
		assert_true(r.serve.m.ttft_ms.p99 <= 2000 && r.serve.m.tpot_ms.p99 <= 125);
		assert_true(r.serve_usd.usd_per_hour == m.usd_per_hour[k]);
	}
	plan_outcome_release(&o);
	scenario_release(&s);
}

/* A progress callback that says stop once `after` shapes are evaluated
 * (as plan's does after SIGINT), and counts its calls. */
struct stopper {
	size_t after, calls, last_decided;
	bool monotone;
};

static bool stop_after(void *ctx, const struct plan_progress *pr)
{
	struct stopper *st = ctx;
	st->calls++;
	st->monotone = st->monotone && pr->decided >= st->last_decided && pr->decided <= pr->total;
	st->last_decided = pr->decided;
	return pr->evaluated < st->after;
}

static bool has(const char *text, const char *want)
{
	if (strstr(text, want) != NULL)
		return true;
	print_error("\"%s\" lacks \"%s\"\n", text, want);
	return false;
}

/*
 * The search's bounds (here small; in the program PLAN_SHAPES_MAX,
 * PLAN_SHAPE_GPUS_MAX and PLAN_WORK_MAX): past each it stops with no front
 * and the figures, before evaluating anything for the shapes and the
 * largest shape, before the shape that would pass it for the work (at the
 * most plans a shape has tried so far); at the shape bounds, and with room
 * for one more shape of the most plans under the work bound, it runs to its
 * end. The work is the plans tried, each weighted 1 + (GPUs / 1024)^2,
 * summed over the shapes evaluated. A progress callback that says stop (SIGINT)
 * stops it after the shape it is on.
 */
static void test_bounds(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct plan_outcome o;
	assert_int_equal(scenario_of_text(space_scenario, &s, &err), 0);
	/* unpruned: 40 priced shapes to evaluate, the largest 8 nodes of 8 GPUs */
	struct plan_problem p = problem(&s, true);
	p.shapes_max = 39;
	plan_search(&p, &o);
	assert_int_equal(o.stop, PLAN_STOP_SHAPES);
	assert_int_equal(o.n_front, 0);
	assert_int_equal(o.progress.evaluated, 0);
	assert_true(has(o.stop_reason, "40 of the 48 shapes are left to evaluate once the catalog, the prices, memory, "
			"the deadline and the budget have ruled the others out, more than the 39 one search may evaluate; "
			"narrow the search: fewer node counts (search.nodes)"));
	plan_outcome_release(&o);
	p.shapes_max = 0;
	p.shape_gpus_max = 63;
	plan_search(&p, &o);
	assert_int_equal(o.stop, PLAN_STOP_SHAPE_GPUS);
	assert_int_equal(o.progress.evaluated, 0);
	assert_true(has(o.stop_reason, "has 64 GPUs, more than the 63 a shape may have to be evaluated"));
	plan_outcome_release(&o);

	/* at the shape bounds, the whole search: its work is the sum of the
	 * evaluated shapes' plans x GPUs */
	p.shapes_max = 40;
	p.shape_gpus_max = 64;
	plan_search(&p, &o);
	assert_int_equal(o.stop, PLAN_STOP_DONE);
	assert_int_equal(o.progress.evaluated, 40);
	assert_int_equal(o.progress.decided, 48);
	double work = 0, most = 0;
	for (size_t i = 0; i < o.n; i++) {
		const struct plan_point *pt = &o.points[i];
		if (pt->fate != PLAN_EVALUATED)
			continue;
		double plans = pt->result.train.plans_tried > 0 ? pt->result.train.plans_tried : 1;
		work += plans * (1 + pow(pt->gpus / 1024.0, 2));
		most = fmax(most, plans);
	}
	assert_close(o.progress.work, work, 1e-12);
	assert_true(work > 40);
	size_t n_front = o.n_front;
	plan_outcome_release(&o);
	/* a work bound the whole search's work stays under even at the most
	 * plans of a shape on the largest one: the same search */
	p.work_max = work + most * plan_work_weight(64);
	plan_search(&p, &o);
	assert_int_equal(o.stop, PLAN_STOP_DONE);
	assert_int_equal(o.n_front, n_front);
	plan_outcome_release(&o);
	/* half of it: it stops before the shape that would pass it, having done
	 * at most the bound (each shape tries as many plans as the most before
	 * it, or fewer, on this space) */
	p.work_max = work / 2;
	plan_search(&p, &o);
	assert_int_equal(o.stop, PLAN_STOP_WORK);
	assert_int_equal(o.n_front, 0);
	assert_true(o.progress.evaluated > 0 && o.progress.evaluated < 40);
	assert_true(o.progress.work <= work / 2 + most * plan_work_weight(64));
	assert_true(has(o.stop_reason, "shapes evaluated"));
	assert_true(has(o.stop_reason, "the most work one search may do; narrow the search"));
	plan_outcome_release(&o);

	/* interrupted after 3 shapes evaluated */
	struct stopper st = { .after = 3, .monotone = true };
	p.work_max = 0;
	p.progress = stop_after;
	p.progress_ctx = &st;
	plan_search(&p, &o);
	assert_int_equal(o.stop, PLAN_STOP_INTERRUPTED);
	assert_int_equal(o.progress.evaluated, 3);
	assert_int_equal(o.n_front, 0);
	assert_true(st.monotone && st.calls >= 4);
	assert_true(has(o.stop_reason, "interrupted after"));
	plan_outcome_release(&o);
	scenario_release(&s);
}

/*
 * Spot and on-demand in one search: 3 presets x on-demand and spot x 1, 2
 * and 4 nodes of Llama 3 8B, with the block's preemption rate. Every spot
 * shape of a preset with a catalog spot price is evaluated ok with its
 * preemptions simulated (coreweave has no spot price: not in the catalog,
 * and still counted as spot); the pruned search finds the same cheapest
 * shape of each type as the brute-force one, and plan_spot's saving is 1 -
 * its P50 cost / the on-demand one's.
 */
static const char spot_scenario[] =
	"{\"name\": \"plan-spot\", \"seed\": 5,"
	" \"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\", \"seq_len\": 8192,"
	"  \"global_batch_tokens\": 4194304, \"tokens\": 5e10, \"parallelism\": \"auto\", \"failures\": \"llama3\","
	"  \"checkpoint\": {\"interval_s\": \"auto\", \"tier\": \"pfs\", \"async\": true}},"
	" \"candidates\": [{\"name\": \"x\", \"preset\": \"aws-p5.48xlarge\", \"nodes\": 1}],"
	" \"search\": {\"presets\": [\"aws-p5.48xlarge\", \"nebius-8x-h100\", \"runpod-8x-h100\"],"
	"  \"price_types\": [\"on-demand\", \"spot\"], \"nodes\": [1, 2, 4],"
	"  \"spot\": {\"preemptions_per_instance_h\": 0.02, \"capacity_wait_s\": 900}},"
	" \"monte_carlo\": {\"trials\": 10}}";

/* The cheapest feasible point of a type at P50, by brute force. */
static long cheapest_brute(const struct plan_outcome *o, enum price_type t)
{
	long best = -1;
	for (size_t i = 0; i < o->n; i++)
		if (o->points[i].feasible && o->points[i].price_type == t &&
		    (best < 0 || o->points[i].result.run.cost_usd_p50 < o->points[best].result.run.cost_usd_p50))
			best = (long)i;
	return best;
}

static void test_spot(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct plan_outcome all, pruned;
	char line[1024];
	assert_int_equal(scenario_of_text(spot_scenario, &s, &err), 0);
	assert_int_equal(space_count(s.space), 18);
	search(&s, true, &all);
	size_t spot_ok = 0, ondemand_ok = 0, spot_unresolved = 0;
	for (size_t i = 0; i < all.n; i++) {
		const struct plan_point *pt = &all.points[i];
		/* shapes are base x type x nodes: type is the middle index */
		assert_int_equal(pt->price_type, i / 3 % 2 ? PRICE_SPOT : PRICE_ON_DEMAND);
		if (pt->fate == PLAN_UNRESOLVED) {
			assert_true(i / 6 == 2 && pt->price_type == PRICE_SPOT);  /* runpod spot */
			assert_non_null(strstr(pt->note, "no spot price for H100-SXM from runpod"));
			spot_unresolved++;
			continue;
		}
		assert_int_equal(pt->fate, PLAN_EVALUATED);
		assert_int_equal(pt->result.outcome.status, OUTCOME_OK);
		if (pt->price_type == PRICE_SPOT) {
			assert_true(pt->preemptions_per_instance_h == 0.02);
			assert_true(pt->result.run.spot && pt->result.run.preemptions_mean > 0);
			spot_ok++;
		} else {
			assert_false(pt->result.run.spot);
			ondemand_ok++;
		}
	}
	assert_int_equal(spot_ok, 6);
	assert_int_equal(ondemand_ok, 9);
	assert_int_equal(spot_unresolved, 3);
	long bs = cheapest_brute(&all, PRICE_SPOT), bd = cheapest_brute(&all, PRICE_ON_DEMAND);
	assert_true(bs >= 0 && bd >= 0);
	search(&s, false, &pruned);
	assert_int_equal(cheapest_brute(&pruned, PRICE_SPOT), bs);
	assert_int_equal(cheapest_brute(&pruned, PRICE_ON_DEMAND), bd);
	assert_true(plan_spot(&pruned, line, sizeof line));
	const struct run_result *rs = &all.points[bs].result.run, *rd = &all.points[bd].result.run;
	char want[400];
	assert_true(rs->cost_usd_p50 < rd->cost_usd_p50);
	snprintf(want, sizeof want, "spot saves %.0f%% at P50: %s takes", (1 - rs->cost_usd_p50 / rd->cost_usd_p50) * 100,
		 all.points[bs].name);
	assert_true(has(line, want));
	assert_true(has(line, all.points[bd].name));
	assert_true(has(line, "at P90 (0.02 preemptions an instance-hour, 10 trials)"));
	plan_outcome_release(&all);
	plan_outcome_release(&pruned);

	/* without the block's rate, the spot shapes are evaluated unsupported and plan_spot says so */
	struct plan_outcome o;
	space_free(s.space);
	struct jread r;
	json_t *block = json_loads("{\"presets\": [\"aws-p5.48xlarge\"], \"price_types\": [\"on-demand\", \"spot\"],"
				   " \"nodes\": [1]}", 0, NULL);
	jread_init(&r, "scenario", "t.json", &err);
	s.space = space_read(&r, block, NULL, cat, "t.json");
	json_decref(block);
	assert_non_null(s.space);
	search(&s, true, &o);
	assert_int_equal(o.points[1].result.outcome.status, OUTCOME_UNSUPPORTED);
	plan_reason(&o, 1, line, sizeof line);
	assert_true(has(line, "unsupported: spot preemptions"));
	assert_true(has(line, "search.spot gives every spot shape its preemptions"));
	assert_true(plan_spot(&o, line, sizeof line));
	assert_string_equal(line, "spot: none of the 1 spot shape is ok: 1 unsupported; --show all gives each shape's reason");
	plan_outcome_release(&o);
	scenario_release(&s);
}

/* A spot-priced candidate as the base: its on-demand shapes take the
 * catalog's on-demand price (not the base's dollars, which are spot's) and
 * drop the preemptions; its spot shapes keep the base's. */
static void test_spot_base(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct cluster_spec c, ref;
	const char *text =
		"{\"name\": \"b\", \"seed\": 1, \"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\","
		" \"precision\": \"bf16\", \"seq_len\": 8192, \"global_batch_tokens\": 4194304, \"tokens\": 1e10,"
		" \"parallelism\": \"auto\", \"failures\": \"none\"},"
		" \"candidates\": [{\"name\": \"p5 spot\", \"preset\": \"aws-p5.48xlarge\", \"nodes\": 1,"
		"  \"price\": {\"type\": \"spot\", \"usd_per_gpu_hour\": 1.5, \"preemptions_per_instance_h\": 0.01,"
		"   \"capacity_wait_s\": 600}},"
		"  {\"name\": \"p5\", \"preset\": \"aws-p5.48xlarge\", \"nodes\": 1}],"
		" \"search\": {\"price_types\": [\"on-demand\", \"spot\"]}}";
	assert_int_equal(scenario_of_text(text, &s, &err), 0);
	assert_int_equal(space_count(s.space), 4);
	assert_true(space_shape(s.space, cat, 0, &c, NULL, 0));    /* p5 spot base, on-demand */
	assert_true(space_shape(s.space, cat, 2, &ref, NULL, 0));  /* the plain preset, on-demand */
	assert_int_equal(c.price.type, PRICE_ON_DEMAND);
	assert_true(c.price.usd_per_gpu_hour == ref.price.usd_per_gpu_hour && c.price.usd_per_gpu_hour != 1.5);
	assert_true(c.price.preemptions_per_instance_h < 0);
	assert_true(space_shape(s.space, cat, 1, &c, NULL, 0));    /* p5 spot base, spot: as written */
	assert_int_equal(c.price.type, PRICE_SPOT);
	assert_true(c.price.usd_per_gpu_hour == 1.5 && c.price.preemptions_per_instance_h == 0.01 &&
		    c.price.capacity_wait_s == 600);
	scenario_release(&s);
}

/*
 * Every shape's fate, with a reason whose figures hold: on the 48-shape
 * space with a deadline, the fates add up to the shapes; a point on a front
 * has no reason and every other one has; a shape past the deadline has a
 * time bound past it; a dominated one a feasible point of its price type
 * whose P90 figures are at most its bounds; an evaluated feasible point off
 * both fronts one that dominates it at P50.
 */
static void test_reasons(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct plan_outcome o;
	char why[1024];
	assert_int_equal(scenario_of_text(space_scenario, &s, &err), 0);
	s.objective.deadline_h = 150;
	search(&s, false, &o);
	assert_true(o.objective_met);
	size_t sum = 0;
	for (int f = 0; f < PLAN_FATE_COUNT; f++)
		sum += o.fate_count[f];
	assert_int_equal(sum, o.n);
	assert_true(o.fate_count[PLAN_PAST_DEADLINE] > 0 && o.fate_count[PLAN_DOMINATED] > 0 &&
		    o.fate_count[PLAN_UNPRICED] == 8);
	for (size_t i = 0; i < o.n; i++) {
		const struct plan_point *pt = &o.points[i];
		plan_reason(&o, i, why, sizeof why);
		if (pt->front_p50 || pt->front_p90) {
			assert_string_equal(why, "");
			continue;
		}
		assert_true(strlen(why) > 0);
		switch (pt->fate) {
		case PLAN_PAST_DEADLINE:
			assert_true(pt->time_lb_s > 150 * 3600);
			assert_true(has(why, "past the deadline of 150 h"));
			break;
		case PLAN_DOMINATED: {
			const struct plan_point *q = &o.points[pt->beaten_by];
			assert_true(q->feasible && q->price_type == pt->price_type);
			assert_true(q->result.run.wall_time_p90_s <= pt->time_lb_s && q->result.run.cost_usd_p90 <= pt->cost_lb_usd);
			assert_true(has(why, q->name));
			break;
		}
		case PLAN_UNPRICED:
			assert_true(has(why, "dgx-h100"));
			break;
		case PLAN_EVALUATED:
			if (pt->feasible) {
				const struct run_result *a = &o.points[pt->beaten_by].result.run, *b = &pt->result.run;
				assert_true(dominates(a->wall_time_p50_s, a->cost_usd_p50, b->wall_time_p50_s, b->cost_usd_p50));
				assert_true(has(why, "off both fronts: "));
			} else if (pt->result.outcome.status == OUTCOME_OK) {
				assert_true(pt->result.run.wall_time_p50_s > 150 * 3600);
				assert_true(has(why, "misses the objective: its P50 wall time"));
			}
			break;
		default:
			fail();
		}
	}
	/* per-minute (CoreWeave) and per-second (Nebius) billing leave this
	 * space's bounds tight enough that no shape may be evaluated and then
	 * found off both fronts; the verdict scenario's B is one (C is as fast
	 * for half the price) */
	plan_outcome_release(&o);
	scenario_release(&s);
	assert_int_equal(scenario_of_text(verdict_scenario, &s, &err), 0);
	search(&s, true, &o);
	assert_int_equal(o.points[1].fate, PLAN_EVALUATED);
	assert_false(o.points[1].front_p50 || o.points[1].front_p90);
	plan_reason(&o, 1, why, sizeof why);
	assert_true(has(why, "off both fronts: "));
	assert_true(has(why, "C"));
	plan_outcome_release(&o);
	scenario_release(&s);
}

/* A: 4 nodes of H100 at $2/GPU-h with checkpoints to a 20 GB/s tier; B: the
 * same at $2.05 with a 40 GB/s tier, so B's checkpoints take half as long
 * and it finishes under 1% sooner. No failures: P50 = P90, no noise. */
static const char tie_scenario[] =
	"{\"name\": \"plan-tie\", \"seed\": 3,"
	" \"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\", \"seq_len\": 8192,"
	"  \"global_batch_tokens\": 4194304, \"tokens\": 1e11, \"parallelism\": \"auto\", \"failures\": \"none\","
	"  \"checkpoint\": {\"interval_s\": 600, \"tier\": \"pfs\", \"async\": false}},"
	" \"candidates\": ["
	"  {\"name\": \"A\", \"preset\": \"hgx-h100\", \"nodes\": 4, \"price\": {\"usd_per_gpu_hour\": 2},"
	"   \"storage\": [{\"tier\": \"pfs\", \"kind\": \"parallel-fs\", \"aggregate_GBps\": 20}]},"
	"  {\"name\": \"B\", \"preset\": \"hgx-h100\", \"nodes\": 4, \"price\": {\"usd_per_gpu_hour\": 2.05},"
	"   \"storage\": [{\"tier\": \"pfs\", \"kind\": \"parallel-fs\", \"aggregate_GBps\": 40}]}],"
	" \"monte_carlo\": {\"trials\": 1}}";

static void test_tie(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct plan_outcome o;
	char line[1024];
	assert_int_equal(scenario_of_text(tie_scenario, &s, &err), 0);
	struct plan_problem p = problem(&s, false);
	plan_search(&p, &o);
	const struct run_result *a = &o.points[0].result.run, *b = &o.points[1].result.run;
	double faster = 1 - b->wall_time_p50_s / a->wall_time_p50_s;
	assert_true(faster > 0 && faster < 0.01);               /* B under 1% faster ... */
	assert_true(b->cost_usd_p50 > a->cost_usd_p50);         /* ... and dearer: both on the front */
	assert_int_equal(o.n_front_p50, 2);
	assert_int_equal(o.fastest_strict, 1);
	assert_int_equal(o.fastest, 0);                         /* a tie goes to the cheaper */
	assert_int_equal(o.cheapest, 0);
	assert_true(plan_fastest_tie(&o, line, sizeof line));
	assert_true(has(line, "B is "));
	assert_true(has(line, "(a tie: within the 1% tolerance), and a tie goes to the cheaper shape"));
	plan_why(&o, 0, line, sizeof line);
	assert_true(has(line, "(a tie: within the 1% tolerance)"));
	plan_outcome_release(&o);
	/* no tolerance: B is the fastest; a tolerance below B's lead: the same */
	p.tie_tolerance = -1;
	plan_search(&p, &o);
	assert_int_equal(o.fastest, 1);
	assert_false(plan_fastest_tie(&o, line, sizeof line));
	plan_outcome_release(&o);
	p.tie_tolerance = faster * 0.99;
	plan_search(&p, &o);
	assert_int_equal(o.fastest, 1);
	plan_outcome_release(&o);
	p.tie_tolerance = faster * 1.01;
	plan_search(&p, &o);
	assert_int_equal(o.fastest, 0);
	plan_outcome_release(&o);
	scenario_release(&s);
}

/* The Monte Carlo noise in closed form: P50 100 h and P90 110 h over 20
 * trials give sigma = 10 h / z(0.9) and a P50 standard error of
 * sqrt(pi / 2) sigma / sqrt(20) = 2.18680 h; two such points tie within
 * twice the standard error of their difference, 2 sqrt(2) x 2.18680 =
 * 6.18524 h, when that is more than the 1% tolerance (1 h). */
static void test_tie_noise(void **state)
{
	(void)state;
	struct plan_point pts[2];
	struct plan_outcome o = { .points = pts, .n = 2, .tie_tolerance = 0.01, .trials = 20 };
	memset(pts, 0, sizeof pts);
	for (int k = 0; k < 2; k++) {
		pts[k].result.kind = RESULT_TRAINING;
		pts[k].result.run.wall_time_p50_s = 100 * 3600.0;
		pts[k].result.run.wall_time_p90_s = 110 * 3600.0;
	}
	double se = sqrt(3.14159265358979323846 / 2) * 10 / 1.2815515655446004 / sqrt(20);
	assert_close(se, 2.18680, 1e-5);
	double bound_h = 2 * sqrt(2) * se;
	pts[1].result.run.wall_time_p50_s = (100 - bound_h * 0.999) * 3600;
	pts[1].result.run.wall_time_p90_s = pts[1].result.run.wall_time_p50_s + 10 * 3600;
	assert_true(plan_tie(&o, 0, 1));
	pts[1].result.run.wall_time_p50_s = (100 - bound_h * 1.001) * 3600;
	pts[1].result.run.wall_time_p90_s = pts[1].result.run.wall_time_p50_s + 10 * 3600;
	assert_false(plan_tie(&o, 0, 1));
	/* one trial: no noise, the tolerance only (1% of the faster) */
	o.trials = 1;
	pts[1].result.run.wall_time_p50_s = 99.1 * 3600;
	assert_true(plan_tie(&o, 0, 1));
	pts[1].result.run.wall_time_p50_s = 98.9 * 3600;
	assert_false(plan_tie(&o, 0, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_front_brute_force),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_nearest_batch),
		cmocka_unit_test(test_twelve_nodes),
		cmocka_unit_test(test_nvl72),
		cmocka_unit_test(test_mix),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_spot),
		cmocka_unit_test(test_spot_base),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_tie),
		cmocka_unit_test(test_tie_noise),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
