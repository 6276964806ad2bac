#include "step.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/kernel/roofline.h"
#include "models/kernel/transformer.h"
#include "models/train/bucket.h"
#include "models/train/fullstep.h"
#include "models/train/layer.h"
#include "models/train/memory.h"
#include "models/train/parallel.h"
#include "models/train/pipeline.h"
#include "models/train/pipeline_direct.h"
#include "models/train/step_head.h"
#include "models/train/step_trace.h"
#include "models/train/straggler.h"
#include "sim/timeline.h"
#include "util/text.h"
#include "util/xalloc.h"

/* Adam's HBM traffic per parameter: read and write master, m, v (24, 16
 * with bf16 moments: twice the optimizer bytes), read the gradient (2-4),
 * write the bf16 weight (2). */
static double adam_traffic_bytes(const struct train_plan *p)
{
	return 2 * p->optimizer_bytes + 6;
}

/* What the pipeline needs per virtual stage, and per stage the
 * critical-path communication of one micro-batch summed over its chunks. */
struct stage_inputs {
	int P;                 /* virtual stages */
	double *f_s, *b_s, *w_s;           /* [P] forward, backward (input grads for ZB-H1), weight grads */
	double *send_f_s, *send_b_s;       /* [P] transfers to and from the next virtual stage */
	double *send_bytes;                /* [P] bytes per GPU of each transfer */
	double *params;                    /* [P] parameters on one GPU */
	int *layers;                       /* [P] */
	double *tp_s, *ep_s, *cp_s;        /* [pp] */
	double *z3_s;                      /* [pp] exposed ZeRO-3 gathers and reduce-scatters */
	double *block;                     /* every double array above, freed at once */
};

/* What follows a stage's last compute operation. */
struct stage_tail {
	double total_s;   /* when the stage is done with the step */
	double dp_s;      /* data-parallel communication not hidden */
	double opt_s;     /* the optimizer */
};

/* Seconds of a point-to-point transfer of `bytes` from GPU a to GPU b, with
 * every tensor-parallel rank sending its share at once. */
static double p2p_s(const struct layer_ctx *x, long a, long b, double bytes)
{
	struct collective_group g;
	bool same = topology_node(&x->topo, a) == topology_node(&x->topo, b);
	struct coll_cost cost;
	const char *why;
	if (a == b || bytes <= 0)
		return 0;
	collective_group_make(&g, same ? 1 : 2, same ? 2 : 1);
	bool ok = collective_analytic(&x->topo, &g, COLL_SEND_RECV, ALGO_AUTO, bytes, &cost, &why);
	assert(ok);  /* a pair across nodes implies a NIC: the scenario reader checks it */
	(void)ok;
	if (!same && x->topo.has_nic) {
		/* all TP ranks of the stage send at once: each gets its NIC share */
		double share = x->topo.rail.bw_bytes_per_s * x->topo.rails / x->topo.gpus_per_node * x->topo.rail.efficiency;
		double whole = x->topo.rail.bw_bytes_per_s * x->topo.rail.efficiency;
		cost.time_s = cost.latency_s + cost.transfer_s * whole / share;
	}
	return cost.time_s;
}

/* GPU of (tp 0, cp 0, pipeline stage i, dp 0). */
static long stage_gpu(const struct layer_ctx *x, int i)
{
	int c[DIM_COUNT] = { 0, 0, 0, 0 };
	c[DIM_PP] = i;
	return placement_gpu(&x->place, c);
}

/* Memory per GPU into r->mem; status OOM with the numbers when it does not fit. */
static void check_memory(const struct layer_ctx *x, struct train_result *r)
{
	double have = x->c->gpu.memory_bytes;
	memory_per_gpu(x->w, x->p, &r->mem);
	if (r->mem.total > have) {
		outcome_set(&r->outcome, OUTCOME_OOM, "needs %.1f GB per GPU (weights %.1f, grads %.1f, optimizer %.1f, activations %.1f, workspace %.1f) of %.1f",
			 r->mem.total / 1e9, r->mem.weights / 1e9, r->mem.grads / 1e9, r->mem.optimizer / 1e9,
			 r->mem.activations / 1e9, r->mem.workspace / 1e9, have / 1e9);
	}
}

