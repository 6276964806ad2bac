#include "parallel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/kernel/transformer.h"
#include "models/train/pipeline.h"
#include "util/text.h"

/* The plan fields a request left PLAN_AUTO, with plain defaults; dp and
 * microbatches are derived by the checks. */
static void fill_defaults(const struct train_spec *w, const struct parallel_plan *req, struct train_plan *p)
{
	memset(p, 0, sizeof *p);
	p->tp = req->tp == PLAN_AUTO ? 1 : req->tp;
	p->pp = req->pp == PLAN_AUTO ? 1 : req->pp;
	/* DualPipeV runs two chunks a stage */
	p->vpp = req->vpp != PLAN_AUTO ? req->vpp : req->schedule == SCHED_DUALPIPEV ? 2 : 1;
	p->cp = req->cp == PLAN_AUTO ? 1 : req->cp;
	p->ep = req->ep == PLAN_AUTO ? 1 : req->ep;
	p->zero = req->zero == PLAN_AUTO ? 1 : req->zero;
	p->micro_batch = req->micro_batch == PLAN_AUTO ? 1 : req->micro_batch;
	p->recompute = req->recompute == PLAN_AUTO ? RECOMPUTE_SELECTIVE : (enum recompute_kind)req->recompute;
	p->recompute_modules = req->recompute_modules ? req->recompute_modules : RECMOD_DEFAULT;
	if (req->schedule == PLAN_AUTO)
		p->schedule = p->vpp > 1 ? SCHED_INTERLEAVED : SCHED_1F1B;
	else
		p->schedule = (enum schedule_kind)req->schedule;
	/* auto: sequence parallel with tp, unless the checkpoints are
	 * distributed instead (the two exclude each other) */
	p->sp = req->sequence_parallel == PLAN_AUTO ? p->tp > 1 && !req->distribute_saved_activations
						    : req->sequence_parallel == 1;
	snprintf(p->order, sizeof p->order, "%s", req->order);
	p->tp_overlap = req->tp_comm_overlap;
	p->moe_overlap = (enum moe_overlap)req->moe_a2a_overlap;
	p->moe_max_nodes = req->moe_max_nodes;
	p->moe_dispatch = (enum moe_dispatch)req->moe_dispatch;
	p->moe_imbalance = req->moe_load_imbalance >= 1 ? req->moe_load_imbalance : 1;
	p->etp = req->expert_tp > 0 ? req->expert_tp : p->tp;
	p->split = req->pipeline_split == SPLIT_EMBEDDING_LOSS ? SPLIT_EMBEDDING_LOSS : SPLIT_LAYERS;
	p->grad_bytes = parallel_grad_bytes(w->model->precision, req->grad_reduce);
	p->optimizer_bytes = train_optimizer_bytes(req->optimizer_moments);
	p->param_gather_overlap = req->overlap_param_gather;
	p->free_stage_input = req->free_stage_input;
	p->distribute_saved = req->distribute_saved_activations;
	p->fp8_act_cache = req->fp8_activation_cache;
	p->fp8_act_input = req->activation_func_fp8_input_store;
	p->recompute_layers = req->recompute_num_layers > 0 ? req->recompute_num_layers : 1;
	p->recompute_method = req->recompute_method;
	p->host_bound = req->host_launch_bound;
	p->layout = parallel_layout_of(w);
}

const struct pipeline_layout *parallel_layout_of(const struct train_spec *w)
{
	return w->plan.layout.stages > 0 ? &w->plan.layout : NULL;
}

double parallel_grad_bytes(enum precision pr, int grad_reduce)
{
	if (grad_reduce == GRAD_REDUCE_FP32)
		return 4;
	if (grad_reduce == GRAD_REDUCE_BF16)
		return 2;
	/* auto: Megatron's defaults (train.h, enum grad_reduce) */
	switch (pr) {
	case PREC_FP16:
		return 2;
	case PREC_FP64:
		return 8;
	default:
		return 4;
	}
}

/* What the checks read besides the plan. */
struct plan_inputs {
	const struct train_spec *w;
	const struct cluster_spec *c;
	const struct parallel_plan *req;
};

