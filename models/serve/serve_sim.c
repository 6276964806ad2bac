/*
 * serve_sim: requests on replicas, one engine event per batch step.
 *
 * The scheduler is vLLM's (v0 policy; Kwon et al. SOSP'23, vllm/core/scheduler.py):
 *  - with chunked prefill, each step first gives every running decode one
 *    token (in arrival order), then continues partially prefilled prompts,
 *    then admits waiting requests head first, chunking the last one to the
 *    token budget max_batch_tokens; at most max_seqs sequences run;
 *  - without it, a step is either a prefill of whole prompts (admitted head
 *    first while they fit the budget; decodes wait, as vLLM v0's default) or,
 *    when no waiting prompt can be admitted, a decode of every running one;
 *  - admitting a request allocates the KV blocks of its whole prompt (vLLM
 *    v0's can_allocate); a decode allocates a block when its context crosses
 *    a block; when none is free, the most recently arrived running sequence
 *    is preempted by recompute (blocks freed, back to the head of the
 *    waiting queue; its prompt and the tokens generated so far are
 *    prefilled again, and that prefill emits its next token).
 * A request's prefix-cache hits (prefix_hit_fraction of its prompt, at most
 * all but one token) are not computed but hold KV blocks. A step's
 * serve_batch counts, for each decode, its context including the token it
 * computes, and for each prefill chunk c after k tokens already in the KV,
 * c (k + (c + 1) / 2) query-key pairs.
 *
 * Arrivals: Poisson and gamma start one gap after t = 0 and stop at
 * duration_s, or after `requests` requests when that is given; offline sends
 * `requests` at t = 0; a closed-loop client sends its next request at the
 * instant its last one finishes, while fewer than `requests` were sent (or
 * before duration_s); a trace sends its requests (the first `requests` of
 * them, by arrival) at their times, duration_s not applied.
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
#include "serve_sim.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/serve/serve_load.h"
#include "sim/engine.h"
#include "sim/flow.h"
#include "sim/stats.h"
#include "sim/time.h"
#include "util/container.h"
#include "util/text.h"
#include "util/xalloc.h"


enum seq_state { SEQ_WAITING, SEQ_RUNNING, SEQ_HANDOFF, SEQ_MOVING, SEQ_DONE };
enum rep_kind { REP_COLOCATED, REP_PREFILL, REP_DECODE };

struct seq {
	int64_t arrival_ns, first_ns, last_ns, move_ns;
	int prompt, output, hit;  /* tokens: prompt, output, prompt tokens found in the prefix cache */
	int computed;             /* tokens whose KV is computed (hits included) */
	int generated;            /* output tokens emitted */
	int blocks;               /* KV blocks held on replica rep */
	int move_blocks;          /* disaggregated: blocks reserved on replica dest */
	int rep, dest;
	int client;               /* closed loop: the client, else -1 */
	int next;                 /* waiting or hand-off list */
	int moves_left;           /* flows of its KV transfer still running */
	unsigned char state;
};

struct item {
	int seq, tokens;
};

struct replica {
	const struct serve_pool *pool;
	enum rep_kind kind;
	int index;                /* within its pool */
	long blocks_total, blocks_free;
	int *running, n_running;  /* sorted by arrival */
	int wait_head, wait_tail;
	long n_waiting;
	int hand_head, hand_tail; /* decode: requests waiting to move here */
	long n_handoff;
	int n_moving;             /* decode: KV transfers under way into it */
	long outstanding;         /* requests routed here, not finished or handed on */
	bool busy, kick_pending;
	struct item *batch;
	int n_batch;
	double peak_frac;
};

struct wpair {
	int64_t v;
	long w;
};

/* A weighted sample of nanosecond values. */
struct wsample {
	struct wpair *p;
	size_t n, cap;
	long total;
};

struct sim {
	struct engine_handler on_step, on_kick, on_arrival, on_flow;
	const struct serve_sim_config *cfg;
	const struct serving_spec *sv;
	engine *e;
	flow_net *fn;
	struct topology_net tn;
	bool have_net;
	struct serve_load load;
	struct replica *reps;
	int n_reps;
	int entry_base, entry_n, dec_base, dec_n;  /* the pools' replicas in reps[] */
	long rr_entry, rr_dec;
	struct seq *seqs;
	size_t n_seqs, cap_seqs;
	int block_tokens;
	long limit;               /* requests to send; 0: until end_ns */
	int64_t end_ns;
	double next_arrival_s;
	size_t *trace_order, trace_n, trace_next;
	bool started;
	int64_t t0_ns, t_end_ns;
	struct stats_level in_system, kv_used;
	long blocks_all;
	struct stats_sample ttft_ms, tpot_ms, e2e_s, move_ms;
	struct wsample itl;
	double busy_s, flops, hbm_bytes;
	long prompt_done, output_done, emitted, slo_ok, done, preemptions;
	uint64_t calls;
	bool failed;
	int failure;              /* enum serve_sim_failure */
	char *reason;
	size_t reason_len;
};

