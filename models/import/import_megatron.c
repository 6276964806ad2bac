/*
 * import megatron: Megatron-LM / NeMo / Megatron-Bridge arguments as a
 * training workload.
 *
 * Names, types and defaults from NVIDIA/Megatron-LM@d98e8a64
 * megatron/training/arguments.py (and the fields of megatron/core/
 * transformer/transformer_config.py and model_parallel_config.py it
 * generates arguments from). The fragment is the run the arguments
 * launch: an argument not given takes Megatron-LM's default (tp 1, no
 * sequence parallelism, no recompute, fp32, tied embeddings, ...), and
 * each default written is noted.
 */
#include "models/import/import.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"

/* What the arguments say. */
struct mg {
	int tp, pp, vpp_layers, vpp, cp, ep, etp, mbs, gbs, seq, rec_layers;
	int layers, hidden, ffn, heads, groups, kv_channels, vocab, experts, topk, moe_ffn, shared_ffn, mtp;
	int q_lora, kv_lora, qk_head, qk_pos, v_head, train_iters, train_samples;
	double hidden_dropout, attention_dropout;
	bool sp, gqa, swiglu, untie, dist_opt, overlap_param, tp_overlap, bf16, fp16, mla;
	char fp8[64], rec_gran[64], rec_method[64], moe_freq[64];
	json_t *rec_modules;  /* owned array, NULL when not given */
	bool given[64];       /* by index in mg_args */
};

enum mg_type { T_INT, T_REAL, T_FLAG, T_STR, T_LIST, T_OTHER_VALUE, T_OTHER_FLAG };

struct mg_arg {
	const char *name;
	enum mg_type type;
	size_t off;
	const char *choices;   /* T_STR: " a b c " */
	const char *why;       /* T_OTHER_*: why it does not change the costed step */
};

#define I(n, f) { n, T_INT, offsetof(struct mg, f), NULL, NULL }
#define F(n, f) { n, T_FLAG, offsetof(struct mg, f), NULL, NULL }
static const struct mg_arg mg_args[] = {
	I("tensor-model-parallel-size", tp), I("pipeline-model-parallel-size", pp),
	I("num-layers-per-virtual-pipeline-stage", vpp_layers), I("virtual-pipeline-model-parallel-size", vpp),
	I("context-parallel-size", cp), I("expert-model-parallel-size", ep), I("expert-tensor-parallel-size", etp),
	I("micro-batch-size", mbs), I("global-batch-size", gbs), I("seq-length", seq),
	I("recompute-num-layers", rec_layers), I("num-layers", layers), I("hidden-size", hidden),
	I("ffn-hidden-size", ffn), I("num-attention-heads", heads), I("num-query-groups", groups),
	I("kv-channels", kv_channels), I("vocab-size", vocab), I("num-experts", experts),
	I("moe-router-topk", topk), I("moe-ffn-hidden-size", moe_ffn),
	I("moe-shared-expert-intermediate-size", shared_ffn), I("mtp-num-layers", mtp), I("q-lora-rank", q_lora),
	I("kv-lora-rank", kv_lora), I("qk-head-dim", qk_head), I("qk-pos-emb-head-dim", qk_pos),
	I("v-head-dim", v_head), I("train-iters", train_iters), I("train-samples", train_samples),
	{ "hidden-dropout", T_REAL, offsetof(struct mg, hidden_dropout), NULL, NULL },
	{ "attention-dropout", T_REAL, offsetof(struct mg, attention_dropout), NULL, NULL },
	F("sequence-parallel", sp), F("group-query-attention", gqa), F("swiglu", swiglu),
	F("untie-embeddings-and-output-weights", untie), F("use-distributed-optimizer", dist_opt),
	F("overlap-param-gather", overlap_param), F("tp-comm-overlap", tp_overlap), F("bf16", bf16),
	F("fp16", fp16), F("multi-latent-attention", mla),
	{ "fp8-format", T_STR, offsetof(struct mg, fp8), " e4m3 hybrid ", NULL },
	{ "recompute-granularity", T_STR, offsetof(struct mg, rec_gran), " full selective ", NULL },
	{ "recompute-method", T_STR, offsetof(struct mg, rec_method), " uniform block ", NULL },
	{ "moe-layer-freq", T_STR, offsetof(struct mg, moe_freq), NULL, NULL },
	{ "recompute-modules", T_LIST, offsetof(struct mg, rec_modules), NULL, NULL },
	{ "overlap-grad-reduce", T_OTHER_FLAG, 0, NULL, "the gradient reduce is always overlapped with the backward" },
	{ "max-position-embeddings", T_OTHER_VALUE, 0, NULL, "positions only" },
	{ "position-embedding-type", T_OTHER_VALUE, 0, NULL, "positions only" },
	{ "normalization", T_OTHER_VALUE, 0, NULL, "norms are costed as RMSNorm/LayerNorm alike" },
	{ "disable-bias-linear", T_OTHER_FLAG, 0, NULL, "biases are not costed" },
	{ "step-batch-size-schedule", T_OTHER_VALUE, 0, NULL, "the step is costed at global-batch-size" },
	{ "rampup-batch-size", T_OTHER_VALUE, 0, NULL, "the step is costed at global-batch-size" },
};
#undef I
#undef F

