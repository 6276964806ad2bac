/*
 * train_types: the records of one training step and its plan, and the
 * names of their choices.
 *
 * The spec (model, batch, requested plan: struct train_spec with struct
 * parallel_plan), the plan with every field decided (struct train_plan),
 * the memory and the result of a step, the enums of their choices with
 * their names as the scenario spells them (train_types.c), and the bytes
 * per element the step is costed with. Every module of models/train/
 * includes this header; it includes none of them but layout.h (a plan's
 * pipeline layout is a record of its own), so the folder has no include
 * circle: train.h, the entry point, sits on top. It never includes jansson
 * or the scenario reader: the scenario fills these records.
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_TRAIN_TYPES_H
#define CLUSTERSIM_MODELS_TRAIN_TRAIN_TYPES_H

#include <stdbool.h>

#include "models/hw/hw.h"
#include "models/kernel/roofline.h"
#include "models/kernel/transformer.h"
#include "models/kernel/workload_model.h"
#include "models/train/layout.h"
#include "util/outcome.h"

/* Bytes per element of activations, weights and 16-bit gradients (a
 * plan's gradients are train_plan.grad_bytes: 4 by default), and
 * of mixed-precision Adam's fp32 master weights, momentum and variance
 * (Rajbhandari et al. 2020, ZeRO, section 3.1; docs/explanation/training.md). */
#define TRAIN_ACT_BYTES 2.0
#define TRAIN_WEIGHT_BYTES 2.0
#define TRAIN_GRAD_BYTES 2.0
#define TRAIN_OPTIMIZER_BYTES 12.0

/* Adam's moments (parallelism.optimizer_moments): fp32 (the default), or
 * bf16 as DeepSeek-V3 keeps them (arXiv:2412.19437, 3.3.3) and Megatron's
 * precision-aware optimizer does with --exp-avg-dtype and
 * --exp-avg-sq-dtype bf16; the master weights stay fp32. */
enum optimizer_moments { MOMENTS_FP32, MOMENTS_BF16 };
extern const char *const optimizer_moments_names[];

/* Optimizer bytes per trained parameter: the fp32 master copy and the two
 * moments (12 with fp32 moments, 8 with bf16). */
double train_optimizer_bytes(int moments);

/* How the layers are cut into virtual pipeline stages. SPLIT_LAYERS: the
 * layers evenly (Megatron's default); SPLIT_EMBEDDING_LOSS: the input
 * embedding and the output layer with the loss each take one layer's slot,
 * so the first and the last virtual stage hold one layer fewer (Megatron's
 * --account-for-embedding-in-pipeline-split and
 * --account-for-loss-in-pipeline-split; Llama 3 405B, arXiv:2407.21783,
 * section 3.3.2: "the first model chunk on the first stage has only the
 * embedding, and the last model chunk on the last stage has only output
 * projection and loss calculation"). */
enum pipeline_split { SPLIT_LAYERS, SPLIT_EMBEDDING_LOSS };
extern const char *const pipeline_split_names[];

/* Element type of the data-parallel gradient buffer and its reduction.
 * GRAD_REDUCE_AUTO (the default, 0): fp32 unless the run is fp16 (then
 * 16-bit), as Megatron: a bf16 run sets accumulate_allreduce_grads_in_fp32
 * unless --grad-reduce-in-bf16 is given (megatron/training/arguments.py,
 * validate_args); an fp16 run keeps 16-bit gradients. */
enum grad_reduce { GRAD_REDUCE_AUTO, GRAD_REDUCE_FP32, GRAD_REDUCE_BF16 };
extern const char *const grad_reduce_names[];

/* A parallel-plan field the planner chooses. */
#define PLAN_AUTO (-1)

/*
 * Settings besides the degrees that the plan search may choose
 * (parallel_plan.search_levers, docs/explanation/training.md "The plan search"). The
 * first three change no numerics: with `"parallelism": "auto"` they are
 * searched, in an object only when given as "auto". The others change
 * what is computed or kept in lower precision, and are searched only when
 * workload.search_numerics names them.
 */
