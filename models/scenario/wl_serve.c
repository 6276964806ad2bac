#include "wl_serve.h"

#include <stdbool.h>
#include <string.h>

#include "models/scenario/reader.h"
#include "models/scenario/wl_train.h"

/* A token length: a number, or an object of a distribution and its bounds. */
static int read_length(struct jread *r, const json_t *obj, const char *key, struct length_spec *l)
{
	static const char *const keys[] = { "dist", "mean", "sd", "min", "max", NULL };
	json_t *v = json_object_get(obj, key);
	size_t mark;
	int dist = LEN_LOGNORMAL;

	l->dist = LEN_FIXED;
	l->sd = 0;
	l->min = 1;
	l->max = 1 << 20;
	if (v == NULL)
		return reader_fail_at(r, key, "missing required key");
	mark = jread_enter_key(r, key);
	if (json_is_number(v)) {
		if (jread_value_real(r, v, 1, 1 << 22, &l->mean) < 0)
			return -1;
		jread_leave(r, mark);
		return 0;
	}
	if (jread_object(r, v, keys) < 0 ||
	    jread_enum(r, v, "dist", false, length_dist_names, &dist) < 0 ||
	    jread_real(r, v, "mean", true, 1, 1 << 22, &l->mean) < 0 ||
	    jread_real(r, v, "sd", false, 0, 1 << 22, &l->sd) < 0 ||
	    jread_real(r, v, "min", false, 1, 1 << 22, &l->min) < 0 ||
	    jread_real(r, v, "max", false, 1, 1 << 22, &l->max) < 0)
		return -1;
	l->dist = (enum length_dist)dist;
	if (l->min > l->max)
		return jread_fail(r, "min %g exceeds max %g", l->min, l->max);
	if (l->mean < l->min || l->mean > l->max)
		return jread_fail(r, "mean %g is outside min-max %g-%g", l->mean, l->min, l->max);
	jread_leave(r, mark);
	return 0;
}

/* The values of a serving block that leaves them out. */
static void serving_defaults(struct serving_spec *sv)
{
	memset(sv, 0, sizeof *sv);
	sv->duration_s = 600;
	sv->max_batch_tokens = 8192;
	sv->max_seqs = 256;
	sv->chunked_prefill = true;
	sv->replicas = 1;
	sv->tp = 1;
	sv->pp = 1;
	sv->cv = 1.0;
}

/* The required `arrival` object: a process and its rate, or a trace file
 * (resolved against the scenario file). */
static int read_arrival(struct jread *r, const json_t *v, const char *file, struct serving_spec *sv)
{
	static const char *const keys[] = { "process", "rate_per_s", "cv", "trace", NULL };
	int process = ARRIVAL_POISSON;
	char trace[512] = "";
	size_t mark;
	const json_t *x = reader_enter_required(r, v, "arrival", &mark);

	if (x == NULL)
		return -1;
	if (jread_object(r, x, keys) < 0 ||
	    jread_enum(r, x, "process", false, arrival_process_names, &process) < 0 ||
	    jread_real(r, x, "rate_per_s", process != ARRIVAL_TRACE, 1e-6, 1e7, &sv->rate_per_s) < 0 ||
	    jread_real(r, x, "cv", false, 0.01, 100, &sv->cv) < 0 ||
	    jread_string(r, x, "trace", process == ARRIVAL_TRACE, trace, sizeof trace) < 0)
		return -1;
	sv->process = (enum arrival_process)process;
	if (trace[0])
		reader_resolve_relative(file, trace, sv->trace, sizeof sv->trace);
	jread_leave(r, mark);
	return 0;
}

