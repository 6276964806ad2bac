/*
 * plan_disagg: the cheapest xPyD split of each instance type the plan
 * search evaluated, against its colocated deployments (plan_disagg.h).
 */
#include "plan_disagg.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/eval/evaluate.h"
#include "models/serve/serve_cost.h"
#include "util/text.h"
#include "util/xalloc.h"

/* What makes two shapes one instance type: everything but the node count
 * and the name. */
struct base_key {
	char preset[CAT_NAME_MAX];
	char gpu[CAT_NAME_MAX];
	int gpus_per_node;
	char scale_up[CAT_NAME_MAX];
	bool has_nic;
	char nic[CAT_NAME_MAX];
	int nics_per_node;
	struct topology_spec topology;
	double usd_per_gpu_hour;
	char provider[CAT_NAME_MAX];
	enum price_type type;
};

static void key_of(const struct cluster_spec *c, struct base_key *k)
{
	memset(k, 0, sizeof *k);
	snprintf(k->preset, sizeof k->preset, "%s", c->preset);
	snprintf(k->gpu, sizeof k->gpu, "%s", c->gpu.id.name);
	k->gpus_per_node = c->gpus_per_node;
	snprintf(k->scale_up, sizeof k->scale_up, "%s", c->scale_up.id.name);
	k->has_nic = c->has_nic;
	if (c->has_nic)
		snprintf(k->nic, sizeof k->nic, "%s", c->nic.id.name);
	k->nics_per_node = c->has_nic ? c->nics_per_node : 0;
	k->topology = c->topology;
	k->usd_per_gpu_hour = c->price.usd_per_gpu_hour;
	snprintf(k->provider, sizeof k->provider, "%s", c->price.provider);
	k->type = c->price.type;
}

static bool same_key(const struct base_key *a, const struct base_key *b)
{
	return strcmp(a->preset, b->preset) == 0 && strcmp(a->gpu, b->gpu) == 0 &&
	       a->gpus_per_node == b->gpus_per_node && strcmp(a->scale_up, b->scale_up) == 0 &&
	       a->has_nic == b->has_nic && strcmp(a->nic, b->nic) == 0 && a->nics_per_node == b->nics_per_node &&
	       a->topology.kind == b->topology.kind && a->topology.oversubscription == b->topology.oversubscription &&
	       a->topology.nodes_per_leaf == b->topology.nodes_per_leaf &&
	       a->usd_per_gpu_hour == b->usd_per_gpu_hour && strcmp(a->provider, b->provider) == 0 &&
	       a->type == b->type;
}

/* A service that is ok, priced and meets its SLO. */
static bool meets_slo(const struct result *r)
{
	return r->outcome.status == OUTCOME_OK && r->kind == RESULT_INFERENCE && r->serve_usd.priced && r->serve.slo_met;
}

/* The work of one simulation, as plan.c counts a service's. */
static double work_of(const struct result *r)
{
	return 1 + (double)r->serve.m.requests_sent / 25;
}

/* One deployment simulated: colocated (x 0: y replicas of tp dtp) or a
 * split (x prefill replicas of tp ptp, y decode replicas of tp dtp). */
struct sim {
	int ptp, dtp, x, y;
	bool ok;             /* ran: ok and priced (else the pair is given up) */
	bool meets;
	struct plan_disagg_deploy d;
};

/* The state of one search. */
struct search {
	const struct plan_problem *p;
	struct plan_disagg *out;
	struct cluster_spec *c;           /* the base's shape */
	struct workload_spec *w;
	struct result *r;
	struct sim *cache;                /* the deployments simulated on this base */
	size_t n_cache, cap_cache;
	double work0, work_max, most;     /* the plan's work before, the bound, the largest simulation's */
	int pp, ep;                       /* the scenario's, for every replica */
};

/* Find or simulate a deployment on the base's shape; NULL when the work
 * bound stops the search. */