enum { N_ARGS = sizeof mg_args / sizeof mg_args[0] };
_Static_assert(N_ARGS <= 64, "struct mg.given holds one flag per argument");

/* The value-taking arguments of common launch scripts that do not change
 * the costed step (optimizer, schedule, data, logging, checkpoint paths). */
static const char *const other_values[] = {
	"lr", "min-lr", "lr-decay-style", "lr-decay-iters", "lr-decay-samples", "lr-warmup-fraction",
	"lr-warmup-iters", "lr-warmup-samples", "weight-decay", "adam-beta1", "adam-beta2", "adam-eps",
	"clip-grad", "init-method-std", "seed", "data-path", "vocab-file", "merge-file", "tokenizer-type",
	"tokenizer-model", "split", "save", "load", "save-interval", "eval-interval", "eval-iters", "log-interval",
	"tensorboard-dir", "data-cache-path", "num-workers", "attention-backend", "rotary-base", "rotary-percent",
	"fp8-amax-history-len", "fp8-amax-compute-algo", "exit-duration-in-mins", "distributed-backend",
	"decoupled-lr", "decoupled-min-lr", "empty-unused-memory-level", "tiktoken-pattern", "wandb-project",
	"wandb-exp-name", "make-vocab-size-divisible-by", NULL
};

struct mgctx {
	const struct import_args *a;
	struct import_notes *notes;
	struct cs_error *err;
};

static const struct mg_arg *find_arg(const char *name, size_t len)
{
	for (size_t i = 0; i < N_ARGS; i++)
		if (strlen(mg_args[i].name) == len && strncmp(mg_args[i].name, name, len) == 0)
			return &mg_args[i];
	return NULL;
}

static bool is_other_value(const char *name, size_t len)
{
	for (size_t i = 0; other_values[i] != NULL; i++)
		if (strlen(other_values[i]) == len && strncmp(other_values[i], name, len) == 0)
			return true;
	return false;
}

/* A whole number of argument i (where: for messages) into *out. */
static int parse_int(struct mgctx *c, size_t i, const char *opt, const char *v, int *out)
{
	char where[300], *end;
	long n;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno == 0 && end != v && *end == '\0' && n >= 0 && n <= (1L << 30)) {
		*out = (int)n;
		return 0;
	}
	import_args_where(c->a, i, where, sizeof where);
	return error_set(c->err, "megatron %s: --%s: expected a whole number from 0 to 2^30, got '%.60s'", where, opt, v);
}

