/*
 * import hf: a Hugging Face transformers config.json as a catalog model
 * entry.
 *
 * Field names and defaults are those of the transformers configuration
 * classes (huggingface/transformers src/transformers/models/<type>/
 * configuration_<type>.py: LlamaConfig, MistralConfig, MixtralConfig,
 * Qwen2Config, Qwen3Config, Qwen3MoeConfig, DeepseekV3Config, GemmaConfig,
 * Gemma2Config, Gemma3TextConfig, GPT2Config, GPTNeoXConfig). The entry is
 * read back through the catalog's own reader, so what is written is what
 * `--catalog` will load.
 */
#include "models/import/import.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "models/hw/catalog_read.h"
#include "models/kernel/transformer.h"
#include "util/jread.h"
#include "util/text.h"

enum hf_family { FAM_DENSE, FAM_MIXTRAL, FAM_QWEN_MOE, FAM_DEEPSEEK, FAM_GPT2, FAM_NEOX };

/* One model_type: how its config reads. */
struct hf_arch {
	const char *type;
	enum hf_family fam;
	bool tied_default;     /* tie_word_embeddings when the config omits it */
	bool qkv_bias;         /* Qwen2: biases on q, k, v */
	bool qk_norm;          /* Qwen3, Gemma 3: RMSNorm of q and k per head */
	int norms_per_layer;   /* RMSNorms (weights of h) per layer: 2, Gemma 2/3: 4 */
};

static const struct hf_arch hf_arches[] = {
	{ .type = "llama", .fam = FAM_DENSE, .norms_per_layer = 2 },
	{ .type = "mistral", .fam = FAM_DENSE, .norms_per_layer = 2 },
	{ .type = "qwen2", .fam = FAM_DENSE, .qkv_bias = true, .norms_per_layer = 2 },
	{ .type = "qwen3", .fam = FAM_DENSE, .qk_norm = true, .norms_per_layer = 2 },
	{ .type = "gemma", .fam = FAM_DENSE, .tied_default = true, .norms_per_layer = 2 },
	{ .type = "gemma2", .fam = FAM_DENSE, .tied_default = true, .norms_per_layer = 4 },
	{ .type = "gemma3_text", .fam = FAM_DENSE, .tied_default = true, .qk_norm = true, .norms_per_layer = 4 },
	{ .type = "mixtral", .fam = FAM_MIXTRAL, .norms_per_layer = 2 },
	{ .type = "qwen3_moe", .fam = FAM_QWEN_MOE, .qk_norm = true, .norms_per_layer = 2 },
	{ .type = "deepseek_v3", .fam = FAM_DEEPSEEK, .norms_per_layer = 2 },
	{ .type = "gpt2", .fam = FAM_GPT2, .tied_default = true },
	{ .type = "gpt_neox", .fam = FAM_NEOX },
};

enum { N_ARCHES = sizeof hf_arches / sizeof hf_arches[0] };

const char *import_hf_known(void)
{
	return "llama, mistral, qwen2, qwen3, gemma, gemma2, gemma3_text (and gemma3's text_config), mixtral, "
	       "qwen3_moe, deepseek_v3, gpt2, gpt_neox";
}

/* What one import reads from. */
struct hf {
	const char *file;
	const json_t *cfg;        /* the text model's fields (gemma3: text_config) */
	const struct hf_arch *arch;
	struct import_notes *notes;
	struct cs_error *err;
};

/* The positive integer `key` of the config into *out; absent or null
 * gives def, or an error when required. */
static int get_int(struct hf *h, const char *key, bool required, int def, int *out)
{
	const json_t *v = json_object_get(h->cfg, key);
	char got[96];
	if (v == NULL || json_is_null(v)) {
		if (required)
			return error_set(h->err, "config '%s': %s: missing (model_type '%s' needs it)", h->file, key,
					 h->arch->type);
		*out = def;
		return 0;
	}
	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= (1 << 24)) {
		*out = (int)json_integer_value(v);
		return 0;
	}
	jread_describe(v, got, sizeof got);
	return error_set(h->err, "config '%s': %s: expected a whole number from 0 to 2^24, got %s", h->file, key, got);
}

