/*
 * Transformer arithmetic against closed forms and published figures:
 * parameter counts, Megatron's FLOPs formula, 6N + attention, Korthikanti's
 * activation memory.
 */
#include "testutil.h"

#include "models/hw/catalog.h"
#include "models/scenario/scenario.h"
#include "models/kernel/transformer.h"

#include "catalog_fixture.h"

/* Shape-derived totals are within 5% of the published parameter counts
 * (labels are rounded: "Llama 2 7B" has 6.74B). */
static void test_parameter_counts(void **state)
{
	(void)state;
	const char *names[] = {
		"llama2-7b", "llama2-13b", "llama2-70b", "llama3-8b", "llama3-70b", "llama3-405b",
		"gpt3-175b", "mixtral-8x7b", "mpt-7b", "mpt-30b", "mpt-70b", "gpt-145.6b", "gpt-1008b",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct model_spec *m = catalog_model(cat, names[i]);
		assert_non_null(m);
		double n = transformer_params_total(m) / 1e9;
		if (fabs(n - m->params_b) > 0.05 * m->params_b)
			print_error("%s: %.2fB from the shape, %.2fB published\n", names[i], n, m->params_b);
		assert_close(n, m->params_b, 0.05);
	}
	/* Mixtral: ~12.9B of its 46.7B are active per token */
	const struct model_spec *mx = catalog_model(cat, "mixtral-8x7b");
	assert_close(transformer_params_active(mx) / 1e9, 12.9, 0.03);
}

/*
 * Megatron SC21: hardware FLOPs per step with full recompute are
 * F = 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) for GPT shapes; MT-NLG 530B
 * (105 layers, h 20480, V 51200, s 2048, B 1920) in 60.1 s on 2,240 A100s
 * is 126 TFLOP/s per GPU (docs/explanation/training.md).
 */
static void test_megatron_flops_formula(void **state)
{
	(void)state;
	struct model_spec m = *catalog_model(cat, "gpt-529.6b");
	double B = 1920, s = 2048, l = m.layers, h = m.hidden, V = m.vocab;
	double F = 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
	double ours = transformer_hardware_flops_per_token(&m, (int)s, RECOMPUTE_FULL, RECMOD_DEFAULT) * B * s;
	assert_close(ours, F, 1e-9);
	assert_close(ours / (60.1 * 2240) / 1e12, 126, 0.01);
}

/* Model FLOPs per token = 6 x (matrix parameters incl. the output layer) +
 * 12 l h s (PaLM appendix B); the input embedding does no FLOPs. */
static void test_six_n_plus_attention(void **state)
{
	(void)state;
	const char *names[] = { "llama3-70b", "gpt3-175b", "mpt-30b", "llama2-7b" };
	for (size_t i = 0; i < 4; i++) {
		const struct model_spec *m = catalog_model(cat, names[i]);
		int s = 4096;
		double h = m->hidden;
		double matrices = transformer_params_total(m) - (double)m->vocab * h  /* input embedding */
				  - m->layers * 2 * h - h;                    /* norms */
		if (m->tied_embeddings)
			matrices += (double)m->vocab * h;                     /* the shared matrix is the output layer too */
		double heads_dim = (double)m->heads * transformer_head_dim(m);
		double want = 6 * matrices + 12.0 * m->layers * heads_dim * s;
		assert_close(transformer_model_flops_per_token(m, s), want, 1e-9);
	}
}

/* Recompute: full adds one forward of the layers, selective the attention core. */
static void test_recompute_flops(void **state)
{
	(void)state;
	const struct model_spec *m = catalog_model(cat, "llama3-8b");
	struct transformer_flops f;
	transformer_forward_flops(m, 8192, &f);
	double model = transformer_model_flops_per_token(m, 8192);
	assert_close(model, 3 * (f.linear + f.attention_core + f.logits), 1e-12);
	assert_close(transformer_hardware_flops_per_token(m, 8192, RECOMPUTE_NONE, RECMOD_DEFAULT), model, 1e-12);
	assert_close(transformer_hardware_flops_per_token(m, 8192, RECOMPUTE_SELECTIVE, RECMOD_DEFAULT), model + f.attention_core, 1e-12);
	assert_close(transformer_hardware_flops_per_token(m, 8192, RECOMPUTE_FULL, RECMOD_DEFAULT), model + f.linear + f.attention_core, 1e-12);
}