/* One check of a filled plan: true when it passes, else false with the
 * reason in why. A check may derive a plan field the later ones read (dp,
 * microbatches). */
typedef bool plan_check_fn(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size);

static double sequences_per_step(const struct train_spec *w)
{
	return w->global_batch_tokens / w->seq_len;
}

/* tp x cp x pp divides the GPUs; derives dp. */
static bool check_model_parallel_divides(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	long gpus = cluster_gpus(in->c);
	long model_par = (long)p->tp * p->cp * p->pp;
	if (gpus % model_par != 0) {
		text_setf(why, why_size, "tp x cp x pp = %ld does not divide the %ld GPUs", model_par, gpus);
		return false;
	}
	p->dp = (int)(gpus / model_par);
	return true;
}

static bool check_dp_matches(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	if (in->req->dp != PLAN_AUTO && in->req->dp != p->dp) {
		text_setf(why, why_size, "dp %d does not match %ld GPUs / (tp x cp x pp) = %d", in->req->dp,
			 cluster_gpus(in->c), p->dp);
		return false;
	}
	return true;
}

static bool check_tp_divides_heads(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	const struct model_spec *m = &in->w->model->arch;
	if (m->heads % p->tp != 0) {
		text_setf(why, why_size, "tp %d does not divide the %d attention heads", p->tp, m->heads);
		return false;
	}
	if (p->tp > m->kv_heads && p->tp % m->kv_heads != 0) {
		text_setf(why, why_size, "tp %d and %d KV heads do not divide each other", p->tp, m->kv_heads);
		return false;
	}
	return true;
}

static bool check_stages_fit_layers(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	const struct model_spec *m = &in->w->model->arch;
	const struct pipeline_layout *l = p->layout;
	if (l != NULL) {
		/* a layout names every virtual stage and what each holds */
		if (l->stages != p->pp * p->vpp)
			text_setf(why, why_size, "pipeline_layout has %d virtual stages, pp x vpp = %d", l->stages,
				 p->pp * p->vpp);
		else if (l->decoders_total != m->layers)
			text_setf(why, why_size, "pipeline_layout has %d decoder layers, the model %d", l->decoders_total,
				 m->layers);
		else if (l->mtp_total != m->mtp_layers)
			text_setf(why, why_size, "pipeline_layout has %d MTP modules, the model's mtp_layers %d",
				 l->mtp_total, m->mtp_layers);
		else
			return true;
		return false;
	}
	int slots = m->layers + (p->split == SPLIT_EMBEDDING_LOSS ? 2 : 0);
	if (p->pp * p->vpp > slots) {
		if (p->split == SPLIT_EMBEDDING_LOSS)
			text_setf(why, why_size, "pp x vpp = %d exceeds the %d layers plus the embedding and the loss",
				 p->pp * p->vpp, m->layers);
		else
			text_setf(why, why_size, "pp x vpp = %d exceeds the %d layers", p->pp * p->vpp, m->layers);
		return false;
	}
	return true;
}

/* cp divides seq_len, into an even number of tokens per rank when cp > 1. */
static bool check_cp_splits_sequence(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	int seq_len = in->w->seq_len;
	if (seq_len % p->cp != 0 || (p->cp > 1 && (seq_len / p->cp) % 2 != 0)) {
		text_setf(why, why_size, "cp %d does not split seq_len %d evenly", p->cp, seq_len);
		return false;
	}
	return true;
}

static bool check_ep_divides(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	const struct model_spec *m = &in->w->model->arch;
	if (p->ep <= 1)
		return true;
	if (m->experts == 0) {
		text_setf(why, why_size, "ep %d needs a mixture-of-experts model", p->ep);
		return false;
	}
	if (parallel_moe_folded(p))
		return true;  /* check_expert_tp's */
	if (p->dp % p->ep != 0 || m->experts % p->ep != 0) {
		text_setf(why, why_size, "ep %d must divide dp %d and the %d experts", p->ep, p->dp, m->experts);
		return false;
	}
	return true;
}