static void fail(struct sim *s, int failure, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(struct sim *s, int failure, const char *fmt, ...)
{
	va_list ap;
	if (s->failed)
		return;
	s->failed = true;
	s->failure = failure;
	va_start(ap, fmt);
	text_vsetf(s->reason, s->reason_len, fmt, ap);
	va_end(ap);
	engine_stop(s->e);
}

/* Count a handler call; false once the run must stop. */
static bool tick(struct sim *s)
{
	if (s->failed)
		return false;
	if (++s->calls > SERVE_SIM_MAX_EVENTS) {
		fail(s, SERVE_SIM_TOO_LONG, "the serving simulation passed %llu events", (unsigned long long)SERVE_SIM_MAX_EVENTS);
		return false;
	}
	return true;
}

static void wsample_add(struct wsample *w, int64_t v)
{
	if (w->n > 0 && w->p[w->n - 1].v == v) {
		w->p[w->n - 1].w++;
	} else {
		w->p = xgrow(w->p, &w->cap, w->n + 1, sizeof *w->p, 1024);
		w->p[w->n++] = (struct wpair){ v, 1 };
	}
	w->total++;
}

static int wpair_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct wpair *)a)->v, y = ((const struct wpair *)b)->v;
	return (x > y) - (x < y);
}

/* The value of order statistic k (0-based) of a sorted weighted sample. */
static double wsample_order(const struct wsample *w, long k)
{
	long c = 0;
	for (size_t i = 0; i < w->n; i++) {
		c += w->p[i].w;
		if (k < c)
			return (double)w->p[i].v;
	}
	return (double)w->p[w->n - 1].v;
}

/* Percentile p of the values as if each were stored count times: linear
 * interpolation between order statistics (R type 7, as stats_sample). O(n)
 * per call after one sort. */
static double wsample_percentile(struct wsample *w, double p)
{
	if (w->total == 0)
		return 0;
	double h = (double)(w->total - 1) * p / 100;
	long lo = (long)floor(h);
	double lo_v = wsample_order(w, lo);
	double hi_v = lo + 1 < w->total ? wsample_order(w, lo + 1) : lo_v;
	return lo_v + (h - (double)lo) * (hi_v - lo_v);
}

static double wsample_mean(const struct wsample *w)
{
	double sum = 0;
	for (size_t i = 0; i < w->n; i++)
		sum += (double)w->p[i].v * (double)w->p[i].w;
	return w->total ? sum / (double)w->total : 0;
}

static int blocks_for(const struct sim *s, long tokens)
{
	return (int)((tokens + s->block_tokens - 1) / s->block_tokens);
}

static void kv_take(struct sim *s, struct replica *r, int n)
{
	assert(n >= 0 && n <= r->blocks_free);
	if (n == 0)
		return;
	r->blocks_free -= n;
	stats_level_add(&s->kv_used, engine_now(s->e), n);
	double frac = (double)(r->blocks_total - r->blocks_free) / (double)r->blocks_total;
	if (frac > r->peak_frac)
		r->peak_frac = frac;
}

static void kv_give(struct sim *s, struct replica *r, int n)
{
	if (n == 0)
		return;
	r->blocks_free += n;
	assert(r->blocks_free <= r->blocks_total);
	stats_level_add(&s->kv_used, engine_now(s->e), -n);
}

/* Singly linked FIFO lists through seq.next (the waiting queue and the
 * hand-off queue). */
static void list_push_tail(struct sim *s, int *head, int *tail, int si)
{
	s->seqs[si].next = -1;
	if (*tail < 0)
		*head = si;
	else
		s->seqs[*tail].next = si;
	*tail = si;
}

static void list_push_head(struct sim *s, int *head, int *tail, int si)
{
	s->seqs[si].next = *head;
	*head = si;
	if (*tail < 0)
		*tail = si;
}

static int list_pop_head(struct sim *s, int *head, int *tail)
{
	int si = *head;
	assert(si >= 0);
	*head = s->seqs[si].next;
	if (*head < 0)
		*tail = -1;
	return si;
}

static void running_insert(struct replica *r, int si)
{
	int i = r->n_running;
	while (i > 0 && r->running[i - 1] > si) {
		r->running[i] = r->running[i - 1];
		i--;
	}
	r->running[i] = si;
	r->n_running++;
}

