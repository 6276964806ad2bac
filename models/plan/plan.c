#include "plan.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/eval/evaluate.h"
#include "models/kernel/roofline.h"
#include "models/kernel/transformer.h"
#include "models/plan/plan_point.h"
#include "models/train/train.h"
#include "util/text.h"
#include "util/xalloc.h"

const char *const plan_fate_names[] = {
	[PLAN_EVALUATED] = "evaluated", [PLAN_UNRESOLVED] = "not in the catalog", [PLAN_UNPRICED] = "unpriced",
	[PLAN_NO_MEMORY] = "too little memory", [PLAN_PAST_DEADLINE] = "past the deadline",
	[PLAN_OVER_BUDGET] = "over the budget", [PLAN_DOMINATED] = "dominated", [PLAN_FATE_COUNT] = NULL,
};

const char *const plan_fate_ids[] = {
	[PLAN_EVALUATED] = "evaluated", [PLAN_UNRESOLVED] = "unresolved", [PLAN_UNPRICED] = "unpriced",
	[PLAN_NO_MEMORY] = "no_memory", [PLAN_PAST_DEADLINE] = "past_deadline", [PLAN_OVER_BUDGET] = "over_budget",
	[PLAN_DOMINATED] = "dominated", [PLAN_FATE_COUNT] = NULL,
};

static bool is_training(const struct workload_spec *w)
{
	return w->kind == WORKLOAD_TRAINING || w->kind == WORKLOAD_FINETUNE;
}

/*
 * Lower bounds. Every kernel's time in the step model is at least its
 * FLOPs over the GPU's peak x the roofline's efficiency (roofline.c: GEMMs
 * at MAMF x the GEMM factor, attention at its own), so a run of T tokens
 * takes at least T x model FLOPs per token (3 x forward, Kaplan et al.
 * 2020's 6N plus attention) / (GPUs x the larger of those rates); failures,
 * checkpoints, bubbles and communication only add. A finetune's frozen
 * weights need no weight gradients: its bound counts the forward pass only.
 * The cost is at least that time x the GPUs' hourly price (billing rounds
 * held time up). Memory: a full training run keeps weights, gradients and
 * Adam's states (2 + 2 + 12 bytes per parameter, ZeRO section 3.1) at
 * least once across all GPUs, whatever the plan.
 */
/* The memory the model needs at least once across all GPUs (0: no bound):
 * serving, one copy of the weights; a full training run, weights,
 * gradients and optimizer states. */
static double memory_need_bytes(const struct workload_spec *w)
{
	if (w->kind == WORKLOAD_INFERENCE) {
		enum precision wp = w->serving.has_weight_precision ? w->serving.weight_precision : w->model.precision;
		return transformer_params_total(&w->model.arch) * precision_bytes(wp);
	}
	if (!is_training(w) || w->train.is_finetune)
		return 0;
	return transformer_params_total(&w->model.arch) *
	       (TRAIN_WEIGHT_BYTES + TRAIN_GRAD_BYTES + train_optimizer_bytes(w->train.plan.optimizer_moments));
}

bool plan_bounds(const struct workload_spec *w, const struct cluster_spec *c, double *time_lb_s,
		 double *cost_lb_usd)
{
	*time_lb_s = 0;
	*cost_lb_usd = 0;
	double gpus = (double)cluster_gpus(c);
	if (memory_need_bytes(w) > gpus * c->gpu.memory_bytes)
		return false;
	if (!is_training(w))
		return true;
	const struct train_spec *t = &w->train;
	if (c->gpu.peak_flops[w->model.precision] <= 0)
		return true;  /* the precision is missing: evaluate says so */
	struct roofline k;
	roofline_init(&k, &c->gpu, w->model.precision, &w->model.kernels);
	double rate = fmax(k.peak_flops_per_s * k.gemm_efficiency, k.attn_peak_flops_per_s * k.attn_efficiency);
	double tokens = w->run.tokens > 0 ? w->run.tokens : t->global_batch_tokens;
	if (t->round_batch && w->run.tokens <= 0)
		tokens = 0;  /* one step of a batch not yet rounded: no bound */
	double flops = tokens * transformer_model_flops_per_token(&w->model.arch, t->seq_len);
	if (t->is_finetune)
		flops /= 3;
	*time_lb_s = rate > 0 ? flops / (gpus * rate) : 0;
	if (c->price.known)
		*cost_lb_usd = *time_lb_s / 3600 * gpus * c->price.usd_per_gpu_hour;
	return true;
}

/* Two services that deploy the same replicas on the same GPUs (a larger
 * shape of one base whose extra nodes stay unused): one deployment, the
 * first shape keeps it. */
