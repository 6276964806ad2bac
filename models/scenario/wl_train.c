#include "wl_train.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "models/hw/catalog_read.h"
#include "models/hw/placement.h"
#include "models/kernel/transformer.h"
#include "models/scenario/keys.h"
#include "models/scenario/reader.h"
#include "util/text.h"

/* Every choice of a parallel plan left to the planner. */
static void plan_set_auto(struct parallel_plan *p)
{
	p->order[0] = '\0';
	p->tp_comm_overlap = false;
	p->moe_a2a_overlap = MOE_OVERLAP_NONE;
	p->moe_max_nodes = 0;
	p->moe_dispatch = MOE_DISPATCH_BF16;
	p->moe_load_imbalance = 1;
	p->expert_tp = 0;
	p->overlap_param_gather = true;
	p->free_stage_input = false;
	p->distribute_saved_activations = false;
	p->fp8_activation_cache = false;
	p->activation_func_fp8_input_store = false;
	p->recompute_num_layers = 0;
	p->host_launch_bound = false;
	p->recompute_method = RECOMPUTE_UNIFORM;
	p->tp = p->pp = p->vpp = p->dp = p->cp = p->ep = p->zero = p->micro_batch = PLAN_AUTO;
	p->schedule = p->recompute = p->sequence_parallel = PLAN_AUTO;
	p->recompute_modules = 0;  /* RECMOD_DEFAULT */
	p->pipeline_split = SPLIT_LAYERS;
	p->layout.stages = 0;
	p->grad_reduce = GRAD_REDUCE_AUTO;
	p->optimizer_moments = MOMENTS_FP32;
	p->search_levers = LEVERS_NO_NUMERICS;  /* "auto": the levers too (train.h) */
}

/* A key of the parallelism object given as "auto": a lever the search
 * chooses (enum search_lever). The key is removed from the copy the
 * typed readers see, so they read only stated values. */
static void take_auto_lever(json_t *copy, const char *key, unsigned bit, struct parallel_plan *p)
{
	const json_t *x = json_object_get(copy, key);
	if (x != NULL && json_is_string(x) && strcmp(json_string_value(x), "auto") == 0) {
		p->search_levers |= bit;
		json_object_del(copy, key);
	}
}

/* schedule and recompute, each a name or "auto". */
static int read_schedule_recompute(struct jread *r, const json_t *v, struct parallel_plan *p)
{
	static const char *const sched_or_auto[] = { "gpipe", "1f1b", "interleaved", "zb-h1", "dualpipev", "auto", NULL };
	static const char *const rec_or_auto[] = { "none", "selective", "full", "auto", NULL };
	int sched = 5, rec = 3;
	if (jread_enum(r, v, "schedule", false, sched_or_auto, &sched) < 0 ||
	    jread_enum(r, v, "recompute", false, rec_or_auto, &rec) < 0)
		return -1;
	p->schedule = sched == 5 ? PLAN_AUTO : sched;
	p->recompute = rec == 3 ? PLAN_AUTO : rec;
	/* Megatron's --recompute-num-layers and --recompute-method: a full
	 * recompute's shape */
	if (jread_int32(r, v, "recompute_num_layers", false, 1, 1 << 20, &p->recompute_num_layers) < 0 ||
	    jread_enum(r, v, "recompute_method", false, recompute_method_names, &p->recompute_method) < 0)
		return -1;
	bool shaped = json_object_get(v, "recompute_num_layers") != NULL || json_object_get(v, "recompute_method") != NULL;
	if (shaped && p->recompute != RECOMPUTE_FULL) {
		size_t mark = jread_enter_key(r, json_object_get(v, "recompute_num_layers") ? "recompute_num_layers"
											  : "recompute_method");
		(void)mark;
		return jread_fail(r, "given with recompute \"%s\": it shapes a full recompute (recompute \"full\")",
				  rec == 3 ? "auto" : recompute_names[rec]);
	}
	return 0;
}

/* recompute_modules: a non-empty array of distinct module names (enum
 * recompute_module), what a selective recompute recomputes; only with
 * recompute "selective" or "auto" (the planner's selective choice). */
