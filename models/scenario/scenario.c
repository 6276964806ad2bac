#include "scenario.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "models/hw/placement.h"
#include "models/scenario/candidate.h"
#include "models/scenario/override.h"
#include "models/scenario/reader.h"
#include "util/jread.h"
#include "util/text.h"
#include "util/xalloc.h"


json_t *scenario_read_json(const char *what, const char *file, struct cs_error *err)
{
	return jread_load(what, file, err);
}

/* ---- pieces of a scenario ----------------------------------------------- */

static void plan_set_auto(struct parallel_plan *p)
{
	p->order[0] = '\0';
	p->tp_comm_overlap = false;
	p->tp = p->pp = p->vpp = p->dp = p->cp = p->ep = p->zero = p->micro_batch = PLAN_AUTO;
	p->schedule = p->recompute = p->sequence_parallel = PLAN_AUTO;
}

static int read_plan(struct jread *r, const json_t *v, struct parallel_plan *p)
{
	static const char *const keys[] = {
		"tp", "pp", "vpp", "dp", "cp", "ep", "zero", "micro_batch", "schedule", "recompute",
		"sequence_parallel", "order", "tp_comm_overlap", NULL
	};
	json_t *x;

	plan_set_auto(p);
	if (json_is_string(v) && strcmp(json_string_value(v), "auto") == 0)
		return 0;
	if (!json_is_object(v))
		return jread_fail_value(r, v, "an object or \"auto\"");
	if (jread_object(r, v, keys) < 0 ||
	    jread_int_or_auto(r, v, "tp", 1, 1024, PLAN_AUTO, &p->tp) < 0 ||
	    jread_int_or_auto(r, v, "pp", 1, 1024, PLAN_AUTO, &p->pp) < 0 ||
	    jread_int_or_auto(r, v, "vpp", 1, 128, PLAN_AUTO, &p->vpp) < 0 ||
	    jread_int_or_auto(r, v, "dp", 1, 1 << 20, PLAN_AUTO, &p->dp) < 0 ||
	    jread_int_or_auto(r, v, "cp", 1, 1024, PLAN_AUTO, &p->cp) < 0 ||
	    jread_int_or_auto(r, v, "ep", 1, 1024, PLAN_AUTO, &p->ep) < 0 ||
	    jread_int_or_auto(r, v, "zero", 0, 3, PLAN_AUTO, &p->zero) < 0 ||
	    jread_int_or_auto(r, v, "micro_batch", 1, 4096, PLAN_AUTO, &p->micro_batch) < 0)
		return -1;
	static const char *const sched_or_auto[] = { "gpipe", "1f1b", "interleaved", "zb-h1", "auto", NULL };
	static const char *const rec_or_auto[] = { "none", "selective", "full", "auto", NULL };
	int sched = 4, rec = 3;
	if (jread_enum(r, v, "schedule", false, sched_or_auto, &sched) < 0 ||
	    jread_enum(r, v, "recompute", false, rec_or_auto, &rec) < 0)
		return -1;
	p->schedule = sched == 4 ? PLAN_AUTO : sched;
	p->recompute = rec == 3 ? PLAN_AUTO : rec;
	if (jread_string(r, v, "order", false, p->order, sizeof p->order) < 0 ||
	    jread_bool(r, v, "tp_comm_overlap", false, &p->tp_comm_overlap) < 0)
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
	x = json_object_get(v, "sequence_parallel");
	if (x != NULL) {
		if (json_is_boolean(x)) {
			p->sequence_parallel = json_is_true(x);
		} else if (!(json_is_string(x) && strcmp(json_string_value(x), "auto") == 0)) {
			size_t mark = jread_enter_key(r, "sequence_parallel");
			jread_fail_value(r, x, "true, false or \"auto\"");
			jread_leave(r, mark);
			return -1;
		}
	}
	return 0;
}