enum search_lever {
	LEVER_PIPELINE_SPLIT = 1 << 0,    /* pipeline_split: layers or embedding+loss */
	LEVER_FREE_STAGE_INPUT = 1 << 1,  /* free_stage_input */
	LEVER_RECOMPUTE_MODULES = 1 << 2, /* what a selective recompute recomputes */
	LEVER_GRAD_REDUCE_BF16 = 1 << 3,  /* numerics: bf16 gradient reduction */
	LEVER_MOMENTS_BF16 = 1 << 4,      /* numerics: bf16 Adam moments */
	LEVER_DISPATCH_FP8 = 1 << 5,      /* numerics: fp8 MoE dispatch */
	LEVER_FP8_ACT_CACHE = 1 << 6      /* numerics: fp8 activation cache */
};
#define LEVERS_NO_NUMERICS (LEVER_PIPELINE_SPLIT | LEVER_FREE_STAGE_INPUT | LEVER_RECOMPUTE_MODULES)
/* workload.search_numerics' names, in enum search_lever's order from
 * LEVER_GRAD_REDUCE_BF16 on, NULL-terminated. */
extern const char *const search_numerics_names[];

enum schedule_kind { SCHED_GPIPE, SCHED_1F1B, SCHED_INTERLEAVED, SCHED_ZB_H1, SCHED_DUALPIPEV };
extern const char *const schedule_names[];

/* How the MoE dispatch and combine all-to-alls overlap computation
 * (parallelism.moe_a2a_overlap; docs/explanation/training.md): not at all (the default,
 * Megatron-Core's unless --overlap-moe-expert-parallel-comm is given), behind
 * another micro-batch's pass in the 1F1B steady state (Megatron-Core's EP
 * a2a overlap), or everywhere (DeepSeek-V3's DualPipe). */
enum moe_overlap { MOE_OVERLAP_NONE, MOE_OVERLAP_1F1B, MOE_OVERLAP_DUALPIPE };
extern const char *const moe_overlap_names[];

/* The format of the MoE all-to-all that carries tokens to the experts
 * (parallelism.moe_dispatch_precision): bf16 both ways (the default,
 * Megatron-Core's dispatchers), or fp8 for the dispatch and for the
 * gradient sent back to the experts' outputs, with one fp32 scale per 128
 * values, the combines staying bf16 (DeepSeek-V3, arXiv:2412.19437 section
 * 3.3.3, "Low-Precision Communication"). */
enum moe_dispatch { MOE_DISPATCH_BF16, MOE_DISPATCH_FP8 };
extern const char *const moe_dispatch_names[];

