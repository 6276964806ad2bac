/*
 * catalog: GPUs, fabrics, storage tiers, node presets, prices and model shapes.
 *
 * The catalog is data: the JSON files in scenarios/catalog/ are compiled into
 * the binary (so clustersim works from any directory) and parsed here into
 * plain records, each keeping the source of its numbers. A user's JSON file
 * of the same form can add entries or override fields of existing ones (an
 * entry whose name matches is merged field by field; prices are prepended so
 * they win lookups). Names match case-insensitively, as do aliases.
 *
 * Internal units: bytes, bytes per second, FLOP/s, seconds, watts, US dollars.
 * Conversion from the JSON units (GiB, GB/s, TFLOP/s, us, ms) happens here.
 * This module never prints.
 */
#ifndef CLUSTERSIM_MODELS_CATALOG_H
#define CLUSTERSIM_MODELS_CATALOG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

#define CAT_NAME_MAX 64
#define CAT_ALIASES_MAX 16
#define CAT_TEXT_MAX 256
#define CAT_NOTE_MAX 1024
#define CAT_STORAGE_MAX 4

/* Numeric precisions with their own peak rate. fp16 shares bf16's rate. */
enum precision {
	PREC_FP64,
	PREC_FP32,
	PREC_TF32,
	PREC_BF16,
	PREC_FP16,
	PREC_FP8,
	PREC_FP4,
	PREC_COUNT
};

/* "fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "fp4". */
extern const char *const precision_names[PREC_COUNT + 1];

/* Bytes per element of a precision (fp4: 0.5). */
double precision_bytes(enum precision p);

/* Name, aliases and provenance shared by every named entry. */
struct catalog_id {
	char name[CAT_NAME_MAX];
	char aliases[CAT_ALIASES_MAX][CAT_NAME_MAX];
	int n_aliases;
	char description[CAT_TEXT_MAX];
	char source[CAT_TEXT_MAX];
	char confidence[CAT_NAME_MAX];
	char note[CAT_NOTE_MAX];
};

struct gpu_spec {
	struct catalog_id id;
	char vendor[CAT_NAME_MAX];
	double memory_gib;
	double memory_bytes;
	double mem_bw_bytes_per_s;
	double peak_flops[PREC_COUNT];  /* dense; 0 = unsupported */
	double mamf[PREC_COUNT];        /* achievable fraction of peak for large GEMMs */
	char mamf_note[CAT_NOTE_MAX];
	char scale_up[CAT_NAME_MAX];    /* default scale-up fabric */
	double scale_up_bytes_per_s;    /* per GPU per direction */
	char host_link[CAT_NAME_MAX];
	double tdp_w;
	int year;
};

enum fabric_kind { FABRIC_SCALE_UP, FABRIC_HOST, FABRIC_SCALE_OUT };
extern const char *const fabric_kind_names[];

enum fabric_topology { FTOPO_SWITCH, FTOPO_MESH, FTOPO_BRIDGE, FTOPO_HOST, FTOPO_NONE };
extern const char *const fabric_topology_names[];

struct fabric_spec {
	struct catalog_id id;
	enum fabric_kind kind;
	enum fabric_topology topology;
	int domain_gpus;
	double bw_bytes_per_s;        /* scale-up: per GPU per direction; else per port */
	double pair_bytes_per_s;      /* mesh/bridge: per pair per direction */
	double line_rate_gbps;
	double latency_s;             /* one-way small-message latency per hop */
	double efficiency;            /* large ring all-reduce busbw / bw */
	double nvls_algbw_efficiency; /* 0 = no in-switch reduction */
};

enum storage_kind { STORAGE_LOCAL_NVME, STORAGE_PARALLEL_FS, STORAGE_OBJECT };
extern const char *const storage_kind_names[];

struct storage_spec {
	struct catalog_id id;
	enum storage_kind kind;
	double read_bytes_per_s_per_node;
	double write_bytes_per_s_per_node;
	double aggregate_bytes_per_s;  /* 0 = scales with nodes */
	double latency_s;
};

enum topology_kind { TOPO_RAIL, TOPO_FAT_TREE };
extern const char *const topology_kind_names[];

struct topology_spec {
	enum topology_kind kind;
	double oversubscription;  /* downlink : uplink at the leaves, >= 1 */
	int nodes_per_leaf;
};

struct preset_spec {
	struct catalog_id id;
	char gpu[CAT_NAME_MAX];
	int gpus_per_node;
	char scale_up[CAT_NAME_MAX];
	char nic[CAT_NAME_MAX];
	int nics_per_node;
	struct topology_spec topology;
	char storage[CAT_STORAGE_MAX][CAT_NAME_MAX];
	int n_storage;
	char provider[CAT_NAME_MAX];
	char offering[CAT_NAME_MAX];
	double node_power_w;
};

enum price_type { PRICE_ON_DEMAND, PRICE_SPOT, PRICE_RESERVED };
extern const char *const price_type_names[];

