/*
 * measure_vllm: the JSON that vLLM's serving benchmark writes with
 * --save-result (`vllm bench serve`, vllm/benchmarks/serve.py; before it
 * benchmarks/benchmark_serving.py): backend, model_id, num_prompts,
 * request_rate (a number, or "inf"), burstiness, max_concurrency, duration,
 * completed, total_input_tokens, total_output_tokens, request_throughput,
 * output_throughput, total_token_throughput, and for each of ttft, tpot, itl
 * and e2el: mean_X_ms, median_X_ms, std_X_ms and pNN_X_ms (--percentile-
 * metrics, --metric-percentiles). Each figure clustersim predicts becomes one
 * serving document on the --on scenario (the deployment), whose request
 * pattern is the file's: num_prompts requests; the rate (Poisson, or gamma
 * with cv 1/sqrt(burstiness): vLLM draws gamma gaps of shape burstiness),
 * else offline, or a closed loop of max_concurrency clients when the rate is
 * inf (a finite rate with max_concurrency is refused: not modelled); prompt
 * and output lengths the means total / completed.
 */
#define _GNU_SOURCE  /* memmem */
#include "models/measure/measure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/text.h"

/* The figures read, by key, and the metric and scale each becomes. */
static const struct {
	const char *key, *metric;
	double scale;
} vllm_figures[] = {
	{ "request_throughput", "request_per_s", 1 },
	{ "output_throughput", "output_tok_s", 1 },
	{ "total_token_throughput", "throughput_tok_s", 1 },
	{ "mean_ttft_ms", "ttft_mean_ms", 1 },
	{ "median_ttft_ms", "ttft_p50_ms", 1 },
	{ "p90_ttft_ms", "ttft_p90_ms", 1 },
	{ "p99_ttft_ms", "ttft_p99_ms", 1 },
	{ "mean_tpot_ms", "tpot_mean_ms", 1 },
	{ "median_tpot_ms", "tpot_p50_ms", 1 },
	{ "p90_tpot_ms", "tpot_p90_ms", 1 },
	{ "p99_tpot_ms", "tpot_p99_ms", 1 },
	{ "mean_itl_ms", "itl_mean_ms", 1 },
	{ "median_itl_ms", "itl_p50_ms", 1 },
	{ "p90_itl_ms", "itl_p90_ms", 1 },
	{ "p99_itl_ms", "itl_p99_ms", 1 },
	{ "mean_e2el_ms", "e2e_mean_s", 1e-3 },
	{ "median_e2el_ms", "e2e_p50_s", 1e-3 },
	{ "p90_e2el_ms", "e2e_p90_s", 1e-3 },
	{ "p99_e2el_ms", "e2e_p99_s", 1e-3 },
};

static const char *shown(const char *file)
{
	return strcmp(file, "-") == 0 ? "<stdin>" : file;
}

static bool detect_vllm(const char *file, const char *text, size_t len)
{
	(void)file;
	if (memmem(text, len, "\"request_throughput\"", 20) == NULL)
		return false;
	json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
	bool yes = json_is_object(doc) && json_object_get(doc, "request_throughput") != NULL &&
		   json_object_get(doc, "output_throughput") != NULL && json_object_get(doc, "total_input_tokens") != NULL;
	json_decref(doc);
	return yes;
}

/* A number of the result at key: *out, true; false when absent or null;
 * -1 with err set when it is something else. */
static int figure(const json_t *root, const char *file, const char *key, double *out, struct cs_error *err)
{
	const json_t *v = json_object_get(root, key);
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return error_set(err, "measurements '%s': %s: expected a number of 0 or more, as vLLM writes it",
				 shown(file), key);
	*out = json_number_value(v);
	return 1;
}

/* The request pattern the file states, written into serving (the --on
 * scenario's workload.serving); what it says into note. */