static int read_recompute_modules(struct jread *r, const json_t *v, struct parallel_plan *p)
{
	const json_t *x = json_object_get(v, "recompute_modules");
	size_t i;
	json_t *e;
	if (x == NULL)
		return 0;
	size_t mark = jread_enter_key(r, "recompute_modules");
	if (!json_is_array(x) || json_array_size(x) == 0)
		return jread_fail_value(r, x, "a non-empty array of module names such as [\"layernorm\", \"moe\"]");
	if (p->recompute != PLAN_AUTO && p->recompute != RECOMPUTE_SELECTIVE)
		return jread_fail(r, "given with recompute \"%s\": modules need recompute \"selective\"",
				  recompute_names[p->recompute]);
	json_array_foreach(x, i, e) {
		size_t at = jread_enter_index(r, i);
		int bit = -1;
		for (int k = 0; recompute_module_names[k] != NULL && json_is_string(e); k++)
			if (strcmp(json_string_value(e), recompute_module_names[k]) == 0)
				bit = k;
		if (bit < 0)
			return jread_fail_value(r, e, "core_attn, layernorm, mlp, moe_act, moe or mla_up_proj");
		if (p->recompute_modules & (1 << bit))
			return jread_fail(r, "\"%s\" is given twice", recompute_module_names[bit]);
		p->recompute_modules |= 1 << bit;
		jread_leave(r, at);
	}
	jread_leave(r, mark);
	return 0;
}

/* order (a rank order placement accepts), tp_comm_overlap and
 * overlap_param_gather, free_stage_input, distribute_saved_activations,
 * fp8_activation_cache, activation_func_fp8_input_store, host_launch_bound. */
static int read_order(struct jread *r, const json_t *v, struct parallel_plan *p)
{
	if (jread_string(r, v, "order", false, p->order, sizeof p->order) < 0 ||
	    jread_bool(r, v, "tp_comm_overlap", false, &p->tp_comm_overlap) < 0 ||
	    jread_bool(r, v, "overlap_param_gather", false, &p->overlap_param_gather) < 0 ||
	    jread_bool(r, v, "free_stage_input", false, &p->free_stage_input) < 0 ||
	    jread_bool(r, v, "distribute_saved_activations", false, &p->distribute_saved_activations) < 0 ||
	    jread_bool(r, v, "fp8_activation_cache", false, &p->fp8_activation_cache) < 0 ||
	    jread_bool(r, v, "activation_func_fp8_input_store", false, &p->activation_func_fp8_input_store) < 0 ||
	    jread_bool(r, v, "host_launch_bound", false, &p->host_launch_bound) < 0)
		return -1;
	if (p->order[0]) {
		struct placement pl;
		struct cs_error perr;
		if (placement_init(&pl, 1, 1, 1, 1, p->order, &perr) < 0) {
			size_t mark = jread_enter_key(r, "order");
			jread_fail_value(r, json_object_get(v, "order"), "an order of tp, cp, pp and dp such as \"tp-cp-pp-dp\"");
			jread_leave(r, mark);
			return -1;
		}
	}
	return 0;
}

/* sequence_parallel: true, false or "auto". */
static int read_sequence_parallel(struct jread *r, const json_t *v, struct parallel_plan *p)
{
	const json_t *x = json_object_get(v, "sequence_parallel");
	if (x == NULL)
		return 0;
	if (json_is_boolean(x)) {
		p->sequence_parallel = json_is_true(x);
	} else if (!(json_is_string(x) && strcmp(json_string_value(x), "auto") == 0)) {
		size_t mark = jread_enter_key(r, "sequence_parallel");
		jread_fail_value(r, x, "true, false or \"auto\"");
		jread_leave(r, mark);
		return -1;
	}
	return 0;
}

/* pipeline_split ("layers" or "embedding+loss", train.h) or
 * pipeline_layout (Megatron-Core's layout string, layout.h),
 * grad_reduce_precision ("fp32", "bf16" or "auto", the default: Megatron's,
 * train.h) and optimizer_moments ("fp32", the default, or "bf16"). */