static int read_checkpoint(struct jread *r, const json_t *v, struct checkpoint_spec *c)
{
	static const char *const keys[] = { "interval_s", "tier", "async", NULL };
	c->enabled = true;
	c->interval_s = -1;
	c->async = false;
	text_copy(c->tier, sizeof c->tier, "pfs");
	if (json_is_string(v) && strcmp(json_string_value(v), "none") == 0) {
		c->enabled = false;
		return 0;
	}
	if (jread_object(r, v, keys) < 0 ||
	    jread_real_or_auto(r, v, "interval_s", 1, 1e8, -1, &c->interval_s) < 0 ||
	    jread_string(r, v, "tier", false, c->tier, sizeof c->tier) < 0 ||
	    jread_bool(r, v, "async", false, &c->async) < 0)
		return -1;
	return 0;
}

static int read_failures(struct jread *r, const json_t *v, struct failure_spec *f)
{
	static const char *const keys[] = {
		"gpu_mtbf_h", "node_mtbf_h", "distribution", "shape", "restart_s", "spare_nodes", NULL
	};
	int dist = FAIL_EXPONENTIAL;

	memset(f, 0, sizeof *f);
	f->shape = 1.0;
	f->restart_s = 600;
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
	if (jread_object(r, v, keys) < 0 ||
	    jread_real(r, v, "gpu_mtbf_h", false, 0.001, 1e9, &f->gpu_mtbf_h) < 0 ||
	    jread_real(r, v, "node_mtbf_h", false, 0.001, 1e9, &f->node_mtbf_h) < 0 ||
	    jread_enum(r, v, "distribution", false, failure_dist_names, &dist) < 0 ||
	    jread_real(r, v, "shape", false, 0.05, 20, &f->shape) < 0 ||
	    jread_real(r, v, "restart_s", false, 0, 1e7, &f->restart_s) < 0 ||
	    jread_int32(r, v, "spare_nodes", false, 0, 100000, &f->spare_nodes) < 0)
		return -1;
	f->distribution = (enum failure_dist)dist;
	f->enabled = f->gpu_mtbf_h > 0 || f->node_mtbf_h > 0;
	if (!f->enabled)
		return jread_fail(r, "give gpu_mtbf_h or node_mtbf_h (or write \"none\")");
	return 0;
}

static int read_finetune(struct jread *r, const json_t *v, struct finetune_spec *ft)
{
	static const char *const keys[] = { "method", "rank", "targets", NULL };
	static const char *const targets[] = { "attn", "mlp", "attn+mlp", NULL };
	int method = FINETUNE_LORA, t = 2;
	ft->rank = 16;
	if (jread_object(r, v, keys) < 0 ||
	    jread_enum(r, v, "method", false, finetune_method_names, &method) < 0 ||
	    jread_int32(r, v, "rank", false, 1, 65536, &ft->rank) < 0 ||
	    jread_enum(r, v, "targets", false, targets, &t) < 0)
		return -1;
	ft->method = (enum finetune_method)method;
	text_copy(ft->targets, sizeof ft->targets, targets[t]);
	return 0;
}

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

