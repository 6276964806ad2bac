/*
 * serve_types: the records of inference serving every module of
 * models/serve shares: the spec (arrival process, prompt and output
 * lengths, the scheduler's limits, the SLO and the replica layout), a
 * request and a request trace, what serving a load gives (struct
 * serve_metrics, struct serve_result), a replica's step-time model as the
 * simulation sees it (serve_cost builds it, tests give closed forms), and
 * the simulation's pools, config, limits and failures. The names arrays
 * are defined in serve.c (arrival_process_names in arrival.c,
 * serve_engine_names in serve_engine.c).
 *
 * Records only, and no other module of the folder: arrival, serve_load,
 * serve_cost, serve_state and serve_sim read them; serve.h, serve_cost.h
 * and serve_sim.h include this header, so their callers see the same.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_TYPES_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "models/hw/hw.h"
#include "models/hw/topology.h"
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

/* The step-time constants of the engine a replica runs (the catalog's
 * engines entry of its name: hw.h struct engine_spec), copied by the
 * scenario reader; calibration names the overlay they come from ("" = the
 * catalog's own). */
struct serve_constants {
	double step_overhead_s;  /* host time per step the GPU does not hide */
	double seq_overhead_s;   /* host time per sequence of a step */
	double kernel_s;         /* fixed time per kernel beyond its roofline */
	double gemm_over_mamf;   /* GEMMs' rate: this x the GPU's measured MAMF */
	double hbm_efficiency;   /* memory-bound work's fraction of HBM bandwidth */
	bool assumed;            /* the entry's confidence is "assumption" and no calibration replaced it */
	char calibration[CAT_TEXT_MAX];
};

/* The constants of engine entry e. */
static inline void serve_constants_of(struct serve_constants *k, const struct engine_spec *e)
{
	k->step_overhead_s = e->step_overhead_s;
	k->seq_overhead_s = e->seq_overhead_s;
	k->kernel_s = e->kernel_s;
	k->gemm_over_mamf = e->gemm_over_mamf;
	k->hbm_efficiency = e->hbm_efficiency;
	k->assumed = strcmp(e->id.confidence, "assumption") == 0 && e->calibration[0] == '\0';
	memcpy(k->calibration, e->calibration, sizeof k->calibration);
}

/* The serving engine whose scheduler a replica runs (serve_engine.h). */
enum serve_engine { SERVE_ENGINE_VLLM_V0, SERVE_ENGINE_VLLM_V1, SERVE_ENGINE_TRTLLM, SERVE_ENGINE_SGLANG };
extern const char *const serve_engine_names[];

/* TensorRT-LLM's CapacitySchedulerPolicy (workload.serving.scheduler.
 * capacity_policy): GUARANTEED_NO_EVICT admits a request only when the KV
 * blocks of its prompt and its max_tokens are free, so nothing is ever
 * paused; MAX_UTILIZATION admits on the prompt's blocks and pauses the
 * latest started request when a step finds none free. */
enum serve_capacity_policy { SERVE_CAPACITY_GUARANTEED_NO_EVICT, SERVE_CAPACITY_MAX_UTILIZATION };
extern const char *const serve_capacity_policy_names[];

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

/* Speculative decoding (workload.serving.speculative; serve_spec.h): who
 * drafts, how many tokens per step, and how many the target accepts,
 * given as the mean tokens per verify step (acceptance_length, the bonus
 * token included) or a per-token acceptance rate (one of the two > 0). */
enum spec_method { SPEC_NONE, SPEC_DRAFT, SPEC_EAGLE, SPEC_MTP };
extern const char *const spec_method_names[];  /* indexed by enum spec_method - 1 */