static bool get_bool(const struct hf *h, const char *key, bool def)
{
	const json_t *v = json_object_get(h->cfg, key);
	return json_is_boolean(v) ? json_is_true(v) : def;
}

/* Note a field that changes accuracy but not the shape, when set. */
static void note_if_set(struct hf *h, const char *key, const char *what)
{
	const json_t *v = json_object_get(h->cfg, key);
	char got[96];
	if (v == NULL || json_is_null(v) || json_is_false(v))
		return;
	jread_describe(v, got, sizeof got);
	import_note(h->notes, "not modelled: %s = %s (%s)", key, got, what);
}

static const struct hf_arch *find_arch(const char *type)
{
	for (size_t i = 0; i < N_ARCHES; i++)
		if (strcmp(hf_arches[i].type, type) == 0)
			return &hf_arches[i];
	return NULL;
}

/* The activation: gated (SwiGLU, GeGLU: three matrices) for every family
 * but GPT-2 and GPT-NeoX (two, GELU). */
static int read_mlp(struct hf *h, json_t *e)
{
	bool gated = h->arch->fam != FAM_GPT2 && h->arch->fam != FAM_NEOX;
	json_object_set_new(e, "mlp", json_string(gated ? "swiglu" : "gelu"));
	return 0;
}

/* Shape fields common to the Llama-like families. */
static int read_dense_shape(struct hf *h, json_t *e, int *layers, int *hidden, int *heads, int *kv, int *head_dim,
			    int *ffn, int *vocab)
{
	if (get_int(h, "num_hidden_layers", true, 0, layers) < 0 || get_int(h, "hidden_size", true, 0, hidden) < 0 ||
	    get_int(h, "num_attention_heads", true, 0, heads) < 0 ||
	    get_int(h, "num_key_value_heads", false, 0, kv) < 0 || get_int(h, "head_dim", false, 0, head_dim) < 0 ||
	    get_int(h, "intermediate_size", true, 0, ffn) < 0 || get_int(h, "vocab_size", true, 0, vocab) < 0)
		return -1;
	if (*kv == 0)
		*kv = *heads;
	if (*head_dim == 0 && *heads > 0)
		*head_dim = *hidden / *heads;
	json_object_set_new(e, "layers", json_integer(*layers));
	json_object_set_new(e, "hidden", json_integer(*hidden));
	json_object_set_new(e, "heads", json_integer(*heads));
	json_object_set_new(e, "kv_heads", json_integer(*kv));
	if (*heads > 0 && (*hidden % *heads != 0 || *head_dim != *hidden / *heads))
		json_object_set_new(e, "head_dim", json_integer(*head_dim));
	json_object_set_new(e, "ffn", json_integer(*ffn));
	json_object_set_new(e, "vocab", json_integer(*vocab));
	return 0;
}

/* The config's own count of one layer's attention (non-MLA), with the
 * family's biases and per-head norms. */
static double attention_count(const struct hf *h, double hd, double a, double g, double d)
{
	double n = hd * a * d + 2 * hd * g * d + a * d * hd;
	if (h->arch->qkv_bias || get_bool(h, "attention_bias", false))
		n += a * d + 2 * g * d;
	if (h->arch->qk_norm)
		n += 2 * d;
	return n;
}

/* DeepSeek-V3's Multi-head Latent Attention fields into e; its count per
 * layer into *count (DeepseekV3Attention: q_a_proj, q_a_layernorm,
 * q_b_proj, kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj). */
