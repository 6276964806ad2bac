#include "transformer.h"

#include <stddef.h>

const char *const recompute_names[] = { "none", "selective", "full", NULL };

int transformer_head_dim(const struct model_spec *m)
{
	return m->head_dim > 0 ? m->head_dim : m->hidden / m->heads;
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
	double h = m->hidden, d = transformer_head_dim(m), a = m->heads, g = m->kv_heads;
	/* QKV, output projection, the layer's pre-attention norm */
	return h * (a * d + 2 * g * d) + a * d * h + h;
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
	double h = m->hidden, d = transformer_head_dim(m), a = m->heads, g = m->kv_heads, s = seq_len;
	double k = transformer_mlp_matrices(m);
	int moe = transformer_moe_layers(m);
	double attn = 2 * h * (a * d + 2 * g * d) + 2 * a * d * h;
	double dense_mlp = 2 * k * h * m->ffn;
	double moe_mlp = 2 * h * m->experts +
			 (m->experts_active + m->shared_experts) * 2 * k * h * m->expert_ffn;

	f->linear = m->layers * attn + (m->layers - moe) * dense_mlp + moe * moe_mlp;
	f->attention_core = m->layers * 4 * s * a * d;
	f->logits = 2 * h * m->vocab;
}

double transformer_model_flops_per_token(const struct model_spec *m, int seq_len)
{
	struct transformer_flops f;
	transformer_forward_flops(m, seq_len, &f);
	return 3 * (f.linear + f.attention_core + f.logits);
}

double transformer_hardware_flops_per_token(const struct model_spec *m, int seq_len, int recompute)
{
	struct transformer_flops f;
	double extra = 0;
	transformer_forward_flops(m, seq_len, &f);
	if (recompute == RECOMPUTE_FULL)
		extra = f.linear + f.attention_core;
	else if (recompute == RECOMPUTE_SELECTIVE)
		extra = f.attention_core;
	return transformer_model_flops_per_token(m, seq_len) + extra;
}

double transformer_layer_activation_bytes(const struct model_spec *m, double seq_len, double micro_batch,
				 int t, bool sp, int recompute, bool flash)
{
	return transformer_layer_activation_bytes_frozen(m, seq_len, micro_batch, t, sp, recompute, flash, 0);
}

double transformer_layer_activation_bytes_frozen(const struct model_spec *m, double seq_len, double micro_batch,
					int t, bool sp, int recompute, bool flash, int frozen)
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
	/* A frozen matrix's input is not needed: its backward only multiplies
	 * the incoming gradient by the weight. */
	if (frozen & TF_FROZEN_ATTN) {
		replicated -= 2 * h;          /* QKV input */
		split -= 2 * a * d;           /* output projection input */
	}
	if (frozen & TF_FROZEN_MLP) {
		replicated -= 2 * h;          /* first matrix input */
		split -= 2 * f;               /* second matrix input */
	}
	double per_token = sp ? (replicated + split) / t : replicated + split / t;
	double bytes = sb * per_token;
	/* Softmax output, dropout mask and output: 5 a s^2 b bytes, not kept
	 * with FlashAttention or when the attention core is recomputed. */
	if (!flash && recompute == RECOMPUTE_NONE)
		bytes += 5 * a * seq_len * seq_len * micro_batch / t;
	return bytes;
}
