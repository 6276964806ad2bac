#include "nccl_tests.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "util/text.h"

/* The flows' time replaces the analytic one; false when the flow form is
 * not available for this collective. */
static bool simulate_point(const struct topology *t, const struct collective_spec *spec, const struct coll_cost *cost,
			   double bytes, struct nccl_point *out)
{
	double ts = collective_simulate(t, spec->op, cost, bytes);
	if (ts < 0) {
		outcome_set(&out->outcome, OUTCOME_INVALID, "the flow form of all_to_all is limited to 512 GPUs; use fidelity analytic");
		return false;
	}
	out->time_s = ts;
	return true;
}

void nccl_tests_point(const struct cluster_spec *c, const struct collective_spec *spec,
		      double bytes, struct nccl_point *out)
{
	struct topology t;
	struct collective_group g;
	struct coll_cost cost;
	const char *why = NULL;

	memset(out, 0, sizeof *out);
	topology_init(&t, c);
	collective_group_all(&g, &t);
	out->op = spec->op;
	out->gpus = t.gpus;
	out->bytes = bytes;
	out->fidelity = spec->fidelity;
	out->algorithm = collective_algo_label(spec->op, spec->algorithm);
	out->protocol = "";
	if (g.n < 2) {
		outcome_set(&out->outcome, OUTCOME_INVALID, "a collective needs at least 2 GPUs");
		return;
	}
	if (!collective_analytic(&t, &g, spec->op, spec->algorithm, bytes, &cost, &why)) {
		outcome_set(&out->outcome, OUTCOME_INVALID, "%s", why);
		return;
	}
	out->algorithm = collective_algo_label(spec->op, cost.algo);
	out->protocol = collective_protocol_names[cost.proto];
	out->time_s = cost.time_s;
	if (spec->fidelity == FIDELITY_FLOWS && !simulate_point(&t, spec, &cost, bytes, out))
		return;
	/* two or more ranks always pay a protocol's base latency */
	assert(out->time_s > 0);
	out->algbw_bytes_per_s = bytes / out->time_s;
	out->busbw_bytes_per_s = out->algbw_bytes_per_s * collective_busbw_factor(spec->op, g.n);
}
