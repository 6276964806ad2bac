#include "pipeline_direct.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/time.h"
#include "util/xalloc.h"

/* Not known yet: the operation producing this input has not been evaluated. */
#define UNKNOWN_NS (-1)

/* Times stay under 4e6 s: below 2^22 s the gap between two nanoseconds
 * (1e-9) exceeds a double's spacing, so ns x 1e-9 is strictly increasing
 * and comparing seconds (as pipeline.c does) is comparing nanoseconds. */
static const int64_t LIMIT_NS = INT64_C(4000000000000000);

/* A kind of operation of one stage (5 v + v v at most: F, B, B with its
 * weight gradient put off, W per chunk, and a pair per two chunks): its
 * time in seconds, as pipeline.c's op_time sums it, and on the clock,
 * where its inputs arrive (a pair's two), and the one or two operations
 * (a pair's F then its B) whose results leave at its end: to which
 * arrival slots (indexed by micro-batch), after which transfer. */
struct part {
	int64_t *out;              /* NULL: nothing leaves (a W, the first virtual stage's B) */
	int64_t send_ns;
	int out_stage;             /* the stage that takes it */
	int vs;
	bool grads;                /* produces the gradients of vs */
	bool defers_w;             /* ZB-H1's B: its W is run later */
};
struct kind {
	double dur_s;
	int64_t dur_ns;
	const int64_t *in, *in_pair;  /* arrival slots; in NULL: a W, always ready */
	struct part part[2];
	int nparts;
};

struct dstage {
	struct kind *kinds;        /* [5 v + v v] */
	struct pipeline_order order;            /* every schedule but DualPipeV */
	const struct pipeline_sched_op *ops;    /* DualPipeV: [nops] */
	int nops, next;
	struct pipeline_sched_op cur;           /* the next operation, if has_cur */
	const struct kind *cur_kind;            /* its kind */
	bool has_cur, done;
	int64_t free_ns;           /* when its last operation ends */
	int *w_pending;            /* ZB-H1: vs m + mb of the W operations not run yet */
	int nw, w_head;
	bool queued;               /* on the stack of stages to advance */
};

struct direct {
	const struct pipeline_config *c;
	int P, m, v;
	bool zb;
	int64_t *f_ready_ns, *b_ready_ns;  /* [P m] input arrival of F(mb, vs), B(mb, vs); UNKNOWN_NS */
	int64_t *send_f_ns, *send_b_ns;    /* [P] the transfers on the clock */
	int *stage_of;                     /* [P] */
	int *grad_ops_done;                /* [P] */
	struct dstage *st;
	int *stack, nstack;
	struct pipeline_result *r;
	bool declined;                     /* a time outside what the equality rests on */
};

/* pipeline.c's op_time: the same expression, so the same double. */
static double op_time(const struct pipeline_config *c, enum pipeline_op kind, bool split, int vs)
{
	switch (kind) {
	case PIPE_F: return c->f_s[vs];
	case PIPE_B: return c->b_s[vs] + (c->schedule == SCHED_DUALPIPEV && !split ? c->w_s[vs] : 0);
	case PIPE_W: return c->w_s[vs];
	}
	return 0;
}

/* pipeline.c's produces_grads. */
static bool produces_grads(enum schedule_kind s, enum pipeline_op kind, bool split)
{
	switch (s) {
	case SCHED_ZB_H1: return kind == PIPE_W;
	case SCHED_DUALPIPEV: return kind == PIPE_W || (kind == PIPE_B && !split);
	default: return kind == PIPE_B;
	}
}

