#include "memory.h"

#include <stdbool.h>
#include <string.h>

#include "models/kernel/transformer.h"
#include "models/train/parallel.h"

const double memory_workspace_bytes = 5.0 * 1073741824.0;

/* QLoRA's frozen base per parameter: 4-bit weights (0.5 bytes) and their
 * quantization constants (0.0625). */
#define QLORA_BASE_BYTES (0.5 + 0.0625)

double memory_lora_params_per_layer(const struct train_spec *w, const struct train_plan *p)
{
	const struct model_spec *m = &w->model;
	double h = m->hidden, d = transformer_head_dim(m), r = w->finetune.rank;
	double qkv_out = m->heads * d + 2.0 * m->kv_heads * d;
	double sum = 0;
	bool attn = strstr(w->finetune.targets, "attn") != NULL;
	bool mlp = strstr(w->finetune.targets, "mlp") != NULL;
	if (attn)
		sum += r * (h + qkv_out) + r * (m->heads * d + h);
	if (mlp) {
		double f = m->experts > 0 ? m->expert_ffn : m->ffn;
		sum += (m->mlp == MLP_SWIGLU ? 2 : 1) * r * (h + f) + r * (f + h);
	}
	return sum / p->tp;
}

/* Weights, gradients and optimizer states of a stage holding `params`
 * parameters in `layers` layers: the adapters' only under LoRA, else
 * sharded by ZeRO (ZeRO-3 keeps two gathered layers, for the prefetch). */
static void model_states(const struct train_spec *w, const struct train_plan *p, double params, double layers,
			 struct train_memory *s)
{
	const struct model_spec *m = &w->model;
	bool lora = w->is_finetune && w->finetune.method != FINETUNE_FULL;
	if (lora) {
		double base_bytes = w->finetune.method == FINETUNE_QLORA ? QLORA_BASE_BYTES : TRAIN_WEIGHT_BYTES;
		double adapters = memory_lora_params_per_layer(w, p) * layers;
		s->weights = params * base_bytes + adapters * TRAIN_WEIGHT_BYTES;
		s->grads = adapters * TRAIN_GRAD_BYTES;
		s->optimizer = adapters * TRAIN_OPTIMIZER_BYTES;
		return;
	}
	s->weights = params * TRAIN_WEIGHT_BYTES;
	s->grads = params * TRAIN_GRAD_BYTES;
	s->optimizer = params * TRAIN_OPTIMIZER_BYTES;
	if (p->zero >= 1)
		s->optimizer /= p->dp;
	if (p->zero >= 2)
		s->grads /= p->dp;
	if (p->zero >= 3) {
		/* sharded, plus two layers gathered at a time (prefetch) */
		double layer = (transformer_layer_params(m, m->experts > 0, true)) / p->tp;
		s->weights = s->weights / p->dp + 2 * layer * TRAIN_WEIGHT_BYTES;
	}
}

/* Micro-batches whose activations stage i holds at its peak (between 1
 * and the micro-batches of a step). */
static double in_flight(const struct train_plan *p, int i)
{
	double n;
	switch (p->schedule) {
	case SCHED_GPIPE:
		n = p->microbatches;
		break;
	case SCHED_INTERLEAVED:
		/* Megatron's interleaved warm-up holds 2(p-1) + (v-1)p + 1 chunks
		 * of L/(pv) layers on the first stage: L (1 + (p-1)/(p v)) layer
		 * micro-batches, i.e. p (1 + (p-1)/(p v)) micro-batches of the
		 * stage's layers (Korthikanti et al.); with v = 1 it is 1F1B */
		if (p->vpp > 1)
			n = p->pp * (1.0 + (p->pp - 1.0) / (p->pp * p->vpp)) * (p->pp - i) / p->pp;
		else
			n = p->pp - i;
		break;
	default:
		n = p->pp - i;  /* 1F1B warm-up on stage i: p - i micro-batches */
		break;
	}
	if (n > p->microbatches)
		n = p->microbatches;
	if (n < 1)
		n = 1;
	return n;
}

/* Activation bytes of stage i of `layers` layers (has_last: it computes
 * the loss): per layer, times layers, times micro-batches in flight. */
static double activations(const struct train_spec *w, const struct train_plan *p, int i, double layers,
			  bool has_last)
{
	const struct model_spec *m = &w->model;
	double s_local = (double)w->seq_len / p->cp;
	int frozen = 0;
	if (w->is_finetune && w->finetune.method != FINETUNE_FULL) {
		if (strstr(w->finetune.targets, "attn") == NULL)
			frozen |= TF_FROZEN_ATTN;
		if (strstr(w->finetune.targets, "mlp") == NULL)
			frozen |= TF_FROZEN_MLP;
	}
	double per_layer = transformer_layer_activation_bytes_frozen(m, s_local, p->micro_batch, p->tp, p->sp,
								    p->recompute, w->kernels.flash_attention, frozen);
	double bytes = per_layer * layers * in_flight(p, i);
	if (p->recompute == RECOMPUTE_FULL) {
		/* one layer's full activations while it is recomputed */
		bytes += transformer_layer_activation_bytes(m, s_local, p->micro_batch, p->tp, p->sp,
							    RECOMPUTE_NONE, w->kernels.flash_attention);
	}
	if (has_last) {
		/* fp32 logits for the loss: s b V / t, 4 bytes */
		bytes += 4.0 * s_local * p->micro_batch * m->vocab / p->tp;
	}
	return bytes;
}

void memory_per_gpu(const struct train_spec *w, const struct train_plan *p, struct train_memory *mem)
{
	const struct model_spec *m = &w->model;
	int P = p->pp * p->vpp;
	double worst = 0;

	memset(mem, 0, sizeof *mem);
	/* the heaviest stage: its chunks' parameters and activations */
	for (int i = 0; i < p->pp; i++) {
		double params = 0, layers = 0;
		bool has_last = false;
		for (int ch = 0; ch < p->vpp; ch++) {
			int vs = ch * p->pp + i, first, count;
			parallel_stage_layers(m->layers, P, vs, &first, &count);
			params += parallel_vstage_params(m, p, vs, P);
			layers += count;
			has_last |= vs == P - 1;
		}
		struct train_memory s;
		memset(&s, 0, sizeof s);
		model_states(w, p, params, layers, &s);
		s.activations = activations(w, p, i, layers, has_last);
		s.workspace = memory_workspace_bytes;
		s.total = s.weights + s.grads + s.optimizer + s.activations + s.workspace;
		if (s.total > worst) {
			worst = s.total;
			*mem = s;
		}
	}
}
