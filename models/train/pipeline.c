#include "pipeline.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/time.h"
#include "util/text.h"
#include "util/xalloc.h"


const char *pipeline_check(int p, int v, int m, enum schedule_kind s)
{
	if (p < 1 || v < 1 || m < 1)
		return "stages, chunks and micro-batches must be positive";
	if (v > 1 && s != SCHED_INTERLEAVED)
		return "virtual stages (vpp > 1) need the interleaved schedule";
	if (s == SCHED_INTERLEAVED && p > 1 && v > 1 && m % p != 0)
		return "the interleaved schedule needs the micro-batches per pipeline to be a multiple of pp";
	return NULL;
}

/* Stages look for work after all completions (class 0) and arrivals of an
 * instant, so simultaneous events do not look like waits. */

struct op {
	enum pipeline_op kind;
	int mb;
	int chunk;
};

struct stage;

/* One pipeline's state. */
struct pipe {
	struct stage *stages;
	/* input arrival time of F(mb, vs) and B(mb, vs); INFINITY until known */
	double *f_ready, *b_ready;
	int *grad_ops_done;        /* per vs: gradient-producing ops finished */
	struct pipeline_result r;
};

struct pipeline_sim {
	const struct pipeline_config *c;
	engine *e;
	int P;                     /* p v */
	int npipes;
	struct pipe *pipes;
	struct pipeline_hooks hooks;
	bool fixed_sends;          /* no hooks: transfers take c->send_*_s */
	struct timeline *trace;
};

struct stage {
	struct engine_handler wake;   /* first member */
	struct engine_handler done;
	pipeline_sim *sim;
	int pipe;
	int index;
	struct op *ops;
	int nops, next;
	int *w_pending;               /* ZB: vs*m+mb of W ops ready to run */
	int nw, w_head;
	bool busy;
	struct op running;
	double run_start;
};

static int vstage(const pipeline_sim *s, int stage, int chunk)
{
	return chunk * s->c->p + stage;
}

static double now_s(const pipeline_sim *s)
{
	return sim_time_to_s(engine_now(s->e));
}

/* The schedule's order of operations on one stage. */
static void build_ops(struct stage *st, const struct pipeline_config *c)
{
	int p = c->p, v = c->v, m = c->m, i = st->index;
	int total = m * v;
	int k = 0, nf = 0, nb = 0;

	st->ops = xcalloc((size_t)total * 2, sizeof *st->ops);
	struct op *fwd = xcalloc((size_t)total, sizeof *fwd);
	struct op *bwd = xcalloc((size_t)total, sizeof *bwd);
	for (int x = 0; x < total; x++) {
		if (c->schedule == SCHED_INTERLEAVED && v > 1) {
			/* Megatron: micro-batches in groups of p, chunk by chunk */
			int group = x / (p * v), within = x % (p * v);
			fwd[x].chunk = within / p;
			fwd[x].mb = group * p + within % p;
			bwd[x].chunk = v - 1 - within / p;
			bwd[x].mb = fwd[x].mb;
		} else {
			fwd[x].chunk = bwd[x].chunk = 0;
			fwd[x].mb = bwd[x].mb = x;
		}
		fwd[x].kind = PIPE_F;
		bwd[x].kind = PIPE_B;
	}
	int warmup;
	switch (c->schedule) {
	case SCHED_GPIPE:
		warmup = total;
		break;
	case SCHED_INTERLEAVED:
		warmup = v > 1 ? (p - i - 1) * 2 + (v - 1) * p : p - i - 1;
		break;
	default:
		warmup = p - i - 1;
		break;
	}
	if (warmup > total)
		warmup = total;
	for (; nf < warmup; nf++)
		st->ops[k++] = fwd[nf];
	while (nb < total) {
		if (nf < total)
			st->ops[k++] = fwd[nf++];
		st->ops[k++] = bwd[nb++];
	}
	st->nops = k;
	if (c->schedule == SCHED_ZB_H1)
		st->w_pending = xcalloc((size_t)total, sizeof *st->w_pending);
	free(fwd);
	free(bwd);
}

static double op_time(const pipeline_sim *s, const struct op *o, int vs)
{
	switch (o->kind) {
	case PIPE_F: return s->c->f_s[vs];
	case PIPE_B: return s->c->b_s[vs];
	case PIPE_W: return s->c->w_s[vs];
	}
	return 0;
}