static bool same_deployment(const struct plan_point *a, const struct plan_point *b)
{
	return plan_point_serving(a) && plan_point_serving(b) && plan_point_t50(a) == plan_point_t50(b) &&
	       plan_point_c50(a) == plan_point_c50(b) && a->result.serve.gpus_used == b->result.serve.gpus_used &&
	       strcmp(a->gpu, b->gpu) == 0;
}

/* a dominates b: no worse on both, better on one. */
static bool dominates(double at, double ac, double bt, double bc)
{
	return at <= bt && ac <= bc && (at < bt || ac < bc);
}

/* Evaluation order: the cost bound, then the time bound, then the shape. */
struct order { size_t i; double cost, time; };

static int compare_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost < y->cost ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static bool meets(const struct objective_spec *o, const struct plan_point *p)
{
	if (plan_point_serving(p))
		return true;  /* a service's objective is its SLO (priced_ok) */
	if (o->deadline_h > 0 && plan_point_t50(p) > o->deadline_h * 3600)
		return false;
	if (o->budget_usd > 0 && plan_point_c50(p) > o->budget_usd)
		return false;
	return true;
}

/* The bounds of p: its own, or the defaults. */
static size_t shapes_max(const struct plan_problem *p)
{
	return p->shapes_max > 0 ? p->shapes_max : PLAN_SHAPES_MAX;
}

static long shape_gpus_max(const struct plan_problem *p)
{
	return p->shape_gpus_max > 0 ? p->shape_gpus_max : PLAN_SHAPE_GPUS_MAX;
}

static double work_max(const struct plan_problem *p)
{
	return p->work_max > 0 ? p->work_max : PLAN_WORK_MAX;
}

double plan_work_weight(long gpus)
{
	double k = (double)gpus / 1024;
	return 1 + k * k;
}

/* What one plan_search has done, over both of its passes. */
struct search_run {
	struct plan_progress pr;
	double most_plans;           /* the most plans a shape has tried */
	enum plan_stop stop;
	char reason[1024];
};

/* Report progress; false (and stop) when the caller says stop. */
static bool report(const struct plan_problem *p, struct search_run *run)
{
	if (p->progress == NULL || p->progress(p->progress_ctx, &run->pr))
		return true;
	run->stop = PLAN_STOP_INTERRUPTED;
	text_setf(run->reason, sizeof run->reason, "interrupted after %zu of %zu shapes (%zu evaluated)",
		 run->pr.decided, run->pr.total, run->pr.evaluated);
	return false;
}

/* How to narrow a search, the end of every bound's message. */
static const char narrow[] =
	"narrow the search: fewer node counts (search.nodes), presets, GPUs, providers or price types, "
	"a deadline or a budget (--deadline-h, --budget-usd) that rules shapes out before they are evaluated, "
	"or parallelism fields given instead of \"auto\"";

/* The plans a shape's evaluation tried: a training search's count; a
 * service's requests simulated over 25 (about 40 us of simulation, a unit
 * of work) and one more; else 1. */
static double plans_of(const struct result *r)
{
	if (r->kind == RESULT_TRAINING && r->train.plans_tried > 0)
		return r->train.plans_tried;
	if (r->kind == RESULT_INFERENCE)
		return 1 + (double)r->serve.m.requests_sent / 25;
	return 1;
}

/* A plan's weight on a shape of `gpus` GPUs: plan_work_weight, but a
 * service's time is its requests', whatever its GPUs. */
static double weight_of(const struct plan_problem *p, long gpus)
{
	return p->workload->kind == WORKLOAD_INFERENCE ? 1 : plan_work_weight(gpus);
}

/* Pass 1: resolve each shape and rule out the unresolved, the unpriced and
 * those whose memory cannot hold the model; the rest go into ord, in
 * evaluation order. False when the caller says stop. */
