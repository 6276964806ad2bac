/*
 * import vllm: `vllm serve MODEL ARGS` as a serving workload.
 *
 * Names, short forms and choices from vllm-project/vllm
 * vllm/engine/arg_utils.py (EngineArgs.add_cli_args) and
 * vllm/config/cache.py (CacheDType, BlockSize). Only what the arguments
 * give is written (clustersim's serving defaults are vLLM's), and the
 * engine: vllm-v1.
 */
#include "models/import/import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"

enum vl_key { V_TP, V_PP, V_DP, V_SEQS, V_TOKENS, V_BLOCK, V_GPU_MEM, V_KV_DTYPE, V_DTYPE, V_QUANT, V_CHUNKED,
	      V_NO_CHUNKED, V_PREFIX, V_NO_PREFIX, V_EP, V_MAX_LEN, V_SPEC, V_MODEL, V_OTHER, V_OTHER_FLAG };

struct vl_arg {
	const char *name, *short_name;
	enum vl_key key;
	bool flag;
};

static const struct vl_arg vl_args[] = {
	{ "tensor-parallel-size", "tp", V_TP, false }, { "pipeline-parallel-size", "pp", V_PP, false },
	{ "data-parallel-size", "dp", V_DP, false }, { "max-num-seqs", NULL, V_SEQS, false },
	{ "max-num-batched-tokens", NULL, V_TOKENS, false }, { "block-size", NULL, V_BLOCK, false },
	{ "gpu-memory-utilization", NULL, V_GPU_MEM, false }, { "kv-cache-dtype", NULL, V_KV_DTYPE, false },
	{ "dtype", NULL, V_DTYPE, false }, { "quantization", "q", V_QUANT, false },
	{ "enable-chunked-prefill", NULL, V_CHUNKED, true }, { "no-enable-chunked-prefill", NULL, V_NO_CHUNKED, true },
	{ "enable-prefix-caching", NULL, V_PREFIX, true }, { "no-enable-prefix-caching", NULL, V_NO_PREFIX, true },
	{ "enable-expert-parallel", NULL, V_EP, true }, { "max-model-len", NULL, V_MAX_LEN, false },
	{ "speculative-config", NULL, V_SPEC, false }, { "model", NULL, V_MODEL, false },
	{ "host", NULL, V_OTHER, false }, { "port", NULL, V_OTHER, false }, { "served-model-name", NULL, V_OTHER, false },
	{ "api-key", NULL, V_OTHER, false }, { "seed", NULL, V_OTHER, false }, { "tokenizer", NULL, V_OTHER, false },
	{ "download-dir", NULL, V_OTHER, false }, { "uvicorn-log-level", NULL, V_OTHER, false },
	{ "trust-remote-code", NULL, V_OTHER_FLAG, true }, { "disable-log-requests", NULL, V_OTHER_FLAG, true },
	{ "disable-log-stats", NULL, V_OTHER_FLAG, true }, { "enforce-eager", NULL, V_OTHER_FLAG, true },
};

enum { N_VL = sizeof vl_args / sizeof vl_args[0] };

struct vl {
	const struct import_args *a;
	struct import_notes *notes;
	struct cs_error *err;
	json_t *serving, *scheduler, *workload;
	int tp;
	bool ep;
};

static const struct vl_arg *find_vl(const char *s, size_t len, bool dash_short)
{
	for (size_t i = 0; i < N_VL; i++) {
		const char *n = dash_short ? vl_args[i].short_name : vl_args[i].name;
		if (n != NULL && strlen(n) == len && strncmp(n, s, len) == 0)
			return &vl_args[i];
	}
	return NULL;
}

static int parse_count(struct vl *c, size_t i, const char *opt, const char *v, long lo, long hi, long *out)
{
	char where[300], *end;
	long n;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno == 0 && end != v && *end == '\0' && n >= lo && n <= hi) {
		*out = n;
		return 0;
	}
	import_args_where(c->a, i, where, sizeof where);
	return error_set(c->err, "vllm %s: --%s: expected a whole number from %ld to %ld, got '%.60s'", where, opt, lo,
			 hi, v);
}