/* The operation (kind, chunk, split) of stage `stage`: where it sends. */
static struct part make_part(const struct direct *d, int stage, enum pipeline_op kind, int chunk, bool split)
{
	const struct pipeline_config *c = d->c;
	int vs = pipeline_vstage(c->p, c->schedule, stage, chunk), m = d->m;
	struct part q = { .vs = vs, .grads = produces_grads(c->schedule, kind, split) };
	if (kind == PIPE_F && vs + 1 < d->P) {
		q.out = d->f_ready_ns + (size_t)(vs + 1) * m;
		q.send_ns = d->send_f_ns[vs];
		q.out_stage = d->stage_of[vs + 1];
	} else if (kind == PIPE_F) {
		/* the last virtual stage's backward takes its own forward's output */
		q.out = d->b_ready_ns + (size_t)vs * m;
		q.out_stage = stage;
	} else if (kind == PIPE_B && vs > 0) {
		q.out = d->b_ready_ns + (size_t)(vs - 1) * m;
		q.send_ns = d->send_b_ns[vs - 1];
		q.out_stage = d->stage_of[vs - 1];
	}
	q.defers_w = kind == PIPE_B && c->schedule == SCHED_ZB_H1;
	return q;
}

/* A kind of one operation (kind, chunk, split) of stage `stage`. */
static struct kind make_kind(const struct direct *d, int stage, enum pipeline_op kind, int chunk, bool split)
{
	const struct pipeline_config *c = d->c;
	int vs = pipeline_vstage(c->p, c->schedule, stage, chunk);
	struct kind k = { .dur_s = op_time(c, kind, split, vs), .nparts = 1,
			  .part = { make_part(d, stage, kind, chunk, split) } };
	if (kind != PIPE_W)
		k.in = (kind == PIPE_F ? d->f_ready_ns : d->b_ready_ns) + (size_t)vs * d->m;
	return k;
}

/* Index of o's kind in a stage's table. */
static int kind_index(const struct direct *d, const struct pipeline_sched_op *o)
{
	if (o->paired)
		return 5 * d->v + o->chunk * d->v + o->pair_chunk;
	switch (o->kind) {
	case PIPE_F: return 5 * o->chunk;
	case PIPE_B: return 5 * o->chunk + (o->split ? 2 : 1);
	case PIPE_W: return 5 * o->chunk + 3;
	}
	return 0;
}

/* Stage i's table of kinds (W only where the schedule has weight
 * gradients apart, pairs only in DualPipeV). */
static void kinds_init(const struct direct *d, int i, struct kind *t)
{
	const struct pipeline_config *c = d->c;
	int v = d->v;
	for (int ch = 0; ch < v; ch++) {
		struct kind *k = &t[5 * ch];
		k[0] = make_kind(d, i, PIPE_F, ch, false);
		k[1] = make_kind(d, i, PIPE_B, ch, false);
		if (c->w_s == NULL)
			continue;
		k[2] = make_kind(d, i, PIPE_B, ch, true);
		k[3] = make_kind(d, i, PIPE_W, ch, false);
	}
	if (c->schedule == SCHED_DUALPIPEV)
		for (int ch = 0; ch < v; ch++)
			for (int pc = 0; pc < v; pc++) {
				/* pipeline.c's start_op: the F's time, plus its pair's whole backward */
				int vs = pipeline_vstage(c->p, c->schedule, i, ch);
				int bvs = pipeline_vstage(c->p, c->schedule, i, pc);
				double dur = op_time(c, PIPE_F, false, vs);
				dur += op_time(c, PIPE_B, false, bvs);
				struct kind *k = &t[5 * v + ch * v + pc];
				*k = make_kind(d, i, PIPE_F, ch, false);
				k->dur_s = dur;
				k->in_pair = d->b_ready_ns + (size_t)bvs * d->m;
				k->part[1] = make_part(d, i, PIPE_B, pc, false);
				k->nparts = 2;
			}
	for (int k = 0; k < 5 * v + v * v; k++)
		t[k].dur_ns = sim_time_from_s(t[k].dur_s);
}

/* An input of stage `stage` arrives at t (on its slot): wake the stage if
 * it waits; declined past LIMIT_NS. */