static bool resolve_shapes(const struct plan_problem *p, struct plan_outcome *out, struct search_run *run,
			   struct cluster_spec *c, struct order *ord, size_t *n_ord_out)
{
	size_t n_ord = 0;
	for (size_t i = 0; i < p->n_shapes; i++) {
		struct plan_point *pt = &out->points[i];
		if (i % 1024 == 1023) {
			run->pr.decided = i - n_ord;  /* resolving the space is quick: its progress is the ruled out */
			if (!report(p, run))
				return false;
		}
		pt->beaten_by = -1;
		pt->preemptions_per_instance_h = -1;
		if (!p->shape(p->shape_ctx, i, c)) {
			pt->fate = PLAN_UNRESOLVED;
			if (p->unresolved != NULL)
				p->unresolved(p->shape_ctx, i, pt->name, sizeof pt->name, pt->note, sizeof pt->note,
					      &pt->price_type);
			else
				text_setf(pt->note, sizeof pt->note, "the catalog cannot make this shape");
			continue;
		}
		snprintf(pt->name, sizeof pt->name, "%s", c->name);
		snprintf(pt->gpu, sizeof pt->gpu, "%s", c->gpu.id.name);
		pt->nodes = c->nodes;
		pt->gpus = cluster_gpus(c);
		pt->price_type = c->price.type;
		text_setf(pt->price_term, sizeof pt->price_term, "%s", c->price.term);
		pt->preemptions_per_instance_h = c->price.type == PRICE_SPOT ? c->price.preemptions_per_instance_h : -1;
		if (!c->price.known) {
			pt->fate = PLAN_UNPRICED;
			if (c->price.missing[0])
				text_setf(pt->note, sizeof pt->note, "%s", c->price.missing);
			else
				text_setf(pt->note, sizeof pt->note, "no price: the catalog has none for %s (no provider "
					 "rents it); a candidate with price.usd_per_gpu_hour as a base includes it", c->name);
			continue;
		}
		if (!plan_bounds(p->workload, c, &pt->time_lb_s, &pt->cost_lb_usd) && !p->no_prune) {
			pt->fate = PLAN_NO_MEMORY;
			pt->mem_need_bytes = memory_need_bytes(p->workload);
			pt->mem_have_bytes = (double)pt->gpus * c->gpu.memory_bytes;
			continue;
		}
		ord[n_ord++] = (struct order){ .i = i, .cost = pt->cost_lb_usd, .time = pt->time_lb_s };
	}
	qsort(ord, n_ord, sizeof *ord, compare_order);
	*n_ord_out = n_ord;
	return true;
}

/* The bounds on the work, before evaluating anything (see the comment
 * inside); false, with run->stop and run->reason set, when a bound stops
 * the search or the caller says stop. */
static bool work_within_bounds(const struct plan_problem *p, const struct objective_spec *obj,
			       const struct plan_outcome *out, struct search_run *run, const struct order *ord,
			       size_t n_ord, bool bounded)
{
	/* the bounds on the work, before evaluating anything: the shapes the
	 * deadline and the budget leave, and the largest of them */
	size_t left = 0, largest = 0;
	for (size_t k = 0; k < n_ord; k++) {
		const struct plan_point *pt = &out->points[ord[k].i];
		if (!p->no_prune && bounded && ((obj->deadline_h > 0 && pt->time_lb_s > obj->deadline_h * 3600) ||
						(obj->budget_usd > 0 && pt->cost_lb_usd > obj->budget_usd)))
			continue;
		if (left == 0 || pt->gpus > out->points[largest].gpus)
			largest = ord[k].i;
		left++;
	}
	run->pr.total = p->n_shapes;
	run->pr.decided = p->n_shapes - n_ord;
	run->pr.to_evaluate = run->pr.evaluated + left;
	if (left > shapes_max(p)) {
		run->stop = PLAN_STOP_SHAPES;
		text_setf(run->reason, sizeof run->reason, "%zu of the %zu shapes are left to evaluate once the catalog, "
			 "the prices, memory, the deadline and the budget have ruled the others out, more than the %zu "
			 "one search may evaluate; %s", left, p->n_shapes, shapes_max(p), narrow);
		return false;
	}
	if (left > 0 && out->points[largest].gpus > shape_gpus_max(p)) {
		run->stop = PLAN_STOP_SHAPE_GPUS;
		text_setf(run->reason, sizeof run->reason, "shape '%s' has %ld GPUs, more than the %ld a shape may have to be "
			 "evaluated (a plan search's time grows faster than its GPUs); %s", out->points[largest].name,
			 out->points[largest].gpus, shape_gpus_max(p), narrow);
		return false;
	}
	if (!report(p, run))
		return false;
	return true;
}

/* Mark the fronts (P50, P90) among the feasible points. */
static void mark_fronts(struct plan_outcome *out, const size_t *feasible, size_t n_feasible)
{
	/* the fronts among the feasible points */
	for (size_t a = 0; a < n_feasible; a++) {
		struct plan_point *pa = &out->points[feasible[a]];
		bool d50 = false, d90 = false;
		for (size_t b = 0; b < n_feasible && !(d50 && d90); b++) {
			const struct plan_point *pb = &out->points[feasible[b]];
			bool dup = b < a && same_deployment(pb, pa);
			bool b50 = dup || dominates(plan_point_t50(pb), plan_point_c50(pb), plan_point_t50(pa), plan_point_c50(pa));
			if (b50 && !d50) {
				pa->beaten_by = (long)feasible[b];
				pa->same_deployment = dup;
			}
			d50 = d50 || b50;
			d90 = d90 || dup || dominates(plan_point_t90(pb), plan_point_c90(pb), plan_point_t90(pa), plan_point_c90(pa));
		}
		if (!d50 || !d90) {
			pa->beaten_by = -1;
			pa->same_deployment = false;
		}
		pa->front_p50 = !d50;
		pa->front_p90 = !d90;
	}
}