/*
 * Korthikanti et al. 2022 (docs/explanation/training.md), for a GPT shape trained with
 * dropout, per layer and micro-batch: no parallelism s b h (34 + 5 a s / h);
 * tensor + sequence parallel that over t; tensor parallel alone
 * s b h (10 + 24/t + 5 a s / (h t)); selective recompute s b h 34 / t;
 * full recompute 2 s b h / t; FlashAttention keeps no 5as/h term.
 */
static void test_activation_memory_formula(void **state)
{
	(void)state;
	const struct model_spec *m = catalog_model(cat, "gpt-145.6b");
	double s = 2048, b = 2, h = m->hidden, a = m->heads, t = 8;
	double sbh = s * b * h;
	assert_true(m->dropout);
	assert_close(transformer_layer_activation_bytes(m, s, b, 1, false, RECOMPUTE_NONE, false), sbh * (34 + 5 * a * s / h), 1e-12);
	assert_close(transformer_layer_activation_bytes(m, s, b, 8, true, RECOMPUTE_NONE, false), sbh * (34 + 5 * a * s / h) / t, 1e-12);
	assert_close(transformer_layer_activation_bytes(m, s, b, 8, false, RECOMPUTE_NONE, false), sbh * (10 + 24 / t + 5 * a * s / (h * t)), 1e-12);
	assert_close(transformer_layer_activation_bytes(m, s, b, 8, true, RECOMPUTE_SELECTIVE, false), sbh * 34 / t, 1e-12);
	assert_close(transformer_layer_activation_bytes(m, s, b, 8, true, RECOMPUTE_FULL, false), 2 * sbh / t, 1e-12);
	assert_close(transformer_layer_activation_bytes(m, s, b, 8, true, RECOMPUTE_NONE, true), sbh * 34 / t, 1e-12);
	/* a frozen MLP (LoRA on attention only) keeps neither matrix input */
	assert_close(transformer_layer_activation_bytes_frozen(m, s, b, 8, true, RECOMPUTE_NONE, RECMOD_DEFAULT, true, TF_FROZEN_MLP),
		     sbh * (34 - 2 - 2 * 4) / t, 1e-12);
}

/*
 * Multi-head Latent Attention, DeepSeek-V3's config (h 7168, a 128, q_lora
 * 1536, kv_lora 512, nope d 128, rope r 64, v 128): attention weights per
 * layer h q + q + q a (d + r) + h (c + r) + c + c a 2d + a d h + h = 187.1M,
 * so the shape gives the published 671B total and 37B active; forward
 * FLOPs per token are twice the matrices (Megatron-LM's
 * num_floating_point_operations, MLA branch, without its norm terms), the
 * core 2 s a (d + r + d) over the whole s x s (Megatron halves it for the
 * causal mask); the KV cache holds c + r values per token and layer.
 */
/*
 * Selective recompute by module (Megatron-Core's --recompute-modules), per
 * layer and micro-batch with tensor and sequence parallelism t, against
 * what Megatron-MoE-ModelZoo's memory estimator
 * (misc/tools/deepseek_mem_estimate.py) says each saves: layernorm the two
 * norms' outputs, 2 s b h / t each; moe_act the experts' activation output
 * (half of fc1's 2 f_e k), moe every expert inner tensor, mla_up_proj the
 * query, key and value after the up-projections. Hardware FLOPs add the
 * recomputed matrices' forward: 2 E h + k 2 x 3 h f_e per MoE layer and
 * token, MLA's up-projections 2 a d_qk q' + 2 a 2 d c.
 */
