/*
 * pipeline: one training step of a pipeline as a task graph on the engine.
 *
 * p stages, each running v model chunks ("virtual stages" vs = c p + i on
 * stage i), m micro-batches. Each stage has a compute stream that runs its
 * operations in schedule order: F (forward), B (backward; with zero-bubble
 * schedules only the input gradient) and W (weight gradient, zero-bubble
 * only). An operation starts when the stage is free and its input has
 * arrived: F(mb, vs) needs F(mb, vs-1) plus the activation transfer, B(mb,
 * vs) needs B(mb, vs+1) plus the gradient transfer (the last virtual stage
 * needs its own F). Schedules: GPipe, 1F1B, interleaved 1F1B (Megatron's
 * order) and ZB-H1 (1F1B order with B split from W; a stage runs a
 * pending W whenever its next F or B is not ready, and the rest at the end:
 * with F = B = W this gives the third of 1F1B's bubble of Qi et al.) and
 * DualPipeV (below).
 * A stage decides what to run only after every completion and arrival of
 * that instant, so simultaneous events do not look like waits. Transfers do not occupy the compute
 * stream. A trace gets every operation, and the transfers when the
 * pipeline times them itself (no send hook), linked by flow ids. Durations are given per virtual stage; the result gives per
 * stage busy time, when each chunk's gradients became final, and the span.
 */
#ifndef CLUSTERSIM_MODELS_PIPELINE_H
#define CLUSTERSIM_MODELS_PIPELINE_H

#include "models/train/train_types.h"
#include "sim/engine.h"
#include "sim/timeline.h"

enum pipeline_op { PIPE_F, PIPE_B, PIPE_W };

/*
 * DualPipeV (deepseek-ai/DualPipe, dualpipev.py; Sea AI Lab's "cut-in-half"
 * of DeepSeek-V3's DualPipe): p stages of two chunks each in a V, chunk 0
 * of stage i is virtual stage i and chunk 1 is 2p - 1 - i, so the first
 * stage holds the first and the last virtual stage. Its order on stage i
 * runs eight steps; in the main one a forward of one chunk and a whole
 * backward of the other run as one overlapped operation (F&B), and at the
 * ends some backwards put their weight gradient off to a later W. With
 * F = B = W (B the input gradient) the bubble is (p - 1)(F&B + B - 3W)
 * with the whole backward for B, the README's (PP/2 - 1)(...) for PP = 2p
 * virtual stages, and every stage holds at most 2p + 1 chunk-micro-batches
 * of activations. It needs m >= 2p.
 */
int pipeline_vstage(int p, enum schedule_kind s, int stage, int chunk);
int pipeline_stage(int p, enum schedule_kind s, int vs);
int pipeline_chunk(int p, enum schedule_kind s, int vs);

/* Whether the schedule takes the backward as input and weight gradients
 * apart (b_s the input gradient, w_s the weight gradient). */
bool pipeline_splits_backward(enum schedule_kind s);

struct pipeline_step {
	enum pipeline_op kind;
	int chunk;
	bool split;      /* a B whose weight gradient is a later W */
	bool paired;     /* an F overlapped with the whole backward of pair_chunk */
	int pair_chunk;
};
#define PIPELINE_DUALPIPEV_MAX_STEPS(m) (6 * (m))

/* DualPipeV's order on stage i of p for m micro-batches into out (room for
 * PIPELINE_DUALPIPEV_MAX_STEPS(m)); returns the number of steps. */
int pipeline_dualpipev_order(int p, int i, int m, struct pipeline_step *out);


struct pipeline_config {
	int p, v, m;
	enum schedule_kind schedule;
	const double *f_s;        /* [p v] forward time of one micro-batch on virtual stage vs */
	const double *b_s;        /* [p v] backward (input gradient only for ZB-H1 and DualPipeV) */
	const double *w_s;        /* [p v] weight gradient (ZB-H1 and DualPipeV only; else NULL) */
	const double *send_f_s;   /* [p v] transfer vs -> vs+1 (last entry unused) */
	const double *send_b_s;   /* [p v] transfer vs+1 -> vs */
	const double *send_bytes; /* [p v] bytes per GPU of each transfer vs -> vs+1, for traces (may be NULL) */
};

/* An operation of a stage's order. DualPipeV's B is the whole backward
 * (input and weight gradients) unless `split` (its weight gradient is a
 * later W), and `paired` runs this F with the backward (pair_mb,
 * pair_chunk) as one overlapped operation: it starts when both inputs are
 * there and both results leave when it ends. ZB-H1's W operations are not
 * in the order: a stage runs them where it would wait (pipeline.h's top). */
struct pipeline_sched_op {
	enum pipeline_op kind;
	int mb;
	int chunk;
	bool split;
	bool paired;
	int pair_mb, pair_chunk;
};

/* Room pipeline_stage_ops needs for one stage of c. */
static inline int pipeline_stage_ops_max(const struct pipeline_config *c)
{
	int fb = 2 * c->m * c->v, dual = PIPELINE_DUALPIPEV_MAX_STEPS(c->m);
	return fb > dual ? fb : dual;
}