/* Pass 1: resolve each shape, bound it; pass 2: evaluate in order. */
static void search_once(const struct plan_problem *p, const struct objective_spec *obj, struct plan_outcome *out,
			struct search_run *run)
{
	struct cluster_spec *c = xmalloc(sizeof *c);
	struct order *ord = xcalloc(p->n_shapes ? p->n_shapes : 1, sizeof *ord);
	size_t n_ord = 0;
	size_t *feasible = xcalloc(p->n_shapes ? p->n_shapes : 1, sizeof *feasible);
	size_t n_feasible = 0;
	bool bounded = is_training(p->workload);

	memset(out, 0, sizeof *out);
	out->points = xcalloc(p->n_shapes ? p->n_shapes : 1, sizeof *out->points);
	out->n = p->n_shapes;
	out->cheapest = out->fastest = out->fastest_strict = -1;
	run->pr.total = p->n_shapes;
	if (!resolve_shapes(p, out, run, c, ord, &n_ord))
		goto out;

	if (!work_within_bounds(p, obj, out, run, ord, n_ord, bounded))
		goto out;

	for (size_t k = 0; k < n_ord; k++) {
		struct plan_point *pt = &out->points[ord[k].i];
		if (k > 0 && !report(p, run))
			goto out;
		run->pr.decided++;
		if (!p->no_prune && bounded) {
			if (obj->deadline_h > 0 && pt->time_lb_s > obj->deadline_h * 3600) {
				pt->fate = PLAN_PAST_DEADLINE;
				continue;
			}
			if (obj->budget_usd > 0 && pt->cost_lb_usd > obj->budget_usd) {
				pt->fate = PLAN_OVER_BUDGET;
				continue;
			}
			/* P90 figures of a feasible point bound both fronts: its P50 <= P90 <= s's bounds.
			 * Only a shape of the same price type and term rules one out,
			 * so the cheapest of each type (plan_spot) and of each
			 * commitment term is exact too. */
			bool dominated = false;
			for (size_t f = 0; f < n_feasible && !dominated; f++) {
				const struct plan_point *q = &out->points[feasible[f]];
				dominated = q->price_type == pt->price_type &&
					    strcmp(q->price_term, pt->price_term) == 0 &&
					    dominates(plan_point_t90(q), plan_point_c90(q), pt->time_lb_s, pt->cost_lb_usd);
				if (dominated)
					pt->beaten_by = (long)feasible[f];
			}
			if (dominated) {
				pt->fate = PLAN_DOMINATED;
				run->pr.to_evaluate--;
				continue;
			}
		}
		/* the shape's work, at the most plans a shape has tried so far */
		double next = weight_of(p, pt->gpus) * (run->most_plans > 1 ? run->most_plans : 1);
		if (run->pr.work + next > work_max(p)) {
			run->stop = PLAN_STOP_WORK;
			text_setf(run->reason, sizeof run->reason, "after %zu of at most %zu shapes evaluated (work %.4g: plans "
				 "tried x (1 + (GPUs / 1024)^2)), '%s' (%ld GPUs, up to %.0f plans as before) would pass %.4g, "
				 "the most work one search may do; %s", run->pr.evaluated, run->pr.to_evaluate, run->pr.work,
				 pt->name, pt->gpus, run->most_plans > 1 ? run->most_plans : 1, work_max(p), narrow);
			run->pr.decided--;
			goto out;
		}
		struct job job = {
			.kind = p->workload->kind, .workload = p->workload, .cluster = c,
			.monte_carlo = p->monte_carlo, .objective = obj, .scenario = p->scenario,
			/* every shape draws the same random streams (arrivals, failures): compared on one load */
			.seed = p->seed, .row_id = 0,
		};
		if (!p->shape(p->shape_ctx, ord[k].i, c))
			continue;  /* resolved once already: cannot happen */
		evaluate(&job, &pt->result);
		pt->fate = PLAN_EVALUATED;
		double plans = plans_of(&pt->result);
		run->pr.evaluated++;
		run->pr.work += plans * weight_of(p, pt->gpus);
		if (plans > run->most_plans)
			run->most_plans = plans;
		if (plan_point_priced_ok(&pt->result)) {
			out->ok++;
			if (meets(obj, pt)) {
				pt->feasible = true;
				feasible[n_feasible++] = ord[k].i;
			}
		}
	}
	for (size_t i = 0; i < out->n; i++)
		out->fate_count[out->points[i].fate]++;

	mark_fronts(out, feasible, n_feasible);
	report(p, run);
out:
	free(ord);
	free(feasible);
	free(c);
}

/* Front order: cost P50, then time P50, then the shape. */
static const struct plan_outcome *sort_outcome;

