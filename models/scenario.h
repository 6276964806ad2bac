/*
 * scenario: scenario files (INTERFACES.md) read into plain C records.
 *
 * scenario_load() reads a JSON file (or standard input for "-"), applies the
 * --set overrides to the JSON tree, merges any catalog overrides the scenario
 * names, checks every key, type, range and catalog name, and resolves each
 * candidate cluster against the catalog (preset values, then the fields the
 * candidate gives). Every failure is one message naming the file, the JSON
 * path and the value. The loaded scenario owns copies of everything it
 * needs, so the catalog may be freed after loading. Never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_H
#define CLUSTERSIM_MODELS_SCENARIO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/catalog.h"
#include "util/error.h"

/* A parallel-plan field the planner chooses. */
#define PLAN_AUTO (-1)

enum workload_kind { WORKLOAD_TRAINING, WORKLOAD_FINETUNE, WORKLOAD_INFERENCE, WORKLOAD_COLLECTIVE };
extern const char *const workload_kind_names[];

enum schedule_kind { SCHED_GPIPE, SCHED_1F1B, SCHED_INTERLEAVED, SCHED_ZB_H1 };
extern const char *const schedule_names[];

enum recompute_kind { RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };
extern const char *const recompute_names[];

/* Fields are PLAN_AUTO where the planner decides. */
struct parallel_plan {
	int tp, pp, vpp, dp, cp, ep, zero, micro_batch;
	int schedule;           /* enum schedule_kind or PLAN_AUTO */
	int recompute;          /* enum recompute_kind or PLAN_AUTO */
	int sequence_parallel;  /* 0, 1 or PLAN_AUTO */
	char order[32];         /* rank placement, "" = tp-cp-pp-dp */
	bool tp_comm_overlap;   /* TP collectives overlapped with GEMMs (userbuffers) */
};

/* Kernel-time calibration a user can give from their own measurements;
 * 0 means "use the catalog" (GEMM) or the global default. */
struct kernel_calibration {
	double gemm_efficiency;   /* fraction of dense peak large GEMMs reach */
	double attention_efficiency;
	double hbm_efficiency;    /* fraction of HBM bandwidth memory-bound kernels reach */
	double launch_s;          /* fixed cost per kernel; < 0: the global default */
	bool flash_attention;
};

enum training_mode { TRAIN_REPRESENTATIVE, TRAIN_FULL };
extern const char *const training_mode_names[];

struct checkpoint_spec {
	bool enabled;
	double interval_s;      /* < 0: "auto" (Young/Daly) */
	char tier[CAT_NAME_MAX];
	bool async;
};

enum failure_dist { FAIL_EXPONENTIAL, FAIL_WEIBULL };
extern const char *const failure_dist_names[];

struct failure_spec {
	bool enabled;
	char preset[CAT_NAME_MAX];  /* "llama3", "none" or "" when given as numbers */
	double gpu_mtbf_h;          /* 0 = no GPU failures */
	double node_mtbf_h;         /* 0 = no node failures */
	enum failure_dist distribution;
	double shape;               /* Weibull shape */
	double restart_s;
	int spare_nodes;
};

enum finetune_method { FINETUNE_FULL, FINETUNE_LORA, FINETUNE_QLORA };
extern const char *const finetune_method_names[];

struct finetune_spec {
	enum finetune_method method;
	int rank;
	char targets[CAT_NAME_MAX];  /* "attn", "mlp", "attn+mlp" */
};

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

enum collective_op {
	COLL_ALL_REDUCE, COLL_REDUCE_SCATTER, COLL_ALL_GATHER, COLL_ALL_TO_ALL,
	COLL_BROADCAST, COLL_SEND_RECV, COLL_OP_COUNT
};
extern const char *const collective_op_names[];

enum collective_algo { ALGO_AUTO, ALGO_RING, ALGO_TREE, ALGO_HIERARCHICAL, ALGO_NVLS, ALGO_COUNT };
extern const char *const collective_algo_names[];

enum collective_fidelity { FIDELITY_ANALYTIC, FIDELITY_FLOWS };
extern const char *const collective_fidelity_names[];

struct collective_spec {
	enum collective_op op;
	enum collective_algo algorithm;
	enum collective_fidelity fidelity;
	double *bytes;              /* owned */
	size_t n_bytes;
};