static int read_split_grad_reduce(struct jread *r, const json_t *v, struct parallel_plan *p)
{
	static const char *const grad_or_auto[] = { "auto", "fp32", "bf16", NULL };
	int split = SPLIT_LAYERS, grad = GRAD_REDUCE_AUTO, moments = MOMENTS_FP32;
	char text[LAYOUT_TEXT_MAX * 2] = "";
	if (key_enum(r, v, KS_PARALLELISM, "pipeline_split", &split) < 0 ||
	    jread_string(r, v, "pipeline_layout", false, text, sizeof text) < 0 ||
	    jread_enum(r, v, "grad_reduce_precision", false, grad_or_auto, &grad) < 0 ||
	    key_enum(r, v, KS_PARALLELISM, "optimizer_moments", &moments) < 0)
		return -1;
	p->pipeline_split = split;
	p->grad_reduce = grad;
	p->optimizer_moments = moments;
	p->layout.stages = 0;
	if (json_object_get(v, "pipeline_layout") != NULL) {
		char why[160];
		size_t mark = jread_enter_key(r, "pipeline_layout");
		if (json_object_get(v, "pipeline_split") != NULL)
			return jread_fail(r, "give pipeline_layout or pipeline_split, not both (the layout places every "
					     "layer)");
		if (layout_parse(text, &p->layout, why, sizeof why) < 0)
			return jread_fail(r, "\"%.60s\": %s", text, why);
		jread_leave(r, mark);
	}
	return 0;
}

static int read_plan_fields(struct jread *r, const json_t *v, struct parallel_plan *p);

/* The `parallelism` object, or "auto"; choices not given stay automatic. */
static int read_plan(struct jread *r, const json_t *v, struct parallel_plan *p)
{

	plan_set_auto(p);
	if (json_is_string(v) && strcmp(json_string_value(v), "auto") == 0)
		return 0;
	if (!json_is_object(v))
		return jread_fail_value(r, v, "an object or \"auto\"");
	if (key_object(r, v, KS_PARALLELISM) < 0)
		return -1;
	/* in an object, the levers are searched only when given as "auto" */
	p->search_levers = 0;
	json_t *given = json_copy((json_t *)v);  /* shallow: the values are v's */
	take_auto_lever(given, "pipeline_split", LEVER_PIPELINE_SPLIT, p);
	take_auto_lever(given, "free_stage_input", LEVER_FREE_STAGE_INPUT, p);
	take_auto_lever(given, "recompute_modules", LEVER_RECOMPUTE_MODULES, p);
	int rc = read_plan_fields(r, given, p);
	json_decref(given);
	return rc;
}

/* The parallelism object's typed fields (its "auto" levers taken out). */
static int read_plan_fields(struct jread *r, const json_t *v, struct parallel_plan *p)
{
	if (key_int_or_auto(r, v, KS_PARALLELISM, "tp", PLAN_AUTO, &p->tp) < 0 ||
	    key_int_or_auto(r, v, KS_PARALLELISM, "pp", PLAN_AUTO, &p->pp) < 0 ||
	    key_int_or_auto(r, v, KS_PARALLELISM, "vpp", PLAN_AUTO, &p->vpp) < 0 ||
	    key_int_or_auto(r, v, KS_PARALLELISM, "dp", PLAN_AUTO, &p->dp) < 0 ||
	    key_int_or_auto(r, v, KS_PARALLELISM, "cp", PLAN_AUTO, &p->cp) < 0 ||
	    key_int_or_auto(r, v, KS_PARALLELISM, "ep", PLAN_AUTO, &p->ep) < 0 ||
	    key_int_or_auto(r, v, KS_PARALLELISM, "zero", PLAN_AUTO, &p->zero) < 0 ||
	    key_int_or_auto(r, v, KS_PARALLELISM, "micro_batch", PLAN_AUTO, &p->micro_batch) < 0 ||
	    read_schedule_recompute(r, v, p) < 0 ||
	    read_recompute_modules(r, v, p) < 0 ||
	    read_order(r, v, p) < 0 ||
	    read_sequence_parallel(r, v, p) < 0 ||
	    key_enum(r, v, KS_PARALLELISM, "moe_a2a_overlap", &p->moe_a2a_overlap) < 0 ||
	    key_int32(r, v, KS_PARALLELISM, "moe_max_nodes_per_token", &p->moe_max_nodes) < 0 ||
	    key_int32(r, v, KS_PARALLELISM, "expert_tp", &p->expert_tp) < 0 ||
	    key_enum(r, v, KS_PARALLELISM, "moe_dispatch_precision", &p->moe_dispatch) < 0 ||
	    key_real(r, v, KS_PARALLELISM, "moe_load_imbalance", &p->moe_load_imbalance) < 0 ||
	    read_split_grad_reduce(r, v, p) < 0)
		return -1;
	return 0;
}

