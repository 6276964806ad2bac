/*
 * serve: inference serving's records: the arrival process, prompt and
 * output lengths, the scheduler's limits, the SLO and the replica layout,
 * and what serving a load gives (struct serve_result).
 *
 * The scenario reader fills the spec and checks it (a request trace is read
 * there, into struct serve_trace); serve_run() (serve.c) builds the replicas'
 * step-time model (serve_cost.h), runs the request-level simulation
 * (serve_sim.h) and, with `replicas: "auto"`, searches the fewest replicas
 * that meet the SLO. Nothing here reads files or includes jansson.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/hw/hw.h"
#include "models/kernel/roofline.h"
#include "models/kernel/workload_model.h"
#include "util/outcome.h"

enum length_dist { LEN_FIXED, LEN_LOGNORMAL, LEN_NORMAL, LEN_UNIFORM, LEN_HISTOGRAM };
extern const char *const length_dist_names[];

#define SERVE_HIST_MAX 64

/* A token length: fixed (mean), drawn from a distribution clamped to
 * [min, max], or an empirical histogram of (tokens, weight) bins. */
struct length_spec {
	enum length_dist dist;
	double mean, sd, min, max;
	int n_bins;
	double bin_tokens[SERVE_HIST_MAX];
	double bin_weight[SERVE_HIST_MAX];
};

enum arrival_process { ARRIVAL_POISSON, ARRIVAL_GAMMA, ARRIVAL_TRACE, ARRIVAL_OFFLINE, ARRIVAL_CLOSED_LOOP };
extern const char *const arrival_process_names[];

enum serve_router { ROUTER_ROUND_ROBIN, ROUTER_LEAST_OUTSTANDING, ROUTER_SHORTEST_QUEUE };
extern const char *const serve_router_names[];

/* One request: when it arrives and how long its prompt and output are. */
struct serve_request {
	double arrival_s;
	int prompt_tokens;
	int output_tokens;
};

/* Requests read from a trace file (owned by the loaded scenario). */
struct serve_trace {
	struct serve_request *requests;
	size_t n;
};

struct serving_spec {
	enum arrival_process process;
	double rate_per_s;
	double cv;                  /* gamma: coefficient of variation of gaps */
	int concurrency;            /* closed-loop: clients */
	char trace[1024];           /* resolved path */
	const struct serve_trace *trace_requests;  /* ARRIVAL_TRACE: read by the reader */
	struct length_spec prompt_tokens, output_tokens;
	double duration_s;          /* arrivals stop after this (unless `requests`) */
	long requests;              /* > 0: send this many requests instead */
	double prefix_hit_fraction; /* of prompt tokens found in the prefix cache (skip prefill) */
	int max_batch_tokens, max_seqs;
	bool chunked_prefill;
	int block_tokens;           /* paged KV cache block, in tokens (16) */
	double gpu_memory_fraction; /* of HBM the server may use (vLLM's 0.9) */
	bool has_weight_precision;
	enum precision weight_precision;  /* weights stored (fp4 = 4-bit), else workload.precision */
	bool has_kv_precision;
	enum precision kv_precision;      /* KV cache, else workload.precision (bf16 or fp8) */
	double step_overhead_s;     /* < 0: the global default (docs/explanation/calibration.md) */
	enum serve_router router;
	double slo_ttft_p99_ms, slo_tpot_p99_ms;   /* 0 = no such SLO */
	int replicas;               /* PLAN_AUTO: the fewest that meet the SLO */
	int tp, pp, ep;
	int prefill_replicas, decode_replicas;     /* both 0 unless disaggregated */
	int prefill_tp, decode_tp;                 /* disaggregated: 0 = tp */
};

/* Percentiles of one latency, in its unit. */
struct serve_pct {
	double p50, p90, p99, mean;
};

/* What one simulated load gives (serve_sim_run). */
struct serve_metrics {
	long requests_sent;
	long requests_done;
	double span_s;              /* first arrival to last completion */
	struct serve_pct ttft_ms;   /* arrival to first output token */
	struct serve_pct tpot_ms;   /* per request: (e2e - ttft) / (output - 1) */
	struct serve_pct itl_ms;    /* every gap between two output tokens */
	struct serve_pct e2e_s;
	double request_per_s;       /* completed / span */
	double throughput_tok_s;    /* prompt + output tokens / span */
	double output_tok_s;
	double goodput_req_s;       /* requests meeting every SLO / span */
	double slo_attainment;      /* fraction of requests meeting every SLO; 1 with no SLO */
	double busy_frac;           /* replica time spent in steps */
	double flops_frac;          /* achieved FLOP/s / peak, over the span */
	double hbm_frac;            /* achieved HBM bytes/s / peak, over the span */
	double kv_util;             /* time-mean fraction of KV blocks in use */
	double kv_util_peak;
	long preemptions;           /* sequences evicted and recomputed */
	double mean_in_system;      /* time-mean requests in system (Little's law) */
	struct serve_pct kv_transfer_ms;  /* disaggregated: prefill-to-decode KV move */
	uint64_t events;            /* engine events run */
	long output_tokens_emitted; /* tokens the steps emitted (conservation: = sum of outputs) */
};


/* serve_run's answer: the layout chosen, its memory and the metrics. */
struct serve_result {
	struct outcome outcome;      /* first, as in every result */
	int replicas, tp, pp, ep;
	int prefill_replicas, decode_replicas;
	long gpus_used;             /* GPUs the replicas occupy */
	double weights_gb_per_gpu;
	double kv_capacity_tokens;  /* per replica */
	double kv_bytes_per_token;  /* per replica */
	double rate_per_s;          /* offered rate (measured for offline/closed-loop/trace) */
	bool slo_met;
	struct serve_metrics m;
};

/*
 * Serve the workload's load on cluster c (the workload's model: its
 * architecture, precision and kernel calibration), seeded by (seed, row_id). Fills r; a layout
 * that does not fit (oom) or does not divide (invalid) is a status with a
 * reason, not a crash.
 */
void serve_run(const struct serving_spec *sv, const struct workload_model *model,
	       const struct cluster_spec *c, uint64_t seed, uint64_t row_id, struct serve_result *r);

#endif