static const struct sim *simulate(struct search *s, int ptp, int dtp, int x, int y)
{
	for (size_t i = 0; i < s->n_cache; i++) {
		const struct sim *e = &s->cache[i];
		if (e->ptp == ptp && e->dtp == dtp && e->x == x && e->y == y)
			return e;
	}
	struct plan_disagg *out = s->out;
	if (s->work0 + out->work + s->most > s->work_max) {
		char what[64];
		if (x > 0)
			snprintf(what, sizeof what, "%dP%dD", x, y);
		else
			snprintf(what, sizeof what, "%d colocated replicas of tp %d", y, dtp);
		out->stopped = true;
		text_setf(out->stop_reason, sizeof out->stop_reason,
			 "after %d simulations (work %.4g, with the shapes' %.4g): %s on '%s' (up to %.4g as the "
			 "largest simulation so far) would pass %.4g, the most work one search may do; narrow the search "
			 "(fewer presets or node counts, a shorter serving.duration_s) or set search.disaggregated false",
			 out->simulated, s->work0 + out->work, s->work0, what, s->c->name, s->most, s->work_max);
		return NULL;
	}
	*s->w = *s->p->workload;
	workload_bind(s->w);
	struct serving_spec *sv = &s->w->serving;
	if (x > 0) {
		sv->replicas = 0;
		sv->prefill_replicas = x;
		sv->decode_replicas = y;
		sv->prefill_tp = ptp;
		sv->decode_tp = dtp;
	} else {
		sv->replicas = y;
		sv->tp = dtp;
		sv->prefill_replicas = sv->decode_replicas = 0;
	}
	struct job job = { .kind = s->w->kind, .workload = s->w, .cluster = s->c,
			   .monte_carlo = s->p->monte_carlo, .objective = &s->p->objective,
			   .scenario = s->p->scenario, .seed = s->p->seed, .row_id = 0 };
	evaluate(&job, s->r);
	double wk = work_of(s->r);
	out->work += wk;
	out->simulated++;
	if (wk > s->most)
		s->most = wk;
	if (s->n_cache == s->cap_cache)
		s->cache = xgrow(s->cache, &s->cap_cache, s->n_cache + 1, sizeof *s->cache, 16);
	struct sim *e = &s->cache[s->n_cache++];
	const struct result *r = s->r;
	*e = (struct sim){
		.ptp = ptp, .dtp = dtp, .x = x, .y = y,
		.ok = r->outcome.status == OUTCOME_OK && r->serve_usd.priced,
		.meets = meets_slo(r),
		.d = { .found = meets_slo(r), .point = -1, .replicas = x + y, .prefill_replicas = x,
		       .decode_replicas = x > 0 ? y : 0, .prefill_tp = x > 0 ? ptp : dtp, .decode_tp = dtp,
		       .gpus = r->serve.gpus_used, .instances = r->serve_usd.instances,
		       .usd_per_hour = r->serve_usd.usd_per_hour, .usd_per_mtok = r->serve_usd.usd_per_mtok,
		       .ttft_p99_ms = r->serve.m.ttft_ms.p99, .tpot_p99_ms = r->serve.m.tpot_ms.p99,
		       .kv_transfer_p99_ms = x > 0 ? r->serve.m.kv_transfer_ms.p99 : 0 },
	};
	return e;
}

/* Whether every replica's tensor-parallel stage lies in one node when a
 * pool of `n` replicas of `g` GPUs (stages of `stage` GPUs) starts at GPU
 * `first` on nodes of `gpn` (the serving model places the pools on
 * consecutive GPUs and runs tp over the scale-up links). */
static bool stages_in_nodes(long first, long n, long g, long stage, int gpn)
{
	for (long i = 0; i < n; i++)
		for (long k = 0; k < g / stage; k++) {
			long at = first + i * g + k * stage;
			if (stage <= gpn ? at % gpn + stage > gpn : at % gpn != 0)
				return false;
		}
	return true;
}

/* The tp sizes a replica of this base may take: those dividing a node that
 * the serving model's cost accepts (the layout divides the model, weights
 * and workspace leave room for KV cache). */
static int tp_sizes(const struct search *s, int *tps, int most)
{
	const struct workload_spec *wl = s->p->workload;
	struct serve_cost *sc = xcalloc(1, sizeof *sc);
	char reason[512];
	int n = 0;
	for (int t = 1; t <= s->c->gpus_per_node && n < most; t++) {
		if (s->c->gpus_per_node % t != 0)
			continue;
		if (serve_cost_init(sc, &wl->model.arch, s->c, &wl->serving, wl->model.precision, &wl->model.kernels, t,
				    s->pp, s->ep, reason, sizeof reason) == SERVE_COST_OK)
			tps[n++] = t;
	}
	free(sc);
	return n;
}

/* A cheaper deployment than *best: fewer instances, or as many on fewer GPUs. */
static bool cheaper(const struct plan_disagg_deploy *d, const struct plan_disagg_deploy *best)
{
	return !best->found || d->instances < best->instances ||
	       (d->instances == best->instances && d->gpus < best->gpus);
}

/* The GPUs a deployment cheaper than *best may take: whole instances
 * below it, at most the shape's. */
