#include "train.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/train/parallel.h"
#include "models/train/search.h"
#include "models/train/step.h"
#include "util/text.h"
#include "util/xalloc.h"

void train_plan_numerics(const struct train_spec *w, const struct train_plan *p, char *buf, size_t size)
{
	bool used[4] = {
		p->grad_bytes < parallel_grad_bytes(w->model->precision, GRAD_REDUCE_AUTO),
		p->optimizer_bytes < TRAIN_OPTIMIZER_BYTES,
		p->moe_dispatch == MOE_DISPATCH_FP8,
		p->fp8_act_cache,
	};
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i < 4 && n < size; i++)
		if (used[i])
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "+" : "", search_numerics_names[i]);
}

/*
 * A precision the GPU has no dense units for (FP8 on an A100, FP4 on an
 * H100: a peak of 0 in the catalog) cannot be trained in: an invalid result
 * naming the precisions it has, rather than a step at a made-up speed.
 */
static bool precision_missing(const struct train_spec *w, const struct cluster_spec *c,
			      struct train_result *r)
{
	char has[96] = "";
	size_t used = 0;

	if (c->gpu.peak_flops[w->model->precision] > 0)
		return false;
	for (int p = PREC_FP64; p < PREC_COUNT && used < sizeof has; p++)
		if (c->gpu.peak_flops[p] > 0 && p != PREC_FP64 && p != PREC_FP32)
			used += (size_t)snprintf(has + used, sizeof has - used, "%s%s", used ? ", " : "",
						 precision_names[p]);
	outcome_set(&r->outcome, OUTCOME_INVALID, "%s has no dense %s units (no %s peak in the catalog): train in %s",
		 c->gpu.id.name, precision_names[w->model->precision], precision_names[w->model->precision],
		 has[0] ? has : "a precision it has");
	return true;
}

void train_evaluate(const struct train_spec *w, const struct cluster_spec *c,
		    struct timeline *trace, struct train_result *r)
{
	const struct parallel_plan *q = &w->plan;
	const struct train_spec *orig = w;
	struct train_plan p;

	memset(r, 0, sizeof *r);
	if (precision_missing(w, c, r))
		return;
	/* only dp (and sequence parallelism, which follows tp) left to derive: no search */
	bool only_dp = !parallel_has_auto(&(struct parallel_plan){ .tp = q->tp, .pp = q->pp, .vpp = q->vpp,
		.cp = q->cp, .ep = q->ep, .zero = q->zero, .micro_batch = q->micro_batch,
		.schedule = q->schedule, .recompute = q->recompute, .sequence_parallel = 0, .dp = 0 }) &&
		       q->search_levers == 0;
	if (only_dp) {
		char why[PARALLEL_WHY_MAX];
		struct train_spec *wr = NULL;  /* the rounded copy, with round_batch */
		if (w->round_batch) {
			wr = xmalloc(sizeof *wr);
			*wr = *w;
			wr->global_batch_tokens = parallel_batch_tokens(w, c, q);
			w = wr;
		}
		if (!parallel_fill(w, c, q, &p, why, sizeof why)) {
			outcome_set(&r->outcome, OUTCOME_INVALID, "%s", why);
		} else {
			step_simulate(w, c, &p, r, trace);
			r->plans_tried = 1;
		}
		r->plan.layout = parallel_layout_of(orig);  /* the caller's spec, not the freed copy */
		free(wr);
		return;
	}
	search_plans(w, c, r);
	if (trace != NULL && r->outcome.status == OUTCOME_OK) {
		/* the winner once more, logged: the same deterministic step */
		struct train_result logged;
		step_simulate(w, c, &r->plan, &logged, trace);
	}
}
