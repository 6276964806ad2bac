/*
 * validation: what the model predicts for a published figure.
 *
 * A validation scenario (scenarios/validation/) is a published run or
 * measurement expressed as a scenario whose "validation" block names the
 * metric and the published value; its first candidate is the cluster. This
 * module computes the model's value of that metric; `clustersim validate`
 * compares the two.
 */
#ifndef CLUSTERSIM_MODELS_VALIDATE_VALIDATION_H
#define CLUSTERSIM_MODELS_VALIDATE_VALIDATION_H

#include <stdbool.h>
#include <stddef.h>

#include "models/scenario/scenario.h"
#include "sim/stats.h"

/* The metrics, in the units of their names:
 * collectives: busbw_GBps, busbw_per_nic_GBps (bus bandwidth over the NICs
 * of a node), algbw_GBps, time_us; training and fine-tuning: tflops_per_gpu,
 * mfu, hfu, step_time_s, tokens_per_s, samples_per_s (sequences); serving
 * (an inference workload, the whole first candidate): output_tok_s,
 * throughput_tok_s (prompt + output), request_per_s, ttft_p50_ms,
 * ttft_mean_ms, tpot_p50_ms, tpot_mean_ms, itl_p50_ms, itl_mean_ms,
 * e2e_p50_s, e2e_mean_s, and the tails ttft_p90_ms, ttft_p99_ms, tpot_p90_ms,
 * tpot_p99_ms, itl_p90_ms, itl_p99_ms, e2e_p90_s, e2e_p99_s; a gemm workload
 * (its first shape): gemm_tflops, time_us. */

/* What kind of figure a validation row is, for the rows' `kind` column and
 * the summary of each kind. */
enum validation_kind {
	VALIDATION_TRAINING,
	VALIDATION_FINETUNE,
	VALIDATION_COLLECTIVE,
	VALIDATION_SERVING,
	VALIDATION_GEMM,
	VALIDATION_KINDS
};
extern const char *const validation_kind_names[];

/* The kind of s's validation row (from its workload kind). */
enum validation_kind validation_kind(const struct scenario *s);

/* The family of s's row into buf: the published source it belongs to, for
 * the per-family summary. The validation block's `family` when stated, else
 * the id up to its first '_' (the whole id when it has none). */
void validation_family(const struct scenario *s, char *buf, size_t size);

/* True when a larger value of metric means a faster system (throughputs,
 * bandwidths, FLOP/s, MFU); false for the time metrics (step_time_s,
 * time_us, ttft, tpot, itl, e2e), where the faster system has the smaller
 * value. */
bool validation_metric_higher_is_faster(const char *metric);

/* The error of predicted against published, in percent, signed so that +
 * always means the model is too fast (too optimistic): the plain relative
 * error for a metric where higher is faster, its negation for a time. */
double validation_signed_error_pct(const char *metric, double published, double predicted);

/* What a group of rows adds up to: every row, one kind, or one family. */
struct validation_group {
	char name[64];                    /* the kind's or family's name; "" for all rows */
	struct stats_sample abs_err_pct;  /* |error| of each predicted row */
	double signed_sum_pct;            /* sum of the predicted rows' signed errors */
	size_t failed;                    /* rows not predicted */
	double worst_pct;
	char worst_id[128];               /* the row of worst_pct ("" when none) */
};

/* The summary of one validate run. */
struct validation_summary {
	struct validation_group all;
	struct validation_group kinds[VALIDATION_KINDS];
	struct validation_group *families;  /* owned, sorted by name */
	size_t n_families;
};

void validation_summary_init(struct validation_summary *sum);
void validation_summary_release(struct validation_summary *sum);

/* Count one row (of that kind and family) into the summary: when predicted,
 * its relative error error_pct (100 (predicted - published) / published)
 * and its signed error signed_pct; else a failure. */
void validation_summary_add(struct validation_summary *sum, const char *id, enum validation_kind kind,
			    const char *family, bool predicted, double error_pct, double signed_pct);

/* The number of predicted rows of g, their median |error| (0 when none) and
 * the mean of their signed errors (0 when none). */
size_t validation_group_count(const struct validation_group *g);
double validation_group_median_pct(struct validation_group *g);
double validation_group_mean_signed_pct(const struct validation_group *g);

/* The model's value of s's validation metric into *out; false, with the
 * reason in why, when the scenario cannot be predicted (a plan that does not
 * fit, a metric that does not apply to the workload). When predicted, why
 * holds the assumption the figure rests on ("assumption: ...", e.g. an FP4
 * rate no measurement supports), else stays as it was. */
bool validation_predict(const struct scenario *s, double *out, char *why, size_t why_size);

#endif