static long cap_below(const struct search *s, const struct plan_disagg_deploy *best)
{
	long all = cluster_gpus(s->c);
	long below = best->found ? (best->instances - 1) * s->c->gpus_per_node : all;
	return below < all ? below : all;
}

/* Colocated replicas of tp t on fewer instances than *best: the most
 * that fit, then bisection down to the fewest that meet the SLO (as
 * serve_run's "auto", taking more replicas to meet it when fewer do).
 * False when the work bound stopped it. */
static bool colocated_at(struct search *s, int t, struct plan_disagg_deploy *best)
{
	long g = (long)t * s->pp * s->ep;
	long hi = cap_below(s, best) / g, lo = 0;  /* lo fails (0: none tried), hi meets */
	if (hi < 1 || !stages_in_nodes(0, hi, g, (long)t * s->ep, s->c->gpus_per_node))
		return true;
	const struct sim *e = simulate(s, t, t, 0, (int)hi);
	if (e == NULL)
		return false;
	if (!e->meets)
		return true;
	while (hi - lo > 1) {
		long mid = lo + (hi - lo) / 2;
		if ((e = simulate(s, t, t, 0, (int)mid)) == NULL)
			return false;
		if (e->meets)
			hi = mid;
		else
			lo = mid;
	}
	e = simulate(s, t, t, 0, (int)hi);  /* cached */
	if (cheaper(&e->d, best))
		*best = e->d;
	return true;
}

/*
 * The staircase walk for one tp pair under the bound `cap_below(best)`:
 * for x = 1, 2, ... the fewest y that meets the SLO, starting from the most
 * y the bound allows and the last x's. A split that meets is recorded when
 * cheaper, and the bound drops below it. False when the work bound stopped it.
 */
static bool walk(struct search *s, int ptp, int dtp, const struct plan_disagg_deploy *colo,
		 struct plan_disagg_deploy *best)
{
	int gpn = s->c->gpus_per_node;
	long gp = (long)ptp * s->pp * s->ep, gd = (long)dtp * s->pp * s->ep;
	long cap = cap_below(s, best->found ? best : colo);
	long y = (cap - gp) / gd;
	for (long x = 1; x * gp + gd <= cap && y >= 1; x++) {
		long ymax = (cap - x * gp) / gd;
		if (y > ymax)
			y = ymax;
		if (!stages_in_nodes(x * gp, y, gd, (long)dtp * s->ep, gpn))
			continue;
		while (y >= 1) {
			const struct sim *e = simulate(s, ptp, dtp, (int)x, (int)y);
			if (e == NULL)
				return false;
			if (!e->ok)
				return true;  /* the pair cannot serve this load at all (the run's reason says why) */
			if (!e->meets)
				break;  /* x needs more decode replicas than the bound allows: more prefill */
			if (cheaper(&e->d, best)) {
				*best = e->d;
				cap = cap_below(s, best);
			}
			y--;
			if (y >= 1 && x * gp + y * gd > cap)
				y = (cap - x * gp) / gd;
		}
	}
	return true;
}

/* One fewer replica of either pool until neither meets the SLO: the split
 * reported is locally minimal, by simulation. False when stopped. */
static bool descend(struct search *s, struct plan_disagg_deploy *b)
{
	int gpn = s->c->gpus_per_node;
	long gp = (long)b->prefill_tp * s->pp * s->ep, gd = (long)b->decode_tp * s->pp * s->ep;
	for (bool moved = true; moved;) {
		const struct sim *e;
		int x = b->prefill_replicas, y = b->decode_replicas;
		moved = false;
		if (y > 1) {
			if ((e = simulate(s, b->prefill_tp, b->decode_tp, x, y - 1)) == NULL)
				return false;
			if (e->meets) {
				*b = e->d;
				moved = true;
				continue;
			}
		}
		if (x > 1 && stages_in_nodes((x - 1) * gp, y, gd, (long)b->decode_tp * s->ep, gpn)) {
			if ((e = simulate(s, b->prefill_tp, b->decode_tp, x - 1, y)) == NULL)
				return false;
			if (e->meets) {
				*b = e->d;
				moved = true;
			}
		}
	}
	return true;
}

/* What the KV transfers of a split cross on base c: the scale-up fabric
 * when both pools share one node, the NIC when no node holds GPUs of
 * both, else both. */
