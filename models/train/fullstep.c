#include "fullstep.h"

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/comm/collective.h"
#include "models/hw/topology.h"
#include "sim/engine.h"
#include "sim/flow.h"
#include "sim/time.h"
#include "util/container.h"
#include "util/xalloc.h"

struct full_xfer {
	int pipe, from, to, mb;
	bool forward;
	int pending;
	double start_s;
};

struct full_queue {
	struct engine_handler done;   /* first member */
	struct full_sim *fs;
	int stage;
	long *gpus;                   /* the DP group, dp entries */
	int head;                     /* next bucket to run: an index into the stage's list */
	bool busy;
	struct collective_run run;
	double start_s, end_s;
	int running;                  /* the bucket's key while busy */
};

struct full_sim {
	struct engine_handler xfer_done;
	struct engine_handler bucket_ready;
	const struct layer_ctx *x;
	const struct train_plan *p;
	engine *e;
	flow_net *fn;
	struct topology_net tn;
	pipeline_sim *ps;
	int P;
	const struct bucket_chunk *chunks;  /* [P] */
	double act_bytes;             /* per rank per transfer */
	struct full_xfer *xfers;
	size_t nx, capx;
	int *ready_count;             /* [P][max L] replicas that produced the bucket */
	int maxL;
	/* per stage: the buckets in the order they became ready everywhere */
	int **stage_buckets;
	int *stage_nbuckets;
	struct full_queue *queues;    /* [pp][tp cp] */
	int groups;                   /* tp x cp */
	struct timeline *trace;       /* may be NULL: logs replica 0, rank (tp 0, cp 0) */
};

/* Log replica 0's transfer xf, which has just arrived. */
static void log_xfer(const struct full_sim *fs, const struct full_xfer *xf)
{
	const struct train_plan *p = fs->p;
	double now = sim_time_to_s(engine_now(fs->e));
	char name[48];
	if (fs->trace == NULL || xf->pipe != 0 || now <= xf->start_s)
		return;
	snprintf(name, sizeof name, "send %s mb%d vs%d>%d", xf->forward ? "act" : "grad", xf->mb, xf->from, xf->to);
	struct timeline_span *sp = timeline_add(fs->trace, pipeline_stage(p->pp, p->schedule, xf->from), PIPE_STREAM_P2P, "pp_send", name, xf->start_s, now);
	sp->flow_out = pipeline_flow_id(fs->P, p->microbatches, xf->to, xf->mb, xf->forward);
	timeline_span_arg(sp, "micro_batch", xf->mb);
	timeline_span_arg(sp, "virtual_stage", xf->from);
	timeline_span_arg(sp, "to_virtual_stage", xf->to);
	timeline_span_arg(sp, "bytes", fs->act_bytes);
	snprintf(name, sizeof name, "recv %s mb%d vs%d>%d", xf->forward ? "act" : "grad", xf->mb, xf->from, xf->to);
	sp = timeline_add(fs->trace, pipeline_stage(p->pp, p->schedule, xf->to), PIPE_STREAM_P2P, "pp_recv", name, xf->start_s, now);
	timeline_span_arg(sp, "micro_batch", xf->mb);
	timeline_span_arg(sp, "virtual_stage", xf->to);
	timeline_span_arg(sp, "from_virtual_stage", xf->from);
	timeline_span_arg(sp, "bytes", fs->act_bytes);
}

/* GPU of the rank at (tp t, cp c, stage i, replica d). */
static long rank_gpu(const struct layer_ctx *x, int t, int c, int i, int d)
{
	int co[DIM_COUNT];
	co[DIM_TP] = t;
	co[DIM_CP] = c;
	co[DIM_PP] = i;
	co[DIM_DP] = d;
	return placement_gpu(&x->place, co);
}