/* Stage `stage`'s operations of c in schedule order into out (room for
 * pipeline_stage_ops_max(c)); returns how many. */
int pipeline_stage_ops(const struct pipeline_config *c, int stage, struct pipeline_sched_op *out);

/* The same order one operation at a time, for every schedule but
 * DualPipeV: start, then next until it returns false. */
struct pipeline_order {
	const struct pipeline_config *c;
	int total, warmup, nf, nb;
	bool backward_due;
};
void pipeline_order_start(struct pipeline_order *o, const struct pipeline_config *c, int stage);

/* The x-th forward (backward: forward false) of a stage in schedule
 * order: Megatron's interleaving takes micro-batches in groups of p,
 * chunk by chunk. */
static inline struct pipeline_sched_op pipeline_order_nth(const struct pipeline_config *c, int x, bool forward)
{
	struct pipeline_sched_op o = { .kind = forward ? PIPE_F : PIPE_B };
	int p = c->p, v = c->v;
	if (c->schedule == SCHED_INTERLEAVED && v > 1) {
		int group = x / (p * v), within = x % (p * v);
		o.chunk = forward ? within / p : v - 1 - within / p;
		o.mb = group * p + within % p;
	} else {
		o.mb = x;
	}
	return o;
}

/* The warm-up's forwards, then a forward and a backward in turn while
 * forwards are left, then the backwards left. Inline: the direct
 * evaluation asks for every operation of a step. */
static inline bool pipeline_order_next(struct pipeline_order *o, struct pipeline_sched_op *out)
{
	if (o->nf < o->warmup) {
		*out = pipeline_order_nth(o->c, o->nf++, true);
		return true;
	}
	if (o->nb >= o->total)
		return false;
	if (!o->backward_due && o->nf < o->total) {
		o->backward_due = true;
		*out = pipeline_order_nth(o->c, o->nf++, true);
		return true;
	}
	o->backward_due = false;
	*out = pipeline_order_nth(o->c, o->nb++, false);
	return true;
}

/* The streams of a stage in a trace: operations (with what runs on their
 * critical path nested inside), data-parallel collectives, point-to-point
 * transfers between stages. */
enum pipeline_stream { PIPE_STREAM_COMPUTE, PIPE_STREAM_COMM, PIPE_STREAM_P2P };

/* A traced operation's span has tag pipeline_op + 1 and its micro-batch and
 * virtual stage as args "micro_batch" and "virtual_stage". */
enum { PIPE_TAG_BASE = 1 };

/* The flow id (> 0) that links the transfer of micro-batch mb into virtual
 * stage `to` (forward: activations, else gradients) to the operation that
 * consumes it, in a pipeline of P virtual stages and m micro-batches. */
long pipeline_flow_id(int P, int m, int to, int mb, bool forward);

struct pipeline_result {
	double span_s;             /* last compute op end over all stages */
	double *stage_end_s;       /* [p] last compute op end */
	double *stage_busy_s;      /* [p] compute busy time */
	double *grads_final_s;     /* [p v] when vs's last B (or W) ended */
	double *last_grad_op_s;    /* [p v] duration of that last op */
};

/*
 * Several pipelines on one engine, with the transfers and the gradient
 * reductions left to the caller (training's full mode runs them as flows).
 */
struct pipeline_hooks {
	void *ctx;
	/* Start moving micro-batch mb's activations (forward) or gradients from
	 * virtual stage `from` to `to` of pipeline `pipe`; when they have
	 * arrived, call pipeline_sim_delivered(). */
	void (*send)(void *ctx, int pipe, int from, int to, int mb, bool forward);
	/* The last operation producing virtual stage vs's gradients has just
	 * started and takes `duration_s` (may be NULL). */
	void (*last_grads)(void *ctx, int pipe, int vs, double duration_s);
};

typedef struct pipeline_sim pipeline_sim;

/* New simulation of `pipelines` copies of c on engine e (borrowed); trace
 * (may be NULL) logs pipeline 0. Caller frees with pipeline_sim_free(). */
pipeline_sim *pipeline_sim_new(engine *e, const struct pipeline_config *c, int pipelines,
		       const struct pipeline_hooks *hooks, struct timeline *trace);
void pipeline_sim_free(pipeline_sim *s);

/* Schedule the first operations (at the engine's current time). */
void pipeline_sim_start(pipeline_sim *s);

/* A transfer started by hooks->send has arrived: its input is there now. */
void pipeline_sim_delivered(pipeline_sim *s, int pipe, int to, int mb, bool forward);

/* Results of one pipeline after the engine has run (arrays allocated). */
void pipeline_sim_result(const pipeline_sim *s, int pipe, struct pipeline_result *r);

/* Check p, v, m and schedule fit together; returns NULL or why not. */
const char *pipeline_check(int p, int v, int m, enum schedule_kind s);

/* Simulate on the event engine; result arrays are allocated here (release
 * with pipeline_result_release). When trace is not NULL every operation is
 * logged. pipeline_direct.h gives the same times without the engine. */
void pipeline_run(const struct pipeline_config *c, struct pipeline_result *r, struct timeline *trace);
void pipeline_result_release(struct pipeline_result *r);

#endif