static int read_mla(struct hf *h, json_t *e, double hd, double a, double *count)
{
	int ql, kvl, rope, nope, v;
	if (get_int(h, "q_lora_rank", false, 0, &ql) < 0 || get_int(h, "kv_lora_rank", true, 0, &kvl) < 0 ||
	    get_int(h, "qk_rope_head_dim", true, 0, &rope) < 0 || get_int(h, "qk_nope_head_dim", true, 0, &nope) < 0 ||
	    get_int(h, "v_head_dim", true, 0, &v) < 0)
		return -1;
	if (nope != v)
		return error_set(h->err, "config '%s': v_head_dim: %d differs from qk_nope_head_dim %d: clustersim's "
				 "Multi-head Latent Attention has one head_dim for both", h->file, v, nope);
	json_object_set_new(e, "head_dim", json_integer(nope));
	json_object_set_new(e, "q_lora_rank", json_integer(ql));
	json_object_set_new(e, "kv_lora_rank", json_integer(kvl));
	json_object_set_new(e, "qk_rope_dim", json_integer(rope));
	*count = (ql > 0 ? hd * ql + ql + (double)ql * a * (nope + rope) : hd * a * (nope + rope)) +
		 hd * (kvl + rope) + kvl + (double)kvl * a * (nope + v) + a * v * hd;
	return 0;
}

/* The mixture-of-experts fields of the three MoE families into e; the
 * config's count of one MoE layer's MLP (all experts and active ones). */
static int read_moe(struct hf *h, json_t *e, int layers, int ffn, double hd, double *moe_all, double *moe_active,
		    int *dense_layers)
{
	int experts, topk, eff = ffn, shared = 0, step = 1, freq = 1;
	const char *experts_key = h->arch->fam == FAM_MIXTRAL ? "num_local_experts"
				  : h->arch->fam == FAM_DEEPSEEK ? "n_routed_experts" : "num_experts";
	*dense_layers = 0;
	if (get_int(h, experts_key, true, 0, &experts) < 0 || get_int(h, "num_experts_per_tok", true, 0, &topk) < 0)
		return -1;
	if (h->arch->fam != FAM_MIXTRAL && get_int(h, "moe_intermediate_size", true, 0, &eff) < 0)
		return -1;
	if (h->arch->fam == FAM_DEEPSEEK &&
	    (get_int(h, "n_shared_experts", false, 0, &shared) < 0 ||
	     get_int(h, "first_k_dense_replace", false, 0, dense_layers) < 0 ||
	     get_int(h, "moe_layer_freq", false, 1, &freq) < 0))
		return -1;
	if (h->arch->fam == FAM_QWEN_MOE) {
		const json_t *only = json_object_get(h->cfg, "mlp_only_layers");
		if (get_int(h, "decoder_sparse_step", false, 1, &step) < 0)
			return -1;
		if (json_is_array(only) && json_array_size(only) > 0)
			return error_set(h->err, "config '%s': mlp_only_layers: %zu dense layers among the MoE ones: "
					 "clustersim's dense layers are the first ones (dense_layers)", h->file,
					 json_array_size(only));
	}
	if (step != 1 || freq != 1)
		return error_set(h->err, "config '%s': %s: %d: MoE on every %d-th layer only; clustersim's MoE "
				 "layers are all but the first dense_layers", h->file,
				 step != 1 ? "decoder_sparse_step" : "moe_layer_freq", step != 1 ? step : freq,
				 step != 1 ? step : freq);
	if (*dense_layers > layers)
		return error_set(h->err, "config '%s': first_k_dense_replace: %d exceeds num_hidden_layers %d", h->file,
				 *dense_layers, layers);
	json_object_set_new(e, "experts", json_integer(experts));
	json_object_set_new(e, "experts_active", json_integer(topk));
	json_object_set_new(e, "expert_ffn", json_integer(eff));
	if (shared > 0)
		json_object_set_new(e, "shared_experts", json_integer(shared));
	if (*dense_layers > 0)
		json_object_set_new(e, "dense_layers", json_integer(*dense_layers));
	/* router (DeepSeek-V3's noaux_tc adds a bias per expert), experts */
	double router = hd * experts + (h->arch->fam == FAM_DEEPSEEK ? experts : 0);
	*moe_all = router + (double)(experts + shared) * 3 * hd * eff;
	*moe_active = router + (double)(topk + shared) * 3 * hd * eff;
	return 0;
}

