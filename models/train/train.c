#include "train.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/comm/collective.h"
#include "models/hw/placement.h"
#include "models/train/pipeline.h"
#include "models/hw/topology.h"
#include "models/kernel/transformer.h"
#include "sim/engine.h"
#include "sim/flow.h"
#include "sim/time.h"
#include "util/xalloc.h"

const char *const schedule_names[] = { "gpipe", "1f1b", "interleaved", "zb-h1", NULL };
const char *const finetune_method_names[] = { "full", "lora", "qlora", NULL };
const char *const training_mode_names[] = { "representative", "full", NULL };
const char *const train_status_names[] = { "ok", "oom", "invalid", "error", NULL };

/* CUDA context, NCCL buffers, allocator fragmentation: held back per GPU. */
const double train_workspace_bytes = 5.0 * 1073741824.0;

/* Bytes per element of activations, weights and gradients (16-bit). */
#define ACT_BYTES 2.0
/* Mixed-precision Adam: bf16 weights 2, bf16 gradients 2, fp32 master
 * weights, momentum and variance 12 (MODELING.md). */
#define WEIGHT_BYTES 2.0
#define GRAD_BYTES 2.0
#define OPTIMIZER_BYTES 12.0
/* Adam's HBM traffic per parameter: read and write master, m, v (24), read
 * the gradient (2-4), write the bf16 weight (2). */
#define ADAM_TRAFFIC_BYTES 30.0

/* ---- plans ---------------------------------------------------------------- */

