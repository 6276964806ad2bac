#include "evaluate.h"

#include <string.h>

#include "models/cost/billing.h"
#include "models/eval/eval_kind.h"
#include "models/hw/cluster.h"
#include "util/text.h"

const char *const workload_kind_names[] = { "training", "finetune", "inference", "collective", "fleet", "gemm", NULL };

static inline unsigned kind_bit(enum workload_kind k)
{
	return 1u << k;
}

/* training and finetune, as a set of kind bits */
enum { TRAINING_KINDS = 1u << WORKLOAD_TRAINING | 1u << WORKLOAD_FINETUNE };

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

/* Speculative decoding (serving.speculative) on disaggregated replicas
 * (where the drafter's prompt pass and its KV would move between pools) or
 * on pipeline stages: serve_spec.c models a colocated replica of one stage.
 * A model's MTP modules without serving.speculative are not loaded and not
 * run, as vLLM serves DeepSeek-V3 without a speculative config. */
static bool asks_spec_unmodelled(const struct job *j)
{
	const struct serving_spec *sv = &j->workload->serving;
	return sv->spec.method != SPEC_NONE && (sv->prefill_replicas > 0 || sv->decode_replicas > 0 || sv->pp > 1);
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
	{ .kinds = 1u << WORKLOAD_INFERENCE, .asks = asks_spec_unmodelled, .voids_run = true,
	  .reason = "speculative decoding (serving.speculative) with disaggregated replicas or pp > 1 is not "
		    "modelled: no serving figures" },
	{ .kinds = 1u << WORKLOAD_FLEET, .asks = asks_spot_fleet, .voids_run = true,
	  .reason = "spot preemptions of a fleet's instances (price type spot) are not modelled: no fleet figures" },
	{ .kinds = 1u << WORKLOAD_FLEET, .asks = asks_fleet_spares, .voids_run = true,
	  .reason = "spare nodes beside a fleet (workload.failures.spare_nodes) are not modelled (the fleet's own "
		    "nodes are its spares): no fleet figures" },
};

/* Mark the result unsupported for each unmodelled thing the job asks for;
 * returns true when one of them voids the run's figures. */
bool evaluate_unmodelled(const struct job *j, struct result *out)
{
	bool voids = false;
	struct outcome reasons = { .status = OUTCOME_UNSUPPORTED, .reason = "" };
	for (size_t i = 0; i < sizeof unmodelled / sizeof unmodelled[0]; i++) {
		const struct unmodelled *u = &unmodelled[i];
		if (!(u->kinds & kind_bit(j->kind)) || !u->asks(j))
			continue;
		outcome_add(&reasons, "%s", u->reason);
		voids = voids || u->voids_run;
	}
	if (reasons.reason[0] != '\0')
		out->outcome = reasons;
	return voids;
}

static void cluster_figures(const struct job *j, struct cluster_figures *f)
{
	const struct cluster_spec *c = j->cluster;
	f->gpus = cluster_gpus(c);
	f->peak_flops = cluster_peak_flops(c, j->workload->model.precision);
	f->memory_bytes = cluster_memory_bytes(c);
	f->scale_up_bytes_per_s_per_gpu = c->scale_up.bw_bytes_per_s;
	f->scale_out_bytes_per_s_per_gpu = cluster_nic_bytes_per_s_per_gpu(c);
	f->priced = c->price.known;
	f->usd_per_hour = f->priced ? billing_usd_per_hour(c) : 0;
}

void evaluate_note_no_price(const struct job *j, struct result *out)
{
	if (!j->cluster->price.known)
		outcome_add(&out->outcome, "%s",
			   j->cluster->price.missing[0] ? j->cluster->price.missing
							: "no price: give candidates[].price");
}

void evaluate_note_commitment(const struct job *j, long gpus, double held_s, struct result *out)
{
	char note[1024];
	billing_commit_note(&j->cluster->price, gpus, held_s, note, sizeof note);
	if (note[0] != '\0')
		outcome_add(&out->outcome, "%s", note);
}

