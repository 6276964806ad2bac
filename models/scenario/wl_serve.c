#include "wl_serve.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/limits.h"
#include "models/scenario/keys.h"
#include "models/scenario/reader.h"
#include "models/scenario/serve_trace.h"
#include "util/text.h"
#include "models/scenario/wl_train.h"
#include "models/serve/arrival.h"
#include "models/serve/serve_engine.h"
#include "models/serve/serve_sim.h"

/* The longest prompt or output a length may give, in tokens (4 Mi). */
#define LEN_TOKENS_MAX KEY_LEN_TOKENS_MAX

static inline unsigned dist_bit(enum length_dist d)
{
	return 1u << d;
}

/*
 * The keys of a length object and the distributions that take each (and
 * those that need it). A key given to a distribution that does not take it
 * is an error, never silently ignored.
 */
static const struct length_key {
	const char *key;
	unsigned takes, needs;   /* dist_bit()s */
} length_keys[] = {
	{ "mean", 1u << LEN_FIXED | 1u << LEN_LOGNORMAL | 1u << LEN_NORMAL | 1u << LEN_UNIFORM,
	  1u << LEN_FIXED | 1u << LEN_LOGNORMAL | 1u << LEN_NORMAL },
	{ "sd", 1u << LEN_LOGNORMAL | 1u << LEN_NORMAL, 1u << LEN_LOGNORMAL | 1u << LEN_NORMAL },
	{ "min", 1u << LEN_LOGNORMAL | 1u << LEN_NORMAL | 1u << LEN_UNIFORM, 1u << LEN_UNIFORM },
	{ "max", 1u << LEN_LOGNORMAL | 1u << LEN_NORMAL | 1u << LEN_UNIFORM, 1u << LEN_UNIFORM },
	{ "bins", 1u << LEN_HISTOGRAM, 1u << LEN_HISTOGRAM },
};

/* An integral token count of v from lo to LEN_TOKENS_MAX, at r's path. */
static int read_tokens_value(struct jread *r, const json_t *v, int64_t lo, double *out)
{
	int64_t n;
	if (jread_value_int(r, v, lo, LEN_TOKENS_MAX, &n) < 0)
		return -1;
	*out = (double)n;
	return 0;
}

/* Optional integral token count obj[key]. */
static int read_tokens(struct jread *r, const json_t *obj, const char *key, double *out)
{
	const json_t *v = json_object_get(obj, key);
	if (v == NULL)
		return 0;
	size_t mark = jread_enter_key(r, key);
	if (read_tokens_value(r, v, 1, out) < 0)
		return -1;
	jread_leave(r, mark);
	return 0;
}

/* `bins`: [[tokens, weight], ...], 1 to SERVE_HIST_MAX of them, weights > 0;
 * the mean, sd, min and max are the histogram's own. */
static int read_bins(struct jread *r, const json_t *obj, struct length_spec *l)
{
	const json_t *bins = json_object_get(obj, "bins");
	size_t mark = jread_enter_key(r, "bins");
	double w_sum = 0, mean = 0, var = 0;

	if (!json_is_array(bins) || json_array_size(bins) == 0 || json_array_size(bins) > SERVE_HIST_MAX) {
		char expected[96];
		snprintf(expected, sizeof expected, "an array of 1 to %d [tokens, weight] pairs", SERVE_HIST_MAX);
		return jread_fail_value(r, bins, expected);
	}
	l->n_bins = (int)json_array_size(bins);
	for (int i = 0; i < l->n_bins; i++) {
		const json_t *b = json_array_get(bins, (size_t)i);
		size_t bm = jread_enter_index(r, (size_t)i);
		if (!json_is_array(b) || json_array_size(b) != 2)
			return jread_fail_value(r, b, "a [tokens, weight] pair");
		size_t em = jread_enter_index(r, 0);
		if (read_tokens_value(r, json_array_get(b, 0), 1, &l->bin_tokens[i]) < 0)
			return -1;
		jread_leave(r, em);
		em = jread_enter_index(r, 1);
		if (jread_value_real(r, json_array_get(b, 1), 0, 1e15, &l->bin_weight[i]) < 0)
			return -1;
		if (l->bin_weight[i] <= 0)
			return jread_fail(r, "a bin's weight must be positive, got 0");
		jread_leave(r, em);
		for (int k = 0; k < i; k++)
			if (l->bin_tokens[k] == l->bin_tokens[i])
				return jread_fail(r, "%g tokens is also the length of bins[%d]", l->bin_tokens[i], k);
		jread_leave(r, bm);
		w_sum += l->bin_weight[i];
	}
	l->min = l->max = l->bin_tokens[0];
	for (int i = 0; i < l->n_bins; i++) {
		mean += l->bin_weight[i] / w_sum * l->bin_tokens[i];
		l->min = fmin(l->min, l->bin_tokens[i]);
		l->max = fmax(l->max, l->bin_tokens[i]);
	}
	for (int i = 0; i < l->n_bins; i++)
		var += l->bin_weight[i] / w_sum * (l->bin_tokens[i] - mean) * (l->bin_tokens[i] - mean);
	l->mean = mean;
	l->sd = sqrt(var);
	jread_leave(r, mark);
	return 0;
}

