#include "validation.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/eval/evaluate.h"
#include "models/scenario/jobs.h"

const char *const validation_kind_names[] = { "training", "collective", "serving", NULL };

enum validation_kind validation_kind(const struct scenario *s)
{
	switch (s->workload.kind) {
	case WORKLOAD_COLLECTIVE:
		return VALIDATION_COLLECTIVE;
	case WORKLOAD_INFERENCE:
		return VALIDATION_SERVING;
	default:
		return VALIDATION_TRAINING;
	}
}

/* A metric of a collective's result (nccl-tests' figures). */
static bool collective_metric(const struct result *r, const struct cluster_spec *c, const char *metric,
			      double *out, char *why, size_t size)
{
	const struct nccl_point *p = &r->collective;
	if (strcmp(metric, "busbw_GBps") == 0)
		*out = p->busbw_bytes_per_s / 1e9;
	else if (strcmp(metric, "busbw_per_nic_GBps") == 0)
		*out = p->busbw_bytes_per_s / 1e9 / (c->nics_per_node > 0 ? c->nics_per_node : 1);
	else if (strcmp(metric, "algbw_GBps") == 0)
		*out = p->algbw_bytes_per_s / 1e9;
	else if (strcmp(metric, "time_us") == 0)
		*out = p->time_s * 1e6;
	else {
		snprintf(why, size, "metric %s does not apply to a collective", metric);
		return false;
	}
	return true;
}

/* A metric of a training step (what the step model gives: a job that is
 * unsupported for its whole run still has its step). */
static bool training_metric(const struct result *r, const struct workload_spec *w, const char *metric,
			    double *out, char *why, size_t size)
{
	const struct train_result *t = &r->train;
	if (strcmp(metric, "tflops_per_gpu") == 0)
		*out = t->tflops_per_gpu;
	else if (strcmp(metric, "mfu") == 0)
		*out = t->mfu;
	else if (strcmp(metric, "hfu") == 0)
		*out = t->hfu;
	else if (strcmp(metric, "step_time_s") == 0)
		*out = t->step_time_s;
	else if (strcmp(metric, "tokens_per_s") == 0)
		*out = t->tokens_per_s;
	else if (strcmp(metric, "samples_per_s") == 0)
		*out = t->tokens_per_s / w->train.seq_len;
	else {
		snprintf(why, size, "metric %s does not apply to training", metric);
		return false;
	}
	return true;
}

/* A metric of a serving result: what the request-level simulation measured
 * over the whole first candidate (every replica). */
static bool serving_metric(const struct serve_metrics *m, const char *metric, double *out, char *why, size_t size)
{
	static const struct {
		const char *name;
		size_t offset;
	} metrics[] = {
		{ "output_tok_s", offsetof(struct serve_metrics, output_tok_s) },
		{ "throughput_tok_s", offsetof(struct serve_metrics, throughput_tok_s) },
		{ "request_per_s", offsetof(struct serve_metrics, request_per_s) },
		{ "ttft_p50_ms", offsetof(struct serve_metrics, ttft_ms.p50) },
		{ "ttft_mean_ms", offsetof(struct serve_metrics, ttft_ms.mean) },
		{ "tpot_p50_ms", offsetof(struct serve_metrics, tpot_ms.p50) },
		{ "tpot_mean_ms", offsetof(struct serve_metrics, tpot_ms.mean) },
		{ "itl_p50_ms", offsetof(struct serve_metrics, itl_ms.p50) },
		{ "itl_mean_ms", offsetof(struct serve_metrics, itl_ms.mean) },
		{ "e2e_p50_s", offsetof(struct serve_metrics, e2e_s.p50) },
		{ "e2e_mean_s", offsetof(struct serve_metrics, e2e_s.mean) },
	};
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
		if (strcmp(metric, metrics[i].name) == 0) {
			memcpy(out, (const char *)m + metrics[i].offset, sizeof *out);
			return true;
		}
	snprintf(why, size, "metric %s does not apply to serving", metric);
	return false;
}

bool validation_predict(const struct scenario *s, double *out, char *why, size_t size)
{
	const char *metric = s->validation.metric;
	size_t n;
	struct job *jobs = jobs_from_scenario(s, false, -1, &n);
	struct result r;
	bool ok = false;

	/* the first candidate (and, for a collective, the first size) */
	evaluate(&jobs[0], &r);
	if (r.outcome != OUTCOME_OK && !(r.kind == RESULT_TRAINING && r.outcome == OUTCOME_UNSUPPORTED)) {
		bool named = r.kind == RESULT_TRAINING || r.kind == RESULT_INFERENCE;
		snprintf(why, size, "%s%s%s", named ? outcome_names[r.outcome] : "", named ? ": " : "", r.reason);
		goto out;
	}
	switch (r.kind) {
	case RESULT_COLLECTIVE:
		ok = collective_metric(&r, jobs[0].cluster, metric, out, why, size);
		break;
	case RESULT_TRAINING:
		ok = training_metric(&r, &s->workload, metric, out, why, size);
		break;
	case RESULT_INFERENCE:
		ok = serving_metric(&r.serve.m, metric, out, why, size);
		break;
	default:
		snprintf(why, size, "workload kind %s is not validated yet", workload_kind_names[s->workload.kind]);
		break;
	}
out:
	free(jobs);
	return ok;
}