static int read_serving(struct jread *r, const json_t *v, const char *file, struct serving_spec *sv)
{
	static const char *const keys[] = {
		"arrival", "prompt_tokens", "output_tokens", "duration_s", "scheduler", "slo",
		"replicas", "tp", "pp", "disaggregated", NULL
	};
	static const char *const arrival_keys[] = { "process", "rate_per_s", "cv", "trace", NULL };
	static const char *const sched_keys[] = { "max_batch_tokens", "max_seqs", "chunked_prefill", NULL };
	static const char *const slo_keys[] = { "ttft_p99_ms", "tpot_p99_ms", NULL };
	static const char *const dis_keys[] = { "prefill_replicas", "decode_replicas", NULL };
	json_t *x;
	size_t mark;
	int process = ARRIVAL_POISSON;

	memset(sv, 0, sizeof *sv);
	sv->duration_s = 600;
	sv->max_batch_tokens = 8192;
	sv->max_seqs = 256;
	sv->chunked_prefill = true;
	sv->replicas = 1;
	sv->tp = 1;
	sv->pp = 1;
	sv->cv = 1.0;
	if (jread_object(r, v, keys) < 0)
		return -1;
	if ((x = json_object_get(v, "arrival")) == NULL)
		return reader_fail_at(r, "arrival", "missing required key");
	mark = jread_enter_key(r, "arrival");
	char trace[512] = "";
	if (jread_object(r, x, arrival_keys) < 0 ||
	    jread_enum(r, x, "process", false, arrival_process_names, &process) < 0 ||
	    jread_real(r, x, "rate_per_s", process != ARRIVAL_TRACE, 1e-6, 1e7, &sv->rate_per_s) < 0 ||
	    jread_real(r, x, "cv", false, 0.01, 100, &sv->cv) < 0 ||
	    jread_string(r, x, "trace", process == ARRIVAL_TRACE, trace, sizeof trace) < 0)
		return -1;
	sv->process = (enum arrival_process)process;
	if (trace[0])
		reader_resolve_relative(file, trace, sv->trace, sizeof sv->trace);
	jread_leave(r, mark);
	if (read_length(r, v, "prompt_tokens", &sv->prompt_tokens) < 0 ||
	    read_length(r, v, "output_tokens", &sv->output_tokens) < 0 ||
	    jread_real(r, v, "duration_s", false, 1, 1e7, &sv->duration_s) < 0 ||
	    jread_int_or_auto(r, v, "replicas", 1, 100000, PLAN_AUTO, &sv->replicas) < 0 ||
	    jread_int32(r, v, "tp", false, 1, 1024, &sv->tp) < 0 ||
	    jread_int32(r, v, "pp", false, 1, 1024, &sv->pp) < 0)
		return -1;
	if ((x = json_object_get(v, "scheduler")) != NULL) {
		mark = jread_enter_key(r, "scheduler");
		if (jread_object(r, x, sched_keys) < 0 ||
		    jread_int32(r, x, "max_batch_tokens", false, 1, 1 << 24, &sv->max_batch_tokens) < 0 ||
		    jread_int32(r, x, "max_seqs", false, 1, 1 << 20, &sv->max_seqs) < 0 ||
		    jread_bool(r, x, "chunked_prefill", false, &sv->chunked_prefill) < 0)
			return -1;
		jread_leave(r, mark);
	}
	if ((x = json_object_get(v, "slo")) != NULL) {
		mark = jread_enter_key(r, "slo");
		if (jread_object(r, x, slo_keys) < 0 ||
		    jread_real(r, x, "ttft_p99_ms", false, 0.001, 1e9, &sv->slo_ttft_p99_ms) < 0 ||
		    jread_real(r, x, "tpot_p99_ms", false, 0.001, 1e9, &sv->slo_tpot_p99_ms) < 0)
			return -1;
		jread_leave(r, mark);
	}
	if ((x = json_object_get(v, "disaggregated")) != NULL) {
		mark = jread_enter_key(r, "disaggregated");
		if (jread_object(r, x, dis_keys) < 0 ||
		    jread_int32(r, x, "prefill_replicas", true, 1, 100000, &sv->prefill_replicas) < 0 ||
		    jread_int32(r, x, "decode_replicas", true, 1, 100000, &sv->decode_replicas) < 0)
			return -1;
		jread_leave(r, mark);
	}
	return 0;
}