/* Store argument i's value (v; NULL for a flag) into m as its entry says. */
static int store(struct mgctx *c, struct mg *m, const struct mg_arg *arg, size_t i, const char *v)
{
	char where[300], *end;
	void *slot = (char *)m + arg->off;
	import_args_where(c->a, i, where, sizeof where);
	switch (arg->type) {
	case T_INT:
		return parse_int(c, i, arg->name, v, slot);
	case T_REAL: {
		double x = strtod(v, &end);
		if (end == v || *end != '\0' || !(x >= 0 && x <= 1))
			return error_set(c->err, "megatron %s: --%s: expected a number from 0 to 1, got '%.60s'", where,
					 arg->name, v);
		*(double *)slot = x;
		return 0;
	}
	case T_FLAG:
		*(bool *)slot = true;
		return 0;
	case T_STR: {
		char key[80];
		text_setf(key, sizeof key, " %.60s ", v);
		if (arg->choices != NULL && strstr(arg->choices, key) == NULL)
			return error_set(c->err, "megatron %s: --%s: '%.60s' is not one of Megatron-LM's choices (%.*s)",
					 where, arg->name, v, (int)strlen(arg->choices) - 2, arg->choices + 1);
		if (!text_setf(slot, 64, "%s", v))
			return error_set(c->err, "megatron %s: --%s: '%.60s' is too long", where, arg->name, v);
		return 0;
	}
	default:
		return 0;
	}
}

/* True when argument j of a is a value rather than the next option. */
static bool is_value(const struct import_args *a, size_t j)
{
	return j < a->n && strncmp(a->argv[j], "--", 2) != 0;
}

/* Walk the arguments into m. */
static int parse(struct mgctx *c, struct mg *m)
{
	const struct import_args *a = c->a;
	char where[300];
	for (size_t i = 0; i < a->n; i++) {
		const char *s = a->argv[i], *eq, *name, *v = NULL;
		size_t len;
		import_args_where(a, i, where, sizeof where);
		if (strncmp(s, "--", 2) != 0 || s[2] == '\0')
			return error_set(c->err, "megatron %s: '%.60s' is not an option (Megatron-LM's arguments all "
					 "start with --)", where, s);
		name = s + 2;
		eq = strchr(name, '=');
		len = eq != NULL ? (size_t)(eq - name) : strlen(name);
		const struct mg_arg *arg = find_arg(name, len);
		bool takes = arg != NULL ? arg->type != T_FLAG && arg->type != T_OTHER_FLAG : is_other_value(name, len);
		if (arg == NULL && !is_other_value(name, len)) {
			/* unknown: a value follows unless the next word is an option */
			if (eq == NULL)
				while (is_value(a, i + 1))
					i++;
			import_note(c->notes, "unknown argument, not modelled: %s (%s)", s, where);
			continue;
		}
		if (arg != NULL && arg->type == T_LIST) {
			json_t *list = json_array();
			if (eq != NULL)
				json_array_append_new(list, json_string(eq + 1));
			while (eq == NULL && is_value(a, i + 1))
				json_array_append_new(list, json_string(a->argv[++i]));
			json_decref(m->rec_modules);
			m->rec_modules = list;
			m->given[arg - mg_args] = true;
			continue;
		}
		if (takes) {
			if (eq != NULL)
				v = eq + 1;
			else if (is_value(a, i + 1))
				v = a->argv[++i];
			else
				return error_set(c->err, "megatron %s: --%.*s needs a value%s", where, (int)len, name,
						 i + 1 < a->n ? ", got the next option" : ", got the end of the arguments");
		} else if (eq != NULL) {
			return error_set(c->err, "megatron %s: --%.*s is a flag: it takes no value, got '%.60s'", where,
					 (int)len, name, eq + 1);
		}
		if (arg == NULL || arg->type == T_OTHER_VALUE || arg->type == T_OTHER_FLAG) {
			import_note(c->notes, "not modelled: --%.*s%s%s (%s)", (int)len, name, v ? " " : "", v ? v : "",
				    arg != NULL ? arg->why : "no effect on the costed step");
			continue;
		}
		if (store(c, m, arg, i, v) < 0)
			return -1;
		m->given[arg - mg_args] = true;
	}
	return 0;
}

static bool given(const struct mg *m, const char *name)
{
	const struct mg_arg *arg = find_arg(name, strlen(name));
	return arg != NULL && m->given[arg - mg_args];
}

