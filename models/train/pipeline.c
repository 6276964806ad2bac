#include "pipeline.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/time.h"
#include "util/container.h"
#include "util/text.h"
#include "util/xalloc.h"


const char *pipeline_check(int p, int v, int m, enum schedule_kind s)
{
	if (p < 1 || v < 1 || m < 1)
		return "stages, chunks and micro-batches must be positive";
	if (s == SCHED_DUALPIPEV) {
		if (v != 2)
			return "the dualpipev schedule runs two chunks a stage (vpp 2)";
		if (m < 2 * p)
			return "the dualpipev schedule needs at least 2 x pp micro-batches per pipeline";
		return NULL;
	}
	if (v > 1 && s != SCHED_INTERLEAVED)
		return "virtual stages (vpp > 1) need the interleaved or dualpipev schedule";
	if (s == SCHED_INTERLEAVED && p > 1 && v > 1 && m % p != 0)
		return "the interleaved schedule needs the micro-batches per pipeline to be a multiple of pp";
	return NULL;
}

/* Stages look for work after all completions (class 0) and arrivals of an
 * instant, so simultaneous events do not look like waits. */

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
	struct pipeline_sched_op *ops;
	int nops, next;
	int *w_pending;               /* ZB: vs*m+mb of W ops ready to run */
	int nw, w_head;
	bool busy;
	struct pipeline_sched_op running;
	double run_start;
};

int pipeline_vstage(int p, enum schedule_kind s, int stage, int chunk)
{
	if (s == SCHED_DUALPIPEV)
		return chunk == 0 ? stage : 2 * p - 1 - stage;
	return chunk * p + stage;
}

int pipeline_stage(int p, enum schedule_kind s, int vs)
{
	if (s == SCHED_DUALPIPEV)
		return vs < p ? vs : 2 * p - 1 - vs;
	return vs % p;
}

int pipeline_chunk(int p, enum schedule_kind s, int vs)
{
	if (s == SCHED_DUALPIPEV)
		return vs < p ? 0 : 1;
	return vs / p;
}

bool pipeline_splits_backward(enum schedule_kind s)
{
	return s == SCHED_ZB_H1 || s == SCHED_DUALPIPEV;
}

static int vstage(const pipeline_sim *s, int stage, int chunk)
{
	return pipeline_vstage(s->c->p, s->c->schedule, stage, chunk);
}

static double now_s(const pipeline_sim *s)
{
	return sim_time_to_s(engine_now(s->e));
}

static int push_step(struct pipeline_step *out, int n, enum pipeline_op kind, int chunk, bool split)
{
	out[n].kind = kind;
	out[n].chunk = chunk;
	out[n].split = split;
	out[n].paired = false;
	out[n].pair_chunk = 0;
	return n + 1;
}

static int push_pair(struct pipeline_step *out, int n, int fchunk, int bchunk)
{
	n = push_step(out, n, PIPE_F, fchunk, false);
	out[n - 1].paired = true;
	out[n - 1].pair_chunk = bchunk;
	return n;
}

int pipeline_dualpipev_order(int p, int i, int m, struct pipeline_step *out)
{
	int n = 0, k;
	bool last = i == p - 1;
	/* 1: forwards of chunk 0 */
	for (k = 0; k < 2 * (p - i - 1); k++)
		n = push_step(out, n, PIPE_F, 0, false);
	/* 2: forwards of chunks 0 and 1 in turn */
	for (k = 0; k < i + 1; k++) {
		n = push_step(out, n, PIPE_F, 0, false);
		n = push_step(out, n, PIPE_F, 1, false);
	}
	/* 3: chunk 1's input gradient, a weight gradient, a forward of chunk 1 */
	for (k = 0; k < p - i - 1; k++) {
		n = push_step(out, n, PIPE_B, 1, true);
		n = push_step(out, n, PIPE_W, 0, false);
		n = push_step(out, n, PIPE_F, 1, false);
	}
	/* 4, the main step: F0 with B1, F1 with B0 (the last stage's first F0
	 * and B1 run apart, to shorten the bubble) */
	for (k = 0; k < m - 2 * p + i + 1; k++) {
		if (k == 0 && last) {
			n = push_step(out, n, PIPE_F, 0, false);
			n = push_step(out, n, PIPE_B, 1, false);
		} else
			n = push_pair(out, n, 0, 1);
		n = push_pair(out, n, 1, 0);
	}
	/* 5: B1, then F1 with B0 */
	for (k = 0; k < p - i - 1; k++) {
		n = push_step(out, n, PIPE_B, 1, false);
		n = push_pair(out, n, 1, 0);
	}
	/* 6: B1 and B0, the second half with their weight gradients put off */
	bool split = false;
	for (k = 0; k < i + 1; k++) {
		if (k == (i + 1) / 2 && i % 2 == 1)
			split = true;
		n = push_step(out, n, PIPE_B, 1, split);
		if (k == (i + 1) / 2 && i % 2 == 0)
			split = true;
		n = push_step(out, n, PIPE_B, 0, split);
	}
	/* 7: a weight gradient, then B0's input gradient */
	for (k = 0; k < p - i - 1; k++) {
		n = push_step(out, n, PIPE_W, 0, false);
		n = push_step(out, n, PIPE_B, 0, true);
	}
	/* 8: the weight gradients left */
	for (k = 0; k < i + 1; k++)
		n = push_step(out, n, PIPE_W, 0, false);
	return n;
}

