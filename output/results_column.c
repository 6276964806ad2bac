#include "results_column.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/*
 * Every column a result row, a sweep or validate can have: its kind (how a
 * table shows it, which JSON type it is), its unit as --columns help says
 * it, and what it means. One entry per column name; a name means the same
 * in every kind that has it.
 */
static const struct results_column columns[] = {
	/* the six leading columns */
	{ "scenario", UNIT_TEXT, "text", "the scenario's name (its file name without .json)" },
	{ "candidate", UNIT_TEXT, "text", "the candidate cluster's name",
	  "Candidate" },
	{ "row_id", UNIT_ID, "id", "the row's number (in a sweep: the point's)" },
	{ "seed", UNIT_ID, "id", "the random seed the row was computed with" },
	{ "status", UNIT_TEXT, "text", "ok, oom, invalid, unsupported or error (docs/reference/results.md)" },
	{ "reason", UNIT_TEXT, "text", "why the status, or what is worth knowing about an ok row" },
	/* the cluster */
	{ "gpu", UNIT_TEXT, "text", "the GPU's catalog name",
	  "GPU" },
	{ "nodes", UNIT_COUNT, "count", "nodes in the candidate",
	  "Nodes" },
	{ "gpus_per_node", UNIT_COUNT, "count", "GPUs in each node",
	  "GPUs per node" },
	{ "gpus", UNIT_COUNT, "count", "GPUs in all",
	  "GPUs" },
	{ "scale_up", UNIT_TEXT, "text", "the fabric inside a node (NVLink, NVSwitch, PCIe)" },
	{ "nic", UNIT_TEXT, "text", "the network card between nodes" },
	{ "nics_per_node", UNIT_COUNT, "count", "network cards in each node" },
	{ "precision", UNIT_TEXT, "text", "the workload's number format (bf16, fp8...)" },
	{ "peak_pflops", UNIT_NUMBER, "PFLOP/s", "dense peak of all GPUs in the workload's precision",
	  "Peak" },
	{ "hbm_total_gb", UNIT_NUMBER, "GB (1e9 bytes)", "GPU memory of all GPUs",
	  "GPU memory, all GPUs" },
	{ "scale_up_GBps_per_gpu", UNIT_NUMBER, "GB/s", "scale-up bandwidth of one GPU",
	  "Scale-up bandwidth per GPU" },
	{ "scale_out_GBps_per_gpu", UNIT_NUMBER, "GB/s", "scale-out (between nodes) bandwidth of one GPU",
	  "Scale-out bandwidth per GPU" },
	{ "usd_per_gpu_hour", UNIT_USD, "USD", "price of one GPU for an hour",
	  "Price per GPU-hour" },
	{ "usd_per_hour", UNIT_USD, "USD", "price of the whole candidate for an hour (serving: of the whole nodes the replicas occupy)",
	  "Price per hour" },
	{ "price_basis", UNIT_TEXT, "text", "where the price comes from (catalog entry and source, or the scenario)" },
	{ "provider", UNIT_TEXT, "text", "the provider of the catalog price the cost used (empty for a price the scenario gives without one, or without a price)",
	  "Provider" },
	/* a gemm workload (one standalone GEMM per shape) */
	{ "m", UNIT_COUNT, "count", "GEMM rows of A and C" },
	{ "n", UNIT_COUNT, "count", "GEMM columns of B and C" },
	{ "k", UNIT_COUNT, "count", "GEMM inner (reduction) dimension" },
	{ "gemm_tflops", UNIT_NUMBER, "TFLOP/s", "2 m n k / time of one GEMM, as a GEMM benchmark reports it",
	  "GEMM throughput" },
	{ "peak_tflops", UNIT_NUMBER, "TFLOP/s", "one GPU's dense peak at the workload's precision",
	  "Peak per GPU" },
	{ "mamf", UNIT_FRACTION, "fraction", "the catalog's maximum achievable fraction of that peak for large GEMMs",
	  "MAMF" },
	{ "shape_efficiency", UNIT_FRACTION, "fraction", "the shape's tile and wave efficiency (1: the large-GEMM rate)",
	  "Shape efficiency" },
	{ "bound", UNIT_TEXT, "text", "compute or hbm: which bound set the GEMM's time" },
	/* a collective */
	{ "op", UNIT_TEXT, "text", "the collective (all_reduce, all_gather...)" },
	{ "algorithm", UNIT_TEXT, "text", "ring, tree, hierarchical or nvls (auto: the fastest)" },
	{ "bytes", UNIT_COUNT, "bytes", "the message size",
	  "Message size" },
	{ "time_us", UNIT_NUMBER, "us", "time of one collective, or of one GEMM (gemm)",
	  "Time" },
	{ "algbw_GBps", UNIT_NUMBER, "GB/s", "algorithm bandwidth: size / time (nccl-tests)",
	  "Algorithm bandwidth" },
	{ "busbw_GBps", UNIT_NUMBER, "GB/s", "bus bandwidth: algbw x the op's factor (nccl-tests)",
	  "Bus bandwidth" },
	{ "fidelity", UNIT_TEXT, "text", "analytic (alpha-beta) or flows (through the simulated fabric)" },
	{ "protocol", UNIT_TEXT, "text", "NCCL's protocol (LL, LL128, Simple)" },
	/* training: the plan */
	{ "tp", UNIT_COUNT, "count", "tensor-parallel degree" },
	{ "pp", UNIT_COUNT, "count", "pipeline-parallel stages" },
	{ "vpp", UNIT_COUNT, "count", "virtual pipeline stages per GPU (interleaved schedule)" },
	{ "dp", UNIT_COUNT, "count", "data-parallel replicas" },
	{ "cp", UNIT_COUNT, "count", "context-parallel degree" },
	{ "ep", UNIT_COUNT, "count", "expert-parallel degree" },
	{ "zero", UNIT_COUNT, "stage", "ZeRO stage (0: none, 1: optimizer sharded, 3: everything)" },
	{ "schedule", UNIT_TEXT, "text", "pipeline schedule (gpipe, 1f1b, interleaved, zb-h1)" },
	{ "recompute", UNIT_TEXT, "text", "activation recomputation (none, selective, full)" },
	{ "micro_batch", UNIT_COUNT, "sequences", "sequences per micro-batch" },
	{ "mem_per_gpu_gb", UNIT_NUMBER, "GB (1e9 bytes)", "memory one GPU needs (the same as mem_per_gpu_gib, in 1e9 bytes)",
	  "Memory per GPU" },
	/* training: the step */
	{ "step_time_s", UNIT_NUMBER, "s", "time of one training step",
	  "Step time" },
	{ "tokens_per_s", UNIT_NUMBER, "tokens/s", "training throughput of the whole cluster",
	  "Training throughput" },
	{ "tflops_per_gpu", UNIT_NUMBER, "TFLOP/s", "model FLOP/s per GPU",
	  "Model FLOP/s per GPU" },
	{ "mfu", UNIT_FRACTION, "fraction", "model FLOPs utilization: model FLOP/s / dense peak",
	  "MFU" },
	{ "hfu", UNIT_FRACTION, "fraction", "hardware FLOPs utilization (with recompute) / dense peak",
	  "HFU" },
	/* training: the whole run */
	{ "steps", UNIT_COUNT, "count", "steps of the whole run (tokens / global batch, rounded up)",
	  "Steps" },
	{ "wall_time_p50_h", UNIT_HOURS, "h", "wall-clock time of the whole run, median",
	  "Wall time, P50" },
	{ "wall_time_p90_h", UNIT_HOURS, "h", "wall-clock time of the whole run, 90th percentile",
	  "Wall time, P90" },
	{ "ettr", UNIT_FRACTION, "fraction", "effective training time ratio: productive time / wall time",
	  "ETTR" },
	{ "gpu_hours", UNIT_COUNT, "GPU-hours", "GPUs x wall time",
	  "GPU-hours" },
	{ "cost_usd_p50", UNIT_USD, "USD", "rental cost of the whole run, median: usd_per_hour x billed_h; with a catalog price that has a band or an age, the median over the trials' costs and the price's band (docs/explanation/catalog.md, \"Price uncertainty: the band\")",
	  "Cost, P50" },
	{ "cost_usd_p90", UNIT_USD, "USD", "rental cost of the whole run, 90th percentile, over the trials and the price's band",
	  "Cost, P90" },
	{ "usd_per_mtok", UNIT_USD, "USD", "cost per million tokens: training, per million tokens trained on (cost_usd_p50 / tokens); serving, per million output tokens (the same figure as usd_per_mtok_output)",
	  "Cost per million tokens" },
	{ "frac_compute", UNIT_FRACTION, "fraction", "share of the GPUs' wall time spent computing",
	  "Compute" },
	{ "frac_comm_exposed", UNIT_FRACTION, "fraction", "share spent in communication not hidden behind compute",
	  "Communication exposed" },
	{ "frac_bubble", UNIT_FRACTION, "fraction", "share spent idle in the pipeline's bubble",
	  "Pipeline bubble" },
	{ "frac_checkpoint", UNIT_FRACTION, "fraction", "share spent writing checkpoints",
	  "Checkpoints" },
	{ "frac_lost_to_failures", UNIT_FRACTION, "fraction", "share lost to failures and restarts",
	  "Lost to failures" },
	{ "frac_idle", UNIT_FRACTION, "fraction", "share spent otherwise idle (the frac_ columns add up to 1)",
	  "Idle" },
	{ "t_compute_s", UNIT_NUMBER, "s", "the step's kernels, recompute included" },
	{ "t_optimizer_s", UNIT_NUMBER, "s", "the step's optimizer update" },
	{ "t_comm_tp_s", UNIT_NUMBER, "s", "the step's tensor-parallel collectives on the critical path" },
	{ "t_comm_ep_s", UNIT_NUMBER, "s", "the step's expert-parallel all-to-alls on the critical path" },
	{ "t_comm_cp_s", UNIT_NUMBER, "s", "the step's context-parallel transfers on the critical path" },
	{ "t_comm_dp_s", UNIT_NUMBER, "s", "the step's data-parallel reductions not hidden by the backward pass (with ZeRO-3, also the per-layer weight gathers and gradient reduce-scatters not hidden)" },
	{ "t_bubble_s", UNIT_NUMBER, "s", "the step's pipeline bubble" },
	{ "t_wait_s", UNIT_NUMBER, "s", "the rest of the step (waits)" },
	{ "t_straggler_s", UNIT_NUMBER, "s", "the step's wait for the slowest GPU of the job: sigma x E[max of N normal draws] x t_compute_s (docs/explanation/training.md)" },
	{ "recompute_modules", UNIT_TEXT, "text", "what a selective recompute recomputes, Megatron-Core's --recompute-modules joined by + (core_attn by default: docs/explanation/training.md); empty without a selective recompute" },
	{ "expert_tp", UNIT_COUNT, "count", "the experts' tensor-parallel degree (MoE parallel folding; = tp when not folded: docs/explanation/training.md); empty without expert parallelism" },
	{ "micro_batches", UNIT_COUNT, "count", "micro-batches per step on each pipeline" },
	{ "sequence_parallel", UNIT_BOOL, "boolean", "sequence parallelism with tensor parallelism" },
	{ "plans_tried", UNIT_COUNT, "count", "plans that divide the cluster, searched when a plan field is auto" },
	{ "mem_per_gpu_gib", UNIT_NUMBER, "GiB (2^30 bytes)", "memory one GPU needs, in the unit of gpu_memory_gib",
	  "Memory per GPU" },
	{ "gpu_memory_gib", UNIT_NUMBER, "GiB (2^30 bytes)", "memory of one GPU (the catalog's memory_gib)",
	  "GPU memory" },
	{ "billed_h", UNIT_HOURS, "h", "time each instance is billed for: wall time, median, rounded up to the provider's billing granularity, at least its minimum",
	  "Billed time" },
	{ "meets_deadline_p50", UNIT_BOOL, "boolean", "the median wall time is at most objective.deadline_h (empty without a deadline or a wall time)" },
	{ "meets_deadline_p90", UNIT_BOOL, "boolean", "the 90th-percentile wall time is at most objective.deadline_h (empty without a deadline or a wall time)" },
	{ "meets_budget_p50", UNIT_BOOL, "boolean", "the median cost is at most objective.budget_usd (empty without a budget or a price)" },
	{ "meets_budget_p90", UNIT_BOOL, "boolean", "the 90th-percentile cost is at most objective.budget_usd (empty without a budget or a price)" },
	{ "t_data_stall_s", UNIT_NUMBER, "s", "the step's wait for its data from workload.data's tier (part of step_time_s; empty without a data block)" },
	{ "frac_data_stall", UNIT_FRACTION, "fraction", "share of the GPUs' wall time waiting for data (one of the frac_ columns that add up to 1; empty without a data block)",
	  "Waiting for data" },
	{ "global_batch_tokens", UNIT_COUNT, "tokens", "the global batch the plan runs with (rounded with global_batch_tokens.round)",
	  "Global batch" },
	{ "pipeline_split", UNIT_TEXT, "text", "how the layers are cut into pipeline stages: layers (evenly) or embedding+loss (each takes a layer's place); empty at pp 1 or with a pipeline_layout" },
	{ "free_stage_input", UNIT_BOOL, "boolean", "each pipeline chunk's input freed after its first layer (Llama 3's early deallocation)" },
	{ "storage_usd_p50", UNIT_USD, "USD", "storage and data dollars of the whole run, median: each tier's footprint (checkpoint.keep checkpoints, data.size_gb; managed Lustre: its capacity) x its usd_per_tb_month x held time, plus checkpoint.downloads x egress; not in cost_usd_p50; empty when a tier charged has no price (docs/explanation/whole-run.md)" },
	{ "storage_usd_p90", UNIT_USD, "USD", "storage_usd_p50 at the 90th percentile of held time" },
	{ "storage_tb", UNIT_NUMBER, "TB (1e12 bytes)", "the bytes storage_usd_p50 charges for, over every tier" },
	{ "total_usd_p50", UNIT_USD, "USD", "cost_usd_p50 + storage_usd_p50: what the run's instances and storage cost together, median" },
	{ "total_usd_p90", UNIT_USD, "USD", "cost_usd_p90 + storage_usd_p90" },
	{ "usd_per_gpu_hour_p10", UNIT_USD, "USD", "the price per GPU-hour's 10th percentile in the band cost_usd_p50/p90 hold (serving: the band of usd_per_hour's price): the catalog row's low, widened by its age (= usd_per_gpu_hour without a band; docs/explanation/catalog.md, \"Price uncertainty: the band\")",
	  "Price per GPU-hour, P10" },
	{ "usd_per_gpu_hour_p90", UNIT_USD, "USD", "the same band's 90th percentile: the catalog row's high, widened by its age",
	  "Price per GPU-hour, P90" },
	{ "numerics", UNIT_TEXT, "text", "the plan's settings that change numerics from Megatron's defaults, joined by + (grad_reduce_bf16, optimizer_moments_bf16, moe_dispatch_fp8, fp8_activation_cache; empty: none; docs/explanation/training.md)" },
	/* plan (docs/explanation/planning.md) */
	{ "front", UNIT_TEXT, "text", "on the time/cost Pareto front of the P50 figures (p50), the P90 ones (p90) or both (p50+p90); serving: yes (one front of TTFT P99 and USD per hour)" },
	{ "plan_rank", UNIT_COUNT, "rank", "place on the P50 front by cost, 1 the cheapest (empty off it)",
	  "Rank on the front" },
	{ "why", UNIT_TEXT, "text", "why this shape is a choice, against its neighbour on the front" },
	{ "price_type", UNIT_TEXT, "text", "the type of the price the cost used: on-demand, spot, reserved, capacity-block or owned, a reserved price with its commitment term as reserved-1y or reserved-3y (the spelling search.price_types takes; empty without a price); plan: the shape's price type (the one it asks for when the catalog cannot make it)",
	  "Price type" },
	{ "fate", UNIT_TEXT, "text", "what the search did with the shape: evaluated, or why not: unresolved, unpriced, no_memory, past_deadline, over_budget, dominated" },
	{ "fate_reason", UNIT_TEXT, "text", "why the shape is not on the front, with the figures (empty on it)" },
	{ "candidate_json", UNIT_TEXT, "text", "the candidate object of the shape: clustersim run SCENARIO --set 'candidates=[candidate_json]' evaluates it alone" },
	/* plan, serving with search.disaggregated (docs/explanation/planning.md): the cheapest split of the row's instance type */
	{ "disagg_prefill_replicas", UNIT_COUNT, "count", "the cheapest prefill/decode split of the row's instance type that meets the SLO on fewer instances than its cheapest colocated deployment: its prefill replicas (empty: none)" },
	{ "disagg_decode_replicas", UNIT_COUNT, "count", "that split's decode replicas" },
	{ "disagg_prefill_tp", UNIT_COUNT, "count", "that split's tensor-parallel GPUs per prefill replica" },
	{ "disagg_decode_tp", UNIT_COUNT, "count", "that split's tensor-parallel GPUs per decode replica" },
	{ "disagg_gpus", UNIT_COUNT, "count", "GPUs that split's replicas occupy" },
	{ "disagg_usd_per_hour", UNIT_USD, "USD", "that split's whole instances for an hour",
	  "Disaggregated price per hour" },
	{ "disagg_usd_per_mtok", UNIT_USD, "USD", "that split's cost per million output tokens",
	  "Disaggregated cost per million output tokens" },
	{ "disagg_ttft_p99_ms", UNIT_NUMBER, "ms", "that split's time to first token (KV transfer included), 99th percentile" },
	{ "disagg_tpot_p99_ms", UNIT_NUMBER, "ms", "that split's time per output token, 99th percentile" },
	{ "disagg_kv_transfer_p99_ms", UNIT_NUMBER, "ms", "that split's KV cache move from prefill to decode, 99th percentile" },
	{ "disagg_colocated_replicas", UNIT_COUNT, "count", "the cheapest colocated deployment of the row's instance type at any tp (the row's, or fewer instances at another tp): its replicas" },
	{ "disagg_colocated_tp", UNIT_COUNT, "count", "that colocated deployment's tensor-parallel GPUs per replica" },
	{ "disagg_colocated_usd_per_hour", UNIT_USD, "USD", "that colocated deployment's whole instances for an hour" },
	{ "disagg_saving", UNIT_FRACTION, "fraction", "1 - the split's disagg_usd_per_hour / disagg_colocated_usd_per_hour" },
	/* inference */
	{ "replicas", UNIT_COUNT, "count", "model replicas serving requests",
	  "Replicas" },
	{ "rate_per_s", UNIT_NUMBER, "requests/s", "request arrival rate",
	  "Request rate" },
	{ "throughput_tok_s", UNIT_NUMBER, "tokens/s", "tokens processed per second, input and output",
	  "Throughput, prompt and output tokens" },
	{ "output_tok_s", UNIT_NUMBER, "tokens/s", "tokens generated per second",
	  "Output tokens per second" },
	{ "ttft_p50_ms", UNIT_NUMBER, "ms", "time to first token, median",
	  "Time to first token, P50" },
	{ "ttft_p99_ms", UNIT_NUMBER, "ms", "time to first token, 99th percentile",
	  "Time to first token, P99" },
	{ "tpot_p50_ms", UNIT_NUMBER, "ms", "time per output token, median",
	  "Time per output token, P50" },
	{ "tpot_p99_ms", UNIT_NUMBER, "ms", "time per output token, 99th percentile",
	  "Time per output token, P99" },
	{ "e2e_p50_s", UNIT_NUMBER, "s", "request latency end to end, median",
	  "End-to-end latency, P50" },
	{ "e2e_p99_s", UNIT_NUMBER, "s", "request latency end to end, 99th percentile",
	  "End-to-end latency, P99" },
	{ "slo_attainment", UNIT_FRACTION, "fraction", "share of requests that meet the latency objectives",
	  "SLO attainment" },
	{ "kv_util", UNIT_FRACTION, "fraction", "share of the KV cache's blocks in use, time-averaged",
	  "KV cache in use" },
	{ "prefill_replicas", UNIT_COUNT, "count", "disaggregated serving: replicas that compute prompts" },
	{ "decode_replicas", UNIT_COUNT, "count", "disaggregated serving: replicas that generate the output tokens" },
	{ "requests", UNIT_COUNT, "count", "requests served (all sent ones finish)" },
	{ "request_per_s", UNIT_NUMBER, "requests/s", "requests completed per second (completed / first arrival to last completion)",
	  "Requests completed per second" },
	{ "goodput_req_s", UNIT_NUMBER, "requests/s", "requests completed per second that meet every SLO",
	  "Goodput" },
	{ "ttft_p90_ms", UNIT_NUMBER, "ms", "time to first token, 90th percentile",
	  "Time to first token, P90" },
	{ "tpot_p90_ms", UNIT_NUMBER, "ms", "time per output token, 90th percentile",
	  "Time per output token, P90" },
	{ "itl_p50_ms", UNIT_NUMBER, "ms", "inter-token latency (every gap between two output tokens), median",
	  "Inter-token latency, P50" },
	{ "itl_p90_ms", UNIT_NUMBER, "ms", "inter-token latency, 90th percentile",
	  "Inter-token latency, P90" },
	{ "itl_p99_ms", UNIT_NUMBER, "ms", "inter-token latency, 99th percentile",
	  "Inter-token latency, P99" },
	{ "e2e_p90_s", UNIT_NUMBER, "s", "request latency end to end, 90th percentile",
	  "End-to-end latency, P90" },
	{ "mean_in_system", UNIT_NUMBER, "requests", "requests waiting or running, time-averaged (Little's law: rate x mean latency)",
	  "Requests in the system" },
	{ "gpu_busy", UNIT_FRACTION, "fraction", "share of the replicas' time spent in batch steps",
	  "GPU busy" },
	{ "flops_util", UNIT_FRACTION, "fraction", "achieved FLOP/s / the replicas' dense peak, over the run",
	  "FLOP/s utilization" },
	{ "hbm_util", UNIT_FRACTION, "fraction", "achieved HBM bytes/s / the replicas' HBM bandwidth, over the run",
	  "HBM bandwidth utilization" },
	{ "kv_util_peak", UNIT_FRACTION, "fraction", "share of the KV cache's blocks in use, at the most",
	  "KV cache in use, peak" },
	{ "kv_capacity_tokens", UNIT_NUMBER, "tokens", "tokens the KV cache of one replica holds",
	  "KV cache capacity" },
	{ "weights_gb_per_gpu", UNIT_NUMBER, "GB (1e9 bytes)", "model weights held by one GPU",
	  "Weights per GPU" },
	{ "preemptions", UNIT_COUNT, "count", "sequences evicted from the KV cache and recomputed" },
	{ "kv_transfer_p50_ms", UNIT_NUMBER, "ms", "disaggregated: moving a request's KV cache from prefill to decode, median",
	  "KV transfer, P50" },
	{ "kv_transfer_p99_ms", UNIT_NUMBER, "ms", "disaggregated: moving a request's KV cache, 99th percentile",
	  "KV transfer, P99" },
	{ "usd_per_mtok_total", UNIT_USD, "USD", "serving: cost per million prompt and output tokens (usd_per_hour / all tokens of an hour x 1e6)",
	  "Cost per million prompt and output tokens" },
	{ "usd_per_mtok_output", UNIT_USD, "USD", "serving: cost per million output tokens (usd_per_hour / output tokens of an hour x 1e6; the same figure as usd_per_mtok)",
	  "Cost per million output tokens" },
	{ "usd_per_mtok_output_p10", UNIT_USD, "USD", "serving: usd_per_mtok_output at the price band's 10th percentile (usd_per_gpu_hour_p10; the throughput is the simulated one)",
	  "Cost per million output tokens, price P10" },
	{ "usd_per_mtok_output_p90", UNIT_USD, "USD", "serving: usd_per_mtok_output at the price band's 90th percentile (usd_per_gpu_hour_p90)",
	  "Cost per million output tokens, price P90" },
	{ "slo_met", UNIT_BOOL, "boolean", "serving: the p99 TTFT and TPOT are within workload.serving.slo (empty without an slo)" },
	{ "gpus_used", UNIT_COUNT, "count", "serving: GPUs the replicas occupy (the dollars are for the whole nodes they are on)",
	  "GPUs used" },
	/* fleet */
	{ "jobs_done", UNIT_COUNT, "count", "fleet: jobs (submitted after warmup_h) that completed; a team's row: that team's",
	  "Jobs done" },
	{ "queue_wait_p50_h", UNIT_HOURS, "h", "fleet: submission to start (all the job's GPUs at once), median",
	  "Queue wait, P50" },
	{ "queue_wait_p90_h", UNIT_HOURS, "h", "fleet: submission to start, 90th percentile (what objective.wait_p90_h bounds)",
	  "Queue wait, P90" },
	{ "queue_wait_p99_h", UNIT_HOURS, "h", "fleet: submission to start, 99th percentile",
	  "Queue wait, P99" },
	{ "queue_wait_mean_h", UNIT_HOURS, "h", "fleet: submission to start, mean",
	  "Queue wait, mean" },
	{ "jct_p50_h", UNIT_HOURS, "h", "fleet: job completion time (submission to completion), median",
	  "Job completion time, P50" },
	{ "jct_p90_h", UNIT_HOURS, "h", "fleet: job completion time, 90th percentile",
	  "Job completion time, P90" },
	{ "utilization", UNIT_FRACTION, "fraction", "fleet: allocated GPU-hours / held GPU-hours",
	  "Utilization" },
	{ "busy_utilization", UNIT_FRACTION, "fraction", "fleet: busy GPU-hours (allocated minus time lost to failures and restarts) / held",
	  "Busy utilization" },
	{ "idle_gpu_hours", UNIT_COUNT, "GPU-hours", "fleet: held minus allocated: billed, unused",
	  "Idle GPU-hours" },
	{ "held_gpu_hours", UNIT_COUNT, "GPU-hours", "fleet: the cluster's GPUs x the window it is held for",
	  "Held GPU-hours" },
	{ "busy_gpu_hours", UNIT_COUNT, "GPU-hours", "fleet: allocated GPU-hours minus those lost to failures and restarts",
	  "Busy GPU-hours" },
	{ "fragmentation", UNIT_FRACTION, "fraction", "fleet: time-mean fraction of GPUs free while a waiting job could not start",
	  "Fragmentation" },
	{ "makespan_h", UNIT_HOURS, "h", "fleet: first submission to last completion",
	  "Makespan" },
	{ "usd_per_job", UNIT_USD, "USD", "fleet: usd_total / jobs_done",
	  "Cost per job" },
	{ "usd_total", UNIT_USD, "USD", "fleet: the held cluster's dollars over the window (billing rounding included); a team's row: its GPU-hours' dollars plus its share of the idle ones, by use (the teams' add up to the fleet's)",
	  "Cost" },
	{ "meets_objective", UNIT_BOOL, "boolean", "fleet: every job submitted finished and queue_wait_p90_h is at most workload.fleet.objective.wait_p90_h; a team's or class's row: its own (empty when objective.applies_to leaves it out); the fleet's row: for every group the objective applies to, by default the fleet, every team and every class (true without an objective)" },
	{ "objective_wait_p90_h", UNIT_HOURS, "h", "fleet: the objective's bound on the P90 queue wait",
	  "Objective, queue wait P90" },
	{ "team", UNIT_TEXT, "text", "fleet: the team of a team's row (empty on the fleet's row)",
	  "Team" },
	{ "jobs_submitted", UNIT_COUNT, "count", "fleet: jobs submitted after warmup_h" },
	{ "failures", UNIT_COUNT, "count", "fleet: node failures during the window" },
	{ "sized_nodes", UNIT_COUNT, "count", "fleet: the fewest nodes of the candidate's node type whose P90 queue wait meets the objective for every group it applies to (the same jobs); also on an invalid candidate too small for the jobs",
	  "Nodes that meet the objective" },
	{ "sized_usd", UNIT_USD, "USD", "fleet: the dollars of sized_nodes over the window",
	  "Cost of the nodes that meet the objective" },
	{ "per_team_nodes", UNIT_COUNT, "count", "fleet: one cluster per team: the sum of each team's fewest nodes meeting the objective alone" },
	{ "per_team_usd", UNIT_USD, "USD", "fleet: the dollars of those per-team clusters" },
	{ "peak_nodes", UNIT_COUNT, "count", "fleet: rent for the peak: the nodes of the most GPUs the jobs ever ask at once (as if none waited), services included" },
	{ "peak_usd", UNIT_USD, "USD", "fleet: the dollars of peak_nodes over the window" },
	{ "trace_wait_p50_h", UNIT_HOURS, "h", "fleet: the median wait the trace itself recorded (Start - Submit), beside the simulated one" },
	{ "class", UNIT_TEXT, "text", "fleet: the job class of a class's row (jobs[].name; empty on the fleet's and the teams' rows); its team cell is its jobs' team, several joined by '+'",
	  "Job class" },
	{ "idle_usd", UNIT_USD, "USD", "fleet: of usd_total, the idle GPU-hours' share (usd_total minus the group's own GPU-hours at the held hours' rate); the fleet's row: all the idle GPU-hours' dollars",
	  "Cost of idle GPU-hours" },
	/* a fleet's utilization over time (run --series) */
	{ "time_h", UNIT_HOURS, "h", "fleet series: the start of the bucket, from the first submission's clock 0",
	  "Time" },
	{ "allocated_frac", UNIT_FRACTION, "fraction", "fleet series: the mean fraction of the candidate's GPUs allocated to jobs and services in the bucket",
	  "GPUs allocated" },
	{ "busy_frac", UNIT_FRACTION, "fraction", "fleet series: the same, less restarts and work thrown away by preemptions and failures",
	  "GPUs busy" },
	{ "queued_jobs", UNIT_NUMBER, "jobs", "fleet series: the mean number of jobs waiting in the bucket",
	  "Jobs waiting" },
	/* validate */
	{ "id", UNIT_TEXT, "text", "the published figure's id" },
	{ "metric", UNIT_TEXT, "text", "what the figure measures (its unit is in the name)" },
	{ "published", UNIT_NUMBER, "the metric's", "the published value",
	  "Published" },
	{ "predicted", UNIT_NUMBER, "the metric's", "clustersim's value for it",
	  "Predicted" },
	{ "error_pct", UNIT_NUMBER, "%", "(predicted - published) / published x 100",
	  "Error" },
	{ "source", UNIT_TEXT, "text", "where the figure was published" },
	/* a sweep */
	{ "sweep_fingerprint", UNIT_TEXT, "hex", "what the sweep's rows were computed from (16 hex digits, FNV-1a 64)" },
};

