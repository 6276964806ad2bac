#include "models/eval/eval_kind.h"

#include <math.h>

#include "models/cost/inference.h"

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

/* The request-level simulation of the service (serve_run), then its dollars. */
void eval_serve(const struct job *j, struct result *out)
{
	struct serve_result *s = &out->serve;

	if (evaluate_unmodelled(j, out))
		return;
	/* The requests' streams depend on the scenario seed only (row 0), not
	 * on the row: every candidate of a scenario serves the same requests,
	 * so their differences are the hardware's, not the draws'. */
	serve_run(&j->workload->serving, &j->workload->model, j->cluster, j->seed, 0, s);
	out->outcome = s->outcome;
	if (out->outcome.status != OUTCOME_OK)
		return;
	if (!serve_figures_finite(s)) {
		outcome_set(&out->outcome, OUTCOME_ERROR, "%s", "a result overflowed (not a finite number)");
		return;
	}
	inference_dollars_fill(j->cluster, s->gpus_used, s->m.output_tok_s, s->m.throughput_tok_s, &out->serve_usd);
	if (out->serve_usd.instances > 0 && s->gpus_used < out->cluster.gpus)
		outcome_add(&out->outcome,
			    "the replicas occupy %ld of the candidate's %ld GPUs: priced for %ld instance%s of %d GPUs",
			    s->gpus_used, out->cluster.gpus, out->serve_usd.instances,
			    out->serve_usd.instances == 1 ? "" : "s", j->cluster->gpus_per_node);
	evaluate_note_no_price(j, out);
}