static bool produces_grads(const pipeline_sim *s, enum pipeline_op k)
{
	return s->c->schedule == SCHED_ZB_H1 ? k == PIPE_W : k == PIPE_B;
}

static void start_op(struct stage *st, const struct op *o)
{
	pipeline_sim *s = st->sim;
	struct pipe *pp = &s->pipes[st->pipe];
	int vs = vstage(s, st->index, o->chunk);
	double d = op_time(s, o, vs);
	st->busy = true;
	st->running = *o;
	st->run_start = now_s(s);
	pp->r.stage_busy_s[st->index] += d;
	if (produces_grads(s, o->kind) && pp->grad_ops_done[vs] == s->c->m - 1 && s->hooks.last_grads != NULL)
		s->hooks.last_grads(s->hooks.ctx, st->pipe, vs, d);
	engine_after(s->e, sim_time_from_s(d), ENGINE_CLASS_WORK, &st->done, 0);
}

/* Start the next operation if the stage is free and its input is there. */
static void try_start(struct stage *st)
{
	pipeline_sim *s = st->sim;
	struct pipe *pp = &s->pipes[st->pipe];
	double now = now_s(s);
	if (st->busy)
		return;
	if (st->next < st->nops) {
		const struct op *o = &st->ops[st->next];
		int vs = vstage(s, st->index, o->chunk);
		double ready = o->kind == PIPE_F ? pp->f_ready[vs * s->c->m + o->mb] : pp->b_ready[vs * s->c->m + o->mb];
		if (ready <= now) {
			st->next++;
			start_op(st, o);
			return;
		}
	}
	/* Zero bubble: weight gradients fill the wait, and finish the step. */
	if (st->w_head < st->nw) {
		int key = st->w_pending[st->w_head++];
		struct op w = { .kind = PIPE_W, .mb = key % s->c->m, .chunk = (key / s->c->m) / s->c->p };
		start_op(st, &w);
	}
}

static void wake(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	(void)arg;
	try_start((struct stage *)h);
}

/* Input of (kind, mb, vs) of pipeline `pipe` arrives after `delay`. */
static void deliver(pipeline_sim *s, int pipe, enum pipeline_op kind, int mb, int vs, double delay)
{
	struct pipe *pp = &s->pipes[pipe];
	int64_t at = engine_now(s->e) + sim_time_from_s(delay);
	double *slot = kind == PIPE_F ? &pp->f_ready[vs * s->c->m + mb] : &pp->b_ready[vs * s->c->m + mb];
	*slot = sim_time_to_s(at);
	engine_at(s->e, at, ENGINE_CLASS_DECIDE, &pp->stages[vs % s->c->p].wake, 0);
}

void pipeline_sim_delivered(pipeline_sim *s, int pipe, int to, int mb, bool forward)
{
	deliver(s, pipe, forward ? PIPE_F : PIPE_B, mb, to, 0);
}

long pipeline_flow_id(int P, int m, int to, int mb, bool forward)
{
	return 1 + ((long)(forward ? 0 : 1) * P + to) * m + mb;
}

/* Log a transfer of `delay` from virtual stage `from` to `to` starting now:
 * a send on the sender's P2P stream (the flow's start), a receive on the
 * receiver's. */
static void log_send(pipeline_sim *s, int from, int to, int mb, bool forward, double delay)
{
	const struct pipeline_config *c = s->c;
	double now = now_s(s);
	char name[48];
	int link = forward ? from : to;   /* transfers are indexed by the lower virtual stage */
	if (s->trace == NULL || delay <= 0)
		return;
	snprintf(name, sizeof name, "send %s mb%d vs%d>%d", forward ? "act" : "grad", mb, from, to);
	struct timeline_span *sp = timeline_add(s->trace, from % c->p, PIPE_STREAM_P2P, "pp_send", name, now, now + delay);
	sp->flow_out = pipeline_flow_id(s->P, c->m, to, mb, forward);
	timeline_span_arg(sp, "micro_batch", mb);
	timeline_span_arg(sp, "virtual_stage", from);
	timeline_span_arg(sp, "to_virtual_stage", to);
	if (c->send_bytes != NULL)
		timeline_span_arg(sp, "bytes", c->send_bytes[link]);
	snprintf(name, sizeof name, "recv %s mb%d vs%d>%d", forward ? "act" : "grad", mb, from, to);
	sp = timeline_add(s->trace, to % c->p, PIPE_STREAM_P2P, "pp_recv", name, now, now + delay);
	timeline_span_arg(sp, "micro_batch", mb);
	timeline_span_arg(sp, "virtual_stage", to);
	timeline_span_arg(sp, "from_virtual_stage", from);
	if (c->send_bytes != NULL)
		timeline_span_arg(sp, "bytes", c->send_bytes[link]);
}

