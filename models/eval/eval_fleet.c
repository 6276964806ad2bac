#include "models/eval/eval_kind.h"

#include <math.h>
#include <stdlib.h>

#include "models/eval/evaluate.h"
#include "models/hw/cluster.h"
#include "util/xalloc.h"

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
	e->outcome.status = OUTCOME_OK;
	e->gpus = k->gpus;
	bool ok = true;
	if (w->kind == WORKLOAD_COLLECTIVE) {
		e->duration_s = 0;
		for (size_t b = 0; b < w->collective.n_bytes && ok; b++) {
			j.collective_bytes = w->collective.bytes[b];
			evaluate(&j, r);
			ok = r->outcome.status == OUTCOME_OK;
			e->duration_s += r->collective.time_s;
		}
	} else {
		evaluate(&j, r);
		ok = r->outcome.status == OUTCOME_OK;
	}
	if (!ok) {
		outcome_set(&e->outcome, r->outcome.status, "its workload is %s on %d GPUs of \"%s\": %s",
			    outcome_names[r->outcome.status],
			    w->kind == WORKLOAD_INFERENCE ? (int)cluster_gpus(c) : k->gpus, c->name, r->outcome.reason);
	} else if (w->kind == WORKLOAD_INFERENCE) {
		e->service = true;
		e->gpus = (int)(r->serve_usd.instances > 0 ? r->serve_usd.instances * c->gpus_per_node
							  : r->serve.gpus_used);
	} else if (w->kind != WORKLOAD_COLLECTIVE) {
		e->duration_s = r->run.wall_time_p50_s;
		e->checkpoint_interval_s = r->run.ckpt_interval_s;  /* 0 without checkpoints */
		e->restart_s = w->run.failures.restart_s;
	}
	free(r);
	free(alloc);
}

/* A fleet on the candidate: fleet_run_series with the evaluate call for its classes. */
void eval_fleet(const struct job *j, struct result *out)
{
	struct fleet_result *f = &out->fleet;
	if (evaluate_unmodelled(j, out))
		return;
	fleet_run_series(j->workload->fleet, j->cluster, j->seed, j->row_id, fleet_class_evaluate, (void *)j,
			 j->fleet_series, f);
	out->outcome = f->outcome;
}