/* ZeRO-3: gather each layer's weights before its forward and backward
 * (prefetched behind the previous layer) and reduce-scatter its gradients
 * after its backward, every micro-batch. Seconds added per layer to the
 * forward (*f_s) and the backward (*b_s). */
static void zero3_per_layer(const struct layer_ctx *x, const struct collective_group *dpg,
			    const struct layer_time *dense, double *f_s, double *b_s)
{
	const struct model_spec *m = &x->w->model->arch;
	const struct train_plan *p = x->p;
	*f_s = *b_s = 0;
	if (p->zero < 3 || dpg->n < 2)
		return;
	double layer_params = transformer_layer_params(m, m->experts > 0, true) / p->tp;
	double ag = layer_coll_s(x, dpg, COLL_ALL_GATHER, TRAIN_WEIGHT_BYTES * layer_params);
	/* gradients are reduced in the plan's gradient precision (fp32 by default) */
	double rs = layer_coll_s(x, dpg, COLL_REDUCE_SCATTER, p->grad_bytes * layer_params);
	*f_s = layer_overlap_s(x, ag, dense->fwd);
	double bwd = dense->bwd_input + dense->bwd_weight + dense->recompute;
	*b_s = layer_overlap_s(x, ag + rs, bwd);
}

static void stage_inputs_init(struct stage_inputs *in, const struct train_plan *p)
{
	int P = p->pp * p->vpp;
	in->P = P;
	in->block = xcalloc((size_t)(7 * P + 4 * p->pp), sizeof *in->block);
	in->f_s = in->block;
	in->b_s = in->f_s + P;
	in->w_s = in->b_s + P;
	in->send_f_s = in->w_s + P;
	in->send_b_s = in->send_f_s + P;
	in->send_bytes = in->send_b_s + P;
	in->params = in->send_bytes + P;
	in->tp_s = in->params + P;
	in->ep_s = in->tp_s + p->pp;
	in->cp_s = in->ep_s + p->pp;
	in->z3_s = in->cp_s + p->pp;
	in->layers = xcalloc((size_t)P, sizeof *in->layers);
}

static void stage_inputs_release(struct stage_inputs *in)
{
	free(in->block);
	free(in->layers);
}

/* Virtual stage vs's times from the dense (D) and MoE (E) layer costs plus
 * z3_f / z3_b per layer: its layers, the embedding on the first, the output
 * projection and loss on the last, the transfers to the next. */
