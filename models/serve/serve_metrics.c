#include "serve_metrics.h"

#include "sim/time.h"

static void pct_of(struct quantile *x, struct serve_pct *p)
{
	p->p50 = quantile_percentile(x, 50);
	p->p90 = quantile_percentile(x, 90);
	p->p99 = quantile_percentile(x, 99);
	p->mean = quantile_mean(x);
}

void serve_metrics_fill(struct serve_state *s, struct serve_metrics *m)
{
	double span = s->done > 0 ? sim_time_to_s(s->t_end_ns - s->t0_ns) : 0;
	double peak_flops = 0, peak_hbm = 0;
	for (int i = 0; i < s->n_reps; i++) {
		peak_flops += s->reps[i].pool->model.peak_flops_per_s;
		peak_hbm += s->reps[i].pool->model.peak_hbm_bytes_per_s;
		if (s->reps[i].peak_frac > m->kv_util_peak)
			m->kv_util_peak = s->reps[i].peak_frac;
	}
	m->requests_sent = s->sent;
	m->requests_done = s->done;
	m->span_s = span;
	pct_of(&s->ttft_ms, &m->ttft_ms);
	pct_of(&s->tpot_ms, &m->tpot_ms);
	pct_of(&s->e2e_s, &m->e2e_s);
	pct_of(&s->move_ms, &m->kv_transfer_ms);
	serve_wsample_sort(&s->itl);
	m->itl_ms.p50 = serve_wsample_percentile(&s->itl, 50) * 1e-6;
	m->itl_ms.p90 = serve_wsample_percentile(&s->itl, 90) * 1e-6;
	m->itl_ms.p99 = serve_wsample_percentile(&s->itl, 99) * 1e-6;
	m->itl_ms.mean = serve_wsample_mean(&s->itl) * 1e-6;
	m->slo_attainment = s->done > 0 ? (double)s->slo_ok / (double)s->done : 1;
	m->preemptions = s->preemptions;
	m->output_tokens_emitted = s->emitted;
	if (span > 0) {
		m->request_per_s = s->done / span;
		m->throughput_tok_s = (double)(s->prompt_done + s->output_done) / span;
		m->output_tok_s = s->output_done / span;
		m->goodput_req_s = s->slo_ok / span;
		m->busy_frac = s->busy_s / (span * s->n_reps);
		m->flops_frac = peak_flops > 0 ? s->flops / (span * peak_flops) : 0;
		m->hbm_frac = peak_hbm > 0 ? s->hbm_bytes / (span * peak_hbm) : 0;
	}
	if (s->started) {
		m->kv_util = s->blocks_all > 0 ? stats_level_mean(&s->kv_used, s->t_end_ns) / (double)s->blocks_all : 0;
		m->mean_in_system = stats_level_mean(&s->in_system, s->t_end_ns);
	}
}
