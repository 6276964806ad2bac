/*
 * hw: the hardware records, as the catalog holds them and as a candidate
 * cluster resolves them.
 *
 * GPUs, fabrics, storage tiers, node presets, prices and model shapes are
 * catalog entries, each keeping the source of its numbers; struct
 * cluster_spec is one candidate cluster with every field resolved against
 * the catalog (preset values, then what the scenario gives). Plain records
 * only: reading them is hw/catalog.c's job and the scenario reader's.
 * Internal units: bytes, bytes per second, FLOP/s, seconds, watts, dollars.
 */
#ifndef CLUSTERSIM_MODELS_HW_HW_H
#define CLUSTERSIM_MODELS_HW_HW_H

#include <stdbool.h>
#include <stddef.h>

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

/* A GPU's FP4 GEMM fraction when the catalog has no FP4 measurement (no
 * mamf_fp4): this times its FP8 fraction, an assumption the rows computing
 * in FP4 name. 0.76 is the one measured ratio, B200's: 0.582 FP4 (5239 of
 * 9000 TFLOP/s, MXFP4 with cuBLASLt 13.3, deepseek-ai/DeepGEMM PR #348's
 * baseline: the vendor library, as MAMF is measured) over 0.763 FP8 (3432.5
 * of 4500, stas00/ml-engineering MAMF table). */
extern const double catalog_fp4_over_fp8_mamf;

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
	/* The catalog's measured FP4 fraction (mamf_fp4); 0 = none measured:
	 * mamf[PREC_FP4] is then the assumption of catalog_fp4_over_fp8_mamf
	 * and mamf_fp4_assumed is set, for rows computing in FP4 to name. */
	double mamf_fp4_measured;
	bool mamf_fp4_assumed;
	char mamf_note[CAT_NOTE_MAX];
	char scale_up[CAT_NAME_MAX];    /* default scale-up fabric */
	double scale_up_bytes_per_s;    /* per GPU per direction */
	char host_link[CAT_NAME_MAX];
	double tdp_w;
	int year;
	int sms;                        /* streaming multiprocessors (AMD: compute units); 0 = not known */
	char sms_source[CAT_TEXT_MAX];
	double mem_bw_measured_bytes_per_s; /* measured streaming (STREAM copy) rate; 0 = not measured */
	char mem_bw_source[CAT_TEXT_MAX];
	/* Training attention (FlashAttention forward and backward) over BF16
	 * GEMMs, FLOP rate to FLOP rate inside one training step (catalog
	 * attn_train_over_gemm); 0 = none: the global attention factor
	 * (models/kernel/roofline.c). attn_train_assumed: the ratio is carried
	 * over, not measured on this GPU, and rows training on it say so. */
	double attn_train_over_gemm;
	bool attn_train_assumed;
	char attn_train_note[CAT_NOTE_MAX];
	/* The calibration its measured fields come from (catalog calibration,
	 * written by `clustersim calibrate`); "" = the catalog's own. Rows
	 * computed on it name it ("calibrated: ..."). */
	char calibration[CAT_TEXT_MAX];
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
	bool direct_collectives;      /* mesh: the library exchanges with every peer at once (RCCL on xGMI) */
	char calibration[CAT_TEXT_MAX]; /* as gpu_spec's: "" = the catalog's own figures */
};

enum storage_kind { STORAGE_LOCAL_NVME, STORAGE_PARALLEL_FS, STORAGE_OBJECT, STORAGE_MANAGED_LUSTRE };
extern const char *const storage_kind_names[];

/* Whether a tier of kind k is shared by every node (a file system or an
 * object store reached over the network) and so must give a finite total
 * rate, `aggregate_GBps`: node-local NVMe scales with the nodes (each node
 * writes to its own drives) and managed Lustre is sized by capacity. */
static inline bool storage_needs_aggregate(enum storage_kind k)
{
	return k == STORAGE_PARALLEL_FS || k == STORAGE_OBJECT;
}

/* The words that say what a shared tier without a total rate must give. */
static inline const char *storage_aggregate_hint(enum storage_kind k)
{
	return k == STORAGE_OBJECT
		? "an object-store tier is shared by every node and needs its total rate in GB/s "
		  "(0 no longer means unlimited): give aggregate_GBps, e.g. 56"
		: "a parallel-fs tier is shared by every node and needs its total rate in GB/s "
		  "(0 no longer means unlimited): give aggregate_GBps, the servers' or appliances' total, "
		  "e.g. 4 appliances x 80 GB/s = 320";
}

