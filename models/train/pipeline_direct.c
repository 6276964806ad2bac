#include "pipeline_direct.h"

#include <stdint.h>
#include <stdlib.h>

#include "sim/time.h"
#include "util/xalloc.h"

/* Not known yet: the operation producing this input has not been evaluated. */
#define UNKNOWN_NS (-1)

/* Times stay under 4e6 s: below 2^22 s the gap between two nanoseconds
 * (1e-9) exceeds a double's spacing, so ns x 1e-9 is strictly increasing
 * and comparing seconds (as pipeline.c does) is comparing nanoseconds. */
static const int64_t LIMIT_NS = INT64_C(4000000000000000);

struct dstage {
	const struct pipeline_sched_op *ops;
	int nops, next;
	int64_t free_ns;           /* when its last operation ends */
	int *w_pending;            /* ZB-H1: vs m + mb of the W operations not run yet */
	int nw, w_head;
	bool queued;               /* on the stack of stages to advance */
};

struct direct {
	const struct pipeline_config *c;
	int P, m;
	bool zb;
	int64_t *f_ready_ns, *b_ready_ns;  /* [P m] input arrival of F(mb, vs), B(mb, vs); UNKNOWN_NS */
	int *grad_ops_done;                /* [P] */
	struct dstage *st;
	int *stack, nstack;
	struct pipeline_result *r;
	bool declined;                     /* a time outside what the equality rests on */
};

static int vstage(const struct direct *d, int stage, int chunk)
{
	return pipeline_vstage(d->c->p, d->c->schedule, stage, chunk);
}

/* pipeline.c's op_time: the same expression, so the same double. */
static double op_time(const struct direct *d, const struct pipeline_sched_op *o, int vs)
{
	const struct pipeline_config *c = d->c;
	switch (o->kind) {
	case PIPE_F: return c->f_s[vs];
	case PIPE_B: return c->b_s[vs] + (c->schedule == SCHED_DUALPIPEV && !o->split ? c->w_s[vs] : 0);
	case PIPE_W: return c->w_s[vs];
	}
	return 0;
}

static bool produces_grads(const struct direct *d, const struct pipeline_sched_op *o)
{
	switch (d->c->schedule) {
	case SCHED_ZB_H1: return o->kind == PIPE_W;
	case SCHED_DUALPIPEV: return o->kind == PIPE_W || (o->kind == PIPE_B && !o->split);
	default: return o->kind == PIPE_B;
	}
}

/* t + the engine's nanoseconds for s seconds, or LIMIT_NS (declined) when
 * that leaves the range the equality holds in. */
static int64_t later_ns(struct direct *d, int64_t t, double s)
{
	int64_t dt = sim_time_from_s(s);
	if (dt >= LIMIT_NS || t + dt >= LIMIT_NS) {
		d->declined = true;
		return LIMIT_NS;
	}
	return t + dt;
}

/* The input of F or B (mb, vs) arrives at t: wake its stage if it waits. */
static void arrive(struct direct *d, int64_t *slot, int vs, int64_t t)
{
	struct dstage *s = &d->st[pipeline_stage(d->c->p, d->c->schedule, vs)];
	*slot = t;
	if (!s->queued) {
		s->queued = true;
		d->stack[d->nstack++] = (int)(s - d->st);
	}
}

/* pipeline.c's finish_op without the trace: what o (of virtual stage vs,
 * run from start to end) produced leaves at its end. */
static void finish(struct direct *d, struct dstage *s, const struct pipeline_sched_op *o, int vs, int64_t start,
		   int64_t end)
{
	const struct pipeline_config *c = d->c;
	int m = d->m;
	switch (o->kind) {
	case PIPE_F:
		if (vs + 1 < d->P)
			arrive(d, &d->f_ready_ns[(vs + 1) * m + o->mb], vs + 1, later_ns(d, end, c->send_f_s[vs]));
		else
			arrive(d, &d->b_ready_ns[vs * m + o->mb], vs, end);
		break;
	case PIPE_B:
		if (vs > 0)
			arrive(d, &d->b_ready_ns[(vs - 1) * m + o->mb], vs - 1, later_ns(d, end, c->send_b_s[vs - 1]));
		if (s->w_pending != NULL)
			s->w_pending[s->nw++] = vs * m + o->mb;
		break;
	case PIPE_W:
		break;
	}
	if (produces_grads(d, o) && ++d->grad_ops_done[vs] == m) {
		double end_s = sim_time_to_s(end);
		d->r->grads_final_s[vs] = end_s;
		d->r->last_grad_op_s[vs] = end_s - sim_time_to_s(start);
	}
}

/* pipeline.c's start_op and op_done: o runs on stage s from t. */
static void run_op(struct direct *d, struct dstage *s, const struct pipeline_sched_op *o, int64_t t)
{
	int i = (int)(s - d->st), vs = vstage(d, i, o->chunk);
	double dur = op_time(d, o, vs);
	struct pipeline_sched_op b = { .kind = PIPE_B, .mb = o->pair_mb, .chunk = o->pair_chunk };
	int bvs = vstage(d, i, b.chunk);
	if (o->paired)
		dur += op_time(d, &b, bvs);
	if (sim_time_from_s(dur) < 1)
		d->declined = true;  /* an operation within one instant */
	int64_t end = later_ns(d, t, dur);
	d->r->stage_busy_s[i] += dur;
	s->free_ns = end;
	if (o->paired) {
		struct pipeline_sched_op f = *o;
		f.paired = false;
		finish(d, s, &f, vs, t, end);
		finish(d, s, &b, bvs, t, end);
	} else
		finish(d, s, o, vs, t, end);
}