static int read_collective(struct jread *r, const json_t *v, struct collective_spec *c)
{
	static const char *const keys[] = { "op", "bytes", "algorithm", "fidelity", NULL };
	static const char *const range_keys[] = { "min", "max", "factor", NULL };
	int op = COLL_ALL_REDUCE, algo = ALGO_AUTO, fid = FIDELITY_ANALYTIC;
	json_t *b;
	size_t mark;
	enum { MAX_SIZES = 64 };
	const double max_bytes = 1099511627776.0; /* 1 TiB */

	if (jread_object(r, v, keys) < 0 ||
	    jread_enum(r, v, "op", true, collective_op_names, &op) < 0 ||
	    jread_enum(r, v, "algorithm", false, collective_algo_names, &algo) < 0 ||
	    jread_enum(r, v, "fidelity", false, collective_fidelity_names, &fid) < 0)
		return -1;
	c->op = (enum collective_op)op;
	c->algorithm = (enum collective_algo)algo;
	c->fidelity = (enum collective_fidelity)fid;
	if ((b = json_object_get(v, "bytes")) == NULL)
		return reader_fail_at(r, "bytes", "missing required key");
	mark = jread_enter_key(r, "bytes");
	c->bytes = xcalloc(MAX_SIZES, sizeof *c->bytes);
	c->n_bytes = 0;
	if (json_is_number(b)) {
		if (jread_value_real(r, b, 1, max_bytes, &c->bytes[0]) < 0)
			return -1;
		c->n_bytes = 1;
	} else if (json_is_array(b)) {
		size_t i;
		json_t *e;
		if (json_array_size(b) == 0 || json_array_size(b) > MAX_SIZES)
			return jread_fail_value(r, b, "an array of 1 to 64 sizes");
		json_array_foreach(b, i, e) {
			size_t m2 = jread_enter_index(r, i);
			if (jread_value_real(r, e, 1, max_bytes, &c->bytes[i]) < 0)
				return -1;
			jread_leave(r, m2);
			c->n_bytes++;
		}
	} else if (json_is_object(b)) {
		double lo, hi, factor = 2;
		if (jread_object(r, b, range_keys) < 0 ||
		    jread_real(r, b, "min", true, 1, max_bytes, &lo) < 0 ||
		    jread_real(r, b, "max", true, 1, max_bytes, &hi) < 0 ||
		    jread_real(r, b, "factor", false, 1.01, 1024, &factor) < 0)
			return -1;
		if (lo > hi)
			return jread_fail(r, "min %g exceeds max %g", lo, hi);
		for (double x = lo; x <= hi * (1 + 1e-9); x *= factor) {
			if (c->n_bytes == MAX_SIZES)
				return jread_fail(r, "the range gives more than %d sizes", MAX_SIZES);
			c->bytes[c->n_bytes++] = x;
		}
	} else {
		return jread_fail_value(r, b, "a size, an array of sizes or {\"min\", \"max\", \"factor\"}");
	}
	for (size_t i = 0; i < c->n_bytes; i++)
		c->bytes[i] = (double)(int64_t)c->bytes[i]; /* whole bytes */
	jread_leave(r, mark);
	return 0;
}

static int read_model_field(struct jread *r, const json_t *v, const catalog *cat,
			    struct model_spec *m)
{
	const struct model_spec *base = NULL;
	if (json_is_string(v)) {
		base = catalog_model(cat, json_string_value(v));
		if (base == NULL) {
			char hint[256], q[96];
			catalog_suggest(cat, CAT_MODELS, json_string_value(v), hint, sizeof hint);
			text_quote(json_string_value(v), q, sizeof q);
			return jread_fail(r, "unknown model %s%s", q, hint);
		}
		*m = *base;
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
		if (base == NULL) {
			char hint[256], q[96];
			catalog_suggest(cat, CAT_MODELS, json_string_value(p), hint, sizeof hint);
			text_quote(json_string_value(p), q, sizeof q);
			return jread_fail(r, "unknown model %s%s", q, hint);
		}
		jread_leave(r, mark);
	}
	memset(m, 0, sizeof *m);
	if (catalog_read_model(r, v, base, m) < 0)
		return -1;
	if (base == NULL && m->id.name[0] == '\0')
		text_copy(m->id.name, sizeof m->id.name, "custom");
	else if (base != NULL && json_object_size(v) > 1 && json_object_get(v, "name") == NULL)
		snprintf(m->id.name, sizeof m->id.name, "%.50s (modified)", base->id.name);
	return 0;
}