/*
 * MoE parallel folding (Megatron-Core's --expert-tensor-parallel-size,
 * Liu et al., "MoE Parallel Folding", arXiv:2504.14960): the experts' own
 * grid etp x ep x edp folds over the tp x cp x dp ranks of a stage, so
 * expert parallelism may use the tensor-parallel ranks. Here etp divides tp,
 * ep divides (tp / etp) cp dp and the experts, and tensor parallelism needs
 * sequence parallelism (each rank routes its own tokens).
 */
static bool check_expert_tp(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	const struct model_spec *m = &in->w->model->arch;
	if (!parallel_moe_folded(p))
		return true;
	if (m->experts == 0) {
		text_setf(why, why_size, "expert_tp %d needs a mixture-of-experts model", p->etp);
		return false;
	}
	if (p->tp % p->etp != 0) {
		text_setf(why, why_size, "expert_tp %d must divide tp %d", p->etp, p->tp);
		return false;
	}
	long ranks = (long)(p->tp / p->etp) * p->cp * p->dp;
	if (ranks % p->ep != 0 || m->experts % p->ep != 0) {
		text_setf(why, why_size, "ep %d must divide (tp / expert_tp) x cp x dp = %ld and the %d experts",
			 p->ep, ranks, m->experts);
		return false;
	}
	if (p->tp > 1 && !p->sp) {
		text_setf(why, why_size, "expert_tp %d under tp %d needs sequence_parallel", p->etp, p->tp);
		return false;
	}
	return true;
}

/* A selective recompute's modules must exist in the model: the MoE ones
 * need experts, mla_up_proj multi-head latent attention, and mlp a dense
 * model (an MoE model's few dense layers are costed as its MoE layers). */
static bool check_recompute_modules(const struct train_plan *p, const struct plan_inputs *in, char *why,
				    size_t why_size)
{
	const struct model_spec *m = &in->w->model->arch;
	int mods = p->recompute == RECOMPUTE_SELECTIVE ? p->recompute_modules : 0;
	const char *need = NULL, *name = NULL;
	if ((mods & (RECMOD_MOE | RECMOD_MOE_ACT)) && m->experts == 0) {
		name = mods & RECMOD_MOE ? "moe" : "moe_act";
		need = "a mixture-of-experts model";
	} else if ((mods & RECMOD_MLA_UP_PROJ) && !transformer_is_mla(m)) {
		name = "mla_up_proj";
		need = "multi-head latent attention (a model with kv_lora_rank)";
	} else if ((mods & RECMOD_MLP) && m->experts > 0) {
		name = "mlp";
		need = "a dense model (use moe or moe_act for experts)";
	}
	if (need == NULL)
		return true;
	text_setf(why, why_size, "recompute module %s needs %s", name, need);
	return false;
}

/* Distributed checkpoints split what a full recompute keeps over the tp
 * ranks: there is nothing to split without a full recompute, nobody to
 * split it with at tp 1, and sequence parallelism has split it already
 * (Megatron-LM's validate_args refuses the same). */
static bool check_distribute_saved(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	(void)in;
	const char *need = NULL;
	if (!p->distribute_saved)
		return true;
	if (p->recompute != RECOMPUTE_FULL)
		need = "recompute full (it splits the full recompute's checkpoints)";
	else if (p->tp < 2)
		need = "tp > 1 (it splits the checkpoints over the tp ranks)";
	else if (p->sp)
		need = "sequence_parallel false (sequence parallelism splits the checkpoints already)";
	if (need == NULL)
		return true;
	text_setf(why, why_size, "distribute_saved_activations needs %s", need);
	return false;
}

/* FP8 activation caching keeps FP8 copies of what the FP8 GEMMs read: it
 * needs a run whose GEMMs are FP8 (or FP4). */
static bool check_fp8_activation_cache(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	enum precision pr = in->w->model->precision;
	if ((!p->fp8_act_cache && !p->fp8_act_input) || pr == PREC_FP8 || pr == PREC_FP4)
		return true;
	text_setf(why, why_size, "%s needs precision fp8 (its cached copies are the FP8 GEMMs' inputs)",
		  p->fp8_act_cache ? "fp8_activation_cache" : "activation_func_fp8_input_store");
	return false;
}