static void fill_vstage(struct stage_inputs *in, const struct layer_ctx *x, int vs, const struct layer_time *D,
			const struct layer_time *E, double z3_f, double z3_b)
{
	const struct model_spec *m = &x->w->model->arch;
	const struct train_plan *p = x->p;
	int P = in->P, stage = pipeline_stage(p->pp, p->schedule, vs);
	int first, count, dense, moe;

	parallel_vstage_layers(p, m->layers, P, vs, &first, &count);
	parallel_layer_mix(m, first, count, &dense, &moe);
	/* the MTP modules' layers are like the last decoder layer */
	int mtp = parallel_vstage_mtp(m, p, vs, P);
	if (m->experts > 0)
		moe += mtp;
	else
		dense += mtp;
	count += mtp;
	in->layers[vs] = count;
	in->params[vs] = parallel_vstage_params(m, p, vs, P);
	double fwd = dense * (D->fwd + D->tp_fwd + D->ep_fwd + D->cp_fwd + z3_f) +
		     moe * (E->fwd + E->tp_fwd + E->ep_fwd + E->cp_fwd + z3_f);
	double bin = dense * (D->bwd_input + D->recompute + D->tp_bwd + D->ep_bwd + D->cp_bwd + z3_b) +
		     moe * (E->bwd_input + E->recompute + E->tp_bwd + E->ep_bwd + E->cp_bwd + z3_b);
	double bw = dense * D->bwd_weight + moe * E->bwd_weight;
	in->tp_s[stage] += dense * (D->tp_fwd + D->tp_bwd) + moe * (E->tp_fwd + E->tp_bwd);
	in->ep_s[stage] += dense * (D->ep_fwd + D->ep_bwd) + moe * (E->ep_fwd + E->ep_bwd);
	in->cp_s[stage] += dense * (D->cp_fwd + D->cp_bwd) + moe * (E->cp_fwd + E->cp_bwd);
	in->z3_s[stage] += count * (z3_f + z3_b);
	if (vs == 0)
		fwd += roofline_memory_s(&x->k, TRAIN_ACT_BYTES * x->tokens * m->hidden * 2, 1);  /* embedding */
	if (vs == P - 1) {
		/* output projection and the loss (fp32 softmax over V / t) */
		fwd += step_head_logits_s(x, PIPE_F) + step_head_loss_s(x, PIPE_F);
		bin += step_head_logits_s(x, PIPE_B) + step_head_loss_s(x, PIPE_B);
		bw += step_head_logits_s(x, PIPE_W);
	}
	fwd += mtp * step_head_mtp_s(x, PIPE_F);
	bin += mtp * step_head_mtp_s(x, PIPE_B);
	bw += mtp * step_head_mtp_s(x, PIPE_W);
	in->f_s[vs] = fwd;
	if (pipeline_splits_backward(p->schedule)) {
		in->b_s[vs] = bin;
		in->w_s[vs] = bw;
	} else {
		in->b_s[vs] = bin + bw;
	}
	/* activations and their gradients to the next virtual stage */
	if (vs + 1 < P) {
		double bytes = TRAIN_ACT_BYTES * x->tokens * m->hidden / p->tp;
		int next = pipeline_stage(p->pp, p->schedule, vs + 1);
		long a = stage_gpu(x, stage), b = stage_gpu(x, next);
		if (next != stage) {  /* DualPipeV's turn of the V stays on its stage */
			in->send_bytes[vs] = bytes;
			in->send_f_s[vs] = p2p_s(x, a, b, bytes);
			in->send_b_s[vs] = in->send_f_s[vs];  /* p2p_s(x, b, a, bytes): symmetric in a and b */
		}
	}
}

/* The busiest stage's own kernel time over the step: a lower bound on it. */
static double busiest_stage_s(const struct stage_inputs *in, const struct train_plan *p)
{
	bool zb = pipeline_splits_backward(p->schedule);
	double bound = 0;
	for (int i = 0; i < p->pp; i++) {
		double busy = 0;
		for (int ch = 0; ch < p->vpp; ch++) {
			int vs = pipeline_vstage(p->pp, p->schedule, i, ch);
			busy += in->f_s[vs] + in->b_s[vs] + (zb ? in->w_s[vs] : 0);
		}
		busy *= p->microbatches;
		if (busy > bound)
			bound = busy;
	}
	return bound;
}

/* busiest_stage_s with the pipeline's fill and drain: every operation of
 * a micro-batch on stage i's first virtual stage v waits for its forward
 * through virtual stages 0..v-1 (on other stages), and the stage's last
 * backward is followed by the backwards of those; so the step takes at
 * least that forward, stage i's own work and that backward (without the
 * weight-gradient split, whose last operation may be a W with nothing
 * after it). Transfers only add. DualPipeV feeds micro-batches from
 * both ends: only the busiest stage's own work bounds it. */
