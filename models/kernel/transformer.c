#include "transformer.h"

#include <stddef.h>

const char *const recompute_names[] = { "none", "selective", "full", NULL };
const char *const recompute_module_names[] = { "core_attn", "layernorm", "mlp", "moe_act", "moe", "mla_up_proj", NULL };

int transformer_head_dim(const struct model_spec *m)
{
	return m->head_dim > 0 ? m->head_dim : m->hidden / m->heads;
}

bool transformer_is_mla(const struct model_spec *m)
{
	return m->kv_lora_rank > 0;
}

int transformer_qk_head_dim(const struct model_spec *m)
{
	return transformer_head_dim(m) + (transformer_is_mla(m) ? m->qk_rope_dim : 0);
}

int transformer_v_head_dim(const struct model_spec *m)
{
	return transformer_head_dim(m);
}

int transformer_attention_gemms(const struct model_spec *m, int t, struct transformer_gemm *out)
{
	double h = m->hidden, d = transformer_head_dim(m), a = m->heads, g = m->kv_heads;
	int n = 0;
	if (!transformer_is_mla(m)) {
		out[n++] = (struct transformer_gemm){ (a * d + 2 * g * d) / t, h };
		out[n++] = (struct transformer_gemm){ h, a * d / t };
		return n;
	}
	double q = transformer_qk_head_dim(m), c = m->kv_lora_rank, r = m->qk_rope_dim;
	if (m->q_lora_rank > 0) {
		out[n++] = (struct transformer_gemm){ m->q_lora_rank, h };
		out[n++] = (struct transformer_gemm){ a * q / t, m->q_lora_rank };
	} else {
		out[n++] = (struct transformer_gemm){ a * q / t, h };
	}
	out[n++] = (struct transformer_gemm){ c + r, h };
	out[n++] = (struct transformer_gemm){ a * 2 * d / t, c };
	out[n++] = (struct transformer_gemm){ h, a * d / t };
	return n;
}

double transformer_kv_elems_per_token(const struct model_spec *m)
{
	if (transformer_is_mla(m))
		return (double)m->kv_lora_rank + m->qk_rope_dim;
	return 2.0 * m->kv_heads * transformer_head_dim(m);
}

/* Weights of the attention block's matrices (t = 1). */
static double attention_matrix_params(const struct model_spec *m)
{
	struct transformer_gemm gm[TRANSFORMER_ATTN_GEMMS];
	int n = transformer_attention_gemms(m, 1, gm);
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += gm[i].n * gm[i].k;
	return sum;
}

int transformer_moe_layers(const struct model_spec *m)
{
	return m->experts > 0 ? m->layers - m->dense_layers : 0;
}

double transformer_mlp_matrices(const struct model_spec *m)
{
	return m->mlp == MLP_SWIGLU ? 3.0 : 2.0;
}

double transformer_attention_params(const struct model_spec *m)
{
	/* QKV (or MLA's projections and its latents' norms), output
	 * projection, the layer's pre-attention norm */
	double latent_norms = transformer_is_mla(m) ? (double)m->q_lora_rank + m->kv_lora_rank : 0;
	return attention_matrix_params(m) + latent_norms + m->hidden;
}

double transformer_mlp_params(const struct model_spec *m, bool moe, bool all_experts)
{
	double h = m->hidden, k = transformer_mlp_matrices(m);
	if (!moe)
		return k * h * m->ffn + h;
	double experts = all_experts ? m->experts : m->experts_active;
	/* router, routed experts, shared experts, the pre-MLP norm */
	return h * m->experts + (experts + m->shared_experts) * k * h * m->expert_ffn + h;
}

double transformer_layer_params(const struct model_spec *m, bool moe, bool all_experts)
{
	return transformer_attention_params(m) + transformer_mlp_params(m, moe, all_experts);
}

double transformer_mtp_params(const struct model_spec *m)
{
	/* each module: its two norms (of the hidden state and of the next
	 * token's embedding), the 2h -> h projection and one transformer layer
	 * like the last decoder layer; embedding and output head shared */
	double h = m->hidden;
	return m->mtp_layers * (2 * h + 2 * h * h + transformer_layer_params(m, m->experts > 0, true));
}

double transformer_embedding_params(const struct model_spec *m)
{
	double vh = (double)m->vocab * m->hidden;
	return (m->tied_embeddings ? vh : 2 * vh) + m->hidden; /* + final norm */
}