static void full_send(void *ctx, int pipe, int from, int to, int mb, bool forward)
{
	struct full_sim *fs = ctx;
	const struct train_plan *p = fs->p;
	int si = pipeline_stage(p->pp, p->schedule, from), di = pipeline_stage(p->pp, p->schedule, to);
	fs->xfers = xgrow(fs->xfers, &fs->capx, fs->nx + 1, sizeof *fs->xfers, 1024);
	size_t id = fs->nx++;
	struct full_xfer *xf = &fs->xfers[id];
	xf->pipe = pipe;
	xf->from = from;
	xf->start_s = sim_time_to_s(engine_now(fs->e));
	xf->to = to;
	xf->mb = mb;
	xf->forward = forward;
	xf->pending = 0;
	flow_batch_begin(fs->fn);
	for (int t = 0; t < p->tp; t++)
		for (int c = 0; c < p->cp; c++) {
			long a = rank_gpu(fs->x, t, c, si, pipe), b = rank_gpu(fs->x, t, c, di, pipe);
			flow_link path[FLOW_PATH_MAX];
			double lat = 0;
			if (a == b)
				continue;
			int len = topology_net_path(&fs->tn, a, b, path, &lat);
			/* the same fixed cost as the analytic point-to-point */
			struct collective_group g;
			struct coll_cost cost;
			const char *why;
			bool same = topology_node(&fs->x->topo, a) == topology_node(&fs->x->topo, b);
			collective_group_make(&g, same ? 1 : 2, same ? 2 : 1);
			bool ok = collective_analytic(&fs->x->topo, &g, COLL_SEND_RECV, ALGO_AUTO, fs->act_bytes, &cost, &why);
			assert(ok);  /* a pair across nodes implies a NIC */
			(void)ok;
			(void)lat;
			double latency = cost.latency_s;
			xf->pending++;
			flow_start(fs->fn, path, len, fs->act_bytes, 1.0, sim_time_from_s(latency), &fs->xfer_done, id);
		}
	flow_batch_end(fs->fn);
	if (xf->pending == 0)
		pipeline_sim_delivered(fs->ps, pipe, to, mb, forward);
}

static void full_xfer_done(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct full_sim *fs = container_of(h, struct full_sim, xfer_done);
	struct full_xfer *xf = &fs->xfers[arg];
	(void)e;
	if (--xf->pending == 0) {
		log_xfer(fs, xf);
		pipeline_sim_delivered(fs->ps, xf->pipe, xf->to, xf->mb, xf->forward);
	}
}

static void queue_next(struct full_queue *q);

static void queue_done(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct full_queue *q = container_of(h, struct full_queue, done);
	(void)arg;
	collective_run_release(&q->run);
	q->busy = false;
	q->end_s = sim_time_to_s(engine_now(e));
	if (q->fs->trace != NULL && q == &q->fs->queues[q->stage * q->fs->groups] && q->end_s > q->start_s) {
		const struct bucket_chunk *b = &q->fs->chunks[q->running / q->fs->maxL];
		struct timeline_span *sp = timeline_add(q->fs->trace, q->stage, PIPE_STREAM_COMM, "dp_bucket",
							b->op == COLL_ALL_REDUCE ? "DP all-reduce" : "DP reduce-scatter",
							q->start_s, q->end_s);
		timeline_span_arg(sp, "virtual_stage", q->running / q->fs->maxL);
		timeline_span_arg(sp, "bucket", q->running % q->fs->maxL);
		timeline_span_arg(sp, "bytes", b->bytes);
		timeline_span_arg(sp, "group_ranks", q->fs->p->dp);
	}
	queue_next(q);
}

static void queue_next(struct full_queue *q)
{
	struct full_sim *fs = q->fs;
	if (q->busy || q->head >= fs->stage_nbuckets[q->stage])
		return;
	int key = fs->stage_buckets[q->stage][q->head++];
	const struct bucket_chunk *b = &fs->chunks[key / fs->maxL];
	q->busy = true;
	q->running = key;
	q->start_s = sim_time_to_s(engine_now(fs->e));
	if (collective_run_start(&q->run, &fs->tn, fs->e, fs->fn, q->gpus, fs->p->dp, b->op, &b->cost, b->bytes,
			   &q->done, 0) < 0) {
		q->busy = false;  /* no flow form: nothing to wait for */
		queue_next(q);
	}
}

/* A bucket of virtual stage vs became ready on one replica. */
static void full_bucket_ready(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct full_sim *fs = container_of(h, struct full_sim, bucket_ready);
	int key = (int)arg, vs = key / fs->maxL, stage = pipeline_stage(fs->p->pp, fs->p->schedule, vs);
	(void)e;
	if (++fs->ready_count[key] < fs->p->dp)
		return;
	fs->stage_buckets[stage][fs->stage_nbuckets[stage]++] = key;
	for (int g = 0; g < fs->groups; g++)
		queue_next(&fs->queues[stage * fs->groups + g]);
}

static void full_last_grads(void *ctx, int pipe, int vs, double duration)
{
	struct full_sim *fs = ctx;
	int L = fs->chunks[vs].buckets;
	(void)pipe;
	if (fs->p->dp < 2 || fs->p->zero >= 3 || fs->x->lora)
		return;
	/* each replica's buckets become ready as in bucket.h; the queues start
	 * one once every replica has it */
	for (int j = 0; j < L; j++)
		engine_after(fs->e, sim_time_from_s(bucket_ready_after_s(duration, j, L)), ENGINE_CLASS_AFTER, &fs->bucket_ready,
			     (uint64_t)(vs * fs->maxL + j));
}