/* parallelism: each degree as given, else Megatron-LM's default (noted). */
static int parallelism(struct mgctx *c, const struct mg *m, json_t *p)
{
	static const struct { const char *arg, *key; size_t off; } degrees[] = {
		{ "tensor-model-parallel-size", "tp", offsetof(struct mg, tp) },
		{ "pipeline-model-parallel-size", "pp", offsetof(struct mg, pp) },
		{ "context-parallel-size", "cp", offsetof(struct mg, cp) },
		{ "expert-model-parallel-size", "ep", offsetof(struct mg, ep) },
	};
	char defaults[512] = "";
	int vpp = m->vpp;

	for (size_t i = 0; i < sizeof degrees / sizeof degrees[0]; i++) {
		int v = *(const int *)((const char *)m + degrees[i].off);
		if (!given(m, degrees[i].arg)) {
			v = 1;
			text_append_itemf(defaults, sizeof defaults, ", ", "%s 1", degrees[i].key);
		}
		if (v < 1)
			return error_set(c->err, "megatron: --%s: expected at least 1, got %d", degrees[i].arg, v);
		json_object_set_new(p, degrees[i].key, json_integer(v));
	}
	if (given(m, "expert-tensor-parallel-size"))
		json_object_set_new(p, "expert_tp", json_integer(m->etp));
	if (given(m, "num-layers-per-virtual-pipeline-stage")) {
		int pp = given(m, "pipeline-model-parallel-size") ? m->pp : 1;
		if (!given(m, "num-layers") || m->vpp_layers < 1 || m->layers % ((long long)pp * m->vpp_layers) != 0)
			return error_set(c->err, "megatron: --num-layers-per-virtual-pipeline-stage %d: needs --num-layers "
					 "a multiple of it times the pipeline size", m->vpp_layers);
		vpp = (int)(m->layers / ((long long)pp * m->vpp_layers));
	}
	if (vpp > 1) {
		json_object_set_new(p, "vpp", json_integer(vpp));
		json_object_set_new(p, "schedule", json_string("interleaved"));
	} else if (given(m, "pipeline-model-parallel-size") && m->pp > 1) {
		json_object_set_new(p, "vpp", json_integer(1));
		json_object_set_new(p, "schedule", json_string("1f1b"));
	}
	json_object_set_new(p, "zero", json_integer(m->dist_opt ? 1 : 0));
	if (!m->dist_opt)
		text_append_itemf(defaults, sizeof defaults, ", ", "zero 0 (no --use-distributed-optimizer)");
	if (given(m, "micro-batch-size"))
		json_object_set_new(p, "micro_batch", json_integer(m->mbs));
	json_object_set_new(p, "sequence_parallel", json_boolean(m->sp));
	if (!m->sp)
		text_append_itemf(defaults, sizeof defaults, ", ", "sequence_parallel false");
	json_object_set_new(p, "overlap_param_gather", json_boolean(m->overlap_param));
	if (m->tp_overlap)
		json_object_set_new(p, "tp_comm_overlap", json_true());
	if (defaults[0] != '\0')
		import_note(c->notes, "Megatron-LM defaults written: %s", defaults);
	return 0;
}

/* The recompute keys; modules clustersim does not have are noted. */
static void recompute(struct mgctx *c, const struct mg *m, json_t *p)
{
	static const char known[] = " core_attn layernorm mlp moe_act moe mla_up_proj ";
	if (m->rec_gran[0] == '\0') {
		json_object_set_new(p, "recompute", json_string("none"));
		import_note(c->notes, "Megatron-LM default written: recompute none (no --recompute-granularity)");
		return;
	}
	json_object_set_new(p, "recompute", json_string(m->rec_gran));
	if (strcmp(m->rec_gran, "full") == 0) {
		if (m->rec_method[0] != '\0')
			json_object_set_new(p, "recompute_method", json_string(m->rec_method));
		if (given(m, "recompute-num-layers"))
			json_object_set_new(p, "recompute_num_layers", json_integer(m->rec_layers));
	}
	if (m->rec_modules != NULL && strcmp(m->rec_gran, "selective") == 0) {
		json_t *mods = json_array(), *v;
		size_t i;
		json_array_foreach(m->rec_modules, i, v) {
			char key[80];
			text_setf(key, sizeof key, " %.60s ", json_string_value(v));
			if (strstr(known, key) != NULL)
				json_array_append(mods, v);
			else
				import_note(c->notes, "not modelled: recompute module '%s'", json_string_value(v));
		}
		json_object_set_new(p, "recompute_modules", mods);
	}
}

