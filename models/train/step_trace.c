#include "step_trace.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

#include "models/kernel/roofline.h"
#include "models/kernel/transformer.h"
#include "models/train/parallel.h"
#include "models/train/pipeline.h"
#include "models/train/step_head.h"
#include "sim/timeline.h"

/* Model FLOPs of one layer's forward on one GPU for a micro-batch: twice
 * the active weights per token plus attention over the whole s x s
 * product (the MFU convention). */
static double layer_fwd_flops(const struct layer_ctx *x, bool moe)
{
	const struct model_spec *m = &x->w->model->arch;
	double per_token = 2 * transformer_layer_params(m, moe, false) +
			   2.0 * x->w->seq_len * m->heads * (transformer_qk_head_dim(m) + transformer_v_head_dim(m));
	return per_token * x->tokens / x->p->tp;
}

/* A child of the operation span being detailed, [*t, *t + dur_s) clamped to
 * end_s; advances *t. Nothing when dur_s is not positive. */
static struct timeline_span *trace_child(struct timeline *trace, int stage, const char *cat, const char *name,
					 double *t, double dur_s, double end_s, int layer)
{
	if (!(dur_s > 0))
		return NULL;
	double a = *t < end_s ? *t : end_s, b = *t + dur_s < end_s ? *t + dur_s : end_s;
	*t += dur_s;
	if (!(b > a))
		return NULL;
	struct timeline_span *sp = timeline_add(trace, stage, PIPE_STREAM_COMPUTE, cat, name, a, b);
	timeline_span_arg(sp, "layer", layer);
	return sp;
}

/* Layer l's collectives on the critical path of a pass (forward when fwd),
 * nested in its operation from *t on. */
static void trace_layer_comm(const struct layer_ctx *x, const struct layer_time *lt, bool fwd, int stage, int l,
			     double *t, double end_s, struct timeline *trace)
{
	const struct train_plan *p = x->p;
	const struct model_spec *m = &x->w->model->arch;
	struct timeline_span *sp;
	double tp = fwd ? lt->tp_fwd : lt->tp_bwd, ep = fwd ? lt->ep_fwd : lt->ep_bwd, cp = fwd ? lt->cp_fwd : lt->cp_bwd;
	int tp_colls = (p->sp ? 4 : 2) * (!fwd && p->recompute == RECOMPUTE_FULL ? 2 : 1);

	sp = trace_child(trace, stage, "comm_tp", p->sp ? (p->tp_overlap ? "TP all-gather/reduce-scatter (exposed)"
								      : "TP all-gather/reduce-scatter")
						: (p->tp_overlap ? "TP all-reduce (exposed)" : "TP all-reduce"),
			 t, tp, end_s, l);
	if (sp != NULL) {
		timeline_span_arg(sp, "bytes", TRAIN_ACT_BYTES * x->tokens * m->hidden);
		timeline_span_arg(sp, "collectives", tp_colls);
		timeline_span_arg(sp, "group_ranks", p->tp);
	}
	sp = trace_child(trace, stage, "comm_ep", "EP all-to-all", t, ep, end_s, l);
	if (sp != NULL) {
		timeline_span_arg(sp, "bytes", TRAIN_ACT_BYTES * x->tokens * m->experts_active * m->hidden);
		timeline_span_arg(sp, "collectives", 2);
		timeline_span_arg(sp, "group_ranks", p->ep);
	}
	sp = trace_child(trace, stage, "comm_cp", "CP ring (exposed)", t, cp, end_s, l);
	if (sp != NULL) {
		timeline_span_arg(sp, "steps", (p->cp - 1) * (fwd ? 1 : 2));
		timeline_span_arg(sp, "group_ranks", p->cp);
	}
}

/*
 * Detail operation span k (logged by the pipeline): its layer range and
 * FLOPs as args, and nested inside it, layer by layer, what its time holds
 * besides kernels: the ZeRO-3 weight gathers, recompute, and the tensor,
 * expert and context parallel collectives on the critical path. Layers run
 * in order forward and in reverse backward; the embedding comes first and
 * the output layer and loss last forward (first backward).
 */
static void trace_detail_op(const struct layer_ctx *x, int P, const struct step_trace_costs *tc,
			    struct timeline *trace, size_t k)
{
	const struct model_spec *m = &x->w->model->arch;
	const struct train_plan *p = x->p;
	struct timeline_span op = trace->spans[k];
	enum pipeline_op kind = (enum pipeline_op)(op.tag - PIPE_TAG_BASE);
	int vs = -1, first, count;
	bool zb = pipeline_splits_backward(p->schedule);