const char *train_plan_fill(const struct train_spec *w, const struct cluster_spec *c,
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
	p->microbatches = (int)(per_replica / p->micro_batch);
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

/* Layers of virtual stage vs: the first (l mod P) virtual stages get one more. */
static void stage_layers(int layers, int P, int vs, int *first, int *count)
{
	int base = layers / P, extra = layers % P;
	*count = base + (vs < extra ? 1 : 0);
	*first = vs * base + (vs < extra ? vs : extra);
}

/* Dense and MoE layers among [first, first + count). */
static void layer_mix(const struct model_spec *m, int first, int count, int *dense, int *moe)
{
	int dense_end = m->experts > 0 ? m->dense_layers : m->layers;
	int d = 0;
	for (int l = first; l < first + count; l++)
		d += l < dense_end;
	*dense = d;
	*moe = count - d;
}

/* Parameters one GPU holds for virtual stage vs (tensor and expert sharded). */
static double vstage_params(const struct model_spec *m, const struct train_plan *p, int vs, int P)
{
	int first, count, dense, moe;
	stage_layers(m->layers, P, vs, &first, &count);
	layer_mix(m, first, count, &dense, &moe);
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

/* ---- memory --------------------------------------------------------------- */

/* LoRA / QLoRA: trainable adapter parameters per layer on one GPU. */
static double lora_params_per_layer(const struct train_spec *w, const struct train_plan *p)
{
	const struct model_spec *m = &w->model;
	double h = m->hidden, d = transformer_head_dim(m), r = w->finetune.rank;
	double qkv_out = m->heads * d + 2.0 * m->kv_heads * d;
	double sum = 0;
	bool attn = strstr(w->finetune.targets, "attn") != NULL;
	bool mlp = strstr(w->finetune.targets, "mlp") != NULL;
	if (attn)
		sum += r * (h + qkv_out) + r * (m->heads * d + h);
	if (mlp) {
		double f = m->experts > 0 ? m->expert_ffn : m->ffn;
		sum += (m->mlp == MLP_SWIGLU ? 2 : 1) * r * (h + f) + r * (f + h);
	}
	return sum / p->tp;
}

void train_memory(const struct train_spec *w, const struct cluster_spec *c,
		     const struct train_plan *p, struct train_memory *mem)
{
	const struct model_spec *m = &w->model;
	int P = p->pp * p->vpp;
	double worst = 0;

	memset(mem, 0, sizeof *mem);
	/* the heaviest stage: its chunks' parameters and activations */
	for (int i = 0; i < p->pp; i++) {
		double params = 0, layers = 0;
		bool has_first = false, has_last = false;
		for (int ch = 0; ch < p->vpp; ch++) {
			int vs = ch * p->pp + i, first, count;
			stage_layers(m->layers, P, vs, &first, &count);
			params += vstage_params(m, p, vs, P);
			layers += count;
			has_first |= vs == 0;
			has_last |= vs == P - 1;
		}
		struct train_memory s;
		memset(&s, 0, sizeof s);
		bool lora = w->is_finetune && w->finetune.method != FINETUNE_FULL;
		if (lora) {
			double base_bytes = w->finetune.method == FINETUNE_QLORA ? 0.5 + 0.0625 : WEIGHT_BYTES;
			double adapters = lora_params_per_layer(w, p) * layers;
			s.weights = params * base_bytes + adapters * WEIGHT_BYTES;
			s.grads = adapters * GRAD_BYTES;
			s.optimizer = adapters * OPTIMIZER_BYTES;
		} else {
			s.weights = params * WEIGHT_BYTES;
			s.grads = params * GRAD_BYTES;
			s.optimizer = params * OPTIMIZER_BYTES;
			if (p->zero >= 1)
				s.optimizer /= p->dp;
			if (p->zero >= 2)
				s.grads /= p->dp;
			if (p->zero >= 3) {
				/* sharded, plus two layers gathered at a time (prefetch) */
				double layer = (transformer_layer_params(m, m->experts > 0, true)) / p->tp;
				s.weights = s.weights / p->dp + 2 * layer * WEIGHT_BYTES;
			}
		}
		/* activations: per layer, times layers, times micro-batches in flight */
		double s_local = (double)w->seq_len / p->cp;
		int frozen = 0;
		if (lora) {
			if (strstr(w->finetune.targets, "attn") == NULL)
				frozen |= TF_FROZEN_ATTN;
			if (strstr(w->finetune.targets, "mlp") == NULL)
				frozen |= TF_FROZEN_MLP;
		}
		double per_layer = transformer_layer_activation_bytes_frozen(m, s_local, p->micro_batch, p->tp, p->sp,
								    p->recompute, w->kernels.flash_attention, frozen);
		double in_flight;
		switch (p->schedule) {
		case SCHED_GPIPE:
			in_flight = p->microbatches;
			break;
		case SCHED_INTERLEAVED:
			/* Megatron's interleaved warm-up holds 2(p-1) + (v-1)p + 1 chunks
			 * of L/(pv) layers on the first stage: L (1 + (p-1)/(p v)) layer
			 * micro-batches, i.e. p (1 + (p-1)/(p v)) micro-batches of the
			 * stage's layers (Korthikanti et al.); with v = 1 it is 1F1B */
			if (p->vpp > 1)
				in_flight = p->pp * (1.0 + (p->pp - 1.0) / (p->pp * p->vpp)) * (p->pp - i) / p->pp;
			else
				in_flight = p->pp - i;
			break;
		default:
			in_flight = p->pp - i;  /* 1F1B warm-up on stage i: p - i micro-batches */
			break;
		}
		if (in_flight > p->microbatches)
			in_flight = p->microbatches;
		if (in_flight < 1)
			in_flight = 1;
		s.activations = per_layer * layers * in_flight;
		if (p->recompute == RECOMPUTE_FULL) {
			/* one layer's full activations while it is recomputed */
			s.activations += transformer_layer_activation_bytes(m, s_local, p->micro_batch, p->tp, p->sp,
								   RECOMPUTE_NONE, w->kernels.flash_attention);
		}
		if (has_last) {
			/* fp32 logits for the loss: s b V / t, 4 bytes */
			s.activations += 4.0 * s_local * p->micro_batch * m->vocab / p->tp;
		}
		(void)has_first;
		s.workspace = train_workspace_bytes;
		s.total = s.weights + s.grads + s.optimizer + s.activations + s.workspace;
		if (s.total > worst) {
			worst = s.total;
			*mem = s;
		}
	}
	(void)c;
}

/* ---- one layer -------------------------------------------------------------- */

/* Seconds of one layer for one micro-batch on one GPU. */
struct layer_time {
	double fwd;           /* forward compute */
	double bwd_input;     /* backward, input gradients (incl. attention) */
	double bwd_weight;    /* backward, weight gradients */
	double recompute;     /* extra forward work in backward */
	double tp_fwd, tp_bwd;/* tensor-parallel collectives (each pass) */
	double ep_fwd, ep_bwd;/* expert all-to-alls */
	double cp_fwd, cp_bwd;/* exposed context-parallel exchange */
	double attn_fwd;      /* attention core, forward */
};

struct step_ctx {
	const struct train_spec *w;
	const struct cluster_spec *c;
	const struct train_plan *p;
	struct topology topo;
	struct placement place;
	struct roofline k;
	double tokens;        /* tokens per micro-batch on one GPU (after cp) */
	bool lora;
};

/* Nodes and ranks per node of the group along `dim` containing rank 0. */
static void group_shape(const struct step_ctx *x, enum plan_dim dim, int size, struct collective_group *g)
{
	long *gpus = xcalloc((size_t)size, sizeof *gpus);
	int c0[DIM_COUNT] = { 0, 0, 0, 0 };
	int nodes = 1;
	if (dim == DIM_DP && size < x->place.size[DIM_DP]) {
		/* an expert-parallel group: the first `size` DP replicas */
		long *all = xcalloc((size_t)x->place.size[DIM_DP], sizeof *all);
		placement_group(&x->place, DIM_DP, c0, all);
		memcpy(gpus, all, (size_t)size * sizeof *gpus);
		free(all);
	} else {
		placement_group(&x->place, dim, c0, gpus);
	}
	for (int i = 1; i < size; i++) {
		bool seen = false;
		for (int j = 0; j < i; j++)
			seen |= topology_node(&x->topo, gpus[j]) == topology_node(&x->topo, gpus[i]);
		nodes += !seen;
	}
	free(gpus);
	if (size % nodes != 0)
		nodes = size;  /* uneven: treat as one rank per node */
	collective_group_make(g, nodes, size / nodes);
}

static double coll_time(const struct step_ctx *x, const struct collective_group *g, enum collective_op op, double bytes)
{
	struct coll_cost cost;
	const char *why;
	if (g->n < 2 || bytes <= 0)
		return 0;
	if (!collective_analytic(&x->topo, g, op, ALGO_AUTO, bytes, &cost, &why))
		return 0;
	return cost.time_s;
}

static void layer_cost(const struct step_ctx *x, bool moe, struct layer_time *lt)
{
	const struct model_spec *m = &x->w->model;
	const struct train_plan *p = x->p;
	const struct roofline *k = &x->k;
	double T = x->tokens, t = p->tp;
	double h = m->hidden, d = transformer_head_dim(m), a = m->heads, g = m->kv_heads;
	double s = x->w->seq_len;
	double gated = m->mlp == MLP_SWIGLU;

	memset(lt, 0, sizeof *lt);
	/* GEMMs, forward */
	double qkv = roofline_gemm_s(k, T, (a * d + 2 * g * d) / t, h);
	double out = roofline_gemm_s(k, T, h, a * d / t);
	double mlp;
	double inner;   /* MLP inner width per token on this GPU, for elementwise work */
	if (!moe) {
		mlp = roofline_gemm_s(k, T, (gated ? 2 : 1) * m->ffn / t, h) + roofline_gemm_s(k, T, h, m->ffn / t);
		inner = m->ffn / t;
	} else {
		/* routed tokens: T k per GPU on average, over E/ep local experts */
		double local = (double)m->experts / p->ep;
		double per_expert = T * m->experts_active * p->ep / m->experts;
		double fe = m->expert_ffn / t;
		mlp = roofline_gemm_s(k, T, m->experts, h) +
		      local * (roofline_gemm_s(k, per_expert, (gated ? 2 : 1) * fe, h) + roofline_gemm_s(k, per_expert, h, fe));
		if (m->shared_experts > 0) {
			double fs = (double)m->shared_experts * m->expert_ffn / t;
			mlp += roofline_gemm_s(k, T, (gated ? 2 : 1) * fs, h) + roofline_gemm_s(k, T, h, fs);
		}
		inner = (m->experts_active + m->shared_experts) * fe;
	}
	double gemms = qkv + out + mlp;
	double attn, attn_bwd;
	if (x->w->kernels.flash_attention) {
		/* FlashAttention: a causal kernel does half of the s x s product; its
		 * backward is 2.5 forwards (it recomputes the scores) */
		double attn_flops = 2 * T * s * a * d / t;
		attn = attn_flops / (k->attn_peak_flops_per_s * k->attn_efficiency) + k->launch_s;
		attn_bwd = 2.5 * attn;
	} else {
		/* Unfused attention: QK^T and AV as batched GEMMs over the whole
		 * s x s (masked, not skipped), and every score through scale, mask,
		 * softmax and dropout in memory: written by the GEMM (2 bytes), read
		 * and written by the softmax (4), by the dropout (4 and a 1-byte
		 * mask), read by AV (2): 13 bytes forward, twice that backward. */
		double scores = (a / t) * s * T;
		double gemm_s = 4 * T * s * a * d / t / (k->attn_peak_flops_per_s * k->gemm_efficiency) + 2 * k->launch_s;
		double mem_s = roofline_memory_s(k, 13 * scores, 3);
		attn = gemm_s + mem_s;
		attn_bwd = 2 * gemm_s + 2 * mem_s;
	}
	/* elementwise: norms, residual adds, rotary, activation (bytes read and written) */
	double rep = p->sp ? t : 1;
	double elem_bytes = ACT_BYTES * T * (10 * h / rep + (gated ? 3 : 2) * inner + 2 * (a + g) * d / t);
	double elem = roofline_memory_s(k, elem_bytes, 8);

	lt->attn_fwd = attn;
	lt->fwd = gemms + attn + elem;
	/* backward: input and weight gradients each as much GEMM work as the
	 * forward; elementwise twice */
	lt->bwd_input = gemms + attn_bwd + 2 * elem;
	lt->bwd_weight = gemms;
	if (x->lora) {
		/* frozen base: no weight gradients beyond the small adapters */
		lt->bwd_weight = 0.02 * gemms;
	}
	if (p->recompute == RECOMPUTE_FULL)
		lt->recompute = lt->fwd;
	else if (p->recompute == RECOMPUTE_SELECTIVE && !x->w->kernels.flash_attention)
		lt->recompute = attn;

	/* tensor parallel: with sequence parallelism two all-gathers and two
	 * reduce-scatters of the layer's T x h activations per pass, else two
	 * all-reduces */
	if (p->tp > 1) {
		struct collective_group tg;
		double bytes = ACT_BYTES * T * h;
		group_shape(x, DIM_TP, p->tp, &tg);
		if (p->sp)
			lt->tp_fwd = 2 * coll_time(x, &tg, COLL_ALL_GATHER, bytes) + 2 * coll_time(x, &tg, COLL_REDUCE_SCATTER, bytes);
		else
			lt->tp_fwd = 2 * coll_time(x, &tg, COLL_ALL_REDUCE, bytes);
		lt->tp_bwd = lt->tp_fwd;
		if (p->tp_overlap) {
			/* userbuffers: each all-gather runs under the GEMM that consumes
			 * it and each reduce-scatter under the one that produces it */
			lt->tp_fwd = roofline_overlap_s(lt->tp_fwd, gemms);
			lt->tp_bwd = roofline_overlap_s(lt->tp_bwd, 2 * gemms);
		}
		if (p->recompute == RECOMPUTE_FULL)
			lt->tp_bwd += lt->tp_fwd;
	}
	/* expert parallel: dispatch and combine all-to-alls of T k h per pass */
	if (moe && p->ep > 1) {
		struct collective_group eg;
		double bytes = ACT_BYTES * T * m->experts_active * h;
		group_shape(x, DIM_DP, p->ep, &eg);
		lt->ep_fwd = 2 * coll_time(x, &eg, COLL_ALL_TO_ALL, bytes);
		lt->ep_bwd = lt->ep_fwd;
	}
	/* context parallel: K and V go round the ring in cp - 1 steps, hidden
	 * behind the attention computation when it is long enough */
	if (p->cp > 1) {
		struct collective_group cg;
		double heads = g / t < 1 ? 1 : g / t;
		double step_bytes = ACT_BYTES * 2 * T * heads * d;
		group_shape(x, DIM_CP, p->cp, &cg);
		struct collective_group pair;
		collective_group_make(&pair, cg.nodes > 1 ? 2 : 1, cg.nodes > 1 ? 1 : 2);
		double step = coll_time(x, &pair, COLL_SEND_RECV, step_bytes);
		double comm = (p->cp - 1) * step;
		lt->cp_fwd = roofline_overlap_s(comm, attn);
		lt->cp_bwd = roofline_overlap_s(2 * comm, attn_bwd);
	}
}

/* ---- the step ---------------------------------------------------------------- */

/* Time of a point-to-point transfer of `bytes` from GPU a to GPU b, with
 * every tensor-parallel rank sending its share at once. */
static double p2p_time(const struct step_ctx *x, long a, long b, double bytes)
{
	struct collective_group g;
	bool same = topology_node(&x->topo, a) == topology_node(&x->topo, b);
	struct coll_cost cost;
	const char *why;
	if (a == b || bytes <= 0)
		return 0;
	collective_group_make(&g, same ? 1 : 2, same ? 2 : 1);
	if (!collective_analytic(&x->topo, &g, COLL_SEND_RECV, ALGO_AUTO, bytes, &cost, &why))
		return 0;
	if (!same && x->topo.has_nic) {
		/* all TP ranks of the stage send at once: each gets its NIC share */
		double share = x->topo.rail.bw_bytes_per_s * x->topo.rails / x->topo.gpus_per_node * x->topo.rail.efficiency;
		double whole = x->topo.rail.bw_bytes_per_s * x->topo.rail.efficiency;
		cost.time_s = cost.latency_s + cost.transfer_s * whole / share;
	}
	return cost.time_s;
}

/* GPU of (tp 0, cp 0, pipeline stage i, dp 0). */
static long stage_gpu(const struct step_ctx *x, int i)
{
	int c[DIM_COUNT] = { 0, 0, 0, 0 };
	c[DIM_PP] = i;
	return placement_gpu(&x->place, c);
}

/*
 * Data-parallel reduction of one chunk's gradients, overlapped with its
 * last backward pass: the chunk's L layers finish evenly over the last
 * gradient op (duration d, ending at `end`), and each layer's bucket is
 * reduced on the communication stream (free from `*comm_free`) as soon as
 * it is ready. Returns when the last bucket is done.
 */
static double dp_overlap(double end, double d, int L, double bucket_s, double *comm_free)
{
	double t = *comm_free;
	for (int j = 0; j < L; j++) {
		double ready = end - d + d * (j + 1) / L;
		if (t < ready)
			t = ready;
		t += bucket_s;
	}
	*comm_free = t;
	return t;
}


/* ---- full mode: every rank's traffic as flows ------------------------------ */

/*
 * Every pipeline replica runs on one engine. Activation and gradient
 * transfers between stages are flows from each tensor/context-parallel rank
 * of a stage to the same rank of the next (contending on NICs, rails and
 * leaf uplinks with everything else); data-parallel gradient buckets are
 * collectives run as flows on every (tp, cp) rank's DP group, a bucket
 * starting once every replica has produced it and the group's previous
 * bucket is done. Tensor, expert and context parallel collectives stay
 * inside the operations (they are on the critical path within a node).
 */
struct full_xfer {
	int pipe, to, mb;
	bool forward;
	int pending;
};

struct full_queue {
	struct engine_handler done;   /* first member */
	struct full_sim *fs;
	int stage;
	long *gpus;                   /* the DP group, dp entries */
	int head, tail;               /* buckets waiting: indexes into the stage's list */
	bool busy;
	struct collective_run run;
	double end_s;
};

struct full_sim {
	struct engine_handler xfer_done;
	struct engine_handler bucket_ready;
	const struct step_ctx *x;
	const struct train_plan *p;
	engine *e;
	flow_net *fn;
	struct topology_net tn;
	pipeline_sim *ps;
	int P;
	const int *vs_layers;
	const double *vs_params;
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
	struct coll_cost *bucket_cost;/* [P] one bucket's plan */
	double *stage_dp_end;
};

static long rank_gpu(const struct step_ctx *x, int t, int c, int i, int d)
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
	int si = from % p->pp, di = to % p->pp;
	if (fs->nx == fs->capx) {
		fs->capx = fs->capx ? 2 * fs->capx : 1024;
		fs->xfers = xreallocarray(fs->xfers, fs->capx, sizeof *fs->xfers);
	}
	size_t id = fs->nx++;
	struct full_xfer *xf = &fs->xfers[id];
	xf->pipe = pipe;
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
			double latency = collective_analytic(&fs->x->topo, &g, COLL_SEND_RECV, ALGO_AUTO, fs->act_bytes, &cost, &why)
					 ? cost.latency_s : lat;
			xf->pending++;
			flow_start(fs->fn, path, len, fs->act_bytes, 1.0, sim_time_from_s(latency), &fs->xfer_done, id);
		}
	flow_batch_end(fs->fn);
	if (xf->pending == 0)
		pipeline_sim_delivered(fs->ps, pipe, to, mb, forward);
}