void evaluate_note_assumed_rates(const struct job *j, struct result *out)
{
	const struct gpu_spec *g = &j->cluster->gpu;
	const struct workload_spec *w = j->workload;
	if (j->kind == WORKLOAD_INFERENCE && w->serving.constants.assumed)
		/* the engine's entry in the catalog is not fitted to that engine's
		 * own measurements (catalog engines, confidence "assumption") */
		outcome_add(&out->outcome, "assumption: %s's step constants are not fitted to its own "
			    "measurements (clustersim catalog engines)", serve_engine_names[w->serving.engine]);
	if (j->kind == WORKLOAD_INFERENCE && w->serving.engine == SERVE_ENGINE_SGLANG && w->serving.max_output_tokens > 0)
		/* SGLang's PrefillAdder counts new_token_ratio x each running
		 * request's remaining max_new_tokens as held; the model admits on
		 * the prompt's blocks (docs/explanation/serving.md) */
		outcome_add(&out->outcome, "assumption: sglang admits on the prompt's KV blocks; the share of "
			    "max_output_tokens its new_token_ratio holds back is not modelled");
	if (w->model.precision != PREC_FP4 || !g->mamf_fp4_assumed || !(g->peak_flops[PREC_FP4] > 0))
		return;
	outcome_add(&out->outcome,
		    "assumption: no FP4 GEMM rate is measured for %s (catalog mamf_fp4); its FP4 GEMMs reach %.3g "
		    "of peak, %.2f x its FP8 fraction %.3g (B200's measured FP4/FP8 ratio)",
		    g->id.name, g->mamf[PREC_FP4], catalog_fp4_over_fp8_mamf, g->mamf[PREC_FP8]);
}

void evaluate_note_calibration(const struct job *j, struct result *out, bool with_fabrics)
{
	const struct cluster_spec *c = j->cluster;
	const struct workload_spec *w = j->workload;
	const char *names[4] = { c->gpu.id.name, c->scale_up.id.name, c->has_nic ? c->nic.id.name : "", "" };
	const char *cals[4] = { c->gpu.calibration, c->scale_up.calibration, c->has_nic ? c->nic.calibration : "", "" };
	int n = with_fabrics ? 3 : 1;
	/* the engine whose constants the row used (serving's scheduler's, training's) */
	if (j->kind == WORKLOAD_INFERENCE) {
		names[n] = serve_engine_names[w->serving.engine];
		cals[n++] = w->serving.constants.calibration;
	} else if (j->kind == WORKLOAD_TRAINING || j->kind == WORKLOAD_FINETUNE) {
		names[n] = "training";
		cals[n++] = w->model.training.calibration;
	}
	for (int i = 0; i < n; i++) {
		bool first = cals[i][0] != '\0';
		for (int k = 0; k < i && first; k++)
			first = strcmp(cals[k], cals[i]) != 0;
		if (!first)
			continue;  /* none, or named with an earlier entry of the same calibration */
		char who[4 * CAT_NAME_MAX + 8] = "";
		for (int k = i; k < n; k++)
			if (strcmp(cals[k], cals[i]) == 0)
				text_appendf(who, sizeof who, "%s%s", who[0] ? ", " : "", names[k]);
		outcome_add(&out->outcome, "calibrated: %s (%s)", who, cals[i]);
	}
}

static void evaluate_shape(const struct job *j, struct result *out)
{
	evaluate_note_no_price(j, out);
}

/* One entry per workload kind: the model that evaluates it and the
 * columns its rows have. */
static const struct evaluator {
	enum result_kind result;
	void (*run)(const struct job *, struct result *);
} evaluators[] = {
	[WORKLOAD_TRAINING] = { .result = RESULT_TRAINING, .run = eval_train },
	[WORKLOAD_FINETUNE] = { .result = RESULT_TRAINING, .run = eval_train },
	[WORKLOAD_INFERENCE] = { .result = RESULT_INFERENCE, .run = eval_serve },
	[WORKLOAD_COLLECTIVE] = { .result = RESULT_COLLECTIVE, .run = eval_collective },
	[WORKLOAD_FLEET] = { .result = RESULT_FLEET, .run = eval_fleet },
	[WORKLOAD_GEMM] = { .result = RESULT_GEMM, .run = eval_gemm },
};

enum result_kind evaluate_result_kind(enum workload_kind kind, bool shape_only)
{
	return shape_only ? RESULT_SHAPE : evaluators[kind].result;
}

void evaluate(const struct job *j, struct result *out)
{
	memset(out, 0, sizeof *out);
	out->outcome.status = OUTCOME_OK;
	out->kind = evaluate_result_kind(j->kind, j->shape_only);
	cluster_figures(j, &out->cluster);
	if (j->shape_only)
		evaluate_shape(j, out);
	else
		evaluators[j->kind].run(j, out);
}