struct speculative_spec {
	enum spec_method method;    /* SPEC_NONE: no speculative decoding */
	int tokens;                 /* k: draft tokens per verify step (vLLM's num_speculative_tokens) */
	double acceptance_length;   /* mean tokens per verify step, bonus included, in [1, k + 1]; 0: not given */
	double acceptance_rate;     /* per-token acceptance a in [0, 1); < 0: not given */
	struct model_spec draft;    /* SPEC_DRAFT: the draft model (a catalog model) */
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
	int max_output_tokens;      /* every request's max_tokens; 0: its own output length */
	enum serve_capacity_policy capacity_policy;  /* trtllm only */
	double gpu_memory_fraction; /* of HBM the server may use (vLLM's 0.9) */
	bool has_weight_precision;
	enum precision weight_precision;  /* weights stored (fp4 = 4-bit), else workload.precision */
	bool has_kv_precision;
	enum precision kv_precision;      /* KV cache, else workload.precision (bf16 or fp8) */
	double step_overhead_s;     /* < 0: the engine's (constants.step_overhead_s) */
	enum serve_router router;
	enum serve_engine engine;   /* the scheduler's engine (vLLM v1 by default) */
	struct serve_constants constants; /* its step-time constants (the catalog's) */
	double slo_ttft_p99_ms, slo_tpot_p99_ms;   /* 0 = no such SLO */
	int replicas;               /* PLAN_AUTO: the fewest that meet the SLO */
	int tp, pp, ep;
	int prefill_replicas, decode_replicas;     /* both 0 unless disaggregated */
	int prefill_tp, decode_tp;                 /* disaggregated: 0 = tp */
	struct speculative_spec spec;              /* method SPEC_NONE without one */
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

/* What one iteration of a replica computes. */
struct serve_batch {
	int prefill_seqs;           /* sequences with prompt tokens in this step */
	long prefill_tokens;        /* prompt tokens computed (after prefix-cache hits) */
	double prefill_attn_pairs;  /* query-key pairs of those tokens: sum over chunks of
				     * chunk x (context before it + (chunk + 1) / 2) */
	int decode_seqs;            /* sequences each producing one token */
	double decode_ctx_tokens;   /* sum of their context lengths (KV read) */
};

/* The work one iteration did, for utilization. */
struct serve_step_use {
	double flops;               /* all GPUs of the replica */
	double hbm_bytes;
};

/* A replica's step-time model as the simulation sees it (serve_sim.h);
 * tests give their own closed forms. */
struct serve_step_model {
	double (*step_s)(const void *ctx, const struct serve_batch *b, struct serve_step_use *use);
	const void *ctx;
	double kv_capacity_tokens;      /* per replica */
	double kv_bytes_per_token;      /* per replica, all layers */
	double peak_flops_per_s;        /* all GPUs of the replica, compute precision */
	double peak_hbm_bytes_per_s;
	/* speculative decoding (serve_spec.h): draft tokens per verify step
	 * (0: none) and the mean tokens a decoding sequence advances per step */
	int spec_tokens;
	double spec_tokens_per_step;
};

/* Replicas of one kind: how many, their step model, and where their GPUs
 * are (replica i holds GPUs first_gpu + i x gpus_per_replica ...). */
struct serve_pool {
	int replicas;
	struct serve_step_model model;
	long first_gpu;
	int gpus_per_replica;
};

/*
 * The most requests one simulation serves. The scenario reader refuses a
 * load that asks for more (`requests`, rate_per_s x duration_s; a trace's
 * rows are bounded by SERVE_TRACE_MAX_REQUESTS); a run that sends more than
 * SERVE_SIM_REQUESTS_STOP (a closed loop for a duration, whose count is
 * known only as it runs, or a Poisson count far above its mean: 5% over
 * 1e9 is 1,581 standard deviations) stops with SERVE_SIM_TOO_LONG. Only
 * the requests in flight hold memory (a finished request's record is
 * reused, its latencies go to bounded samples: sim/quantile.h), so the
 * bound is on time: some 30 us a request on 24 replicas.
 */
#define SERVE_SIM_REQUESTS_MAX 1000000000L
#define SERVE_SIM_REQUESTS_STOP (SERVE_SIM_REQUESTS_MAX + SERVE_SIM_REQUESTS_MAX / 20)

/* The most requests in flight (sent, not finished) at once: a load far
 * beyond what the replicas serve piles up its backlog here and stops with
 * SERVE_SIM_TOO_LONG; every load of at most this many requests (the most a
 * simulation served before records were reused) runs as before. */
#define SERVE_SIM_IN_FLIGHT_MAX 20000000L

/* Bytes a request in flight holds at most, for the reader's memory check
 * (requests, at most SERVE_SIM_IN_FLIGHT_MAX, all in flight: an offline
 * load, or a backlog): its record (96 bytes), twice while the records'
 * array grows, and room for the samples that keep its latencies exactly
 * up to QUANTILE_EXACT_MAX values. */
#define SERVE_SIM_BYTES_PER_REQUEST 256.0

/* The most engine events one simulation runs (SERVE_SIM_TOO_LONG past it). */
#define SERVE_SIM_MAX_EVENTS UINT64_C(20000000000)

struct serve_sim_config {
	const struct serving_spec *sv;
	bool disaggregated;
	struct serve_pool colocated;          /* !disaggregated */
	struct serve_pool prefill, decode;    /* disaggregated */
	const struct topology *topo;          /* disaggregated: the KV transfers' links */
	uint64_t seed, row_id;
	long max_requests;                    /* stop past this many (0: SERVE_SIM_REQUESTS_STOP; the tests' less) */
	size_t exact_max;                     /* latencies kept for exact percentiles (0: QUANTILE_EXACT_MAX; the tests' less) */
};

/* Why serve_sim_run could not run a load (its negative returns; added
 * beside the original -1 so that serve_run can give the right status). */
enum serve_sim_failure {
	SERVE_SIM_KV = -1,            /* a request can never fit a replica's KV cache */
	SERVE_SIM_UNSCHEDULABLE = -2, /* a configuration no step can serve (a prompt over the budget) */
	SERVE_SIM_TOO_LONG = -3       /* past the event or request limit */
};

#endif