static void arrive(struct direct *d, int64_t *slot, int stage, int64_t t)
{
	struct dstage *s = &d->st[stage];
	if (t >= LIMIT_NS)
		d->declined = true;
	*slot = t;
	if (!s->queued) {
		s->queued = true;
		d->stack[d->nstack++] = (int)(s - d->st);
	}
}

/* pipeline.c's finish_op without the trace: what part q (of micro-batch
 * mb, run from start to end) produced leaves at its end. */
static void finish(struct direct *d, struct dstage *s, const struct part *q, int mb, int64_t start, int64_t end)
{
	int m = d->m, vs = q->vs;
	if (q->out != NULL)
		arrive(d, &q->out[mb], q->out_stage, end + q->send_ns);
	if (q->defers_w)
		s->w_pending[s->nw++] = vs * m + mb;
	if (q->grads && ++d->grad_ops_done[vs] == m) {
		double end_s = sim_time_to_s(end);
		d->r->grads_final_s[vs] = end_s;
		d->r->last_grad_op_s[vs] = end_s - sim_time_to_s(start);
	}
}

/* pipeline.c's start_op and op_done: o, of kind k, runs on stage s from t. */
static void run_op(struct direct *d, struct dstage *s, const struct pipeline_sched_op *o, const struct kind *k,
		   int64_t t)
{
	int64_t end = t + k->dur_ns;
	if ((k->dur_ns < 1 && d->zb && k->in != NULL) || k->dur_ns >= LIMIT_NS || end >= LIMIT_NS) {
		/* ZB-H1 with an F or B within one instant (pipeline_direct.h), or
		 * past the limit */
		d->declined = true;
		return;
	}
	d->r->stage_busy_s[s - d->st] += k->dur_s;
	s->free_ns = end;
	finish(d, s, &k->part[0], o->mb, t, end);
	if (k->nparts == 2)
		finish(d, s, &k->part[1], o->pair_mb, t, end);
}