struct storage_spec {
	struct catalog_id id;
	enum storage_kind kind;
	double read_bytes_per_s_per_node;
	double write_bytes_per_s_per_node;
	double aggregate_bytes_per_s;  /* 0 = scales with nodes */
	double latency_s;
	/* managed Lustre, sized by capacity: aggregate = capacity x throughput per TiB */
	double bytes_per_s_per_tib;    /* the tier's MB/s per TiB, in bytes/s */
	double min_capacity_tib;       /* the provider's smallest file system; 0 = not known */
	double capacity_tib;           /* a candidate's tier: its size; 0 in the catalog */
	/* what holding data there costs (docs/explanation/whole-run.md, "Storage
	 * dollars"): USD per TB-month (1 TB = 1e12 bytes, a month = 730.5 h),
	 * of the bytes held, or for managed Lustre of the capacity provisioned;
	 * 0: in the instance price (node-local NVMe); < 0: no price known */
	double usd_per_tb_month;
	double egress_usd_per_gb;      /* data leaving the provider, per 1e9 bytes; < 0: not known */
	char price_source[CAT_NOTE_MAX]; /* where and when the prices were read */
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
	double purchase_usd;           /* a node's list price, for the owned basis; 0: none */
	char purchase_source[CAT_TEXT_MAX]; /* where and when, and how sure (secondary) */
	int n_storage;
	char provider[CAT_NAME_MAX];
	char offering[CAT_NAME_MAX];
	double node_power_w;
	char price_checked[CAT_TEXT_MAX]; /* where a price was looked for, when the catalog has none */
};

/* owned: a scenario's basis only; capacity-block: capacity booked for a
 * fixed duration and paid up front (AWS EC2 Capacity Blocks for ML, GCP
 * DWS calendar mode), billed in whole blocks (struct billing_spec's block_h) */
enum price_type { PRICE_ON_DEMAND, PRICE_SPOT, PRICE_RESERVED, PRICE_OWNED, PRICE_CAPACITY_BLOCK };
extern const char *const price_type_names[];

/* The name of a price type with its commitment term, as search.price_types
 * and the price_type result column spell it: "reserved-1y" for a reserved
 * price of term "1y", the type's own name otherwise (a reserved price
 * without a term, every other type). Into buf of at least
 * PRICE_TYPE_LABEL_MAX bytes, which holds any (a term is a CAT_NAME_MAX text). */
#define PRICE_TYPE_LABEL_MAX (CAT_NAME_MAX + 16)
void price_type_label(enum price_type type, const char *term, char *buf, size_t size);

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
	double billing_s;                  /* 0: the provider's billing record's granularity */
	double minimum_s;                  /* 0 with billing_s 0: the record's minimum */
	char observed[CAT_TEXT_MAX];       /* ISO date: YYYY-MM-DD or YYYY-MM */
	char observed_note[CAT_TEXT_MAX];  /* how the date was read (window, inferred, ...) */
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
	/* Multi-head Latent Attention (DeepSeek-V2/V3), when kv_lora_rank > 0:
	 * keys and values come from a kv_lora_rank latent (cached instead of K
	 * and V), queries from a q_lora_rank latent (0: projected directly);
	 * head_dim is the no-rope query/key width and the value width, and
	 * qk_rope_dim the rotary part every head adds to its query and key. */
	int q_lora_rank;
	int kv_lora_rank;
	int qk_rope_dim;
	int ffn;
	enum mlp_kind mlp;
	int vocab;
	int experts;           /* 0 = dense */
	int experts_active;
	int expert_ffn;
	int shared_experts;
	int dense_layers;      /* leading dense layers of an MoE */
	int mtp_layers;        /* multi-token prediction modules trained with it
				* (DeepSeek-V3, arXiv:2412.19437 section 2.2;
				* Megatron-Core's --mtp-num-layers): each one more
				* transformer layer, a 2h -> h projection and a pass
				* of the shared output head and loss; 0: none */
	bool tied_embeddings;
	bool dropout;          /* trained with dropout (its masks are kept) */
	double params_b;       /* published, for checks */
	double active_params_b;
	int max_seq_len;
};

/* How a provider meters held time: every instance is billed for
 * max(minimum_s, held time rounded up to granularity_s). A record applies to
 * the prices of its provider of its type and term ("" = any). */
struct billing_spec {
	char provider[CAT_NAME_MAX];
	char type[CAT_NAME_MAX];      /* a price_type_names entry, or "" */
	char term[CAT_NAME_MAX];      /* "" = any term */
	double granularity_s;
	double minimum_s;
	double spot_notice_s;         /* a spot instance's preemption notice; < 0: not known */
	char spot_notice_source[CAT_NAME_MAX];
	/* A booking of fixed length paid up front (type capacity-block): a run
	 * books whole blocks of block_h (at least one); past block_long_after_h
	 * the length goes in steps of block_long_h; one booking is at most
	 * block_max_h, a longer hold books several. 0: not a block rule. */
	double block_h, block_long_after_h, block_long_h, block_max_h;
	char source[CAT_TEXT_MAX];
	char confidence[CAT_NAME_MAX];
	char note[CAT_NOTE_MAX];
};