/*
 * A token length at obj[key]: a whole number of tokens, or an object of a
 * distribution and its parameters: fixed {mean}, lognormal and normal
 * {mean, sd, min, max} (clamped to [min, max], default 1 to 4 Mi tokens),
 * uniform {min, max} (mean, if given, must be the midpoint), histogram
 * {bins}.
 */
static int read_length(struct jread *r, const json_t *obj, const char *key, struct length_spec *l)
{
	const json_t *v = json_object_get(obj, key);
	size_t mark;
	int dist = LEN_LOGNORMAL;

	memset(l, 0, sizeof *l);
	l->dist = LEN_FIXED;
	l->min = 1;
	l->max = LEN_TOKENS_MAX;
	if (v == NULL)
		return reader_fail_at(r, key, "missing required key");
	mark = jread_enter_key(r, key);
	if (json_is_number(v)) {
		if (read_tokens_value(r, v, 1, &l->mean) < 0)
			return -1;
		l->min = l->max = l->mean;
		jread_leave(r, mark);
		return 0;
	}
	if (key_object(r, v, KS_LENGTH) < 0 ||
	    key_enum(r, v, KS_LENGTH, "dist", &dist) < 0)
		return -1;
	l->dist = (enum length_dist)dist;
	/* first a key the distribution does not take, then one it lacks */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof length_keys / sizeof length_keys[0]; i++) {
			const struct length_key *k = &length_keys[i];
			bool given = json_object_get(v, k->key) != NULL;
			char msg[128];
			if (pass == 0 && given && !(k->takes & dist_bit(l->dist))) {
				snprintf(msg, sizeof msg, "not used by dist \"%s\"", length_dist_names[l->dist]);
				return reader_fail_at(r, k->key, msg);
			}
			if (pass == 1 && !given && (k->needs & dist_bit(l->dist))) {
				snprintf(msg, sizeof msg, "missing required key (dist \"%s\")",
					 length_dist_names[l->dist]);
				return reader_fail_at(r, k->key, msg);
			}
		}
	}
	if (l->dist == LEN_HISTOGRAM) {
		if (read_bins(r, v, l) < 0)
			return -1;
		jread_leave(r, mark);
		return 0;
	}
	if (read_tokens(r, v, "min", &l->min) < 0 || read_tokens(r, v, "max", &l->max) < 0 ||
	    key_real(r, v, KS_LENGTH, "sd", &l->sd) < 0)
		return -1;
	if (l->dist == LEN_FIXED) {
		if (read_tokens(r, v, "mean", &l->mean) < 0)
			return -1;
		l->min = l->max = l->mean;
		jread_leave(r, mark);
		return 0;
	}
	if (l->min > l->max)
		return jread_fail(r, "min %g exceeds max %g", l->min, l->max);
	if (l->dist == LEN_UNIFORM) {
		double mid = (l->min + l->max) / 2;
		if (json_object_get(v, "mean") != NULL) {
			if (key_real(r, v, KS_LENGTH, "mean", &l->mean) < 0)
				return -1;
			if (fabs(l->mean - mid) > 0.5)
				return jread_fail(r, "mean %g is not the midpoint %g of min-max %g-%g (a uniform "
						  "length's mean is (min + max) / 2)", l->mean, mid, l->min, l->max);
		}
		l->mean = mid;
		jread_leave(r, mark);
		return 0;
	}
	if (key_real(r, v, KS_LENGTH, "mean", &l->mean) < 0)
		return -1;
	if (l->mean < l->min || l->mean > l->max)
		return jread_fail(r, "mean %g is outside min-max %g-%g", l->mean, l->min, l->max);
	jread_leave(r, mark);
	return 0;
}

