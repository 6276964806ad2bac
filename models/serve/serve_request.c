/*
 * serve_request: a request's life.
 *
 * Token times follow vLLM's benchmark (benchmarks/benchmark_serving.py):
 * TTFT = first token - arrival, ITL = every gap between two tokens of a
 * request, TPOT = (e2e - TTFT) / (output - 1) for output > 1. ITL is kept
 * as (gap, count) pairs, consecutive equal gaps merged (in a step every
 * sequence that decoded in the previous step has the same gap), so its
 * percentiles are exact without a value per token.
 *
 * Disaggregated: a prefill replica computes the prompt; the request then
 * waits for its KV blocks (and a sequence slot) on a decode replica chosen
 * by the router, its KV cache (prompt tokens x kv_bytes_per_token) moves as
 * one flow per GPU pair (GPU k of the prefill replica to GPU k of the
 * decode one) on the topology's links, the prefill replica's blocks are
 * freed and the decode replica continues. The first token reaches the user
 * when the KV has moved (it streams from the decode replica, as with vLLM's
 * disaggregated-prefill proxy), so TTFT includes the transfer.
 */
#include "serve_request.h"

#include <assert.h>
#include <limits.h>
#include <math.h>

#include "models/serve/serve_engine.h"
#include "models/serve/serve_kv.h"
#include "sim/time.h"
#include "util/xalloc.h"

void serve_request_kick(struct serve_state *s, struct serve_replica *r)
{
	if (r->busy || r->kick_pending)
		return;
	r->kick_pending = true;
	engine_at(s->e, engine_now(s->e), ENGINE_CLASS_DECIDE, &s->on_kick, (uint64_t)(r - s->reps));
}

/* The replica of pool [base, base + n) the router picks. */
static struct serve_replica *route(struct serve_state *s, int base, int n, long *rr)
{
	int best = 0;
	switch (s->sv->router) {
	case ROUTER_ROUND_ROBIN:
		best = (int)(*rr % n);
		(*rr)++;
		break;
	case ROUTER_LEAST_OUTSTANDING:
		for (int i = 1; i < n; i++)
			if (s->reps[base + i].outstanding < s->reps[base + best].outstanding)
				best = i;
		break;
	case ROUTER_SHORTEST_QUEUE:
		for (int i = 1; i < n; i++) {
			const struct serve_replica *a = &s->reps[base + i], *b = &s->reps[base + best];
			long qa = a->n_waiting + a->n_handoff, qb = b->n_waiting + b->n_handoff;
			if (qa < qb || (qa == qb && a->outstanding < b->outstanding))
				best = i;
		}
		break;
	}
	return &s->reps[base + best];
}

/* Why a request's KV need is its prompt and max_tokens. */
#define RESERVE_WHY " (its prompt and max_tokens, which trtllm's capacity_policy guaranteed_no_evict reserves on admission)"