static int read_workload(struct jread *r, const json_t *v, const char *file, catalog *cat,
			 struct workload_spec *w)
{
	static const char *const keys[] = {
		"kind", "model", "precision", "seq_len", "global_batch_tokens", "tokens", "examples",
		"epochs", "parallelism", "checkpoint", "failures", "finetune", "serving", "collective",
		"kernels", "mode", NULL
	};
	int kind = 0, prec = PREC_BF16;
	json_t *x;
	size_t mark;

	if (jread_object(r, v, keys) < 0 ||
	    jread_enum(r, v, "kind", true, workload_kind_names, &kind) < 0 ||
	    jread_enum(r, v, "precision", false, precision_names, &prec) < 0)
		return -1;
	w->kind = (enum workload_kind)kind;
	w->train.is_finetune = w->kind == WORKLOAD_FINETUNE;
	w->train.precision = (enum precision)prec;
	bool trains = w->kind == WORKLOAD_TRAINING || w->kind == WORKLOAD_FINETUNE;

	/* Keys that belong to other kinds are mistakes worth naming. */
	static const struct { const char *key; int kinds; } owners[] = {
		{ "finetune", 1 << WORKLOAD_FINETUNE },
		{ "serving", 1 << WORKLOAD_INFERENCE },
		{ "collective", 1 << WORKLOAD_COLLECTIVE },
		{ "parallelism", 1 << WORKLOAD_TRAINING | 1 << WORKLOAD_FINETUNE },
		{ "global_batch_tokens", 1 << WORKLOAD_TRAINING | 1 << WORKLOAD_FINETUNE },
		{ "checkpoint", 1 << WORKLOAD_TRAINING | 1 << WORKLOAD_FINETUNE },
		{ "examples", 1 << WORKLOAD_FINETUNE },
		{ "mode", 1 << WORKLOAD_TRAINING | 1 << WORKLOAD_FINETUNE },
		{ "epochs", 1 << WORKLOAD_FINETUNE },
		{ "model", ~(1 << WORKLOAD_COLLECTIVE) },
	};
	for (size_t i = 0; i < sizeof owners / sizeof owners[0]; i++) {
		if (json_object_get(v, owners[i].key) != NULL && !(owners[i].kinds & (1 << w->kind))) {
			char msg[128];
			snprintf(msg, sizeof msg, "not used by a %s workload", workload_kind_names[w->kind]);
			return reader_fail_at(r, owners[i].key, msg);
		}
	}

	if (w->kind != WORKLOAD_COLLECTIVE) {
		if ((x = json_object_get(v, "model")) == NULL)
			return reader_fail_at(r, "model", "missing required key");
		mark = jread_enter_key(r, "model");
		if (read_model_field(r, x, cat, &w->train.model) < 0)
			return -1;
		jread_leave(r, mark);
		w->has_model = true;
	}

	if (jread_int32(r, v, "seq_len", trains, 1, 1 << 24, &w->train.seq_len) < 0)
		return -1;
	if (trains) {
		if (jread_real(r, v, "global_batch_tokens", true, 1, 1e12, &w->train.global_batch_tokens) < 0 ||
		    jread_real(r, v, "tokens", false, 1, 1e17, &w->run.tokens) < 0)
			return -1;
		double seqs = w->train.global_batch_tokens / w->train.seq_len;
		if (seqs != (double)(int64_t)seqs || seqs < 1) {
			mark = jread_enter_key(r, "global_batch_tokens");
			jread_fail(r, "%.0f is not a whole number of sequences of seq_len %d",
				   w->train.global_batch_tokens, w->train.seq_len);
			jread_leave(r, mark);
			return -1;
		}
		if ((x = json_object_get(v, "parallelism")) != NULL) {
			mark = jread_enter_key(r, "parallelism");
			if (read_plan(r, x, &w->train.plan) < 0)
				return -1;
			jread_leave(r, mark);
		} else {
			plan_set_auto(&w->train.plan);
		}
		{
			int mode = TRAIN_REPRESENTATIVE;
			if (jread_enum(r, v, "mode", false, training_mode_names, &mode) < 0)
				return -1;
			w->train.mode = (enum training_mode)mode;
		}
		w->run.checkpoint.enabled = false;
		if ((x = json_object_get(v, "checkpoint")) != NULL) {
			mark = jread_enter_key(r, "checkpoint");
			if (read_checkpoint(r, x, &w->run.checkpoint) < 0)
				return -1;
			jread_leave(r, mark);
		}
	} else if (json_object_get(v, "tokens") != NULL) {
		return reader_fail_at(r, "tokens", "not used by this workload kind");
	}