struct workload_spec {
	enum workload_kind kind;
	bool has_model;
	struct model_spec model;
	enum precision precision;
	int seq_len;
	double global_batch_tokens;
	double tokens;              /* total tokens to train on; 0 = one step only */
	double examples, epochs;    /* finetune data, when given instead of tokens */
	struct parallel_plan plan;
	struct kernel_calibration kernels;
	enum training_mode mode;
	struct checkpoint_spec checkpoint;
	struct failure_spec failures;
	struct finetune_spec finetune;
	struct serving_spec serving;
	struct collective_spec collective;
};

struct storage_tier {
	char tier[CAT_NAME_MAX];    /* the label checkpoints refer to */
	struct storage_spec spec;
};

struct price_quote {
	bool known;
	double usd_per_gpu_hour;
	double usd_per_gpu_hour_low, usd_per_gpu_hour_high;
	double billing_s;
	char provider[CAT_NAME_MAX];
	enum price_type type;
	char term[CAT_NAME_MAX];
	char observed[CAT_TEXT_MAX];
	char basis[CAT_TEXT_MAX];  /* where the price came from, in words */
};

/* One candidate cluster, resolved against the catalog. */
struct cluster_spec {
	char name[CAT_TEXT_MAX];
	char preset[CAT_NAME_MAX];
	struct gpu_spec gpu;
	int nodes;
	int gpus_per_node;
	struct fabric_spec scale_up;
	bool has_host;
	struct fabric_spec host;     /* the GPU's host link (PCIe), for paths through the host */
	bool has_nic;
	struct fabric_spec nic;
	int nics_per_node;
	struct topology_spec topology;
	struct storage_tier storage[CAT_STORAGE_MAX];
	int n_storage;
	struct price_quote price;
	double node_power_w;
};

struct monte_carlo_spec {
	int trials;
};

struct objective_spec {
	double deadline_h;  /* 0 = none */
	double budget_usd;  /* 0 = none */
};

/* A published figure the scenario reproduces (scenarios/validation). */
struct validation_spec {
	bool present;
	char id[CAT_NAME_MAX * 2];
	char metric[CAT_NAME_MAX];   /* a result column, or samples_per_s, busbw_per_nic_GBps */
	double published;
	char source[CAT_NOTE_MAX];
};

struct scenario {
	char name[CAT_TEXT_MAX];
	char file[1024];
	uint64_t seed;
	struct workload_spec workload;
	struct cluster_spec *candidates;  /* owned */
	size_t n_candidates;
	struct monte_carlo_spec monte_carlo;
	struct objective_spec objective;
	struct validation_spec validation;
};

/* A --set PATH=VALUE override, borrowed strings. */
struct scenario_override {
	const char *path;
	const char *value;
};

/*
 * Load `file` ("-" = standard input) into *s. Overrides are applied in order
 * before checking. The scenario's own catalog additions are merged into
 * `cat`, which must stay alive during the call. A seed_override >= 0
 * replaces the scenario's seed. Returns 0, or -1 with err set (input error).
 */
int scenario_load(const char *file, const struct scenario_override *overrides, size_t n_overrides,
		  int64_t seed_override, catalog *cat, struct scenario *s, struct cs_error *err);

/* Same from a parsed document (borrowed); `file` names it and anchors relative paths. */
int scenario_from_json(json_t *root, const char *file, catalog *cat, struct scenario *s,
		       struct cs_error *err);

/* Read a JSON document from a file or "-" with duplicate keys rejected.
 * Returns a new reference, or NULL with err set. */
json_t *scenario_read_json(const char *what, const char *file, struct cs_error *err);

/*
 * Apply one PATH=VALUE override to a JSON tree. PATH is keys and [index]es
 * (workload.parallelism.tp, candidates[0].nodes); VALUE is parsed as JSON and
 * taken as a string when it is not JSON. Missing objects on the way are
 * created; an index may be at most the array's length (which appends).
 */
int scenario_apply_set(json_t *root, const char *what, const char *file, const char *path,
		       const char *value, struct cs_error *err);

/* Parse "PATH=VALUE" into an override; false when there is no '=' or no path. */
bool scenario_parse_set(const char *arg, struct scenario_override *out);

void scenario_release(struct scenario *s);

/* Total GPUs of a candidate. */
static inline long cluster_gpus(const struct cluster_spec *c)
{
	return (long)c->nodes * c->gpus_per_node;
}

#endif