static void interconnect(const struct cluster_spec *c, long prefill_gpus, long gpus, char *buf, size_t size)
{
	int gpn = c->gpus_per_node;
	const char *nic = c->has_nic ? c->nic.id.name : "no NIC";
	if (gpus <= gpn)
		snprintf(buf, size, "%s", c->scale_up.id.name);
	else if (prefill_gpus % gpn == 0)
		snprintf(buf, size, "%s", nic);
	else
		snprintf(buf, size, "%s and %s", c->scale_up.id.name, nic);
}

/* The plan's colocated deployment of point i. */
static void deploy_of_point(const struct plan_point *pt, size_t i, struct plan_disagg_deploy *d)
{
	const struct result *r = &pt->result;
	*d = (struct plan_disagg_deploy){
		.found = true, .point = (long)i, .replicas = r->serve.replicas,
		.prefill_tp = r->serve.tp, .decode_tp = r->serve.tp,
		.gpus = r->serve.gpus_used, .instances = r->serve_usd.instances,
		.usd_per_hour = r->serve_usd.usd_per_hour, .usd_per_mtok = r->serve_usd.usd_per_mtok,
		.ttft_p99_ms = r->serve.m.ttft_ms.p99, .tpot_p99_ms = r->serve.m.tpot_ms.p99,
	};
}

/* Search one base; false when the work bound stopped it. */
static bool search_base(struct search *s, struct plan_disagg_base *base)
{
	bool resolved = s->p->shape(s->p->shape_ctx, base->shape, s->c);
	assert(resolved);  /* it was evaluated */
	(void)resolved;
	s->n_cache = 0;
	if (base->unsupported)
		return true;  /* every deployment would be unsupported too */
	int before = s->out->simulated;
	int tps[64], n = tp_sizes(s, tps, 64);
	int tp0 = s->p->workload->serving.tp > 0 ? s->p->workload->serving.tp : 1;
	base->tp_sizes = n;

	/* colocated at the other tp sizes, on fewer instances than the cheapest so far */
	for (int i = 0; i < n; i++)
		if (tps[i] != tp0 && !colocated_at(s, tps[i], &base->colocated))
			return false;

	/* splits on fewer instances than that; the scenario's tp for both pools first */
	int before_splits = s->out->simulated;
	long cap = cap_below(s, &base->colocated);
	base->max_instances = cap / base->gpus_per_node;
	bool tp0_fits = false;
	for (int i = 0; i < n; i++) {
		tp0_fits = tp0_fits || tps[i] == tp0;
		for (int j = 0; j < n; j++)
			base->tp_pairs += ((long)tps[i] + tps[j]) * s->pp * s->ep <= cap;
	}
	struct plan_disagg_deploy b = { .found = false };
	for (int k = tp0_fits ? -1 : 0; k < n * n; k++) {
		int ptp = k < 0 ? tp0 : tps[k / n], dtp = k < 0 ? tp0 : tps[k % n];
		if (k >= 0 && ptp == tp0 && dtp == tp0)
			continue;
		if (!walk(s, ptp, dtp, &base->colocated, &b))
			return false;
	}
	if (b.found && !descend(s, &b))
		return false;
	base->simulated = s->out->simulated - before;
	base->splits_simulated = s->out->simulated - before_splits;
	base->split = b;
	if (b.found)
		interconnect(s->c, (long)b.prefill_replicas * b.prefill_tp * s->pp * s->ep, b.gpus, base->interconnect,
			     sizeof base->interconnect);
	return true;
}

/* Group the evaluated, priced serving shapes into bases, with each base's
 * cheapest colocated point that meets the SLO. */