	w->train.kernels.flash_attention = true;
	w->train.kernels.launch_s = -1;  /* the global default */
	if ((x = json_object_get(v, "kernels")) != NULL) {
		static const char *const kkeys[] = {
			"gemm_efficiency", "attention_efficiency", "hbm_efficiency", "launch_us",
			"flash_attention", NULL
		};
		double launch_us = -1e6;
		mark = jread_enter_key(r, "kernels");
		if (jread_object(r, x, kkeys) < 0 ||
		    jread_real(r, x, "gemm_efficiency", false, 0.01, 1, &w->train.kernels.gemm_efficiency) < 0 ||
		    jread_real(r, x, "attention_efficiency", false, 0.01, 1, &w->train.kernels.attention_efficiency) < 0 ||
		    jread_real(r, x, "hbm_efficiency", false, 0.01, 1, &w->train.kernels.hbm_efficiency) < 0 ||
		    jread_real(r, x, "launch_us", false, 0, 1e4, &launch_us) < 0 ||
		    jread_bool(r, x, "flash_attention", false, &w->train.kernels.flash_attention) < 0)
			return -1;
		if (launch_us >= 0)
			w->train.kernels.launch_s = launch_us * 1e-6;
		jread_leave(r, mark);
	}
	text_copy(w->run.failures.preset, sizeof w->run.failures.preset, "none");
	if ((x = json_object_get(v, "failures")) != NULL) {
		mark = jread_enter_key(r, "failures");
		if (read_failures(r, x, &w->run.failures) < 0)
			return -1;
		jread_leave(r, mark);
	}

	if (w->kind == WORKLOAD_FINETUNE) {
		w->train.finetune.method = FINETUNE_FULL;
		w->train.finetune.rank = 16;
		text_copy(w->train.finetune.targets, sizeof w->train.finetune.targets, "attn+mlp");
		if ((x = json_object_get(v, "finetune")) != NULL) {
			mark = jread_enter_key(r, "finetune");
			if (read_finetune(r, x, &w->train.finetune) < 0)
				return -1;
			jread_leave(r, mark);
		}
		if (jread_real(r, v, "examples", false, 1, 1e13, &w->run.examples) < 0 ||
		    jread_real(r, v, "epochs", false, 0.001, 1e6, &w->run.epochs) < 0)
			return -1;
		if (w->run.examples > 0 && w->run.tokens > 0)
			return reader_fail_at(r, "examples", "give tokens or examples x epochs, not both");
		if (w->run.examples > 0) {
			if (w->run.epochs == 0)
				w->run.epochs = 1;
			w->run.tokens = w->run.examples * w->run.epochs * w->train.seq_len;
		}
	}
	if (w->kind == WORKLOAD_INFERENCE) {
		if ((x = json_object_get(v, "serving")) == NULL)
			return reader_fail_at(r, "serving", "missing required key");
		mark = jread_enter_key(r, "serving");
		if (read_serving(r, x, file, &w->serving) < 0)
			return -1;
		jread_leave(r, mark);
	}
	if (w->kind == WORKLOAD_COLLECTIVE) {
		if ((x = json_object_get(v, "collective")) == NULL)
			return reader_fail_at(r, "collective", "missing required key");
		mark = jread_enter_key(r, "collective");
		if (read_collective(r, x, &w->collective) < 0)
			return -1;
		jread_leave(r, mark);
	}
	return 0;
}

/* ---- the whole scenario -------------------------------------------------- */