/* Fields are PLAN_AUTO where the planner decides. */
struct parallel_plan {
	int tp, pp, vpp, dp, cp, ep, zero, micro_batch;
	int schedule;           /* enum schedule_kind or PLAN_AUTO */
	int recompute;          /* enum recompute_kind or PLAN_AUTO */
	int recompute_modules;  /* what a selective recompute recomputes: a mask of
				 * enum recompute_module (RECMOD_DEFAULT: core_attn) */
	int sequence_parallel;  /* 0, 1 or PLAN_AUTO */
	char order[32];         /* rank placement, "" = tp-cp-pp-dp */
	bool tp_comm_overlap;   /* TP collectives overlapped with GEMMs (userbuffers) */
	int moe_a2a_overlap;    /* enum moe_overlap (0: none) */
	int moe_max_nodes;      /* node-limited routing: nodes a token may reach (0: unlimited) */
	int moe_dispatch;       /* enum moe_dispatch (0: bf16) */
	double moe_load_imbalance; /* the busiest EP rank's tokens over the mean (1: balanced) */
	int expert_tp;          /* experts' tensor parallelism (MoE parallel folding); 0: tp */
	int pipeline_split;     /* enum pipeline_split (0: even layers) */
	int grad_reduce;        /* enum grad_reduce (0: auto) */
	int optimizer_moments;  /* enum optimizer_moments (0: fp32) */
	bool overlap_param_gather; /* ZeRO-1/2 weight all-gather under the next forward
				    * (default true: docs/explanation/training.md) */
	bool distribute_saved_activations; /* full recompute's checkpointed layer inputs
					    * split over the tp ranks, gathered before
					    * each recompute (Megatron-LM's
					    * --distribute-saved-activations, metaseq's
					    * --distribute-checkpointed-activations) */
	bool fp8_activation_cache; /* DeepSeek-V3's FP8 activation caching
				    * (arXiv:2412.19437, 3.3.3): the attention output
				    * projection's input and the MoE SwiGLU's inputs
				    * kept in FP8, the SwiGLU output recomputed */
	bool host_launch_bound;   /* an eager run (no CUDA graphs): a layer's pass
				   * takes at least the host's time to launch it */
	int recompute_num_layers; /* a full recompute's layer count (Megatron's
				   * --recompute-num-layers; 0: the default, 1) */
	int recompute_method;     /* enum recompute_method (0: uniform) */
	bool activation_func_fp8_input_store; /* a dense MLP's activation keeps its
					       * input in FP8 for the backward
					       * (Megatron-Core's
					       * --activation-func-fp8-input-store) */
	struct pipeline_layout layout; /* Megatron-Core's --pipeline-model-parallel-layout
					* (layout.h); layout.stages 0: none given */
	bool free_stage_input;  /* each pipeline chunk's input freed after its first
				 * layer (Llama 3's early deallocation; default false) */
	unsigned search_levers; /* enum search_lever: what the search may choose besides
				 * the fields above that are PLAN_AUTO */
};

/* How a full recompute spends its recompute_num_layers N (Megatron-LM's
 * --recompute-method): uniform, the layers in groups of N, each group's
 * input kept and the group recomputed whole in the backward (N = 1: every
 * layer's input, the classic full recompute); block, the first N layers of
 * each pipeline chunk recomputed one by one from their inputs, the others
 * keeping all their activations. */
enum recompute_method { RECOMPUTE_UNIFORM, RECOMPUTE_BLOCK };
extern const char *const recompute_method_names[];

enum training_mode { TRAIN_REPRESENTATIVE, TRAIN_FULL };
extern const char *const training_mode_names[];

enum finetune_method { FINETUNE_FULL, FINETUNE_LORA, FINETUNE_QLORA };
extern const char *const finetune_method_names[];

/* How a LoRA/QLoRA finetune stores its frozen base weights (the
 * transformer layers' matrices; embeddings, output layer stay 16-bit).
 * FT_BASE_RUN ("auto"): the format of the run's GEMM operands (fp8 for an
 * fp8 run, bf16 for a bf16 one), or nf4 under QLoRA. Bytes per parameter:
 * memory_base_bytes_per_param (memory.h). */
enum finetune_base {
	FT_BASE_RUN,   /* "auto", the default (0, so a zeroed spec has it) */
	FT_BASE_FP32,
	FT_BASE_BF16,
	FT_BASE_FP16,
	FT_BASE_FP8,
	FT_BASE_FP4,   /* NVFP4: E2M1 values, one E4M3 scale per 16 */
	FT_BASE_NF4,   /* QLoRA's NormalFloat4 with double quantization */
	FT_BASE_COUNT
};
extern const char *const finetune_base_names[FT_BASE_COUNT + 1];

struct finetune_spec {
	enum finetune_method method;
	int rank;
	char targets[CAT_NAME_MAX];  /* "attn", "mlp", "attn+mlp" */
	enum finetune_base base;     /* frozen base's storage; FT_BASE_RUN: the default */
	double mean_example_tokens;  /* tokens per example for examples x epochs; 0: seq_len */
};