static double filled_stage_s(const struct stage_inputs *in, const struct train_plan *p)
{
	bool zb = pipeline_splits_backward(p->schedule);
	double bound = busiest_stage_s(in, p);
	if (p->schedule == SCHED_DUALPIPEV)
		return bound;
	double head = 0, tail = 0;  /* through virtual stages 0..i-1 */
	for (int i = 0; i < p->pp; i++) {
		double busy = 0;
		int first = in->P;
		for (int ch = 0; ch < p->vpp; ch++) {
			int vs = pipeline_vstage(p->pp, p->schedule, i, ch);
			busy += in->f_s[vs] + in->b_s[vs] + (zb ? in->w_s[vs] : 0);
			if (vs < first)
				first = vs;
		}
		busy *= p->microbatches;
		if (first == i && head + busy + (zb ? 0 : tail) > bound)
			bound = head + busy + (zb ? 0 : tail);
		if (first != i)
			return busiest_stage_s(in, p);  /* a placement this bound does not know */
		head += in->f_s[i];
		tail += in->b_s[i];
	}
	return bound;
}

/* Each virtual stage's gradient buckets (the adapters' only under LoRA,
 * shared evenly by the chunks), [P], caller frees. */
static struct bucket_chunk *dp_buckets(const struct layer_ctx *x, const struct collective_group *dpg,
				       const struct stage_inputs *in)
{
	const struct train_plan *p = x->p;
	struct bucket_chunk *chunks = xcalloc((size_t)in->P, sizeof *chunks);
	double lora_chunk = 0;
	if (x->lora)
		lora_chunk = memory_lora_params_per_layer(x->w, p) * x->w->model->arch.layers / p->pp / p->vpp;
	/* one bucket per layer for the first chunk, one per chunk for the
	 * others, whose reduction runs under the later chunks' backward
	 * (Megatron-Core's get_model: "Turn off bucketing for model_chunk 2
	 * onwards") */
	for (int vs = 0; vs < in->P; vs++)
		bucket_chunk_init(&chunks[vs], x, dpg, pipeline_chunk(p->pp, p->schedule, vs) > 0 ? 1 : in->layers[vs],
				  x->lora ? lora_chunk : in->params[vs]);
	return chunks;
}

/* Seconds of the all-reduce of the gradient norm and the loss (a few fp32
 * scalars, 16 bytes) over every GPU of the job: latency-bound, on the
 * critical path between the gradient reduction and the update. */
double step_norm_allreduce_s(const struct layer_ctx *x)
{
	long used = (long)x->p->tp * x->p->cp * x->p->pp * x->p->dp;
	int per_node = x->c->gpus_per_node;
	struct collective_group g;
	if (used < 2)
		return 0;
	if (used <= per_node)
		collective_group_make(&g, 1, (int)used);
	else
		collective_group_make(&g, (int)((used + per_node - 1) / per_node), per_node);
	return layer_coll_s(x, &g, COLL_ALL_REDUCE, 16.0);
}

/*
 * Stage i's tail after its last compute operation (ending at end_s of pr):
 * the data-parallel reduction, the optimizer, then (ZeRO-1/2) gathering
 * the updated weights, which overlaps the next step's first forward.
 *
 * The DP buckets are the same in both modes (bucket.h: sizes, ready times,
 * slowdown); when they finish differs in meaning. In the full mode the
 * flows decided it (replicas wait for each other, groups contend on
 * links): full_dp_end_s is read. Otherwise each chunk's buckets run on an
 * idle stream in closed form (bucket_stream_end_s), logged in trace.
 */
