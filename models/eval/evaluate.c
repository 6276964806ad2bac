#include "evaluate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/cost/billing.h"
#include "models/cost/inference.h"
#include "models/eval/objective.h"
#include "models/fleet/fleet.h"
#include "models/hw/cluster.h"
#include "models/serve/serve.h"
#include "util/text.h"
#include "util/xalloc.h"

const char *const workload_kind_names[] = { "training", "finetune", "inference", "collective", "fleet", NULL };
const char *const outcome_names[] = { "ok", "oom", "invalid", "unsupported", "error", NULL };

/* Just under 2^63 ns, where the engine's clock saturates. */
static const double STEP_CLOCK_LIMIT_S = 9e9;

static inline unsigned kind_bit(enum workload_kind k)
{
	return 1u << k;
}

/* training and finetune, as a set of kind bits */
enum { TRAINING_KINDS = 1u << WORKLOAD_TRAINING | 1u << WORKLOAD_FINETUNE };

/* Append "; text" (or just text when empty) to a reason. */
static void reason_add(char *reason, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void reason_add(char *reason, size_t size, const char *fmt, ...)
{
	va_list ap;
	if (reason[0] != '\0')
		text_appendf(reason, size, "; ");
	va_start(ap, fmt);
	text_vappendf(reason, size, fmt, ap);
	va_end(ap);
}

/* A spot price without a preemption rate: there is no sourced catalog rate to use. */
static bool asks_spot(const struct job *j)
{
	const struct price_quote *q = &j->cluster->price;
	return q->type == PRICE_SPOT && q->preemptions_per_instance_h < 0;
}

/* Failures during serving: the request simulation has no failure model. */
static bool asks_failures(const struct job *j)
{
	return j->workload->run.failures.enabled;
}

/* A spot price for serving: its preemptions would interrupt the service,
 * and the request simulation has none (whatever the rate given). */
static bool asks_spot_serving(const struct job *j)
{
	return j->cluster->price.type == PRICE_SPOT;
}

/* A served model with multi-token-prediction modules: serving them means
 * speculative decoding with the modules as drafts, which the request
 * simulation does not have (without it the modules are not loaded). */
static bool asks_mtp_serving(const struct job *j)
{
	return j->workload->train.model.mtp_layers > 0;
}

/* A fleet with spare nodes: the fleet's own nodes are its spares; a count
 * of extra, idle ones is not modelled (their cost and the shorter wait). */
static bool asks_fleet_spares(const struct job *j)
{
	return j->workload->fleet != NULL && j->workload->fleet->failures.enabled &&
	       j->workload->fleet->failures.spare_nodes > 0;
}

/* A spot price for a fleet: preemptions of the shared cluster's instances
 * are not modelled, so its dollars would be spot's without its losses. */
static bool asks_spot_fleet(const struct job *j)
{
	return j->cluster->price.type == PRICE_SPOT;
}

/*
 * What a scenario can say that is read and checked but not modelled yet.
 * A job that asks for one is `unsupported`; when the thing would change the
 * whole run (its time, its cost), the run's figures are left out, while
 * the step's, which it does not change, stay.
 */
static const struct unmodelled {
	unsigned kinds;                 /* the kind_bit()s it applies to */
	bool (*asks)(const struct job *);
	bool voids_run;
	const char *reason;
} unmodelled[] = {
	{ .kinds = TRAINING_KINDS, .asks = asks_spot, .voids_run = true,
	  .reason = "spot preemptions (price type spot) need candidates[].price.preemptions_per_instance_h and "
		    "capacity_wait_s (no catalog has a sourced preemption rate): no wall time or cost" },
	{ .kinds = 1u << WORKLOAD_INFERENCE, .asks = asks_failures, .voids_run = true,
	  .reason = "failures during serving (workload.failures) are not modelled: no serving figures" },
	{ .kinds = 1u << WORKLOAD_INFERENCE, .asks = asks_spot_serving, .voids_run = true,
	  .reason = "spot preemptions during serving (price type spot) are not modelled: no serving figures" },
	{ .kinds = 1u << WORKLOAD_INFERENCE, .asks = asks_mtp_serving, .voids_run = true,
	  .reason = "multi-token prediction in serving (model.mtp_layers: speculative decoding with the modules as "
		    "drafts) is not modelled: no serving figures; give mtp_layers 0 to serve without it" },
	{ .kinds = 1u << WORKLOAD_FLEET, .asks = asks_spot_fleet, .voids_run = true,
	  .reason = "spot preemptions of a fleet's instances (price type spot) are not modelled: no fleet figures" },
	{ .kinds = 1u << WORKLOAD_FLEET, .asks = asks_fleet_spares, .voids_run = true,
	  .reason = "spare nodes beside a fleet (workload.failures.spare_nodes) are not modelled (the fleet's own "
		    "nodes are its spares): no fleet figures" },
};

/* Mark the result unsupported for each unmodelled thing the job asks for;
 * returns true when one of them voids the run's figures. */
static bool check_unmodelled(const struct job *j, struct result *out)
{
	bool voids = false;
	char reasons[sizeof out->reason] = "";
	for (size_t i = 0; i < sizeof unmodelled / sizeof unmodelled[0]; i++) {
		const struct unmodelled *u = &unmodelled[i];
		if (!(u->kinds & kind_bit(j->kind)) || !u->asks(j))
			continue;
		reason_add(reasons, sizeof reasons, "%s", u->reason);
		voids = voids || u->voids_run;
	}
	if (reasons[0] != '\0') {
		out->outcome = OUTCOME_UNSUPPORTED;
		text_setf(out->reason, sizeof out->reason, "%s", reasons);
	}
	return voids;
}

static void cluster_figures(const struct job *j, struct cluster_figures *f)
{
	const struct cluster_spec *c = j->cluster;
	f->gpus = cluster_gpus(c);
	f->peak_flops = cluster_peak_flops(c, j->workload->train.precision);
	f->memory_bytes = cluster_memory_bytes(c);
	f->scale_up_bytes_per_s_per_gpu = c->scale_up.bw_bytes_per_s;
	f->scale_out_bytes_per_s_per_gpu = cluster_nic_bytes_per_s_per_gpu(c);
	f->priced = c->price.known;
	f->usd_per_hour = f->priced ? billing_usd_per_hour(c) : 0;
}

static void note_no_price(const struct job *j, struct result *out)
{
	if (!j->cluster->price.known)
		reason_add(out->reason, sizeof out->reason, "%s",
			   j->cluster->price.missing[0] ? j->cluster->price.missing
							: "no price: give candidates[].price");
}

static void evaluate_shape(const struct job *j, struct result *out)
{
	note_no_price(j, out);
}

static enum outcome outcome_of_train(enum train_status s)
{
	static const enum outcome map[] = {
		[TRAIN_OK] = OUTCOME_OK, [TRAIN_OOM] = OUTCOME_OOM,
		[TRAIN_INVALID] = OUTCOME_INVALID, [TRAIN_ERROR] = OUTCOME_ERROR,
	};
	return map[s];
}

/* A NaN or an infinity never reaches a result that says ok. */
static bool train_figures_finite(const struct result *out)
{
	const struct train_result *r = &out->train;
	double v[] = { r->step_time_s, r->tokens_per_s, r->tflops_per_gpu, r->mfu, r->hfu,
		       out->run.wall_time_p50_s, r->mem.total, out->run.cost_usd_p50 };
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		if (!isfinite(v[i]))
			return false;
	return true;
}

/* The reason of a plan that does not fit, in GiB (the unit of the catalog's
 * memory_gib), with the capacity, and in GB (mem_per_gpu_gb's unit). */
static void oom_reason(const struct job *j, const struct train_result *r, struct result *out)
{
	const double gib = 1073741824.0;
	const struct train_memory *m = &r->mem;
	const struct gpu_spec *g = &j->cluster->gpu;
	text_setf(out->reason, sizeof out->reason,
		 "needs %.1f GiB per GPU (weights %.1f, grads %.1f, optimizer %.1f, activations %.1f, "
		 "workspace %.1f) but one %s has %.1f GiB (%.1f GB of %.1f GB)",
		 m->total / gib, m->weights / gib, m->grads / gib, m->optimizer / gib, m->activations / gib,
		 m->workspace / gib, g->id.name, g->memory_bytes / gib, m->total / 1e9, g->memory_bytes / 1e9);
	if (r->searched)
		reason_add(out->reason, sizeof out->reason,
			   "none of the %d plans searched (%s) fits: this one needs the least", r->plans_tried,
			   r->searched_fields);
}

static void evaluate_training(const struct job *j, struct result *out)
{
	const struct workload_spec *w = j->workload;
	struct train_result *r = &out->train;

	train_evaluate(&w->train, j->cluster, j->trace, r);
	out->outcome = outcome_of_train(r->status);
	if (out->outcome == OUTCOME_OOM && isfinite(r->mem.total)) {
		oom_reason(j, r, out);
		return;
	}
	if (out->outcome != OUTCOME_OK) {
		text_setf(out->reason, sizeof out->reason, "%s", r->reason);
		return;
	}
	/* The trials' failure and preemption streams follow the scenario seed
	 * only (row 0), as serving's requests do: every candidate, every sweep
	 * point and every shape plan searches sees the same draws (common
	 * random numbers), so run and plan agree and candidates differ by
	 * their hardware, not their luck. */
	struct run_trials trials = { .seed = j->seed, .row_id = 0,
				     .trials = j->monte_carlo != NULL ? j->monte_carlo->trials : 1 };
	run_training(&w->run, &w->train, j->cluster, r, &trials, &out->run);
	if (out->run.failed) {
		out->outcome = OUTCOME_INVALID;
		text_setf(out->reason, sizeof out->reason, "%s", out->run.note);
		return;
	}
	if (out->run.data_stall_s > 0) {
		/* the step waits for its data (run/run.h): a longer step, the same work */
		double f = r->step_time_s / (r->step_time_s + out->run.data_stall_s);
		r->step_time_s += out->run.data_stall_s;
		r->tokens_per_s *= f;
		r->tflops_per_gpu *= f;
		r->mfu *= f;
		r->hfu *= f;
	}
	if (r->step_time_s >= STEP_CLOCK_LIMIT_S) {
		/* the engine's clock saturates at 2^63 ns: a longer step is not measured */
		out->outcome = OUTCOME_ERROR;
		text_setf(out->reason, sizeof out->reason, "one step takes more than %.3g s (%.0f years), "
			 "beyond the simulated clock's range", STEP_CLOCK_LIMIT_S, STEP_CLOCK_LIMIT_S / 3.15576e7);
		return;
	}
	if (!train_figures_finite(out)) {
		out->outcome = OUTCOME_ERROR;
		text_setf(out->reason, sizeof out->reason, "%s", "a result overflowed (not a finite number)");
		return;
	}
	out->has_run = !check_unmodelled(j, out);
	if (out->has_run && out->run.note[0] != '\0')
		reason_add(out->reason, sizeof out->reason, "%s", out->run.note);
	if (out->has_run)
		objective_check(j->objective, &out->run, &out->objective);
	if (r->searched) {
		if (r->plans_oom > 0)
			reason_add(out->reason, sizeof out->reason,
				   "fastest of %d plans searched (%s); %d of them did not fit in memory",
				   r->plans_tried, r->searched_fields, r->plans_oom);
		else
			reason_add(out->reason, sizeof out->reason,
				   "fastest of %d plans searched (%s); all fit in memory", r->plans_tried,
				   r->searched_fields);
	}
	if (r->searched && (w->train.plan.search_levers & ~(unsigned)LEVERS_NO_NUMERICS)) {
		char used[128];
		train_plan_numerics(&w->train, &r->plan, used, sizeof used);
		reason_add(out->reason, sizeof out->reason, "numerics changed as search_numerics allows: %s",
			   used[0] ? used : "none (each either does not apply to this model and precision, or made no plan faster)");
	}
	if (r->tokens_per_step != w->train.global_batch_tokens)  /* round_batch moved it */
		reason_add(out->reason, sizeof out->reason,
			   "global batch rounded from %.0f to %.0f sequences (%.0f tokens) to split over dp %d x micro_batch %d",
			   w->train.global_batch_tokens / w->train.seq_len, r->tokens_per_step / w->train.seq_len,
			   r->tokens_per_step, r->plan.dp, r->plan.micro_batch);
	note_no_price(j, out);
}

static void evaluate_collective(const struct job *j, struct result *out)
{
	struct nccl_point *p = &out->collective;
	nccl_tests_point(j->cluster, &j->workload->collective, j->collective_bytes, p);
	out->outcome = p->ok ? OUTCOME_OK : OUTCOME_INVALID;
	text_setf(out->reason, sizeof out->reason, "%s", p->reason);
}

static enum outcome outcome_of_serve(enum serve_status s)
{
	static const enum outcome map[] = {
		[SERVE_OK] = OUTCOME_OK, [SERVE_OOM] = OUTCOME_OOM,
		[SERVE_INVALID] = OUTCOME_INVALID, [SERVE_ERROR] = OUTCOME_ERROR,
	};
	return map[s];
}

/* A NaN or an infinity never reaches a serving result that says ok. */
static bool serve_figures_finite(const struct serve_result *s)
{
	const struct serve_metrics *m = &s->m;
	const struct serve_pct *p[] = { &m->ttft_ms, &m->tpot_ms, &m->itl_ms, &m->e2e_s, &m->kv_transfer_ms };
	double v[] = { s->rate_per_s, s->weights_gb_per_gpu, s->kv_capacity_tokens, m->span_s,
		       m->request_per_s, m->throughput_tok_s, m->output_tok_s, m->goodput_req_s,
		       m->slo_attainment, m->busy_frac, m->flops_frac, m->hbm_frac, m->kv_util,
		       m->kv_util_peak, m->mean_in_system };
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		if (!isfinite(v[i]))
			return false;
	for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
		if (!isfinite(p[i]->p50) || !isfinite(p[i]->p90) || !isfinite(p[i]->p99) || !isfinite(p[i]->mean))
			return false;
	return true;
}

static void evaluate_inference(const struct job *j, struct result *out)
{
	const struct workload_spec *w = j->workload;
	struct serve_result *s = &out->serve;

	if (check_unmodelled(j, out))
		return;
	/* The requests' streams depend on the scenario seed only (row 0), not
	 * on the row: every candidate of a scenario serves the same requests,
	 * so their differences are the hardware's, not the draws'. */
	serve_run(&w->serving, &w->train.model, w->train.precision, &w->train.kernels, j->cluster, j->seed,
		  0, s);
	out->outcome = outcome_of_serve(s->status);
	text_setf(out->reason, sizeof out->reason, "%s", s->reason);
	if (out->outcome != OUTCOME_OK)
		return;
	if (!serve_figures_finite(s)) {
		out->outcome = OUTCOME_ERROR;
		text_setf(out->reason, sizeof out->reason, "%s", "a result overflowed (not a finite number)");
		return;
	}
	inference_dollars_fill(j->cluster, s->gpus_used, s->m.output_tok_s, s->m.throughput_tok_s, &out->serve_usd);
	if (out->serve_usd.instances > 0 && s->gpus_used < out->cluster.gpus)
		reason_add(out->reason, sizeof out->reason,
			   "the replicas occupy %ld of the candidate's %ld GPUs: priced for %ld instance%s of %d GPUs",
			   s->gpus_used, out->cluster.gpus, out->serve_usd.instances,
			   out->serve_usd.instances == 1 ? "" : "s", j->cluster->gpus_per_node);
	note_no_price(j, out);
}

/*
 * The allocation of a fleet job of `gpus` GPUs on candidate c's node type:
 * gpus / gpus_per_node whole nodes, or one node of only those GPUs (and
 * at most as many NICs) for a job smaller than a node.
 */
static void fleet_allocation(const struct cluster_spec *c, int gpus, struct cluster_spec *out)
{
	*out = *c;
	if (gpus >= c->gpus_per_node) {
		out->nodes = gpus / c->gpus_per_node;
		return;
	}
	out->nodes = 1;
	out->gpus_per_node = gpus;
	if (out->nics_per_node > gpus)
		out->nics_per_node = gpus;
}

/*
 * fleet_eval_fn: a fleet class's workload through evaluate() on its
 * allocation. Training and finetune: the whole run's wall time P50 on
 * gpus / gpus_per_node nodes (its checkpoint interval and restart for the
 * scheduler's preemptions and failures); inference: a service sized on the
 * whole candidate (replicas "auto" searches the fewest that meet the SLO),
 * holding the whole nodes its replicas occupy; collective: the time of one
 * pass over its message sizes on the allocation.
 */
static void fleet_class_evaluate(const struct fleet_class *k, const struct cluster_spec *c, void *ctx,
				 struct fleet_class_eval *e)
{
	const struct job *fj = ctx;
	const struct workload_spec *w = k->workload;
	struct cluster_spec *alloc = xmalloc(sizeof *alloc);
	struct result *r = xmalloc(sizeof *r);
	struct job j = *fj;

	j.kind = w->kind;
	j.workload = w;
	j.trace = NULL;
	j.cluster = alloc;
	if (w->kind == WORKLOAD_INFERENCE)
		*alloc = *c;
	else
		fleet_allocation(c, k->gpus, alloc);
	e->ok = true;
	e->gpus = k->gpus;
	if (w->kind == WORKLOAD_COLLECTIVE) {
		e->duration_s = 0;
		for (size_t b = 0; b < w->collective.n_bytes && e->ok; b++) {
			j.collective_bytes = w->collective.bytes[b];
			evaluate(&j, r);
			e->ok = r->outcome == OUTCOME_OK;
			e->duration_s += r->collective.time_s;
		}
	} else {
		evaluate(&j, r);
		e->ok = r->outcome == OUTCOME_OK;
	}
	if (!e->ok) {
		text_setf(e->reason, sizeof e->reason, "its workload is %s on %d GPUs of \"%s\": %s",
			 outcome_names[r->outcome], w->kind == WORKLOAD_INFERENCE ? (int)cluster_gpus(c) : k->gpus,
			 c->name, r->reason);
	} else if (w->kind == WORKLOAD_INFERENCE) {
		e->service = true;
		e->gpus = (int)(r->serve_usd.instances > 0 ? r->serve_usd.instances * c->gpus_per_node : r->serve.gpus_used);
	} else if (w->kind != WORKLOAD_COLLECTIVE) {
		e->duration_s = r->run.wall_time_p50_s;
		e->checkpoint_interval_s = r->run.ckpt_interval_s;  /* 0 without checkpoints */
		e->restart_s = w->run.failures.restart_s;
	}
	free(r);
	free(alloc);
}

static enum outcome outcome_of_fleet(enum fleet_status s)
{
	static const enum outcome map[] = {
		[FLEET_OK] = OUTCOME_OK, [FLEET_INVALID] = OUTCOME_INVALID, [FLEET_ERROR] = OUTCOME_ERROR,
	};
	return map[s];
}

/* A NaN or an infinity never reaches a fleet result that says ok. */
static bool fleet_figures_finite(const struct fleet_result *f)
{
	const struct fleet_metrics *m = &f->m;
	double v[] = { m->fleet.wait_h.p50, m->fleet.wait_h.p90, m->fleet.wait_h.p99, m->fleet.jct_h.p50,
		       m->utilization, m->busy_utilization, m->idle_gpu_hours, m->fragmentation, m->makespan_h,
		       m->held_gpu_hours, f->usd_total, f->usd_per_job, f->sized_usd, f->per_team_usd, f->peak_usd };
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		if (!isfinite(v[i]))
			return false;
	return true;
}

/* A fleet on the candidate: fleet_run with the evaluate call for its classes. */
static void evaluate_fleet(const struct job *j, struct result *out)
{
	struct fleet_result *f = &out->fleet;
	if (check_unmodelled(j, out))
		return;
	fleet_run_series(j->workload->fleet, j->cluster, j->seed, j->row_id, fleet_class_evaluate, (void *)j,
			 j->fleet_series, f);
	out->outcome = outcome_of_fleet(f->status);
	text_setf(out->reason, sizeof out->reason, "%s", f->reason);
	if (out->outcome == OUTCOME_OK && !fleet_figures_finite(f)) {
		out->outcome = OUTCOME_ERROR;
		text_setf(out->reason, sizeof out->reason, "%s", "a result overflowed (not a finite number)");
	}
}

/* One entry per workload kind: the model that evaluates it and the
 * columns its rows have. */
static const struct evaluator {
	enum result_kind result;
	void (*run)(const struct job *, struct result *);
} evaluators[] = {
	[WORKLOAD_TRAINING] = { .result = RESULT_TRAINING, .run = evaluate_training },
	[WORKLOAD_FINETUNE] = { .result = RESULT_TRAINING, .run = evaluate_training },
	[WORKLOAD_INFERENCE] = { .result = RESULT_INFERENCE, .run = evaluate_inference },
	[WORKLOAD_COLLECTIVE] = { .result = RESULT_COLLECTIVE, .run = evaluate_collective },
	[WORKLOAD_FLEET] = { .result = RESULT_FLEET, .run = evaluate_fleet },
};

enum result_kind evaluate_result_kind(enum workload_kind kind, bool shape_only)
{
	return shape_only ? RESULT_SHAPE : evaluators[kind].result;
}

void evaluate(const struct job *j, struct result *out)
{
	memset(out, 0, sizeof *out);
	out->outcome = OUTCOME_OK;
	out->kind = evaluate_result_kind(j->kind, j->shape_only);
	cluster_figures(j, &out->cluster);
	if (j->shape_only)
		evaluate_shape(j, out);
	else
		evaluators[j->kind].run(j, out);
}