static void full_xfer_done(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct full_sim *fs = (struct full_sim *)h;
	struct full_xfer *xf = &fs->xfers[arg];
	(void)e;
	if (--xf->pending == 0)
		pipeline_sim_delivered(fs->ps, xf->pipe, xf->to, xf->mb, xf->forward);
}

static void queue_next(struct full_queue *q);

static void queue_done(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct full_queue *q = (struct full_queue *)h;
	(void)arg;
	collective_run_release(&q->run);
	q->busy = false;
	q->end_s = sim_time_to_s(engine_now(e));
	queue_next(q);
}

static void queue_next(struct full_queue *q)
{
	struct full_sim *fs = q->fs;
	if (q->busy || q->head >= fs->stage_nbuckets[q->stage])
		return;
	int key = fs->stage_buckets[q->stage][q->head++];
	int vs = key / fs->maxL, L = fs->vs_layers[vs] > 0 ? fs->vs_layers[vs] : 1;
	double bytes = GRAD_BYTES * fs->vs_params[vs] / L;
	enum collective_op op = fs->p->zero == 0 ? COLL_ALL_REDUCE : COLL_REDUCE_SCATTER;
	q->busy = true;
	if (collective_run_start(&q->run, &fs->tn, fs->e, fs->fn, q->gpus, fs->p->dp, op, &fs->bucket_cost[vs], bytes,
			   &q->done, 0) < 0) {
		q->busy = false;  /* no flow form: nothing to wait for */
		queue_next(q);
	}
}

