/*
 * serve: the names of the serving records and serve_run(), the glue: the
 * layout checked against the cluster, one step-time model per pool
 * (serve_cost), the pools placed on consecutive GPUs (prefill first), the
 * load simulated (serve_sim) and, with `replicas: "auto"`, the fewest
 * replicas that meet the SLO searched by doubling then bisection.
 */
#include "serve.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/topology.h"
#include "models/serve/arrival.h"
#include "models/serve/serve_cost.h"
#include "models/serve/serve_sim.h"
#include "models/serve/serve_spec.h"
#include "models/train/train.h"
#include "util/text.h"
#include "util/xalloc.h"

const char *const length_dist_names[] = { "fixed", "lognormal", "normal", "uniform", "histogram", NULL };
const char *const serve_router_names[] = { "round-robin", "least-outstanding", "shortest-queue", NULL };

static enum outcome_status status_of_cost(int rc)
{
	switch (rc) {
	case SERVE_COST_OK:
		return OUTCOME_OK;
	case SERVE_COST_OOM:
		return OUTCOME_OOM;
	case SERVE_COST_INVALID:
		return OUTCOME_INVALID;
	default:
		return OUTCOME_ERROR;
	}
}

static enum outcome_status status_of_sim(int rc)
{
	switch (rc) {
	case 0:
		return OUTCOME_OK;
	case SERVE_SIM_KV:
		return OUTCOME_OOM;
	case SERVE_SIM_UNSCHEDULABLE:
		return OUTCOME_INVALID;
	default:
		return OUTCOME_ERROR;
	}
}

/* Whether metrics meet the spec's SLO (P99 TTFT and P99 TPOT; true without one). */
static bool slo_met_by(const struct serving_spec *sv, const struct serve_metrics *m)
{
	if (sv->slo_ttft_p99_ms > 0 && m->ttft_ms.p99 > sv->slo_ttft_p99_ms)
		return false;
	if (sv->slo_tpot_p99_ms > 0 && m->tpot_ms.p99 > sv->slo_tpot_p99_ms)
		return false;
	return true;
}

/* Simulate colocated serving on n replicas (speculatively when spec is
 * not NULL); r's status and metrics. */
static void run_colocated(const struct serving_spec *sv, const struct serve_cost *sc, const struct serve_spec *spec,
			  int n, uint64_t seed, uint64_t row_id, struct serve_result *r)
{
	struct serve_sim_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.sv = sv;
	cfg.colocated.replicas = n;
	if (spec != NULL)
		serve_spec_model(spec, &cfg.colocated.model);
	else
		serve_cost_model(sc, &cfg.colocated.model);
	cfg.colocated.first_gpu = 0;
	cfg.colocated.gpus_per_replica = sc->gpus;
	cfg.seed = seed;
	cfg.row_id = row_id;
	int rc = serve_sim_run(&cfg, &r->m, r->outcome.reason, sizeof r->outcome.reason);
	r->outcome.status = status_of_sim(rc);
	r->replicas = n;
	r->gpus_used = (long)n * sc->gpus;
	r->slo_met = rc == 0 && slo_met_by(sv, &r->m);
}

/* replicas "auto": the fewest replicas (1 .. most) whose run meets the
 * SLO, found by doubling and then bisection (a run meeting the SLO with n
 * replicas is taken to meet it with more); if none does, the run with the
 * most replicas, slo_met false. */