/* DualPipeV's order with its micro-batches: each chunk's forwards and
 * backwards take micro-batches in order, and a W the oldest put-off
 * weight gradient. */
static int dualpipev_ops(const struct pipeline_config *c, int stage, struct pipeline_sched_op *out)
{
	int m = c->m, cap = PIPELINE_DUALPIPEV_MAX_STEPS(m);
	struct pipeline_step *steps = xcalloc((size_t)cap, sizeof *steps);
	int n = pipeline_dualpipev_order(c->p, stage, m, steps);
	int next_f[2] = { 0, 0 }, next_b[2] = { 0, 0 };
	int *fifo = xcalloc((size_t)2 * m, sizeof *fifo);  /* chunk m + mb of put-off W */
	int head = 0, tail = 0;

	assert(n <= cap);
	for (int k = 0; k < n; k++) {
		const struct pipeline_step *q = &steps[k];
		struct pipeline_sched_op *o = &out[k];
		*o = (struct pipeline_sched_op){ .kind = q->kind, .split = q->split, .paired = q->paired };
		switch (q->kind) {
		case PIPE_F:
			o->chunk = q->chunk;
			o->mb = next_f[q->chunk]++;
			if (q->paired) {
				o->pair_chunk = q->pair_chunk;
				o->pair_mb = next_b[q->pair_chunk]++;
			}
			break;
		case PIPE_B:
			o->chunk = q->chunk;
			o->mb = next_b[q->chunk]++;
			if (q->split)
				fifo[tail++] = q->chunk * m + o->mb;
			break;
		case PIPE_W:
			assert(head < tail);
			o->chunk = fifo[head] / m;
			o->mb = fifo[head++] % m;
			break;
		}
	}
	assert(next_f[0] == m && next_f[1] == m && next_b[0] == m && next_b[1] == m && head == tail);
	free(fifo);
	free(steps);
	return n;
}

void pipeline_order_start(struct pipeline_order *o, const struct pipeline_config *c, int stage)
{
	int p = c->p, v = c->v, total = c->m * v;
	int warmup;
	assert(c->schedule != SCHED_DUALPIPEV);
	switch (c->schedule) {
	case SCHED_GPIPE:
		warmup = total;
		break;
	case SCHED_INTERLEAVED:
		warmup = v > 1 ? (p - stage - 1) * 2 + (v - 1) * p : p - stage - 1;
		break;
	default:
		warmup = p - stage - 1;
		break;
	}
	*o = (struct pipeline_order){ .c = c, .total = total, .warmup = warmup > total ? total : warmup };
}

int pipeline_stage_ops(const struct pipeline_config *c, int stage, struct pipeline_sched_op *out)
{
	struct pipeline_order o;
	int k = 0;
	if (c->schedule == SCHED_DUALPIPEV)
		return dualpipev_ops(c, stage, out);
	pipeline_order_start(&o, c, stage);
	while (pipeline_order_next(&o, &out[k]))
		k++;
	return k;
}

/* The schedule's order of operations on one stage. */
static void build_ops(struct stage *st, const struct pipeline_config *c)
{
	st->ops = xcalloc((size_t)pipeline_stage_ops_max(c), sizeof *st->ops);
	st->nops = pipeline_stage_ops(c, st->index, st->ops);
	if (c->schedule == SCHED_ZB_H1)
		st->w_pending = xcalloc((size_t)c->m * c->v, sizeof *st->w_pending);
}

/* Seconds of one operation alone (a pair's F part only). DualPipeV's b_s
 * is the input gradient, as ZB-H1's, and its unsplit B adds the weight
 * gradient. */
