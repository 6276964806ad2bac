/*
 * serve_engine: what sets one serving engine's iteration scheduler apart
 * (workload.serving.engine: vllm-v0, vllm-v1, trtllm, sglang), as one
 * table entry each, read by serve_sched (docs/explanation/serving.md,
 * "Engines", gives each entry's source). The step's cost is the same for
 * every engine (serve_cost): the engines differ here in which tokens a step
 * computes and how KV blocks are held, not in their kernels.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_ENGINE_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_ENGINE_H

#include <stdbool.h>

#include "models/serve/serve_types.h"

struct serve_engine_ops {
	const char *name;
	/* A step gives every running sequence its tokens in arrival order,
	 * decodes and unfinished prompts alike, then admits waiting ones, under
	 * one token budget, with or without chunked prefill (vLLM v1,
	 * TensorRT-LLM). false: vLLM v0's order (decodes, then unfinished
	 * prompts, then admissions; without chunked prefill a step is all
	 * prefill or all decode). */
	bool unified_budget;
	/* A step with a waiting prompt that can be admitted is a prefill step:
	 * no decodes run in it (SGLang without --enable-mixed-chunk). */
	bool prefill_first;
	/* KV blocks are taken as a prompt's tokens are computed, chunk by
	 * chunk (vLLM v1's KVCacheManager.allocate_slots); false: the whole
	 * prompt's on admission (vLLM v0's can_allocate, TensorRT-LLM, SGLang). */
	bool blocks_per_chunk;
	/* Admission holds blocks for the prompt and the request's max_tokens,
	 * so no running sequence is ever preempted (TensorRT-LLM's default
	 * capacity policy GUARANTEED_NO_EVICT; its MAX_UTILIZATION, chosen by
	 * workload.serving.scheduler.capacity_policy, holds none ahead). */
	bool reserve_output;
	/* workload.serving.gpu_memory_fraction is the share of the memory left
	 * free after weights and workspace that the KV cache takes (TensorRT-LLM's
	 * kv_cache_free_gpu_mem_fraction, SGLang's mem_fraction_static is of the
	 * whole, so false there); false: the share of the whole GPU memory that
	 * weights, workspace and KV cache take together (vLLM's
	 * gpu_memory_utilization). */
	bool memory_fraction_of_free;
	/* Tokens per KV-cache block when workload.serving.scheduler.block_tokens
	 * is not given: the engine's own default. */
	int block_tokens;
};

/* The entry of engine e. */
const struct serve_engine_ops *serve_engine_of(enum serve_engine e);

/* The tokens whose KV blocks admission holds for the whole life of a
 * request of `prompt` and `output` tokens under sv's engine and capacity
 * policy: its prompt and its max_tokens (sv->max_output_tokens, else its
 * own output) where the engine reserves them; 0 where blocks are taken as
 * tokens are computed. */
long serve_engine_reserve_tokens(const struct serving_spec *sv, int prompt, int output);

#endif