static int set_pattern(const json_t *root, const char *file, json_t *serving, char *note, size_t size,
		       struct cs_error *err)
{
	double completed = 0, in = 0, out = 0, prompts = 0, rate = 0, conc = 0, burst = 1;
	const json_t *r = json_object_get(root, "request_rate");
	int rc;
	if ((rc = figure(root, file, "completed", &completed, err)) < 0 || rc == 0 || completed < 1)
		return rc < 0 ? -1 : error_set(err, "measurements '%s': completed: no completed requests", shown(file));
	if (figure(root, file, "total_input_tokens", &in, err) < 0 || figure(root, file, "total_output_tokens", &out, err) < 0 ||
	    figure(root, file, "num_prompts", &prompts, err) < 0 || figure(root, file, "max_concurrency", &conc, err) < 0 ||
	    figure(root, file, "burstiness", &burst, err) < 0)
		return -1;
	bool inf = json_is_string(r) && strcmp(json_string_value(r), "inf") == 0;
	if (!inf && (figure(root, file, "request_rate", &rate, err) < 0 || rate <= 0))
		return error_set(err, "measurements '%s': request_rate: expected a rate above 0 or \"inf\"", shown(file));
	if (in < completed || out < completed || burst <= 0)
		return error_set(err, "measurements '%s': total_input_tokens, total_output_tokens or burstiness below "
				 "what %g completed requests need", shown(file), completed);
	if (prompts > MEASURE_COUNT_MAX || completed > MEASURE_COUNT_MAX || conc > MEASURE_COUNT_MAX ||
	    in / completed > MEASURE_COUNT_MAX || out / completed > MEASURE_COUNT_MAX)
		return error_set(err, "measurements '%s': num_prompts, completed, max_concurrency or a mean length "
				 "beyond %.0e", shown(file), MEASURE_COUNT_MAX);
	/* Poisson arrivals held back by a cap on requests in flight: no arrival
	 * process clustersim has; refused rather than predicted as if uncapped. */
	if (!inf && conc >= 1)
		return error_set(err, "measurements '%s': max_concurrency %g with request_rate %g: arrivals at a rate "
				 "under a cap on requests in flight are not modelled (a run with --request-rate inf and "
				 "--max-concurrency is a closed loop; one without --max-concurrency, Poisson arrivals)",
				 shown(file), conc, rate);
	long n = lround(prompts >= 1 ? prompts : completed);
	long isl = lround(in / completed), osl = lround(out / completed);
	json_object_del(serving, "duration_s");
	json_object_set_new(serving, "requests", json_integer(n));
	json_object_set_new(serving, "prompt_tokens", json_integer(isl));
	json_object_set_new(serving, "output_tokens", json_integer(osl));
	if (inf && conc >= 1) {
		json_object_set_new(serving, "arrival", json_pack("{s:s, s:I}", "process", "closed-loop", "concurrency",
								  (json_int_t)lround(conc)));
		text_setf(note, size, "%ld requests, %ld clients, mean lengths %ld/%ld from the file", n, lround(conc), isl, osl);
	} else if (inf) {
		json_object_set_new(serving, "arrival", json_pack("{s:s}", "process", "offline"));
		text_setf(note, size, "%ld requests at once, mean lengths %ld/%ld from the file", n, isl, osl);
	} else {
		json_object_set_new(serving, "arrival", burst == 1 ? json_pack("{s:s, s:f}", "process", "poisson", "rate_per_s", rate)
			: json_pack("{s:s, s:f, s:f}", "process", "gamma", "rate_per_s", rate, "cv", 1 / sqrt(burst)));
		text_setf(note, size, "%ld requests at %g/s%s, mean lengths %ld/%ld from the file", n, rate,
			 burst == 1 ? "" : " (gamma)", isl, osl);
	}
	return 0;
}

static int load_vllm(const char *file, const char *text, size_t len, const json_t *on, struct measure_set *set,
		     struct cs_error *err)
{
	json_error_t je;
	char stem[128], note[256], id[192], source[512];
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL || !json_is_object(root)) {
		json_decref(root);
		return error_set(err, "measurements '%s': line %d: not one JSON object as vLLM's --save-result writes: %s",
				 shown(file), je.line, root == NULL ? je.text : "another JSON value");
	}
	const json_t *wl = json_object_get(on, "workload");
	const json_t *serving = json_object_get(wl, "serving");
	const char *kind = json_string_value(json_object_get(wl, "kind"));
	if (kind == NULL || strcmp(kind, "inference") != 0 || !json_is_object(serving)) {
		json_decref(root);
		return error_set(err, "measurements '%s': a serving benchmark needs --on the deployment's scenario (an "
				 "inference workload with a serving block), got workload.kind \"%s\"", shown(file),
				 kind != NULL ? kind : "?");
	}
	measure_file_stem(file, stem, sizeof stem);
	json_t *base = json_deep_copy(on);
	json_t *bserving = json_object_get(json_object_get(base, "workload"), "serving");
	int rc = set_pattern(root, file, bserving, note, sizeof note, err);
	for (size_t i = 0; rc == 0 && i < sizeof vllm_figures / sizeof vllm_figures[0]; i++) {
		double v;
		int got = figure(root, file, vllm_figures[i].key, &v, err);
		if (got < 0)
			rc = -1;
		if (got <= 0 || v <= 0)
			continue;
		json_t *doc = json_deep_copy(base);
		text_setf(id, sizeof id, "%s_%s", stem, vllm_figures[i].metric);
		text_setf(source, sizeof source, "vLLM bench serve --save-result %s (%s); %s", vllm_figures[i].key, note,
			 shown(file));
		json_object_set_new(doc, "name", json_string(id));
		json_object_del(doc, "search");
		measure_set_add_figure(set, doc, file, 0, id, vllm_figures[i].metric, v * vllm_figures[i].scale, source,
				       stem);
	}
	json_decref(base);
	json_decref(root);
	return rc;
}

const struct measure_format measure_format_vllm = {
	.name = "vllm-bench-serve",
	.needs_scenario = true,
	.detect = detect_vllm,
	.load = load_vllm,
};