/* The Llama-like families (dense, Mixtral, Qwen3-MoE, DeepSeek-V3). */
static int read_llama_like(struct hf *h, json_t *e, struct import_hf_result *res)
{
	int layers, hidden, heads, kv, d, ffn, vocab, dense = 0, mtp = 0, maxpos = 0;
	double attn, mlp_all, mlp_active, dense_mlp;
	bool tied = get_bool(h, "tie_word_embeddings", h->arch->tied_default);

	if (read_dense_shape(h, e, &layers, &hidden, &heads, &kv, &d, &ffn, &vocab) < 0 || read_mlp(h, e) < 0)
		return -1;
	attn = attention_count(h, hidden, heads, kv, d);
	if (h->arch->fam == FAM_DEEPSEEK) {
		if (read_mla(h, e, hidden, heads, &attn) < 0)
			return -1;
		if (get_int(h, "num_nextn_predict_layers", false, 0, &mtp) < 0)
			return -1;
		if (mtp > 0)
			json_object_set_new(e, "mtp_layers", json_integer(mtp));
	}
	dense_mlp = 3.0 * hidden * ffn;
	mlp_all = mlp_active = dense_mlp;
	if (h->arch->fam == FAM_MIXTRAL || h->arch->fam == FAM_QWEN_MOE || h->arch->fam == FAM_DEEPSEEK) {
		if (read_moe(h, e, layers, ffn, hidden, &mlp_all, &mlp_active, &dense) < 0)
			return -1;
	}
	json_object_set_new(e, "tied_embeddings", json_boolean(tied));
	if (get_int(h, "max_position_embeddings", false, 0, &maxpos) < 0)
		return -1;
	if (maxpos > 0)
		json_object_set_new(e, "max_seq_len", json_integer(maxpos));
	double norms = (double)h->arch->norms_per_layer * hidden;
	double common = (double)layers * (attn + norms) + (double)dense * dense_mlp +
			(double)vocab * hidden * (tied ? 1 : 2) + hidden;
	res->config_params = common + (double)(layers - dense) * mlp_all;
	res->config_active_params = common + (double)(layers - dense) * mlp_active;
	return 0;
}

/* GPT-2 (GPT2Config: n_layer, n_embd, n_head, n_inner, n_positions) and
 * GPT-NeoX (hidden_size, ...): LayerNorms and biases everywhere, a GELU
 * MLP; GPT-2 learns position embeddings. */
static int read_gpt(struct hf *h, json_t *e, struct import_hf_result *res)
{
	bool gpt2 = h->arch->fam == FAM_GPT2;
	int layers, hidden, heads, ffn = 0, vocab, maxpos = 0;
	bool tied = get_bool(h, "tie_word_embeddings", h->arch->tied_default);

	if (get_int(h, gpt2 ? "n_layer" : "num_hidden_layers", true, 0, &layers) < 0 ||
	    get_int(h, gpt2 ? "n_embd" : "hidden_size", true, 0, &hidden) < 0 ||
	    get_int(h, gpt2 ? "n_head" : "num_attention_heads", true, 0, &heads) < 0 ||
	    get_int(h, gpt2 ? "n_inner" : "intermediate_size", !gpt2, 0, &ffn) < 0 ||
	    get_int(h, "vocab_size", true, 0, &vocab) < 0 ||
	    get_int(h, gpt2 ? "n_positions" : "max_position_embeddings", false, 0, &maxpos) < 0)
		return -1;
	if (ffn == 0)
		ffn = 4 * hidden;  /* GPT2MLP: n_inner None = 4 * n_embd */
	json_object_set_new(e, "layers", json_integer(layers));
	json_object_set_new(e, "hidden", json_integer(hidden));
	json_object_set_new(e, "heads", json_integer(heads));
	json_object_set_new(e, "kv_heads", json_integer(heads));
	json_object_set_new(e, "ffn", json_integer(ffn));
	read_mlp(h, e);
	json_object_set_new(e, "vocab", json_integer(vocab));
	json_object_set_new(e, "tied_embeddings", json_boolean(tied));
	if (maxpos > 0)
		json_object_set_new(e, "max_seq_len", json_integer(maxpos));
	if (gpt2 && maxpos > 0)
		import_note(h->notes, "not modelled: n_positions = %d (learned position embeddings, %d parameters, "
			    "are counted here but not by clustersim)", maxpos, maxpos * hidden);
	double hd = hidden;
	double layer = 4 * hd * hd + 4 * hd       /* qkv and output projection, with biases */
		       + 2 * hd * ffn + ffn + hd  /* MLP with biases */
		       + 4 * hd;                  /* two LayerNorms */
	res->config_params = layers * layer + (double)vocab * hd * (tied ? 1 : 2) + 2 * hd +
			     (gpt2 ? (double)maxpos * hd : 0);
	res->config_active_params = res->config_params;
	return 0;
}