static void running_remove(struct replica *r, int si)
{
	int i = r->n_running - 1;
	while (i >= 0 && r->running[i] != si)
		i--;
	assert(i >= 0);
	memmove(&r->running[i], &r->running[i + 1], (size_t)(r->n_running - i - 1) * sizeof r->running[0]);
	r->n_running--;
}

static bool is_decode(const struct seq *q)
{
	return q->generated >= 1 && q->computed == q->prompt + q->generated - 1;
}

static void kick(struct sim *s, struct replica *r)
{
	if (r->busy || r->kick_pending)
		return;
	r->kick_pending = true;
	engine_at(s->e, engine_now(s->e), ENGINE_CLASS_DECIDE, &s->on_kick, (uint64_t)(r - s->reps));
}

/* The replica of pool [base, base + n) the router picks. */
static struct replica *route(struct sim *s, int base, int n, long *rr)
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
			const struct replica *a = &s->reps[base + i], *b = &s->reps[base + best];
			long qa = a->n_waiting + a->n_handoff, qb = b->n_waiting + b->n_handoff;
			if (qa < qb || (qa == qb && a->outstanding < b->outstanding))
				best = i;
		}
		break;
	}
	return &s->reps[base + best];
}

/* A request arrives now: checked against the replicas' limits, counted in
 * the system and routed. */
static void request_new(struct sim *s, int prompt, int output, int client)
{
	const struct serving_spec *sv = s->sv;
	int64_t now = engine_now(s->e);
	struct replica *first = &s->reps[s->entry_base];
	long most = s->cfg->disaggregated ? prompt : (long)prompt + output - 1;
	int hit;

	if (s->failed)
		return;
	if (blocks_for(s, most) > first->blocks_total) {
		fail(s, SERVE_SIM_KV, "a request of %d prompt and %d output tokens needs %ld tokens of KV cache, more than the "
		     "%.0f a %s replica holds", prompt, output, most, first->pool->model.kv_capacity_tokens,
		     s->cfg->disaggregated ? "prefill" : "serving");
		return;
	}
	if (s->cfg->disaggregated && output > 1 &&
	    blocks_for(s, (long)prompt + output - 1) > s->reps[s->dec_base].blocks_total) {
		fail(s, SERVE_SIM_KV, "a request of %d prompt and %d output tokens needs %ld tokens of KV cache, more than the "
		     "%.0f a decode replica holds", prompt, output, (long)prompt + output - 1,
		     s->reps[s->dec_base].pool->model.kv_capacity_tokens);
		return;
	}
	hit = (int)floor(prompt * sv->prefix_hit_fraction);
	if (hit > prompt - 1)
		hit = prompt - 1;
	if (hit < 0)
		hit = 0;
	if (!sv->chunked_prefill && prompt - hit > sv->max_batch_tokens) {
		fail(s, SERVE_SIM_UNSCHEDULABLE, "a prompt of %d tokens to compute exceeds max_batch_tokens %d without chunked prefill",
		     prompt - hit, sv->max_batch_tokens);
		return;
	}
	long stop = s->cfg->max_requests > 0 ? s->cfg->max_requests : SERVE_SIM_REQUESTS_STOP;
	if ((long)s->n_seqs >= stop) {
		fail(s, SERVE_SIM_TOO_LONG, "the serving simulation passed %ld requests, the most it serves (a closed loop "
		     "for a duration sends as many as finish in it; give requests, at most %ld)", stop,
		     SERVE_SIM_REQUESTS_MAX);
		return;
	}
	s->seqs = xgrow(s->seqs, &s->cap_seqs, s->n_seqs + 1, sizeof *s->seqs, 4096);
	int si = (int)s->n_seqs++;
	struct seq *q = &s->seqs[si];
	*q = (struct seq){ .arrival_ns = now, .prompt = prompt, .output = output, .hit = hit, .computed = hit,
			   .rep = -1, .dest = -1, .client = client, .next = -1, .state = SEQ_WAITING };
	if (!s->started) {
		s->started = true;
		s->t0_ns = now;
		stats_level_init(&s->in_system, now, 0);
		stats_level_init(&s->kv_used, now, 0);
	}
	stats_level_add(&s->in_system, now, 1);
	struct replica *r = route(s, s->entry_base, s->entry_n, &s->rr_entry);
	q->rep = (int)(r - s->reps);
	r->outstanding++;
	r->n_waiting++;
	list_push_tail(s, &r->wait_head, &r->wait_tail, si);
	kick(s, r);
}