static double op_time(const pipeline_sim *s, const struct pipeline_sched_op *o, int vs)
{
	switch (o->kind) {
	case PIPE_F: return s->c->f_s[vs];
	case PIPE_B:
		return s->c->b_s[vs] + (s->c->schedule == SCHED_DUALPIPEV && !o->split ? s->c->w_s[vs] : 0);
	case PIPE_W: return s->c->w_s[vs];
	}
	return 0;
}

/* The backward half of a paired operation. */
static struct pipeline_sched_op pair_backward(const struct pipeline_sched_op *o)
{
	struct pipeline_sched_op b = { .kind = PIPE_B, .mb = o->pair_mb, .chunk = o->pair_chunk };
	return b;
}

static bool produces_grads(const pipeline_sim *s, const struct pipeline_sched_op *o)
{
	switch (s->c->schedule) {
	case SCHED_ZB_H1: return o->kind == PIPE_W;
	case SCHED_DUALPIPEV: return o->kind == PIPE_W || (o->kind == PIPE_B && !o->split);
	default: return o->kind == PIPE_B;
	}
}

static void start_op(struct stage *st, const struct pipeline_sched_op *o)
{
	pipeline_sim *s = st->sim;
	struct pipe *pp = &s->pipes[st->pipe];
	int vs = vstage(s, st->index, o->chunk);
	double d = op_time(s, o, vs);
	struct pipeline_sched_op g = *o;  /* the part that produces gradients, if any */
	if (o->paired) {
		g = pair_backward(o);
		d += op_time(s, &g, vstage(s, st->index, g.chunk));
	}
	int gvs = vstage(s, st->index, g.chunk);
	st->busy = true;
	st->running = *o;
	st->run_start = now_s(s);
	pp->r.stage_busy_s[st->index] += d;
	if (produces_grads(s, &g) && pp->grad_ops_done[gvs] == s->c->m - 1 && s->hooks.last_grads != NULL)
		s->hooks.last_grads(s->hooks.ctx, st->pipe, gvs, d);
	engine_after(s->e, sim_time_from_s(d), ENGINE_CLASS_WORK, &st->done, 0);
}

static double input_ready(const pipeline_sim *s, const struct pipe *pp, const struct pipeline_sched_op *o, int stage)
{
	int vs = vstage(s, stage, o->chunk);
	return o->kind == PIPE_F ? pp->f_ready[vs * s->c->m + o->mb] : pp->b_ready[vs * s->c->m + o->mb];
}

/* Start the next operation if the stage is free and its input is there
 * (a pair's two inputs). */
static void try_start(struct stage *st)
{
	pipeline_sim *s = st->sim;
	struct pipe *pp = &s->pipes[st->pipe];
	double now = now_s(s);
	if (st->busy)
		return;
	if (st->next < st->nops) {
		const struct pipeline_sched_op *o = &st->ops[st->next];
		double ready = o->kind == PIPE_W ? 0 : input_ready(s, pp, o, st->index);
		if (o->paired) {
			struct pipeline_sched_op b = pair_backward(o);
			double rb = input_ready(s, pp, &b, st->index);
			if (rb > ready)
				ready = rb;
		}
		if (ready <= now) {
			st->next++;
			start_op(st, o);
			return;
		}
	}
	/* Zero bubble: weight gradients fill the wait, and finish the step. */
	if (st->w_head < st->nw) {
		int key = st->w_pending[st->w_head++];
		struct pipeline_sched_op w = { .kind = PIPE_W, .mb = key % s->c->m, .chunk = (key / s->c->m) / s->c->p };
		start_op(st, &w);
	}
}

static void wake(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	(void)arg;
	try_start(container_of(h, struct stage, wake));
}