static void find_bases(const struct plan_problem *p, const struct plan_outcome *o, struct plan_disagg *out,
		       struct cluster_spec *c)
{
	struct base_key *keys = xcalloc(o->n ? o->n : 1, sizeof *keys);
	struct base_key k;
	out->bases = xcalloc(o->n ? o->n : 1, sizeof *out->bases);
	out->base_of = xcalloc(o->n ? o->n : 1, sizeof *out->base_of);
	for (size_t i = 0; i < o->n; i++) {
		const struct plan_point *pt = &o->points[i];
		out->base_of[i] = -1;
		if (pt->fate != PLAN_EVALUATED || pt->result.kind != RESULT_INFERENCE || !p->shape(p->shape_ctx, i, c) ||
		    !c->price.known)
			continue;
		key_of(c, &k);
		size_t b = 0;
		while (b < out->n_bases && !same_key(&keys[b], &k))
			b++;
		struct plan_disagg_base *base = &out->bases[b];
		if (b == out->n_bases) {
			keys[b] = k;
			out->n_bases++;
			*base = (struct plan_disagg_base){ .shape = i, .gpus_per_node = c->gpus_per_node,
							   .usd_per_instance_hour = c->price.usd_per_gpu_hour * c->gpus_per_node };
			snprintf(base->provider, sizeof base->provider, "%s", c->price.provider);
			/* space.c names a preset's shape "N x PRESET", a candidate's "NAME @ N nodes" */
			const char *at = strstr(c->name, " @ ");
			base->candidate = at != NULL || c->preset[0] == '\0';
			if (at != NULL)
				snprintf(base->instance, sizeof base->instance, "%.*s", (int)(at - c->name), c->name);
			else
				snprintf(base->instance, sizeof base->instance, "%s", c->preset[0] ? c->preset : c->name);
		}
		out->base_of[i] = (long)b;
		if (pt->gpus > o->points[base->shape].gpus)
			base->shape = i;
		if (pt->result.outcome.status == OUTCOME_UNSUPPORTED)
			base->unsupported = true;  /* a spot price, failures, ...: so is every deployment */
		if (meets_slo(&pt->result) &&
		    (!base->colocated.found || pt->result.serve_usd.usd_per_hour < base->colocated.usd_per_hour))
			deploy_of_point(pt, i, &base->colocated);
	}
	free(keys);
}

/* Each provider's cheapest colocated deployment and cheapest split. */
static void find_providers(struct plan_disagg *out)
{
	out->providers = xcalloc(out->n_bases ? out->n_bases : 1, sizeof *out->providers);
	for (size_t b = 0; b < out->n_bases; b++) {
		const struct plan_disagg_base *base = &out->bases[b];
		size_t k = 0;
		while (k < out->n_providers && strcmp(out->providers[k].provider, base->provider) != 0)
			k++;
		struct plan_disagg_provider *pv = &out->providers[k];
		if (k == out->n_providers) {
			out->n_providers++;
			*pv = (struct plan_disagg_provider){ .colocated = -1, .split = -1 };
			snprintf(pv->provider, sizeof pv->provider, "%s", base->provider);
		}
		if (base->colocated.found &&
		    (pv->colocated < 0 || base->colocated.usd_per_hour < out->bases[pv->colocated].colocated.usd_per_hour))
			pv->colocated = (long)b;
		if (base->split.found &&
		    (pv->split < 0 || base->split.usd_per_hour < out->bases[pv->split].split.usd_per_hour))
			pv->split = (long)b;
	}
}

void plan_disagg_search(const struct plan_problem *p, const struct plan_outcome *o, struct plan_disagg *out)
{
	const struct serving_spec *sv = &p->workload->serving;
	memset(out, 0, sizeof *out);
	if (p->workload->kind != WORKLOAD_INFERENCE) {
		snprintf(out->why_not, sizeof out->why_not, "%s", "prefill and decode splits are for serving");
		return;
	}
	if (sv->prefill_replicas > 0 || sv->decode_replicas > 0) {
		snprintf(out->why_not, sizeof out->why_not, "%s",
			 "the scenario states its pools (serving.disaggregated): give replicas to search splits");
		return;
	}
	if (!(sv->slo_ttft_p99_ms > 0) && !(sv->slo_tpot_p99_ms > 0)) {
		snprintf(out->why_not, sizeof out->why_not, "%s", "splits are searched against serving.slo: give one");
		return;
	}
	out->searched = true;
	struct search s = {
		.p = p, .out = out, .c = xmalloc(sizeof *s.c), .w = xmalloc(sizeof *s.w), .r = xmalloc(sizeof *s.r),
		.work0 = o->progress.work, .work_max = p->work_max > 0 ? p->work_max : PLAN_WORK_MAX, .most = 1,
		.pp = sv->pp > 0 ? sv->pp : 1, .ep = sv->ep > 0 ? sv->ep : 1,
	};
	find_bases(p, o, out, s.c);
	/* a simulation's work before the first here: the largest of the shapes' */
	for (size_t i = 0; i < o->n; i++)
		if (o->points[i].fate == PLAN_EVALUATED && o->points[i].result.kind == RESULT_INFERENCE &&
		    work_of(&o->points[i].result) > s.most)
			s.most = work_of(&o->points[i].result);
	for (size_t b = 0; b < out->n_bases && !out->stopped; b++)
		search_base(&s, &out->bases[b]);
	if (!out->stopped)
		find_providers(out);
	free(s.cache);
	free(s.r);
	free(s.w);
	free(s.c);
}

void plan_disagg_release(struct plan_disagg *d)
{
	free(d->bases);
	free(d->base_of);
	free(d->providers);
	memset(d, 0, sizeof *d);
}
