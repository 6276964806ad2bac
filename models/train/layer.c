#include "layer.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/kernel/transformer.h"
#include "models/train/parallel.h"
#include "models/train/pipeline.h"
#include "models/train/memory.h"
#include "util/xalloc.h"

/* Seconds of a layer's GEMMs in each pass, and the bytes of a gradient
 * element their weight gradients add into (0: written, not added). */
struct layer_gemms {
	double fwd, dgrad, wgrad;
	double acc_bytes;
};

int layer_ctx_init(struct layer_ctx *x, const struct train_spec *w, const struct cluster_spec *c,
		   const struct train_plan *p, struct cs_error *err)
{
	x->w = w;
	x->c = c;
	x->p = p;
	topology_init(&x->topo, c);
	if (placement_init(&x->place, p->tp, p->cp, p->pp, p->dp, p->order, err) < 0)
		return -1;
	roofline_init(&x->k, &c->gpu, w->model->precision, &w->model->kernels);
	roofline_training_attention(&x->k, &c->gpu, &w->model->kernels);
	roofline_init(&x->head_k, &c->gpu,
		      w->model->precision == PREC_FP8 || w->model->precision == PREC_FP4 ? PREC_BF16 : w->model->precision, &w->model->kernels);
	x->tokens = (double)p->micro_batch * w->seq_len / p->cp;
	x->lora = w->is_finetune && w->finetune.method != FINETUNE_FULL;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The shape of a group of `size` GPUs on `nodes` distinct nodes: nodes x
 * GPUs per node, or one rank per node when they do not split evenly. */
static void shape_make(int size, long nodes, struct collective_group *g)
{
	if (nodes < 1)
		nodes = 1;
	if (size % nodes != 0)
		nodes = size;  /* uneven: treat as one rank per node */
	collective_group_make(g, (int)nodes, size / (int)nodes);
}

/* The shape of the group of `size` GPUs gpus[] in any order: its distinct
 * nodes sorted and counted where they change. O(size log size); only the
 * folded expert group (ep ranks) comes here. */
static void shape_of(const struct layer_ctx *x, const long *gpus, int size, struct collective_group *g)
{
	int *node = xcalloc((size_t)(size > 0 ? size : 1), sizeof *node);
	for (int i = 0; i < size; i++)
		node[i] = topology_node(&x->topo, gpus[i]);
	qsort(node, (size_t)size, sizeof *node, cmp_int);
	int nodes = size > 0;
	for (int i = 1; i < size; i++)
		nodes += node[i] != node[i - 1];
	free(node);
	shape_make(size, nodes, g);
}

/* A smaller group is the first `size` of the dimension's: an expert-parallel
 * group of DP replicas, an expert-TP group of TP ranks. Its nodes from the
 * placement's strides (placement_nodes), without listing its GPUs. */
void layer_group_shape(const struct layer_ctx *x, enum plan_dim dim, int size, struct collective_group *g)
{
	int count[DIM_COUNT] = { 1, 1, 1, 1 };
	int full = x->place.size[dim];
	count[dim] = size < full ? size : full;
	if (count[dim] < 1) {
		shape_make(count[dim], 1, g);
		return;
	}
	shape_make(count[dim], placement_nodes(&x->place, count, x->topo.gpus_per_node), g);
}

/* The expert-parallel group of the first rank. Not folded: the first ep
 * data-parallel replicas (Megatron's EP inside DP). Folded: the experts'
 * grid etp x ep x edp over the stage's ranks numbered tp fastest, then
 * cp, then dp, so its members are the ranks f = j etp, j < ep. */
static void expert_group_shape(const struct layer_ctx *x, struct collective_group *g)
{
	const struct train_plan *p = x->p;
	if (!parallel_moe_folded(p)) {
		layer_group_shape(x, DIM_DP, p->ep, g);
		return;
	}
	long *gpus = xcalloc((size_t)p->ep, sizeof *gpus);
	for (int j = 0; j < p->ep; j++) {
		long f = (long)j * p->etp;
		int c[DIM_COUNT] = { 0, 0, 0, 0 };
		c[DIM_TP] = (int)(f % p->tp);
		c[DIM_CP] = (int)(f / p->tp % p->cp);
		c[DIM_DP] = (int)(f / ((long)p->tp * p->cp));
		gpus[j] = placement_gpu(&x->place, c);
	}
	shape_of(x, gpus, p->ep, g);
	free(gpus);
}

void layer_dp_cp_group_shape(const struct layer_ctx *x, struct collective_group *g)
{
	int cp = x->place.size[DIM_CP], dp = x->place.size[DIM_DP];
	if (cp <= 1) {
		layer_group_shape(x, DIM_DP, dp, g);
		return;
	}
	int count[DIM_COUNT] = { 1, 1, 1, 1 };
	count[DIM_CP] = cp;
	count[DIM_DP] = dp;
	shape_make(cp * dp, placement_nodes(&x->place, count, x->topo.gpus_per_node), g);
}

double layer_coll_s(const struct layer_ctx *x, const struct collective_group *g, enum collective_op op, double bytes)
{
	struct coll_cost cost;
	const char *why;
	if (g->n < 2 || bytes <= 0)
		return 0;
	bool ok = collective_analytic(&x->topo, g, op, ALGO_AUTO, bytes, &cost, &why);
	assert(ok);  /* only a multi-node group without a NIC fails; the scenario reader rejects that */
	(void)ok;
	return cost.time_s;
}

/* A GEMM of a layer, M x K by K x N, in its three passes: the forward
 * (output M x N), the input gradient (M x K, reducing over N) and the
 * weight gradient (K x N, reducing over M), each with its shape's
 * efficiency (roofline_gemm_tiled_s), times `count`, added to g; count >= 1
 * GEMMs (a rank's local experts) run grouped, their tiles sharing waves
 * (roofline_gemm_grouped_s). The weight gradient adds into the gradient
 * buffer when g->acc_bytes is set (roofline_gemm_accumulate_s). */
static void gemm_add(const struct roofline *k, double count, double M, double N, double K, struct layer_gemms *g)
{
	double groups = count >= 1 ? count : 1, scale = count >= 1 ? 1 : count;
	g->fwd += scale * roofline_gemm_grouped_s(k, groups, M, N, K, 0);
	g->dgrad += scale * roofline_gemm_grouped_s(k, groups, M, K, N, 0);
	g->wgrad += scale * roofline_gemm_grouped_s(k, groups, K, N, M, g->acc_bytes > 0 ? g->acc_bytes : 0);
}

/* MLP GEMMs of one layer (dense, or routed and shared experts) added to
 * *g, and the MLP's inner width per token on this GPU (for the
 * elementwise work) into *inner. */
static void mlp_gemms(const struct layer_ctx *x, bool moe, struct layer_gemms *g, double *inner)
{
	const struct model_spec *m = &x->w->model->arch;
	const struct train_plan *p = x->p;
	const struct roofline *k = &x->k;
	double T = x->tokens, t = p->tp, h = m->hidden;
	double gated = m->mlp == MLP_SWIGLU;

	if (!moe) {
		gemm_add(k, 1, T, (gated ? 2 : 1) * m->ffn / t, h, g);
		gemm_add(k, 1, T, h, m->ffn / t, g);
		*inner = m->ffn / t;
		return;
	}
	/* routed tokens: T k per GPU on average, over E/ep local experts. Folded
	 * (etp != tp), each rank routes its own T / tp tokens (sequence
	 * parallel) and an expert-TP group of etp ranks shares their tokens:
	 * T etp / tp per GPU, through experts split etp ways. The busiest
	 * expert-parallel rank, which every all-to-all waits for, gets
	 * moe_imbalance times the mean. */
	bool folded = parallel_moe_folded(p);
	double et = folded ? p->etp : t, routed_T = folded ? T * et / t : T;
	double local = (double)m->experts / p->ep;
	double per_expert = routed_T * m->experts_active * p->ep / m->experts * parallel_moe_imbalance(p);
	double fe = m->expert_ffn / et;
	gemm_add(k, 1, folded ? T / t : T, m->experts, h, g);
	gemm_add(k, local, per_expert, (gated ? 2 : 1) * fe, h, g);
	gemm_add(k, local, per_expert, h, fe, g);
	if (m->shared_experts > 0) {
		double fs = (double)m->shared_experts * m->expert_ffn / t;
		gemm_add(k, 1, T, (gated ? 2 : 1) * fs, h, g);
		gemm_add(k, 1, T, h, fs, g);
	}
	/* per token of T, folded or not: its k experts' width over tp */
	*inner = (m->experts_active + m->shared_experts) * m->expert_ffn / t;
}

/* Token permutation around the experts, per pass: before the dispatch each
 * token's activations (read once, T h) are copied into expert order for its
 * k experts (T k h written), and after the combine the k expert outputs are
 * read back and summed with their router weights into token order (T k h
 * read, T h written): 2 (1 + k) T h activation bytes in two memory-bound
 * kernels (Megatron-Core's fused permute / unpermute, moe_permute_fusion),
 * over the tokens this rank dispatches (1/tp of them under sequence
 * parallelism). Megatron-Core's `alltoall` dispatcher (the model's unless
 * moe_max_nodes_per_token names a node-deduplicating one) also regroups
 * what it receives by local expert when a rank holds more than one, after
 * the dispatch and again before the combine (sort_chunks_by_idxs in
 * megatron/core/transformer/moe/token_dispatcher.py): T k h read and
 * written twice more, two more kernels. The backward moves the same bytes. */
double layer_moe_permute_s(const struct layer_ctx *x)
{
	const struct model_spec *m = &x->w->model->arch;
	double tokens = x->p->sp ? x->tokens / x->p->tp : x->tokens;
	double bytes = TRAIN_ACT_BYTES * 2 * (1.0 + m->experts_active) * tokens * m->hidden;
	int kernels = 2;
	if (x->p->ep > 1 && x->p->moe_max_nodes == 0 && m->experts / x->p->ep > 1) {
		/* what the busiest rank receives */
		bytes += TRAIN_ACT_BYTES * 4 * m->experts_active * tokens * m->hidden * parallel_moe_imbalance(x->p);
		kernels += 2;
	}
	return roofline_memory_s(&x->k, bytes, kernels);
}

/* The attention core of one layer, forward (*fwd_s) and backward (*bwd_s). */
static void attention(const struct layer_ctx *x, double *fwd_s, double *bwd_s)
{
	const struct model_spec *m = &x->w->model->arch;
	const struct roofline *k = &x->k;
	double T = x->tokens, t = x->p->tp;
	double a = m->heads, s = x->w->seq_len;
	/* query-key and value widths per head: scores and values 2 s a (d_qk + d_v)
	 * FLOPs per token over the whole s x s, 4 s a d without MLA */
	double dsum = transformer_qk_head_dim(m) + transformer_v_head_dim(m);

	if (x->w->model->kernels.flash_attention) {
		/* FlashAttention: a causal kernel does half of the s x s product; its
		 * backward is 2.5 forwards (it recomputes the scores) */
		double attn_flops = T * s * a * dsum / t;
		*fwd_s = attn_flops / (k->attn_peak_flops_per_s * k->attn_efficiency) + k->launch_s;
		*bwd_s = 2.5 * *fwd_s;
	} else {
		/* Unfused attention: QK^T and AV as batched GEMMs over the whole
		 * s x s (masked, not skipped), and every score through scale, mask,
		 * softmax and dropout in memory: written by the GEMM (2 bytes), read
		 * and written by the softmax (4), by the dropout (4 and a 1-byte
		 * mask), read by AV (2): 13 bytes forward, twice that backward. */
		double scores = (a / t) * s * T;
		double gemm_s = 2 * T * s * a * dsum / t / (k->attn_peak_flops_per_s * k->gemm_efficiency) + 2 * k->launch_s;
		double mem_s = roofline_memory_s(k, 13 * scores, 3);
		*fwd_s = gemm_s + mem_s;
		*bwd_s = 2 * gemm_s + 2 * mem_s;
	}
}

/* Tensor parallel: with sequence parallelism two all-gathers and two
 * reduce-scatters of the layer's T x h activations per pass, else two
 * all-reduces; with userbuffers overlapped with the layer's GEMMs
 * (gemms_s forward). */
/* One half of a layer's TP collectives (attention's or the MLP's) over a
 * group of `size` tensor-parallel ranks exchanging `bytes`. */
static double tp_half_s(const struct layer_ctx *x, int size, double bytes)
{
	struct collective_group tg;
	if (size < 2)
		return 0;
	layer_group_shape(x, DIM_TP, size, &tg);
	if (x->p->sp)
		return layer_coll_s(x, &tg, COLL_ALL_GATHER, bytes) + layer_coll_s(x, &tg, COLL_REDUCE_SCATTER, bytes);
	return layer_coll_s(x, &tg, COLL_ALL_REDUCE, bytes);
}

/* mlp_gemms_s: the MLP's forward GEMMs, replayed with its collectives when
 * a selective recompute recomputes the MLP or MoE layer (replay_mlp). */
static void tp_comm(const struct layer_ctx *x, double gemms_s, double mlp_gemms_s, bool replay_mlp, bool moe,
		    struct layer_time *lt)
{
	const struct train_plan *p = x->p;
	double bytes = TRAIN_ACT_BYTES * x->tokens * x->w->model->arch.hidden;

	if (p->tp < 2)
		return;
	double attn = tp_half_s(x, p->tp, bytes), mlp = attn;
	if (moe && parallel_moe_folded(p) && x->w->model->arch.shared_experts == 0)
		/* folded experts: each rank routes its own tokens, so the MLP's
		 * gather and scatter run only over the etp ranks sharing them */
		mlp = tp_half_s(x, p->etp, bytes * p->etp / p->tp);
	lt->tp_fwd = attn + mlp;
	lt->tp_bwd = lt->tp_fwd;
	if (p->tp_overlap) {
		/* userbuffers: each all-gather runs under the GEMM that consumes
		 * it and each reduce-scatter under the one that produces it */
		lt->tp_fwd = layer_overlap_s(x, lt->tp_fwd, gemms_s);
		lt->tp_bwd = layer_overlap_s(x, lt->tp_bwd, 2 * gemms_s);
	}
	if (p->recompute == RECOMPUTE_FULL)
		lt->tp_bwd += lt->tp_fwd;
	else if (replay_mlp)
		lt->tp_bwd += p->tp_overlap ? layer_overlap_s(x, mlp, mlp_gemms_s) : mlp;
	if (p->distribute_saved && p->recompute == RECOMPUTE_FULL) {
		/* distributed checkpoints: the layer's input gathered back from
		 * the tp ranks before its recompute, nothing to hide it under
		 * (Megatron-LM's CheckpointFunction, gather_split_1d_tensor);
		 * the forward's 1/tp copy of it is not costed */
		struct collective_group tg;
		layer_group_shape(x, DIM_TP, p->tp, &tg);
		lt->tp_bwd += layer_coll_s(x, &tg, COLL_ALL_GATHER, bytes);
	}
}

/*
 * Share of the uniform all-to-all's inter-node bytes that node-limited
 * routing puts on the wire (DeepSeek-V3, arXiv:2412.19437, section 2.1.2 and
 * 3.2.2): each token goes to at most L nodes and crosses the network once per
 * node, its copies for the experts there fanned out over NVLink (DeepEP).
 * Its routing first picks L' = min(L, M) of the M nodes (groups of E/M
 * experts: DeepSeek-V3's top-4 of 8 groups) and then its k experts among
 * their L' E/M, drawn uniformly (as forced balancing draws them); a chosen
 * node holds none of them with probability q = C((L' - 1) E/M, k) / C(L' E/M, k),
 * so a token reaches D = L' (1 - q) nodes; of the k copies the uniform
 * exchange sends (k (M-1)/M cross nodes), D (M-1)/M do. With L >= M this is
 * the unlimited routing's M (1 - C(E - E/M, k) / C(E, k)). 1 without the
 * field or inside one node (Megatron's alltoall dispatcher sends every copy).
 */
double layer_moe_net_scale(int experts, int active, int nodes, int max_nodes)
{
	double k = active, M = nodes;
	if (max_nodes <= 0 || nodes < 2 || active < 1)
		return 1;
	double L = max_nodes < nodes ? max_nodes : nodes;
	double per_node = (double)experts / M, chosen = L * per_node, outside = chosen - per_node;
	double q = 1;
	for (int i = 0; i < active; i++)
		q *= outside - i > 0 ? (outside - i) / (chosen - i) : 0;
	double reach = L * (1 - q);
	return reach < k ? reach / k : 1;
}

/*
 * Share of a layer's dispatch and combine that can run behind another
 * micro-batch's computation. none: 0. dualpipe: 1 (DeepSeek-V3 section
 * 3.2.1: the bidirectional schedule pairs every forward chunk with a
 * backward one, so both all-to-alls hide). Under the dualpipev schedule,
 * either overlap mode pairs what its order pairs: the F&B operations'
 * forward and backward, 2 P_i of stage i's 4 m chunk operations
 * (pipeline_dualpipev_order), averaged over the stages. 1f1b: Megatron-Core's EP a2a
 * overlap merges the forward of one micro-batch with the backward of another,
 * which only the steady state has: stage s of pp runs warm_s = pp - 1 - s
 * unpaired forwards (interleaved: 2 (pp - 1 - s) + (vpp - 1) pp chunks;
 * Narayanan et al. 2021) and as many unpaired backwards, at least one of
 * each (the first forward and the last backward), of m vpp each; averaged
 * over the stages.
 */
double layer_moe_paired_share(enum moe_overlap mode, enum schedule_kind schedule, int pp, int vpp, int microbatches)
{
	if (mode == MOE_OVERLAP_NONE)
		return 0;
	if (schedule == SCHED_DUALPIPEV) {
		struct pipeline_step *steps = xcalloc((size_t)PIPELINE_DUALPIPEV_MAX_STEPS(microbatches), sizeof *steps);
		double paired = 0;
		for (int s = 0; s < pp; s++) {
			int n = pipeline_dualpipev_order(pp, s, microbatches, steps);
			for (int k = 0; k < n; k++)
				paired += steps[k].paired ? 2 : 0;
		}
		free(steps);
		return paired / (4.0 * microbatches * pp);
	}
	if (mode == MOE_OVERLAP_DUALPIPE)
		return 1;
	double ops = (double)microbatches * vpp, unpaired = 0;
	for (int s = 0; s < pp; s++) {
		double warm = vpp > 1 ? 2.0 * (pp - 1 - s) + (double)(vpp - 1) * pp : pp - 1 - s;
		if (warm < 1)
			warm = 1;
		unpaired += warm < ops ? warm : ops;
	}
	return 1 - unpaired / pp / ops;
}

/* A MoE layer's computation on either side of its all-to-alls, per pass:
 * the experts' (their GEMMs and activation) and the rest (attention, norms,
 * router, permutation and the layer's tensor-parallel collectives), which
 * Megatron-Core's 1F1B overlap schedules separately. */
struct moe_sides {
	double attn_fwd, mlp_fwd;  /* forward */
	double attn_bwd, mlp_bwd;  /* backward, weight gradients and recompute included */
};

/*
 * The all-to-all time a forward of one micro-batch and a backward of
 * another leave exposed when Megatron-Core's 1F1B overlap merges them
 * (TransformerLayerSchedulePlan.run in
 * megatron/core/models/common/model_chunk_schedule_plan.py), in three
 * phases of a communication stream beside a computation stream:
 *   comm: combine_bwd      | dispatch_fwd, dispatch_bwd     | combine_fwd
 *   comp: attention fwd    | experts bwd, experts fwd       | attention bwd
 * Each phase lasts its longer stream. In the middle one the experts'
 * forward waits for the forward's dispatch and the backward's dispatch for
 * the experts' backward, so it lasts at least dispatch_fwd + experts fwd
 * and experts bwd + dispatch_bwd. *fwd_s and *bwd_s get the exposed time
 * of the forward's and of the backward's all-to-alls (the middle phase's
 * shared by halves), each plus what its hidden part still costs
 * (`slowdown`: the training engine's ep_overlap_slowdown, fitted:
 * docs/explanation/calibration.md, "1F1B all-to-all overlap").
 */
void layer_moe_pair_exposed(double dispatch_fwd, double combine_fwd, double dispatch_bwd, double combine_bwd,
			    double attn_fwd, double mlp_fwd, double attn_bwd, double mlp_bwd, double slowdown,
			    double *fwd_s, double *bwd_s)
{
	double first = combine_bwd - attn_fwd, last = combine_fwd - attn_bwd;
	double comm = dispatch_fwd + dispatch_bwd, comp = mlp_bwd + mlp_fwd, mid = comm > comp ? comm : comp;
	if (dispatch_fwd + mlp_fwd > mid)
		mid = dispatch_fwd + mlp_fwd;
	if (mlp_bwd + dispatch_bwd > mid)
		mid = mlp_bwd + dispatch_bwd;
	first = first > 0 ? first : 0;
	last = last > 0 ? last : 0;
	double middle = mid - comp;
	double fwd_exposed = last + middle / 2, bwd_exposed = first + middle / 2;
	double fwd_comm = dispatch_fwd + combine_fwd, bwd_comm = dispatch_bwd + combine_bwd;
	double slow = slowdown;
	*fwd_s = fwd_exposed + slow * (fwd_comm - fwd_exposed > 0 ? fwd_comm - fwd_exposed : 0);
	*bwd_s = bwd_exposed + slow * (bwd_comm - bwd_exposed > 0 ? bwd_comm - bwd_exposed : 0);
}

/* Expert parallel: dispatch and combine all-to-alls of T k h per pass over
 * the EP group, the part to peers in the node on the scale-up links and the
 * rest on the NICs at once (collective_all_to_all_routed), thinned by
 * node-limited routing. With an overlap mode the paired share f runs beside
 * another micro-batch's other pass: Megatron-Core's 1F1B overlap (outside
 * the dualpipev schedule) in its three phases (layer_moe_pair_exposed),
 * DualPipe's behind the other pass's whole computation
 * (roofline_overlap_s). The busiest rank's load is moe_imbalance times the
 * mean. A full recompute replays the forward's. */
static void ep_comm(const struct layer_ctx *x, const struct moe_sides *sides, struct layer_time *lt)
{
	const struct model_spec *m = &x->w->model->arch;
	const struct train_plan *p = x->p;
	struct collective_group eg;
	struct coll_cost cost;
	/* with sequence parallelism each tensor-parallel rank dispatches its own
	 * 1/tp of the tokens (Megatron-Core requires it with EP and TP; the
	 * expert-TP gather is among the layer's TP collectives) */
	double tokens = p->sp ? x->tokens / p->tp : x->tokens;
	/* the busiest rank receives (and sends back) moe_imbalance x the mean,
	 * and the exchange ends when it does */
	double bytes = TRAIN_ACT_BYTES * tokens * m->experts_active * m->hidden * parallel_moe_imbalance(p);
	/* fp8 dispatch: one byte a value and one fp32 scale per 128 */
	double dispatch_bytes = p->moe_dispatch == MOE_DISPATCH_FP8 ? bytes * (1.0 + 4.0 / 128) / TRAIN_ACT_BYTES : bytes;

	expert_group_shape(x, &eg);
	double combine = 0, dispatch = 0;
	if (eg.n > 1 && bytes > 0) {
		double scale = layer_moe_net_scale(m->experts, m->experts_active, eg.nodes, p->moe_max_nodes);
		bool ok = collective_all_to_all_routed(&x->topo, &eg, bytes, scale, &cost, NULL);
		assert(ok);  /* as layer_coll_s: the reader rejects a multi-node cluster without a NIC */
		combine = dispatch = cost.time_s;
		if (dispatch_bytes != bytes) {
			ok = collective_all_to_all_routed(&x->topo, &eg, dispatch_bytes, scale, &cost, NULL);
			assert(ok);
			dispatch = cost.time_s;
		}
		(void)ok;
	}
	/* each pass: one transfer towards the experts (the dispatch, or the
	 * gradient of the combine) and one back (the combine, or the gradient
	 * of the dispatch) */
	double a2a = dispatch + combine;
	double f = layer_moe_paired_share(p->moe_overlap, p->schedule, p->pp, p->vpp, p->microbatches);
	double paired_fwd, paired_bwd;
	if (p->moe_overlap == MOE_OVERLAP_1F1B && p->schedule != SCHED_DUALPIPEV) {
		/* the backward's transfer towards the experts is the combine's
		 * gradient, the one back the dispatch's */
		layer_moe_pair_exposed(dispatch, combine, combine, dispatch, sides->attn_fwd, sides->mlp_fwd,
				       sides->attn_bwd, sides->mlp_bwd, x->w->model->training.ep_overlap_slowdown,
				       &paired_fwd, &paired_bwd);
	} else {
		paired_fwd = layer_overlap_s(x, a2a, lt->bwd_input + lt->bwd_weight + lt->recompute);
		paired_bwd = layer_overlap_s(x, a2a, lt->fwd);
	}
	lt->ep_fwd = (1 - f) * a2a + f * paired_fwd;
	lt->ep_bwd = (1 - f) * a2a + f * paired_bwd;
	if (p->recompute == RECOMPUTE_FULL ||
	    (p->recompute == RECOMPUTE_SELECTIVE && (p->recompute_modules & RECMOD_MOE)))
		lt->ep_bwd += lt->ep_fwd;
}

/* Context parallel: K and V go round the ring in cp - 1 steps, hidden
 * behind the attention computation (attn_fwd_s, attn_bwd_s) when it is long
 * enough. */
static void cp_comm(const struct layer_ctx *x, double attn_fwd_s, double attn_bwd_s, struct layer_time *lt)
{
	const struct model_spec *m = &x->w->model->arch;
	const struct train_plan *p = x->p;
	double t = p->tp, g = m->kv_heads;
	struct collective_group cg, pair;

	double heads = g / t < 1 ? 1 : g / t;
	double step_bytes = TRAIN_ACT_BYTES * x->tokens * heads * (transformer_qk_head_dim(m) + transformer_v_head_dim(m));
	layer_group_shape(x, DIM_CP, p->cp, &cg);
	collective_group_make(&pair, cg.nodes > 1 ? 2 : 1, cg.nodes > 1 ? 1 : 2);
	double step = layer_coll_s(x, &pair, COLL_SEND_RECV, step_bytes);
	double comm = (p->cp - 1) * step;
	lt->cp_fwd = layer_overlap_s(x, comm, attn_fwd_s);
	lt->cp_bwd = layer_overlap_s(x, 2 * comm, attn_bwd_s);
}

/* A frozen base stored in another format than the GEMMs read (QLoRA's NF4,
 * or a stated base_precision): before each pass, one memory-bound kernel per
 * weight GEMM reads the layer's stored weights on this GPU and writes them
 * in the operand format (bitsandbytes dequantizes each 4-bit Linear before
 * its forward and its backward matmul; Dettmers et al. 2023, section 3). */
static double dequant_s(const struct layer_ctx *x, bool moe)
{
	const struct model_spec *m = &x->w->model->arch;
	const struct train_plan *p = x->p;
	double per_param = memory_base_cast_bytes_per_param(x->w);
	if (!(per_param > 0))
		return 0;
	struct transformer_gemm ag[TRANSFORMER_ATTN_GEMMS];
	double params = transformer_attention_params(m) / p->tp;
	int kernels = transformer_attention_gemms(m, p->tp, ag);  /* QKV (or MLA's four), output */
	if (moe) {
		double local = (double)m->experts / p->ep;
		params += parallel_moe_layer_params(m, p);
		kernels += 1 + 2 * (int)local + (m->shared_experts > 0 ? 2 : 0);
	} else {
		params += transformer_mlp_params(m, false, false) / p->tp;
		kernels += 2;  /* gate and up (fused), down */
	}
	return roofline_memory_s(&x->k, per_param * params, kernels);
}

/* What a layer's forward spent, for its selective recompute. */
struct recompute_parts {
	double attn_s;                      /* attention core */
	double mlp_gemms_s;                 /* the MLP's (or MoE layer's) GEMMs */
	double inner;                       /* the MLP's inner width per token on this GPU */
	double permute_s;                   /* MoE token permutation */
	const struct transformer_gemm *ag;  /* the attention block's GEMMs */
	int nag;
};

/*
 * Seconds a selective recompute adds to a layer's backward: the forward of
 * each module of the plan's recompute_modules (enum recompute_module) this
 * layer has. The norms and the experts' activation are memory-bound
 * kernels (read and written once); mlp and moe replay their GEMMs,
 * elementwise work and permutation, and *replay_mlp says the MLP's
 * collectives run again (the TP ones in tp_comm; an MoE layer's dispatch
 * and combine in ep_comm); mla_up_proj its two up-projection GEMMs.
 */
static double selective_recompute_s(const struct layer_ctx *x, bool moe, const struct recompute_parts *r,
				    bool *replay_mlp)
{
	const struct model_spec *m = &x->w->model->arch;
	const struct train_plan *p = x->p;
	const struct roofline *k = &x->k;
	int mods = p->recompute_modules;
	double T = x->tokens, rep = p->sp ? p->tp : 1, gated = m->mlp == MLP_SWIGLU;
	double act_s = roofline_memory_s(k, TRAIN_ACT_BYTES * T * (gated ? 3 : 2) * r->inner, 1);
	double s = 0;

	if ((mods & RECMOD_CORE_ATTN) && !x->w->model->kernels.flash_attention)
		s += r->attn_s;
	if (mods & RECMOD_LAYERNORM)
		s += roofline_memory_s(k, TRAIN_ACT_BYTES * T * 4 * m->hidden / rep, 2);
	if (moe && (mods & RECMOD_MOE)) {
		s += r->mlp_gemms_s + act_s + r->permute_s;
		*replay_mlp = true;
	} else if (moe && (mods & RECMOD_MOE_ACT)) {
		s += act_s;
	} else if (!moe && (mods & RECMOD_MLP)) {
		s += r->mlp_gemms_s + act_s;
		*replay_mlp = true;
	}
	if ((mods & RECMOD_MLA_UP_PROJ) && transformer_is_mla(m)) {
		/* the key-value up-projection (next to last) and, with a query
		 * latent, the query one (second) */
		const struct transformer_gemm *kv = &r->ag[r->nag - 2];
		s += roofline_gemm_tiled_s(k, T, kv->n, kv->k);
		if (m->q_lora_rank > 0)
			s += roofline_gemm_tiled_s(k, T, r->ag[1].n, r->ag[1].k);
	}
	return s;
}

/* FP8 activation caching (DeepSeek-V3, 3.3.3) keeps an MoE layer's SwiGLU
 * inputs and recomputes its output in the backward: the activation's
 * memory-bound kernel once more, unless a recompute of the experts'
 * activation or of the whole MoE layer replays it already. */
static double fp8_cache_recompute_s(const struct layer_ctx *x, bool moe, double inner)
{
	const struct train_plan *p = x->p;
	int mods = p->recompute == RECOMPUTE_SELECTIVE ? p->recompute_modules : 0;
	if (!p->fp8_act_cache || !moe || x->w->model->arch.mlp != MLP_SWIGLU || p->recompute == RECOMPUTE_FULL ||
	    (mods & (RECMOD_MOE_ACT | RECMOD_MOE)))
		return 0;
	return roofline_memory_s(&x->k, TRAIN_ACT_BYTES * x->tokens * 3 * inner, 1);
}

/* Host seconds to launch one eager transformer layer's forward and backward
 * for one micro-batch (PyTorch eager with Megatron-Core/NeMo and Transformer
 * Engine in FP8, LoRA adapters on attention: the kernels, FP8 casts and
 * scaling updates, the adapters' small ops). An assumption calibrated on one
 * run, MLPerf v4.0 eos_n8 llama2_70b_lora (tp 4, cp 2, no CUDA graphs: 12.55
 * samples/s, 0.637 s a micro-batch of 80 layers, where the GPU's work is
 * about 0.50 s in the model); held out: eos_n128 of the same shape. The same
 * shapes in MLPerf v4.1 with LAYER_CUDA_GRAPH=1 ran 18% and 24% faster
 * (14.78 and 234.8 samples/s) while the cp 1 run, GPU-bound, moved 1.5%
 * (docs/explanation/calibration.md). */
#ifndef LAYER_HOST_S
#define LAYER_HOST_S 7.7e-3
#endif
const double layer_host_launch_s = LAYER_HOST_S;

/* An eager run waits on the host where a layer's GPU work (kernels and
 * exposed communication) is shorter than the host's time to launch it: the
 * forward takes a third of layer_host_launch_s, the backward two thirds (it
 * launches about twice the kernels) plus a recomputed forward's third. */
static void host_floor(const struct layer_ctx *x, struct layer_time *lt)
{
	double fwd = lt->fwd + lt->tp_fwd + lt->ep_fwd + lt->cp_fwd;
	double bwd = lt->bwd_input + lt->bwd_weight + lt->recompute + lt->tp_bwd + lt->ep_bwd + lt->cp_bwd;
	double host_fwd = layer_host_launch_s / 3;
	double host_bwd = 2 * host_fwd + memory_recompute_share(x->w, x->p) * host_fwd;
	if (fwd < host_fwd)
		lt->fwd += host_fwd - fwd;
	if (bwd < host_bwd)
		lt->bwd_input += host_bwd - bwd;
}

void layer_cost(const struct layer_ctx *x, bool moe, struct layer_time *lt)
{
	const struct model_spec *m = &x->w->model->arch;
	const struct train_plan *p = x->p;
	const struct roofline *k = &x->k;
	double T = x->tokens, t = p->tp;
	double h = m->hidden, d = transformer_head_dim(m), a = m->heads, g = m->kv_heads;
	double gated = m->mlp == MLP_SWIGLU;
	double inner, attn, attn_bwd;
	/* Megatron's weight-gradient GEMMs add into the main_grad buffer
	 * (gradient-accumulation fusion: TE's fuse_wgrad_accumulation), an
	 * element of grad_bytes read and written; with ZeRO-2 and -3 there is
	 * no whole buffer and the gradient is written */
	struct layer_gemms gm = { 0, 0, 0, p->zero <= 1 ? p->grad_bytes : 0 };

	memset(lt, 0, sizeof *lt);
	/* GEMMs: QKV (or MLA's projections), attention output, MLP */
	struct transformer_gemm ag[TRANSFORMER_ATTN_GEMMS];
	int nag = transformer_attention_gemms(m, p->tp, ag);
	for (int i = 0; i < nag; i++)
		gemm_add(k, 1, T, ag[i].n, ag[i].k, &gm);
	double attn_gemms = gm.fwd, attn_dgrad = gm.dgrad, attn_wgrad = gm.wgrad;
	mlp_gemms(x, moe, &gm, &inner);
	double gemms = gm.fwd, mlp_fwd = gm.fwd - attn_gemms;
	attention(x, &attn, &attn_bwd);
	/* elementwise: norms, residual adds, rotary, activation (bytes read and written) */
	double rep = p->sp ? t : 1;
	double elem_bytes = TRAIN_ACT_BYTES * T * (10 * h / rep + (gated ? 3 : 2) * inner + 2 * (a + g) * d / t);
	double elem = roofline_memory_s(k, elem_bytes, 8);

	double permute = moe ? layer_moe_permute_s(x) : 0;
	lt->attn_fwd = attn;
	lt->dequant = x->lora ? dequant_s(x, moe) : 0;
	lt->fwd = gemms + attn + elem + permute + lt->dequant;
	/* backward: input and weight gradients each as much GEMM work as the
	 * forward, in their own shapes; elementwise twice */
	lt->bwd_input = gm.dgrad + attn_bwd + 2 * elem + permute + lt->dequant;
	lt->bwd_weight = gm.wgrad;
	if (x->lora) {
		/* frozen base: no weight gradients beyond the small adapters */
		lt->bwd_weight = 0.02 * gemms;
	}
	bool replay_mlp = false;
	if (p->recompute == RECOMPUTE_FULL) {
		lt->recompute = lt->fwd * memory_recompute_share(x->w, p);
	} else if (p->recompute == RECOMPUTE_SELECTIVE) {
		struct recompute_parts parts = { attn, mlp_fwd, inner, permute, ag, nag };
		lt->recompute = selective_recompute_s(x, moe, &parts, &replay_mlp);
	}
	lt->recompute += fp8_cache_recompute_s(x, moe, inner);

	tp_comm(x, gemms, mlp_fwd, replay_mlp, moe, lt);
	if (moe && p->ep > 1) {
		/* the experts' side: their GEMMs and activation (the router's GEMM
		 * is among them, a small part); the rest is attention's side */
		double act = TRAIN_ACT_BYTES * T * (gated ? 3 : 2) * inner / k->hbm_bytes_per_s;
		double fwd_all = lt->fwd + lt->tp_fwd, bwd_all = lt->bwd_input + lt->bwd_weight + lt->recompute + lt->tp_bwd;
		struct moe_sides sides;
		sides.mlp_fwd = fmin(mlp_fwd + act, fwd_all);
		sides.mlp_bwd = fmin((gm.dgrad - attn_dgrad) + (gm.wgrad - attn_wgrad) + 2 * act, bwd_all);
		sides.attn_fwd = fwd_all - sides.mlp_fwd;
		sides.attn_bwd = bwd_all - sides.mlp_bwd;
		ep_comm(x, &sides, lt);
	}
	if (p->cp > 1)
		cp_comm(x, attn, attn_bwd, lt);
	if (p->host_bound)
		host_floor(x, lt);
}