/* Input of (kind, mb, vs) of pipeline `pipe` arrives after `delay`. */
static void deliver(pipeline_sim *s, int pipe, enum pipeline_op kind, int mb, int vs, double delay)
{
	struct pipe *pp = &s->pipes[pipe];
	int64_t at = engine_now(s->e) + sim_time_from_s(delay);
	double *slot = kind == PIPE_F ? &pp->f_ready[vs * s->c->m + mb] : &pp->b_ready[vs * s->c->m + mb];
	*slot = sim_time_to_s(at);
	engine_at(s->e, at, ENGINE_CLASS_DECIDE, &pp->stages[pipeline_stage(s->c->p, s->c->schedule, vs)].wake, 0);
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
	struct timeline_span *sp = timeline_add(s->trace, pipeline_stage(c->p, c->schedule, from), PIPE_STREAM_P2P, "pp_send", name, now, now + delay);
	sp->flow_out = pipeline_flow_id(s->P, c->m, to, mb, forward);
	timeline_span_arg(sp, "micro_batch", mb);
	timeline_span_arg(sp, "virtual_stage", from);
	timeline_span_arg(sp, "to_virtual_stage", to);
	if (c->send_bytes != NULL)
		timeline_span_arg(sp, "bytes", c->send_bytes[link]);
	snprintf(name, sizeof name, "recv %s mb%d vs%d>%d", forward ? "act" : "grad", mb, from, to);
	sp = timeline_add(s->trace, pipeline_stage(c->p, c->schedule, to), PIPE_STREAM_P2P, "pp_recv", name, now, now + delay);
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

/* Operation o of stage st ran from start_s to end_s: log it, send what it
 * produced (now, at the end of a pair), count its gradients. */
static void finish_op(struct stage *st, const struct pipeline_sched_op *o, double start_s, double end_s)
{
	pipeline_sim *s = st->sim;
	struct pipe *pp = &s->pipes[st->pipe];
	const struct pipeline_config *c = s->c;
	int vs = vstage(s, st->index, o->chunk);

	if (s->trace != NULL && st->pipe == 0) {
		char name[48];
		char k = o->kind == PIPE_F ? 'F' : o->kind == PIPE_B ? 'B' : 'W';
		if (c->v > 1)
			snprintf(name, sizeof name, "%c mb%d chunk%d", k, o->mb, o->chunk);
		else
			snprintf(name, sizeof name, "%c mb%d", k, o->mb);
		struct timeline_span *sp = timeline_add(s->trace, st->index, PIPE_STREAM_COMPUTE, "compute", name,
							start_s, end_s);
		sp->tag = PIPE_TAG_BASE + (int)o->kind;
		timeline_span_arg(sp, "micro_batch", o->mb);
		timeline_span_arg(sp, "virtual_stage", vs);
		timeline_span_arg(sp, "chunk", o->chunk);
		if (c->schedule == SCHED_DUALPIPEV && o->kind == PIPE_B)
			timeline_span_arg(sp, "weight_gradient", !o->split);  /* 1: B and W in one */
		/* its input came from a neighbour */
		if (o->kind == PIPE_F && vs > 0)
			sp->flow_in = pipeline_flow_id(s->P, c->m, vs, o->mb, true);
		else if (o->kind == PIPE_B && vs + 1 < s->P)
			sp->flow_in = pipeline_flow_id(s->P, c->m, vs, o->mb, false);
	}
	switch (o->kind) {
	case PIPE_F:
		if (vs + 1 < s->P)
			send(s, st->pipe, vs, vs + 1, o->mb, true);
		else
			deliver(s, st->pipe, PIPE_B, o->mb, vs, 0);
		break;
	case PIPE_B:
		if (vs > 0)
			send(s, st->pipe, vs, vs - 1, o->mb, false);
		if (st->w_pending != NULL)
			st->w_pending[st->nw++] = vs * c->m + o->mb;
		break;
	case PIPE_W:
		break;
	}
	if (produces_grads(s, o)) {
		if (++pp->grad_ops_done[vs] == c->m) {
			/* the chunk's gradients are final after its last micro-batch */
			pp->r.grads_final_s[vs] = end_s;
			pp->r.last_grad_op_s[vs] = end_s - st->run_start;
		}
	}
}

static void op_done(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct stage *st = container_of(h, struct stage, done);
	pipeline_sim *s = st->sim;
	struct pipeline_sched_op o = st->running;
	double now = now_s(s);

	(void)e;
	(void)arg;
	st->busy = false;
	s->pipes[st->pipe].r.stage_end_s[st->index] = now;
	if (o.paired) {
		/* logged as its forward then its backward; both results leave now */
		struct pipeline_sched_op b = pair_backward(&o);
		double mid = st->run_start + op_time(s, &o, vstage(s, st->index, o.chunk));
		o.paired = false;
		finish_op(st, &o, st->run_start, mid);
		finish_op(st, &b, mid, now);
	} else
		finish_op(st, &o, st->run_start, now);
	engine_after(s->e, 0, ENGINE_CLASS_DECIDE, &st->wake, 0);
}

pipeline_sim *pipeline_sim_new(engine *e, const struct pipeline_config *c, int pipelines,
		       const struct pipeline_hooks *hooks, struct timeline *trace)
{
	pipeline_sim *s = xcalloc(1, sizeof *s);
	int P = c->p * c->v;

	assert(pipeline_check(c->p, c->v, c->m, c->schedule) == NULL);
	assert((c->schedule != SCHED_ZB_H1 && c->schedule != SCHED_DUALPIPEV) || c->w_s != NULL);
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