/* set:PATH, one per varied path of a sweep, has its own entry. */
static const struct results_column set_column = {
	"set:PATH", UNIT_TEXT, "as given", "the sweep point's value of PATH (JSON, or a plain string)"
};

const struct results_column *results_column_info(const char *name)
{
	for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
		if (strcmp(columns[i].name, name) == 0)
			return &columns[i];
	if (strncmp(name, "set:", 4) == 0)
		return &set_column;
	return NULL;
}

/* "p99" and the like: a 'p' and digits only. */
static bool is_percentile(const char *w, size_t n)
{
	if (n < 2 || w[0] != 'p')
		return false;
	for (size_t i = 1; i < n; i++)
		if (w[i] < '0' || w[i] > '9')
			return false;
	return true;
}

char *results_column_words(const char *name)
{
	const struct results_column *info = results_column_info(name);
	char *w;
	if (info == NULL || strncmp(name, "set:", 4) == 0)
		return xstrdup(name);  /* a column of the user's own: its name as it is */
	if (info->words != NULL)
		return xstrdup(info->words);
	w = xstrdup(name);
	{
		/* the unit the label gives anyway: "t_bubble_s" -> "t_bubble" */
		char *last = strrchr(w, '_');
		if (last != NULL && last != w && strcmp(last + 1, info->unit_text) == 0)
			*last = '\0';
	}
	for (char *p = w; *p;) {
		size_t n = strcspn(p, "_");
		if (is_percentile(p, n))
			*p = 'P';
		p += n;
		if (*p == '_')
			*p++ = ' ';
	}
	if (w[0] >= 'a' && w[0] <= 'z')
		w[0] = (char)(w[0] - 'a' + 'A');
	return w;
}

char *results_column_axis_label(const char *name)
{
	const struct results_column *info = results_column_info(name);
	char *w = results_column_words(name), *label;
	if (info == NULL || strcmp(info->unit_text, "text") == 0 || strncmp(name, "set:", 4) == 0)
		return w;
	label = xasprintf("%s (%s)", w, info->unit_text);
	free(w);
	return label;
}