/* A request of the load: drawn lengths, or the trace's. */
static void request_drawn(struct sim *s, int client)
{
	int p, o;
	serve_load_lengths(&s->load, &p, &o);
	request_new(s, p, o, client);
}

/* Closed loop: whether a client may send another request now. */
static bool may_send(const struct sim *s)
{
	if (s->limit > 0)
		return (long)s->n_seqs < s->limit;
	return engine_now(s->e) < s->end_ns;
}

static void finish(struct sim *s, struct replica *r, int si)
{
	const struct serving_spec *sv = s->sv;
	struct seq *q = &s->seqs[si];
	int64_t now = engine_now(s->e);
	double e2e = sim_time_to_s(now - q->arrival_ns);
	double ttft = sim_time_to_s(q->first_ns - q->arrival_ns);
	bool ok = sv->slo_ttft_p99_ms <= 0 || ttft * 1e3 <= sv->slo_ttft_p99_ms;

	running_remove(r, si);
	kv_give(s, r, q->blocks);
	q->blocks = 0;
	q->state = SEQ_DONE;
	r->outstanding--;
	stats_sample_add(&s->e2e_s, e2e);
	stats_sample_add(&s->ttft_ms, ttft * 1e3);
	if (q->output > 1) {
		double tpot = (e2e - ttft) / (q->output - 1);
		stats_sample_add(&s->tpot_ms, tpot * 1e3);
		if (sv->slo_tpot_p99_ms > 0 && tpot * 1e3 > sv->slo_tpot_p99_ms)
			ok = false;
	}
	s->slo_ok += ok;
	s->done++;
	s->prompt_done += q->prompt;
	s->output_done += q->output;
	stats_level_add(&s->in_system, now, -1);
	s->t_end_ns = now;
	if (q->client >= 0 && may_send(s))
		request_drawn(s, q->client);  /* may move s->seqs */
}

/* Start moving the requests waiting for decode replica d while it has
 * blocks and sequence slots for them. */