/* A name from vLLM's choices to clustersim's (pairs "vllm=ours"), or the
 * error naming the choices clustersim models. */
static int map_name(struct vl *c, size_t i, const char *opt, const char *v, const char *pairs, char *out, size_t size)
{
	char where[300], key[80];
	const char *p;
	text_setf(key, sizeof key, " %.60s=", v);
	p = strstr(pairs, key);
	if (p != NULL) {
		const char *s = p + strlen(key);
		size_t n = strcspn(s, " ");
		if (n >= size)
			n = size - 1;
		memcpy(out, s, n);  /* a name of our own table: short */
		out[n] = '\0';
		return 0;
	}
	import_args_where(c->a, i, where, sizeof where);
	return error_set(c->err, "vllm %s: --%s: '%.60s' is not modelled (modelled:%s)", where, opt, v, pairs);
}

/* Apply one recognised argument with value v (NULL for a flag). */
static int apply(struct vl *c, const struct vl_arg *arg, size_t i, const char *v)
{
	char name[32];
	long n;
	double x;
	char *end;
	switch (arg->key) {
	case V_TP:
	case V_PP:
	case V_DP:
		if (parse_count(c, i, arg->name, v, 1, 1024, &n) < 0)
			return -1;
		json_object_set_new(c->serving, arg->key == V_TP ? "tp" : arg->key == V_PP ? "pp" : "replicas",
				    json_integer(n));
		if (arg->key == V_TP)
			c->tp = (int)n;
		return 0;
	case V_SEQS:
	case V_TOKENS:
	case V_BLOCK:
		if (parse_count(c, i, arg->name, v, 1, arg->key == V_BLOCK ? 1024 : 1 << 24, &n) < 0)
			return -1;
		json_object_set_new(c->scheduler, arg->key == V_SEQS ? "max_seqs" : arg->key == V_TOKENS ?
				    "max_batch_tokens" : "block_tokens", json_integer(n));
		return 0;
	case V_GPU_MEM:
		x = strtod(v, &end);
		if (end == v || *end != '\0' || !(x >= 0.01 && x <= 1)) {
			char where[300];
			import_args_where(c->a, i, where, sizeof where);
			return error_set(c->err, "vllm %s: --%s: expected a fraction from 0.01 to 1, got '%.60s'", where,
					 arg->name, v);
		}
		json_object_set_new(c->serving, "gpu_memory_fraction", json_real(x));
		return 0;
	case V_KV_DTYPE:
		if (strcmp(v, "auto") == 0)
			return 0;  /* the model's dtype: kv_precision follows workload.precision */
		if (map_name(c, i, arg->name, v, " fp8=fp8 fp8_e4m3=fp8 fp8_e5m2=fp8 bfloat16=bf16 ", name,
			     sizeof name) < 0)
			return -1;
		json_object_set_new(c->serving, "kv_precision", json_string(name));
		return 0;
	case V_DTYPE:
		if (strcmp(v, "auto") == 0) {
			import_note(c->notes, "not written: --dtype auto (the model's torch_dtype): set workload.precision");
			return 0;
		}
		if (map_name(c, i, arg->name, v, " bfloat16=bf16 float16=fp16 half=fp16 float32=fp32 float=fp32 ", name,
			     sizeof name) < 0)
			return -1;
		json_object_set_new(c->workload, "precision", json_string(name));
		return 0;
	case V_QUANT:
		if (map_name(c, i, arg->name, v, " fp8=fp8 modelopt=fp8 modelopt_fp4=fp4 ", name, sizeof name) < 0)
			return -1;
		json_object_set_new(c->serving, "weight_precision", json_string(name));
		return 0;
	case V_CHUNKED:
	case V_NO_CHUNKED:
		json_object_set_new(c->scheduler, "chunked_prefill", json_boolean(arg->key == V_CHUNKED));
		return 0;
	case V_PREFIX:
		import_note(c->notes, "not written: --enable-prefix-caching: the hit rate is the workload's: set "
				      "workload.serving.prefix_cache_hit");
		return 0;
	case V_NO_PREFIX:
		json_object_set_new(c->serving, "prefix_cache_hit", json_integer(0));
		return 0;
	case V_EP:
		c->ep = true;
		return 0;
	case V_MAX_LEN:
		import_note(c->notes, "not modelled: --max-model-len %s (prompts are as the workload draws them)", v);
		return 0;
	case V_MODEL:
		import_note(c->notes, "not written: model '%s': set workload.model (clustersim import hf its "
				      "config.json makes a catalog entry)", v);
		return 0;
	case V_SPEC:
		import_note(c->notes, "not written: --speculative-config %s: clustersim needs the acceptance you "
				      "measured: add workload.serving.speculative (docs/howto/speculative-decoding.md)", v);
		return 0;
	default:
		import_note(c->notes, "not modelled: --%s%s%s (no effect on the costed step)", arg->name, v ? " " : "",
			    v ? v : "");
		return 0;
	}
}