/* The values of a serving block that leaves them out (docs/explanation/serving.md). */
static void serving_defaults(struct serving_spec *sv)
{
	memset(sv, 0, sizeof *sv);
	sv->duration_s = 600;
	sv->max_batch_tokens = 8192;
	sv->max_seqs = 256;
	sv->chunked_prefill = true;
	sv->block_tokens = 16;           /* vLLM's; read_serving takes the engine's */
	sv->gpu_memory_fraction = 0.9;   /* vLLM's default --gpu-memory-utilization */
	sv->step_overhead_s = -1;        /* the engine's (the catalog's engines entry) */
	sv->router = ROUTER_ROUND_ROBIN;
	sv->engine = SERVE_ENGINE_VLLM_V1;  /* vLLM's engine since v0.8 */
	sv->replicas = 1;
	sv->tp = 1;
	sv->pp = 1;
	sv->ep = 1;
	sv->cv = 1.0;
}

static inline unsigned process_bit(enum arrival_process p)
{
	return 1u << p;
}

enum {
	RATE_PROCESSES = 1u << ARRIVAL_POISSON | 1u << ARRIVAL_GAMMA,
};

/* The keys of `arrival` beside `process`: which processes take each, and
 * which need it. */
static const struct arrival_key {
	const char *key;
	unsigned takes, needs;   /* process_bit()s */
} arrival_keys[] = {
	{ "rate_per_s", RATE_PROCESSES, RATE_PROCESSES },
	{ "cv", 1u << ARRIVAL_GAMMA, 0 },
	{ "trace", 1u << ARRIVAL_TRACE, 1u << ARRIVAL_TRACE },
	{ "concurrency", 1u << ARRIVAL_CLOSED_LOOP, 1u << ARRIVAL_CLOSED_LOOP },
};

/* The required `arrival` object: a process and what it needs (a rate, a
 * trace file resolved against the scenario file, a number of clients). */
static int read_arrival(struct jread *r, const json_t *v, const char *file, struct serving_spec *sv)
{
	int process = ARRIVAL_POISSON;
	char trace[512] = "";
	size_t mark;
	const json_t *x = reader_enter_required(r, v, "arrival", &mark);

	if (x == NULL)
		return -1;
	if (key_object(r, x, KS_ARRIVAL) < 0 ||
	    key_enum(r, x, KS_ARRIVAL, "process", &process) < 0)
		return -1;
	sv->process = (enum arrival_process)process;
	/* first a key the process does not take, then one it lacks */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof arrival_keys / sizeof arrival_keys[0]; i++) {
			const struct arrival_key *k = &arrival_keys[i];
			bool given = json_object_get(x, k->key) != NULL;
			char msg[128];
			if (pass == 0 && given && !(k->takes & process_bit(sv->process))) {
				snprintf(msg, sizeof msg, "not used by process \"%s\"",
					 arrival_process_names[sv->process]);
				return reader_fail_at(r, k->key, msg);
			}
			if (pass == 1 && !given && (k->needs & process_bit(sv->process))) {
				snprintf(msg, sizeof msg, "missing required key (process \"%s\")",
					 arrival_process_names[sv->process]);
				return reader_fail_at(r, k->key, msg);
			}
		}
	}
	if (key_real(r, x, KS_ARRIVAL, "rate_per_s", &sv->rate_per_s) < 0 ||
	    key_real(r, x, KS_ARRIVAL, "cv", &sv->cv) < 0 ||
	    key_int32(r, x, KS_ARRIVAL, "concurrency", &sv->concurrency) < 0 ||
	    jread_string(r, x, "trace", false, trace, sizeof trace) < 0)
		return -1;
	if (trace[0])
		reader_resolve_relative(file, trace, sv->trace, sizeof sv->trace);
	else if (sv->process == ARRIVAL_TRACE)
		return reader_fail_at(r, "trace", "expected a file name, got \"\"");
	jread_leave(r, mark);
	return 0;
}

/* The optional `scheduler` object: batch limits, chunked prefill and the
 * paged KV cache's block size (vLLM's scheduler and cache settings). */
