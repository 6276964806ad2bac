/*
 * train_reason: a training result's outcome in words: why a plan does not
 * fit (in GiB, with the GPU's capacity), and the notes an ok step carries
 * (what the search tried, the numerics it changed, a rounded batch).
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_TRAIN_REASON_H
#define CLUSTERSIM_MODELS_TRAIN_TRAIN_REASON_H

#include "models/train/train_types.h"
#include "util/outcome.h"

/* o becomes oom with the reason of r's plan that does not fit on GPU g:
 * each memory part in GiB (the catalog's memory_gib unit), the total also
 * in GB (mem_per_gpu_gb's), and what the search tried. */
void train_reason_oom(const struct train_result *r, const struct gpu_spec *g, struct outcome *o);

/* Add to o the notes of r, an ok step of spec w: how many plans the search
 * tried and how many did not fit, the numerics search_numerics let it
 * change, and the batch round_batch moved. */
void train_reason_notes(const struct train_spec *w, const struct train_result *r, struct outcome *o);

/* Add to o, when spec w's FlashAttention on GPU g runs at a rate the
 * catalog carries over rather than measures (attn_train_assumed), that
 * assumption with its rate; nothing when the user sets attention_efficiency. */
void train_reason_assumed_attention(const struct train_spec *w, const struct gpu_spec *g, struct outcome *o);

#endif
