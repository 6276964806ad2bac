#include "plan_mix.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/eval/evaluate.h"
#include "models/plan/plan_point.h"
#include "util/xalloc.h"

/* A GPU type for mixes: its cheapest shape that meets the SLO alone. */
struct mix_type {
	size_t point;
	int replicas;
	double usd_per_hour;
};

/* A mix to try: n[k] replicas of type t[k], its estimated price. */
struct mix_try {
	int t[2], n[2];
	double est;
	int index;
};

static int compare_mix_try(const void *a, const void *b)
{
	const struct mix_try *x = a, *y = b;
	if (x->est != y->est)
		return x->est < y->est ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* At most this many mixes are simulated (each is two serving runs). */
enum { PLAN_MIX_MAX_SIMULATED = 32 };

/* Serve n replicas of shape `point` at share x the rate; the result in *r. */
static void mix_part(const struct plan_problem *p, size_t point, int n, double share, uint64_t row_id,
		     struct cluster_spec *c, struct workload_spec *w, struct result *r)
{
	*w = *p->workload;
	workload_bind(w);
	w->serving.rate_per_s = p->workload->serving.rate_per_s * share;
	w->serving.replicas = n;
	bool resolved = p->shape(p->shape_ctx, point, c);
	assert(resolved);  /* it was evaluated */
	(void)resolved;
	struct job job = { .kind = w->kind, .workload = w, .cluster = c, .monte_carlo = p->monte_carlo,
			   .objective = &p->objective, .scenario = p->scenario, .seed = p->seed, .row_id = row_id };
	evaluate(&job, r);
}

void plan_mix_search(const struct plan_problem *p, const struct plan_outcome *o, struct plan_mix *out)
{
	const struct serving_spec *sv = &p->workload->serving;
	memset(out, 0, sizeof *out);
	if (p->workload->kind != WORKLOAD_INFERENCE) {
		snprintf(out->why_not, sizeof out->why_not, "%s", "mixes are for serving");
		return;
	}
	if (sv->process != ARRIVAL_POISSON || sv->requests > 0 || sv->prefill_replicas > 0 || sv->decode_replicas > 0) {
		snprintf(out->why_not, sizeof out->why_not, "%s",
			 "mixes need Poisson arrivals for a duration, not disaggregated (the split is a thinning)");
		return;
	}
	out->searched = true;
	struct mix_type *ty = xcalloc(o->n ? o->n : 1, sizeof *ty);
	int nt = 0;
	for (size_t i = 0; i < o->n; i++) {
		const struct plan_point *pt = &o->points[i];
		if (!pt->feasible)
			continue;
		int k = 0;
		while (k < nt && strcmp(o->points[ty[k].point].gpu, pt->gpu) != 0)
			k++;
		if (k == nt || plan_point_c50(pt) < ty[k].usd_per_hour)
			ty[k] = (struct mix_type){ .point = i, .replicas = pt->result.serve.replicas, .usd_per_hour = plan_point_c50(pt) };
		if (k == nt)
			nt++;
	}
	out->types = nt;
	double best = INFINITY;
	for (int k = 0; k < nt; k++)
		best = fmin(best, ty[k].usd_per_hour);
	out->single_usd_per_hour = nt > 0 ? best : 0;

	/* every pair's replica counts whose price, pro rata, is below the best single type's */
	size_t cap = 16, n_try = 0;
	struct mix_try *tries = xcalloc(cap, sizeof *tries);
	for (int a = 0; a < nt; a++)
		for (int b = a + 1; b < nt; b++)
			for (int na = 1; na <= ty[a].replicas; na++)
				for (int nb = 1; nb <= ty[b].replicas; nb++) {
					double est = na * ty[a].usd_per_hour / ty[a].replicas +
						     nb * ty[b].usd_per_hour / ty[b].replicas;
					if (est >= best * (1 - 1e-9))
						continue;
					if (n_try == cap)
						tries = xgrow(tries, &cap, n_try + 1, sizeof *tries, 16);
					tries[n_try] = (struct mix_try){ .t = { a, b }, .n = { na, nb }, .est = est,
									 .index = (int)n_try };
					n_try++;
				}
	qsort(tries, n_try, sizeof *tries, compare_mix_try);

	struct cluster_spec *c = xmalloc(sizeof *c);
	struct workload_spec *w = xmalloc(sizeof *w);
	struct result *r = xmalloc(2 * sizeof *r);
	for (size_t i = 0; i < n_try && out->simulated < PLAN_MIX_MAX_SIMULATED && !out->found; i++) {
		const struct mix_try *m = &tries[i];
		/* shares in proportion to each part's capacity: n / (the replicas that carry the whole rate) */
		double wa = (double)m->n[0] / ty[m->t[0]].replicas, wb = (double)m->n[1] / ty[m->t[1]].replicas;
		double share[2] = { wa / (wa + wb), wb / (wa + wb) };
		bool ok = true;
		out->simulated++;
		for (int k = 0; k < 2 && ok; k++) {
			/* independent streams for the two parts (row ids 1 and 2; the single types used 0) */
			mix_part(p, ty[m->t[k]].point, m->n[k], share[k], (uint64_t)k + 1, c, w, &r[k]);
			ok = plan_point_priced_ok(&r[k]);
		}
		double total = ok ? r[0].serve_usd.usd_per_hour + r[1].serve_usd.usd_per_hour : INFINITY;
		if (!ok || total >= best * (1 - 1e-9))
			continue;
		out->found = true;
		for (int k = 0; k < 2; k++) {
			out->shape[k] = ty[m->t[k]].point;
			out->replicas[k] = m->n[k];
			out->share[k] = share[k];
			out->usd_per_hour[k] = r[k].serve_usd.usd_per_hour;
			out->ttft_p99_ms[k] = r[k].serve.m.ttft_ms.p99;
			out->tpot_p99_ms[k] = r[k].serve.m.tpot_ms.p99;
		}
	}
	free(r);
	free(w);
	free(c);
	free(tries);
	free(ty);
}