/* The FFN: --ffn-hidden-size, else Megatron-LM's default (arguments.py:
 * 4h, or with --swiglu int(4h * 2/3 / 64) * 64). */
static int ffn_of(const struct mg *m)
{
	if (given(m, "ffn-hidden-size"))
		return m->ffn;
	long long four_h = 4LL * m->hidden;  /* hidden <= 2^30: no overflow */
	if (m->swiglu)
		return (int)((4.0 * m->hidden * 2 / 3) / 64) * 64;
	return four_h > (1 << 30) ? 1 << 30 : (int)four_h;
}

/* The model from the shape arguments, or NULL (noted) when they are not
 * all there. */
static json_t *model(struct mgctx *c, const struct mg *m)
{
	json_t *e;
	int ffn = ffn_of(m), kv = m->gqa ? (given(m, "num-query-groups") ? m->groups : 1) : m->heads;
	if (!given(m, "num-layers") && !given(m, "hidden-size") && !given(m, "num-attention-heads"))
		return NULL;
	if (!given(m, "num-layers") || !given(m, "hidden-size") || !given(m, "num-attention-heads") ||
	    !given(m, "vocab-size")) {
		import_note(c->notes, "model not written: it needs --num-layers, --hidden-size, --num-attention-heads "
				      "and --vocab-size (a tokenizer's vocabulary is not read); set workload.model");
		return NULL;
	}
	e = json_object();
	json_object_set_new(e, "layers", json_integer(m->layers));
	json_object_set_new(e, "hidden", json_integer(m->hidden));
	json_object_set_new(e, "heads", json_integer(m->heads));
	json_object_set_new(e, "kv_heads", json_integer(m->mla ? m->heads : kv));
	if (m->mla) {
		json_object_set_new(e, "head_dim", json_integer(m->qk_head));
		json_object_set_new(e, "q_lora_rank", json_integer(m->q_lora));
		json_object_set_new(e, "kv_lora_rank", json_integer(m->kv_lora));
		json_object_set_new(e, "qk_rope_dim", json_integer(m->qk_pos));
	} else if (given(m, "kv-channels") && (long long)m->kv_channels * m->heads != m->hidden) {
		json_object_set_new(e, "head_dim", json_integer(m->kv_channels));
	}
	json_object_set_new(e, "ffn", json_integer(ffn));
	json_object_set_new(e, "mlp", json_string(m->swiglu ? "swiglu" : "gelu"));
	json_object_set_new(e, "vocab", json_integer(m->vocab));
	if (given(m, "num-experts") && m->experts > 0) {
		int eff = given(m, "moe-ffn-hidden-size") ? m->moe_ffn : ffn;
		json_object_set_new(e, "experts", json_integer(m->experts));
		json_object_set_new(e, "experts_active", json_integer(m->topk));
		json_object_set_new(e, "expert_ffn", json_integer(eff));
		if (m->shared_ffn > 0)
			json_object_set_new(e, "shared_experts", json_integer(m->shared_ffn / eff));
	}
	if (m->mtp > 0)
		json_object_set_new(e, "mtp_layers", json_integer(m->mtp));
	json_object_set_new(e, "tied_embeddings", json_boolean(!m->untie));
	json_object_set_new(e, "dropout", json_boolean(m->hidden_dropout > 0 || m->attention_dropout > 0));
	if (!m->untie)
		import_note(c->notes, "Megatron-LM default written: tied_embeddings true (no "
				      "--untie-embeddings-and-output-weights)");
	import_note(c->notes, "not modelled: the vocabulary padding to a multiple of 128 x tp "
			      "(--make-vocab-size-divisible-by)");
	return e;
}