static void stage_tail(const struct layer_ctx *x, const struct collective_group *dpg, const struct stage_inputs *in,
		       const struct bucket_chunk *chunks, const struct pipeline_result *pr, const double *full_dp_end_s,
		       int i, double norm, struct timeline *trace, struct stage_tail *out)
{
	const struct train_plan *p = x->p;
	bool full = x->w->mode == TRAIN_FULL;
	double comm_free = 0, params = 0, expert = 0, end = pr->stage_end_s[i], dp_end = end;
	double first_fwd = in->f_s[i];

	for (int ch = p->vpp - 1; ch >= 0; ch--) {
		int vs = pipeline_vstage(p->pp, p->schedule, i, ch);
		params += in->params[vs];
		expert += parallel_vstage_expert_params(&x->w->model->arch, p, vs, in->P);
	}
	double grad_params = x->lora ? memory_lora_params_per_layer(x->w, p) * x->w->model->arch.layers / p->pp : params;
	if (full && p->dp > 1 && p->zero < 3 && !x->lora) {
		/* the part hidden under the last backward slowed it */
		for (int ch = 0; ch < p->vpp; ch++) {
			int vs = pipeline_vstage(p->pp, p->schedule, i, ch);
			end += bucket_slowdown_s(&chunks[vs], pr->last_grad_op_s[vs],
						 x->w->model->training.overlap_slowdown);
		}
		if (full_dp_end_s[i] > dp_end)
			dp_end = full_dp_end_s[i];
	} else if (dpg->n > 1 && p->zero < 3) {
		/* chunks finish in reverse order of chunk index */
		for (int ch = p->vpp - 1; ch >= 0; ch--) {
			int vs = pipeline_vstage(p->pp, p->schedule, i, ch);
			const struct bucket_chunk *b = &chunks[vs];
			double t_end = bucket_stream_end_s(b, pr->grads_final_s[vs], pr->last_grad_op_s[vs], &comm_free);
			end += bucket_slowdown_s(b, pr->last_grad_op_s[vs], x->w->model->training.overlap_slowdown);
			if (t_end > dp_end)
				dp_end = t_end;
			if (trace != NULL && b->cost.time_s > 0) {
				struct timeline_span *sp = timeline_add(trace, i, PIPE_STREAM_COMM, "dp_bucket",
									p->zero == 0 ? "DP all-reduce" : "DP reduce-scatter",
									t_end - b->buckets * b->cost.time_s, t_end);
				timeline_span_arg(sp, "virtual_stage", vs);
				timeline_span_arg(sp, "buckets", b->buckets);
				timeline_span_arg(sp, "bytes", b->buckets * b->bytes);
				timeline_span_arg(sp, "group_ranks", dpg->n);
			}
		}
	}
	if (end > dp_end)
		dp_end = end;
	/* norm: the gradient norm (clipping) and the loss, one all-reduce of a
	 * few fp32 scalars over every GPU of the job before the update
	 * (Megatron's clip_grad_norm over the model- and data-parallel
	 * groups), latency-bound: step_norm_allreduce_s, once a step */
	/* Megatron's distributed optimizer shards over dp x cp, the routed
	 * experts over the expert-data-parallel group (memory.c) */
	double local = x->lora || p->zero < 1 ? grad_params
					       : (grad_params - expert) / ((double)p->dp * p->cp) +
							 expert / parallel_expert_dp(p);
	double opt = roofline_memory_s(&x->k, adam_traffic_bytes(p) * local, 4);
	double ag_exposed = 0;
	if (dpg->n > 1 && (p->zero == 1 || p->zero == 2) && !x->lora) {
		/* the updated weights, gathered in the gradients' buckets: with
		 * overlap_param_gather under the next step's first forward, only
		 * the first bucket exposed since that forward needs it ("exposes
		 * only one DP communication chunk": NeMo, Communication Overlap);
		 * without it, all of it after the optimizer */
		double ag = layer_coll_s(x, dpg, COLL_ALL_GATHER, TRAIN_WEIGHT_BYTES * params);
		int buckets = 0;
		for (int ch = 0; ch < p->vpp; ch++)
			buckets += chunks[pipeline_vstage(p->pp, p->schedule, i, ch)].buckets;
		if (!p->param_gather_overlap)
			ag_exposed = ag;
		else
			ag_exposed = ag / buckets + layer_overlap_s(x, ag * (buckets - 1) / buckets, first_fwd);
	}
	out->total_s = dp_end + norm + opt + ag_exposed;
	out->dp_s = dp_end - pr->stage_end_s[i] + norm + ag_exposed;
	out->opt_s = opt;
	if (trace != NULL) {
		/* what the compute stream waits for after its last operation */
		if (dp_end > pr->stage_end_s[i])
			timeline_add(trace, i, PIPE_STREAM_COMPUTE, "comm_dp", "wait: DP gradients", pr->stage_end_s[i], dp_end);
		if (norm > 0) {
			struct timeline_span *np = timeline_add(trace, i, PIPE_STREAM_COMPUTE, "comm_dp",
								"gradient-norm all-reduce", dp_end, dp_end + norm);
			timeline_span_arg(np, "group_ranks", (double)cluster_gpus(x->c));
		}
		dp_end += norm;
		struct timeline_span *sp = timeline_add(trace, i, PIPE_STREAM_COMPUTE, "optimizer", "optimizer", dp_end, dp_end + opt);
		timeline_span_arg(sp, "params", local);
		timeline_span_arg(sp, "bytes", adam_traffic_bytes(p) * local);
		if (ag_exposed > 0) {
			timeline_add(trace, i, PIPE_STREAM_COMPUTE, "comm_dp", "wait: DP all-gather (exposed)",
				     dp_end + opt, dp_end + opt + ag_exposed);
			sp = timeline_add(trace, i, PIPE_STREAM_COMM, "dp_all_gather", "DP all-gather (exposed)",
					  dp_end + opt, dp_end + opt + ag_exposed);
			timeline_span_arg(sp, "bytes", TRAIN_WEIGHT_BYTES * params);
			timeline_span_arg(sp, "group_ranks", dpg->n);
		}
	}
}