static void search_replicas(const struct serving_spec *sv, const struct serve_cost *sc, const struct serve_spec *spec,
			    int most, uint64_t seed, uint64_t row_id, struct serve_result *r)
{
	struct serve_result *probe = xcalloc(1, sizeof *probe);
	int lo = 0, hi = -1;  /* lo fails (0: none tried), hi meets */

	for (int n = 1;; n = n * 2 > most ? most : n * 2) {
		run_colocated(sv, sc, spec, n, seed, row_id, probe);
		if (probe->outcome.status != OUTCOME_OK) {
			*r = *probe;
			goto out_free;
		}
		if (probe->slo_met) {
			hi = n;
			*r = *probe;
			break;
		}
		lo = n;
		if (n == most)
			break;
	}
	if (hi < 0) {
		*r = *probe;
		text_setf(r->outcome.reason, sizeof r->outcome.reason,
			 "no replica count up to %d (the cluster's GPUs / %d per replica) meets the SLO (P99 TTFT %.4g ms, "
			 "P99 TPOT %.4g ms at %d replicas)", most, sc->gpus, r->m.ttft_ms.p99, r->m.tpot_ms.p99, most);
		goto out_free;
	}
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		run_colocated(sv, sc, spec, mid, seed, row_id, probe);
		if (probe->outcome.status != OUTCOME_OK) {
			*r = *probe;
			goto out_free;
		}
		if (probe->slo_met) {
			hi = mid;
			*r = *probe;
		} else {
			lo = mid;
		}
	}
out_free:
	free(probe);
}

static void layout_fill(struct serve_result *r, const struct serve_cost *sc)
{
	r->tp = sc->tp;
	r->pp = sc->pp;
	r->ep = sc->ep;
	r->weights_gb_per_gpu = sc->weight_bytes_per_gpu / 1e9;
	r->kv_capacity_tokens = sc->kv_capacity_tokens;
	r->kv_bytes_per_token = sc->kv_bytes_per_token;
}

/* Disaggregated: prefill replicas on the first GPUs, decode replicas after. */
static void run_disaggregated(const struct serving_spec *sv, const struct serve_cost *pc, const struct serve_cost *dc,
			      const struct cluster_spec *c, uint64_t seed, uint64_t row_id, struct serve_result *r)
{
	struct serve_sim_config cfg;
	struct topology *topo = xcalloc(1, sizeof *topo);
	long need = (long)sv->prefill_replicas * pc->gpus + (long)sv->decode_replicas * dc->gpus;

	r->prefill_replicas = sv->prefill_replicas;
	r->decode_replicas = sv->decode_replicas;
	r->replicas = sv->prefill_replicas + sv->decode_replicas;
	r->gpus_used = need;
	if (need > cluster_gpus(c)) {
		outcome_set(&r->outcome, OUTCOME_INVALID, "%d prefill replicas x %d GPUs + %d decode replicas x %d GPUs = %ld GPUs exceed the cluster's %ld",
			 sv->prefill_replicas, pc->gpus, sv->decode_replicas, dc->gpus, need, cluster_gpus(c));
		goto out_free;
	}
	topology_init(topo, c);
	memset(&cfg, 0, sizeof cfg);
	cfg.sv = sv;
	cfg.disaggregated = true;
	cfg.prefill.replicas = sv->prefill_replicas;
	serve_cost_model(pc, &cfg.prefill.model);
	cfg.prefill.first_gpu = 0;
	cfg.prefill.gpus_per_replica = pc->gpus;
	cfg.decode.replicas = sv->decode_replicas;
	serve_cost_model(dc, &cfg.decode.model);
	cfg.decode.first_gpu = (long)sv->prefill_replicas * pc->gpus;
	cfg.decode.gpus_per_replica = dc->gpus;
	cfg.topo = topo;
	cfg.seed = seed;
	cfg.row_id = row_id;
	int rc = serve_sim_run(&cfg, &r->m, r->outcome.reason, sizeof r->outcome.reason);
	r->outcome.status = status_of_sim(rc);
	r->slo_met = rc == 0 && slo_met_by(sv, &r->m);
out_free:
	free(topo);
}