/* The `checkpoint` object, or "none". */
static int read_checkpoint(struct jread *r, const json_t *v, struct checkpoint_spec *c)
{
	c->enabled = true;
	c->given = true;
	c->interval_s = -1;
	c->interval_steps = 0;
	c->async = false;
	c->keep = 1;
	c->downloads = 0;
	text_copy(c->tier, sizeof c->tier, "pfs");
	if (json_is_string(v) && strcmp(json_string_value(v), "none") == 0) {
		c->enabled = false;
		return 0;
	}
	if (key_object(r, v, KS_CHECKPOINT) < 0 ||
	    key_real_or_auto(r, v, KS_CHECKPOINT, "interval_s", -1, &c->interval_s) < 0 ||
	    key_int(r, v, KS_CHECKPOINT, "interval_steps", &c->interval_steps) < 0 ||
	    jread_string(r, v, "tier", false, c->tier, sizeof c->tier) < 0 ||
	    jread_bool(r, v, "async", false, &c->async) < 0 ||
	    key_int(r, v, KS_CHECKPOINT, "keep", &c->keep) < 0 ||
	    key_int(r, v, KS_CHECKPOINT, "downloads", &c->downloads) < 0)
		return -1;
	const json_t *steps = json_object_get(v, "interval_steps");
	if (steps != NULL && json_object_get(v, "interval_s") != NULL) {
		(void)jread_enter_key(r, "interval_steps");  /* the error names the key */
		return jread_fail(r, "%lld given with interval_s as well: give one of interval_s and interval_steps",
				  (long long)c->interval_steps);
	}
	return 0;
}

/* The `data` object: the tier the training tokens are read from and the
 * bytes a token takes there (0: from the vocabulary, docs/explanation/whole-run.md). */
static int read_data(struct jread *r, const json_t *v, struct data_spec *d)
{
	memset(d, 0, sizeof *d);
	d->enabled = true;
	if (key_object(r, v, KS_DATA) < 0 ||
	    jread_string(r, v, "tier", true, d->tier, sizeof d->tier) < 0 ||
	    key_real(r, v, KS_DATA, "bytes_per_token", &d->bytes_per_token) < 0 ||
	    key_real(r, v, KS_DATA, "size_gb", &d->size_gb) < 0)
		return -1;
	return 0;
}

/* Seconds of detection + relaunch + NCCL init after a failure or a
 * preemption (docs/explanation/whole-run.md: bounded by PyTorch's default
 * process-group timeout of 10 min). */
static const double RESTART_S = 600;

/* The `failures` value: "none", "llama3" or an object of rates. */
static int read_failures(struct jread *r, const json_t *v, struct failure_spec *f)
{
	int dist = FAIL_EXPONENTIAL;

	memset(f, 0, sizeof *f);
	f->shape = 1.0;
	f->restart_s = RESTART_S;
	if (json_is_string(v)) {
		const char *name = json_string_value(v);
		if (strcmp(name, "none") == 0) {
			text_copy(f->preset, sizeof f->preset, "none");
			return 0;
		}
		if (strcmp(name, "llama3") == 0) {
			f->enabled = true;
			text_copy(f->preset, sizeof f->preset, "llama3");
			return 0;
		}
		return jread_fail_value(r, v, "\"llama3\", \"none\" or an object");
	}
	if (key_object(r, v, KS_FAILURES) < 0 ||
	    key_real(r, v, KS_FAILURES, "gpu_mtbf_h", &f->gpu_mtbf_h) < 0 ||
	    key_real(r, v, KS_FAILURES, "node_mtbf_h", &f->node_mtbf_h) < 0 ||
	    key_enum(r, v, KS_FAILURES, "distribution", &dist) < 0 ||
	    key_real(r, v, KS_FAILURES, "shape", &f->shape) < 0 ||
	    key_real(r, v, KS_FAILURES, "restart_s", &f->restart_s) < 0 ||
	    key_int32(r, v, KS_FAILURES, "spare_nodes", &f->spare_nodes) < 0)
		return -1;
	f->distribution = (enum failure_dist)dist;
	f->enabled = f->gpu_mtbf_h > 0 || f->node_mtbf_h > 0;
	if (!f->enabled)
		return jread_fail(r, "give gpu_mtbf_h or node_mtbf_h (or write \"none\")");
	return 0;
}

