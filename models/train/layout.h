/*
 * layout: a pipeline layout as Megatron-Core writes it
 * (--pipeline-model-parallel-layout, PipelineParallelLayerLayout in
 * megatron/core/transformer/pipeline_parallel_layer_layout.py): the
 * virtual stages in order, separated by '|', each a run of E (the
 * embedding), t (a decoder layer), m (a multi-token-prediction module) and
 * L (the output layer and loss); "(...)*n" and "x*n" repeat, commas are
 * cosmetic. "Et|(tt|)*30mL" is NeMo's DeepSeek-V3 layout at pp 8, vpp 4.
 *
 * Parsing checks what the string alone decides: E first and once, L last
 * and once, the MTP modules after every decoder layer and together in one
 * virtual stage. What depends on the model and the plan (the decoder count
 * against model.layers, the modules against mtp_layers, the stages against
 * pp x vpp) is the plan's check (parallel.c). Pure: no I/O, no jansson.
 */
#ifndef CLUSTERSIM_MODELS_TRAIN_LAYOUT_H
#define CLUSTERSIM_MODELS_TRAIN_LAYOUT_H

#include <stddef.h>

/* The most virtual stages a layout may name, and the longest text. */
#define LAYOUT_MAX_STAGES 512
#define LAYOUT_TEXT_MAX 256

struct pipeline_layout {
	int stages;                                 /* 0: no layout given */
	unsigned short decoders[LAYOUT_MAX_STAGES]; /* decoder layers per virtual stage */
	unsigned char mtp[LAYOUT_MAX_STAGES];       /* MTP modules per virtual stage */
	int decoders_total, mtp_total;
	char text[LAYOUT_TEXT_MAX];                 /* as given */
};

/* Parse text into *out; returns 0, or -1 with a one-line reason in why. */
int layout_parse(const char *text, struct pipeline_layout *out, char *why, size_t why_size);

/* The first decoder layer of virtual stage vs (the decoders before it). */
int layout_first_layer(const struct pipeline_layout *l, int vs);

#endif
