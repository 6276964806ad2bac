/*
 * serve_engine: the table of serving engines (serve_engine.h). Sources, at
 * the versions docs/explanation/serving.md names:
 *  - vllm-v0: vllm/core/scheduler.py (v0.6): _schedule_chunked_prefill
 *    runs decodes, then unfinished prefills, then new prompts;
 *    _schedule_default prefers prefills; BlockSpaceManager.can_allocate
 *    takes the whole prompt's blocks on admission.
 *  - vllm-v1: vllm/v1/core/sched/scheduler.py (v0.8 onwards, the default
 *    engine since v0.8.0): "no decoding phase nor prefill phase", running
 *    requests first then waiting ones under max_num_batched_tokens;
 *    KVCacheManager.allocate_slots takes the blocks of the tokens
 *    scheduled; prefix caching on by default.
 *  - trtllm: TensorRT-LLM's PyTorch backend (v1.0): in-flight batching
 *    with chunked context, generation and context requests under
 *    max_num_tokens; CapacitySchedulerPolicy GUARANTEED_NO_EVICT (default)
 *    admits a request only when the blocks of its prompt and its
 *    max_new_tokens are free (cpp/tensorrt_llm/batch_manager/
 *    kvCacheManager.cpp getRemainingBlocksToCompletion: mPromptLen +
 *    mMaxNewTokens), MAX_UTILIZATION schedules a request when the blocks
 *    of its next step are free and otherwise pauses the last started one
 *    (capacityScheduler.cpp); KvCacheConfig.free_gpu_memory_fraction is
 *    the share of the memory free after the weights and activations.
 *  - sglang: sglang/srt/managers/scheduler.py (v0.4): get_next_batch_to_run
 *    runs a new prefill batch whenever one can be formed, else a decode
 *    batch (mixed chunks only with --enable-mixed-chunk, off by default).
 */
#include "serve_engine.h"

const char *const serve_engine_names[] = { "vllm-v0", "vllm-v1", "trtllm", "sglang", NULL };
const char *const serve_capacity_policy_names[] = { "guaranteed_no_evict", "max_utilization", NULL };

/* KV blocks: vLLM's --block-size 16 (vllm/config.py CacheConfig),
 * TensorRT-LLM's KvCacheConfig.tokens_per_block 32 (tensorrt_llm/llmapi/
 * llm_args.py), SGLang's --page-size 1 (sglang/srt/server_args.py). */
static const struct serve_engine_ops engines[] = {
	[SERVE_ENGINE_VLLM_V0] = { .name = "vllm-v0", .block_tokens = 16 },
	[SERVE_ENGINE_VLLM_V1] = { .name = "vllm-v1", .unified_budget = true, .blocks_per_chunk = true,
				   .block_tokens = 16 },
	[SERVE_ENGINE_TRTLLM] = { .name = "trtllm", .unified_budget = true, .reserve_output = true,
				  .memory_fraction_of_free = true, .block_tokens = 32 },
	[SERVE_ENGINE_SGLANG] = { .name = "sglang", .prefill_first = true, .block_tokens = 1 },
};

const struct serve_engine_ops *serve_engine_of(enum serve_engine e)
{
	if ((unsigned)e >= sizeof engines / sizeof engines[0])
		e = SERVE_ENGINE_VLLM_V1;
	return &engines[e];
}

long serve_engine_reserve_tokens(const struct serving_spec *sv, int prompt, int output)
{
	if (!serve_engine_of(sv->engine)->reserve_output || sv->capacity_policy != SERVE_CAPACITY_GUARANTEED_NO_EVICT)
		return 0;
	return (long)prompt + (sv->max_output_tokens > 0 ? sv->max_output_tokens : output);
}
