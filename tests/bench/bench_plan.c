/*
 * bench_plan: clustersim plan's search for Llama 3 70B on 1T tokens
 * (scenarios/examples/llama3-70b-plan.json): every catalog preset x 1 to 64
 * nodes (about 4,000 shapes) with pruning, and the example's 168 shapes
 * with and without it. Prints shapes per second (docs/history/performance.md).
 * Run from the repository's top directory (make bench does).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"
#include "models/hw/catalog.h"
#include "models/plan/plan.h"
#include "models/scenario/scenario.h"
#include "models/scenario/space.h"

struct ctx {
	const struct space *space;
	const catalog *cat;
};

static bool get_shape(void *c, size_t i, struct cluster_spec *out)
{
	const struct ctx *x = c;
	return space_shape(x->space, x->cat, i, out, NULL, 0);
}

static int bench(const char *label, const char *search, bool no_prune)
{
	static const char file[] = "scenarios/examples/llama3-70b-plan.json";
	struct cs_error err;
	struct scenario s;
	catalog *cat = catalog_new_builtin(&err);
	struct scenario_override o = { .path = "search", .value = search };
	if (cat == NULL || scenario_load(file, &o, search != NULL, -1, cat, &s, &err) < 0) {
		fprintf(stderr, "bench_plan: %s\n", err.msg);
		catalog_free(cat);
		return 1;
	}
	struct ctx x = { .space = s.space, .cat = cat };
	struct plan_problem p = {
		.workload = &s.workload, .monte_carlo = &s.monte_carlo, .objective = s.objective,
		.scenario = s.name, .seed = s.seed, .n_shapes = space_count(s.space),
		.shape = get_shape, .shape_ctx = &x, .no_prune = no_prune,
	};
	struct plan_outcome out;
	double t0 = bench_now_s();
	plan_search(&p, &out);
	double dt = bench_now_s() - t0;
	printf("%s: %zu shapes, %zu evaluated, %zu on the front: %.2f s, %.0f shapes/s\n", label, out.n,
	       out.fate_count[PLAN_EVALUATED], out.n_front, dt, (double)out.n / dt);
	plan_outcome_release(&out);
	scenario_release(&s);
	catalog_free(cat);
	return 0;
}

int main(void)
{
	int rc = bench("every preset x 1-64 nodes, pruned", "{\"presets\": \"all\", \"nodes\": {\"min\": 1, \"max\": 64}}",
		       false);
	rc |= bench("the example's 168 shapes, pruned", NULL, false);
	rc |= bench("the example's 168 shapes, unpruned", NULL, true);
	return rc;
}