static void test_recompute_modules(void **state)
{
	(void)state;
	const struct model_spec *q = catalog_model(cat, "qwen3-235b-a22b");
	double s = 4096, b = 1, t = 2, h = q->hidden, k = q->experts_active, fe = q->expert_ffn;
	double sb = s * b;
	double base = transformer_layer_activation_bytes_frozen(q, s, b, 2, true, RECOMPUTE_SELECTIVE,
								 RECMOD_CORE_ATTN, true, 0);
	double norm = transformer_layer_activation_bytes_frozen(q, s, b, 2, true, RECOMPUTE_SELECTIVE,
								 RECMOD_LAYERNORM, true, 0);
	double act = transformer_layer_activation_bytes_frozen(q, s, b, 2, true, RECOMPUTE_SELECTIVE,
								RECMOD_MOE_ACT, true, 0);
	double moe = transformer_layer_activation_bytes_frozen(q, s, b, 2, true, RECOMPUTE_SELECTIVE,
								RECMOD_LAYERNORM | RECMOD_MOE, true, 0);
	assert_close(base - norm, 2 * (2 * sb * h / t), 1e-12);
	assert_close(base - act, 2 * sb * k * fe / t, 1e-12);
	assert_close(base - moe, 2 * (2 * sb * h / t) + 6 * sb * k * fe / t, 1e-12);
	/* the modules mean nothing outside a selective recompute */
	assert_close(transformer_layer_activation_bytes_frozen(q, s, b, 2, true, RECOMPUTE_NONE, RECMOD_MOE, true, 0),
		     transformer_layer_activation_bytes(q, s, b, 2, true, RECOMPUTE_NONE, true), 1e-12);
	/* without FlashAttention the s x s tensors stay unless core_attn is named */
	const struct model_spec *g = catalog_model(cat, "gpt-145.6b");
	double gs = 2048, a = g->heads;
	assert_close(transformer_layer_activation_bytes_frozen(g, gs, 1, 8, true, RECOMPUTE_SELECTIVE,
							       RECMOD_LAYERNORM, false, 0) -
			     transformer_layer_activation_bytes_frozen(g, gs, 1, 8, true, RECOMPUTE_SELECTIVE,
								       RECMOD_CORE_ATTN | RECMOD_LAYERNORM, false, 0),
		     5 * a * gs * gs / 8, 1e-12);
	/* a dense MLP: gate, up and product, 6 f per token */
	const struct model_spec *l = catalog_model(cat, "llama3-8b");
	assert_close(transformer_layer_activation_bytes_frozen(l, s, 1, 1, false, RECOMPUTE_SELECTIVE, RECMOD_CORE_ATTN,
							       true, 0) -
			     transformer_layer_activation_bytes_frozen(l, s, 1, 1, false, RECOMPUTE_SELECTIVE,
								       RECMOD_MLP, true, 0),
		     6 * s * l->ffn, 1e-12);

	double model = transformer_model_flops_per_token(q, (int)s);
	double moe_fwd = q->layers * (2 * h * q->experts + k * 2 * 3 * h * fe);
	assert_close(transformer_hardware_flops_per_token(q, (int)s, RECOMPUTE_SELECTIVE, RECMOD_MOE_ACT), model, 1e-12);
	assert_close(transformer_hardware_flops_per_token(q, (int)s, RECOMPUTE_SELECTIVE, RECMOD_MOE), model + moe_fwd,
		     1e-12);

	/* MLA (DeepSeek-V3): Q, K of d_qk and V of d_v per head, over t */
	const struct model_spec *d = catalog_model(cat, "deepseek-v3");
	double da = d->heads, dq = transformer_qk_head_dim(d), dv = transformer_v_head_dim(d);
	assert_close(transformer_layer_activation_bytes_frozen(d, s, 1, 2, true, RECOMPUTE_SELECTIVE, RECMOD_CORE_ATTN,
							       true, 0) -
			     transformer_layer_activation_bytes_frozen(d, s, 1, 2, true, RECOMPUTE_SELECTIVE,
								       RECMOD_MLA_UP_PROJ, true, 0),
		     s * (2 * da * dq * 2 + 2 * da * dv) / 2, 1e-12);
	double up = d->layers * (2 * da * dq * d->q_lora_rank + 2 * da * 2 * transformer_head_dim(d) * d->kv_lora_rank);
	assert_close(transformer_hardware_flops_per_token(d, (int)s, RECOMPUTE_SELECTIVE, RECMOD_MLA_UP_PROJ),
		     transformer_model_flops_per_token(d, (int)s) + up, 1e-12);
}

