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

#include "models/train/train.h"

/* CUDA context, NCCL buffers, allocator fragmentation: bytes held back per GPU. */
extern const double memory_workspace_bytes;

/* Memory per GPU of the heaviest pipeline stage under plan p, into *m. */
void memory_per_gpu(const struct train_spec *w, const struct train_plan *p, struct train_memory *m);

/* LoRA / QLoRA: trainable adapter parameters of one layer on one GPU
 * (tensor sharded). Meaningful only for a LoRA finetune. */
double memory_lora_params_per_layer(const struct train_spec *w, const struct train_plan *p);

#endif