static int merge_scenario_catalog(struct jread *r, const json_t *v, const char *file, catalog *cat)
{
	if (json_is_object(v)) {
		if (catalog_merge_json(cat, v, "scenario", file, r->path, r->err) < 0)
			return -1;
		if (catalog_check(cat, r->err) < 0) {
			error_prefix(r->err, "scenario '%s': catalog", strcmp(file, "-") == 0 ? "<stdin>" : file);
			return -1;
		}
		return 0;
	}
	if (json_is_string(v)) {
		char path[1024];
		reader_resolve_relative(file, json_string_value(v), path, sizeof path);
		return catalog_merge_file(cat, path, r->err);
	}
	if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			size_t mark = jread_enter_index(r, i);
			if (!json_is_string(e))
				return jread_fail_value(r, e, "a catalog file path");
			if (merge_scenario_catalog(r, e, file, cat) < 0)
				return -1;
			jread_leave(r, mark);
		}
		return 0;
	}
	return jread_fail_value(r, v, "a catalog file path, an array of paths or a catalog object");
}

int scenario_from_json(json_t *root, const char *file, catalog *cat, struct scenario *s,
		       struct cs_error *err)
{
	static const char *const keys[] = {
		"name", "description", "seed", "workload", "candidates", "monte_carlo", "objective",
		"catalog", "validation", NULL
	};
	struct jread r;
	json_t *x;
	size_t mark;
	int64_t seed = 0;
	char desc[CAT_NOTE_MAX];

	memset(s, 0, sizeof *s);
	jread_init(&r, "scenario", file, err);
	text_copy(s->file, sizeof s->file, file);
	s->monte_carlo.trials = 100;
	if (jread_object(&r, root, keys) < 0)
		goto fail;
	if ((x = json_object_get(root, "catalog")) != NULL) {
		mark = jread_enter_key(&r, "catalog");
		if (merge_scenario_catalog(&r, x, file, cat) < 0)
			goto fail;
		jread_leave(&r, mark);
	}
	if (jread_string(&r, root, "name", false, s->name, sizeof s->name) < 0 ||
	    jread_string(&r, root, "description", false, desc, sizeof desc) < 0 ||
	    jread_int(&r, root, "seed", false, 0, INT64_MAX, &seed) < 0)
		goto fail;
	s->seed = (uint64_t)seed;
	if (s->name[0] == '\0') {
		/* Default: the file's base name without .json. */
		const char *base = strrchr(file, '/');
		base = base ? base + 1 : file;
		if (strcmp(file, "-") == 0)
			base = "stdin";
		snprintf(s->name, sizeof s->name, "%.*s", (int)strcspn(base, "."), base);
	}
	if ((x = json_object_get(root, "workload")) == NULL) {
		mark = jread_enter_key(&r, "workload");
		jread_fail(&r, "missing required key");
		goto fail;
	}
	mark = jread_enter_key(&r, "workload");
	if (read_workload(&r, x, file, cat, &s->workload) < 0)
		goto fail;
	jread_leave(&r, mark);

	if ((x = json_object_get(root, "candidates")) == NULL) {
		jread_enter_key(&r, "candidates");
		jread_fail(&r, "missing required key");
		goto fail;
	}
	mark = jread_enter_key(&r, "candidates");
	if (!json_is_array(x) || json_array_size(x) == 0 || json_array_size(x) > 10000) {
		jread_fail_value(&r, x, "an array of 1 to 10000 candidates");
		goto fail;
	}
	s->candidates = xcalloc(json_array_size(x), sizeof *s->candidates);
	{
		size_t i;
		json_t *e;
		json_array_foreach(x, i, e) {
			size_t m2 = jread_enter_index(&r, i);
			if (candidate_read(&r, e, cat, &s->candidates[i]) < 0)
				goto fail;
			s->n_candidates++;
			for (size_t k = 0; k < i; k++) {
				if (strcmp(s->candidates[k].name, s->candidates[i].name) == 0) {
					char q[96];
					text_quote(s->candidates[i].name, q, sizeof q);
					mark = jread_enter_key(&r, "name");
					jread_fail(&r, "%s is also the name of candidates[%zu]", q, k);
					goto fail;
				}
			}
			/* A checkpoint tier must exist on every candidate that checkpoints. */
			if (s->workload.run.checkpoint.enabled) {
				const struct cluster_spec *c = &s->candidates[i];
				bool found = false;
				for (int t = 0; t < c->n_storage; t++)
					found |= text_equal_nocase(c->storage[t].tier, s->workload.run.checkpoint.tier);
				if (!found) {
					jread_fail(&r, "has no storage tier \"%s\" for workload.checkpoint.tier",
						   s->workload.run.checkpoint.tier);
					goto fail;
				}
			}
			jread_leave(&r, m2);
		}
	}
	jread_leave(&r, mark);