/* What one training step needs to know: the model, the batch, the plan and
 * how kernels perform. The whole run (tokens, checkpoints, failures) is
 * run/run.h's. */
struct train_spec {
	const struct workload_model *model; /* the workload's (borrowed): architecture,
					     * precision, kernel calibration */
	int seq_len;
	double global_batch_tokens;
	bool round_batch;             /* round the batch to the nearest one each plan's dp x micro_batch divides */
	struct parallel_plan plan;
	enum training_mode mode;
	bool is_finetune;             /* a finetune workload: finetune says how */
	struct finetune_spec finetune;
};

/* A plan with every field decided. */
struct train_plan {
	int tp, pp, vpp, dp, cp, ep, zero, micro_batch;
	int microbatches;             /* per pipeline per step */
	enum schedule_kind schedule;
	enum recompute_kind recompute;
	int recompute_modules;        /* under a selective recompute: a mask of enum recompute_module */
	bool sp;
	bool tp_overlap;
	enum moe_overlap moe_overlap;
	int moe_max_nodes;            /* 0: unlimited */
	enum moe_dispatch moe_dispatch;
	double moe_imbalance;         /* >= 1: the busiest expert-parallel rank's load over the mean */
	int etp;                      /* experts' tensor parallelism; etp == tp: not folded */
	bool param_gather_overlap;    /* the ZeRO-1/2 weight all-gather overlaps the next forward */
	char order[32];
	enum pipeline_split split;
	bool free_stage_input;        /* parallel_plan.free_stage_input */
	bool distribute_saved;        /* parallel_plan.distribute_saved_activations */
	bool fp8_act_cache;           /* parallel_plan.fp8_activation_cache */
	bool fp8_act_input;           /* parallel_plan.activation_func_fp8_input_store */
	int recompute_layers;         /* parallel_plan.recompute_num_layers, >= 1 */
	bool host_bound;              /* parallel_plan.host_launch_bound */
	int recompute_method;         /* enum recompute_method */
	const struct pipeline_layout *layout; /* the spec's layout (valid while the
					       * train_spec lives), or NULL */
	double grad_bytes;            /* bytes per gradient element held and reduced over data parallel */
	double optimizer_bytes;       /* optimizer bytes per trained parameter (train_optimizer_bytes) */
};

struct train_memory {
	double weights, grads, optimizer, activations, workspace, total;  /* bytes per GPU */
};

/* Seconds of one step on the average pipeline stage; the fields add up to
 * the step time. */
struct train_breakdown {
	double compute;       /* kernels, including recompute */
	double optimizer;
	double comm_tp;       /* tensor-parallel collectives (critical path) */
	double comm_ep;       /* expert all-to-alls (critical path) */
	double comm_cp;       /* context-parallel exchange not hidden by attention */
	double comm_dp;       /* data-parallel reduction not hidden by backward */
	double bubble;        /* waiting for pipeline neighbours (incl. transfers) */
	double other;         /* waiting for the slowest stage */
	double straggler;     /* waiting for the slowest GPU of the job (straggler.h) */
};

struct train_result {
	struct outcome outcome;       /* first, as in every result */
	struct train_plan plan;
	struct train_memory mem;
	double step_time_s;
	double tokens_per_step;
	double tokens_per_s;
	double model_flops_per_step;
	double hardware_flops_per_step;
	double tflops_per_gpu;        /* model FLOP/s per GPU / 1e12 */
	double mfu;                   /* model FLOP/s / dense peak */
	double hfu;                   /* hardware FLOP/s (with recompute) / dense peak */
	struct train_breakdown br;
	int plans_tried;
	int plans_oom;                /* of plans_tried, those that did not fit in memory */
	char searched_fields[192];    /* the fields the search varied: "tp, pp, zero, micro-batch" */
	bool searched;
};

#endif