static void send(pipeline_sim *s, int pipe, int from, int to, int mb, bool forward)
{
	if (s->fixed_sends) {
		double delay = forward ? s->c->send_f_s[from] : s->c->send_b_s[to];
		if (pipe == 0)
			log_send(s, from, to, mb, forward, delay);
		deliver(s, pipe, forward ? PIPE_F : PIPE_B, mb, to, delay);
	} else
		s->hooks.send(s->hooks.ctx, pipe, from, to, mb, forward);
}

static void op_done(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct stage *st = (struct stage *)((char *)h - offsetof(struct stage, done));
	pipeline_sim *s = st->sim;
	struct pipe *pp = &s->pipes[st->pipe];
	const struct pipeline_config *c = s->c;
	struct op o = st->running;
	int vs = vstage(s, st->index, o.chunk);
	double now = now_s(s);

	(void)e;
	(void)arg;
	st->busy = false;
	pp->r.stage_end_s[st->index] = now;
	if (s->trace != NULL && st->pipe == 0) {
		char name[48];
		char k = o.kind == PIPE_F ? 'F' : o.kind == PIPE_B ? 'B' : 'W';
		if (c->v > 1)
			snprintf(name, sizeof name, "%c mb%d chunk%d", k, o.mb, o.chunk);
		else
			snprintf(name, sizeof name, "%c mb%d", k, o.mb);
		struct timeline_span *sp = timeline_add(s->trace, st->index, PIPE_STREAM_COMPUTE, "compute", name,
							st->run_start, now);
		sp->tag = PIPE_TAG_BASE + (int)o.kind;
		timeline_span_arg(sp, "micro_batch", o.mb);
		timeline_span_arg(sp, "virtual_stage", vs);
		timeline_span_arg(sp, "chunk", o.chunk);
		/* its input came from a neighbour */
		if (o.kind == PIPE_F && vs > 0)
			sp->flow_in = pipeline_flow_id(s->P, c->m, vs, o.mb, true);
		else if (o.kind == PIPE_B && vs + 1 < s->P)
			sp->flow_in = pipeline_flow_id(s->P, c->m, vs, o.mb, false);
	}
	switch (o.kind) {
	case PIPE_F:
		if (vs + 1 < s->P)
			send(s, st->pipe, vs, vs + 1, o.mb, true);
		else
			deliver(s, st->pipe, PIPE_B, o.mb, vs, 0);
		break;
	case PIPE_B:
		if (vs > 0)
			send(s, st->pipe, vs, vs - 1, o.mb, false);
		if (st->w_pending != NULL)
			st->w_pending[st->nw++] = vs * c->m + o.mb;
		break;
	case PIPE_W:
		break;
	}
	if (produces_grads(s, o.kind)) {
		if (++pp->grad_ops_done[vs] == c->m) {
			/* the chunk's gradients are final after its last micro-batch */
			pp->r.grads_final_s[vs] = now;
			pp->r.last_grad_op_s[vs] = now - st->run_start;
		}
	}
	engine_after(s->e, 0, ENGINE_CLASS_DECIDE, &st->wake, 0);
}

