#include "validation.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/eval/evaluate.h"
#include "models/scenario/jobs.h"
#include "util/text.h"
#include "util/xalloc.h"

const char *const validation_kind_names[] = { "training", "finetune", "collective", "serving", "gemm", NULL };

enum validation_kind validation_kind(const struct scenario *s)
{
	switch (s->workload.kind) {
	case WORKLOAD_FINETUNE:
		return VALIDATION_FINETUNE;
	case WORKLOAD_COLLECTIVE:
		return VALIDATION_COLLECTIVE;
	case WORKLOAD_INFERENCE:
		return VALIDATION_SERVING;
	case WORKLOAD_GEMM:
		return VALIDATION_GEMM;
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

/* A metric of one standalone GEMM (a gemm workload's first shape). */
static bool gemm_metric(const struct gemm_point *p, const char *metric, double *out, char *why, size_t size)
{
	if (strcmp(metric, "gemm_tflops") == 0)
		*out = p->flops_per_s / 1e12;
	else if (strcmp(metric, "time_us") == 0)
		*out = p->time_s * 1e6;
	else {
		snprintf(why, size, "metric %s does not apply to a gemm", metric);
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
		{ "ttft_p90_ms", offsetof(struct serve_metrics, ttft_ms.p90) },
		{ "ttft_p99_ms", offsetof(struct serve_metrics, ttft_ms.p99) },
		{ "tpot_p90_ms", offsetof(struct serve_metrics, tpot_ms.p90) },
		{ "tpot_p99_ms", offsetof(struct serve_metrics, tpot_ms.p99) },
		{ "itl_p90_ms", offsetof(struct serve_metrics, itl_ms.p90) },
		{ "itl_p99_ms", offsetof(struct serve_metrics, itl_ms.p99) },
		{ "e2e_p90_s", offsetof(struct serve_metrics, e2e_s.p90) },
		{ "e2e_p99_s", offsetof(struct serve_metrics, e2e_s.p99) },
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

	/* the first candidate (and, for a collective, the first size; for a gemm, the first shape) */
	evaluate(&jobs[0], &r);
	if (r.outcome.status != OUTCOME_OK && !(r.kind == RESULT_TRAINING && r.outcome.status == OUTCOME_UNSUPPORTED)) {
		bool named = r.kind == RESULT_TRAINING || r.kind == RESULT_INFERENCE;
		text_setf(why, size, "%s%s%s", named ? outcome_names[r.outcome.status] : "", named ? ": " : "", r.outcome.reason);
		goto out;
	}
	/* a predicted row keeps in why the assumptions its figure rests on
	 * (evaluate_note_assumed_rates: each "assumption: ..." up to its "; ") */
	why[0] = '\0';
	for (const char *a = strstr(r.outcome.reason, "assumption: "); a != NULL; a = strstr(a + 1, "assumption: "))
		text_append_itemf(why, size, "; ", "%.*s", (int)strcspn(a, ";"), a);
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
	case RESULT_GEMM:
		ok = gemm_metric(&r.gemm, metric, out, why, size);
		break;
	default:
		snprintf(why, size, "workload kind %s is not validated yet", workload_kind_names[s->workload.kind]);
		break;
	}
out:
	free(jobs);
	return ok;
}

void validation_family(const struct scenario *s, char *buf, size_t size)
{
	const struct validation_spec *v = &s->validation;
	if (v->family[0] != '\0') {
		snprintf(buf, size, "%s", v->family);
		return;
	}
	size_t len = strcspn(v->id, "_");
	snprintf(buf, size, "%.*s", (int)len, v->id);
}

bool validation_metric_higher_is_faster(const char *metric)
{
	/* the times of validation.h's metric list: a collective's time_us, a
	 * step's time, the serving latencies (ttft_*, tpot_*, itl_*, e2e_*) */
	static const char *const time_prefixes[] = { "step_time_s", "time_us", "ttft_", "tpot_", "itl_", "e2e_", NULL };
	for (int i = 0; time_prefixes[i] != NULL; i++)
		if (strncmp(metric, time_prefixes[i], strlen(time_prefixes[i])) == 0)
			return false;
	return true;
}

double validation_signed_error_pct(const char *metric, double published, double predicted)
{
	double e = 100.0 * (predicted - published) / published;
	return validation_metric_higher_is_faster(metric) ? e : -e;
}

static void group_init(struct validation_group *g, const char *name)
{
	snprintf(g->name, sizeof g->name, "%s", name);
	stats_sample_init(&g->abs_err_pct);
	g->signed_sum_pct = 0;
	g->failed = 0;
	g->worst_pct = 0;
	g->worst_id[0] = '\0';
}

static void group_add(struct validation_group *g, const char *id, bool predicted, double error_pct, double signed_pct)
{
	if (!predicted) {
		g->failed++;
		return;
	}
	double a = fabs(error_pct);
	stats_sample_add(&g->abs_err_pct, a);
	g->signed_sum_pct += signed_pct;
	if (a > g->worst_pct || g->worst_id[0] == '\0') {
		g->worst_pct = a;
		snprintf(g->worst_id, sizeof g->worst_id, "%s", id);
	}
}

void validation_summary_init(struct validation_summary *sum)
{
	group_init(&sum->all, "");
	for (int k = 0; k < VALIDATION_KINDS; k++)
		group_init(&sum->kinds[k], validation_kind_names[k]);
	sum->families = NULL;
	sum->n_families = 0;
}

void validation_summary_release(struct validation_summary *sum)
{
	stats_sample_release(&sum->all.abs_err_pct);
	for (int k = 0; k < VALIDATION_KINDS; k++)
		stats_sample_release(&sum->kinds[k].abs_err_pct);
	for (size_t i = 0; i < sum->n_families; i++)
		stats_sample_release(&sum->families[i].abs_err_pct);
	free(sum->families);
	sum->families = NULL;
	sum->n_families = 0;
}

/* The group of family name, inserted in name order when new. */
static struct validation_group *family_group(struct validation_summary *sum, const char *name)
{
	size_t i = 0;
	while (i < sum->n_families && strcmp(sum->families[i].name, name) < 0)
		i++;
	if (i < sum->n_families && strcmp(sum->families[i].name, name) == 0)
		return &sum->families[i];
	sum->families = xreallocarray(sum->families, sum->n_families + 1, sizeof *sum->families);
	memmove(&sum->families[i + 1], &sum->families[i], (sum->n_families - i) * sizeof *sum->families);
	sum->n_families++;
	group_init(&sum->families[i], name);
	return &sum->families[i];
}

void validation_summary_add(struct validation_summary *sum, const char *id, enum validation_kind kind,
			    const char *family, bool predicted, double error_pct, double signed_pct)
{
	group_add(&sum->all, id, predicted, error_pct, signed_pct);
	group_add(&sum->kinds[kind], id, predicted, error_pct, signed_pct);
	group_add(family_group(sum, family), id, predicted, error_pct, signed_pct);
}

size_t validation_group_count(const struct validation_group *g)
{
	return g->abs_err_pct.n;
}

double validation_group_median_pct(struct validation_group *g)
{
	return g->abs_err_pct.n > 0 ? stats_sample_percentile(&g->abs_err_pct, 50) : 0;
}

double validation_group_mean_signed_pct(const struct validation_group *g)
{
	return g->abs_err_pct.n > 0 ? g->signed_sum_pct / (double)g->abs_err_pct.n : 0;
}
