/*
 * step_head: what a step spends besides the decoder layers at the end of
 * the model, in one pass: the output layer's GEMM over the vocabulary
 * shard, the cross-entropy loss over it, and one multi-token-prediction
 * module's own work. step.c adds them to the last virtual stage (the MTP
 * modules to the stages that hold them); step_trace.c details them in a
 * trace. Seconds on one GPU for one micro-batch; it never simulates.
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_STEP_HEAD_H
#define CLUSTERSIM_MODELS_TRAIN_STEP_HEAD_H

#include "models/train/layer.h"
#include "models/train/pipeline.h"

/* The output layer's GEMM (tokens x hidden by hidden x vocab / tp) in one
 * pass: forward (PIPE_F), input gradient (PIPE_B) or weight gradient (PIPE_W). */
double step_head_logits_s(const struct layer_ctx *x, enum pipeline_op pass);

/* The loss over the vocabulary shard, forward (PIPE_F) or backward (any
 * other pass): Megatron-Core's unfused vocab-parallel cross entropy, or
 * Transformer Engine's fused one under kernels.fused_cross_entropy. */
double step_head_loss_s(const struct layer_ctx *x, enum pipeline_op pass);

/* One multi-token-prediction module's work besides its layer in one pass:
 * the embedding, the two RMSNorms, the 2h -> h projection, and the shared
 * output head's GEMMs and loss once more (DeepSeek-V3). */
double step_head_mtp_s(const struct layer_ctx *x, enum pipeline_op pass);

#endif