static int read_scheduler(struct jread *r, const json_t *x, struct serving_spec *sv)
{
	if (key_object(r, x, KS_SCHEDULER) < 0 ||
	    key_int32(r, x, KS_SCHEDULER, "max_batch_tokens", &sv->max_batch_tokens) < 0 ||
	    key_int32(r, x, KS_SCHEDULER, "max_seqs", &sv->max_seqs) < 0 ||
	    jread_bool(r, x, "chunked_prefill", false, &sv->chunked_prefill) < 0 ||
	    key_int32(r, x, KS_SCHEDULER, "block_tokens", &sv->block_tokens) < 0)
		return -1;
	if (json_object_get(x, "capacity_policy") != NULL) {
		int policy = SERVE_CAPACITY_GUARANTEED_NO_EVICT;
		if (key_enum(r, x, KS_SCHEDULER, "capacity_policy", &policy) < 0)
			return -1;
		if (sv->engine != SERVE_ENGINE_TRTLLM) {
			char msg[256];
			text_setf(msg, sizeof msg, "\"%s\" with engine \"%s\": only engine \"trtllm\" has a capacity "
				 "policy (vLLM and SGLang take KV blocks as needed and preempt, as max_utilization does)",
				 serve_capacity_policy_names[policy], serve_engine_names[sv->engine]);
			return reader_fail_at(r, "capacity_policy", msg);
		}
		sv->capacity_policy = (enum serve_capacity_policy)policy;
	}
	return 0;
}

/* The optional `slo` object: p99 time to first token and per output token. */
static int read_slo(struct jread *r, const json_t *x, struct serving_spec *sv)
{
	if (key_object(r, x, KS_SLO) < 0 ||
	    key_real(r, x, KS_SLO, "ttft_p99_ms", &sv->slo_ttft_p99_ms) < 0 ||
	    key_real(r, x, KS_SLO, "tpot_p99_ms", &sv->slo_tpot_p99_ms) < 0)
		return -1;
	return 0;
}

/* The optional `disaggregated` object: prefill and decode replica counts
 * and their tensor-parallel sizes (0 = serving.tp). */
static int read_disaggregated(struct jread *r, const json_t *x, struct serving_spec *sv)
{
	if (key_object(r, x, KS_DISAGGREGATED) < 0 ||
	    key_int32(r, x, KS_DISAGGREGATED, "prefill_replicas", &sv->prefill_replicas) < 0 ||
	    key_int32(r, x, KS_DISAGGREGATED, "decode_replicas", &sv->decode_replicas) < 0 ||
	    key_int32(r, x, KS_DISAGGREGATED, "prefill_tp", &sv->prefill_tp) < 0 ||
	    key_int32(r, x, KS_DISAGGREGATED, "decode_tp", &sv->decode_tp) < 0)
		return -1;
	return 0;
}

/* The optional blocks of a serving object, each read at its key. */
static const struct {
	const char *key;
	int (*read)(struct jread *r, const json_t *x, struct serving_spec *sv);
} serving_blocks[] = {
	{ .key = "scheduler", .read = read_scheduler },
	{ .key = "slo", .read = read_slo },
	{ .key = "disaggregated", .read = read_disaggregated },
};

/*
 * A precision name at obj[key] that must be one of `allowed` (a
 * NULL-terminated list of precision names); *has says it was given.
 */
static int read_precision(struct jread *r, const json_t *obj, const char *key,
			  const char *const allowed[], bool *has, enum precision *out)
{
	int idx = 0;
	if (json_object_get(obj, key) == NULL)
		return 0;
	if (jread_enum(r, obj, key, true, allowed, &idx) < 0)
		return -1;
	for (int p = 0; p < PREC_COUNT; p++) {
		if (strcmp(precision_names[p], allowed[idx]) == 0) {
			*out = (enum precision)p;
			*has = true;
			return 0;
		}
	}
	return reader_fail_at(r, key, "not a precision");  /* a table above names an unknown one */
}

/* What the load needs beyond each key's own range: one way to end the
 * arrivals, a replica count beside disaggregation, an SLO for "auto". */