void serve_request_new(struct serve_state *s, int prompt, int output, int client)
{
	const struct serving_spec *sv = s->sv;
	int64_t now = engine_now(s->e);
	struct serve_replica *first = &s->reps[s->entry_base];
	int hit;

	if (sv->max_output_tokens > 0 && output > sv->max_output_tokens)
		output = sv->max_output_tokens;  /* the engine stops at max_tokens */
	long reserve = serve_engine_reserve_tokens(sv, prompt, output);
	long decode_most = reserve > 0 ? reserve : (long)prompt + output - 1;
	long most = s->cfg->disaggregated ? prompt : decode_most;
	if (s->failed)
		return;
	if (serve_kv_blocks(s, most) > first->blocks_total) {
		serve_state_fail(s, SERVE_SIM_KV, "a request of %d prompt and %d output tokens needs %ld tokens of KV cache%s, more than the "
		     "%.0f a %s replica holds", prompt, output, most, reserve > 0 && !s->cfg->disaggregated ? RESERVE_WHY : "",
		     first->pool->model.kv_capacity_tokens,
		     s->cfg->disaggregated ? "prefill" : "serving");
		return;
	}
	if (s->cfg->disaggregated && output > 1 &&
	    serve_kv_blocks(s, decode_most) > s->reps[s->dec_base].blocks_total) {
		serve_state_fail(s, SERVE_SIM_KV, "a request of %d prompt and %d output tokens needs %ld tokens of KV cache%s, more than the "
		     "%.0f a decode replica holds", prompt, output, decode_most, reserve > 0 ? RESERVE_WHY : "",
		     s->reps[s->dec_base].pool->model.kv_capacity_tokens);
		return;
	}
	hit = (int)floor(prompt * sv->prefix_hit_fraction);
	if (hit > prompt - 1)
		hit = prompt - 1;
	if (hit < 0)
		hit = 0;
	if (!sv->chunked_prefill && prompt - hit > sv->max_batch_tokens) {
		serve_state_fail(s, SERVE_SIM_UNSCHEDULABLE, "a prompt of %d tokens to compute exceeds max_batch_tokens %d without chunked prefill",
		     prompt - hit, sv->max_batch_tokens);
		return;
	}
	long stop = s->cfg->max_requests > 0 ? s->cfg->max_requests : SERVE_SIM_REQUESTS_STOP;
	if (s->sent >= stop) {
		serve_state_fail(s, SERVE_SIM_TOO_LONG, "the serving simulation passed %ld requests, the most it serves (a closed loop "
		     "for a duration sends as many as finish in it; give requests, at most %ld)", stop,
		     SERVE_SIM_REQUESTS_MAX);
		return;
	}
	if (s->sent - s->done >= SERVE_SIM_IN_FLIGHT_MAX) {
		serve_state_fail(s, SERVE_SIM_TOO_LONG, "the serving simulation passed %ld requests in flight at once, the most it "
		     "holds (the load is far beyond what the replicas serve)", SERVE_SIM_IN_FLIGHT_MAX);
		return;
	}
	int si = s->free_head;
	if (si >= 0) {
		s->free_head = s->seqs[si].next;
	} else {
		s->seqs = xgrow(s->seqs, &s->cap_seqs, s->n_seqs + 1, sizeof *s->seqs, 4096);
		assert(s->n_seqs < INT_MAX);
		si = (int)s->n_seqs++;
	}
	struct serve_seq *q = &s->seqs[si];
	*q = (struct serve_seq){ .arrival_ns = now, .id = s->sent++, .prompt = prompt, .output = output, .hit = hit, .computed = hit,
			   .rep = -1, .dest = -1, .client = client, .next = -1, .state = SEQ_WAITING };
	if (!s->started) {
		s->started = true;
		s->t0_ns = now;
		stats_level_init(&s->in_system, now, 0);
		stats_level_init(&s->kv_used, now, 0);
	}
	stats_level_add(&s->in_system, now, 1);
	struct serve_replica *r = route(s, s->entry_base, s->entry_n, &s->rr_entry);
	q->rep = (int)(r - s->reps);
	r->outstanding++;
	r->n_waiting++;
	serve_state_push_tail(s, &r->wait_head, &r->wait_tail, si);
	serve_request_kick(s, r);
}

/* Sequence si, its last token emitted, leaves replica r: its latencies
 * and tokens tallied, its client (closed loop) told. */
