#include "models/eval/eval_kind.h"

#include <math.h>

#include "models/cost/inference.h"

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
	inference_dollars_fill(j->cluster, s->gpus_used, s->m.output_tok_s, s->m.throughput_tok_s, &out->serve_usd);
	if (out->serve_usd.instances > 0 && s->gpus_used < out->cluster.gpus)
		outcome_add(&out->outcome,
			    "the replicas occupy %ld of the candidate's %ld GPUs: priced for %ld instance%s of %d GPUs",
			    s->gpus_used, out->cluster.gpus, out->serve_usd.instances,
			    out->serve_usd.instances == 1 ? "" : "s", j->cluster->gpus_per_node);
	evaluate_note_assumed_rates(j, out);
	evaluate_note_calibration(j, out, true);
	evaluate_note_no_price(j, out);
	if (out->serve_usd.instances > 0)
		evaluate_note_commitment(j, out->serve_usd.instances * j->cluster->gpus_per_node, 0, out);
}