/* The MoE routing fields describe experts: on a dense model they would
 * change nothing, so a plan stating them is refused with the reason. */
static bool check_moe_routing(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	if (!check_recompute_modules(p, in, why, why_size))
		return false;
	if (in->w->model->arch.experts > 0)
		return true;
	if (p->moe_imbalance > 1) {
		text_setf(why, why_size, "moe_load_imbalance %.3g needs a mixture-of-experts model", p->moe_imbalance);
		return false;
	}
	if (p->moe_dispatch != MOE_DISPATCH_BF16) {
		text_setf(why, why_size, "moe_dispatch_precision %s needs a mixture-of-experts model",
			 moe_dispatch_names[p->moe_dispatch]);
		return false;
	}
	return true;
}

double parallel_moe_imbalance(const struct train_plan *p)
{
	return p->ep > 1 ? p->moe_imbalance : 1;
}

bool parallel_moe_folded(const struct train_plan *p)
{
	return p->etp != p->tp;
}

/* Weights of one layer's routed experts, all of them. */
static double routed_expert_params(const struct model_spec *m)
{
	return (double)m->experts * transformer_mlp_matrices(m) * m->hidden * m->expert_ffn;
}

double parallel_moe_layer_params(const struct model_spec *m, const struct train_plan *p)
{
	double all = transformer_mlp_params(m, true, true), routed = routed_expert_params(m);
	/* routed experts over etp x ep; router, shared experts and norm over tp */
	return routed / ((double)p->etp * p->ep) + (all - routed) / p->tp;
}

double parallel_vstage_expert_params(const struct model_spec *m, const struct train_plan *p, int vs, int P)
{
	int first, count, dense, moe;
	parallel_vstage_layers(p, m->layers, P, vs, &first, &count);
	parallel_layer_mix(m, first, count, &dense, &moe);
	if (m->experts > 0)
		moe += parallel_vstage_mtp(m, p, vs, P);
	return moe * routed_expert_params(m) / ((double)p->etp * p->ep);
}

double parallel_expert_dp(const struct train_plan *p)
{
	double edp = (double)p->tp * p->cp * p->dp / ((double)p->etp * p->ep);
	return edp < 1 ? 1 : edp;
}

/* The batch splits into dp replicas of whole micro-batches; the reason
 * names the nearest batches that would. */
static bool check_batch_splits(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	double seqs = sequences_per_step(in->w);
	double per_replica = seqs / p->dp;
	if (per_replica != floor(per_replica) || fmod(per_replica, p->micro_batch) != 0) {
		double below, above, d = (double)p->dp * p->micro_batch;
		int seq_len = in->w->seq_len;
		parallel_nearest_batch(seqs, d, &below, &above);
		if (below > 0)
			text_setf(why, why_size, "%.0f sequences per step do not split into dp %d x micro_batch %d: "
				 "the nearest batches that do are %.0f and %.0f sequences (%.0f and %.0f tokens)",
				 seqs, p->dp, p->micro_batch, below, above, below * seq_len, above * seq_len);
		else
			text_setf(why, why_size, "%.0f sequences per step do not split into dp %d x micro_batch %d: "
				 "the smallest batch that does is %.0f sequences (%.0f tokens)",
				 seqs, p->dp, p->micro_batch, above, above * seq_len);
		return false;
	}
	return true;
}

void parallel_nearest_batch(double seqs, double divisor, double *below, double *above)
{
	double k = floor(seqs / divisor);
	*below = k * divisor;
	*above = *below == seqs ? seqs : (k + 1) * divisor;
	if (*below < divisor)
		*below = 0;
}

double parallel_batch_divisor(const struct cluster_spec *c, const struct parallel_plan *req)
{
	long gpus = cluster_gpus(c);
	long model_par = (long)(req->tp == PLAN_AUTO ? 1 : req->tp) * (req->cp == PLAN_AUTO ? 1 : req->cp) *
			 (req->pp == PLAN_AUTO ? 1 : req->pp);
	if (model_par <= 0 || gpus % model_par != 0)
		return 0;
	double dp = req->dp != PLAN_AUTO ? req->dp : (double)(gpus / model_par);
	return dp * (req->micro_batch == PLAN_AUTO ? 1 : req->micro_batch);
}

