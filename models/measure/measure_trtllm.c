/*
 * measure_trtllm: the report `trtllm-bench ... throughput` prints, as
 * written by NVIDIA/TensorRT-LLM tensorrt_llm/bench/dataclasses/reporting.py
 * (report_statistics; the 0.12 report's "= STATISTICS" layout too):
 * "Key: value" lines under "= WORLD + RUNTIME
 * INFORMATION" (TP Size, PP Size, Max Runtime Batch Size, Max Runtime
 * Tokens), "= REQUEST DETAILS" or the overview (Number of requests, Average
 * Input/Output Length (tokens)) and "= PERFORMANCE OVERVIEW" (Request
 * Throughput (req/sec), Total Output Throughput (tokens/sec) or, in older
 * reports, Token Throughput (tokens/sec), which is output tokens / total
 * latency; Total Token Throughput; with streaming, Average
 * time-to-first-token [TTFT] (ms), Average time-per-output-token [TPOT]
 * (ms), and "[TTFT] P50 : x" breakdowns). Each figure becomes a serving
 * document on the --on scenario with engine trtllm and the report's
 * parallelism, batch limits, request count and mean lengths; the requests
 * are sent at once (offline), as the throughput benchmark does.
 */
#define _GNU_SOURCE  /* memmem */
#include "models/measure/measure.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"

/* The figures read, by the report's label, and the metric each becomes. */
static const struct {
	const char *label, *metric;
	double scale;
} trt_figures[] = {
	{ "Request Throughput (req/sec)", "request_per_s", 1 },
	{ "Total Output Throughput (tokens/sec)", "output_tok_s", 1 },
	{ "Token Throughput (tokens/sec)", "output_tok_s", 1 },
	{ "Total Token Throughput (tokens/sec)", "throughput_tok_s", 1 },
	{ "Average time-to-first-token [TTFT] (ms)", "ttft_mean_ms", 1 },
	{ "Average time-per-output-token [TPOT] (ms)", "tpot_mean_ms", 1 },
	{ "Average request latency (ms)", "e2e_mean_s", 1e-3 },
	{ "[TTFT] P50", "ttft_p50_ms", 1 },
	{ "[TTFT] P90", "ttft_p90_ms", 1 },
	{ "[TTFT] P99", "ttft_p99_ms", 1 },
	{ "[TPOT] P50", "tpot_p50_ms", 1 },
	{ "[TPOT] P90", "tpot_p90_ms", 1 },
	{ "[TPOT] P99", "tpot_p99_ms", 1 },
	{ "[Latency] P50", "e2e_p50_s", 1e-3 },
	{ "[Latency] P90", "e2e_p90_s", 1e-3 },
	{ "[Latency] P99", "e2e_p99_s", 1e-3 },
};
enum { TRT_FIGURES = sizeof trt_figures / sizeof trt_figures[0] };

/* The deployment's settings the report states, by label. */
enum { SET_REQUESTS, SET_ISL, SET_OSL, SET_TP, SET_PP, SET_BATCH, SET_TOKENS, SETTINGS };
static const char *const trt_settings[SETTINGS] = {
	"Number of requests", "Average Input Length (tokens)", "Average Output Length (tokens)", "TP Size",
	"PP Size", "Max Runtime Batch Size", "Max Runtime Tokens",
};

struct trt_report {
	double figure[TRT_FIGURES];
	long figure_line[TRT_FIGURES];
	double setting[SETTINGS];
	bool has_setting[SETTINGS];
};

static const char *shown(const char *file)
{
	return strcmp(file, "-") == 0 ? "<stdin>" : file;
}

static bool detect_trtllm(const char *file, const char *text, size_t len)
{
	(void)file;
	size_t i = 0;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i < len && (text[i] == '{' || text[i] == '['))
		return false;  /* JSON */
	return (memmem(text, len, "= PERFORMANCE OVERVIEW", 22) != NULL || memmem(text, len, "= STATISTICS", 12) != NULL) &&
	       memmem(text, len, "Request Throughput (req/sec)", 28) != NULL;
}