static void start_moves(struct sim *s, struct replica *d)
{
	const struct serve_pool *pf = &s->cfg->prefill, *dc = &s->cfg->decode;
	while (d->hand_head >= 0) {
		struct seq *q = &s->seqs[d->hand_head];
		int need = blocks_for(s, q->computed);
		if (need > d->blocks_free || d->n_running + d->n_moving >= s->sv->max_seqs)
			break;
		int si = list_pop_head(s, &d->hand_head, &d->hand_tail);
		d->n_handoff--;
		kv_take(s, d, need);
		q->move_blocks = need;
		q->state = SEQ_MOVING;
		q->move_ns = engine_now(s->e);
		d->n_moving++;
		const struct replica *p = &s->reps[q->rep];
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
static void hand_off(struct sim *s, struct replica *r, int si)
{
	running_remove(r, si);
	r->outstanding--;
	struct replica *d = route(s, s->dec_base, s->dec_n, &s->rr_dec);
	struct seq *q = &s->seqs[si];
	q->state = SEQ_HANDOFF;
	q->dest = (int)(d - s->reps);
	d->outstanding++;
	d->n_handoff++;
	list_push_tail(s, &d->hand_head, &d->hand_tail, si);
	start_moves(s, d);
}

/* The step just ended gave sequence si its next token. */
static void emit(struct sim *s, struct replica *r, int si)
{
	struct seq *q = &s->seqs[si];
	int64_t now = engine_now(s->e);
	q->generated++;
	s->emitted++;
	if (q->generated == 1) {
		if (r->kind == REP_PREFILL && q->output > 1) {
			hand_off(s, r, si);
			return;
		}
		q->first_ns = now;
	} else {
		wsample_add(&s->itl, now - q->last_ns);
	}
	q->last_ns = now;
	if (q->generated == q->output)
		finish(s, r, si);
}

static void preempt_last(struct sim *s, struct replica *r)
{
	int si = r->running[--r->n_running];
	struct seq *q = &s->seqs[si];
	kv_give(s, r, q->blocks);
	q->blocks = 0;
	q->computed = q->hit;
	q->state = SEQ_WAITING;
	r->n_waiting++;
	list_push_head(s, &r->wait_head, &r->wait_tail, si);
	s->preemptions++;
}

static void batch_prefill(struct sim *s, struct replica *r, struct serve_batch *b, int si, int chunk)
{
	const struct seq *q = &s->seqs[si];
	b->prefill_seqs++;
	b->prefill_tokens += chunk;
	b->prefill_attn_pairs += (double)chunk * (q->computed + (chunk + 1) / 2.0);
	r->batch[r->n_batch++] = (struct item){ si, chunk };
}

/* One token for each running decode, in arrival order, within the budget;
 * a decode without a free block preempts the latest arrival. */
static void batch_decodes(struct sim *s, struct replica *r, struct serve_batch *b, long *budget)
{
	int max_seqs = s->sv->max_seqs;
	for (int i = 0; i < r->n_running; i++) {
		int si = r->running[i];
		struct seq *q = &s->seqs[si];
		if (!is_decode(q))
			continue;
		if (*budget <= 0 || r->n_batch >= max_seqs)
			break;
		int need = blocks_for(s, q->computed + 1) - q->blocks;
		bool self = false;
		while (need > r->blocks_free) {
			self = r->running[r->n_running - 1] == si;
			preempt_last(s, r);
			if (self)
				break;
		}
		if (self)
			break;
		kv_take(s, r, need);
		q->blocks += need;
		b->decode_seqs++;
		b->decode_ctx_tokens += q->computed + 1;
		r->batch[r->n_batch++] = (struct item){ si, 1 };
		(*budget)--;
	}
}

/* Admit waiting requests head first while they fit: KV blocks for the
 * whole context, a sequence slot, and (whole mode) the budget. */
static void batch_admit(struct sim *s, struct replica *r, struct serve_batch *b, long *budget, bool whole)
{
	int max_seqs = s->sv->max_seqs;
	while (r->wait_head >= 0 && *budget > 0 && r->n_batch < max_seqs && r->n_running + r->n_moving < max_seqs) {
		struct seq *q = &s->seqs[r->wait_head];
		long need_tokens = (long)q->prompt + q->generated - q->computed;
		int need = blocks_for(s, (long)q->prompt + q->generated);
		if (need > r->blocks_free || (whole && need_tokens > *budget))
			break;
		int si = list_pop_head(s, &r->wait_head, &r->wait_tail);
		r->n_waiting--;
		kv_take(s, r, need);
		q->blocks = need;
		q->state = SEQ_RUNNING;
		running_insert(r, si);
		int chunk = (int)(need_tokens < *budget ? need_tokens : *budget);
		batch_prefill(s, r, b, si, chunk);
		*budget -= chunk;
	}
}

/* Form replica r's next batch and start its step; false when it has none. */
static bool step_start(struct sim *s, struct replica *r)
{
	const struct serving_spec *sv = s->sv;
	struct serve_batch b = { 0 };
	struct serve_step_use use = { 0, 0 };
	long budget = sv->max_batch_tokens;

	r->n_batch = 0;
	if (sv->chunked_prefill) {
		batch_decodes(s, r, &b, &budget);
		for (int i = 0; i < r->n_running && budget > 0 && r->n_batch < sv->max_seqs; i++) {
			int si = r->running[i];
			const struct seq *q = &s->seqs[si];
			if (is_decode(q))
				continue;
			long need_tokens = (long)q->prompt + q->generated - q->computed;
			int chunk = (int)(need_tokens < budget ? need_tokens : budget);
			batch_prefill(s, r, &b, si, chunk);
			budget -= chunk;
		}
		batch_admit(s, r, &b, &budget, false);
	} else {
		batch_admit(s, r, &b, &budget, true);
		if (r->n_batch == 0)
			batch_decodes(s, r, &b, &budget);
	}
	if (r->n_batch == 0) {
		if (r->wait_head >= 0 && r->n_running == 0 && r->n_moving == 0 && r->blocks_free == r->blocks_total) {
			const struct seq *q = &s->seqs[r->wait_head];
			fail(s, SERVE_SIM_UNSCHEDULABLE, "a request of %d prompt tokens (%d generated) can never be scheduled: %d tokens to "
			     "prefill against max_batch_tokens %d without chunked prefill", q->prompt, q->generated,
			     q->prompt + q->generated - q->computed, sv->max_batch_tokens);
		}
		return false;
	}
	double dt = r->pool->model.step_s(r->pool->model.ctx, &b, &use);
	assert(isfinite(dt) && dt >= 0);
	int64_t dt_ns = sim_time_from_s(dt);
	s->busy_s += sim_time_to_s(dt_ns);
	s->flops += use.flops;
	s->hbm_bytes += use.hbm_bytes;
	r->busy = true;
	engine_after(s->e, dt_ns, ENGINE_CLASS_WORK, &s->on_step, (uint64_t)(r - s->reps));
	return true;
}

static void on_step(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct sim *s = container_of(h, struct sim, on_step);
	struct replica *r = &s->reps[arg];
	(void)e;
	if (!tick(s))
		return;
	for (int k = 0; k < r->n_batch; k++) {
		int si = r->batch[k].seq;
		struct seq *q = &s->seqs[si];
		q->computed += r->batch[k].tokens;
		if (q->computed == q->prompt + q->generated)
			emit(s, r, si);  /* may move s->seqs */
	}
	r->busy = false;
	step_start(s, r);
	if (r->kind == REP_DECODE)
		start_moves(s, r);
}

static void on_kick(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct sim *s = container_of(h, struct sim, on_kick);
	struct replica *r = &s->reps[arg];
	(void)e;
	r->kick_pending = false;
	if (!tick(s))
		return;
	if (!r->busy)
		step_start(s, r);
}

/* A flow of a request's KV transfer ended; the last one moves it. */
static void on_flow(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct sim *s = container_of(h, struct sim, on_flow);
	struct seq *q = &s->seqs[arg];
	int64_t now = engine_now(e);
	if (!tick(s) || --q->moves_left > 0)
		return;
	struct replica *p = &s->reps[q->rep], *d = &s->reps[q->dest];
	stats_sample_add(&s->move_ms, sim_time_to_s(now - q->move_ns) * 1e3);
	kv_give(s, p, q->blocks);
	q->blocks = q->move_blocks;
	q->move_blocks = 0;
	q->rep = q->dest;
	q->state = SEQ_RUNNING;
	q->first_ns = now;
	q->last_ns = now;
	d->n_moving--;
	running_insert(d, (int)arg);
	kick(s, p);
	kick(s, d);
}

/* The arrival process: one pending arrival event at a time. */
static void on_arrival(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct sim *s = container_of(h, struct sim, on_arrival);
	const struct serving_spec *sv = s->sv;
	(void)arg;
	if (!tick(s))
		return;
	switch (sv->process) {
	case ARRIVAL_POISSON:
	case ARRIVAL_GAMMA:
		request_drawn(s, -1);
		if (s->limit > 0 ? (long)s->n_seqs < s->limit : true) {
			s->next_arrival_s += serve_load_gap_s(&s->load);
			int64_t t = sim_time_from_s(s->next_arrival_s);
			if (s->limit > 0 || t < s->end_ns)
				engine_at(e, t, ENGINE_CLASS_DELIVERY, &s->on_arrival, 0);
		}
		break;
	case ARRIVAL_OFFLINE:
		for (long i = 0; i < s->limit && !s->failed; i++)
			request_drawn(s, -1);
		break;
	case ARRIVAL_CLOSED_LOOP:
		for (int c = 0; c < sv->concurrency && may_send(s) && !s->failed; c++)
			request_drawn(s, c);
		break;
	case ARRIVAL_TRACE: {
		const struct serve_request *rq = sv->trace_requests->requests;
		int64_t t = engine_now(e);
		while (s->trace_next < s->trace_n && !s->failed) {
			const struct serve_request *x = &rq[s->trace_order[s->trace_next]];
			int64_t tx = sim_time_from_s(x->arrival_s);
			if (tx > t) {
				engine_at(e, tx, ENGINE_CLASS_DELIVERY, &s->on_arrival, 0);
				break;
			}
			s->trace_next++;
			request_new(s, x->prompt_tokens > 1 ? x->prompt_tokens : 1,
				    x->output_tokens > 1 ? x->output_tokens : 1, -1);
		}
		break;
	}
	}
}

struct trace_key {
	double t;
	size_t i;
};

/* By arrival, then by position in the trace. */
static int trace_cmp(const void *a, const void *b)
{
	const struct trace_key *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static void replicas_add(struct sim *s, const struct serve_pool *pool, enum rep_kind kind)
{
	for (int i = 0; i < pool->replicas; i++) {
		struct replica *r = &s->reps[s->n_reps++];
		memset(r, 0, sizeof *r);
		r->pool = pool;
		r->kind = kind;
		r->index = i;
		r->blocks_total = (long)floor(pool->model.kv_capacity_tokens / s->block_tokens);
		r->blocks_free = r->blocks_total;
		r->running = xcalloc((size_t)s->sv->max_seqs + 1, sizeof *r->running);
		r->batch = xcalloc((size_t)s->sv->max_seqs + 1, sizeof *r->batch);
		r->wait_head = r->wait_tail = r->hand_head = r->hand_tail = -1;
		s->blocks_all += r->blocks_total;
	}
}

static void pct_of(struct stats_sample *x, struct serve_pct *p)
{
	p->p50 = stats_sample_percentile(x, 50);
	p->p90 = stats_sample_percentile(x, 90);
	p->p99 = stats_sample_percentile(x, 99);
	p->mean = stats_sample_mean(x);
}

static void metrics_fill(struct sim *s, struct serve_metrics *m)
{
	double span = s->done > 0 ? sim_time_to_s(s->t_end_ns - s->t0_ns) : 0;
	double peak_flops = 0, peak_hbm = 0;
	for (int i = 0; i < s->n_reps; i++) {
		peak_flops += s->reps[i].pool->model.peak_flops_per_s;
		peak_hbm += s->reps[i].pool->model.peak_hbm_bytes_per_s;
		if (s->reps[i].peak_frac > m->kv_util_peak)
			m->kv_util_peak = s->reps[i].peak_frac;
	}
	m->requests_sent = (long)s->n_seqs;
	m->requests_done = s->done;
	m->span_s = span;
	pct_of(&s->ttft_ms, &m->ttft_ms);
	pct_of(&s->tpot_ms, &m->tpot_ms);
	pct_of(&s->e2e_s, &m->e2e_s);
	pct_of(&s->move_ms, &m->kv_transfer_ms);
	if (s->itl.n > 0)
		qsort(s->itl.p, s->itl.n, sizeof *s->itl.p, wpair_cmp);
	m->itl_ms.p50 = wsample_percentile(&s->itl, 50) * 1e-6;
	m->itl_ms.p90 = wsample_percentile(&s->itl, 90) * 1e-6;
	m->itl_ms.p99 = wsample_percentile(&s->itl, 99) * 1e-6;
	m->itl_ms.mean = wsample_mean(&s->itl) * 1e-6;
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

/* Check the configuration; 0, or a negative enum serve_sim_failure with the reason. */
static int config_check(const struct serve_sim_config *cfg, char *reason, size_t len)
{
	const struct serving_spec *sv = cfg->sv;
	const struct serve_pool *pools[2] = { cfg->disaggregated ? &cfg->prefill : &cfg->colocated,
					      cfg->disaggregated ? &cfg->decode : NULL };
	for (int i = 0; i < 2; i++) {
		const struct serve_pool *p = pools[i];
		if (p == NULL)
			continue;
		if (p->replicas < 1 || p->model.step_s == NULL || p->gpus_per_replica < 1) {
			text_setf(reason, len, "a serving pool needs at least one replica of at least one GPU and a step model");
			return SERVE_SIM_UNSCHEDULABLE;
		}
		if (p->model.kv_capacity_tokens < (sv->block_tokens > 0 ? sv->block_tokens : 16)) {
			text_setf(reason, len, "a replica's KV cache of %.0f tokens holds no block", p->model.kv_capacity_tokens);
			return SERVE_SIM_KV;
		}
	}
	if (sv->max_seqs < 1 || sv->max_batch_tokens < 1) {
		text_setf(reason, len, "max_seqs %d and max_batch_tokens %d must be at least 1", sv->max_seqs,
			 sv->max_batch_tokens);
		return SERVE_SIM_UNSCHEDULABLE;
	}
	if (cfg->disaggregated && cfg->topo == NULL) {
		text_setf(reason, len, "disaggregated serving needs the candidate's topology");
		return SERVE_SIM_UNSCHEDULABLE;
	}
	switch (sv->process) {
	case ARRIVAL_POISSON:
	case ARRIVAL_GAMMA:
		if (!(sv->rate_per_s > 0) || (sv->requests <= 0 && !(sv->duration_s > 0))) {
			text_setf(reason, len, "an arrival rate (%g) and a duration (%g s) or request count are needed",
				 sv->rate_per_s, sv->duration_s);
			return SERVE_SIM_UNSCHEDULABLE;
		}
		break;
	case ARRIVAL_OFFLINE:
		if (sv->requests <= 0) {
			text_setf(reason, len, "offline arrivals need a request count");
			return SERVE_SIM_UNSCHEDULABLE;
		}
		break;
	case ARRIVAL_CLOSED_LOOP:
		if (sv->concurrency < 1 || (sv->requests <= 0 && !(sv->duration_s > 0))) {
			text_setf(reason, len, "closed-loop arrivals need a concurrency (%d) and a request count or duration",
				 sv->concurrency);
			return SERVE_SIM_UNSCHEDULABLE;
		}
		break;
	case ARRIVAL_TRACE:
		if (sv->trace_requests == NULL) {
			text_setf(reason, len, "trace arrivals need the trace's requests");
			return SERVE_SIM_UNSCHEDULABLE;
		}
		break;
	}
	return 0;
}

int serve_sim_run(const struct serve_sim_config *cfg, struct serve_metrics *out, char *reason,
		  size_t reason_len)
{
	const struct serving_spec *sv = cfg->sv;
	struct sim *s;
	int rc = 0;

	memset(out, 0, sizeof *out);
	if ((rc = config_check(cfg, reason, reason_len)) < 0)
		return rc;
	s = xcalloc(1, sizeof *s);
	s->on_step.fn = on_step;
	s->on_kick.fn = on_kick;
	s->on_arrival.fn = on_arrival;
	s->on_flow.fn = on_flow;
	s->cfg = cfg;
	s->sv = sv;
	s->reason = reason;
	s->reason_len = reason_len;
	s->block_tokens = sv->block_tokens > 0 ? sv->block_tokens : 16;
	if (serve_load_init(&s->load, sv, cfg->seed, cfg->row_id, reason, reason_len) < 0) {
		free(s);
		return SERVE_SIM_UNSCHEDULABLE;
	}
	s->e = engine_new();
	stats_sample_init(&s->ttft_ms);
	stats_sample_init(&s->tpot_ms);
	stats_sample_init(&s->e2e_s);
	stats_sample_init(&s->move_ms);
	int n = cfg->disaggregated ? cfg->prefill.replicas + cfg->decode.replicas : cfg->colocated.replicas;
	s->reps = xcalloc((size_t)n, sizeof *s->reps);
	if (cfg->disaggregated) {
		replicas_add(s, &cfg->prefill, REP_PREFILL);
		replicas_add(s, &cfg->decode, REP_DECODE);
		s->entry_n = cfg->prefill.replicas;
		s->dec_base = cfg->prefill.replicas;
		s->dec_n = cfg->decode.replicas;
		s->fn = flow_new(s->e);
		topology_net_build(&s->tn, cfg->topo, s->fn);
		s->have_net = true;
	} else {
		replicas_add(s, &cfg->colocated, REP_COLOCATED);
		s->entry_n = cfg->colocated.replicas;
	}
	s->limit = sv->requests > 0 ? sv->requests : 0;
	s->end_ns = sim_time_from_s(sv->duration_s);
	switch (sv->process) {
	case ARRIVAL_POISSON:
	case ARRIVAL_GAMMA:
		s->next_arrival_s = serve_load_gap_s(&s->load);
		if (s->limit > 0 || sim_time_from_s(s->next_arrival_s) < s->end_ns)
			engine_at(s->e, sim_time_from_s(s->next_arrival_s), ENGINE_CLASS_DELIVERY, &s->on_arrival, 0);
		break;
	case ARRIVAL_TRACE:
		s->trace_n = sv->trace_requests->n;
		if (s->limit > 0 && (size_t)s->limit < s->trace_n)
			s->trace_n = (size_t)s->limit;
		s->trace_order = xcalloc(sv->trace_requests->n + 1, sizeof *s->trace_order);
		{
			struct trace_key *keys = xcalloc(sv->trace_requests->n + 1, sizeof *keys);
			for (size_t i = 0; i < sv->trace_requests->n; i++)
				keys[i] = (struct trace_key){ sv->trace_requests->requests[i].arrival_s, i };
			qsort(keys, sv->trace_requests->n, sizeof *keys, trace_cmp);
			for (size_t i = 0; i < sv->trace_requests->n; i++)
				s->trace_order[i] = keys[i].i;
			free(keys);
		}
		if (s->trace_n > 0) {
			double t0 = sv->trace_requests->requests[s->trace_order[0]].arrival_s;
			engine_at(s->e, sim_time_from_s(t0 > 0 ? t0 : 0), ENGINE_CLASS_DELIVERY, &s->on_arrival, 0);
		}
		break;
	case ARRIVAL_OFFLINE:
	case ARRIVAL_CLOSED_LOOP:
		engine_at(s->e, 0, ENGINE_CLASS_DELIVERY, &s->on_arrival, 0);
		break;
	}
	out->events = engine_run(s->e, SIM_TIME_MAX);
	if (s->failed) {
		rc = s->failure;
	} else {
		assert(s->done == (long)s->n_seqs);
		assert(s->emitted == s->output_done);
		metrics_fill(s, out);
	}

	for (int i = 0; i < s->n_reps; i++) {
		free(s->reps[i].running);
		free(s->reps[i].batch);
	}
	free(s->reps);
	if (s->have_net)
		topology_net_release(&s->tn);
	if (s->fn != NULL)
		flow_free(s->fn);
	engine_free(s->e);
	serve_load_release(&s->load);
	stats_sample_release(&s->ttft_ms);
	stats_sample_release(&s->tpot_ms);
	stats_sample_release(&s->e2e_s);
	stats_sample_release(&s->move_ms);
	free(s->itl.p);
	free(s->trace_order);
	free(s->seqs);
	free(s);
	return rc;
}