static int compare_front(const void *a, const void *b)
{
	const struct plan_point *x = &sort_outcome->points[*(const size_t *)a];
	const struct plan_point *y = &sort_outcome->points[*(const size_t *)b];
	if (x->front_p50 != y->front_p50)
		return x->front_p50 ? -1 : 1;
	if (plan_point_c50(x) != plan_point_c50(y))
		return plan_point_c50(x) < plan_point_c50(y) ? -1 : 1;
	if (plan_point_t50(x) != plan_point_t50(y))
		return plan_point_t50(x) < plan_point_t50(y) ? -1 : 1;
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* A search that stopped: no front, the reason and where it was. */
static void stopped(struct plan_outcome *out, const struct search_run *run)
{
	for (size_t i = 0; i < out->n; i++)
		out->points[i].front_p50 = out->points[i].front_p90 = false;
	out->front = xcalloc(1, sizeof *out->front);
	out->n_front = out->n_front_p50 = 0;
	out->cheapest = out->fastest = out->fastest_strict = -1;
	out->stop = run->stop;
	text_setf(out->stop_reason, sizeof out->stop_reason, "%s", run->reason);
	out->progress = run->pr;
}

void plan_search(const struct plan_problem *p, struct plan_outcome *out)
{
	struct objective_spec none = { 0 };
	bool given = p->objective.deadline_h > 0 || p->objective.budget_usd > 0;
	struct search_run run = { .stop = PLAN_STOP_DONE };

	search_once(p, &p->objective, out, &run);
	if (run.stop != PLAN_STOP_DONE) {
		stopped(out, &run);
		return;
	}
	size_t n_feasible = 0;
	for (size_t i = 0; i < out->n; i++)
		n_feasible += out->points[i].feasible;
	out->objective_given = given;
	out->objective_met = n_feasible > 0;
	if (given && n_feasible == 0) {
		/* nothing meets it: the front of every shape, so the answer says how close they come */
		plan_outcome_release(out);
		search_once(p, &none, out, &run);
		out->objective_given = true;
		out->objective_met = false;
		if (run.stop != PLAN_STOP_DONE) {
			stopped(out, &run);
			return;
		}
	}
	out->progress = run.pr;
	out->objective = out->objective_met ? p->objective : none;
	out->tie_tolerance = p->tie_tolerance == 0 ? PLAN_TIE_DEFAULT : p->tie_tolerance < 0 ? 0 : p->tie_tolerance;
	out->trials = p->monte_carlo != NULL && p->monte_carlo->trials > 0 ? p->monte_carlo->trials : 1;
	out->serving = p->workload->kind == WORKLOAD_INFERENCE;
	if (out->serving) {
		out->slo_ttft_p99_ms = p->workload->serving.slo_ttft_p99_ms;
		out->slo_tpot_p99_ms = p->workload->serving.slo_tpot_p99_ms;
	}
	out->front = xcalloc(out->n ? out->n : 1, sizeof *out->front);
	for (size_t i = 0; i < out->n; i++)
		if (out->points[i].front_p50 || out->points[i].front_p90)
			out->front[out->n_front++] = i;
	sort_outcome = out;  /* qsort has no context argument in C11 */
	qsort(out->front, out->n_front, sizeof *out->front, compare_front);
	sort_outcome = NULL;
	for (size_t k = 0; k < out->n_front; k++)
		if (out->points[out->front[k]].front_p50)
			out->points[out->front[k]].rank = (int)++out->n_front_p50;
	if (out->n_front_p50 > 0) {
		/* the fastest: the cheapest point of the front whose time ties with the least */
		out->cheapest = (long)out->front[0];
		out->fastest = out->fastest_strict = (long)out->front[out->n_front_p50 - 1];
		for (size_t k = 0; k < out->n_front_p50; k++)
			if (plan_tie(out, out->front[k], (size_t)out->fastest_strict)) {
				out->fastest = (long)out->front[k];
				break;
			}
	}
}

/* The standard error of a point's P50 time over o->trials trials: the
 * spread is taken as normal, sigma = (P90 - P50) / z(0.9), z(0.9) =
 * 1.2816, and the sample median's standard error is sqrt(pi / 2) sigma /
 * sqrt(n) (its large-sample variance pi sigma^2 / (2n) for a normal
 * sample). 0 for a point drawn once (no failures, no preemptions: P50 =
 * P90) and for a service (one simulation). */
static double p50_noise_s(const struct plan_outcome *o, const struct plan_point *p)
{
	if (plan_point_serving(p) || o->trials < 2)
		return 0;
	double spread = plan_point_t90(p) - plan_point_t50(p);
	return spread > 0 ? 1.2533141373155003 * spread / 1.2815515655446004 / sqrt((double)o->trials) : 0;
}

/* Why a and b tie (see plan_tie): 1 within the tolerance, 2 within the
 * noise only; 0 no tie. */
static int tie_kind(const struct plan_outcome *o, const struct plan_point *a, const struct plan_point *b)
{
	double d = fabs(plan_point_t50(a) - plan_point_t50(b));
	if (d <= o->tie_tolerance * fmin(plan_point_t50(a), plan_point_t50(b)))
		return 1;
	if (d <= 2 * hypot(p50_noise_s(o, a), p50_noise_s(o, b)))
		return 2;
	return 0;
}

bool plan_tie(const struct plan_outcome *o, size_t a, size_t b)
{
	return tie_kind(o, &o->points[a], &o->points[b]) != 0;
}

void plan_outcome_release(struct plan_outcome *out)
{
	free(out->points);
	free(out->front);
	memset(out, 0, sizeof *out);
	out->cheapest = out->fastest = out->fastest_strict = -1;
}

/* "for 4% more than", "for 2.3x the cost of" (a ratio of 2 or more reads
 * better as a factor), "for 3% less than". */
static void say_more(double a, double b, char *buf, size_t size)
{
	double r = a / b;
	if (r >= 2)
		snprintf(buf, size, "for %.2gx the cost of", r);
	else if (r >= 1.01)
		snprintf(buf, size, "for %.0f%% more than", (r - 1) * 100);
	else if (r >= 1)
		snprintf(buf, size, "for %.1f%% more than", (r - 1) * 100);
	else
		snprintf(buf, size, "for %.0f%% less than", (1 - r) * 100);
}

/* "; fits with TP 4 instead of 8, 41% fewer GPU-hours" (or "2.5x fewer") when the GPU differs. */
static void say_plan_difference(const struct plan_point *a, const struct plan_point *b, char *buf, size_t size)
{
	buf[0] = '\0';
	if (strcmp(a->gpu, b->gpu) == 0)
		return;
	size_t used = 0;
	const struct train_plan *pa = &a->result.train.plan, *pb = &b->result.train.plan;
	used += (size_t)snprintf(buf, size, "; %s", a->gpu);
	if (pa->tp != pb->tp && used < size)
		used += (size_t)snprintf(buf + used, size - used, " fits with TP %d instead of %d", pa->tp, pb->tp);
	/* a ratio under 2 as a percent: "1x fewer" would hide a 4% difference */
	double ga = a->result.run.gpu_hours, gb = b->result.run.gpu_hours;
	double ratio = ga < gb ? gb / ga : ga / gb;
	const char *sep = pa->tp != pb->tp ? "," : "", *way = ga < gb ? "fewer" : "more";
	if (ga > 0 && gb > 0 && used < size && ratio < 2)
		snprintf(buf + used, size - used, "%s %.0f%% %s GPU-hours", sep, (ga < gb ? 1 - ga / gb : ga / gb - 1) * 100, way);
	else if (ga > 0 && gb > 0 && used < size)
		snprintf(buf + used, size - used, "%s %.2gx %s GPU-hours", sep, ratio, way);
}

/* " (a tie: within the 1% tolerance)" when a and b tie, else "". */
static void say_tie(const struct plan_outcome *o, const struct plan_point *a, const struct plan_point *b, char *buf,
		    size_t size)
{
	switch (tie_kind(o, a, b)) {
	case 1:
		snprintf(buf, size, " (a tie: within the %g%% tolerance)", o->tie_tolerance * 100);
		break;
	case 2:
		snprintf(buf, size, " (a tie: within the Monte Carlo noise)");
		break;
	default:
		buf[0] = '\0';
	}
}

/* The why line of a service: dollars per hour and TTFT P99 against its neighbour. */
static void why_serving(const struct plan_outcome *o, size_t k, char *buf, size_t size)
{
	char more[48], usd[48], tie[64];
	const struct plan_point *a = &o->points[o->front[k]];
	const struct serve_result *sa = &a->result.serve;
	plan_point_say_usd(plan_point_c50(a), usd, sizeof usd);
	if (o->n_front_p50 == 1) {
		text_setf(buf, size, "%s meets the SLO with %d replica%s (%ld GPUs) for %s/h, TTFT P99 %.0f ms; "
			 "no other shape is both faster and cheaper", a->name, sa->replicas, sa->replicas == 1 ? "" : "s",
			 sa->gpus_used, usd, sa->m.ttft_ms.p99);
		return;
	}
	const struct plan_point *b = &o->points[o->front[k == 0 ? 1 : k - 1]];
	if (k == 0) {
		say_more(plan_point_c50(b), plan_point_c50(a), more, sizeof more);
		say_tie(o, b, a, tie, sizeof tie);
		text_setf(buf, size, "%s meets the SLO with %d replica%s (%ld GPUs) for %s/h, the cheapest; the next faster, "
			 "%s, has TTFT P99 %.0f ms instead of %.0f%s %s it", a->name, sa->replicas,
			 sa->replicas == 1 ? "" : "s", sa->gpus_used, usd, b->name, b->result.serve.m.ttft_ms.p99,
			 sa->m.ttft_ms.p99, tie, more);
		return;
	}
	say_more(plan_point_c50(a), plan_point_c50(b), more, sizeof more);
	say_tie(o, a, b, tie, sizeof tie);
	text_setf(buf, size, "%s meets the SLO with %d replica%s (%ld GPUs), TTFT P99 %.0f ms%s, %s %s at %.0f ms",
		 a->name, sa->replicas, sa->replicas == 1 ? "" : "s", sa->gpus_used, sa->m.ttft_ms.p99, tie, more,
		 b->name, b->result.serve.m.ttft_ms.p99);
}

void plan_why(const struct plan_outcome *o, size_t k, char *buf, size_t size)
{
	if (k < o->n_front_p50 && plan_point_serving(&o->points[o->front[k]])) {
		why_serving(o, k, buf, size);
		return;
	}
	char ta[32], tb[32], more[48], diff[160], usd[48], tie[64];
	assert(k < o->n_front_p50);
	const struct plan_point *a = &o->points[o->front[k]];
	plan_point_say_time(plan_point_t50(a), ta, sizeof ta);
	plan_point_say_usd(plan_point_c50(a), usd, sizeof usd);
	if (o->n_front_p50 == 1) {
		text_setf(buf, size, "%s finishes in %s for %s, and no other shape is both faster and cheaper",
			 a->name, ta, usd);
		return;
	}
	if (k == 0) {
		/* the cheapest, against the next faster choice */
		const struct plan_point *b = &o->points[o->front[1]];
		plan_point_say_time(plan_point_t50(b), tb, sizeof tb);
		say_more(plan_point_c50(b), plan_point_c50(a), more, sizeof more);
		say_plan_difference(b, a, diff, sizeof diff);
		say_tie(o, b, a, tie, sizeof tie);
		text_setf(buf, size, "%s finishes in %s for %s, the cheapest; the next faster, %s, takes %s%s %s it%s",
			 a->name, ta, usd, b->name, tb, tie, more, diff);
		return;
	}
	const struct plan_point *b = &o->points[o->front[k - 1]];
	plan_point_say_time(plan_point_t50(b), tb, sizeof tb);
	say_more(plan_point_c50(a), plan_point_c50(b), more, sizeof more);
	say_plan_difference(a, b, diff, sizeof diff);
	say_tie(o, a, b, tie, sizeof tie);
	text_setf(buf, size, "%s finishes in %s%s %s %s in %s%s", a->name, ta, tie, more, b->name, tb, diff);
}

bool plan_fastest_tie(const struct plan_outcome *o, char *buf, size_t size)
{
	buf[0] = '\0';
	if (o->fastest < 0 || o->fastest == o->fastest_strict)
		return false;
	const struct plan_point *a = &o->points[o->fastest], *b = &o->points[o->fastest_strict];
	char more[48], tie[64];
	say_more(plan_point_c50(b), plan_point_c50(a), more, sizeof more);
	say_tie(o, b, a, tie, sizeof tie);
	if (plan_point_serving(a))
		text_setf(buf, size, "%s has a TTFT P99 of %.0f ms, %.2g%% less, %s %s%s, and a tie goes to the cheaper "
			 "shape", b->name, plan_point_t50(b) * 1e3, (1 - plan_point_t50(b) / plan_point_t50(a)) * 100, more, a->name, tie);
	else
		text_setf(buf, size, "%s is %.3g h (%.2g%%) faster %s %s%s, and a tie goes to the cheaper shape", b->name,
			 (plan_point_t50(a) - plan_point_t50(b)) / 3600, (1 - plan_point_t50(b) / plan_point_t50(a)) * 100, more,
			 a->name, tie);
	return true;
}

/* Why an evaluated point is not on the front (see plan_reason). */
static void reason_evaluated(const struct plan_outcome *o, const struct plan_point *pt, char *buf, size_t size)
{
	const struct result *r = &pt->result;
	char t[32], usd[48], tb[32], ub[48];
	if (r->outcome.status != OUTCOME_OK) {
		bool spot_rate = r->outcome.status == OUTCOME_UNSUPPORTED && pt->price_type == PRICE_SPOT &&
				 pt->preemptions_per_instance_h < 0;
		text_setf(buf, size, "%s: %s%s", outcome_names[r->outcome.status], r->outcome.reason[0] ? r->outcome.reason : "no reason given",
			 spot_rate ? "; in a search, search.spot gives every spot shape its preemptions" : "");
		return;
	}
	if (plan_point_serving(pt)) {
		if (!r->serve_usd.priced)
			text_setf(buf, size, "ok, but no dollars per hour: %s", r->outcome.reason);
		else if (!r->serve.slo_met)
			text_setf(buf, size, "misses the SLO: TTFT P99 %.0f ms (SLO %.0f ms), TPOT P99 %.0f ms (SLO %.0f ms)"
				 " with %d replica%s", r->serve.m.ttft_ms.p99, o->slo_ttft_p99_ms, r->serve.m.tpot_ms.p99,
				 o->slo_tpot_p99_ms, r->serve.replicas, r->serve.replicas == 1 ? "" : "s");
		else if (pt->front_p50 || pt->front_p90)
			buf[0] = '\0';
		else if (pt->beaten_by >= 0 && pt->same_deployment)
			text_setf(buf, size, "the same deployment as %s (the extra nodes stay unused)",
				 o->points[pt->beaten_by].name);
		else if (pt->beaten_by >= 0) {
			const struct plan_point *q = &o->points[pt->beaten_by];
			plan_point_say_usd(plan_point_c50(q), ub, sizeof ub);
			plan_point_say_usd(plan_point_c50(pt), usd, sizeof usd);
			text_setf(buf, size, "off the front: %s is no slower and no dearer, TTFT P99 %.0f ms for %s/h "
				 "against %.0f ms for %s/h", q->name, plan_point_t50(q) * 1e3, ub, plan_point_t50(pt) * 1e3, usd);
		} else
			text_setf(buf, size, "not on the front");
		return;
	}
	if (!r->has_run || !r->run.priced) {
		text_setf(buf, size, "ok, but no cost: %s", r->outcome.reason);
		return;
	}
	plan_point_say_time(plan_point_t50(pt), t, sizeof t);
	plan_point_say_usd(plan_point_c50(pt), usd, sizeof usd);
	if (!pt->feasible) {
		if (o->objective.deadline_h > 0 && plan_point_t50(pt) > o->objective.deadline_h * 3600)
			text_setf(buf, size, "misses the objective: its P50 wall time, %s, is past the deadline of %g h", t,
				 o->objective.deadline_h);
		else {
			plan_point_say_usd(o->objective.budget_usd, ub, sizeof ub);
			text_setf(buf, size, "misses the objective: its P50 cost, %s, is over the budget of %s", usd, ub);
		}
		return;
	}
	if (pt->front_p50 || pt->front_p90) {
		buf[0] = '\0';
		return;
	}
	if (pt->beaten_by < 0) {
		text_setf(buf, size, "not on the front");
		return;
	}
	const struct plan_point *q = &o->points[pt->beaten_by];
	plan_point_say_time(plan_point_t50(q), tb, sizeof tb);
	plan_point_say_usd(plan_point_c50(q), ub, sizeof ub);
	text_setf(buf, size, "off both fronts: %s is no slower and no dearer at P50, %s for %s against %s for %s "
		 "(and some shape is at P90)", q->name, tb, ub, t, usd);
}

void plan_reason(const struct plan_outcome *o, size_t i, char *buf, size_t size)
{
	const struct plan_point *pt = &o->points[i];
	char t[32], usd[48], tb[32], ub[48];
	assert(size > 0);
	buf[0] = '\0';
	switch (pt->fate) {
	case PLAN_EVALUATED:
		reason_evaluated(o, pt, buf, size);
		break;
	case PLAN_UNRESOLVED:
	case PLAN_UNPRICED:
		text_setf(buf, size, "%s", pt->note);
		break;
	case PLAN_NO_MEMORY:
		text_setf(buf, size, "its %ld GPUs hold %.4g GB, less than the %.4g GB that %s need at least once, "
			 "whatever the plan", pt->gpus, pt->mem_have_bytes / 1e9, pt->mem_need_bytes / 1e9,
			 o->serving ? "the weights"
			 : "weights, gradients and optimizer states");
		break;
	case PLAN_PAST_DEADLINE:
		plan_point_say_time(pt->time_lb_s, t, sizeof t);
		text_setf(buf, size, "its wall time is at least %s (the model FLOPs on its %ld GPUs at the best kernel rate), "
			 "past the deadline of %g h", t, pt->gpus, o->objective.deadline_h);
		break;
	case PLAN_OVER_BUDGET:
		plan_point_say_usd(pt->cost_lb_usd, usd, sizeof usd);
		plan_point_say_usd(o->objective.budget_usd, ub, sizeof ub);
		text_setf(buf, size, "its cost is at least %s (its least wall time at its price), over the budget of %s",
			 usd, ub);
		break;
	case PLAN_DOMINATED: {
		const struct plan_point *q = &o->points[pt->beaten_by];
		plan_point_say_time(plan_point_t90(q), tb, sizeof tb);
		plan_point_say_usd(plan_point_c90(q), ub, sizeof ub);
		plan_point_say_time(pt->time_lb_s, t, sizeof t);
		plan_point_say_usd(pt->cost_lb_usd, usd, sizeof usd);
		text_setf(buf, size, "%s takes %s for %s at P90, no more than this shape's least wall time and cost, "
			 "%s and %s, and less in one", q->name, tb, ub, t, usd);
		break;
	}
	case PLAN_FATE_COUNT:
		assert(0);
	}
}