double parallel_batch_tokens(const struct train_spec *w, const struct cluster_spec *c, const struct parallel_plan *req)
{
	double d = parallel_batch_divisor(c, req), below, above;
	if (!w->round_batch || d <= 0)
		return w->global_batch_tokens;
	parallel_nearest_batch(sequences_per_step(w), d, &below, &above);
	double seqs = below > 0 && sequences_per_step(w) - below <= above - sequences_per_step(w) ? below : above;
	return seqs * w->seq_len;
}

/* The schedule is simulated op by op: bound one step's work, and the count
 * before it becomes an int; derives microbatches. */
static bool check_pipeline_ops_bound(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	double per_replica = sequences_per_step(in->w) / p->dp;
	double microbatches = per_replica / p->micro_batch;
	double ops = microbatches * p->pp * p->vpp;
	if (ops > PARALLEL_MAX_PIPELINE_OPS) {
		text_setf(why, why_size, "%.0f micro-batches per pipeline per step (%.3g pipeline operations) "
			 "are more than the %d clustersim simulates: use a larger micro_batch or fewer tokens per step",
			 microbatches, ops, PARALLEL_MAX_PIPELINE_OPS);
		return false;
	}
	p->microbatches = (int)microbatches;
	return true;
}

static bool check_schedule_fits(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	(void)in;
	const char *pc = pipeline_check(p->pp, p->vpp, p->microbatches, p->schedule);
	if (pc != NULL) {
		text_setf(why, why_size, "%s (pp %d, vpp %d, %d micro-batches)", pc, p->pp, p->vpp, p->microbatches);
		return false;
	}
	return true;
}

static bool check_tp_spans_nodes_evenly(struct train_plan *p, const struct plan_inputs *in, char *why, size_t why_size)
{
	int gpus_per_node = in->c->gpus_per_node;
	if (p->tp > gpus_per_node && p->tp % gpus_per_node != 0) {
		text_setf(why, why_size, "tp %d spans nodes of %d GPUs unevenly", p->tp, gpus_per_node);
		return false;
	}
	return true;
}

/* The checks, in the order their reasons are reported (the first failing
 * one gives the reason). */
static const struct {
	plan_check_fn *check;
	enum parallel_failure failure;
} plan_checks[] = {
	{ check_model_parallel_divides, PARALLEL_FAIL_GPUS },
	{ check_dp_matches, PARALLEL_FAIL_DP },
	{ check_tp_divides_heads, PARALLEL_FAIL_HEADS },
	{ check_stages_fit_layers, PARALLEL_FAIL_LAYERS },
	{ check_cp_splits_sequence, PARALLEL_FAIL_CP },
	{ check_ep_divides, PARALLEL_FAIL_EP },
	{ check_expert_tp, PARALLEL_FAIL_EP },
	{ check_moe_routing, PARALLEL_FAIL_EP },
	{ check_batch_splits, PARALLEL_FAIL_BATCH },
	{ check_pipeline_ops_bound, PARALLEL_FAIL_OPS },
	{ check_schedule_fits, PARALLEL_FAIL_SCHEDULE },
	{ check_distribute_saved, PARALLEL_FAIL_SCHEDULE },
	{ check_fp8_activation_cache, PARALLEL_FAIL_SCHEDULE },
	{ check_tp_spans_nodes_evenly, PARALLEL_FAIL_TP_NODES },
};

bool parallel_fill_check(const struct train_spec *w, const struct cluster_spec *c, const struct parallel_plan *req,
			 struct train_plan *p, char *why, size_t why_size, enum parallel_failure *failed)
{
	const struct plan_inputs in = { .w = w, .c = c, .req = req };
	fill_defaults(w, req, p);
	*failed = PARALLEL_FAIL_NONE;
	for (size_t i = 0; i < sizeof plan_checks / sizeof *plan_checks; i++)
		if (!plan_checks[i].check(p, &in, why, why_size)) {
			*failed = plan_checks[i].failure;
			return false;
		}
	return true;
}