/* Cross-argument rules that would otherwise give a wrong model. */
static int check(struct mgctx *c, const struct mg *m)
{
	if (m->moe_freq[0] != '\0' && strcmp(m->moe_freq, "1") != 0)
		return error_set(c->err, "megatron: --moe-layer-freq: '%s': clustersim's MoE layers are all but the "
				 "first dense_layers", m->moe_freq);
	if (m->mla && m->qk_head != m->v_head)
		return error_set(c->err, "megatron: --v-head-dim %d differs from --qk-head-dim %d: clustersim's "
				 "Multi-head Latent Attention has one head_dim for both", m->v_head, m->qk_head);
	if (given(m, "num-experts") && m->experts > 0 && m->shared_ffn > 0) {
		int eff = given(m, "moe-ffn-hidden-size") ? m->moe_ffn : ffn_of(m);
		if (eff <= 0 || m->shared_ffn % eff != 0)
			return error_set(c->err, "megatron: --moe-shared-expert-intermediate-size %d: not a multiple of "
					 "the expert FFN %d", m->shared_ffn, eff);
	}
	if ((m->bf16 && m->fp16))
		return error_set(c->err, "megatron: --bf16 and --fp16 both given");
	return 0;
}

/* precision, seq_len, batch and tokens into w. */
static void run_shape(struct mgctx *c, const struct mg *m, json_t *w)
{
	const char *prec = m->fp8[0] ? "fp8" : m->bf16 ? "bf16" : m->fp16 ? "fp16" : "fp32";
	json_object_set_new(w, "precision", json_string(prec));
	if (!m->fp8[0] && !m->bf16 && !m->fp16)
		import_note(c->notes, "Megatron-LM default written: precision fp32 (no --bf16, --fp16 or --fp8-format)");
	if (m->fp8[0] && strcmp(m->fp8, "hybrid") != 0)
		import_note(c->notes, "not modelled: --fp8-format %s (fp8 is costed alike in e4m3 and hybrid)", m->fp8);
	if (given(m, "seq-length"))
		json_object_set_new(w, "seq_len", json_integer(m->seq));
	if (given(m, "global-batch-size") && given(m, "seq-length"))
		json_object_set_new(w, "global_batch_tokens", json_integer((json_int_t)m->gbs * m->seq));
	else if (given(m, "global-batch-size"))
		import_note(c->notes, "not written: --global-batch-size %d without --seq-length", m->gbs);
	/* each factor is at most 2^30: in double, exact below 2^53 */
	double tokens = given(m, "seq-length") && given(m, "train-samples") ? (double)m->train_samples * m->seq
			: given(m, "seq-length") && given(m, "global-batch-size") && given(m, "train-iters")
			? (double)m->train_iters * m->gbs * m->seq : 0;
	if (tokens > 0 && tokens <= 9e15)
		json_object_set_new(w, "tokens", json_integer((json_int_t)tokens));
	else if (tokens > 0)
		import_note(c->notes, "not written: tokens %.3g (over 9e15)", tokens);
}

json_t *import_megatron(const struct import_args *a, struct import_notes *notes, struct cs_error *err)
{
	struct mgctx c = { .a = a, .notes = notes, .err = err };
	struct mg m = { .topk = 2, .kv_lora = 32, .qk_head = 128, .qk_pos = 64, .v_head = 128,
			.hidden_dropout = 0.1, .attention_dropout = 0.1 };
	json_t *w = NULL, *p, *mod, *out = NULL;

	if (parse(&c, &m) < 0 || check(&c, &m) < 0)
		goto out;
	w = json_object();
	json_object_set_new(w, "kind", json_string("training"));
	mod = model(&c, &m);
	if (mod != NULL)
		json_object_set_new(w, "model", mod);
	run_shape(&c, &m, w);
	p = json_object();
	json_object_set_new(w, "parallelism", p);
	if (parallelism(&c, &m, p) < 0)
		goto out;
	recompute(&c, &m, p);
	out = json_pack("{sO}", "workload", w);
out:
	json_decref(w);
	json_decref(m.rec_modules);
	return out;
}