/* Breakdown of the average stage: busy compute minus critical-path
 * communication, the waits, and the tail. */
static void fill_breakdown(struct train_result *r, const struct train_plan *p, const struct stage_inputs *in,
			   const struct pipeline_result *pr, const struct stage_tail *tails, double step)
{
	double dp_exposed_sum = 0, opt_sum = 0, busy_sum = 0, bubble_sum = 0, other_sum = 0;
	for (int i = 0; i < p->pp; i++) {
		double comm_crit = (in->tp_s[i] + in->ep_s[i] + in->cp_s[i] + in->z3_s[i]) * p->microbatches;
		double busy = pr->stage_busy_s[i];
		busy_sum += busy - comm_crit;
		/* ZeRO-3's per-layer traffic is data-parallel communication */
		dp_exposed_sum += tails[i].dp_s + in->z3_s[i] * p->microbatches;
		opt_sum += tails[i].opt_s;
		bubble_sum += pr->stage_end_s[i] - busy;
		other_sum += step - tails[i].total_s;
	}
	double n = p->pp;
	r->br.compute = busy_sum / n;
	r->br.optimizer = opt_sum / n;
	r->br.comm_dp = dp_exposed_sum / n;
	r->br.bubble = bubble_sum / n;
	r->br.other = other_sum / n;
	double tp_s = 0, ep_s = 0, cp_s = 0;
	for (int i = 0; i < p->pp; i++) {
		tp_s += in->tp_s[i] * p->microbatches;
		ep_s += in->ep_s[i] * p->microbatches;
		cp_s += in->cp_s[i] * p->microbatches;
	}
	r->br.comm_tp = tp_s / n;
	r->br.comm_ep = ep_s / n;
	r->br.comm_cp = cp_s / n;
}

/* Step time, throughput, FLOPs and utilisation; OUTCOME_ERROR when the step
 * time is not a finite positive number. */