static int check_serving(struct jread *r, const json_t *v, struct serving_spec *sv)
{
	bool has_requests = json_object_get(v, "requests") != NULL;
	bool has_duration = json_object_get(v, "duration_s") != NULL;

	if (sv->process == ARRIVAL_TRACE && has_requests)
		return reader_fail_at(r, "requests", "not used by process \"trace\" (the trace's rows are the requests)");
	if (sv->process == ARRIVAL_TRACE && has_duration)
		return reader_fail_at(r, "duration_s", "not used by process \"trace\" (the trace's rows are the requests)");
	if (sv->process == ARRIVAL_OFFLINE && !has_requests)
		return reader_fail_at(r, "requests", "missing required key (process \"offline\" sends every request at time 0)");
	if (sv->process == ARRIVAL_OFFLINE && has_duration)
		return reader_fail_at(r, "duration_s", "not used by process \"offline\" (give requests)");
	if (has_requests && has_duration)
		return reader_fail_at(r, "duration_s", "give requests or duration_s, not both");
	if (sv->prefill_replicas > 0 && json_object_get(v, "replicas") != NULL)
		return reader_fail_at(r, "replicas", "not used with disaggregated (give its prefill_replicas and decode_replicas)");
	if (sv->replicas == PLAN_AUTO && sv->slo_ttft_p99_ms <= 0 && sv->slo_tpot_p99_ms <= 0)
		return reader_fail_at(r, "replicas", "\"auto\" needs an slo to meet (slo.ttft_p99_ms or slo.tpot_p99_ms)");
	return 0;
}

/* The `serving` object. */
static int read_serving(struct jread *r, const json_t *v, const char *file, struct serving_spec *sv)
{
	/* weights as a server stores them (fp4: a 4-bit format such as NVFP4 or
	 * MXFP4); KV caches as vLLM's --kv-cache-dtype allows */
	static const char *const weight_precisions[] = { "bf16", "fp8", "fp4", NULL };
	static const char *const kv_precisions[] = { "bf16", "fp16", "fp8", NULL };
	int router = ROUTER_ROUND_ROBIN;
	int engine_id = SERVE_ENGINE_VLLM_V1;
	int64_t requests = 0;

	serving_defaults(sv);
	if (key_object(r, v, KS_SERVING) < 0 ||
	    read_arrival(r, v, file, sv) < 0 ||
	    read_length(r, v, "prompt_tokens", &sv->prompt_tokens) < 0 ||
	    read_length(r, v, "output_tokens", &sv->output_tokens) < 0 ||
	    key_real(r, v, KS_SERVING, "duration_s", &sv->duration_s) < 0 ||
	    key_int(r, v, KS_SERVING, "requests", &requests) < 0 ||
	    key_int32(r, v, KS_SERVING, "max_output_tokens", &sv->max_output_tokens) < 0 ||
	    key_real(r, v, KS_SERVING, "prefix_cache_hit", &sv->prefix_hit_fraction) < 0 ||
	    key_real(r, v, KS_SERVING, "gpu_memory_fraction", &sv->gpu_memory_fraction) < 0 ||
	    read_precision(r, v, "weight_precision", weight_precisions, &sv->has_weight_precision,
			   &sv->weight_precision) < 0 ||
	    read_precision(r, v, "kv_precision", kv_precisions, &sv->has_kv_precision, &sv->kv_precision) < 0 ||
	    key_real(r, v, KS_SERVING, "step_overhead_s", &sv->step_overhead_s) < 0 ||
	    key_enum(r, v, KS_SERVING, "router", &router) < 0 ||
	    key_enum(r, v, KS_SERVING, "engine", &engine_id) < 0 ||
	    key_int_or_auto(r, v, KS_SERVING, "replicas", PLAN_AUTO, &sv->replicas) < 0 ||
	    key_int32(r, v, KS_SERVING, "tp", &sv->tp) < 0 ||
	    key_int32(r, v, KS_SERVING, "pp", &sv->pp) < 0 ||
	    key_int32(r, v, KS_SERVING, "ep", &sv->ep) < 0)
		return -1;
	sv->requests = (long)requests;
	sv->router = (enum serve_router)router;
	sv->engine = (enum serve_engine)engine_id;
	for (size_t i = 0; i < sizeof serving_blocks / sizeof serving_blocks[0]; i++) {
		const json_t *x = json_object_get(v, serving_blocks[i].key);
		if (x == NULL)
			continue;
		size_t mark = jread_enter_key(r, serving_blocks[i].key);
		if (serving_blocks[i].read(r, x, sv) < 0)
			return -1;
		jread_leave(r, mark);
	}
	const json_t *sched = json_object_get(v, "scheduler");
	if (sched == NULL || json_object_get(sched, "block_tokens") == NULL)
		sv->block_tokens = serve_engine_of(sv->engine)->block_tokens;
	return check_serving(r, v, sv);
}

