#include "key_rows.h"

#include "models/comm/collective.h"
#include "models/fleet/fleet.h"
#include "models/hw/catalog.h"
#include "models/run/run.h"
#include "models/scenario/fleet_trace.h"
#include "models/serve/serve.h"
#include "models/serve/serve_sim.h"
#include "models/train/train.h"

/* Sources of the meanings: docs/reference/scenarios.md, docs/explanation/training.md,
 * docs/explanation/serving.md, docs/explanation/fleet.md, docs/explanation/whole-run.md, docs/explanation/planning.md and
 * docs/explanation/catalog.md. Ranges and defaults: the readers. */
const struct key_row key_rows[] = {
	/* ---- the top level (scenario.c) ---- */
	{ .sec = KS_TOP, .key = "name", .kinds = KINDS_ALL, .type = "string", .def = "the file name without .json",
	  .unit = "", .meaning = "shown in every result row" },
	{ .sec = KS_TOP, .key = "description", .kinds = KINDS_ALL, .type = "string", .unit = "",
	  .meaning = "free text, ignored" },
	{ .sec = KS_TOP, .key = "seed", .kinds = KINDS_ALL, .type = "integer", .range = "0 to 2^63 - 1", .def = "0",
	  .unit = "", .meaning = "seeds every random stream; --seed N replaces it" },
	{ .sec = KS_TOP, .key = "workload", .kinds = KINDS_ALL, .type = "object", .required = true, .unit = "",
	  .meaning = "what to run (workload below)" },
	{ .sec = KS_TOP, .key = "candidates", .kinds = KINDS_ALL, .type = "array of objects",
	  .range = "1 to 10,000 candidates", .required = true, .unit = "",
	  .meaning = "the cluster shapes to compare (candidates[] below)" },
	{ .sec = KS_TOP, .key = "monte_carlo", .kinds = KINDS_ALL & ~(KIND_INFER | KIND_GEMM), .own_refusal = true, .type = "object",
	  .unit = "", .meaning = "whole-run trials (monte_carlo below); not for inference or gemm" },
	{ .sec = KS_TOP, .key = "objective", .kinds = KINDS_TRAINING | KIND_COLL, .own_refusal = true, .type = "object",
	  .unit = "", .meaning = "{deadline_h, budget_usd}: not for inference (its objective is serving.slo) or fleet "
				 "(fleet.objective.wait_p90_h); each training row says whether it meets them at P50 and P90; "
				 "plan answers with the cheapest and fastest shapes that meet them (docs/explanation/planning.md)" },
	{ .sec = KS_TOP, .key = "catalog", .kinds = KINDS_ALL, .type = "path, list of paths or object", .unit = "",
	  .meaning = "catalog additions and overrides (docs/explanation/catalog.md)" },
	{ .sec = KS_TOP, .key = "validation", .kinds = KINDS_ALL, .type = "object", .unit = "",
	  .meaning = "the published figure the scenario reproduces (scenarios/validation, docs/explanation/validation.md)" },
	{ .sec = KS_TOP, .key = "measured", .kinds = KINDS_ALL, .type = "object", .unit = "",
	  .meaning = "a figure the user measured on this scenario's cluster, for validate and calibrate "
		     "(docs/reference/measurements.md); not with validation" },
	{ .sec = KS_TOP, .key = "search", .kinds = KINDS_ALL, .type = "object", .unit = "",
	  .meaning = "the shapes clustersim plan searches (docs/explanation/planning.md); other commands read, check and ignore it" },

	/* ---- workload (wl.c): the order "did you mean" ranks equally close names in ---- */
	{ .sec = KS_WORKLOAD, .key = "kind", .kinds = KINDS_ALL, .type = "name", .names = workload_kind_names,
	  .required = true, .unit = "", .meaning = "the workload's kind: which keys below apply" },
	{ .sec = KS_WORKLOAD, .key = "model", .kinds = KINDS_TRAINING | KIND_INFER, .type = "name or object",
	  .required = true, .unit = "",
	  .meaning = "a catalog model name, or its shape (workload.model below), optionally over \"preset\": NAME" },
	{ .sec = KS_WORKLOAD, .key = "precision", .kinds = KINDS_ALL & ~KIND_FLEET, .own_refusal = true, .type = "name",
	  .names = precision_names, .def = "bf16", .unit = "",
	  .meaning = "the precision the model computes in; a server's weights and KV cache follow it unless "
		     "serving.weight_precision and serving.kv_precision say otherwise" },
	{ .sec = KS_WORKLOAD, .key = "seq_len", .kinds = KINDS_TRAINING | KIND_COLL, .own_refusal = true,
	  .type = "integer", .ranged = true, .lo = 1, .hi = 1 << 24, .def = "required (training, finetune)",
	  .unit = "tokens", .meaning = "tokens per sequence (serving takes its lengths from serving)" },
	{ .sec = KS_WORKLOAD, .key = "global_batch_tokens", .kinds = KINDS_TRAINING, .type = "number or object",
	  .ranged = true, .lo = 1, .hi = 1e12, .required = true, .unit = "tokens",
	  .meaning = "tokens per optimizer step, a whole number of sequences; or {target, round} (below): each plan "
		     "rounds the target to the nearest whole number of sequences its dp x micro_batch divides" },
	{ .sec = KS_WORKLOAD, .key = "tokens", .kinds = KINDS_TRAINING, .own_refusal = true, .type = "number",
	  .ranged = true, .lo = 1, .hi = 1e17, .def = "one step", .unit = "tokens",
	  .meaning = "tokens to train on (omit for a single step)" },
	{ .sec = KS_WORKLOAD, .key = "examples", .kinds = KIND_FINETUNE, .type = "number", .ranged = true, .lo = 1,
	  .hi = 1e13, .unit = "examples",
	  .meaning = "data given as examples x epochs: tokens = examples x epochs x finetune.mean_example_tokens, or "
		     "x seq_len when not given; not with tokens" },
	{ .sec = KS_WORKLOAD, .key = "epochs", .kinds = KIND_FINETUNE, .type = "number", .ranged = true, .lo = 0.001,
	  .hi = 1e6, .def = "1 (with examples)", .unit = "", .meaning = "passes over the examples" },
	{ .sec = KS_WORKLOAD, .key = "parallelism", .kinds = KINDS_TRAINING, .type = "object or \"auto\"",
	  .def = "auto", .unit = "",
	  .meaning = "the parallel plan (workload.parallelism below); \"auto\", or a field left out, is chosen by "
		     "the planner (docs/explanation/training.md, \"The plan search\")" },
	{ .sec = KS_WORKLOAD, .key = "checkpoint", .kinds = KINDS_TRAINING, .type = "object or \"none\"",
	  .def = "none; with failures or spot preemptions: synchronous, to the first pfs tier, at Daly's interval",
	  .unit = "", .meaning = "checkpoints written during the run, simulated (workload.checkpoint below; "
				 "docs/explanation/whole-run.md)" },
	{ .sec = KS_WORKLOAD, .key = "failures", .kinds = KINDS_ALL & ~KIND_GEMM, .type = "\"llama3\", \"none\" or object",
	  .def = "none", .unit = "",
	  .meaning = "the failure model, simulated (docs/explanation/whole-run.md): \"llama3\" (419 unexpected interruptions in 54 "
		     "days on 16,384 H100s), \"none\", or rates (workload.failures below); a fleet's fail its nodes; "
		     "inference: an unsupported row" },
	{ .sec = KS_WORKLOAD, .key = "finetune", .kinds = KIND_FINETUNE, .type = "object",
	  .def = "a full finetune", .unit = "", .meaning = "the finetune's method (workload.finetune below)" },
	{ .sec = KS_WORKLOAD, .key = "serving", .kinds = KIND_INFER, .type = "object", .required = true, .unit = "",
	  .meaning = "the load and the server (workload.serving below; docs/explanation/serving.md)" },
	{ .sec = KS_WORKLOAD, .key = "collective", .kinds = KIND_COLL, .type = "object", .required = true, .unit = "",
	  .meaning = "an nccl-tests-like benchmark: {op, bytes, algorithm, fidelity} (workload.collective below)" },
	{ .sec = KS_WORKLOAD, .key = "gemm", .kinds = KIND_GEMM, .type = "object", .required = true, .unit = "",
	  .meaning = "one standalone GEMM per shape, as a GEMM benchmark measures it: {m, n, k} (workload.gemm below; "
		     "docs/explanation/calibration.md, \"A benchmark GEMM\")" },
	{ .sec = KS_WORKLOAD, .key = "kernels", .kinds = KINDS_TRAINING | KIND_INFER | KIND_COLL, .own_refusal = true,
	  .type = "object", .def = "the catalog's and the global constants", .unit = "",
	  .meaning = "your own kernel measurements (workload.kernels below; docs/explanation/training.md, \"Kernel time\")" },
	{ .sec = KS_WORKLOAD, .key = "mode", .kinds = KINDS_TRAINING, .type = "name", .names = training_mode_names,
	  .def = "representative", .unit = "",
	  .meaning = "representative: one pipeline, data-parallel collectives costed over the topology; full: every "
		     "pipeline replica on one engine, every rank's transfers as flows (docs/explanation/training.md)" },
	{ .sec = KS_WORKLOAD, .key = "search_numerics", .kinds = KINDS_TRAINING, .type = "array of names",
	  .names = search_numerics_names, .def = "none", .unit = "",
	  .meaning = "settings that change numerics the plan search may use; each is tried only by a search, and is "
		     "an error beside a parallelism that states the same key (docs/explanation/training.md)" },
	{ .sec = KS_WORKLOAD, .key = "data", .kinds = KINDS_TRAINING, .type = "object", .def = "not modelled",
	  .unit = "", .meaning = "the storage tier the training tokens are read from (workload.data below; "
				 "docs/explanation/whole-run.md, \"Data loading\")" },
	{ .sec = KS_WORKLOAD, .key = "fleet", .kinds = KIND_FLEET, .type = "object", .required = true, .unit = "",
	  .meaning = "a shared cluster's job mix; each candidate is the shared cluster (workload.fleet below; "
		     "docs/explanation/fleet.md)" },

	/* ---- workload.model (read by the catalog's model reader, models/hw/catalog.c) ---- */
#define MODEL .sec = KS_MODEL, .kinds = KINDS_TRAINING | KIND_INFER, .elsewhere = true
	{ MODEL, .key = "name", .type = "string", .def = "custom; a preset's, \"(modified)\"", .unit = "",
	  .meaning = "the model's name in the rows" },
	{ MODEL, .key = "aliases", .type = "array of strings", .unit = "", .meaning = "other names (catalog entries)" },
	{ MODEL, .key = "description", .type = "string", .unit = "", .meaning = "free text" },
	{ MODEL, .key = "source", .type = "string", .unit = "",
	  .meaning = "source ids separated by ; (docs/explanation/catalog.md)" },
	{ MODEL, .key = "confidence", .type = "string", .unit = "", .meaning = "how sure the numbers are (docs/explanation/catalog.md)" },
	{ MODEL, .key = "note", .type = "string", .unit = "",
	  .meaning = "where the numbers came from and what is assumed (docs/explanation/catalog.md)" },
	{ MODEL, .key = "preset", .type = "name", .range = "clustersim catalog models", .unit = "",
	  .meaning = "a catalog model to start from; the fields given override it" },
	{ MODEL, .key = "layers", .type = "integer", .ranged = true, .lo = 1, .hi = 100000,
	  .def = "required without a preset", .unit = "", .meaning = "decoder layers" },
	{ MODEL, .key = "hidden", .type = "integer", .ranged = true, .lo = 1, .hi = 1 << 22,
	  .def = "required without a preset", .unit = "", .meaning = "hidden size" },
	{ MODEL, .key = "heads", .type = "integer", .ranged = true, .lo = 1, .hi = 1 << 16,
	  .def = "required without a preset", .unit = "", .meaning = "attention heads" },
	{ MODEL, .key = "kv_heads", .type = "integer", .ranged = true, .lo = 1, .hi = 1 << 16, .def = "heads (no GQA)",
	  .unit = "", .meaning = "key/value heads; must divide heads" },
	{ MODEL, .key = "head_dim", .type = "integer", .ranged = true, .lo = 0, .hi = 1 << 16,
	  .def = "0: hidden / heads", .unit = "", .meaning = "width of one head" },
	{ MODEL, .key = "q_lora_rank", .type = "integer", .ranged = true, .lo = 0, .hi = 1 << 20, .def = "0", .unit = "",
	  .meaning = "Multi-head Latent Attention: 0 for queries projected directly" },
	{ MODEL, .key = "kv_lora_rank", .type = "integer", .ranged = true, .lo = 0, .hi = 1 << 20,
	  .def = "0 (no latent)", .unit = "",
	  .meaning = "above 0 makes the attention Multi-head Latent Attention (docs/explanation/training.md)" },
	{ MODEL, .key = "qk_rope_dim", .type = "integer", .ranged = true, .lo = 0, .hi = 1 << 16, .def = "0", .unit = "",
	  .meaning = "Multi-head Latent Attention: the rotary width" },
	{ MODEL, .key = "ffn", .type = "integer", .ranged = true, .lo = 1, .hi = 1 << 24,
	  .def = "required without a preset", .unit = "", .meaning = "the dense MLP width" },
	{ MODEL, .key = "mlp", .type = "name", .names = mlp_kind_names, .def = "required without a preset",
	  .unit = "", .meaning = "swiglu: a gated 3-matrix MLP; gelu: a plain 2-matrix MLP" },
	{ MODEL, .key = "vocab", .type = "integer", .ranged = true, .lo = 1, .hi = 1 << 24,
	  .def = "required without a preset", .unit = "tokens", .meaning = "vocabulary size" },
	{ MODEL, .key = "experts", .type = "integer", .ranged = true, .lo = 0, .hi = 1 << 16, .def = "0 (dense)",
	  .unit = "", .meaning = "routed experts of a mixture-of-experts model" },
	{ MODEL, .key = "experts_active", .type = "integer", .ranged = true, .lo = 0, .hi = 1 << 16, .unit = "",
	  .meaning = "experts each token is routed to, 1 to experts" },
	{ MODEL, .key = "expert_ffn", .type = "integer", .ranged = true, .lo = 0, .hi = 1 << 24, .unit = "",
	  .meaning = "the routed-expert width (required with experts)" },
	{ MODEL, .key = "shared_experts", .type = "integer", .ranged = true, .lo = 0, .hi = 1 << 16, .def = "0",
	  .unit = "", .meaning = "experts every token goes through" },
	{ MODEL, .key = "dense_layers", .type = "integer", .ranged = true, .lo = 0, .hi = 100000,
	  .def = "0 (every layer a mixture of experts)", .unit = "", .meaning = "layers with a dense MLP" },
	{ MODEL, .key = "tied_embeddings", .type = "boolean", .def = "false", .unit = "",
	  .meaning = "the input embedding and the output layer share weights" },
	{ MODEL, .key = "dropout", .type = "boolean", .def = "false", .unit = "", .meaning = "dropout masks kept" },
	{ MODEL, .key = "params_b", .type = "number", .ranged = true, .lo = 0, .hi = 1e6, .unit = "billions",
	  .meaning = "the published total parameters (docs/explanation/catalog.md)" },
	{ MODEL, .key = "active_params_b", .type = "number", .ranged = true, .lo = 0, .hi = 1e6, .unit = "billions",
	  .meaning = "the published active parameters of a mixture-of-experts model" },
	{ MODEL, .key = "max_seq_len", .type = "integer", .ranged = true, .lo = 0, .hi = 1 << 30, .unit = "tokens",
	  .meaning = "the model's native context (docs/explanation/catalog.md)" },
	{ MODEL, .key = "mtp_layers", .type = "integer", .ranged = true, .lo = 0, .hi = 64,
	  .def = "0 (no multi-token prediction)", .unit = "",
	  .meaning = "multi-token-prediction modules trained with the model, training only (docs/explanation/training.md)" },
#undef MODEL

	/* ---- workload.global_batch_tokens as an object ---- */
	{ .sec = KS_BATCH, .key = "target", .kinds = KINDS_TRAINING, .type = "number", .ranged = true, .lo = 1,
	  .hi = 1e12, .required = true, .unit = "tokens", .meaning = "the batch each plan rounds (docs/explanation/planning.md)" },
	{ .sec = KS_BATCH, .key = "round", .kinds = KINDS_TRAINING, .type = "boolean", .def = "false", .unit = "",
	  .meaning = "round the target to the nearest whole number of sequences dp x micro_batch divides" },

	/* ---- workload.parallelism (wl_train.c) ---- */
#define PLAN .sec = KS_PARALLELISM, .kinds = KINDS_TRAINING
	{ PLAN, .key = "tp", .type = "integer or \"auto\"", .ranged = true, .lo = 1, .hi = 1024, .def = "auto",
	  .unit = "GPUs", .meaning = "tensor parallelism" },
	{ PLAN, .key = "pp", .type = "integer or \"auto\"", .ranged = true, .lo = 1, .hi = 1024, .def = "auto",
	  .unit = "stages", .meaning = "pipeline parallelism" },
	{ PLAN, .key = "vpp", .type = "integer or \"auto\"", .ranged = true, .lo = 1, .hi = 128, .def = "auto",
	  .unit = "", .meaning = "virtual pipeline stages per GPU (the interleaved schedule)" },
	{ PLAN, .key = "dp", .type = "integer or \"auto\"", .ranged = true, .lo = 1, .hi = 1 << 20, .def = "auto",
	  .unit = "", .meaning = "data parallelism" },
	{ PLAN, .key = "cp", .type = "integer or \"auto\"", .ranged = true, .lo = 1, .hi = 1024, .def = "auto",
	  .unit = "GPUs", .meaning = "context parallelism" },
	{ PLAN, .key = "ep", .type = "integer or \"auto\"", .ranged = true, .lo = 1, .hi = 1024, .def = "auto",
	  .unit = "", .meaning = "expert parallelism" },
	{ PLAN, .key = "zero", .type = "integer or \"auto\"", .ranged = true, .lo = 0, .hi = 3, .def = "auto",
	  .unit = "", .meaning = "ZeRO stage 1/2/3 (FSDP)" },
	{ PLAN, .key = "micro_batch", .type = "integer or \"auto\"", .ranged = true, .lo = 1, .hi = 4096,
	  .def = "auto", .unit = "sequences", .meaning = "sequences per micro-batch" },
	{ PLAN, .key = "schedule", .type = "name or \"auto\"", .range = "gpipe, 1f1b, interleaved, zb-h1, dualpipev",
	  .def = "auto", .unit = "",
	  .meaning = "the pipeline schedule: interleaved is Megatron's, for vpp > 1; dualpipev is DeepSeek's DualPipe "
		     "cut in half (vpp 2, at least 2 x pp micro-batches per pipeline)" },
	{ PLAN, .key = "recompute", .type = "name or \"auto\"", .names = recompute_names, .def = "auto", .unit = "",
	  .meaning = "activation recomputation" },
	{ PLAN, .key = "recompute_modules", .type = "array of names or \"auto\"",
	  .range = "core_attn, layernorm, mlp, moe_act, moe, mla_up_proj", .def = "core_attn", .unit = "",
	  .meaning = "under a selective recompute, what it recomputes (Megatron-Core's --recompute-modules); only "
		     "with recompute \"selective\" or \"auto\"" },
	{ PLAN, .key = "recompute_num_layers", .type = "integer", .ranged = true, .lo = 1, .hi = 1 << 20, .def = "1",
	  .unit = "layers", .meaning = "with recompute \"full\": Megatron-LM's --recompute-num-layers, as "
				     "recompute_method spends it" },
	{ PLAN, .key = "recompute_method", .type = "name", .names = recompute_method_names, .def = "uniform",
	  .unit = "", .meaning = "with recompute \"full\": uniform keeps the input of each group of "
			       "recompute_num_layers layers and recomputes a group whole; block recomputes only the "
			       "first recompute_num_layers layers of each pipeline chunk, the others keep all their "
			       "activations (Megatron-LM's --recompute-method)" },
	{ PLAN, .key = "sequence_parallel", .type = "boolean or \"auto\"", .def = "auto", .unit = "",
	  .meaning = "sequence parallelism over the tp ranks" },
	{ PLAN, .key = "order", .type = "string", .range = "an order of tp, cp, pp and dp such as \"tp-cp-pp-dp\"",
	  .def = "the planner's", .unit = "", .meaning = "the rank order of the placement" },
	{ PLAN, .key = "tp_comm_overlap", .type = "boolean", .def = "false", .unit = "",
	  .meaning = "tensor-parallel communication overlapped with compute" },
	{ PLAN, .key = "moe_a2a_overlap", .type = "name", .names = moe_overlap_names, .def = "none", .unit = "",
	  .meaning = "the MoE all-to-all overlapped with compute" },
	{ PLAN, .key = "moe_max_nodes_per_token", .type = "integer", .ranged = true, .lo = 1, .hi = 1 << 20,
	  .def = "unset (every copy on the wire)", .unit = "nodes",
	  .meaning = "node-limited routing and a node-deduplicating dispatch (DeepEP, HybridEP: a token crosses the "
		     "network once per node it reaches); at or above the EP group's node count it only deduplicates" },
	{ PLAN, .key = "pipeline_split", .type = "name or \"auto\"", .names = pipeline_split_names, .def = "layers",
	  .unit = "",
	  .meaning = "layers: split evenly over pp x vpp virtual stages; embedding+loss: the embedding and the loss "
		     "each take a layer's slot, as Llama 3 405B did" },
	{ PLAN, .key = "pipeline_layout", .type = "string", .range = "Megatron-Core's layout, e.g. \"Et|(tt|)*30mL\"",
	  .unit = "", .meaning = "instead of pipeline_split, every virtual stage's layers in order (E embedding, t "
				 "decoder layer, m MTP module, L loss, | between stages)" },
	{ PLAN, .key = "grad_reduce_precision", .type = "name", .range = "auto, fp32, bf16",
	  .def = "auto: fp32, 16-bit for an fp16 run, as Megatron", .unit = "",
	  .meaning = "the element size of the data-parallel gradient buffer and of its reduction" },
	{ PLAN, .key = "optimizer_moments", .type = "name", .names = optimizer_moments_names, .def = "fp32",
	  .unit = "", .meaning = "Adam's two moments; bf16 beside the fp32 master weights, as DeepSeek-V3: 8 bytes a "
				 "trained parameter instead of 12" },
	{ PLAN, .key = "overlap_param_gather", .type = "boolean", .def = "true", .unit = "",
	  .meaning = "the distributed optimizer's weight all-gather under the next forward" },
	{ PLAN, .key = "free_stage_input", .type = "boolean or \"auto\"", .def = "false", .unit = "",
	  .meaning = "each pipeline chunk's input freed after its first layer, as Llama 3 did" },
	{ PLAN, .key = "distribute_saved_activations", .type = "boolean", .def = "false", .unit = "",
	  .meaning = "a full recompute's checkpointed layer inputs split over the tp ranks (Megatron-LM's "
		     "--distribute-saved-activations); needs recompute full, tp > 1, no sequence parallelism" },
	{ PLAN, .key = "fp8_activation_cache", .type = "boolean", .def = "false", .unit = "",
	  .meaning = "DeepSeek-V3's FP8 copies of the attention output projection's input and of an MoE layer's "
		     "SwiGLU inputs; needs precision fp8" },
	{ PLAN, .key = "host_launch_bound", .type = "boolean", .def = "false", .unit = "",
	  .meaning = "an eager run (no CUDA graphs): each layer's forward and backward last at least the host's "
		     "time to launch them (docs/explanation/training.md); false: the launches are hidden behind the GPU "
		     "work, as with CUDA graphs or a GPU-bound step" },
	{ PLAN, .key = "activation_func_fp8_input_store", .type = "boolean", .def = "false", .unit = "",
	  .meaning = "a dense MLP's activation (SwiGLU, GELU) keeps its input in FP8 for the backward, 1 byte an "
		     "element instead of 2 (Megatron-Core's --activation-func-fp8-input-store); needs precision fp8" },
	{ PLAN, .key = "expert_tp", .type = "integer", .ranged = true, .lo = 1, .hi = 1024, .def = "the plan's tp",
	  .unit = "GPUs", .meaning = "the experts' own tensor parallelism (MoE parallel folding); must divide tp" },
	{ PLAN, .key = "moe_dispatch_precision", .type = "name", .names = moe_dispatch_names, .def = "bf16",
	  .unit = "", .meaning = "fp8: tokens sent to the experts in FP8 with a scale per 128 values, the combine in "
				 "BF16, as DeepSeek-V3" },
	{ PLAN, .key = "moe_load_imbalance", .type = "number", .ranged = true, .lo = 1, .hi = 64, .def = "1 (balanced)",
	  .unit = "", .meaning = "the tokens the busiest expert-parallel rank receives over the mean; no effect at ep 1" },
#undef PLAN

	/* ---- workload.checkpoint ---- */
	{ .sec = KS_CHECKPOINT, .key = "interval_s", .kinds = KINDS_TRAINING, .type = "number or \"auto\"",
	  .ranged = true, .lo = 1, .hi = 1e8, .def = "auto (Young/Daly)", .unit = "s",
	  .meaning = "productive time between checkpoints, rounded up to whole steps; not with interval_steps" },
	{ .sec = KS_CHECKPOINT, .key = "interval_steps", .kinds = KINDS_TRAINING, .type = "integer", .ranged = true,
	  .lo = 1, .hi = 1e9, .unit = "steps", .meaning = "a checkpoint every N steps; not with interval_s" },
	{ .sec = KS_CHECKPOINT, .key = "tier", .kinds = KINDS_TRAINING, .type = "string", .def = "pfs", .unit = "",
	  .meaning = "the storage tier written to; every candidate must have it" },
	{ .sec = KS_CHECKPOINT, .key = "async", .kinds = KINDS_TRAINING, .type = "boolean", .def = "false", .unit = "",
	  .meaning = "asynchronous checkpoints" },
	{ .sec = KS_CHECKPOINT, .key = "keep", .kinds = KINDS_TRAINING, .type = "integer", .ranged = true, .lo = 1,
	  .hi = 100000, .def = "1", .unit = "checkpoints",
	  .meaning = "checkpoints kept on the tier, charged at its usd_per_tb_month for the held time (storage_usd_p50)" },
	{ .sec = KS_CHECKPOINT, .key = "downloads", .kinds = KINDS_TRAINING, .type = "integer", .ranged = true, .lo = 0,
	  .hi = 100000, .def = "0", .unit = "checkpoints",
	  .meaning = "checkpoints moved out of the provider (e.g. the final one), charged at the tier's "
		     "egress_usd_per_gb (storage_usd_p50)" },

	/* ---- workload.data ---- */
	{ .sec = KS_DATA, .key = "tier", .kinds = KINDS_TRAINING, .type = "string", .required = true, .unit = "",
	  .meaning = "the storage tier the tokens are read from; every candidate must have it; the step waits when "
		     "the tier cannot feed it" },
	{ .sec = KS_DATA, .key = "bytes_per_token", .kinds = KINDS_TRAINING, .type = "number", .ranged = true,
	  .lo = 0.001, .hi = 1e9, .def = "2 when the vocabulary fits uint16 ids (at most 65,536), else 4",
	  .unit = "bytes", .meaning = "bytes a token takes on the tier" },
	{ .sec = KS_DATA, .key = "size_gb", .kinds = KINDS_TRAINING, .type = "number", .ranged = true, .lo = 0,
	  .hi = 1e12, .def = "not charged", .unit = "GB",
	  .meaning = "the data set's size on the tier, charged at its usd_per_tb_month for the held time "
		     "(storage_usd_p50)" },

	/* ---- workload.failures as an object ---- */
#define FAIL .sec = KS_FAILURES, .kinds = KINDS_ALL
	{ FAIL, .key = "gpu_mtbf_h", .type = "number", .ranged = true, .lo = 0.001, .hi = 1e9, .unit = "h",
	  .meaning = "mean time between failures of a GPU (give it or node_mtbf_h)" },
	{ FAIL, .key = "node_mtbf_h", .type = "number", .ranged = true, .lo = 0.001, .hi = 1e9, .unit = "h",
	  .meaning = "mean time between failures of a node" },
	{ FAIL, .key = "distribution", .type = "name", .names = failure_dist_names, .def = "exponential", .unit = "",
	  .meaning = "the times between failures" },
	{ FAIL, .key = "shape", .type = "number", .ranged = true, .lo = 0.05, .hi = 20, .def = "1", .unit = "",
	  .meaning = "the Weibull shape" },
	{ FAIL, .key = "restart_s", .type = "number", .ranged = true, .lo = 0, .hi = 1e7, .def = "600", .unit = "s",
	  .meaning = "detection + relaunch + NCCL init after a failure or a preemption (PyTorch's default "
		     "process-group timeout of 10 min); a fleet's: also a stated class's relaunch time" },
	{ FAIL, .key = "spare_nodes", .type = "integer", .ranged = true, .lo = 0, .hi = 100000, .def = "0",
	  .unit = "nodes", .meaning = "a failure waits only when more than this many nodes are out" },
#undef FAIL

	/* ---- workload.finetune ---- */
	{ .sec = KS_FINETUNE, .key = "method", .kinds = KIND_FINETUNE, .type = "name", .names = finetune_method_names,
	  .def = "lora in a finetune object; full without one", .unit = "", .meaning = "what is trained" },
	{ .sec = KS_FINETUNE, .key = "rank", .kinds = KIND_FINETUNE, .type = "integer", .ranged = true, .lo = 1,
	  .hi = 65536, .def = "16", .unit = "", .meaning = "the LoRA rank" },
	{ .sec = KS_FINETUNE, .key = "targets", .kinds = KIND_FINETUNE, .type = "name", .range = "attn, mlp, attn+mlp",
	  .def = "attn+mlp", .unit = "", .meaning = "the layers LoRA adapts" },
	{ .sec = KS_FINETUNE, .key = "base_precision", .kinds = KIND_FINETUNE, .type = "name",
	  .names = finetune_base_names, .def = "auto: the run's precision; nf4 under qlora", .unit = "",
	  .meaning = "LoRA and QLoRA: the frozen base's storage (qlora: nf4 or fp4)" },
	{ .sec = KS_FINETUNE, .key = "mean_example_tokens", .kinds = KIND_FINETUNE, .type = "number", .ranged = true,
	  .lo = 1, .hi = 1e9, .def = "seq_len", .unit = "tokens",
	  .meaning = "mean tokens of an example, at most seq_len; needs examples" },

	/* ---- workload.kernels ---- */
#define KERN .sec = KS_KERNELS, .kinds = KINDS_TRAINING | KIND_INFER | KIND_COLL
	{ KERN, .key = "gemm_efficiency", .type = "number", .ranged = true, .lo = 0.01, .hi = 1, .def = "the catalog's",
	  .unit = "fraction", .meaning = "achieved fraction of dense peak in matrix multiplies" },
	{ KERN, .key = "attention_efficiency", .type = "number", .ranged = true, .lo = 0.01, .hi = 1,
	  .def = "the catalog's", .unit = "fraction", .meaning = "achieved fraction of dense peak in attention" },
	{ KERN, .key = "hbm_efficiency", .type = "number", .ranged = true, .lo = 0.01, .hi = 1, .def = "the catalog's",
	  .unit = "fraction", .meaning = "achieved fraction of HBM bandwidth" },
	{ KERN, .key = "launch_us", .type = "number", .ranged = true, .lo = 0, .hi = 1e4, .def = "the global constant",
	  .unit = "us", .meaning = "a cost per kernel" },
	{ KERN, .key = "flash_attention", .type = "boolean", .def = "true", .unit = "",
	  .meaning = "attention as a fused flash-attention kernel" },
	{ .sec = KS_KERNELS, .key = "fused_cross_entropy", .kinds = KINDS_TRAINING | KIND_COLL, .own_refusal = true,
	  .type = "boolean", .def = "false", .unit = "",
	  .meaning = "the loss as Transformer Engine's fused cross entropy; training only" },
#undef KERN

	/* ---- workload.serving (wl_serve.c; docs/explanation/serving.md) ---- */
#define SERVE .sec = KS_SERVING, .kinds = KIND_INFER
	{ SERVE, .key = "arrival", .type = "object", .required = true, .unit = "",
	  .meaning = "how requests arrive (workload.serving.arrival below)" },
	{ SERVE, .key = "prompt_tokens", .type = "integer or object", .ranged = true, .lo = 1, .hi = KEY_LEN_TOKENS_MAX,
	  .required = true, .unit = "tokens",
	  .meaning = "a whole number of tokens, or a distribution (workload.serving.*_tokens below)" },
	{ SERVE, .key = "output_tokens", .type = "integer or object", .ranged = true, .lo = 1, .hi = KEY_LEN_TOKENS_MAX,
	  .required = true, .unit = "tokens",
	  .meaning = "a whole number of tokens, or a distribution (workload.serving.*_tokens below)" },
	{ SERVE, .key = "duration_s", .type = "number", .ranged = true, .lo = 1, .hi = 1e7, .def = "600", .unit = "s",
	  .meaning = "arrivals stop after this; every request sent is served to its end" },
	{ SERVE, .key = "requests", .type = "integer", .ranged = true, .lo = 1, .hi = SERVE_SIM_REQUESTS_MAX,
	  .unit = "requests", .meaning = "send this many requests instead (vLLM's --num-prompts); required for "
					 "offline; not with duration_s; neither is used with a trace" },
	{ SERVE, .key = "max_output_tokens", .type = "integer", .ranged = true, .lo = 1, .hi = KEY_LEN_TOKENS_MAX,
	  .def = "each request's output length", .unit = "tokens",
	  .meaning = "the max_tokens every request carries (the client's cap): a longer output stops at it; trtllm's "
		     "capacity_policy guaranteed_no_evict reserves the KV cache of the prompt and this many tokens on "
		     "admission (docs/explanation/serving.md)" },
	{ SERVE, .key = "prefix_cache_hit", .type = "number", .ranged = true, .lo = 0, .hi = 1, .def = "0",
	  .unit = "fraction", .meaning = "share of each prompt found in the prefix cache: those tokens are not "
					 "computed, but hold KV blocks" },
	{ SERVE, .key = "scheduler", .type = "object", .unit = "",
	  .meaning = "batch limits, chunked prefill and the KV block size (workload.serving.scheduler below)" },
	{ SERVE, .key = "gpu_memory_fraction", .type = "number", .ranged = true, .lo = 0.01, .hi = 1, .def = "0.9",
	  .unit = "fraction", .meaning = "share of each GPU's memory the server may use for weights, workspace and KV "
					 "cache (vLLM's --gpu-memory-utilization)" },
	{ SERVE, .key = "weight_precision", .type = "name", .range = "bf16, fp8, fp4", .def = "workload.precision",
	  .unit = "", .meaning = "how the weights are stored (fp4: 4-bit with block scales, e.g. NVFP4); computed in "
				 "workload.precision" },
	{ SERVE, .key = "kv_precision", .type = "name", .range = "bf16, fp16, fp8", .def = "workload.precision",
	  .unit = "", .meaning = "the KV cache's format (vLLM's --kv-cache-dtype); required when workload.precision is "
				 "one no KV cache is kept in (fp4, tf32, fp64)" },
	{ SERVE, .key = "step_overhead_s", .type = "number", .ranged = true, .lo = 0, .hi = 10, .def = "the engine's",
	  .unit = "s", .meaning = "host time per step the GPU does not hide; default: the engine's step_overhead_ms in the "
				  "catalog (`clustersim catalog engines`)" },
	{ SERVE, .key = "router", .type = "name", .names = serve_router_names, .def = "round-robin", .unit = "",
	  .meaning = "how a request picks its replica: least-outstanding (fewest requests in flight), shortest-queue "
		     "(fewest waiting)" },
	{ SERVE, .key = "engine", .type = "name", .names = serve_engine_names, .def = "vllm-v1", .unit = "",
	  .meaning = "whose iteration scheduler the replicas run: vllm-v1 (one token budget, running requests first, KV "
		     "blocks as computed), vllm-v0 (decodes, then prefills; without chunked prefill a step is all "
		     "prefill or all decode), trtllm (in-flight batching; admission reserves the KV of the prompt and "
		     "max_output_tokens unless scheduler.capacity_policy is max_utilization), sglang (a prefill step whenever a prompt can be admitted) (docs/explanation/serving.md)" },
	{ SERVE, .key = "slo", .type = "object", .unit = "",
	  .meaning = "the objectives (workload.serving.slo below)" },
	{ SERVE, .key = "replicas", .type = "integer or \"auto\"", .ranged = true, .lo = 1, .hi = 100000, .def = "1",
	  .unit = "replicas", .meaning = "model replicas, or \"auto\": the fewest that meet the SLO (needs an slo); not "
					 "with disaggregated" },
	{ SERVE, .key = "tp", .type = "integer", .ranged = true, .lo = 1, .hi = 1024, .def = "1", .unit = "GPUs",
	  .meaning = "tensor-parallel GPUs per replica (inside one node)" },
	{ SERVE, .key = "pp", .type = "integer", .ranged = true, .lo = 1, .hi = 1024, .def = "1", .unit = "stages",
	  .meaning = "pipeline stages per replica" },
	{ SERVE, .key = "ep", .type = "integer", .ranged = true, .lo = 1, .hi = 1024, .def = "1", .unit = "ranks",
	  .meaning = "expert-parallel ranks per replica (MoE models)" },
	{ SERVE, .key = "disaggregated", .type = "object", .unit = "",
	  .meaning = "prefill and decode on separate replicas (workload.serving.disaggregated below); not with "
		     "replicas" },
	{ SERVE, .key = "speculative", .type = "object", .unit = "",
	  .meaning = "speculative decoding: the drafter, its tokens per step and the acceptance stated "
		     "(workload.serving.speculative below; docs/explanation/serving.md)" },
#undef SERVE

	/* ---- workload.serving.arrival ---- */
#define ARR .sec = KS_ARRIVAL, .kinds = KIND_INFER
	{ ARR, .key = "process", .type = "name", .names = arrival_process_names, .def = "poisson", .unit = "",
	  .meaning = "poisson (exponential gaps), gamma (gaps of coefficient of variation cv), trace (the requests of "
		     "a CSV file), offline (every request at time 0: vLLM's --request-rate inf), closed-loop "
		     "(concurrency clients, each sending its next request when its last one finished)" },
	{ ARR, .key = "rate_per_s", .type = "number", .ranged = true, .lo = 1e-6, .hi = 1e7,
	  .def = "required for poisson and gamma", .unit = "requests/s",
	  .meaning = "requests per second; refused for the other processes" },
	{ ARR, .key = "cv", .type = "number", .ranged = true, .lo = 0.01, .hi = 100, .def = "1", .unit = "",
	  .meaning = "gamma only: the gaps' coefficient of variation (1 is Poisson)" },
	{ ARR, .key = "trace", .type = "string", .def = "required for trace", .unit = "",
	  .meaning = "a CSV file of requests, relative to the scenario file (docs/explanation/serving.md)" },
	{ ARR, .key = "concurrency", .type = "integer", .ranged = true, .lo = 1, .hi = 1000000,
	  .def = "required for closed-loop", .unit = "clients", .meaning = "closed-loop clients" },
#undef ARR

	/* ---- workload.serving.prompt_tokens and output_tokens as objects ---- */
#define LEN .sec = KS_LENGTH, .kinds = KIND_INFER
	{ LEN, .key = "dist", .type = "name", .names = length_dist_names, .def = "lognormal", .unit = "",
	  .meaning = "the length's distribution: fixed {mean}, lognormal and normal {mean, sd, min, max} (clamped to "
		     "[min, max]), uniform {min, max}, histogram {bins}" },
	{ LEN, .key = "mean", .type = "number", .ranged = true, .lo = 1, .hi = KEY_LEN_TOKENS_MAX, .unit = "tokens",
	  .meaning = "the mean length (uniform: if given, the midpoint of min and max)" },
	{ LEN, .key = "sd", .type = "number", .ranged = true, .lo = 0, .hi = KEY_LEN_TOKENS_MAX, .unit = "tokens",
	  .meaning = "the standard deviation (lognormal, normal)" },
	{ LEN, .key = "min", .type = "integer", .ranged = true, .lo = 1, .hi = KEY_LEN_TOKENS_MAX, .def = "1",
	  .unit = "tokens", .meaning = "the shortest length" },
	{ LEN, .key = "max", .type = "integer", .ranged = true, .lo = 1, .hi = KEY_LEN_TOKENS_MAX, .def = "4,194,304",
	  .unit = "tokens", .meaning = "the longest length" },
	{ LEN, .key = "bins", .type = "array of [tokens, weight]", .range = "1 to 64 bins", .unit = "",
	  .meaning = "histogram: one of the bins' lengths, drawn in proportion to the weights (distinct lengths, "
		     "weights > 0)" },
#undef LEN

	/* ---- workload.serving.scheduler, slo, disaggregated ---- */
	{ .sec = KS_SCHEDULER, .key = "max_batch_tokens", .kinds = KIND_INFER, .type = "integer", .ranged = true,
	  .lo = 1, .hi = 1 << 24, .def = "8192", .unit = "tokens",
	  .meaning = "tokens one step may compute (vLLM's --max-num-batched-tokens)" },
	{ .sec = KS_SCHEDULER, .key = "max_seqs", .kinds = KIND_INFER, .type = "integer", .ranged = true, .lo = 1,
	  .hi = 1 << 20, .def = "256", .unit = "sequences", .meaning = "sequences running at once (vLLM's --max-num-seqs)" },
	{ .sec = KS_SCHEDULER, .key = "chunked_prefill", .kinds = KIND_INFER, .type = "boolean", .def = "true",
	  .unit = "", .meaning = "split long prompts across steps and mix them with decodes" },
	{ .sec = KS_SCHEDULER, .key = "capacity_policy", .kinds = KIND_INFER, .type = "name",
	  .names = serve_capacity_policy_names, .def = "guaranteed_no_evict", .unit = "",
	  .meaning = "engine trtllm only (TensorRT-LLM's CapacitySchedulerPolicy): guaranteed_no_evict (admission "
		     "reserves the KV cache of the prompt and max_output_tokens; nothing is preempted) or "
		     "max_utilization (admission takes the prompt's; when a step finds no free block the latest "
		     "started request is paused and recomputed later)" },
	{ .sec = KS_SCHEDULER, .key = "block_tokens", .kinds = KIND_INFER, .type = "integer", .ranged = true, .lo = 1,
	  .hi = 1024, .def = "the engine's: 16 (vllm-v0, vllm-v1), 32 (trtllm), 1 (sglang)", .unit = "tokens",
	  .meaning = "tokens per KV-cache block (vLLM's --block-size, TensorRT-LLM's tokens_per_block, SGLang's "
		     "--page-size)" },
	{ .sec = KS_SLO, .key = "ttft_p99_ms", .kinds = KIND_INFER, .type = "number", .ranged = true, .lo = 0.001,
	  .hi = 1e9, .unit = "ms", .meaning = "the objective: 99th-percentile time to first token" },
	{ .sec = KS_SLO, .key = "tpot_p99_ms", .kinds = KIND_INFER, .type = "number", .ranged = true, .lo = 0.001,
	  .hi = 1e9, .unit = "ms", .meaning = "the objective: 99th-percentile time per output token" },
	{ .sec = KS_DISAGGREGATED, .key = "prefill_replicas", .kinds = KIND_INFER, .type = "integer", .ranged = true,
	  .lo = 1, .hi = 100000, .required = true, .unit = "replicas", .meaning = "replicas that run prefills" },
	{ .sec = KS_DISAGGREGATED, .key = "decode_replicas", .kinds = KIND_INFER, .type = "integer", .ranged = true,
	  .lo = 1, .hi = 100000, .required = true, .unit = "replicas", .meaning = "replicas that run decodes" },
	{ .sec = KS_DISAGGREGATED, .key = "prefill_tp", .kinds = KIND_INFER, .type = "integer", .ranged = true,
	  .lo = 1, .hi = 1024, .def = "serving.tp", .unit = "GPUs", .meaning = "a prefill replica's tensor parallelism" },
	{ .sec = KS_DISAGGREGATED, .key = "decode_tp", .kinds = KIND_INFER, .type = "integer", .ranged = true,
	  .lo = 1, .hi = 1024, .def = "serving.tp", .unit = "GPUs", .meaning = "a decode replica's tensor parallelism" },

	/* ---- workload.serving.speculative (wl_serve.c, models/serve/serve_spec.c) ---- */
#define SPEC .sec = KS_SPECULATIVE, .kinds = KIND_INFER
	{ SPEC, .key = "method", .type = "name", .names = spec_method_names, .required = true, .unit = "",
	  .meaning = "who drafts: draft (a smaller catalog model), eagle (an EAGLE head: one decoder layer and the "
		     "target's LM head), mtp (the model's own model.mtp_layers modules)" },
	{ SPEC, .key = "draft_model", .type = "string", .def = "required for draft", .unit = "",
	  .meaning = "the draft model, a catalog model name (method draft only)" },
	{ SPEC, .key = "num_speculative_tokens", .type = "integer", .ranged = true, .lo = 1, .hi = 64,
	  .required = true, .unit = "tokens", .meaning = "k, draft tokens proposed per verify step (vLLM's name)" },
	{ SPEC, .key = "acceptance_length", .type = "number", .ranged = true, .lo = 1, .hi = 65,
	  .def = "this or acceptance_rate is required", .unit = "tokens",
	  .meaning = "mean tokens a sequence advances per verify step, the target's own token included (EAGLE's "
		     "average acceptance length, vLLM's and SGLang's acceptance length), at most k + 1" },
	{ SPEC, .key = "acceptance_rate", .type = "number", .ranged = true, .lo = 0, .hi = 1,
	  .def = "this or acceptance_length is required", .unit = "fraction",
	  .meaning = "per-token acceptance a, tokens independent: acceptance length (1 - a^(k+1)) / (1 - a) "
		     "(Leviathan et al. 2023)" },
#undef SPEC

	/* ---- workload.collective (wl_collective.c) ---- */
	{ .sec = KS_COLLECTIVE, .key = "op", .kinds = KIND_COLL, .type = "name", .names = collective_op_names,
	  .required = true, .unit = "", .meaning = "the collective operation" },
	{ .sec = KS_COLLECTIVE, .key = "bytes", .kinds = KIND_COLL, .type = "number, array or object",
	  .range = "1 to 1 TiB; 1 to 64 sizes", .required = true, .unit = "bytes",
	  .meaning = "a size, a list of sizes, or {min, max, factor} (below); cut to whole bytes" },
	{ .sec = KS_COLLECTIVE, .key = "algorithm", .kinds = KIND_COLL, .type = "name", .names = collective_algo_names,
	  .def = "auto", .unit = "", .meaning = "auto chooses among ring, tree, NVLS and, on a mesh whose library "
					       "runs it (xGMI), direct, as NCCL and RCCL do (docs/explanation/calibration.md)" },
	{ .sec = KS_COLLECTIVE, .key = "fidelity", .kinds = KIND_COLL, .type = "name",
	  .names = collective_fidelity_names, .def = "analytic", .unit = "",
	  .meaning = "analytic (alpha-beta) or flows through the simulated fabric" },
	{ .sec = KS_BYTES, .key = "min", .kinds = KIND_COLL, .type = "number", .ranged = true, .lo = 1,
	  .hi = KEY_COLLECTIVE_BYTES_MAX, .required = true, .unit = "bytes", .meaning = "the first size" },
	{ .sec = KS_BYTES, .key = "max", .kinds = KIND_COLL, .type = "number", .ranged = true, .lo = 1,
	  .hi = KEY_COLLECTIVE_BYTES_MAX, .required = true, .unit = "bytes", .meaning = "the last size, at most" },
	{ .sec = KS_BYTES, .key = "factor", .kinds = KIND_COLL, .type = "number", .ranged = true, .lo = 1.01,
	  .hi = 1024, .def = "2", .unit = "", .meaning = "each size is the last one x factor" },

	/* ---- workload.gemm (wl_gemm.c) ---- */
	{ .sec = KS_GEMM, .key = "m", .kinds = KIND_GEMM, .type = "integer or array of integers",
	  .range = "1 to 2^24; 1 to 64 shapes", .required = true, .unit = "",
	  .meaning = "rows of A and C; an array gives one shape per element (m, n and k arrays advance together, a "
		     "number stands for every shape)" },
	{ .sec = KS_GEMM, .key = "n", .kinds = KIND_GEMM, .type = "integer or array of integers",
	  .range = "1 to 2^24; 1 to 64 shapes", .required = true, .unit = "", .meaning = "columns of B and C" },
	{ .sec = KS_GEMM, .key = "k", .kinds = KIND_GEMM, .type = "integer or array of integers",
	  .range = "1 to 2^24; 1 to 64 shapes", .required = true, .unit = "",
	  .meaning = "the inner (reduction) dimension" },

	/* ---- workload.fleet (wl_fleet.c; docs/explanation/fleet.md) ---- */
#define FLEET .kinds = KIND_FLEET
	{ .sec = KS_FLEET, FLEET, .key = "duration_h", .type = "number", .ranged = true, .lo = 0.001,
	  .hi = KEY_FLEET_HOURS_MAX, .required = true, .unit = "h", .meaning = "jobs arrive over this window" },
	{ .sec = KS_FLEET, FLEET, .key = "warmup_h", .type = "number", .ranged = true, .lo = 0,
	  .hi = KEY_FLEET_HOURS_MAX, .def = "0", .unit = "h",
	  .meaning = "jobs submitted before this are scheduled but not counted in the waits; less than duration_h" },
	{ .sec = KS_FLEET, FLEET, .key = "scheduler", .type = "object", .unit = "",
	  .meaning = "the queue's policy (workload.fleet.scheduler below)" },
	{ .sec = KS_FLEET, FLEET, .key = "objective", .type = "object", .def = "no sizing answer", .unit = "",
	  .meaning = "the P90 queue wait the sizing answer must meet (workload.fleet.objective below)" },
	{ .sec = KS_FLEET, FLEET, .key = "jobs", .type = "array of objects", .range = "1 to 64 job classes",
	  .required = true, .unit = "", .meaning = "the job classes (workload.fleet.jobs[] below)" },
	{ .sec = KS_FLEET_SCHEDULER, FLEET, .key = "policy", .type = "name", .names = fleet_policy_names,
	  .def = "fifo", .unit = "", .meaning = "sjf: on the user's estimate; priority: higher first; backfill: EASY" },
	{ .sec = KS_FLEET_SCHEDULER, FLEET, .key = "preemption", .type = "boolean", .def = "false", .unit = "",
	  .meaning = "a higher-priority job may stop lower ones, which restart from their last checkpoint" },
	{ .sec = KS_FLEET_SCHEDULER, FLEET, .key = "quotas", .type = "object", .range = "{team: 0.001 to 1}",
	  .unit = "fraction", .meaning = "priority only: the most of the cluster's GPUs a team's jobs may hold" },
	{ .sec = KS_FLEET_OBJECTIVE, FLEET, .key = "wait_p90_h", .type = "number", .ranged = true, .lo = 1e-6,
	  .hi = KEY_FLEET_HOURS_MAX, .required = true, .unit = "h", .meaning = "the P90 queue wait to meet" },
	{ .sec = KS_FLEET_OBJECTIVE, FLEET, .key = "applies_to", .type = "\"all\", \"fleet\" or array of names",
	  .def = "all", .unit = "",
	  .meaning = "the groups whose P90 wait must be within it: all (all jobs, every team's and every job "
		     "class's), fleet (all jobs only), or job class and team names" },
	{ .sec = KS_JOBS, FLEET, .key = "name", .type = "string", .def = "jobs[i]", .unit = "",
	  .meaning = "the class's name, unique" },
	{ .sec = KS_JOBS, FLEET, .key = "team", .type = "string", .def = "the class's name", .unit = "",
	  .meaning = "at most 32 teams in a fleet; stated on an sacct trace class, every job's team" },
	{ .sec = KS_JOBS, FLEET, .key = "priority", .type = "integer", .ranged = true, .lo = -1000000, .hi = 1000000,
	  .def = "0", .unit = "", .meaning = "higher runs first under policy priority" },
	{ .sec = KS_JOBS, FLEET, .key = "arrival", .type = "object", .def = "required but for an inference class",
	  .unit = "", .meaning = "how the class's jobs arrive (workload.fleet.jobs[].arrival below)" },
	{ .sec = KS_JOBS, FLEET, .key = "gpus", .type = "integer", .ranged = true, .lo = 1, .hi = KEY_FLEET_GPUS_MAX,
	  .def = "required with duration_s or workload", .unit = "GPUs",
	  .meaning = "GPUs per job, a whole number of nodes' worth when it spans nodes; not for a trace or an "
		     "inference class" },
	{ .sec = KS_JOBS, FLEET, .key = "duration_s", .type = "number or object", .ranged = true, .lo = 1,
	  .hi = FLEET_TRACE_SECONDS_MAX, .unit = "s",
	  .meaning = "seconds, or a distribution (workload.fleet.jobs[].duration_s below); or workload" },
	{ .sec = KS_JOBS, FLEET, .key = "estimate_factor", .type = "number", .ranged = true, .lo = 0.001, .hi = 1000,
	  .def = "1 (exact)", .unit = "", .meaning = "the user's estimate of a job's time = its duration x this; SJF "
						    "and backfill order by it" },
	{ .sec = KS_JOBS, FLEET, .key = "workload", .type = "object", .unit = "",
	  .meaning = "instead of duration_s: a training, finetune, inference or collective workload, read as a "
		     "scenario's workload is (its own failures are refused)" },
	{ .sec = KS_JOBS, FLEET, .key = "partition_teams", .type = "object", .range = "{partition: team}", .unit = "",
	  .meaning = "an sacct trace class only: the team of the jobs of each partition named" },
	{ .sec = KS_JOB_ARRIVAL, FLEET, .key = "process", .type = "name", .names = fleet_arrival_names,
	  .required = true, .unit = "", .meaning = "poisson {rate_per_h} or trace {trace, format}" },
	{ .sec = KS_JOB_ARRIVAL, FLEET, .key = "rate_per_h", .type = "number", .ranged = true, .lo = 1e-6, .hi = 1e6,
	  .def = "required for poisson", .unit = "jobs/h", .meaning = "jobs per hour" },
	{ .sec = KS_JOB_ARRIVAL, FLEET, .key = "trace", .type = "string", .def = "required for trace", .unit = "",
	  .meaning = "a job trace file, relative to the scenario (docs/explanation/fleet.md)" },
	{ .sec = KS_JOB_ARRIVAL, FLEET, .key = "format", .type = "name", .names = fleet_trace_format_names,
	  .def = "csv", .unit = "", .meaning = "the trace's format" },
	{ .sec = KS_JOB_DURATION, FLEET, .key = "dist", .type = "name", .names = fleet_duration_dist_names,
	  .required = true, .unit = "", .meaning = "fixed and exponential take mean, lognormal mean and sd, uniform "
						   "min and max; min and max clamp the others" },
	{ .sec = KS_JOB_DURATION, FLEET, .key = "mean", .type = "number", .ranged = true, .lo = 1,
	  .hi = FLEET_TRACE_SECONDS_MAX, .unit = "s", .meaning = "the mean duration" },
	{ .sec = KS_JOB_DURATION, FLEET, .key = "sd", .type = "number", .ranged = true, .lo = 0,
	  .hi = FLEET_TRACE_SECONDS_MAX, .unit = "s", .meaning = "the standard deviation (lognormal)" },
	{ .sec = KS_JOB_DURATION, FLEET, .key = "min", .type = "number", .ranged = true, .lo = 1,
	  .hi = FLEET_TRACE_SECONDS_MAX, .unit = "s", .meaning = "the shortest duration" },
	{ .sec = KS_JOB_DURATION, FLEET, .key = "max", .type = "number", .ranged = true, .lo = 1,
	  .hi = FLEET_TRACE_SECONDS_MAX, .unit = "s", .meaning = "the longest duration" },
#undef FLEET

	/* ---- candidates[] (candidate.c) ---- */
#define CAND .sec = KS_CANDIDATE, .kinds = KINDS_ALL
	{ CAND, .key = "name", .type = "string", .def = "N x PRESET", .unit = "", .meaning = "unique label" },
	{ CAND, .key = "description", .type = "string", .unit = "", .meaning = "free text, ignored" },
	{ CAND, .key = "preset", .type = "name", .range = "clustersim catalog presets", .unit = "",
	  .meaning = "a node or instance type; the fields below override it" },
	{ CAND, .key = "gpu", .type = "name", .range = "clustersim catalog gpus", .def = "the preset's; required "
											 "without a preset",
	  .unit = "", .meaning = "the GPU" },
	{ CAND, .key = "nodes", .type = "integer", .ranged = true, .lo = 1, .hi = 1000000, .def = "1", .unit = "nodes",
	  .meaning = "number of nodes (at most 4 million GPUs)" },
	{ CAND, .key = "gpus_per_node", .type = "integer", .ranged = true, .lo = 1, .hi = 1024,
	  .def = "the preset's, else 8", .unit = "GPUs", .meaning = "GPUs in a node" },
	{ CAND, .key = "scale_up", .type = "name", .range = "clustersim catalog fabrics",
	  .def = "the preset's, else the GPU's", .unit = "",
	  .meaning = "scale-up fabric; a gpu that replaces the preset's GPU brings its own" },
	{ CAND, .key = "nic", .type = "name", .range = "clustersim catalog fabrics", .def = "the preset's", .unit = "",
	  .meaning = "scale-out NIC type; required for more than one node" },
	{ CAND, .key = "nics_per_node", .type = "integer", .ranged = true, .lo = 0, .hi = 1024,
	  .def = "the preset's, else one per GPU", .unit = "NICs", .meaning = "scale-out NIC ports per node" },
	{ CAND, .key = "topology", .type = "object", .def = "the preset's", .unit = "",
	  .meaning = "the scale-out topology (candidates[].topology below)" },
	{ CAND, .key = "storage", .type = "array", .range = "up to 4 tiers", .def = "the preset's tiers", .unit = "",
	  .meaning = "storage tiers: a catalog storage name, or an object (candidates[].storage[] below)" },
	{ CAND, .key = "price", .type = "object", .def = "the catalog's for the preset's provider", .unit = "",
	  .meaning = "what an hour costs (candidates[].price below)" },
#undef CAND
	{ .sec = KS_TOPOLOGY, .kinds = KINDS_ALL, .key = "kind", .type = "name", .names = topology_kind_names,
	  .def = "the preset's, else rail", .unit = "",
	  .meaning = "rail: NIC i of every node on leaf i; fat-tree: a node's NICs on one leaf" },
	{ .sec = KS_TOPOLOGY, .kinds = KINDS_ALL, .key = "oversubscription", .type = "number", .ranged = true, .lo = 1,
	  .hi = 1000, .def = "1 (non-blocking)", .unit = "", .meaning = "downlink : uplink bandwidth at the leaves" },
	{ .sec = KS_TOPOLOGY, .kinds = KINDS_ALL, .key = "nodes_per_leaf", .type = "integer", .ranged = true, .lo = 1,
	  .hi = 1000000, .def = "32", .unit = "nodes", .meaning = "the leaf size" },
#define STOR .sec = KS_STORAGE, .kinds = KINDS_ALL
	{ STOR, .key = "tier", .type = "string", .def = "local, pfs or object, by kind", .unit = "",
	  .meaning = "the tier's label, which checkpoint.tier and data.tier name" },
	{ STOR, .key = "preset", .type = "name", .range = "clustersim catalog storage", .unit = "",
	  .meaning = "a catalog storage tier to start from" },
	{ STOR, .key = "kind", .type = "name", .names = storage_kind_names, .def = "the preset's; required without one",
	  .unit = "", .meaning = "the tier's kind" },
	{ STOR, .key = "read_GBps_per_node", .type = "number", .ranged = true, .lo = 0.0001, .hi = 1e6, .unit = "GB/s",
	  .meaning = "read rate of one node's client" },
	{ STOR, .key = "write_GBps_per_node", .type = "number", .ranged = true, .lo = 0.0001, .hi = 1e6, .unit = "GB/s",
	  .meaning = "write rate of one node's client" },
	{ STOR, .key = "aggregate_GBps", .type = "number", .ranged = true, .lo = 0.0001, .hi = 1e9, .unit = "GB/s",
	  .meaning = "the whole file system's rate; parallel-fs and object-store tiers need one" },
	{ STOR, .key = "latency_ms", .type = "number", .ranged = true, .lo = 0, .hi = 1e6, .unit = "ms",
	  .meaning = "latency per request" },
	{ STOR, .key = "capacity_tib", .type = "number", .ranged = true, .lo = 0.001, .hi = 1e7,
	  .def = "required for managed-lustre", .unit = "TiB",
	  .meaning = "managed-lustre only: at least the preset's minimum; the aggregate rate is capacity_tib x the "
		     "preset's MB/s per TiB (docs/explanation/catalog.md)" },
	{ STOR, .key = "usd_per_tb_month", .type = "number", .ranged = true, .lo = 0, .hi = 1e6,
	  .def = "the preset's (clustersim catalog storage); none without one", .unit = "USD/TB-month",
	  .meaning = "what holding 1e12 bytes for a month (730.5 h) costs there; managed-lustre: per TB provisioned; "
		     "0: in the instance price (storage_usd_p50, docs/explanation/whole-run.md)" },
	{ STOR, .key = "egress_usd_per_gb", .type = "number", .ranged = true, .lo = 0, .hi = 1000,
	  .def = "the preset's; none without one", .unit = "USD/GB",
	  .meaning = "what moving 1e9 bytes out of the provider costs (checkpoint.downloads)" },
#undef STOR

	/* ---- candidates[].price ---- */
#define PRICE .sec = KS_PRICE, .kinds = KINDS_ALL
	{ PRICE, .key = "provider", .type = "string", .range = "clustersim catalog prices", .def = "the preset's",
	  .unit = "", .meaning = "whose price is looked up in the catalog" },
	{ PRICE, .key = "type", .type = "name", .names = price_type_names, .def = "on-demand", .unit = "",
	  .meaning = "owned: hardware you buy, priced from pue, usd_per_kwh, purchase_usd and life_years "
		     "(docs/explanation/catalog.md, \"Owned hardware\"); capacity-block: capacity booked for a "
		     "fixed length and paid up front, billed in whole blocks (\"Capacity blocks\")" },
	{ PRICE, .key = "term", .type = "string", .unit = "", .meaning = "a reserved price's term: 1y or 3y, a "
	  "commitment paid for every hour of it (docs/explanation/catalog.md, \"Commitments\")" },
	{ PRICE, .key = "offering", .type = "string", .def = "the preset's, when the GPU is the preset's", .unit = "",
	  .meaning = "the instance type the price is for" },
	{ PRICE, .key = "usd_per_gpu_hour", .type = "number", .ranged = true, .lo = 0.0001, .hi = 1e4,
	  .def = "the catalog's", .unit = "USD/GPU-h", .meaning = "your own price" },
	{ PRICE, .key = "billing_s", .type = "number", .ranged = true, .lo = 1, .hi = 31622400,
	  .def = "the provider's, else 3600", .unit = "s", .meaning = "billing granularity" },
	{ PRICE, .key = "minimum_s", .type = "number", .ranged = true, .lo = 0, .hi = 31622400,
	  .def = "the provider's, else 0", .unit = "s", .meaning = "the least time billed" },
	{ PRICE, .key = "pue", .type = "number", .ranged = true, .lo = 1, .hi = 5, .def = "required for owned",
	  .unit = "", .meaning = "owned: power usage effectiveness" },
	{ PRICE, .key = "usd_per_kwh", .type = "number", .ranged = true, .lo = 0, .hi = 10, .def = "required for owned",
	  .unit = "USD/kWh", .meaning = "owned: the electricity price" },
	{ PRICE, .key = "purchase_usd", .type = "number", .ranged = true, .lo = 0, .hi = 1e9,
	  .def = "the preset's list price (clustersim catalog presets), else required for owned", .unit = "USD",
	  .meaning = "owned: a node's purchase, amortized over life_years" },
	{ PRICE, .key = "life_years", .type = "number", .ranged = true, .lo = 0.1, .hi = 50, .def = "required for owned",
	  .unit = "years", .meaning = "owned: the life the purchase is amortized over" },
	{ PRICE, .key = "node_power_kw", .type = "number", .ranged = true, .lo = 0.01, .hi = 10000,
	  .def = "the preset's node_power_kw", .unit = "kW", .meaning = "owned: a node's power" },
	{ PRICE, .key = "colo_usd_per_kw_month", .type = "number", .ranged = true, .lo = 0, .hi = 1e5, .def = "0",
	  .unit = "USD/kW-month", .meaning = "owned: colocation rent per kW of the node's power" },
	{ PRICE, .key = "utilization", .type = "number", .ranged = true, .lo = 0.001, .hi = 1, .def = "1",
	  .unit = "fraction", .meaning = "owned: the fraction of the year's hours the hardware is used; the fixed costs "
				     "(purchase, colocation) of an hour used are over it; plan says the break-even "
				     "utilization against each rented candidate (docs/explanation/catalog.md, \"Owned hardware\")" },
	{ PRICE, .key = "preemptions_per_instance_h", .type = "number", .ranged = true, .lo = 0, .hi = 1000,
	  .unit = "1/h", .meaning = "spot only: preemptions per instance-hour, simulated (docs/explanation/whole-run.md); needs "
				  "capacity_wait_s" },
	{ PRICE, .key = "preemption_notice_s", .type = "number", .ranged = true, .lo = 0, .hi = 86400,
	  .def = "the provider's (AWS 120 s, GCP 30 s)", .unit = "s", .meaning = "spot only: the warning before a "
										 "preemption" },
	{ PRICE, .key = "capacity_wait_s", .type = "number", .ranged = true, .lo = 0, .hi = 1e8,
	  .def = "required with preemptions_per_instance_h", .unit = "s",
	  .meaning = "spot only: the seconds until capacity is back after a preemption" },
#undef PRICE

	/* ---- monte_carlo, objective, validation (scenario.c) ---- */
	{ .sec = KS_MONTE_CARLO, .key = "trials", .kinds = KINDS_ALL & ~(KIND_INFER | KIND_GEMM), .type = "integer", .ranged = true,
	  .lo = 1, .hi = 1000000, .def = "100", .unit = "trials", .meaning = "seeded trials for whole-run estimates "
									     "(P50, P90)" },
	{ .sec = KS_OBJECTIVE, .key = "deadline_h", .kinds = KINDS_TRAINING | KIND_COLL, .type = "number",
	  .ranged = true, .lo = 0.001, .hi = 1e7, .unit = "h", .meaning = "the wall time to finish within" },
	{ .sec = KS_OBJECTIVE, .key = "budget_usd", .kinds = KINDS_TRAINING | KIND_COLL, .type = "number",
	  .ranged = true, .lo = 0.01, .hi = 1e13, .unit = "USD", .meaning = "the cost to stay within" },
	{ .sec = KS_VALIDATION, .key = "id", .kinds = KINDS_ALL, .type = "string", .required = true, .unit = "",
	  .meaning = "the validation case's id" },
	{ .sec = KS_VALIDATION, .key = "metric", .kinds = KINDS_ALL, .type = "name",
	  .range = "a result column, samples_per_s or busbw_per_nic_GBps", .required = true, .unit = "",
	  .meaning = "the metric the published figure is" },
	{ .sec = KS_VALIDATION, .key = "published", .kinds = KINDS_ALL, .type = "number", .ranged = true, .lo = 1e-12,
	  .hi = 1e15, .required = true, .unit = "the metric's", .meaning = "the published figure" },
	{ .sec = KS_VALIDATION, .key = "source", .kinds = KINDS_ALL, .type = "string", .unit = "",
	  .meaning = "where it was published" },
	{ .sec = KS_VALIDATION, .key = "family", .kinds = KINDS_ALL, .type = "string", .def = "the id's prefix",
	  .unit = "", .meaning = "the published source the row belongs to, for validate's per-family summary" },
	{ .sec = KS_MEASURED, .key = "metric", .kinds = KINDS_ALL, .type = "name",
	  .range = "validation.metric's names", .required = true, .unit = "",
	  .meaning = "the metric measured" },
	{ .sec = KS_MEASURED, .key = "value", .kinds = KINDS_ALL, .type = "number", .ranged = true, .lo = 1e-12,
	  .hi = 1e15, .required = true, .unit = "the metric's", .meaning = "the measured figure" },
	{ .sec = KS_MEASURED, .key = "with", .kinds = KINDS_ALL, .type = "string", .unit = "",
	  .meaning = "what it was measured with (tool, version, command), free text; the row's source with the file" },
	{ .sec = KS_MEASURED, .key = "id", .kinds = KINDS_ALL, .type = "string", .def = "the file's name (and line)",
	  .unit = "", .meaning = "the row's id" },
	{ .sec = KS_MEASURED, .key = "family", .kinds = KINDS_ALL, .type = "string", .def = "the file's name",
	  .unit = "", .meaning = "the group of rows for validate's per-family summary" },

	/* ---- search (space.c; docs/explanation/planning.md) ---- */
#define SEARCH .sec = KS_SEARCH, .kinds = KINDS_ALL
	{ SEARCH, .key = "presets", .type = "\"all\" or array of names", .def = "the scenario's candidates",
	  .unit = "", .meaning = "the bases: these catalog presets (instance or node types), or all of them" },
	{ SEARCH, .key = "gpus", .type = "array of names", .def = "all", .unit = "",
	  .meaning = "keep only shapes of these GPUs (catalog names or aliases)" },
	{ SEARCH, .key = "providers", .type = "array of names", .def = "all", .unit = "",
	  .meaning = "keep only shapes priced by these providers" },
	{ SEARCH, .key = "price_types", .type = "array of names",
	  .range = "on-demand, spot, reserved, reserved-1y, reserved-3y, capacity-block",
	  .def = "each base's own price", .unit = "",
	  .meaning = "one shape per price type per base; reserved-1y and reserved-3y: the 1- and 3-year commitment "
		     "rows (reserved alone: the base's first commitment row, whatever its term)" },
	{ SEARCH, .key = "nodes", .type = "array or object", .range = "1 to 100,000",
	  .def = "each base's own count (1 for a preset)", .unit = "nodes",
	  .meaning = "node counts: a list, or every count from min to max (search.nodes below)" },
	{ SEARCH, .key = "mix", .type = "boolean", .def = "false", .unit = "",
	  .meaning = "serving: also search mixes of two GPU types" },
	{ SEARCH, .key = "spot", .type = "object", .unit = "",
	  .meaning = "the preemptions of every spot shape whose base's price gives none (search.spot below)" },
	{ SEARCH, .key = "tie_tolerance", .type = "number", .ranged = true, .lo = 0, .hi = 0.5, .def = "0.01",
	  .unit = "fraction", .meaning = "P50 times within this fraction of each other tie; --tie replaces it" },
	{ SEARCH, .key = "disaggregated", .type = "boolean", .def = "false", .unit = "",
	  .meaning = "serving: also search prefill/decode splits and say per provider whether disaggregation is worth "
		     "it" },
#undef SEARCH
	{ .sec = KS_SEARCH_NODES, .kinds = KINDS_ALL, .key = "min", .type = "integer", .ranged = true, .lo = 1,
	  .hi = 100000, .def = "1", .unit = "nodes", .meaning = "the fewest nodes" },
	{ .sec = KS_SEARCH_NODES, .kinds = KINDS_ALL, .key = "max", .type = "integer", .ranged = true, .lo = 1,
	  .hi = 100000, .required = true, .unit = "nodes", .meaning = "the most nodes" },
	{ .sec = KS_SEARCH_SPOT, .kinds = KINDS_ALL, .key = "preemptions_per_instance_h", .type = "number",
	  .ranged = true, .lo = 0, .hi = 1000, .required = true, .unit = "1/h",
	  .meaning = "preemptions per instance-hour" },
	{ .sec = KS_SEARCH_SPOT, .kinds = KINDS_ALL, .key = "capacity_wait_s", .type = "number", .ranged = true,
	  .lo = 0, .hi = 1e8, .required = true, .unit = "s",
	  .meaning = "the seconds until capacity is back after a preemption" },
	{ .sec = KS_SEARCH_SPOT, .kinds = KINDS_ALL, .key = "preemption_notice_s", .type = "number", .ranged = true,
	  .lo = 0, .hi = 86400, .def = "the provider's", .unit = "s", .meaning = "the warning before a preemption" },
};

const size_t key_rows_count = sizeof key_rows / sizeof key_rows[0];
