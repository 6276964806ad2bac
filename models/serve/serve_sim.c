/*
 * serve_sim: requests on replicas, one engine event per batch step: the
 * run's setup and its engine handlers. A step's batch is serve_sched's, a
 * request's life serve_request's, the KV blocks serve_kv's, the arrivals
 * their process's (arrival.h), the figures serve_metrics'.
 */
#include "serve_sim.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/serve/arrival.h"
#include "models/serve/serve_kv.h"
#include "models/serve/serve_metrics.h"
#include "models/serve/serve_request.h"
#include "models/serve/serve_sched.h"
#include "models/serve/serve_state.h"
#include "sim/time.h"
#include "util/container.h"
#include "util/text.h"
#include "util/xalloc.h"


static void on_step(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct serve_state *s = container_of(h, struct serve_state, on_step);
	struct serve_replica *r = &s->reps[arg];
	(void)e;
	if (!serve_state_tick(s))
		return;
	for (int k = 0; k < r->n_batch; k++) {
		int si = r->batch[k].seq;
		struct serve_seq *q = &s->seqs[si];
		q->computed += r->batch[k].tokens;
		/* a prefill's last chunk emits one token, a decode its tokens
		 * (several with speculative decoding) */
		while (s->seqs[si].state == SEQ_RUNNING &&
		       s->seqs[si].computed >= s->seqs[si].prompt + s->seqs[si].generated)
			serve_request_emit(s, r, si);  /* may move s->seqs */
	}
	r->busy = false;
	serve_sched_step(s, r);
	if (r->kind == REP_DECODE)
		serve_request_start_moves(s, r);
}

static void on_kick(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct serve_state *s = container_of(h, struct serve_state, on_kick);
	struct serve_replica *r = &s->reps[arg];
	(void)e;
	r->kick_pending = false;
	if (!serve_state_tick(s))
		return;
	if (!r->busy)
		serve_sched_step(s, r);
}

/* A flow of a request's KV transfer ended; the last one moves it. */
static void on_flow(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct serve_state *s = container_of(h, struct serve_state, on_flow);
	struct serve_seq *q = &s->seqs[arg];
	int64_t now = engine_now(e);
	if (!serve_state_tick(s) || --q->moves_left > 0)
		return;
	struct serve_replica *p = &s->reps[q->rep], *d = &s->reps[q->dest];
	quantile_add(&s->move_ms, sim_time_to_s(now - q->move_ns) * 1e3);
	serve_kv_give(s, p, q->blocks);
	q->blocks = q->move_blocks;
	q->move_blocks = 0;
	q->rep = q->dest;
	q->state = SEQ_RUNNING;
	q->first_ns = now;
	q->last_ns = now;
	d->n_moving--;
	serve_state_running_insert(s, d, (int)arg);
	serve_request_kick(s, p);
	serve_request_kick(s, d);
}

/* The arrival event: the process sends what arrives now. */
static void on_arrival(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct serve_state *s = container_of(h, struct serve_state, on_arrival);
	(void)e;
	(void)arg;
	if (!serve_state_tick(s))
		return;
	s->arrivals.ops->next(&s->arrivals);
}

/* The arrival process's side of the run (struct arrival_run). */
static void arrivals_send(struct arrival_run *a, int prompt, int output, int client)
{
	serve_request_new(container_of(a, struct serve_state, arrivals), prompt, output, client);
}

static long arrivals_sent(const struct arrival_run *a)
{
	return ((const struct serve_state *)container_of(a, struct serve_state, arrivals))->sent;
}

static bool arrivals_stopped(const struct arrival_run *a)
{
	return ((const struct serve_state *)container_of(a, struct serve_state, arrivals))->failed;
}

static void replicas_add(struct serve_state *s, const struct serve_pool *pool, enum serve_rep_kind kind)
{
	for (int i = 0; i < pool->replicas; i++) {
		struct serve_replica *r = &s->reps[s->n_reps++];
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
	if (arrival_of(sv->process)->check(sv, reason, len) < 0)
		return SERVE_SIM_UNSCHEDULABLE;
	return 0;
}

int serve_sim_run(const struct serve_sim_config *cfg, struct serve_metrics *out, char *reason,
		  size_t reason_len)
{
	const struct serving_spec *sv = cfg->sv;
	struct serve_state *s;
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
	s->free_head = -1;
	s->itl.exact_max = cfg->exact_max;
	quantile_init(&s->ttft_ms, cfg->exact_max);
	quantile_init(&s->tpot_ms, cfg->exact_max);
	quantile_init(&s->e2e_s, cfg->exact_max);
	quantile_init(&s->move_ms, cfg->exact_max);
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
	arrival_run_init(&s->arrivals, sv);
	s->arrivals.e = s->e;
	s->arrivals.event = &s->on_arrival;
	s->arrivals.load = &s->load;
	s->arrivals.send = arrivals_send;
	s->arrivals.sent = arrivals_sent;
	s->arrivals.stopped = arrivals_stopped;
	s->arrivals.ops->start(&s->arrivals);
	out->events = engine_run(s->e, SIM_TIME_MAX);
	if (s->failed) {
		rc = s->failure;
	} else {
		assert(s->done == s->sent);
		assert(s->emitted == s->output_done);
		serve_metrics_fill(s, out);
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
	quantile_release(&s->ttft_ms);
	quantile_release(&s->tpot_ms);
	quantile_release(&s->e2e_s);
	quantile_release(&s->move_ms);
	serve_wsample_release(&s->itl);
	arrival_run_release(&s->arrivals);
	free(s->seqs);
	free(s);
	return rc;
}
