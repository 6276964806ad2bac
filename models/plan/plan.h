/*
 * plan: which cluster shape to rent: every shape of a search space
 * evaluated (or proved not worth it), the time/cost Pareto front, and the
 * cheapest and fastest shapes that meet the objective.
 *
 * Each shape gets the best parallel plan that fits through evaluate()
 * (training and finetune: the plan search of train/search.h; serving: the
 * fewest replicas that meet the SLO, compared on dollars per hour and TTFT
 * P99, without time or cost bounds). Every shape draws the same random
 * streams (row id 0), so shapes are compared on one load. Before
 * evaluating, each shape gets lower bounds: its wall time cannot be less
 * than the run's model FLOPs over all GPUs at the best kernel efficiency
 * the roofline allows, its cost not less than that time at its price, and
 * its memory must hold the weights, gradients and optimizer states once. A
 * shape is skipped when a bound already breaks the deadline or the budget,
 * when the memory cannot hold the model, or when a shape already evaluated
 * of the same price type beats both of its bounds (it is then dominated,
 * so the front, the verdicts and the cheapest of each price type never
 * change: tests/unit/test_plan.c compares with the unpruned search).
 * Shapes are evaluated cheapest bound first, so early ones prune late
 * ones. Every shape keeps its fate and plan_reason() says why it is not on
 * the front. The fastest named is the cheapest point of the front whose
 * P50 time ties with the least (plan_tie: a tolerance, 1% by default, or
 * the Monte Carlo noise). Never prints, never reads files: shapes come
 * resolved through a callback (the scenario reader's space.h). The fronts
 * are O(n^2) in the shapes evaluated: fine for thousands, a sort-based
 * front would be needed past ~1e5. The search's records (a point, the
 * outcome, a mix) are in plan_types.h, which this header includes.
 */
#ifndef CLUSTERSIM_MODELS_PLAN_PLAN_H
#define CLUSTERSIM_MODELS_PLAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/eval/job.h"
#include "models/eval/result.h"
#include "models/hw/hw.h"
#include "models/plan/plan_types.h"

/* Resolve shape i into *c; false when it cannot be made (no such price). */
typedef bool plan_shape_fn(void *ctx, size_t i, struct cluster_spec *c);

/* For a shape plan_shape_fn could not make: its name into name, why, in
 * words, into why, and the price type it asks for into *type. */
typedef void plan_unresolved_fn(void *ctx, size_t i, char *name, size_t name_size, char *why, size_t why_size,
				enum price_type *type);

/* Two shapes whose P50 times differ by at most this fraction of the faster
 * one's are equally fast unless plan_problem.tie_tolerance says otherwise
 * (docs/explanation/planning.md, "Ties"). */
#define PLAN_TIE_DEFAULT 0.01

/*
 * The work one search may do (docs/explanation/planning.md, "Bounds"). Before evaluating
 * anything: at most PLAN_SHAPES_MAX shapes left to evaluate once the
 * catalog, the prices, the memory bound, the deadline and the budget have
 * ruled the others out, and none of more than PLAN_SHAPE_GPUS_MAX GPUs.
 * While evaluating: the plans tried, each weighted by plan_work_weight()
 * of its GPUs (a service: 1 + its requests simulated / 25, about the same
 * time a unit), summed over the shapes, at most PLAN_WORK_MAX (a shape is
 * not started when the most plans a shape has tried so far, on its GPUs,
 * would pass it). Beyond any of them the search stops with the figures
 * (plan_outcome.stop).
 */
#define PLAN_SHAPES_MAX 20000
#define PLAN_SHAPE_GPUS_MAX 65536
#define PLAN_WORK_MAX 1e7

/* What one plan tried on `gpus` GPUs counts towards PLAN_WORK_MAX: 1 +
 * (gpus / 1024)^2. A plan's time is about constant up to a thousand GPUs
 * and grows with their square past it (the step model walks its groups
 * per GPU): measured 28 us a plan on 8 GPUs, 2 ms on 8,192, 39 ms on
 * 32,768, 30 to 50 us a unit of work at every size. */
double plan_work_weight(long gpus);

/* Called after each shape is decided; returning false stops the search
 * (plan_outcome.stop = PLAN_STOP_INTERRUPTED), e.g. after SIGINT. */
typedef bool plan_progress_fn(void *ctx, const struct plan_progress *p);

struct plan_problem {
	const struct workload_spec *workload;
	const struct monte_carlo_spec *monte_carlo;
	struct objective_spec objective;   /* the scenario's, with the command line's over it */
	const char *scenario;              /* for the jobs */
	uint64_t seed;
	size_t n_shapes;
	plan_shape_fn *shape;
	void *shape_ctx;
	bool no_prune;                     /* evaluate every priced shape (tests, --no-prune) */
	plan_unresolved_fn *unresolved;    /* NULL: unresolved shapes get a generic reason */
	/* P50 times within this fraction of the faster one tie (so does a
	 * difference within the Monte Carlo noise): 0 PLAN_TIE_DEFAULT, < 0 none */
	double tie_tolerance;
	plan_progress_fn *progress;        /* NULL: none */
	void *progress_ctx;
	/* the bounds (0: PLAN_SHAPES_MAX, PLAN_SHAPE_GPUS_MAX, PLAN_WORK_MAX; the tests' smaller) */
	size_t shapes_max;
	long shape_gpus_max;
	double work_max;
};

/* Search p's shapes into *out (caller releases with plan_outcome_release).
 * With an objective no shape meets, the front is that of every shape,
 * searched again without it, and objective_met is false. A search past
 * its bounds or stopped by p->progress ends early: out->stop says so. */
void plan_search(const struct plan_problem *p, struct plan_outcome *out);

void plan_outcome_release(struct plan_outcome *out);

/* The lower bounds of a shape (0 for a kind without them): wall time and,
 * when priced, cost; false when its memory cannot hold the model. */
bool plan_bounds(const struct workload_spec *w, const struct cluster_spec *c, double *time_lb_s,
		 double *cost_lb_usd);

/* Whether points a and b of o are equally fast: their P50 times differ by
 * at most o->tie_tolerance x the faster's, or by at most twice the Monte
 * Carlo noise of the difference (each P50's standard error estimated from
 * its P50 and P90 over o->trials trials, as if normal; docs/explanation/planning.md). */
bool plan_tie(const struct plan_outcome *o, size_t a, size_t b);

/* Why point i is not on the front, in words, into buf: the result's
 * status and reason, the objective it misses, the point that beats it, or
 * the bound that ruled it out, with the figures. Empty for a point on a
 * front (plan_why says why it is a choice). */
void plan_reason(const struct plan_outcome *o, size_t i, char *buf, size_t size);

/* When the fastest named (o->fastest) is not the one of least P50 time
 * (o->fastest_strict): one line saying by how much that one is faster and
 * dearer and that they tie; false (buf empty) otherwise. */
bool plan_fastest_tie(const struct plan_outcome *o, char *buf, size_t size);

/* One line of why the front's point of rank index k (0: the cheapest) is
 * a choice, against its neighbour on the front (the next cheaper one; for
 * the cheapest, the next faster one), into buf. */
void plan_why(const struct plan_outcome *o, size_t k, char *buf, size_t size);

#endif