static bool is_value(const struct import_args *a, size_t j)
{
	return j < a->n && a->argv[j][0] != '-';
}

static int parse(struct vl *c)
{
	const struct import_args *a = c->a;
	size_t i = 0;
	char where[300];
	bool model_seen = false;

	/* the command itself: `vllm serve`, or the OpenAI server module */
	if (a->n >= 2 && strcmp(a->argv[0], "vllm") == 0 && strcmp(a->argv[1], "serve") == 0)
		i = 2;
	else if (a->n >= 3 && (strcmp(a->argv[0], "python") == 0 || strcmp(a->argv[0], "python3") == 0) &&
		 strcmp(a->argv[1], "-m") == 0 && strcmp(a->argv[2], "vllm.entrypoints.openai.api_server") == 0)
		i = 3;
	for (; i < a->n; i++) {
		const char *s = a->argv[i], *name, *eq, *v = NULL;
		bool dash_short = s[0] == '-' && s[1] != '-';
		import_args_where(a, i, where, sizeof where);
		if (s[0] != '-' || s[1] == '\0') {
			if (model_seen)
				return error_set(c->err, "vllm %s: '%.60s': a second model (vllm serve takes one)", where, s);
			model_seen = true;
			import_note(c->notes, "not written: model '%s': set workload.model (clustersim import hf its "
					      "config.json makes a catalog entry)", s);
			continue;
		}
		name = s + (dash_short ? 1 : 2);
		eq = strchr(name, '=');
		size_t len = eq != NULL ? (size_t)(eq - name) : strlen(name);
		const struct vl_arg *arg = find_vl(name, len, dash_short);
		if (arg == NULL) {
			if (eq == NULL && is_value(a, i + 1))
				i++;
			import_note(c->notes, "unknown argument, not modelled: %s (%s)", s, where);
			continue;
		}
		if (!arg->flag) {
			if (eq != NULL)
				v = eq + 1;
			else if (is_value(a, i + 1))
				v = a->argv[++i];
			else
				return error_set(c->err, "vllm %s: %s needs a value%s", where, s,
						 i + 1 < a->n ? ", got the next option" : ", got the end of the arguments");
		} else if (eq != NULL) {
			return error_set(c->err, "vllm %s: --%.*s is a flag: it takes no value, got '%.60s'", where, (int)len,
					 name, eq + 1);
		}
		if (apply(c, arg, i, v) < 0)
			return -1;
	}
	return 0;
}

json_t *import_vllm(const struct import_args *a, struct import_notes *notes, struct cs_error *err)
{
	struct vl c = { .a = a, .notes = notes, .err = err, .tp = 1 };
	json_t *out = NULL;

	c.workload = json_object();
	c.serving = json_object();
	c.scheduler = json_object();
	json_object_set_new(c.workload, "kind", json_string("inference"));
	json_object_set_new(c.serving, "engine", json_string("vllm-v1"));
	if (parse(&c) == 0) {
		if (c.ep)  /* vLLM: the experts spread over the replica's tp ranks */
			json_object_set_new(c.serving, "ep", json_integer(c.tp));
		if (json_object_size(c.scheduler) > 0)
			json_object_set(c.serving, "scheduler", c.scheduler);
		json_object_set(c.workload, "serving", c.serving);
		out = json_pack("{sO}", "workload", c.workload);
	}
	json_decref(c.scheduler);
	json_decref(c.serving);
	json_decref(c.workload);
	return out;
}