/* The optional `scheduler` object: batch limits and chunked prefill. */
static int read_scheduler(struct jread *r, const json_t *x, struct serving_spec *sv)
{
	static const char *const keys[] = { "max_batch_tokens", "max_seqs", "chunked_prefill", NULL };
	if (jread_object(r, x, keys) < 0 ||
	    jread_int32(r, x, "max_batch_tokens", false, 1, 1 << 24, &sv->max_batch_tokens) < 0 ||
	    jread_int32(r, x, "max_seqs", false, 1, 1 << 20, &sv->max_seqs) < 0 ||
	    jread_bool(r, x, "chunked_prefill", false, &sv->chunked_prefill) < 0)
		return -1;
	return 0;
}

/* The optional `slo` object: p99 time to first token and per output token. */
static int read_slo(struct jread *r, const json_t *x, struct serving_spec *sv)
{
	static const char *const keys[] = { "ttft_p99_ms", "tpot_p99_ms", NULL };
	if (jread_object(r, x, keys) < 0 ||
	    jread_real(r, x, "ttft_p99_ms", false, 0.001, 1e9, &sv->slo_ttft_p99_ms) < 0 ||
	    jread_real(r, x, "tpot_p99_ms", false, 0.001, 1e9, &sv->slo_tpot_p99_ms) < 0)
		return -1;
	return 0;
}

/* The optional `disaggregated` object: prefill and decode replica counts. */
static int read_disaggregated(struct jread *r, const json_t *x, struct serving_spec *sv)
{
	static const char *const keys[] = { "prefill_replicas", "decode_replicas", NULL };
	if (jread_object(r, x, keys) < 0 ||
	    jread_int32(r, x, "prefill_replicas", true, 1, 100000, &sv->prefill_replicas) < 0 ||
	    jread_int32(r, x, "decode_replicas", true, 1, 100000, &sv->decode_replicas) < 0)
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

/* The `serving` object. */
static int read_serving(struct jread *r, const json_t *v, const char *file, struct serving_spec *sv)
{
	static const char *const keys[] = {
		"arrival", "prompt_tokens", "output_tokens", "duration_s", "scheduler", "slo",
		"replicas", "tp", "pp", "disaggregated", NULL
	};

	serving_defaults(sv);
	if (jread_object(r, v, keys) < 0 ||
	    read_arrival(r, v, file, sv) < 0 ||
	    read_length(r, v, "prompt_tokens", &sv->prompt_tokens) < 0 ||
	    read_length(r, v, "output_tokens", &sv->output_tokens) < 0 ||
	    jread_real(r, v, "duration_s", false, 1, 1e7, &sv->duration_s) < 0 ||
	    jread_int_or_auto(r, v, "replicas", 1, 100000, PLAN_AUTO, &sv->replicas) < 0 ||
	    jread_int32(r, v, "tp", false, 1, 1024, &sv->tp) < 0 ||
	    jread_int32(r, v, "pp", false, 1, 1024, &sv->pp) < 0)
		return -1;
	for (size_t i = 0; i < sizeof serving_blocks / sizeof serving_blocks[0]; i++) {
		const json_t *x = json_object_get(v, serving_blocks[i].key);
		if (x == NULL)
			continue;
		size_t mark = jread_enter_key(r, serving_blocks[i].key);
		if (serving_blocks[i].read(r, x, sv) < 0)
			return -1;
		jread_leave(r, mark);
	}
	return 0;
}

int wl_serve_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		  struct workload_spec *w)
{
	size_t mark;
	const json_t *x;

	if (wl_train_read_model(r, v, cat, w) < 0 ||
	    jread_int32(r, v, "seq_len", false, 1, 1 << 24, &w->train.seq_len) < 0)
		return -1;
	if (json_object_get(v, "tokens") != NULL)
		return reader_fail_at(r, "tokens", "not used by this workload kind");
	if (wl_train_read_kernels(r, v, &w->train.kernels) < 0 ||
	    wl_train_read_failures(r, v, &w->run.failures) < 0 ||
	    (x = reader_enter_required(r, v, "serving", &mark)) == NULL ||
	    read_serving(r, x, file, &w->serving) < 0)
		return -1;
	jread_leave(r, mark);
	return 0;
}