/* The `finetune` object: method, LoRA rank and targets, the frozen base's
 * storage (LoRA and QLoRA only; QLoRA's is 4-bit) and the mean tokens of an
 * example. */
static int read_finetune(struct jread *r, const json_t *v, struct finetune_spec *ft)
{
	static const char *const targets[] = { "attn", "mlp", "attn+mlp", NULL };
	int method = FINETUNE_LORA, t = 2, base = FT_BASE_RUN;
	ft->rank = 16;
	if (key_object(r, v, KS_FINETUNE) < 0 ||
	    key_enum(r, v, KS_FINETUNE, "method", &method) < 0 ||
	    key_int32(r, v, KS_FINETUNE, "rank", &ft->rank) < 0 ||
	    jread_enum(r, v, "targets", false, targets, &t) < 0 ||
	    key_enum(r, v, KS_FINETUNE, "base_precision", &base) < 0 ||
	    key_real(r, v, KS_FINETUNE, "mean_example_tokens", &ft->mean_example_tokens) < 0)
		return -1;
	ft->method = (enum finetune_method)method;
	ft->base = (enum finetune_base)base;
	text_copy(ft->targets, sizeof ft->targets, targets[t]);
	char msg[200];
	if (ft->base != FT_BASE_RUN && ft->method == FINETUNE_FULL) {
		snprintf(msg, sizeof msg, "\"%s\": a full finetune trains every weight, so there is no frozen base"
			 " to store (method \"lora\" or \"qlora\")", finetune_base_names[ft->base]);
		return reader_fail_at(r, "base_precision", msg);
	}
	if (ft->method == FINETUNE_QLORA && ft->base != FT_BASE_RUN && ft->base != FT_BASE_NF4 && ft->base != FT_BASE_FP4) {
		snprintf(msg, sizeof msg, "\"%s\" is not 4-bit: qlora stores the base in \"nf4\" or \"fp4\""
			 " (method \"lora\" keeps a base in any format)", finetune_base_names[ft->base]);
		return reader_fail_at(r, "base_precision", msg);
	}
	return 0;
}

/* Append "key value (why)" to out (size n) for each shape field the model
 * object v does not state: from the preset `base` when there is one, else
 * the reader's default rule (catalog_read_model). */
static void note_model_defaults(const json_t *v, const struct model_spec *base, const struct model_spec *m,
				char *out, size_t n)
{
	struct field {
		const char *key;
		int value;        /* -1: a boolean, see flag; -2: not listed */
		bool flag;
		const char *rule; /* without a preset */
	};
	const struct field fields[] = {
		{ "hidden", m->hidden, false, NULL },
		{ "heads", m->heads, false, NULL },
		{ "kv_heads", m->kv_heads, false, "= heads, no GQA" },
		{ "head_dim", transformer_head_dim(m) > 0 ? (int)transformer_head_dim(m) : 0, false, "hidden / heads" },
		{ "kv_lora_rank", m->kv_lora_rank, false, "ordinary attention, no latent" },
		{ "q_lora_rank", m->kv_lora_rank > 0 ? m->q_lora_rank : -2, false, NULL },
		{ "qk_rope_dim", m->kv_lora_rank > 0 ? m->qk_rope_dim : -2, false, NULL },
		{ "ffn", m->ffn, false, NULL },
		{ "vocab", m->vocab, false, NULL },
		{ "tied_embeddings", -1, m->tied_embeddings, "untied" },
		{ "dropout", -1, m->dropout, "no dropout masks kept" },
		{ "experts", m->experts, false, "dense" },
		{ "experts_active", m->experts > 0 ? m->experts_active : -2, false, NULL },
		{ "expert_ffn", m->experts > 0 ? m->expert_ffn : -2, false, NULL },
		{ "shared_experts", m->experts > 0 ? m->shared_experts : -2, false, "none" },
		{ "dense_layers", m->experts > 0 ? m->dense_layers : -2, false, "every layer a mixture of experts" },
		{ "mtp_layers", m->mtp_layers, false, "no multi-token prediction" },
	};
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < sizeof fields / sizeof *fields && used < n; i++) {
		const struct field *f = &fields[i];
		if (f->value == -2 || json_object_get(v, f->key) != NULL || (base == NULL && f->rule == NULL))
			continue;  /* -2: an expert field of a dense model, an MLA one without MLA */
		char val[32];
		if (f->value < 0)
			snprintf(val, sizeof val, "%s", f->flag ? "true" : "false");
		else
			snprintf(val, sizeof val, "%d", f->value);
		const char *why = base != NULL ? base->id.name : f->rule;
		if (strcmp(f->key, "head_dim") == 0 && m->head_dim == 0)
			why = "hidden / heads";
		used += (size_t)snprintf(out + used, n - used, "%s%s %s (%s)", used ? ", " : "", f->key, val, why);
	}
	if (base != NULL && json_object_get(v, "mlp") == NULL && used < n)
		used += (size_t)snprintf(out + used, n - used, "%smlp %s (%s)", used ? ", " : "",
					  mlp_kind_names[m->mlp], base->id.name);
	if (base != NULL && json_object_get(v, "layers") == NULL && used < n)
		snprintf(out + used, n - used, "%slayers %d (%s)", used ? ", " : "", m->layers, base->id.name);
}