/*
 * The optional `speculative` object of serving object v (serve_spec.h): a
 * method, k, and the acceptance, stated as acceptance_length or
 * acceptance_rate (exactly one: no default); a draft model for method
 * draft (a catalog name); MTP modules in the target for method mtp.
 */
static int read_speculative(struct jread *r, const json_t *v, const catalog *cat, const struct model_spec *target,
			    struct speculative_spec *sp)
{
	const json_t *x = json_object_get(v, "speculative"), *d;
	int method = 0;
	char msg[512];

	if (x == NULL)
		return 0;
	size_t mark = jread_enter_key(r, "speculative");
	sp->acceptance_length = 0;
	sp->acceptance_rate = -1;
	if (key_object(r, x, KS_SPECULATIVE) < 0 || key_enum(r, x, KS_SPECULATIVE, "method", &method) < 0 ||
	    key_int32(r, x, KS_SPECULATIVE, "num_speculative_tokens", &sp->tokens) < 0 ||
	    key_real(r, x, KS_SPECULATIVE, "acceptance_length", &sp->acceptance_length) < 0 ||
	    key_real(r, x, KS_SPECULATIVE, "acceptance_rate", &sp->acceptance_rate) < 0)
		return -1;
	sp->method = (enum spec_method)(method + 1);
	bool has_len = json_object_get(x, "acceptance_length") != NULL;
	if (has_len == (json_object_get(x, "acceptance_rate") != NULL))
		return reader_fail_at(r, "acceptance_length", has_len ? "give acceptance_length or acceptance_rate, not both" :
				      "missing: give acceptance_length (mean tokens per verify step) or acceptance_rate "
				      "(per draft token), as measured; there is no default");
	if (has_len && sp->acceptance_length > sp->tokens + 1) {
		text_setf(msg, sizeof msg, "%g exceeds num_speculative_tokens + 1 = %d (a step gives at most every draft "
			  "token and the target's own)", sp->acceptance_length, sp->tokens + 1);
		return reader_fail_at(r, "acceptance_length", msg);
	}
	d = json_object_get(x, "draft_model");
	if (sp->method == SPEC_DRAFT) {
		if (d == NULL)
			return key_need(r, x, "draft_model");
		size_t m2 = jread_enter_key(r, "draft_model");
		if (!json_is_string(d))
			return jread_fail_value(r, d, "a model name");
		const struct model_spec *base = catalog_model(cat, json_string_value(d));
		if (base == NULL)
			return reader_unknown_name(r, cat, CAT_MODELS, NULL, "model", json_string_value(d));
		if (base->vocab != target->vocab) {
			return jread_fail(r, "\"%s\" has a vocabulary of %d tokens, the served model %d (a draft "
					  "proposes the target's tokens)", json_string_value(d), base->vocab, target->vocab);
		}
		sp->draft = *base;
		jread_leave(r, m2);
	} else if (d != NULL) {
		return reader_fail_at(r, "draft_model", "only for method \"draft\"");
	}
	if (sp->method == SPEC_MTP && target->mtp_layers < 1)
		return reader_fail_at(r, "method", "\"mtp\" drafts with the model's multi-token-prediction modules; "
				      "this model has none (model.mtp_layers 0)");
	jread_leave(r, mark);
	return 0;
}

/* Without kv_precision the KV cache follows workload.precision, which must
 * then be a format servers store it in (vLLM's --kv-cache-dtype auto takes
 * the model's dtype: bf16, fp16 or fp32; fp8 is its fp8 option). At r's
 * serving path. */
static int check_kv_precision(struct jread *r, const struct workload_spec *w)
{
	enum precision p = w->model.precision;
	char msg[256];
	if (w->serving.has_kv_precision || p == PREC_BF16 || p == PREC_FP16 || p == PREC_FP8 || p == PREC_FP32)
		return 0;
	snprintf(msg, sizeof msg, "missing: the KV cache would follow workload.precision \"%s\", which no server "
		 "stores it in; give \"bf16\", \"fp16\" or \"fp8\"", precision_names[p]);
	return reader_fail_at(r, "kv_precision", msg);
}

/* Read the request trace of an ARRIVAL_TRACE spec; a defect fails at
 * serving.arrival.trace with the trace's line. */