void serve_run(const struct serving_spec *sv, const struct workload_model *model,
	       const struct cluster_spec *c, uint64_t seed, uint64_t row_id, struct serve_result *r)
{
	const struct model_spec *m = &model->arch;
	enum precision pr = model->precision;
	const struct kernel_calibration *cal = &model->kernels;
	bool disagg = sv->prefill_replicas > 0 || sv->decode_replicas > 0;
	int tp = sv->tp > 0 ? sv->tp : 1, pp = sv->pp > 0 ? sv->pp : 1, ep = sv->ep > 0 ? sv->ep : 1;
	struct serve_cost *sc = xcalloc(2, sizeof *sc);
	struct serve_spec *spec = NULL;
	int rc;

	memset(r, 0, sizeof *r);
	r->outcome.status = OUTCOME_OK;
	r->tp = tp;
	r->pp = pp;
	r->ep = ep;
	if (sv->spec.method != SPEC_NONE && (disagg || pp > 1)) {  /* serve_spec.h: one stage, colocated */
		outcome_set(&r->outcome, OUTCOME_UNSUPPORTED, "speculative decoding (serving.speculative) with %s is not modelled",
			    disagg ? "disaggregated replicas" : "pp > 1");
		goto out_free;
	}
	if (disagg) {
		int ptp = sv->prefill_tp > 0 ? sv->prefill_tp : tp, dtp = sv->decode_tp > 0 ? sv->decode_tp : tp;
		if (sv->prefill_replicas < 1 || sv->decode_replicas < 1) {
			outcome_set(&r->outcome, OUTCOME_INVALID, "disaggregated serving needs at least one prefill and one decode replica (got %d and %d)",
				 sv->prefill_replicas, sv->decode_replicas);
			goto out_free;
		}
		rc = serve_cost_init(&sc[0], m, c, sv, pr, cal, ptp, pp, ep, r->outcome.reason, sizeof r->outcome.reason);
		if (rc == SERVE_COST_OK)
			rc = serve_cost_init(&sc[1], m, c, sv, pr, cal, dtp, pp, ep, r->outcome.reason, sizeof r->outcome.reason);
		if (rc != SERVE_COST_OK) {
			r->outcome.status = status_of_cost(rc);
			goto out_free;
		}
		/* The layout reported is the decode pool's (it holds the contexts). */
		layout_fill(r, &sc[1]);
		if (sc[0].weight_bytes_per_gpu / 1e9 > r->weights_gb_per_gpu)
			r->weights_gb_per_gpu = sc[0].weight_bytes_per_gpu / 1e9;
		run_disaggregated(sv, &sc[0], &sc[1], c, seed, row_id, r);
	} else {
		rc = serve_cost_init(&sc[0], m, c, sv, pr, cal, tp, pp, ep, r->outcome.reason, sizeof r->outcome.reason);
		if (rc != SERVE_COST_OK) {
			r->outcome.status = status_of_cost(rc);
			goto out_free;
		}
		if (sv->spec.method != SPEC_NONE) {  /* speculative decoding (serve_spec.h) */
			spec = xcalloc(1, sizeof *spec);
			rc = serve_spec_init(spec, &sc[0], c, sv, pr, cal, r->outcome.reason, sizeof r->outcome.reason);
			if (rc != SERVE_COST_OK) {
				r->outcome.status = status_of_cost(rc);
				goto out_free;
			}
		}
		long most = cluster_gpus(c) / sc[0].gpus;
		if (sv->replicas == PLAN_AUTO) {
			search_replicas(sv, &sc[0], spec, (int)(most < 100000 ? most : 100000), seed, row_id, r);
		} else if (sv->replicas < 1 || (long)sv->replicas * sc[0].gpus > cluster_gpus(c)) {
			r->outcome.status = OUTCOME_INVALID;
			r->replicas = sv->replicas;
			text_setf(r->outcome.reason, sizeof r->outcome.reason,
				 "%d replicas x %d GPUs (tp %d x pp %d x ep %d) = %ld GPUs exceed the cluster's %ld",
				 sv->replicas, sc[0].gpus, tp, pp, ep, (long)sv->replicas * sc[0].gpus, cluster_gpus(c));
		} else {
			run_colocated(sv, &sc[0], spec, sv->replicas, seed, row_id, r);
		}
		layout_fill(r, &sc[0]);
		if (spec != NULL) {
			r->kv_capacity_tokens = spec->kv_capacity_tokens;
			r->kv_bytes_per_token = spec->kv_bytes_per_token;
			r->weights_gb_per_gpu += spec->extra_weight_bytes_per_gpu / 1e9;
		}
	}
	if (r->outcome.status == OUTCOME_OK)
		r->rate_per_s = arrival_of(sv->process)->offered_rate(sv, &r->m);
out_free:
	free(spec);
	free(sc);
}
