#include "train_types.h"

#include <stddef.h>

const char *const schedule_names[] = { "gpipe", "1f1b", "interleaved", "zb-h1", "dualpipev", NULL };
const char *const moe_overlap_names[] = { "none", "1f1b", "dualpipe", NULL };
const char *const moe_dispatch_names[] = { "bf16", "fp8", NULL };
const char *const pipeline_split_names[] = { "layers", "embedding+loss", NULL };
const char *const grad_reduce_names[] = { "auto", "fp32", "bf16", NULL };
const char *const optimizer_moments_names[] = { "fp32", "bf16", NULL };
const char *const search_numerics_names[] = { "grad_reduce_bf16", "optimizer_moments_bf16", "moe_dispatch_fp8",
					      "fp8_activation_cache", NULL };
const char *const finetune_method_names[] = { "full", "lora", "qlora", NULL };
const char *const finetune_base_names[FT_BASE_COUNT + 1] = {
	[FT_BASE_RUN] = "auto", [FT_BASE_FP32] = "fp32", [FT_BASE_BF16] = "bf16", [FT_BASE_FP16] = "fp16",
	[FT_BASE_FP8] = "fp8",   [FT_BASE_FP4] = "fp4",   [FT_BASE_NF4] = "nf4",
	[FT_BASE_COUNT] = NULL,
};
const char *const recompute_method_names[] = { "uniform", "block", NULL };
const char *const training_mode_names[] = { "representative", "full", NULL };

double train_optimizer_bytes(int moments)
{
	return moments == MOMENTS_BF16 ? 8.0 : TRAIN_OPTIMIZER_BYTES;
}