	for (int a = 0; a < op.nargs; a++) {
		if (strcmp(op.args[a].key, "virtual_stage") == 0)
			vs = (int)op.args[a].value;
		/* DualPipeV's whole backwards */
		if (strcmp(op.args[a].key, "weight_gradient") == 0 && op.args[a].value > 0)
			zb = false;
	}
	assert(vs >= 0 && vs < P);
	parallel_vstage_layers(p, m->layers, P, vs, &first, &count);
	double head_flops = 2.0 * m->hidden * m->vocab * x->tokens / p->tp;
	double flops = 0;
	for (int l = first; l < first + count; l++) {
		int d, e;
		parallel_layer_mix(m, l, 1, &d, &e);
		flops += layer_fwd_flops(x, e > 0);
	}
	if (vs == P - 1)
		flops += head_flops;
	int mtp = parallel_vstage_mtp(m, p, vs, P);
	const struct layer_time *mtp_lt = m->experts > 0 ? tc->moe : tc->dense;
	flops += mtp * (layer_fwd_flops(x, m->experts > 0) + head_flops +
			2.0 * 2 * m->hidden * m->hidden * x->tokens / p->tp);
	/* backward is twice the forward, split evenly between B and W when split */
	if (kind != PIPE_F)
		flops *= zb ? 1 : 2;
	struct timeline_span *sp = &trace->spans[k];
	timeline_span_arg(sp, "layer_first", first);
	timeline_span_arg(sp, "layer_last", first + count - 1);
	timeline_span_arg(sp, "flops", flops);
	if (kind == PIPE_W)
		return;

	double t = op.start_s, end = op.end_s;
	if (kind == PIPE_F) {
		if (vs == 0)
			t += roofline_memory_s(&x->k, TRAIN_ACT_BYTES * x->tokens * m->hidden * 2, 1);
		for (int l = first; l < first + count; l++) {
			int d, e;
			parallel_layer_mix(m, l, 1, &d, &e);
			const struct layer_time *lt = e > 0 ? tc->moe : tc->dense;
			trace_child(trace, op.track, "zero3", "ZeRO-3 weight gather (exposed)", &t, tc->z3_f, end, l);
			t += lt->fwd;
			trace_layer_comm(x, lt, true, op.track, l, &t, end, trace);
		}
		trace_child(trace, op.track, "compute", "multi-token prediction", &t,
			    mtp * (mtp_lt->fwd + mtp_lt->tp_fwd + mtp_lt->ep_fwd + mtp_lt->cp_fwd + step_head_mtp_s(x, PIPE_F)),
			    end, m->layers);
		return;
	}
	if (vs == P - 1)
		/* the loss and the output layer's gradients (its weight gradient is W's when split) */
		t += step_head_logits_s(x, PIPE_B) + (zb ? 0 : step_head_logits_s(x, PIPE_W)) + step_head_loss_s(x, PIPE_B);
	trace_child(trace, op.track, "compute", "multi-token prediction", &t,
		    mtp * (mtp_lt->bwd_input + mtp_lt->recompute + mtp_lt->tp_bwd + mtp_lt->ep_bwd + mtp_lt->cp_bwd +
			   (zb ? 0 : mtp_lt->bwd_weight) + step_head_mtp_s(x, PIPE_B) + (zb ? 0 : step_head_mtp_s(x, PIPE_W))),
		    end, m->layers);
	for (int l = first + count - 1; l >= first; l--) {
		int d, e;
		parallel_layer_mix(m, l, 1, &d, &e);
		const struct layer_time *lt = e > 0 ? tc->moe : tc->dense;
		trace_child(trace, op.track, "zero3", "ZeRO-3 gather + reduce-scatter (exposed)", &t, tc->z3_b, end, l);
		trace_child(trace, op.track, "compute", "recompute", &t, lt->recompute, end, l);
		t += lt->bwd_input + (zb ? 0 : lt->bwd_weight);
		trace_layer_comm(x, lt, false, op.track, l, &t, end, trace);
	}
}

void step_trace_detail(const struct layer_ctx *x, int P, const struct step_trace_costs *tc,
		       struct timeline *trace, size_t from)
{
	size_t n = trace->n;
	for (size_t k = from; k < n; k++)
		if (trace->spans[k].tag >= PIPE_TAG_BASE && trace->spans[k].stream == PIPE_STREAM_COMPUTE)
			trace_detail_op(x, P, tc, trace, k);
}