/* A model given as a catalog name, or as an object over an optional preset. */
static int read_model_field(struct jread *r, const json_t *v, const catalog *cat,
			    struct model_spec *m, char *defaults, size_t defaults_size)
{
	const struct model_spec *base = NULL;
	if (json_is_string(v)) {
		base = catalog_model(cat, json_string_value(v));
		if (base == NULL)
			return reader_unknown_name(r, cat, CAT_MODELS, NULL, "model", json_string_value(v));
		*m = *base;
		defaults[0] = '\0';
		return 0;
	}
	if (!json_is_object(v))
		return jread_fail_value(r, v, "a model name or an object");
	json_t *p = json_object_get(v, "preset");
	if (p != NULL) {
		size_t mark = jread_enter_key(r, "preset");
		if (!json_is_string(p))
			return jread_fail_value(r, p, "a model name");
		base = catalog_model(cat, json_string_value(p));
		if (base == NULL)
			return reader_unknown_name(r, cat, CAT_MODELS, NULL, "model", json_string_value(p));
		jread_leave(r, mark);
	}
	memset(m, 0, sizeof *m);
	if (catalog_read_model(r, v, base, m) < 0)
		return -1;
	note_model_defaults(v, base, m, defaults, defaults_size);
	if (base == NULL && m->id.name[0] == '\0')
		text_copy(m->id.name, sizeof m->id.name, "custom");
	else if (base != NULL && json_object_size(v) > 1 && json_object_get(v, "name") == NULL)
		snprintf(m->id.name, sizeof m->id.name, "%.50s (modified)", base->id.name);
	return 0;
}

/* global_batch_tokens (a whole number of sequences) and tokens. */
static int read_batch(struct jread *r, const json_t *v, struct workload_spec *w)
{
	const json_t *b = json_object_get(v, "global_batch_tokens");
	if (json_is_object(b)) {
		/* {"target": N, "round": true}: each plan rounds N to the nearest batch it divides */
		size_t mark = jread_enter_key(r, "global_batch_tokens");
		if (key_object(r, b, KS_BATCH) < 0 ||
		    key_real(r, b, KS_BATCH, "target", &w->train.global_batch_tokens) < 0 ||
		    jread_bool(r, b, "round", false, &w->train.round_batch) < 0)
			return -1;
		jread_leave(r, mark);
	} else if (key_real(r, v, KS_WORKLOAD, "global_batch_tokens", &w->train.global_batch_tokens) < 0) {
		return -1;
	}
	if (key_real(r, v, KS_WORKLOAD, "tokens", &w->run.tokens) < 0)
		return -1;
	double seqs = w->train.global_batch_tokens / w->train.seq_len;
	if (seqs != (double)(int64_t)seqs || seqs < 1) {
		size_t mark = jread_enter_key(r, "global_batch_tokens");
		jread_fail(r, "%.0f is not a whole number of sequences of seq_len %d",
			   w->train.global_batch_tokens, w->train.seq_len);
		jread_leave(r, mark);
		return -1;
	}
	return 0;
}

/* search_numerics: the settings that change numerics the plan search may
 * use (search_numerics_names), each only where the parallelism object
 * does not state the key it sets. */