	if ((x = json_object_get(root, "monte_carlo")) != NULL) {
		static const char *const mkeys[] = { "trials", NULL };
		mark = jread_enter_key(&r, "monte_carlo");
		if (jread_object(&r, x, mkeys) < 0 ||
		    jread_int32(&r, x, "trials", false, 1, 1000000, &s->monte_carlo.trials) < 0)
			goto fail;
		jread_leave(&r, mark);
	}
	if ((x = json_object_get(root, "validation")) != NULL) {
		static const char *const vkeys[] = { "id", "metric", "published", "source", NULL };
		static const char *const metrics[] = {
			"tflops_per_gpu", "mfu", "hfu", "step_time_s", "tokens_per_s", "samples_per_s",
			"busbw_GBps", "algbw_GBps", "time_us", "busbw_per_nic_GBps", NULL
		};
		int metric = 0;
		mark = jread_enter_key(&r, "validation");
		if (jread_object(&r, x, vkeys) < 0 ||
		    jread_string(&r, x, "id", true, s->validation.id, sizeof s->validation.id) < 0 ||
		    jread_enum(&r, x, "metric", true, metrics, &metric) < 0 ||
		    jread_real(&r, x, "published", true, 1e-12, 1e15, &s->validation.published) < 0 ||
		    jread_string(&r, x, "source", false, s->validation.source, sizeof s->validation.source) < 0)
			goto fail;
		text_copy(s->validation.metric, sizeof s->validation.metric, metrics[metric]);
		s->validation.present = true;
		jread_leave(&r, mark);
	}
	if ((x = json_object_get(root, "objective")) != NULL) {
		static const char *const okeys[] = { "deadline_h", "budget_usd", NULL };
		mark = jread_enter_key(&r, "objective");
		if (jread_object(&r, x, okeys) < 0 ||
		    jread_real(&r, x, "deadline_h", false, 0.001, 1e7, &s->objective.deadline_h) < 0 ||
		    jread_real(&r, x, "budget_usd", false, 0.01, 1e13, &s->objective.budget_usd) < 0)
			goto fail;
		jread_leave(&r, mark);
	}
	return 0;
fail:
	scenario_release(s);
	return -1;
}

int scenario_load(const char *file, const struct scenario_override *overrides, size_t n_overrides,
		  int64_t seed_override, catalog *cat, struct scenario *s, struct cs_error *err)
{
	json_t *root = scenario_read_json("scenario", file, err);
	int rc;

	memset(s, 0, sizeof *s);
	if (root == NULL)
		return -1;
	for (size_t i = 0; i < n_overrides; i++) {
		if (override_apply(root, "scenario", file, overrides[i].path, overrides[i].value, err) < 0) {
			json_decref(root);
			return -1;
		}
	}
	rc = scenario_from_json(root, file, cat, s, err);
	json_decref(root);
	if (rc == 0 && seed_override >= 0)
		s->seed = (uint64_t)seed_override;
	return rc;
}

void scenario_release(struct scenario *s)
{
	free(s->candidates);
	free(s->workload.collective.bytes);
	s->candidates = NULL;
	s->workload.collective.bytes = NULL;
	s->n_candidates = 0;
}