/* One "Label: value" line into the report. */
static int read_line(const char *file, long line, char *s, struct trt_report *rep, struct cs_error *err)
{
	char *colon = strchr(s, ':'), *end;
	if (colon == NULL)
		return 0;
	char *k = colon;
	while (k > s && isspace((unsigned char)k[-1]))
		k--;
	*k = '\0';
	while (isspace((unsigned char)*s))
		s++;
	char *v = colon + 1;
	while (isspace((unsigned char)*v))
		v++;
	for (char *e = v + strlen(v); e > v && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	double *slot = NULL;
	for (int i = 0; i < TRT_FIGURES && slot == NULL; i++)
		if (strcmp(s, trt_figures[i].label) == 0) {
			slot = &rep->figure[i];
			rep->figure_line[i] = line;
		}
	for (int i = 0; i < SETTINGS && slot == NULL; i++)
		if (strcmp(s, trt_settings[i]) == 0) {
			slot = &rep->setting[i];
			rep->has_setting[i] = true;
		}
	if (slot == NULL)
		return 0;
	*slot = strtod(v, &end);
	if (end == v || *end != '\0' || !isfinite(*slot) || *slot < 0)
		return error_set(err, "measurements '%s': line %ld: %s: expected a number, got \"%.40s\"", shown(file),
				 line, s, v);
	return 0;
}

/* The report's deployment written into the copy of the --on scenario. */
static int set_deployment(const char *file, const struct trt_report *rep, json_t *serving, char *note, size_t size,
			  struct cs_error *err)
{
	static const int need[] = { SET_REQUESTS, SET_ISL, SET_OSL };
	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
		if (!rep->has_setting[need[i]] || rep->setting[need[i]] < 1)
			return error_set(err, "measurements '%s': no \"%s\" of 1 or more: is the report cut short?",
					 shown(file), trt_settings[need[i]]);
	for (int i = 0; i < SETTINGS; i++)
		if (rep->has_setting[i] && rep->setting[i] > MEASURE_COUNT_MAX)
			return error_set(err, "measurements '%s': \"%s\" beyond %.0e", shown(file), trt_settings[i],
					 MEASURE_COUNT_MAX);
	json_t *sched = json_object_get(serving, "scheduler");
	if (!json_is_object(sched)) {
		sched = json_object();
		json_object_set_new(serving, "scheduler", sched);
	}
	json_object_del(serving, "duration_s");
	json_object_set_new(serving, "engine", json_string("trtllm"));
	json_object_set_new(serving, "arrival", json_pack("{s:s}", "process", "offline"));
	json_object_set_new(serving, "requests", json_integer(lround(rep->setting[SET_REQUESTS])));
	json_object_set_new(serving, "prompt_tokens", json_integer(lround(rep->setting[SET_ISL])));
	json_object_set_new(serving, "output_tokens", json_integer(lround(rep->setting[SET_OSL])));
	if (rep->has_setting[SET_TP] && rep->setting[SET_TP] >= 1)
		json_object_set_new(serving, "tp", json_integer(lround(rep->setting[SET_TP])));
	if (rep->has_setting[SET_PP] && rep->setting[SET_PP] >= 1)
		json_object_set_new(serving, "pp", json_integer(lround(rep->setting[SET_PP])));
	if (rep->has_setting[SET_BATCH] && rep->setting[SET_BATCH] >= 1)
		json_object_set_new(sched, "max_seqs", json_integer(lround(rep->setting[SET_BATCH])));
	if (rep->has_setting[SET_TOKENS] && rep->setting[SET_TOKENS] >= 1)
		json_object_set_new(sched, "max_batch_tokens", json_integer(lround(rep->setting[SET_TOKENS])));
	text_setf(note, size, "%ld requests at once, mean lengths %ld/%ld, parallelism and batch limits from the report",
		 lround(rep->setting[SET_REQUESTS]), lround(rep->setting[SET_ISL]), lround(rep->setting[SET_OSL]));
	return 0;
}

static int read_report(const char *file, const char *text, size_t len, struct trt_report *rep, struct cs_error *err)
{
	char buf[1024];
	long line = 0;
	if (memchr(text, '\0', len) != NULL)
		return error_set(err, "measurements '%s': a NUL byte: not trtllm-bench's text report", shown(file));
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl != NULL ? (size_t)(nl - text) : len;
		line++;
		if (end - at < sizeof buf) {  /* longer lines (logs) hold no figure of the report */
			memcpy(buf, text + at, end - at);
			buf[end - at] = '\0';
			if (read_line(file, line, buf, rep, err) < 0)
				return -1;
		}
		at = end + 1;
	}
	return 0;
}

static int load_trtllm(const char *file, const char *text, size_t len, const json_t *on, struct measure_set *set,
		       struct cs_error *err)
{
	struct trt_report rep = { 0 };
	char stem[128], note[256], id[192], source[512];
	const json_t *wl = json_object_get(on, "workload");
	const char *kind = json_string_value(json_object_get(wl, "kind"));
	if (kind == NULL || strcmp(kind, "inference") != 0 || !json_is_object(json_object_get(wl, "serving")))
		return error_set(err, "measurements '%s': a serving benchmark needs --on the deployment's scenario (an "
				 "inference workload with a serving block), got workload.kind \"%s\"", shown(file),
				 kind != NULL ? kind : "?");
	if (read_report(file, text, len, &rep, err) < 0)
		return -1;
	measure_file_stem(file, stem, sizeof stem);
	json_t *base = json_deep_copy(on);
	if (set_deployment(file, &rep, json_object_get(json_object_get(base, "workload"), "serving"), note, sizeof note,
			   err) < 0) {
		json_decref(base);
		return -1;
	}
	for (int i = 0; i < TRT_FIGURES; i++) {
		if (rep.figure_line[i] == 0 || rep.figure[i] <= 0)
			continue;
		json_t *doc = json_deep_copy(base);
		text_setf(id, sizeof id, "%s_%s", stem, trt_figures[i].metric);
		text_setf(source, sizeof source, "trtllm-bench throughput \"%s\" (%s); %s:%ld", trt_figures[i].label, note,
			 shown(file), rep.figure_line[i]);
		json_object_set_new(doc, "name", json_string(id));
		json_object_del(doc, "search");
		measure_set_add_figure(set, doc, file, rep.figure_line[i], id, trt_figures[i].metric,
				       rep.figure[i] * trt_figures[i].scale, source, stem);
	}
	json_decref(base);
	return 0;
}

const struct measure_format measure_format_trtllm = {
	.name = "trtllm-bench",
	.needs_scenario = true,
	.detect = detect_trtllm,
	.load = load_trtllm,
};