bool parallel_fill(const struct train_spec *w, const struct cluster_spec *c, const struct parallel_plan *req,
		   struct train_plan *p, char *why, size_t why_size)
{
	enum parallel_failure failed;
	return parallel_fill_check(w, c, req, p, why, why_size, &failed);
}

void parallel_stage_layers(int layers, int P, int vs, int *first, int *count)
{
	int base = layers / P, extra = layers % P;
	*count = base + (vs < extra ? 1 : 0);
	*first = vs * base + (vs < extra ? vs : extra);
}

void parallel_vstage_layers(const struct train_plan *p, int layers, int P, int vs, int *first, int *count)
{
	if (p->layout != NULL) {
		*first = layout_first_layer(p->layout, vs);
		*count = p->layout->decoders[vs];
		return;
	}
	if (p->split != SPLIT_EMBEDDING_LOSS) {
		parallel_stage_layers(layers, P, vs, first, count);
		return;
	}
	/* slot 0 is the embedding, slot layers + 1 the loss, slot l + 1 layer l */
	int sf, sc;
	parallel_stage_layers(layers + 2, P, vs, &sf, &sc);
	int lo = sf < 1 ? 1 : sf, hi = sf + sc > layers + 1 ? layers + 1 : sf + sc;
	*first = lo - 1;
	*count = hi > lo ? hi - lo : 0;
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
	parallel_vstage_layers(p, m->layers, P, vs, &first, &count);
	parallel_layer_mix(m, first, count, &dense, &moe);
	double attn = transformer_attention_params(m), dmlp = transformer_mlp_params(m, false, false);
	double params = count * attn / p->tp + dense * dmlp / p->tp + moe * parallel_moe_layer_params(m, p);
	/* the multi-token-prediction modules: a layer each, the projection and
	 * its two norms */
	double h = m->hidden, mtp = parallel_vstage_mtp(m, p, vs, P);
	params += mtp * (attn / p->tp + (2 * h * h + 2 * h) / p->tp +
			 (m->experts > 0 ? parallel_moe_layer_params(m, p) : dmlp / p->tp));
	return params + parallel_vstage_embedding_params(m, p, vs, P);
}

int parallel_vstage_mtp(const struct model_spec *m, const struct train_plan *p, int vs, int P)
{
	if (p->layout != NULL)
		return p->layout->mtp[vs];
	return vs == P - 1 ? m->mtp_layers : 0;
}

double parallel_vstage_embedding_params(const struct model_spec *m, const struct train_plan *p, int vs, int P)
{
	double vh = (double)m->vocab * m->hidden, params = 0;
	/* a matrix the input embedding's model chunk already holds is not held
	 * twice: one virtual stage, or DualPipeV's first stage, which holds the
	 * last virtual stage and shares the embedding and output head with the
	 * MTP modules there (DeepSeek-V3, 3.2.3). Megatron's interleaved chunks
	 * each build their own. */
	bool with_embedding = P == 1 || (p->schedule == SCHED_DUALPIPEV &&
					 pipeline_stage(p->pp, p->schedule, vs) == pipeline_stage(p->pp, p->schedule, 0));
	if (vs == 0)
		params += vh / p->tp;                       /* input embedding */
	if (vs == P - 1 && !(m->tied_embeddings && with_embedding))
		params += vh / p->tp;                       /* output projection */
	if (!with_embedding && !m->tied_embeddings && parallel_vstage_mtp(m, p, vs, P) > 0)
		params += vh / p->tp;  /* the MTP modules' own copy of the input embedding
					* (Megatron-Core builds it on their stage; tied, the
					* output projection is that matrix) */
	return params;
}

bool parallel_has_auto(const struct parallel_plan *q)
{
	return q->tp == PLAN_AUTO || q->pp == PLAN_AUTO || q->vpp == PLAN_AUTO || q->cp == PLAN_AUTO ||
	       q->ep == PLAN_AUTO || q->zero == PLAN_AUTO || q->micro_batch == PLAN_AUTO ||
	       q->schedule == PLAN_AUTO || q->recompute == PLAN_AUTO || q->sequence_parallel == PLAN_AUTO ||
	       q->dp == PLAN_AUTO;
}