static int read_search_numerics(struct jread *r, const json_t *v, struct parallel_plan *p)
{
	static const char *const stated_key[] = { "grad_reduce_precision", "optimizer_moments",
						  "moe_dispatch_precision", "fp8_activation_cache" };
	const json_t *x = json_object_get(v, "search_numerics");
	const json_t *plan = json_object_get(v, "parallelism");
	size_t i;
	json_t *e;
	if (x == NULL)
		return 0;
	size_t mark = jread_enter_key(r, "search_numerics");
	if (!json_is_array(x))
		return jread_fail_value(r, x, "an array of names such as [\"grad_reduce_bf16\", \"optimizer_moments_bf16\"]");
	json_array_foreach(x, i, e) {
		size_t at = jread_enter_index(r, i);
		int k = -1;
		for (int n = 0; search_numerics_names[n] != NULL && json_is_string(e); n++)
			if (strcmp(json_string_value(e), search_numerics_names[n]) == 0)
				k = n;
		if (k < 0)
			return jread_fail_value(r, e, "grad_reduce_bf16, optimizer_moments_bf16, moe_dispatch_fp8 or "
						      "fp8_activation_cache");
		unsigned bit = (unsigned)LEVER_GRAD_REDUCE_BF16 << k;
		if (p->search_levers & bit)
			return jread_fail(r, "\"%s\" is given twice", search_numerics_names[k]);
		if (json_is_object(plan) && json_object_get(plan, stated_key[k]) != NULL)
			return jread_fail(r, "\"%s\" with parallelism.%s stated: give one (the stated value is not "
					     "searched)", search_numerics_names[k], stated_key[k]);
		p->search_levers |= bit;
		jread_leave(r, at);
	}
	jread_leave(r, mark);
	return 0;
}

/* The plan (automatic when absent), the mode and the checkpoints (none
 * when absent). */
static int read_plan_mode_checkpoint(struct jread *r, const json_t *v, struct workload_spec *w)
{
	const json_t *x;
	size_t mark;
	int mode = TRAIN_REPRESENTATIVE;

	if ((x = json_object_get(v, "parallelism")) != NULL) {
		mark = jread_enter_key(r, "parallelism");
		if (read_plan(r, x, &w->train.plan) < 0)
			return -1;
		jread_leave(r, mark);
	} else {
		plan_set_auto(&w->train.plan);
	}
	if (read_search_numerics(r, v, &w->train.plan) < 0)
		return -1;
	if (key_enum(r, v, KS_WORKLOAD, "mode", &mode) < 0)
		return -1;
	w->train.mode = (enum training_mode)mode;
	w->run.checkpoint.enabled = false;
	w->run.checkpoint.given = false;
	if ((x = json_object_get(v, "checkpoint")) != NULL) {
		mark = jread_enter_key(r, "checkpoint");
		if (read_checkpoint(r, x, &w->run.checkpoint) < 0)
			return -1;
		jread_leave(r, mark);
	}
	w->run.data.enabled = false;
	if ((x = json_object_get(v, "data")) != NULL) {
		mark = jread_enter_key(r, "data");
		if (read_data(r, x, &w->run.data) < 0)
			return -1;
		jread_leave(r, mark);
	}
	return 0;
}

/* A finetune's method (full by default) and its length: tokens, or
 * examples x epochs x (finetune.mean_example_tokens, else seq_len) tokens. */
static int read_finetune_run(struct jread *r, const json_t *v, struct workload_spec *w)
{
	const json_t *x;
	struct finetune_spec *ft = &w->train.finetune;

	ft->method = FINETUNE_FULL;
	ft->rank = 16;
	ft->base = FT_BASE_RUN;
	ft->mean_example_tokens = 0;
	text_copy(ft->targets, sizeof ft->targets, "attn+mlp");
	if ((x = json_object_get(v, "finetune")) != NULL) {
		size_t mark = jread_enter_key(r, "finetune");
		if (read_finetune(r, x, ft) < 0)
			return -1;
		jread_leave(r, mark);
	}
	if (key_real(r, v, KS_WORKLOAD, "examples", &w->run.examples) < 0 ||
	    key_real(r, v, KS_WORKLOAD, "epochs", &w->run.epochs) < 0)
		return -1;
	if (w->run.examples > 0 && w->run.tokens > 0)
		return reader_fail_at(r, "examples", "give tokens or examples x epochs, not both");
	if (ft->mean_example_tokens > 0) {
		size_t mark = jread_enter_key(r, "finetune");
		if (ft->mean_example_tokens > w->train.seq_len) {
			char msg[160];
			snprintf(msg, sizeof msg, "%g tokens per example exceed seq_len %d (an example longer than a"
				 " sequence is cut)", ft->mean_example_tokens, w->train.seq_len);
			return reader_fail_at(r, "mean_example_tokens", msg);
		}
		if (!(w->run.examples > 0)) {
			char msg[160];
			snprintf(msg, sizeof msg, "%g tokens per example, but no workload.examples to count them over",
				 ft->mean_example_tokens);
			return reader_fail_at(r, "mean_example_tokens", msg);
		}
		jread_leave(r, mark);
	}
	if (w->run.examples > 0) {
		double per_example = ft->mean_example_tokens > 0 ? ft->mean_example_tokens : w->train.seq_len;
		if (w->run.epochs == 0)
			w->run.epochs = 1;
		w->run.tokens = w->run.examples * w->run.epochs * per_example;
	}
	return 0;
}