static double params(const struct model_spec *m, bool all_experts)
{
	int moe = transformer_moe_layers(m);
	return (m->layers - moe) * transformer_layer_params(m, false, false) +
	       moe * transformer_layer_params(m, true, all_experts) + transformer_embedding_params(m);
}

double transformer_params_total(const struct model_spec *m)
{
	return params(m, true);
}

double transformer_params_active(const struct model_spec *m)
{
	return params(m, false);
}

void transformer_forward_flops(const struct model_spec *m, int seq_len, struct transformer_flops *f)
{
	double h = m->hidden, a = m->heads, s = seq_len;
	double k = transformer_mlp_matrices(m);
	int moe = transformer_moe_layers(m);
	double attn = 2 * attention_matrix_params(m);
	double dense_mlp = 2 * k * h * m->ffn;
	double moe_mlp = 2 * h * m->experts +
			 (m->experts_active + m->shared_experts) * 2 * k * h * m->expert_ffn;

	/* multi-token prediction: each module one more layer like the last
	 * decoder layer, its 2h -> h projection, and the shared head again */
	double mtp = m->mtp_layers;
	f->linear = m->layers * attn + (m->layers - moe) * dense_mlp + moe * moe_mlp +
		    mtp * (attn + (m->experts > 0 ? moe_mlp : dense_mlp) + 2 * 2 * h * h);
	f->attention_core = (m->layers + mtp) * 2 * s * a * (transformer_qk_head_dim(m) + transformer_v_head_dim(m));
	f->logits = (1 + mtp) * 2 * h * m->vocab;
}

double transformer_model_flops_per_token(const struct model_spec *m, int seq_len)
{
	struct transformer_flops f;
	transformer_forward_flops(m, seq_len, &f);
	return 3 * (f.linear + f.attention_core + f.logits);
}

/* Forward FLOPs per token of MLA's up-projections, all layers (0 without MLA). */
static double mla_up_proj_flops(const struct model_spec *m)
{
	struct transformer_gemm g[TRANSFORMER_ATTN_GEMMS];
	if (!transformer_is_mla(m))
		return 0;
	int n = transformer_attention_gemms(m, 1, g);
	/* the query up-projection (with a query latent) and the key-value one,
	 * the output projection last */
	double up = 2 * g[n - 2].n * g[n - 2].k;
	if (m->q_lora_rank > 0)
		up += 2 * g[1].n * g[1].k;
	return (m->layers + m->mtp_layers) * up;
}

double transformer_hardware_flops_per_token(const struct model_spec *m, int seq_len, int recompute, int modules)
{
	struct transformer_flops f;
	double extra = 0;
	transformer_forward_flops(m, seq_len, &f);
	if (recompute == RECOMPUTE_FULL) {
		extra = f.linear + f.attention_core;
	} else if (recompute == RECOMPUTE_SELECTIVE) {
		double h = m->hidden, k = transformer_mlp_matrices(m);
		/* the MTP modules' layers recompute like the decoder layers */
		int moe = transformer_moe_layers(m) + (m->experts > 0 ? m->mtp_layers : 0);
		int dense = m->layers + m->mtp_layers - moe;
		if (modules & RECMOD_CORE_ATTN)
			extra += f.attention_core;
		if (modules & RECMOD_MLP)
			extra += dense * 2 * k * h * m->ffn;
		if (modules & RECMOD_MOE)
			extra += moe * (2 * h * m->experts +
					(m->experts_active + m->shared_experts) * 2 * k * h * m->expert_ffn);
		if (modules & RECMOD_MLA_UP_PROJ)
			extra += mla_up_proj_flops(m);
	}
	return transformer_model_flops_per_token(m, seq_len) + extra;
}

double transformer_layer_activation_bytes(const struct model_spec *m, double seq_len, double micro_batch,
				 int t, bool sp, int recompute, bool flash)
{
	return transformer_layer_activation_bytes_frozen(m, seq_len, micro_batch, t, sp, recompute, RECMOD_DEFAULT,
							 flash, 0);
}