/* What each family has that clustersim does not model, as notes. */
static void note_unmodelled(struct hf *h)
{
	const json_t *sw = json_object_get(h->cfg, "sliding_window");
	if (sw != NULL && !json_is_null(sw) && get_bool(h, "use_sliding_window", true))
		note_if_set(h, "sliding_window", "attention over the whole context is costed; a window cuts its "
				"FLOPs and KV cache past that length");
	note_if_set(h, "rope_scaling", "positions only: no cost");
	note_if_set(h, "attn_logit_softcapping", "an element-wise op: no cost");
	note_if_set(h, "final_logit_softcapping", "an element-wise op: no cost");
	note_if_set(h, "quantization_config", "weights are costed in workload.precision / serving.weight_precision");
	if (h->arch->qkv_bias || get_bool(h, "attention_bias", false))
		import_note(h->notes, "not modelled: attention biases (counted in the config's count, not by "
				      "clustersim: under 0.1%% of the weights)");
	if (h->arch->qk_norm)
		import_note(h->notes, "not modelled: q and k norms (2 x head_dim weights a layer)");
	if (h->arch->norms_per_layer > 2)
		import_note(h->notes, "not modelled: the post-attention and post-MLP norms (2 x hidden a layer)");
}

/* The text model's config: Gemma 3's multimodal config keeps it in
 * text_config. */
static const json_t *text_config(const json_t *root, const char **type, struct import_notes *notes)
{
	const json_t *tc = json_object_get(root, "text_config");
	if (strcmp(*type, "gemma3") == 0 && json_is_object(tc)) {
		const char *t = json_string_value(json_object_get(tc, "model_type"));
		*type = t != NULL ? t : "gemma3_text";
		import_note(notes, "not modelled: vision_config (the text model of a multimodal config is imported)");
		return tc;
	}
	return root;
}

json_t *import_hf(const char *file, const char *name, struct import_hf_result *res, struct import_notes *notes,
		  struct cs_error *err)
{
	struct hf h = { .file = file, .notes = notes, .err = err };
	json_t *root = jread_load("config", file, err), *e, *out;
	const char *type;
	struct jread r;
	int rc;

	*res = (struct import_hf_result){ 0 };
	if (root == NULL)
		return NULL;
	type = json_string_value(json_object_get(root, "model_type"));
	if (type == NULL) {
		const json_t *arch = json_array_get(json_object_get(root, "architectures"), 0);
		error_set(err, "config '%s': model_type: missing (architectures %s): not a transformers config.json",
			  file, json_is_string(arch) ? json_string_value(arch) : "missing too");
		json_decref(root);
		return NULL;
	}
	h.cfg = text_config(root, &type, notes);
	h.arch = find_arch(type);
	if (h.arch == NULL) {
		error_set(err, "config '%s': model_type: unknown architecture '%.64s' (known: %s)", file, type,
			  import_hf_known());
		json_decref(root);
		return NULL;
	}
	text_copy(res->arch, sizeof res->arch, type);
	e = json_object();
	json_object_set_new(e, "name", json_string(name));
	json_object_set_new(e, "description", json_string("imported from a Hugging Face config.json"));
	json_object_set_new(e, "source", json_string(file));
	rc = h.arch->fam == FAM_GPT2 || h.arch->fam == FAM_NEOX ? read_gpt(&h, e, res) : read_llama_like(&h, e, res);
	if (rc == 0) {
		note_unmodelled(&h);
		jread_init(&r, "import", file, err);
		rc = catalog_read_model(&r, e, NULL, &res->model);
	}
	json_decref(root);
	if (rc < 0) {
		json_decref(e);
		return NULL;
	}
	out = json_object();
	json_object_set_new(out, "models", json_pack("[o]", e));
	return out;
}