/*
 * The global constants of one engine's step model (catalog section
 * "engines"): a serving engine's (workload.serving.engine: vllm-v0,
 * vllm-v1, trtllm, sglang) or training's (the entry "training": every
 * training and fine-tuning workload). Only the names in catalog_engine_names
 * are entries: the model knows no other engine. `clustersim calibrate` fits
 * them from a user's own runs and writes them in an overlay, as it does a
 * GPU's rates; docs/explanation/calibration.md says how the built-in values
 * were set.
 */
enum engine_kind { ENGINE_SERVING, ENGINE_TRAINING };

/* Every engine entry's name, NULL-terminated, and the kind of each. */
extern const char *const catalog_engine_names[];
extern const enum engine_kind catalog_engine_kinds[];

struct engine_spec {
	struct catalog_id id;
	enum engine_kind kind;        /* from its name */
	/* serving: a step's host time the GPU does not hide (step_overhead_ms),
	 * the host time per sequence of a step (seq_overhead_us), the fixed
	 * time of each kernel beyond its roofline (kernel_us), the fraction of
	 * the GPU's MAMF its GEMMs reach (gemm_over_mamf) and of HBM bandwidth
	 * its memory-bound work reaches (hbm_efficiency) */
	double step_overhead_s;
	double seq_overhead_s;
	double kernel_s;
	double gemm_over_mamf;
	double hbm_efficiency;
	/* training: the fraction of overlapped communication time computation
	 * still loses (overlap_slowdown), the same for an expert all-to-all
	 * beside 1F1B's other micro-batch (ep_overlap_slowdown), and the spread
	 * of GPUs' speed that makes a step wait for its slowest rank
	 * (straggler_sigma) */
	double overlap_slowdown;
	double ep_overlap_slowdown;
	double straggler_sigma;
	char calibration[CAT_TEXT_MAX]; /* as gpu_spec's: "" = the catalog's own figures */
};

struct catalog_source {
	char id[CAT_NAME_MAX];
	char text[CAT_NOTE_MAX];
};

struct storage_tier {
	char tier[CAT_NAME_MAX];    /* the label checkpoints refer to */
	struct storage_spec spec;
};

struct price_quote {
	bool known;
	double usd_per_gpu_hour;
	double usd_per_gpu_hour_low, usd_per_gpu_hour_high;
	/* years from the catalog row's observed date to the catalog's as_of (0:
	 * a price of the scenario's, or a date missing): with low and high, the
	 * price's band (cost/price_band.h) */
	double age_years;
	double billing_s;           /* granularity: a started period is paid whole */
	double minimum_s;           /* the least time an instance is billed for */
	/* a capacity block's booking (billing_spec's block_ fields, in seconds);
	 * block_s 0: billed by billing_s and minimum_s */
	double block_s, block_long_after_s, block_long_s, block_max_s;
	/* a reserved price's: the catalog's on-demand price of the same offering
	 * (0: none), for the commitment's break-even (cost/billing.h) */
	double on_demand_usd_per_gpu_hour;
	char provider[CAT_NAME_MAX];
	enum price_type type;
	char term[CAT_NAME_MAX];
	char observed[CAT_TEXT_MAX];
	char basis[CAT_TEXT_MAX];  /* where the price came from, in words */
	char missing[CAT_NOTE_MAX]; /* why there is no price (a preset the catalog cannot price) */
	char stale[CAT_NOTE_MAX];   /* a warning when the catalog price is over a year older than its as_of */
	/* a spot price's preemptions, given by the scenario (no catalog has a sourced rate) */
	double preemptions_per_instance_h;  /* < 0: not given */
	double preemption_notice_s;         /* the scenario's, else the provider's billing record's; < 0: not known */
	double capacity_wait_s;             /* after a preemption, until capacity is back */
	/* the owned basis's split (cost/owned.h), per GPU-hour: the fixed costs
	 * (amortized purchase, colocation) at full use, and energy; and the
	 * utilization usd_per_gpu_hour assumes */
	double owned_fixed_usd_per_gpu_hour, owned_energy_usd_per_gpu_hour, owned_utilization;
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

/* Total GPUs of a candidate. */
static inline long cluster_gpus(const struct cluster_spec *c)
{
	return (long)c->nodes * c->gpus_per_node;
}

#endif