struct price_spec {
	char provider[CAT_NAME_MAX];
	char offering[CAT_NAME_MAX];
	char gpu[CAT_NAME_MAX];
	int gpus_per_instance;
	enum price_type type;
	char term[CAT_NAME_MAX];
	char region[CAT_TEXT_MAX];
	double usd_per_gpu_hour;
	double usd_per_gpu_hour_low;
	double usd_per_gpu_hour_high;
	double billing_s;
	char observed[CAT_TEXT_MAX];
	char source[CAT_TEXT_MAX];
	char confidence[CAT_NAME_MAX];
	char note[CAT_NOTE_MAX];
};

enum mlp_kind { MLP_GELU, MLP_SWIGLU };
extern const char *const mlp_kind_names[];

struct model_spec {
	struct catalog_id id;
	int layers;
	int hidden;
	int heads;
	int kv_heads;
	int head_dim;          /* 0 = hidden / heads */
	int ffn;
	enum mlp_kind mlp;
	int vocab;
	int experts;           /* 0 = dense */
	int experts_active;
	int expert_ffn;
	int shared_experts;
	int dense_layers;      /* leading dense layers of an MoE */
	bool tied_embeddings;
	bool dropout;          /* trained with dropout (its masks are kept) */
	double params_b;       /* published, for checks */
	double active_params_b;
	int max_seq_len;
};

struct catalog_source {
	char id[CAT_NAME_MAX];
	char text[CAT_NOTE_MAX];
};

typedef struct catalog catalog;

/* The built-in catalog. Caller frees with catalog_free(). Fails only if the
 * compiled-in data is broken (a bug, reported as a runtime error). */
catalog *catalog_new_builtin(struct cs_error *err);
void catalog_free(catalog *c);

/* A deep copy (to merge a scenario's additions into without touching the
 * original). Caller frees. */
catalog *catalog_copy(const catalog *c);

/* Merge a user's catalog file (same form as the files in scenarios/catalog). */
int catalog_merge_file(catalog *c, const char *path, struct cs_error *err);

/* Merge a parsed document; `what` and `file` name it in messages, and
 * path_prefix (or NULL) is where it sits in a larger document. Borrows root. */
int catalog_merge_json(catalog *c, const json_t *root, const char *what, const char *file,
		       const char *path_prefix, struct cs_error *err);

/* Lookups by name or alias, case-insensitive; NULL when unknown. */
const struct gpu_spec *catalog_gpu(const catalog *c, const char *name);
const struct fabric_spec *catalog_fabric(const catalog *c, const char *name);
const struct storage_spec *catalog_storage(const catalog *c, const char *name);
const struct preset_spec *catalog_preset(const catalog *c, const char *name);
const struct model_spec *catalog_model(const catalog *c, const char *name);

/* Iteration. */
size_t catalog_gpu_count(const catalog *c);
const struct gpu_spec *catalog_gpu_at(const catalog *c, size_t i);
size_t catalog_fabric_count(const catalog *c);
const struct fabric_spec *catalog_fabric_at(const catalog *c, size_t i);
size_t catalog_storage_count(const catalog *c);
const struct storage_spec *catalog_storage_at(const catalog *c, size_t i);
size_t catalog_preset_count(const catalog *c);
const struct preset_spec *catalog_preset_at(const catalog *c, size_t i);
size_t catalog_price_count(const catalog *c);
const struct price_spec *catalog_price_at(const catalog *c, size_t i);
size_t catalog_model_count(const catalog *c);
const struct model_spec *catalog_model_at(const catalog *c, size_t i);
size_t catalog_source_count(const catalog *c);
const struct catalog_source *catalog_source_at(const catalog *c, size_t i);

/* Sections for suggestions and messages. */
enum catalog_section { CAT_GPUS, CAT_FABRICS, CAT_STORAGE, CAT_PRESETS, CAT_MODELS };

/* Write `, did you mean "x", "y"?` for a misspelt name of a section (or ""). */
void catalog_suggest(const catalog *c, enum catalog_section section, const char *wanted,
		     char *buf, size_t size);

/*
 * The first price matching provider (required), type, and then offering (if
 * non-empty) or gpu (if non-empty) and term (if non-empty); NULL if none.
 */
const struct price_spec *catalog_price_find(const catalog *c, const char *provider,
					    enum price_type type, const char *offering,
					    const char *gpu, const char *term);

/* True when any price has this provider. */
bool catalog_provider_known(const catalog *c, const char *provider);

/* Check cross references (preset -> gpu/fabric/storage, price -> gpu). The
 * message names the entry, not the file: callers add that with error_prefix(). */
int catalog_check(const catalog *c, struct cs_error *err);

/* Default parse of a model object (catalog form); used by scenario files too.
 * `base` (may be NULL) supplies values for keys the object leaves out. */
struct jread;
int catalog_read_model(struct jread *r, const json_t *obj, const struct model_spec *base,
		       struct model_spec *out);

#endif