pipeline_sim *pipeline_sim_new(engine *e, const struct pipeline_config *c, int pipelines,
		       const struct pipeline_hooks *hooks, struct timeline *trace)
{
	pipeline_sim *s = xcalloc(1, sizeof *s);
	int P = c->p * c->v;

	assert(pipeline_check(c->p, c->v, c->m, c->schedule) == NULL);
	assert(c->schedule != SCHED_ZB_H1 || c->w_s != NULL);
	s->c = c;
	s->e = e;
	s->P = P;
	s->npipes = pipelines;
	s->trace = trace;
	if (hooks != NULL)
		s->hooks = *hooks;
	s->fixed_sends = hooks == NULL || hooks->send == NULL;
	s->pipes = xcalloc((size_t)pipelines, sizeof *s->pipes);
	for (int k = 0; k < pipelines; k++) {
		struct pipe *pp = &s->pipes[k];
		pp->r.stage_end_s = xcalloc((size_t)c->p, sizeof *pp->r.stage_end_s);
		pp->r.stage_busy_s = xcalloc((size_t)c->p, sizeof *pp->r.stage_busy_s);
		pp->r.grads_final_s = xcalloc((size_t)P, sizeof *pp->r.grads_final_s);
		pp->r.last_grad_op_s = xcalloc((size_t)P, sizeof *pp->r.last_grad_op_s);
		pp->grad_ops_done = xcalloc((size_t)P, sizeof *pp->grad_ops_done);
		pp->f_ready = xcalloc((size_t)P * c->m, sizeof *pp->f_ready);
		pp->b_ready = xcalloc((size_t)P * c->m, sizeof *pp->b_ready);
		for (int i = 0; i < P * c->m; i++) {
			pp->f_ready[i] = INFINITY;
			pp->b_ready[i] = INFINITY;
		}
		for (int mb = 0; mb < c->m; mb++)
			pp->f_ready[mb] = 0;  /* the first virtual stage's inputs are there */
		pp->stages = xcalloc((size_t)c->p, sizeof *pp->stages);
		for (int i = 0; i < c->p; i++) {
			struct stage *st = &pp->stages[i];
			st->wake.fn = wake;
			st->done.fn = op_done;
			st->sim = s;
			st->pipe = k;
			st->index = i;
			build_ops(st, c);
		}
	}
	return s;
}

void pipeline_sim_start(pipeline_sim *s)
{
	for (int k = 0; k < s->npipes; k++)
		for (int i = 0; i < s->c->p; i++)
			engine_after(s->e, 0, ENGINE_CLASS_DECIDE, &s->pipes[k].stages[i].wake, 0);
}

void pipeline_sim_result(const pipeline_sim *s, int pipe, struct pipeline_result *r)
{
	const struct pipe *pp = &s->pipes[pipe];
	int p = s->c->p, P = s->P;
	r->stage_end_s = xcalloc((size_t)p, sizeof *r->stage_end_s);
	r->stage_busy_s = xcalloc((size_t)p, sizeof *r->stage_busy_s);
	r->grads_final_s = xcalloc((size_t)P, sizeof *r->grads_final_s);
	r->last_grad_op_s = xcalloc((size_t)P, sizeof *r->last_grad_op_s);
	memcpy(r->stage_end_s, pp->r.stage_end_s, (size_t)p * sizeof *r->stage_end_s);
	memcpy(r->stage_busy_s, pp->r.stage_busy_s, (size_t)p * sizeof *r->stage_busy_s);
	memcpy(r->grads_final_s, pp->r.grads_final_s, (size_t)P * sizeof *r->grads_final_s);
	memcpy(r->last_grad_op_s, pp->r.last_grad_op_s, (size_t)P * sizeof *r->last_grad_op_s);
	r->span_s = 0;
	for (int i = 0; i < p; i++) {
		assert(pp->stages[i].next == pp->stages[i].nops);
		if (r->stage_end_s[i] > r->span_s)
			r->span_s = r->stage_end_s[i];
	}
}

void pipeline_sim_free(pipeline_sim *s)
{
	if (s == NULL)
		return;
	for (int k = 0; k < s->npipes; k++) {
		struct pipe *pp = &s->pipes[k];
		for (int i = 0; i < s->c->p; i++) {
			free(pp->stages[i].ops);
			free(pp->stages[i].w_pending);
		}
		free(pp->stages);
		free(pp->f_ready);
		free(pp->b_ready);
		free(pp->grad_ops_done);
		pipeline_result_release(&pp->r);
	}
	free(s->pipes);
	free(s);
}

void pipeline_run(const struct pipeline_config *c, struct pipeline_result *r, struct timeline *trace)
{
	engine *e = engine_new();
	pipeline_sim *s = pipeline_sim_new(e, c, 1, NULL, trace);
	pipeline_sim_start(s);
	engine_run(e, SIM_TIME_MAX);
	pipeline_sim_result(s, 0, r);
	pipeline_sim_free(s);
	engine_free(e);
}

void pipeline_result_release(struct pipeline_result *r)
{
	free(r->stage_end_s);
	free(r->stage_busy_s);
	free(r->grads_final_s);
	free(r->last_grad_op_s);
	memset(r, 0, sizeof *r);
}
