/*
 * serve: inference serving's records: the arrival process, prompt and
 * output lengths, the scheduler's limits, the SLO and the replica layout.
 *
 * The scenario reader fills them and checks them; the request-level
 * simulation is not built yet, so an inference job is reported as
 * `unsupported` (eval/evaluate.c).
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_H

#include <stdbool.h>

enum length_dist { LEN_FIXED, LEN_LOGNORMAL, LEN_NORMAL, LEN_UNIFORM };
extern const char *const length_dist_names[];

struct length_spec {
	enum length_dist dist;
	double mean, sd, min, max;
};

enum arrival_process { ARRIVAL_POISSON, ARRIVAL_GAMMA, ARRIVAL_TRACE };
extern const char *const arrival_process_names[];

struct serving_spec {
	enum arrival_process process;
	double rate_per_s;
	double cv;                  /* gamma: coefficient of variation of gaps */
	char trace[1024];           /* resolved path */
	struct length_spec prompt_tokens, output_tokens;
	double duration_s;
	int max_batch_tokens, max_seqs;
	bool chunked_prefill;
	double slo_ttft_p99_ms, slo_tpot_p99_ms;
	int replicas;               /* PLAN_AUTO: the fewest that meet the SLO */
	int tp, pp;
	int prefill_replicas, decode_replicas;  /* both 0 unless disaggregated */
};

#endif