/* A bucket of virtual stage vs became ready on one replica. */
static void full_bucket_ready(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct full_sim *fs = (struct full_sim *)((char *)h - offsetof(struct full_sim, bucket_ready));
	int key = (int)arg, vs = key / fs->maxL, stage = vs % fs->p->pp;
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
	int L = fs->vs_layers[vs] > 0 ? fs->vs_layers[vs] : 1;
	(void)pipe;
	if (fs->p->dp < 2 || fs->p->zero >= 3 || fs->x->lora)
		return;
	/* the chunk's layers finish evenly over its last backward */
	for (int j = 0; j < L; j++)
		engine_after(fs->e, sim_time_from_s(duration * (j + 1) / L), ENGINE_CLASS_AFTER, &fs->bucket_ready,
			     (uint64_t)(vs * fs->maxL + j));
}

/*
 * Run the step with every replica and return the merged pipeline result
 * (each stage's latest end over the replicas) and each stage's end of
 * data-parallel communication.
 */
static void full_run(const struct step_ctx *x, const struct train_plan *p, const struct pipeline_config *pc,
		     const int *vs_layers, const double *vs_params, struct pipeline_result *pr,
		     double *stage_dp_end, struct timeline *trace)
{
	struct full_sim fs;
	int P = p->pp * p->vpp;

	memset(&fs, 0, sizeof fs);
	fs.xfer_done.fn = full_xfer_done;
	fs.bucket_ready.fn = full_bucket_ready;
	fs.x = x;
	fs.p = p;
	fs.P = P;
	fs.vs_layers = vs_layers;
	fs.vs_params = vs_params;
	fs.act_bytes = ACT_BYTES * x->tokens * x->w->model.hidden / p->tp;
	fs.e = engine_new();
	fs.fn = flow_new(fs.e);
	topology_net_build(&fs.tn, &x->topo, fs.fn);
	fs.maxL = 1;
	for (int vs = 0; vs < P; vs++)
		if (vs_layers[vs] > fs.maxL)
			fs.maxL = vs_layers[vs];
	fs.ready_count = xcalloc((size_t)P * fs.maxL, sizeof *fs.ready_count);
	fs.stage_buckets = xcalloc((size_t)p->pp, sizeof *fs.stage_buckets);
	fs.stage_nbuckets = xcalloc((size_t)p->pp, sizeof *fs.stage_nbuckets);
	for (int i = 0; i < p->pp; i++)
		fs.stage_buckets[i] = xcalloc((size_t)P * fs.maxL, sizeof **fs.stage_buckets);
	fs.groups = p->tp * p->cp;
	fs.queues = xcalloc((size_t)p->pp * fs.groups, sizeof *fs.queues);
	fs.bucket_cost = xcalloc((size_t)P, sizeof *fs.bucket_cost);
	{
		struct collective_group dpg;
		group_shape(x, DIM_DP, p->dp, &dpg);
		for (int vs = 0; vs < P; vs++) {
			int L = vs_layers[vs] > 0 ? vs_layers[vs] : 1;
			const char *why;
			enum collective_op op = p->zero == 0 ? COLL_ALL_REDUCE : COLL_REDUCE_SCATTER;
			if (p->dp > 1)
				collective_analytic(&x->topo, &dpg, op, ALGO_AUTO, GRAD_BYTES * vs_params[vs] / L,
						    &fs.bucket_cost[vs], &why);
		}
	}
	for (int i = 0; i < p->pp; i++)
		for (int t = 0; t < p->tp; t++)
			for (int c = 0; c < p->cp; c++) {
				struct full_queue *q = &fs.queues[i * fs.groups + t * p->cp + c];
				q->done.fn = queue_done;
				q->fs = &fs;
				q->stage = i;
				q->gpus = xcalloc((size_t)p->dp, sizeof *q->gpus);
				for (int d = 0; d < p->dp; d++)
					q->gpus[d] = rank_gpu(x, t, c, i, d);
			}
	struct pipeline_hooks hooks = { .ctx = &fs, .send = full_send, .last_grads = full_last_grads };
	fs.ps = pipeline_sim_new(fs.e, pc, p->dp, &hooks, trace);
	pipeline_sim_start(fs.ps);
	engine_run(fs.e, SIM_TIME_MAX);

	/* merge: each stage ends when its slowest replica does */
	pipeline_sim_result(fs.ps, 0, pr);
	for (int d = 1; d < p->dp; d++) {
		struct pipeline_result o;
		pipeline_sim_result(fs.ps, d, &o);
		for (int i = 0; i < p->pp; i++) {
			if (o.stage_end_s[i] > pr->stage_end_s[i])
				pr->stage_end_s[i] = o.stage_end_s[i];
		}
		for (int vs = 0; vs < P; vs++)
			if (o.grads_final_s[vs] > pr->grads_final_s[vs])
				pr->grads_final_s[vs] = o.grads_final_s[vs];
		if (o.span_s > pr->span_s)
			pr->span_s = o.span_s;
		pipeline_result_release(&o);
	}
	for (int i = 0; i < p->pp; i++) {
		stage_dp_end[i] = 0;
		for (int g = 0; g < fs.groups; g++) {
			struct full_queue *q = &fs.queues[i * fs.groups + g];
			if (q->end_s > stage_dp_end[i])
				stage_dp_end[i] = q->end_s;
			free(q->gpus);
		}
		free(fs.stage_buckets[i]);
	}
	pipeline_sim_free(fs.ps);
	topology_net_release(&fs.tn);
	flow_free(fs.fn);
	engine_free(fs.e);
	free(fs.xfers);
	free(fs.ready_count);
	free(fs.stage_buckets);
	free(fs.stage_nbuckets);
	free(fs.queues);
	free(fs.bucket_cost);
}