double transformer_layer_activation_bytes_frozen(const struct model_spec *m, double seq_len, double micro_batch,
					int t, bool sp, int recompute, int modules, bool flash, int frozen)
{
	double h = m->hidden, d = transformer_head_dim(m), a = m->heads, g = m->kv_heads;
	double f = m->ffn;
	double sb = seq_len * micro_batch;

	if (transformer_moe_layers(m) > 0) /* what one token's experts keep */
		f = (double)(m->experts_active + m->shared_experts) * m->expert_ffn;
	if (recompute == RECOMPUTE_FULL) {
		/* only the layer's input (2 bytes per element) */
		return 2 * sb * h / (sp ? t : 1);
	}
	/*
	 * Bytes per token, split as Korthikanti et al. do. Replicated across
	 * tensor-parallel ranks unless sequence parallel: the two norms' inputs
	 * (4h), the inputs of QKV and of the MLP's first matrix (4h) and, when
	 * the model trains with dropout, the two dropout masks (2h): 10h. Split by tensor parallelism: Q, K, V (2h +
	 * 4gd), the output projection's input (2h) and the MLP's inner tensors
	 * (GELU: input and output, 4f; gated: gate, up and their product, 6f).
	 * GPT (g d = h, f = 4h, GELU): 10h + 24h = 34h.
	 */
	double replicated = (m->dropout ? 10 : 8) * h;
	double split = 2 * a * d + 4 * g * d + 2 * a * d + (m->mlp == MLP_SWIGLU ? 6 : 4) * f;
	if (transformer_is_mla(m)) {
		/* MLA: the up-projections' outputs Q and K (a d_qk each), V and
		 * the output projection's input (a d_v each) split by tensor
		 * parallelism, and the latents from the replicated
		 * down-projections, each kept before and after its norm (the
		 * up-projection's input), with the rotary key (2 r) */
		double dq = transformer_qk_head_dim(m), dv = transformer_v_head_dim(m);
		split = 2 * a * dq * 2 + 2 * a * dv * 2 + (m->mlp == MLP_SWIGLU ? 6 : 4) * f;
		replicated += 4.0 * (m->q_lora_rank + m->kv_lora_rank) + 2.0 * m->qk_rope_dim;
	}
	/* A frozen matrix's input is not needed: its backward only multiplies
	 * the incoming gradient by the weight (no weight gradient). What the
	 * operations around it need stays: FlashAttention's backward reads its
	 * own output O (Dao et al. 2022, algorithm 4), which is the output
	 * projection's input, so under flash that tensor is kept frozen or not;
	 * unfused attention's backward reads the scores and V instead. */
	if (frozen & TF_FROZEN_ATTN) {
		replicated -= 2 * h;          /* QKV input */
		if (!flash)
			split -= 2 * a * d;   /* output projection input */
	}
	if (frozen & TF_FROZEN_MLP) {
		replicated -= 2 * h;          /* first matrix input */
		split -= 2 * f;               /* second matrix input */
	}
	/* A selective recompute's modules (Megatron-Core's estimator for them:
	 * Megatron-MoE-ModelZoo misc/tools/deepseek_mem_estimate.py) */
	int mods = recompute == RECOMPUTE_SELECTIVE ? modules : 0;
	bool moe = transformer_moe_layers(m) > 0;
	if (mods & RECMOD_LAYERNORM)
		replicated -= 4 * h;          /* the two norms' outputs */
	if ((mods & RECMOD_MOE) && moe)
		split -= (m->mlp == MLP_SWIGLU ? 6 : 4) * f;  /* the experts' inner tensors */
	else if ((mods & RECMOD_MOE_ACT) && moe)
		split -= 2 * f;               /* the activation's output */
	if ((mods & RECMOD_MLP) && !moe)
		split -= (m->mlp == MLP_SWIGLU ? 6 : 4) * f;
	if ((mods & RECMOD_MLA_UP_PROJ) && transformer_is_mla(m))
		split -= 2 * a * transformer_qk_head_dim(m) * 2 + 2 * a * transformer_v_head_dim(m);  /* Q, K, V */
	double per_token = sp ? (replicated + split) / t : replicated + split / t;
	double bytes = sb * per_token;
	/* Softmax output, dropout mask and output: 5 a s^2 b bytes, not kept
	 * with FlashAttention or when the attention core is recomputed. */
	if (!flash && (recompute == RECOMPUTE_NONE || (recompute == RECOMPUTE_SELECTIVE && !(modules & RECMOD_CORE_ATTN))))
		bytes += 5 * a * seq_len * seq_len * micro_batch / t;
	return bytes;
}