static void fill_rates(struct train_result *r, const struct layer_ctx *x, double step)
{
	const struct train_spec *w = x->w;
	const struct model_spec *m = &w->model->arch;
	long gpus = cluster_gpus(x->c);

	r->step_time_s = step;
	r->tokens_per_step = w->global_batch_tokens;
	r->model_flops_per_step = transformer_model_flops_per_token(m, w->seq_len) * w->global_batch_tokens;
	r->hardware_flops_per_step =
		transformer_hardware_flops_per_token(m, w->seq_len, x->p->recompute, x->p->recompute_modules) *
		w->global_batch_tokens;
	if (x->p->recompute == RECOMPUTE_FULL) {
		/* a block recompute redoes only its share of the layers */
		r->hardware_flops_per_step = r->model_flops_per_step +
			(r->hardware_flops_per_step - r->model_flops_per_step) * memory_recompute_share(w, x->p);
	}
	if (x->lora) {
		/* frozen base: forward and input gradients only (2 of the 3 passes) */
		r->model_flops_per_step *= 2.0 / 3.0;
		r->hardware_flops_per_step = r->model_flops_per_step +
			(r->hardware_flops_per_step - transformer_model_flops_per_token(m, w->seq_len) * w->global_batch_tokens);
	}
	if (step > 0) {
		r->tokens_per_s = w->global_batch_tokens / step;
		r->tflops_per_gpu = r->model_flops_per_step / step / gpus / 1e12;
		double peak = x->k.peak_flops_per_s;
		r->mfu = r->model_flops_per_step / step / gpus / peak;
		r->hfu = r->hardware_flops_per_step / step / gpus / peak;
	}
	if (r->outcome.status == OUTCOME_OK && !(step > 0 && isfinite(step))) {
		outcome_set(&r->outcome, OUTCOME_ERROR, "step time is not a finite positive number");
	}
}

/* Run the schedule of in, representative or full, then every stage's tail;
 * fills r's step time, breakdown and rates. */
static void run_step(const struct layer_ctx *x, const struct collective_group *dpg, const struct stage_inputs *in,
		     const struct step_trace_costs *tc, struct train_result *r, struct timeline *trace)
{
	const struct train_plan *p = x->p;
	struct pipeline_config pc = {
		.p = p->pp, .v = p->vpp, .m = p->microbatches, .schedule = p->schedule,
		.f_s = in->f_s, .b_s = in->b_s, .w_s = pipeline_splits_backward(p->schedule) ? in->w_s : NULL,
		.send_f_s = in->send_f_s, .send_b_s = in->send_b_s, .send_bytes = in->send_bytes,
	};
	size_t logged_from = trace != NULL ? trace->n : 0;
	struct pipeline_result pr;
	struct bucket_chunk *chunks = dp_buckets(x, dpg, in);
	double *full_dp_end = xcalloc((size_t)p->pp, sizeof *full_dp_end);
	struct stage_tail *tails = xcalloc((size_t)p->pp, sizeof *tails);

	if (x->w->mode == TRAIN_FULL)
		fullstep_run(x, &pc, chunks, &pr, full_dp_end, trace);
	else if (trace != NULL || !pipeline_direct_run(&pc, &pr))
		pipeline_run(&pc, &pr, trace);  /* the same times, by events, with the trace */
	if (trace != NULL)
		step_trace_detail(x, in->P, tc, trace, logged_from);
	double step = 0, norm = step_norm_allreduce_s(x);
	for (int i = 0; i < p->pp; i++) {
		stage_tail(x, dpg, in, chunks, &pr, full_dp_end, i, norm, trace, &tails[i]);
		if (tails[i].total_s > step)
			step = tails[i].total_s;
	}
	fill_breakdown(r, p, in, &pr, tails, step);
	/* every GPU of the job meets at the step's end: the step waits for the
	 * slowest one's kernels (straggler.h) */
	long ranks = (long)p->tp * p->cp * p->pp * p->dp;
	r->br.straggler = straggler_wait_s(r->br.compute, ranks, x->w->model->training.straggler_sigma);
	if (trace != NULL && r->br.straggler > 0)
		for (int i = 0; i < p->pp; i++) {
			struct timeline_span *sp = timeline_add(trace, i, PIPE_STREAM_COMPUTE, "straggler",
								"wait: slowest GPU (stragglers)", tails[i].total_s,
								tails[i].total_s + r->br.straggler);
			timeline_span_arg(sp, "group_ranks", (double)ranks);
			timeline_span_arg(sp, "expected_max_sigmas", straggler_expected_max(ranks));
		}
	step += r->br.straggler;
	fill_rates(r, x, step);

	pipeline_result_release(&pr);
	free(tails);
	free(full_dp_end);
	free(chunks);
}