static int load_trace(struct jread *r, struct serving_spec *sv)
{
	char msg[ERROR_MSG_MAX / 2];
	struct serve_trace *t = serve_trace_load(sv->trace, msg, sizeof msg);
	if (t == NULL) {
		size_t m1 = jread_enter_key(r, "arrival"), m2 = jread_enter_key(r, "trace");
		jread_fail(r, "%s", msg);
		jread_leave(r, m2);
		jread_leave(r, m1);
		return -1;
	}
	sv->trace_requests = t;
	return 0;
}

/*
 * The work the load asks for, at r's serving path: its requests (given, a
 * rate x duration_s, a trace's rows) at most SERVE_SIM_REQUESTS_MAX, and
 * the memory of as many in flight at once (at most SERVE_SIM_IN_FLIGHT_MAX)
 * within what this process may have. A closed loop for a
 * duration sends as fast as it is served, unknown before it runs: the
 * simulation stops it (SERVE_SIM_REQUESTS_STOP).
 */
static int check_work(struct jread *r, const struct serving_spec *sv)
{
	double n = arrival_of(sv->process)->requests(sv);

	if (sv->requests <= 0 && n > SERVE_SIM_REQUESTS_MAX) {  /* a rate x duration_s (a trace holds fewer) */
		size_t mark = jread_enter_key(r, "arrival"), m2 = jread_enter_key(r, "rate_per_s");
		jread_fail(r, "%g requests/s for duration_s %g s is %.4g requests, more than the %ld one "
			   "simulation serves; lower rate_per_s or duration_s", sv->rate_per_s,
			   sv->duration_s, n, SERVE_SIM_REQUESTS_MAX);
		jread_leave(r, m2);
		jread_leave(r, mark);
		return -1;
	}
	if (!(n > 0))
		return 0;
	/* at worst every request is in flight at once (offline, a backlog) */
	return limits_check_memory(r, sv->requests > 0 ? "requests" : "arrival", "requests",
				   n < SERVE_SIM_IN_FLIGHT_MAX ? n : SERVE_SIM_IN_FLIGHT_MAX, SERVE_SIM_BYTES_PER_REQUEST);
}

int wl_serve_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		  struct workload_spec *w)
{
	size_t mark;
	const json_t *x;

	if (wl_train_read_model(r, v, cat, w) < 0)
		return -1;
	if (json_object_get(v, "tokens") != NULL)
		return reader_fail_at(r, "tokens", "not used by this workload kind");
	if (json_object_get(v, "seq_len") != NULL)
		return reader_fail_at(r, "seq_len", "not used by inference workloads (the lengths are "
				      "serving.prompt_tokens and serving.output_tokens)");
	const json_t *k = json_object_get(v, "kernels");
	if (json_is_object(k) && json_object_get(k, "fused_cross_entropy") != NULL) {
		size_t kmark = jread_enter_key(r, "kernels");
		int rc = reader_fail_at(r, "fused_cross_entropy", "not used by inference workloads (serving computes "
				        "no loss)");
		jread_leave(r, kmark);
		return rc;
	}
	if (wl_train_read_kernels(r, v, &w->model.kernels) < 0 ||
	    wl_train_read_failures(r, v, &w->run.failures) < 0 ||
	    (x = reader_enter_required(r, v, "serving", &mark)) == NULL ||
	    read_serving(r, x, file, &w->serving) < 0)
		return -1;
	const struct engine_spec *e = catalog_engine(cat, serve_engine_names[w->serving.engine]);
	if (e == NULL)  /* catalog_check keeps every engine's entry */
		return reader_fail_at(r, "engine", "the catalog has no engines entry of this name");
	serve_constants_of(&w->serving.constants, e);
	if (check_kv_precision(r, w) < 0 ||
	    read_speculative(r, x, cat, &w->model.arch, &w->serving.spec) < 0 ||
	    (w->serving.process == ARRIVAL_TRACE && load_trace(r, &w->serving) < 0) ||
	    check_work(r, &w->serving) < 0)
		return -1;
	jread_leave(r, mark);
	return 0;
}

void wl_serve_release(struct workload_spec *w)
{
	/* the reader allocated it (load_trace); the models only borrow it */
	serve_trace_free((struct serve_trace *)w->serving.trace_requests);
	w->serving.trace_requests = NULL;
}