int wl_train_read_model(struct jread *r, const json_t *v, const catalog *cat,
			struct workload_spec *w)
{
	size_t mark;
	const json_t *x = reader_enter_required(r, v, "model", &mark);
	if (x == NULL || read_model_field(r, x, cat, &w->model.arch, w->model_defaults, sizeof w->model_defaults) < 0)
		return -1;
	jread_leave(r, mark);
	/* the training engine's constants (every kind with a model copies them:
	 * one record, workload_model.h) */
	const struct engine_spec *e = catalog_engine(cat, "training");
	if (e == NULL)  /* catalog_check keeps every engine's entry */
		return jread_fail(r, "the catalog has no engines entry \"training\"");
	train_constants_of(&w->model.training, e);
	w->has_model = true;
	return 0;
}

int wl_train_read_kernels(struct jread *r, const json_t *v, struct kernel_calibration *k)
{
	const json_t *x = json_object_get(v, "kernels");
	double launch_us = -1e6;

	k->flash_attention = true;
	k->launch_s = -1;  /* the global default */
	if (x == NULL)
		return 0;
	size_t mark = jread_enter_key(r, "kernels");
	if (key_object(r, x, KS_KERNELS) < 0 ||
	    key_real(r, x, KS_KERNELS, "gemm_efficiency", &k->gemm_efficiency) < 0 ||
	    key_real(r, x, KS_KERNELS, "attention_efficiency", &k->attention_efficiency) < 0 ||
	    key_real(r, x, KS_KERNELS, "hbm_efficiency", &k->hbm_efficiency) < 0 ||
	    key_real(r, x, KS_KERNELS, "launch_us", &launch_us) < 0 ||
	    jread_bool(r, x, "flash_attention", false, &k->flash_attention) < 0 ||
	    jread_bool(r, x, "fused_cross_entropy", false, &k->fused_cross_entropy) < 0)
		return -1;
	if (launch_us >= 0)
		k->launch_s = launch_us * 1e-6;
	jread_leave(r, mark);
	return 0;
}

int wl_train_read_failures(struct jread *r, const json_t *v, struct failure_spec *f)
{
	const json_t *x = json_object_get(v, "failures");
	text_copy(f->preset, sizeof f->preset, "none");
	if (x == NULL) {
		f->restart_s = RESTART_S;  /* a spot preemption's restart, when nothing fails */
		return 0;
	}
	size_t mark = jread_enter_key(r, "failures");
	if (read_failures(r, x, f) < 0)
		return -1;
	jread_leave(r, mark);
	return 0;
}

int wl_train_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		  struct workload_spec *w)
{
	(void)file;
	w->train.is_finetune = w->kind == WORKLOAD_FINETUNE;
	if (wl_train_read_model(r, v, cat, w) < 0 ||
	    key_need(r, v, "seq_len") < 0 ||
	    key_int32(r, v, KS_WORKLOAD, "seq_len", &w->train.seq_len) < 0 ||
	    read_batch(r, v, w) < 0 ||
	    read_plan_mode_checkpoint(r, v, w) < 0 ||
	    wl_train_read_kernels(r, v, &w->model.kernels) < 0 ||
	    wl_train_read_failures(r, v, &w->run.failures) < 0)
		return -1;
	return w->kind == WORKLOAD_FINETUNE ? read_finetune_run(r, v, w) : 0;
}