static void test_mla(void **state)
{
	(void)state;
	const struct model_spec *m = catalog_model(cat, "deepseek-v3");
	assert_true(transformer_is_mla(m));
	double h = 7168, a = 128, q = 1536, c = 512, d = 128, r = 64, s = 4096;
	double attn = h * q + q + q * a * (d + r) + h * (c + r) + c + c * a * 2 * d + a * d * h + h;
	assert_close(transformer_attention_params(m), attn, 1e-12);
	assert_close(attn / 1e6, 187.1, 0.001);
	assert_close(transformer_params_total(m) / 1e9, 671, 0.005);
	assert_close(transformer_params_active(m) / 1e9, 37, 0.02);
	assert_int_equal(transformer_qk_head_dim(m), 192);
	assert_int_equal(transformer_v_head_dim(m), 128);
	assert_true(transformer_kv_elems_per_token(m) == 576);

	/* a dense copy of the shape isolates the attention: forward per token */
	struct model_spec dense = *m;
	dense.experts = dense.experts_active = dense.expert_ffn = dense.shared_experts = dense.dense_layers = 0;
	struct transformer_flops f;
	transformer_forward_flops(&dense, (int)s, &f);
	double mlp = 2 * 3 * h * dense.ffn;
	double megatron_linear = 2 * (q * (h + a * (d + r)) + c * (h + a * (d + d)) + h * r + a * d * h);
	assert_close(f.linear / dense.layers - mlp, megatron_linear, 1e-12);
	assert_close(f.attention_core / dense.layers, 2 * s * a * (d + r + d), 1e-12);

	/* tensor parallelism splits the up-projections and the output
	 * projection, not the down-projections */
	struct transformer_gemm g1[TRANSFORMER_ATTN_GEMMS], g8[TRANSFORMER_ATTN_GEMMS];
	int n1 = transformer_attention_gemms(m, 1, g1), n8 = transformer_attention_gemms(m, 8, g8);
	assert_int_equal(n1, 5);
	assert_int_equal(n8, 5);
	double per_gpu = 0;
	for (int i = 0; i < n8; i++)
		per_gpu += g8[i].n * g8[i].k;
	assert_close(per_gpu, h * q + h * (c + r) + (q * a * (d + r) + c * a * 2 * d + a * d * h) / 8, 1e-12);

	/* without a latent, the same shape is ordinary attention */
	struct model_spec mha = *m;
	mha.q_lora_rank = mha.kv_lora_rank = mha.qk_rope_dim = 0;
	assert_false(transformer_is_mla(&mha));
	assert_close(transformer_attention_params(&mha), 4 * h * a * d + h, 1e-12);
	assert_true(transformer_kv_elems_per_token(&mha) == 2 * a * d);
}

/*
 * Multi-token prediction (DeepSeek-V3 section 2.2): each module adds one
 * layer like the last decoder layer (an MoE layer with MLA here), a 2h -> h
 * projection and one more pass of the shared output head, so the model
 * FLOPs per token grow by exactly 3 x (that layer's linear and attention
 * FLOPs + 4h^2 + 2hV), and the parameters trained by two norms, the
 * projection and the layer with all its experts; the served model's
 * parameter count does not change.
 */
static void test_mtp(void **state)
{
	(void)state;
	struct model_spec m0 = *catalog_model(cat, "deepseek-v3"), m1 = m0;
	m1.mtp_layers = 1;
	double h = m0.hidden, V = m0.vocab, s = 4096, a = m0.heads;
	double latent_norms = (double)m0.q_lora_rank + m0.kv_lora_rank;
	double attn_matrices = transformer_attention_params(&m0) - latent_norms - h;
	double moe_mlp = 2 * h * m0.experts + (m0.experts_active + m0.shared_experts) * 2 * 3 * h * m0.expert_ffn;
	double core = 2 * s * a * (transformer_qk_head_dim(&m0) + transformer_v_head_dim(&m0));
	double want = 3 * (2 * attn_matrices + moe_mlp + 4 * h * h + core + 2 * h * V);
	assert_close(transformer_model_flops_per_token(&m1, (int)s) - transformer_model_flops_per_token(&m0, (int)s),
		     want, 1e-12);
	assert_close(transformer_mtp_params(&m1), 2 * h + 2 * h * h + transformer_layer_params(&m0, true, true), 1e-12);
	/* Hugging Face's checkpoint: 685B with the module, 671B without; its
	 * 14B keep their own copies of the embedding and the head */
	assert_close((transformer_mtp_params(&m1) + 2 * V * h) / 1e9, 14, 0.05);
	assert_true(transformer_mtp_params(&m0) == 0);
	assert_true(transformer_params_total(&m1) == transformer_params_total(&m0));
	/* a selective moe recompute replays the module's MoE layer too */
	double rec1 = transformer_hardware_flops_per_token(&m1, (int)s, RECOMPUTE_SELECTIVE, RECMOD_MOE) -
		      transformer_model_flops_per_token(&m1, (int)s);
	double rec0 = transformer_hardware_flops_per_token(&m0, (int)s, RECOMPUTE_SELECTIVE, RECMOD_MOE) -
		      transformer_model_flops_per_token(&m0, (int)s);
	assert_close(rec1 - rec0, moe_mlp, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parameter_counts),
		cmocka_unit_test(test_megatron_flops_formula),
		cmocka_unit_test(test_six_n_plus_attention),
		cmocka_unit_test(test_recompute_flops),
		cmocka_unit_test(test_activation_memory_formula),
		cmocka_unit_test(test_mla),
		cmocka_unit_test(test_recompute_modules),
		cmocka_unit_test(test_mtp),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