/* When the input of o (both, for a pair) on stage i arrives, or UNKNOWN_NS. */
static int64_t ready_ns(const struct direct *d, int i, const struct pipeline_sched_op *o)
{
	int m = d->m;
	if (o->kind == PIPE_W)
		return 0;
	int vs = vstage(d, i, o->chunk);
	int64_t t = o->kind == PIPE_F ? d->f_ready_ns[vs * m + o->mb] : d->b_ready_ns[vs * m + o->mb];
	if (o->paired && t != UNKNOWN_NS) {
		int64_t tb = d->b_ready_ns[vstage(d, i, o->pair_chunk) * m + o->pair_mb];
		if (tb == UNKNOWN_NS || tb > t)
			t = tb;
	}
	return t;
}

/* Run the oldest pending weight gradient of ZB-H1's stage s now. */
static void run_pending_w(struct direct *d, struct dstage *s)
{
	int key = s->w_pending[s->w_head++];
	struct pipeline_sched_op w = { .kind = PIPE_W, .mb = key % d->m, .chunk = (key / d->m) / d->c->p };
	run_op(d, s, &w, s->free_ns);
}

/* Advance stage s until its next input is not known yet, or it is done.
 * When it is free it starts its next operation if that operation's input
 * has arrived, else (ZB-H1) a pending W, else the operation when its input
 * arrives (pipeline.c's try_start at each wake). */
static void advance(struct direct *d, struct dstage *s)
{
	int i = (int)(s - d->st);
	while (!d->declined) {
		if (s->next < s->nops) {
			const struct pipeline_sched_op *o = &s->ops[s->next];
			int64_t t = ready_ns(d, i, o);
			if (t == UNKNOWN_NS)
				return;  /* woken by arrive() */
			if (t > s->free_ns && s->w_head < s->nw) {
				run_pending_w(d, s);
				continue;
			}
			s->next++;
			run_op(d, s, o, t > s->free_ns ? t : s->free_ns);
		} else if (s->w_head < s->nw) {
			run_pending_w(d, s);
		} else
			return;
	}
}

static void result_alloc(struct pipeline_result *r, int p, int P)
{
	r->stage_end_s = xcalloc((size_t)p, sizeof *r->stage_end_s);
	r->stage_busy_s = xcalloc((size_t)p, sizeof *r->stage_busy_s);
	r->grads_final_s = xcalloc((size_t)P, sizeof *r->grads_final_s);
	r->last_grad_op_s = xcalloc((size_t)P, sizeof *r->last_grad_op_s);
	r->span_s = 0;
}

/* Evaluate every stage into d->r; false when declined or (a bug) a stage
 * is left waiting. */
static bool evaluate(struct direct *d)
{
	const struct pipeline_config *c = d->c;
	while (d->nstack > 0 && !d->declined) {
		struct dstage *s = &d->st[d->stack[--d->nstack]];
		s->queued = false;
		advance(d, s);
	}
	if (d->declined)
		return false;
	for (int i = 0; i < c->p; i++) {
		struct dstage *s = &d->st[i];
		if (s->next < s->nops || s->w_head < s->nw)
			return false;
		d->r->stage_end_s[i] = sim_time_to_s(s->free_ns);
		if (d->r->stage_end_s[i] > d->r->span_s)
			d->r->span_s = d->r->stage_end_s[i];
	}
	return true;
}

bool pipeline_direct_run(const struct pipeline_config *c, struct pipeline_result *r)
{
	int p = c->p, P = c->p * c->v, m = c->m, cap = pipeline_stage_ops_max(c);
	struct direct d = { .c = c, .P = P, .m = m, .zb = c->schedule == SCHED_ZB_H1 };
	struct pipeline_result out;
	size_t slots = (size_t)P * m;

	if (pipeline_check(p, c->v, m, c->schedule) != NULL)
		return false;
	result_alloc(&out, p, P);
	d.r = &out;
	d.f_ready_ns = xmalloc(2 * slots * sizeof *d.f_ready_ns);
	d.b_ready_ns = d.f_ready_ns + slots;
	for (size_t k = 0; k < 2 * slots; k++)
		d.f_ready_ns[k] = UNKNOWN_NS;
	for (int mb = 0; mb < m; mb++)
		d.f_ready_ns[mb] = 0;  /* the first virtual stage's inputs are there */
	d.grad_ops_done = xcalloc((size_t)P, sizeof *d.grad_ops_done);
	d.st = xcalloc((size_t)p, sizeof *d.st);
	d.stack = xmalloc((size_t)p * sizeof *d.stack);
	struct pipeline_sched_op *ops = xmalloc((size_t)p * cap * sizeof *ops);
	int *w_block = d.zb ? xmalloc((size_t)p * m * c->v * sizeof *w_block) : NULL;
	for (int i = p - 1; i >= 0; i--) {
		struct dstage *s = &d.st[i];
		s->ops = ops + (size_t)i * cap;
		s->nops = pipeline_stage_ops(c, i, ops + (size_t)i * cap);
		if (w_block != NULL)
			s->w_pending = w_block + (size_t)i * m * c->v;
		s->queued = true;
		d.stack[d.nstack++] = i;  /* stage 0 on top: it has the first inputs */
	}
	bool ok = evaluate(&d);
	if (ok)
		*r = out;
	else
		pipeline_result_release(&out);
	free(w_block);
	free(ops);
	free(d.stack);
	free(d.st);
	free(d.grad_ops_done);
	free(d.f_ready_ns);
	return ok;
}
