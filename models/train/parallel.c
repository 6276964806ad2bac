#include "parallel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/kernel/transformer.h"
#include "models/train/pipeline.h"

const char *parallel_fill(const struct train_spec *w, const struct cluster_spec *c,
			  const struct parallel_plan *req, struct train_plan *p)
{
	static char why[192];
	long gpus = cluster_gpus(c);
	const struct model_spec *m = &w->model;
	double seqs = w->global_batch_tokens / w->seq_len;

	memset(p, 0, sizeof *p);
	p->tp = req->tp == PLAN_AUTO ? 1 : req->tp;
	p->pp = req->pp == PLAN_AUTO ? 1 : req->pp;
	p->vpp = req->vpp == PLAN_AUTO ? 1 : req->vpp;
	p->cp = req->cp == PLAN_AUTO ? 1 : req->cp;
	p->ep = req->ep == PLAN_AUTO ? 1 : req->ep;
	p->zero = req->zero == PLAN_AUTO ? 1 : req->zero;
	p->micro_batch = req->micro_batch == PLAN_AUTO ? 1 : req->micro_batch;
	p->recompute = req->recompute == PLAN_AUTO ? RECOMPUTE_SELECTIVE : (enum recompute_kind)req->recompute;
	if (req->schedule == PLAN_AUTO)
		p->schedule = p->vpp > 1 ? SCHED_INTERLEAVED : SCHED_1F1B;
	else
		p->schedule = (enum schedule_kind)req->schedule;
	p->sp = req->sequence_parallel == PLAN_AUTO ? p->tp > 1 : req->sequence_parallel == 1;
	snprintf(p->order, sizeof p->order, "%s", req->order);
	p->tp_overlap = req->tp_comm_overlap;

	long model_par = (long)p->tp * p->cp * p->pp;
	if (gpus % model_par != 0) {
		snprintf(why, sizeof why, "tp x cp x pp = %ld does not divide the %ld GPUs", model_par, gpus);
		return why;
	}
	p->dp = (int)(gpus / model_par);
	if (req->dp != PLAN_AUTO && req->dp != p->dp) {
		snprintf(why, sizeof why, "dp %d does not match %ld GPUs / (tp x cp x pp) = %d", req->dp, gpus, p->dp);
		return why;
	}
	if (m->heads % p->tp != 0) {
		snprintf(why, sizeof why, "tp %d does not divide the %d attention heads", p->tp, m->heads);
		return why;
	}
	if (p->tp > m->kv_heads && p->tp % m->kv_heads != 0) {
		snprintf(why, sizeof why, "tp %d and %d KV heads do not divide each other", p->tp, m->kv_heads);
		return why;
	}
	if (p->pp * p->vpp > m->layers) {
		snprintf(why, sizeof why, "pp x vpp = %d exceeds the %d layers", p->pp * p->vpp, m->layers);
		return why;
	}
	if (w->seq_len % p->cp != 0 || (p->cp > 1 && (w->seq_len / p->cp) % 2 != 0)) {
		snprintf(why, sizeof why, "cp %d does not split seq_len %d evenly", p->cp, w->seq_len);
		return why;
	}
	if (p->ep > 1) {
		if (m->experts == 0) {
			snprintf(why, sizeof why, "ep %d needs a mixture-of-experts model", p->ep);
			return why;
		}
		if (p->dp % p->ep != 0 || m->experts % p->ep != 0) {
			snprintf(why, sizeof why, "ep %d must divide dp %d and the %d experts", p->ep, p->dp, m->experts);
			return why;
		}
	}
	double per_replica = seqs / p->dp;
	if (per_replica != floor(per_replica) || fmod(per_replica, p->micro_batch) != 0) {
		snprintf(why, sizeof why, "%.0f sequences per step do not split into dp %d x micro_batch %d",
			 seqs, p->dp, p->micro_batch);
		return why;
	}
	/* the schedule is simulated op by op: bound one step's work, and the
	 * count before it becomes an int */
	double microbatches = per_replica / p->micro_batch;
	double ops = microbatches * p->pp * p->vpp;
	if (ops > PARALLEL_MAX_PIPELINE_OPS) {
		snprintf(why, sizeof why, "%.0f micro-batches per pipeline per step (%.3g pipeline operations) "
			 "are more than the %d clustersim simulates: use a larger micro_batch or fewer tokens per step",
			 microbatches, ops, PARALLEL_MAX_PIPELINE_OPS);
		return why;
	}
	p->microbatches = (int)microbatches;
	const char *pc = pipeline_check(p->pp, p->vpp, p->microbatches, p->schedule);
	if (pc != NULL) {
		snprintf(why, sizeof why, "%s (pp %d, vpp %d, %d micro-batches)", pc, p->pp, p->vpp, p->microbatches);
		return why;
	}
	if (p->tp > c->gpus_per_node && p->tp % c->gpus_per_node != 0) {
		snprintf(why, sizeof why, "tp %d spans nodes of %d GPUs unevenly", p->tp, c->gpus_per_node);
		return why;
	}
	return NULL;
}

void parallel_stage_layers(int layers, int P, int vs, int *first, int *count)
{
	int base = layers / P, extra = layers % P;
	*count = base + (vs < extra ? 1 : 0);
	*first = vs * base + (vs < extra ? vs : extra);
}

void parallel_layer_mix(const struct model_spec *m, int first, int count, int *dense, int *moe)
{
	int dense_end = m->experts > 0 ? m->dense_layers : m->layers;
	int d = 0;
	for (int l = first; l < first + count; l++)
		d += l < dense_end;
	*dense = d;
	*moe = count - d;
}

double parallel_vstage_params(const struct model_spec *m, const struct train_plan *p, int vs, int P)
{
	int first, count, dense, moe;
	parallel_stage_layers(m->layers, P, vs, &first, &count);
	parallel_layer_mix(m, first, count, &dense, &moe);
	double attn = transformer_attention_params(m), dmlp = transformer_mlp_params(m, false, false);
	double emlp = transformer_mlp_params(m, true, true);
	double params = count * attn / p->tp + dense * dmlp / p->tp + moe * emlp / (p->tp * p->ep);
	double vh = (double)m->vocab * m->hidden;
	if (vs == 0)
		params += vh / p->tp;                       /* input embedding */
	if (vs == P - 1 && (!m->tied_embeddings || P > 1))
		params += vh / p->tp;                       /* output projection */
	return params;
}

bool parallel_has_auto(const struct parallel_plan *q)
{
	return q->tp == PLAN_AUTO || q->pp == PLAN_AUTO || q->vpp == PLAN_AUTO || q->cp == PLAN_AUTO ||
	       q->ep == PLAN_AUTO || q->zero == PLAN_AUTO || q->micro_batch == PLAN_AUTO ||
	       q->schedule == PLAN_AUTO || q->recompute == PLAN_AUTO || q->sequence_parallel == PLAN_AUTO ||
	       q->dp == PLAN_AUTO;
}