/* When the input of o of kind k (both, for a pair) arrives, or UNKNOWN_NS. */
static int64_t ready_ns(const struct pipeline_sched_op *o, const struct kind *k)
{
	if (k->in == NULL)
		return 0;
	int64_t t = k->in[o->mb];
	if (k->in_pair != NULL && t != UNKNOWN_NS) {
		int64_t tb = k->in_pair[o->pair_mb];
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
	run_op(d, s, &w, &s->kinds[kind_index(d, &w)], s->free_ns);
}

/* Stage s's next operation into s->cur (its kind into s->cur_kind);
 * false when it has none left. */
static bool peek(const struct direct *d, struct dstage *s)
{
	if (s->has_cur)
		return true;
	if (s->ops != NULL) {
		if (s->next < s->nops) {
			s->cur = s->ops[s->next++];
			s->has_cur = true;
		}
	} else
		s->has_cur = pipeline_order_next(&s->order, &s->cur);
	if (s->has_cur)
		s->cur_kind = &s->kinds[kind_index(d, &s->cur)];
	return s->has_cur;
}

/* Advance stage s until its next input is not known yet, or it is done.
 * When it is free it starts its next operation if that operation's input
 * has arrived, else (ZB-H1) a pending W, else the operation when its input
 * arrives (pipeline.c's try_start at each wake). */
static void advance(struct direct *d, struct dstage *s)
{
	while (!d->declined) {
		if (peek(d, s)) {
			int64_t t = ready_ns(&s->cur, s->cur_kind);
			if (t == UNKNOWN_NS)
				return;  /* woken by arrive() */
			if (t > s->free_ns && s->w_head < s->nw) {
				run_pending_w(d, s);
				continue;
			}
			s->has_cur = false;
			run_op(d, s, &s->cur, s->cur_kind, t > s->free_ns ? t : s->free_ns);
		} else if (s->w_head < s->nw) {
			run_pending_w(d, s);
		} else {
			s->done = true;
			return;
		}
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
		if (!d->st[i].done)
			return false;
		d->r->stage_end_s[i] = sim_time_to_s(d->st[i].free_ns);
		if (d->r->stage_end_s[i] > d->r->span_s)
			d->r->span_s = d->r->stage_end_s[i];
	}
	return true;
}

/* The transfers on the clock, and each virtual stage's stage; false when a
 * transfer is past the limit. */
static bool links_init(struct direct *d)
{
	const struct pipeline_config *c = d->c;
	for (int vs = 0; vs < d->P; vs++) {
		d->stage_of[vs] = pipeline_stage(c->p, c->schedule, vs);
		if (vs + 1 < d->P) {
			d->send_f_ns[vs] = sim_time_from_s(c->send_f_s[vs]);
			d->send_b_ns[vs] = sim_time_from_s(c->send_b_s[vs]);
			if (d->send_f_ns[vs] >= LIMIT_NS || d->send_b_ns[vs] >= LIMIT_NS)
				return false;
		}
	}
	return true;
}

bool pipeline_direct_run(const struct pipeline_config *c, struct pipeline_result *r)
{
	int p = c->p, v = c->v, P = c->p * c->v, m = c->m, nkinds = 5 * v + v * v;
	bool dual = c->schedule == SCHED_DUALPIPEV, zb = c->schedule == SCHED_ZB_H1;
	struct direct d = { .c = c, .P = P, .m = m, .v = v, .zb = zb };
	struct pipeline_result out;
	size_t slots = (size_t)P * m;
	int cap = dual ? pipeline_stage_ops_max(c) : 0;

	assert(!pipeline_splits_backward(c->schedule) || c->w_s != NULL);
	if (pipeline_check(p, v, m, c->schedule) != NULL)
		return false;
	result_alloc(&out, p, P);
	d.r = &out;
	d.f_ready_ns = xmalloc((2 * slots + 2 * (size_t)P) * sizeof *d.f_ready_ns);
	d.b_ready_ns = d.f_ready_ns + slots;
	d.send_f_ns = d.b_ready_ns + slots;
	d.send_b_ns = d.send_f_ns + P;
	memset(d.f_ready_ns, 0xff, 2 * slots * sizeof *d.f_ready_ns);  /* UNKNOWN_NS */
	for (int mb = 0; mb < m; mb++)
		d.f_ready_ns[mb] = 0;  /* the first virtual stage's inputs are there */
	d.stage_of = xmalloc((size_t)P * sizeof *d.stage_of);
	d.grad_ops_done = xcalloc((size_t)P, sizeof *d.grad_ops_done);
	d.st = xcalloc((size_t)p, sizeof *d.st);
	d.stack = xmalloc((size_t)p * sizeof *d.stack);
	struct kind *kinds = xcalloc((size_t)p * nkinds, sizeof *kinds);
	struct pipeline_sched_op *ops = dual ? xmalloc((size_t)p * cap * sizeof *ops) : NULL;
	int *w_block = zb ? xmalloc((size_t)p * m * v * sizeof *w_block) : NULL;
	bool ok = links_init(&d);
	for (int i = p - 1; i >= 0 && ok; i--) {
		struct dstage *s = &d.st[i];
		s->kinds = kinds + (size_t)i * nkinds;
		kinds_init(&d, i, s->kinds);
		if (dual) {
			s->ops = ops + (size_t)i * cap;
			s->nops = pipeline_stage_ops(c, i, ops + (size_t)i * cap);
		} else
			pipeline_order_start(&s->order, c, i);
		if (w_block != NULL)
			s->w_pending = w_block + (size_t)i * m * v;
		s->queued = true;
		d.stack[d.nstack++] = i;  /* stage 0 on top: it has the first inputs */
	}
	ok = ok && evaluate(&d);
	if (ok)
		*r = out;
	else
		pipeline_result_release(&out);
	free(w_block);
	free(ops);
	free(kinds);
	free(d.stack);
	free(d.st);
	free(d.grad_ops_done);
	free(d.stage_of);
	free(d.f_ready_ns);
	return ok;
}
