/*
 * memory: the bytes each GPU holds during a training step under a plan.
 *
 * Weights, gradients and optimizer states (sharded by ZeRO, or only the
 * adapters' for LoRA and QLoRA), activations per Korthikanti et al. for the
 * micro-batches in flight on a stage, and a fixed workspace. It never costs
 * time and never decides whether a plan runs: the caller compares the total
 * with the GPU's memory.
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_MEMORY_H
#define CLUSTERSIM_MODELS_TRAIN_MEMORY_H

#include "models/train/train_types.h"

/* CUDA context, NCCL buffers, allocator fragmentation: bytes held back per GPU. */
extern const double memory_workspace_bytes;

/* Memory per GPU of the heaviest pipeline stage under plan p, into *m. */
void memory_per_gpu(const struct train_spec *w, const struct train_plan *p, struct train_memory *m);

/* Activation bytes one layer keeps per micro-batch on this GPU under plan
 * p: the transformer's (transformer_layer_activation_bytes_frozen), the
 * busiest expert-parallel rank's extra, FP8 activation caching, and an MoE
 * layer's dispatch tensors (the permuted copies, the router's
 * probabilities, the permutation's row map: memory.c). */
double memory_layer_activation_bytes(const struct train_spec *w, const struct train_plan *p);

/* The share of the layers a full recompute recomputes: 1 (uniform, or
 * block with N at least a chunk's layers), N / (layers / (pp vpp)) for
 * block, 0 without a full recompute. */
double memory_recompute_share(const struct train_spec *w, const struct train_plan *p);

/* LoRA / QLoRA: trainable adapter parameters of one layer on one GPU
 * (tensor sharded). Meaningful only for a LoRA finetune. */
double memory_lora_params_per_layer(const struct train_spec *w, const struct train_plan *p);

/* LoRA / QLoRA: the frozen base's storage format, resolved (never
 * FT_BASE_RUN): the stated one, else nf4 under QLoRA, else the format of the
 * run's GEMM operands (fp8 or fp4 runs keep their base in it, others bf16,
 * fp16 runs fp16). */
enum finetune_base memory_base_format(const struct train_spec *w);

/* Bytes per frozen layer parameter of format f: values plus quantization
 * constants (nf4: 0.5 + 1/64 + 4/(64 x 256), QLoRA's double quantization;
 * fp4: 0.5 + 1/16). */
double memory_base_bytes_per_param(enum finetune_base f);

/* Bytes per frozen layer parameter a dequantization (or cast) kernel moves
 * before each use of the weights in a forward or backward pass: it reads the
 * stored base and writes the GEMM's operands. 0 when the GEMMs read the base
 * as stored (it is in the run's operand format) or for a full finetune. */
double memory_base_cast_bytes_per_param(const struct train_spec *w);

#endif