/* What a plan's step is built from: its layers' costs, the data-parallel
 * group, and each virtual stage's forward, backward and transfers. */
struct step_costs {
	struct layer_time dense, moe;
	struct collective_group dpg;
	struct stage_inputs in;    /* release with stage_inputs_release */
	double z3_f, z3_b;
};

static void step_costs_init(const struct layer_ctx *x, struct step_costs *k)
{
	const struct train_plan *p = x->p;
	layer_cost(x, false, &k->dense);
	if (x->w->model->arch.experts > 0)
		layer_cost(x, true, &k->moe);
	else
		k->moe = k->dense;
	/* gradients are reduced, and ZeRO shards, over dp x cp (layer.h) */
	layer_dp_cp_group_shape(x, &k->dpg);
	zero3_per_layer(x, &k->dpg, &k->dense, &k->z3_f, &k->z3_b);
	stage_inputs_init(&k->in, p);
	for (int vs = 0; vs < k->in.P; vs++)
		fill_vstage(&k->in, x, vs, &k->dense, &k->moe, k->z3_f, k->z3_b);
}

bool step_simulate_bounded(const struct train_spec *w, const struct cluster_spec *c,
			   const struct train_plan *p, struct train_result *r, struct timeline *trace,
			   double bound_s)
{
	struct layer_ctx x;
	struct cs_error err;
	struct step_costs k;

	memset(r, 0, sizeof *r);
	r->plan = *p;
	if (layer_ctx_init(&x, w, c, p, &err) < 0) {
		outcome_set(&r->outcome, OUTCOME_INVALID, "%s", err.msg);
		return true;
	}
	check_memory(&x, r);
	if (r->outcome.status == OUTCOME_OOM && trace == NULL) {
		/* rejected before any step is simulated: an OOM result gives
		 * its plan, memory and batch, never a time (eval_train.c) */
		fill_rates(r, &x, 0);
		return true;
	}
	step_costs_init(&x, &k);
	double busy_bound = filled_stage_s(&k.in, p);
	if (busy_bound >= bound_s) {
		r->step_time_s = busy_bound;
		stage_inputs_release(&k.in);
		return false;
	}
	struct step_trace_costs tc = { .dense = &k.dense, .moe = &k.moe, .z3_f = k.z3_f, .z3_b = k.z3_b };
	run_step(&x, &k.dpg, &k.in, &tc, r, trace);
	stage_inputs_release(&k.in);
	return true;
}

bool step_lower_bound(const struct train_spec *w, const struct cluster_spec *c, const struct train_plan *p,
		      double *bound_s)
{
	struct layer_ctx x;
	struct cs_error err;
	struct step_costs k;

	if (layer_ctx_init(&x, w, c, p, &err) < 0)
		return false;
	step_costs_init(&x, &k);
	*bound_s = filled_stage_s(&k.in, p);
	stage_inputs_release(&k.in);
	return true;
}

void step_simulate(const struct train_spec *w, const struct cluster_spec *c,
		   const struct train_plan *p, struct train_result *r, struct timeline *trace)
{
	step_simulate_bounded(w, c, p, r, trace, INFINITY);
}