/* Everything the run needs, allocated; fs->e, fn, tn and ps included. */
static void full_sim_init(struct full_sim *fs, const struct layer_ctx *x, const struct bucket_chunk *chunks)
{
	const struct train_plan *p = x->p;
	int P = p->pp * p->vpp;

	memset(fs, 0, sizeof *fs);
	fs->xfer_done.fn = full_xfer_done;
	fs->bucket_ready.fn = full_bucket_ready;
	fs->x = x;
	fs->p = p;
	fs->P = P;
	fs->chunks = chunks;
	fs->act_bytes = TRAIN_ACT_BYTES * x->tokens * x->w->model->arch.hidden / p->tp;
	fs->e = engine_new();
	fs->fn = flow_new(fs->e);
	topology_net_build(&fs->tn, &x->topo, fs->fn);
	fs->maxL = 1;
	for (int vs = 0; vs < P; vs++)
		if (chunks[vs].buckets > fs->maxL)
			fs->maxL = chunks[vs].buckets;
	fs->ready_count = xcalloc((size_t)P * fs->maxL, sizeof *fs->ready_count);
	fs->stage_buckets = xcalloc((size_t)p->pp, sizeof *fs->stage_buckets);
	fs->stage_nbuckets = xcalloc((size_t)p->pp, sizeof *fs->stage_nbuckets);
	for (int i = 0; i < p->pp; i++)
		fs->stage_buckets[i] = xcalloc((size_t)P * fs->maxL, sizeof **fs->stage_buckets);
	fs->groups = p->tp * p->cp;
	fs->queues = xcalloc((size_t)p->pp * fs->groups, sizeof *fs->queues);
	for (int i = 0; i < p->pp; i++)
		for (int t = 0; t < p->tp; t++)
			for (int c = 0; c < p->cp; c++) {
				struct full_queue *q = &fs->queues[i * fs->groups + t * p->cp + c];
				q->done.fn = queue_done;
				q->fs = fs;
				q->stage = i;
				q->gpus = xcalloc((size_t)p->dp, sizeof *q->gpus);
				for (int d = 0; d < p->dp; d++)
					q->gpus[d] = rank_gpu(x, t, c, i, d);
			}
}

static void full_sim_release(struct full_sim *fs)
{
	for (int i = 0; i < fs->p->pp; i++) {
		for (int g = 0; g < fs->groups; g++)
			free(fs->queues[i * fs->groups + g].gpus);
		free(fs->stage_buckets[i]);
	}
	pipeline_sim_free(fs->ps);
	topology_net_release(&fs->tn);
	flow_free(fs->fn);
	engine_free(fs->e);
	free(fs->xfers);
	free(fs->ready_count);
	free(fs->stage_buckets);
	free(fs->stage_nbuckets);
	free(fs->queues);
}

/* Replica 0's result with each stage's end, each chunk's final gradients
 * and the span taken as the latest over all replicas. */
static void merge_replicas(const struct full_sim *fs, struct pipeline_result *pr)
{
	const struct train_plan *p = fs->p;
	pipeline_sim_result(fs->ps, 0, pr);
	for (int d = 1; d < p->dp; d++) {
		struct pipeline_result o;
		pipeline_sim_result(fs->ps, d, &o);
		for (int i = 0; i < p->pp; i++) {
			if (o.stage_end_s[i] > pr->stage_end_s[i])
				pr->stage_end_s[i] = o.stage_end_s[i];
		}
		for (int vs = 0; vs < fs->P; vs++)
			if (o.grads_final_s[vs] > pr->grads_final_s[vs])
				pr->grads_final_s[vs] = o.grads_final_s[vs];
		if (o.span_s > pr->span_s)
			pr->span_s = o.span_s;
		pipeline_result_release(&o);
	}
}

void fullstep_run(const struct layer_ctx *x, const struct pipeline_config *pc, const struct bucket_chunk *chunks,
		  struct pipeline_result *pr, double *stage_dp_end_s, struct timeline *trace)
{
	struct full_sim fs;
	const struct train_plan *p = x->p;

	full_sim_init(&fs, x, chunks);
	fs.trace = trace;
	struct pipeline_hooks hooks = { .ctx = &fs, .send = full_send, .last_grads = full_last_grads };
	fs.ps = pipeline_sim_new(fs.e, pc, p->dp, &hooks, trace);
	pipeline_sim_start(fs.ps);
	engine_run(fs.e, SIM_TIME_MAX);

	merge_replicas(&fs, pr);
	/* a stage's data-parallel communication ends with its last group's */
	for (int i = 0; i < p->pp; i++) {
		stage_dp_end_s[i] = 0;
		for (int g = 0; g < fs.groups; g++) {
			const struct full_queue *q = &fs.queues[i * fs.groups + g];
			if (q->end_s > stage_dp_end_s[i])
				stage_dp_end_s[i] = q->end_s;
		}
	}
	full_sim_release(&fs);
}