/* Simulate one step of plan p. When the time the busiest stage spends on
 * its own kernels (a lower bound on the step: no schedule beats it) is
 * already at least bound_s, stop before the pipeline simulation, put that
 * bound in r->step_time_s and return false; the plan search uses this to
 * skip plans that cannot win. */
static bool step_bounded(const struct train_spec *w, const struct cluster_spec *c,
			 const struct train_plan *p, struct train_result *r, struct timeline *trace,
			 double bound_s)
{
	const struct model_spec *m = &w->model;
	struct step_ctx x;
	struct cs_error err;
	int P = p->pp * p->vpp;
	double *f_s, *b_s, *w_s, *sf, *sb, *vs_params;
	int *vs_layers;
	struct layer_time dense_lt, moe_lt;
	bool zb = p->schedule == SCHED_ZB_H1;

	memset(r, 0, sizeof *r);
	r->plan = *p;
	x.w = w;
	x.c = c;
	x.p = p;
	topology_init(&x.topo, c);
	if (placement_init(&x.place, p->tp, p->cp, p->pp, p->dp, p->order, &err) < 0) {
		r->status = TRAIN_INVALID;
		snprintf(r->reason, sizeof r->reason, "%.250s", err.msg);
		return true;
	}
	roofline_init(&x.k, &c->gpu, w->precision, &w->kernels);
	x.tokens = (double)p->micro_batch * w->seq_len / p->cp;
	x.lora = w->is_finetune && w->finetune.method != FINETUNE_FULL;

	train_memory(w, c, p, &r->mem);
	if (r->mem.total > c->gpu.memory_bytes) {
		r->status = TRAIN_OOM;
		snprintf(r->reason, sizeof r->reason,
			 "needs %.1f GB per GPU (weights %.1f, grads %.1f, optimizer %.1f, activations %.1f, workspace %.1f) of %.1f",
			 r->mem.total / 1e9, r->mem.weights / 1e9, r->mem.grads / 1e9, r->mem.optimizer / 1e9,
			 r->mem.activations / 1e9, r->mem.workspace / 1e9, c->gpu.memory_bytes / 1e9);
	}

	layer_cost(&x, false, &dense_lt);
	if (m->experts > 0)
		layer_cost(&x, true, &moe_lt);
	else
		moe_lt = dense_lt;

	/* per virtual stage: kernel times, sends, parameters; per stage: the
	 * critical-path communication per micro-batch summed over its chunks.
	 * One block, freed at once. */
	double *inputs = xcalloc((size_t)(6 * P + 3 * p->pp), sizeof *inputs);
	f_s = inputs;
	b_s = f_s + P;
	w_s = b_s + P;
	sf = w_s + P;
	sb = sf + P;
	vs_params = sb + P;
	double *stage_tp = vs_params + P;
	double *stage_ep = stage_tp + p->pp;
	double *stage_cp = stage_ep + p->pp;
	vs_layers = xcalloc((size_t)P, sizeof *vs_layers);

	/* ZeRO-3: gather each layer's weights before its forward and backward
	 * (prefetched behind the previous layer) and reduce-scatter its
	 * gradients after its backward, every micro-batch. */
	struct collective_group dpg;
	group_shape(&x, DIM_DP, p->dp, &dpg);
	double z3_f = 0, z3_b = 0;
	if (p->zero >= 3 && p->dp > 1) {
		double layer_bytes = WEIGHT_BYTES * transformer_layer_params(m, m->experts > 0, true) / p->tp;
		double ag = coll_time(&x, &dpg, COLL_ALL_GATHER, layer_bytes);
		double rs = coll_time(&x, &dpg, COLL_REDUCE_SCATTER, layer_bytes);
		z3_f = roofline_overlap_s(ag, dense_lt.fwd);
		double bwd = dense_lt.bwd_input + dense_lt.bwd_weight + dense_lt.recompute;
		z3_b = roofline_overlap_s(ag + rs, bwd);
	}

	for (int vs = 0; vs < P; vs++) {
		int first, count, dense, moe;
		int stage = vs % p->pp;
		stage_layers(m->layers, P, vs, &first, &count);
		layer_mix(m, first, count, &dense, &moe);
		vs_layers[vs] = count;
		vs_params[vs] = vstage_params(m, p, vs, P);
		const struct layer_time *D = &dense_lt, *E = &moe_lt;
		double fwd = dense * (D->fwd + D->tp_fwd + D->ep_fwd + D->cp_fwd + z3_f) +
			     moe * (E->fwd + E->tp_fwd + E->ep_fwd + E->cp_fwd + z3_f);
		double bin = dense * (D->bwd_input + D->recompute + D->tp_bwd + D->ep_bwd + D->cp_bwd + z3_b) +
			     moe * (E->bwd_input + E->recompute + E->tp_bwd + E->ep_bwd + E->cp_bwd + z3_b);
		double bw = dense * D->bwd_weight + moe * E->bwd_weight;
		stage_tp[stage] += dense * (D->tp_fwd + D->tp_bwd) + moe * (E->tp_fwd + E->tp_bwd);
		stage_ep[stage] += dense * (D->ep_fwd + D->ep_bwd) + moe * (E->ep_fwd + E->ep_bwd);
		stage_cp[stage] += dense * (D->cp_fwd + D->cp_bwd) + moe * (E->cp_fwd + E->cp_bwd);
		if (vs == 0)
			fwd += roofline_memory_s(&x.k, ACT_BYTES * x.tokens * m->hidden * 2, 1);  /* embedding */
		if (vs == P - 1) {
			/* output projection and the loss (fp32 softmax over V / t) */
			double logits = roofline_gemm_s(&x.k, x.tokens, (double)m->vocab / p->tp, m->hidden);
			double loss = roofline_memory_s(&x.k, 4.0 * 3 * x.tokens * m->vocab / p->tp, 3);
			fwd += logits + loss;
			bin += logits + loss;
			bw += logits;
		}
		f_s[vs] = fwd;
		if (zb) {
			b_s[vs] = bin;
			w_s[vs] = bw;
		} else {
			b_s[vs] = bin + bw;
		}
		/* activations and their gradients to the next virtual stage */
		if (vs + 1 < P) {
			double bytes = ACT_BYTES * x.tokens * m->hidden / p->tp;
			long a = stage_gpu(&x, stage), b = stage_gpu(&x, (vs + 1) % p->pp);
			sf[vs] = p2p_time(&x, a, b, bytes);
			sb[vs] = p2p_time(&x, b, a, bytes);
		}
	}

	double busy_bound = 0;
	for (int i = 0; i < p->pp; i++) {
		double busy = 0;
		for (int ch = 0; ch < p->vpp; ch++) {
			int vs = ch * p->pp + i;
			busy += f_s[vs] + b_s[vs] + (zb ? w_s[vs] : 0);
		}
		busy *= p->microbatches;
		if (busy > busy_bound)
			busy_bound = busy;
	}
	if (busy_bound >= bound_s) {
		r->step_time_s = busy_bound;
		free(inputs);
		free(vs_layers);
		return false;
	}

	struct pipeline_config pc = {
		.p = p->pp, .v = p->vpp, .m = p->microbatches, .schedule = p->schedule,
		.f_s = f_s, .b_s = b_s, .w_s = zb ? w_s : NULL, .send_f_s = sf, .send_b_s = sb,
	};
	struct pipeline_result pr;
	bool full = w->mode == TRAIN_FULL;
	double *full_dp_end = xcalloc((size_t)p->pp, sizeof *full_dp_end);
	if (full)
		full_run(&x, p, &pc, vs_layers, vs_params, &pr, full_dp_end, trace);
	else
		pipeline_run(&pc, &pr, trace);

	/* Data parallel: buckets overlapped with the last backward of each
	 * chunk, then the optimizer, then (ZeRO-1/2) gathering the updated
	 * weights, which overlaps the next step's first forward. */
	double step = 0;
	double dp_exposed_sum = 0, opt_sum = 0, busy_sum = 0, bubble_sum = 0, other_sum = 0;
	double *stage_total = xcalloc((size_t)p->pp, sizeof *stage_total);
	double *stage_dp = xcalloc((size_t)p->pp, sizeof *stage_dp);
	double *stage_opt = xcalloc((size_t)p->pp, sizeof *stage_opt);
	for (int i = 0; i < p->pp; i++) {
		double comm_free = 0, params = 0, end = pr.stage_end_s[i], dp_end = end;
		double first_fwd = f_s[i];
		for (int ch = p->vpp - 1; ch >= 0; ch--) {
			int vs = ch * p->pp + i;
			params += vs_params[vs];
		}
		bool lora = x.lora;
		double grad_params = lora ? lora_params_per_layer(w, p) * m->layers / p->pp : params;
		if (full && p->dp > 1 && p->zero < 3 && !lora) {
			/* the flows decided when the reduction ended; the part hidden
			 * under the last backward slowed it */
			for (int ch = 0; ch < p->vpp; ch++) {
				int vs = ch * p->pp + i;
				int L = vs_layers[vs] > 0 ? vs_layers[vs] : 1;
				double bucket = coll_time(&x, &dpg, p->zero == 0 ? COLL_ALL_REDUCE : COLL_REDUCE_SCATTER,
							  GRAD_BYTES * vs_params[vs] / L);
				double under = L * bucket < pr.last_grad_op_s[vs] ? L * bucket : pr.last_grad_op_s[vs];
				end += roofline_overlap_slowdown * under;
			}
			if (full_dp_end[i] > dp_end)
				dp_end = full_dp_end[i];
		} else if (p->dp > 1 && p->zero < 3) {
			/* chunks finish in reverse order of chunk index */
			for (int ch = p->vpp - 1; ch >= 0; ch--) {
				int vs = ch * p->pp + i;
				double chunk_params = lora ? grad_params / p->vpp : vs_params[vs];
				double bytes = GRAD_BYTES * chunk_params;
				enum collective_op op = p->zero == 0 ? COLL_ALL_REDUCE : COLL_REDUCE_SCATTER;
				int L = vs_layers[vs] > 0 ? vs_layers[vs] : 1;
				double bucket = coll_time(&x, &dpg, op, bytes / L);
				double t_end = dp_overlap(pr.grads_final_s[vs], pr.last_grad_op_s[vs], L, bucket, &comm_free);
				/* the buckets reduced under the last backward slowed it */
				double under = L * bucket < pr.last_grad_op_s[vs] ? L * bucket : pr.last_grad_op_s[vs];
				end += roofline_overlap_slowdown * under;
				if (t_end > dp_end)
					dp_end = t_end;
				if (trace != NULL && bucket > 0)
					timeline_add(trace, i, 1, p->zero == 0 ? "DP all-reduce" : "DP reduce-scatter",
						      t_end - L * bucket, t_end);
			}
		}
		if (end > dp_end)
			dp_end = end;
		double local = grad_params / (p->zero >= 1 ? p->dp : 1);
		double opt = roofline_memory_s(&x.k, ADAM_TRAFFIC_BYTES * local, 4);
		double ag_exposed = 0;
		if (p->dp > 1 && (p->zero == 1 || p->zero == 2) && !lora) {
			double ag = coll_time(&x, &dpg, COLL_ALL_GATHER, WEIGHT_BYTES * params);
			ag_exposed = roofline_overlap_s(ag, first_fwd);
		}
		stage_total[i] = dp_end + opt + ag_exposed;
		stage_dp[i] = dp_end - pr.stage_end_s[i] + ag_exposed;
		stage_opt[i] = opt;
		if (trace != NULL) {
			timeline_add(trace, i, 0, "optimizer", dp_end, dp_end + opt);
			if (ag_exposed > 0)
				timeline_add(trace, i, 1, "DP all-gather (exposed)", dp_end + opt, dp_end + opt + ag_exposed);
		}
		if (stage_total[i] > step)
			step = stage_total[i];
	}
	/* Breakdown of the average stage: busy compute minus critical-path
	 * communication, the waits, and the tail. */
	for (int i = 0; i < p->pp; i++) {
		double comm_crit = (stage_tp[i] + stage_ep[i] + stage_cp[i]) * p->microbatches;
		double busy = pr.stage_busy_s[i];
		busy_sum += busy - comm_crit;
		dp_exposed_sum += stage_dp[i];
		opt_sum += stage_opt[i];
		bubble_sum += pr.stage_end_s[i] - busy;
		other_sum += step - stage_total[i];
	}
	double n = p->pp;
	r->br.compute = busy_sum / n;
	r->br.optimizer = opt_sum / n;
	r->br.comm_dp = dp_exposed_sum / n;
	r->br.bubble = bubble_sum / n;
	r->br.other = other_sum / n;
	double tp_s = 0, ep_s = 0, cp_s = 0;
	for (int i = 0; i < p->pp; i++) {
		tp_s += stage_tp[i] * p->microbatches;
		ep_s += stage_ep[i] * p->microbatches;
		cp_s += stage_cp[i] * p->microbatches;
	}
	r->br.comm_tp = tp_s / n;
	r->br.comm_ep = ep_s / n;
	r->br.comm_cp = cp_s / n;

	r->step_time_s = step;
	r->tokens_per_step = w->global_batch_tokens;
	long gpus = cluster_gpus(c);
	r->model_flops_per_step = transformer_model_flops_per_token(m, w->seq_len) * w->global_batch_tokens;
	r->hardware_flops_per_step = transformer_hardware_flops_per_token(m, w->seq_len, p->recompute) * w->global_batch_tokens;
	if (x.lora) {
		/* frozen base: forward and input gradients only (2 of the 3 passes) */
		r->model_flops_per_step *= 2.0 / 3.0;
		r->hardware_flops_per_step = r->model_flops_per_step +
			(r->hardware_flops_per_step - transformer_model_flops_per_token(m, w->seq_len) * w->global_batch_tokens);
	}
	if (step > 0) {
		r->tokens_per_s = w->global_batch_tokens / step;
		r->tflops_per_gpu = r->model_flops_per_step / step / gpus / 1e12;
		double peak = x.k.peak_flops_per_s;
		r->mfu = r->model_flops_per_step / step / gpus / peak;
		r->hfu = r->hardware_flops_per_step / step / gpus / peak;
	}
	if (r->status == TRAIN_OK && !(step > 0 && isfinite(step))) {
		r->status = TRAIN_ERROR;
		snprintf(r->reason, sizeof r->reason, "step time is not a finite positive number");
	}

	pipeline_result_release(&pr);
	free(full_dp_end);
	free(stage_total);
	free(stage_dp);
	free(stage_opt);
	free(inputs);
	free(vs_layers);
	return true;
}