static void finish(struct serve_state *s, struct serve_replica *r, int si)
{
	const struct serving_spec *sv = s->sv;
	struct serve_seq *q = &s->seqs[si];
	int64_t now = engine_now(s->e);
	double e2e = sim_time_to_s(now - q->arrival_ns);
	double ttft = sim_time_to_s(q->first_ns - q->arrival_ns);
	bool ok = sv->slo_ttft_p99_ms <= 0 || ttft * 1e3 <= sv->slo_ttft_p99_ms;

	serve_state_running_remove(r, si);
	serve_kv_give(s, r, q->blocks);
	q->blocks = 0;
	q->state = SEQ_DONE;
	r->outstanding--;
	quantile_add(&s->e2e_s, e2e);
	quantile_add(&s->ttft_ms, ttft * 1e3);
	if (q->output > 1) {
		double tpot = (e2e - ttft) / (q->output - 1);
		quantile_add(&s->tpot_ms, tpot * 1e3);
		if (sv->slo_tpot_p99_ms > 0 && tpot * 1e3 > sv->slo_tpot_p99_ms)
			ok = false;
	}
	s->slo_ok += ok;
	s->done++;
	s->prompt_done += q->prompt;
	s->output_done += q->output;
	stats_level_add(&s->in_system, now, -1);
	s->t_end_ns = now;
	int client = q->client;
	q->next = s->free_head;  /* the record is free for the next arrival */
	s->free_head = si;
	if (client >= 0 && s->arrivals.ops->finished != NULL)
		s->arrivals.ops->finished(&s->arrivals, client);  /* may move s->seqs and reuse si */
}

void serve_request_start_moves(struct serve_state *s, struct serve_replica *d)
{
	const struct serve_pool *pf = &s->cfg->prefill, *dc = &s->cfg->decode;
	while (d->hand_head >= 0) {
		struct serve_seq *q = &s->seqs[d->hand_head];
		long reserve = serve_engine_reserve_tokens(s->sv, q->prompt, q->output);
		int need = serve_kv_blocks(s, reserve > q->computed ? reserve : q->computed);
		if (need > d->blocks_free || d->n_running + d->n_moving >= s->sv->max_seqs)
			break;
		int si = serve_state_pop_head(s, &d->hand_head, &d->hand_tail);
		d->n_handoff--;
		serve_kv_take(s, d, need);
		q->move_blocks = need;
		q->state = SEQ_MOVING;
		q->move_ns = engine_now(s->e);
		d->n_moving++;
		const struct serve_replica *p = &s->reps[q->rep];
		int gp = pf->gpus_per_replica, gd = dc->gpus_per_replica;
		int n = gp > gd ? gp : gd;
		double bytes = q->computed * pf->model.kv_bytes_per_token / n;
		q->moves_left = n;
		flow_batch_begin(s->fn);
		for (int k = 0; k < n; k++) {
			long src = pf->first_gpu + (long)p->index * gp + k % gp;
			long dst = dc->first_gpu + (long)d->index * gd + k % gd;
			flow_link path[FLOW_PATH_MAX];
			double lat_s = 0;
			int len = topology_net_path(&s->tn, src, dst, path, &lat_s);
			flow_start(s->fn, path, len, bytes, 1.0, sim_time_from_s(lat_s), &s->on_flow, (uint64_t)si);
		}
		flow_batch_end(s->fn);
	}
}

/* Disaggregated: the prompt is done on prefill replica r; hand the
 * request to a decode replica. */
static void hand_off(struct serve_state *s, struct serve_replica *r, int si)
{
	serve_state_running_remove(r, si);
	r->outstanding--;
	struct serve_replica *d = route(s, s->dec_base, s->dec_n, &s->rr_dec);
	struct serve_seq *q = &s->seqs[si];
	q->state = SEQ_HANDOFF;
	q->dest = (int)(d - s->reps);
	d->outstanding++;
	d->n_handoff++;
	serve_state_push_tail(s, &d->hand_head, &d->hand_tail, si);
	serve_request_start_moves(s, d);
}


void serve_request_emit(struct serve_state *s, struct serve_replica *r, int si)
{
	struct serve_seq *q = &s->seqs[si];
	int64_t now = engine_now(s->e);
	q->generated++;
	s->emitted++;
	if (q->generated == 1) {
		if (r->kind == REP_PREFILL && q->output > 1) {
			hand_off(s, r, si);
			return;
		}
		q->first_ns = now;
	} else if (now > q->last_ns) {  /* the tokens of one speculative step arrive as one chunk: one gap */
		serve_wsample_add(&s->itl, now - q->last_ns);
	}
	q->last_ns = now;
	if (q->generated == q->output)
		finish(s, r, si);
}