void train_step(const struct train_spec *w, const struct cluster_spec *c,
		   const struct train_plan *p, struct train_result *r, struct timeline *trace)
{
	step_bounded(w, c, p, r, trace, INFINITY);
}

/* ---- the plan search -------------------------------------------------------- */

static bool plan_has_auto(const struct parallel_plan *q)
{
	return q->tp == PLAN_AUTO || q->pp == PLAN_AUTO || q->vpp == PLAN_AUTO || q->cp == PLAN_AUTO ||
	       q->ep == PLAN_AUTO || q->zero == PLAN_AUTO || q->micro_batch == PLAN_AUTO ||
	       q->schedule == PLAN_AUTO || q->recompute == PLAN_AUTO || q->sequence_parallel == PLAN_AUTO ||
	       q->dp == PLAN_AUTO;
}

/* Candidate values of one field: the given one, or a list. */
static int choices(int given, const int *list, int n, int *out)
{
	if (given != PLAN_AUTO) {
		out[0] = given;
		return 1;
	}
	memcpy(out, list, (size_t)n * sizeof *out);
	return n;
}

/* A plan that fits, with a lower bound on its step time. */
struct candidate_plan {
	struct train_plan plan;
	double bound_s;
	int index;  /* enumeration order, for ties */
};

/* Ascending bound, then enumeration order (a total order: qsort is not stable). */
static int compare_candidate_plans(const void *a, const void *b)
{
	const struct candidate_plan *x = a, *y = b;
	if (x->bound_s != y->bound_s)
		return x->bound_s < y->bound_s ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

void train_evaluate(const struct train_spec *w, const struct cluster_spec *c,
		    struct timeline *trace, struct train_result *r)
{
	const struct parallel_plan *q = &w->plan;
	struct train_plan p;
	const char *why;

	memset(r, 0, sizeof *r);
	/* only dp left to derive: no search */
	bool only_dp = !plan_has_auto(&(struct parallel_plan){ .tp = q->tp, .pp = q->pp, .vpp = q->vpp,
		.cp = q->cp, .ep = q->ep, .zero = q->zero, .micro_batch = q->micro_batch,
		.schedule = q->schedule, .recompute = q->recompute, .sequence_parallel = 0, .dp = 0 });
	if (only_dp) {
		why = train_plan_fill(w, c, q, &p);
		if (why != NULL) {
			r->status = TRAIN_INVALID;
			snprintf(r->reason, sizeof r->reason, "%s", why);
			return;
		}
		train_step(w, c, &p, r, trace);
		r->plans_tried = 1;
		return;
	}

	static const int tps[] = { 1, 2, 4, 8, 16, 32, 64, 72 };
	static const int pps[] = { 1, 2, 4, 8, 16, 32, 64, 128 };
	static const int vpps[] = { 1, 2, 4, 8 };
	static const int cps[] = { 1, 2, 4, 8, 16 };
	static const int eps[] = { 1, 2, 4, 8, 16, 32, 64 };
	static const int zeros[] = { 1, 3 };
	static const int mbs[] = { 1, 2, 4, 8 };
	static const int recs[] = { RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };
	int tpc[8], ppc[8], vc[4], cpc[5], epc[7], zc[2], mbc[4], rc[2];
	int ntp = choices(q->tp, tps, 8, tpc), npp = choices(q->pp, pps, 8, ppc);
	int nv = choices(q->vpp, vpps, 4, vc), ncp = choices(q->cp, cps, 5, cpc);
	int nep = choices(q->ep, eps, c->gpus_per_node > 0 && w->model.experts > 0 ? 7 : 1, epc);
	int nz = choices(q->zero, zeros, 2, zc), nmb = choices(q->micro_batch, mbs, 4, mbc);
	int nr = choices(q->recompute, recs, 2, rc);
	if (q->cp == PLAN_AUTO && w->seq_len < 32768)
		ncp = 1;  /* context parallelism pays off only for long sequences */

	/* Pass 1: every plan that divides the cluster; the ones that fit get
	 * a lower bound (their busiest stage's kernels, no pipeline run).
	 * Pass 2: simulate them from the smallest bound up and stop simulating
	 * a plan as soon as its bound cannot beat the best step so far. Ties
	 * go to the plan enumerated first, so the answer does not depend on
	 * the visiting order. */
	struct candidate_plan *cands = NULL;
	size_t ncands = 0, cap = 0;
	struct train_result best, cur;
	bool found = false;
	int best_index = 0;
	int tried = 0;
	char last_reason[256] = "no plan divides the cluster";
	struct train_result best_oom;
	bool have_oom = false;

	memset(&best, 0, sizeof best);
	for (int a = 0; a < ntp; a++)
	for (int b = 0; b < npp; b++)
	for (int v = 0; v < nv; v++)
	for (int e = 0; e < ncp; e++)
	for (int f = 0; f < nep; f++)
	for (int z = 0; z < nz; z++)
	for (int mb = 0; mb < nmb; mb++)
	for (int rr = 0; rr < nr; rr++) {
		struct parallel_plan t = *q;
		t.tp = tpc[a];
		t.pp = ppc[b];
		t.vpp = vc[v];
		t.cp = cpc[e];
		t.ep = epc[f];
		t.zero = zc[z];
		t.micro_batch = mbc[mb];
		t.recompute = rc[rr];
		t.dp = q->dp;
		if (t.tp > c->gpus_per_node)
			continue;
		if (t.vpp > 1 && t.pp == 1)
			continue;
		if (q->schedule == PLAN_AUTO)
			t.schedule = t.vpp > 1 ? SCHED_INTERLEAVED : SCHED_1F1B;
		else if (t.vpp > 1 && q->schedule != SCHED_INTERLEAVED)
			continue;
		why = train_plan_fill(w, c, &t, &p);
		if (why != NULL) {
			snprintf(last_reason, sizeof last_reason, "%s", why);
			continue;
		}
		/* cheap memory check before simulating */
		struct train_memory mem;
		train_memory(w, c, &p, &mem);
		tried++;
		if (mem.total > c->gpu.memory_bytes) {
			if (!have_oom || mem.total < best_oom.mem.total) {
				train_step(w, c, &p, &best_oom, NULL);
				have_oom = true;
			}
			continue;
		}
		if (step_bounded(w, c, &p, &cur, NULL, -1.0))
			continue;  /* not simulated because invalid (placement) */
		if (ncands == cap) {
			cap = cap ? 2 * cap : 64;
			cands = xreallocarray(cands, cap, sizeof *cands);
		}
		cands[ncands].plan = p;
		cands[ncands].bound_s = cur.step_time_s;
		cands[ncands].index = tried;
		ncands++;
	}
	if (ncands > 1)
		qsort(cands, ncands, sizeof *cands, compare_candidate_plans);
	for (size_t i = 0; i < ncands; i++) {
		double bound = found ? best.step_time_s * (1 + 1e-9) : INFINITY;
		if (cands[i].bound_s > bound)
			break;  /* sorted: no later plan can win either */
		if (!step_bounded(w, c, &cands[i].plan, &cur, NULL, bound))
			continue;
		if (cur.status != TRAIN_OK)
			continue;
		bool better = !found || cur.step_time_s < best.step_time_s * (1 - 1e-12) ||
			      (cur.step_time_s <= best.step_time_s * (1 + 1e-12) && cands[i].index < best_index);
		if (better) {
			best = cur;
			best_index = cands[i].index;
			found = true;
		}
	}
	free(cands);
	if (found) {
		*r = best;
	} else if (have_oom) {
		*r = best_oom;
		r->status = TRAIN_OOM;
		snprintf(r->reason + strlen(r->reason), sizeof r->reason - strlen(r->reason), "%s",
			 " (no plan fits; this is the smallest)");
	} else {
		r->status = TRAIN_INVALID;
		snprintf(r->reason, sizeof r->reason, "%s", last_reason);
	}
	r->searched = true;
	r->plans_tried = tried;
	if (trace != NULL && found) {
		/* the winner once more, logged: the same deterministic step */
		struct train_result logged;
		train_step(w, c, &r->plan, &logged, trace);
	}
}
