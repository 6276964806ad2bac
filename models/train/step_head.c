#include "step_head.h"

#include "models/kernel/roofline.h"

/* The output layer's GEMM (tokens x hidden by hidden x vocab / tp) in
 * one pass: forward (F), input gradient (B) or weight gradient (W). */
double step_head_logits_s(const struct layer_ctx *x, enum pipeline_op pass)
{
	double T = x->tokens, h = x->w->model->arch.hidden, V = (double)x->w->model->arch.vocab / x->p->tp;
	switch (pass) {
	case PIPE_F: return roofline_gemm_tiled_s(&x->head_k, T, V, h);
	case PIPE_B: return roofline_gemm_tiled_s(&x->head_k, T, h, V);
	case PIPE_W: return roofline_gemm_tiled_s(&x->head_k, h, V, T);
	}
	return 0;
}

/*
 * The loss over the vocabulary shard: Megatron-Core's vocab-parallel cross
 * entropy (megatron/core/tensor_parallel/cross_entropy.py, unfused) is a
 * chain of memory-bound passes over the [tokens, V / tp] logits. Forward:
 * the cast to fp32 (2 read + 4 written bytes per logit), the max (4), the
 * in-place subtraction (8), exp (8), the sum (4) and the division into the
 * softmax kept for backward (8): 38 bytes in 6 kernels. Backward: the
 * in-place multiply by the output gradient (8) and the autograd cast back to
 * 16 bits (4 + 2): 14 bytes in 2 kernels.
 */
#define LOSS_FWD_BYTES_PER_LOGIT 38.0
#define LOSS_FWD_KERNELS 6
#define LOSS_BWD_BYTES_PER_LOGIT 14.0
#define LOSS_BWD_KERNELS 2

/*
 * Fused (kernels.fused_cross_entropy: Transformer Engine's Triton cross
 * entropy, transformer_engine/pytorch/triton/cross_entropy.py, which
 * Megatron-Core runs under --cross-entropy-fusion-impl te): forward, an
 * online-softmax pass reads the 16-bit logits (2 bytes) and a second pass
 * reads them again and writes the gradient over them (4); backward, one
 * kernel scales that gradient by the loss's (2 read, 2 written).
 */
#define LOSS_FUSED_FWD_BYTES_PER_LOGIT 6.0
#define LOSS_FUSED_FWD_KERNELS 2
#define LOSS_FUSED_BWD_BYTES_PER_LOGIT 4.0
#define LOSS_FUSED_BWD_KERNELS 1

double step_head_loss_s(const struct layer_ctx *x, enum pipeline_op pass)
{
	double logits = x->tokens * (double)x->w->model->arch.vocab / x->p->tp;
	if (x->w->model->kernels.fused_cross_entropy) {
		if (pass == PIPE_F)
			return roofline_memory_s(&x->k, LOSS_FUSED_FWD_BYTES_PER_LOGIT * logits, LOSS_FUSED_FWD_KERNELS);
		return roofline_memory_s(&x->k, LOSS_FUSED_BWD_BYTES_PER_LOGIT * logits, LOSS_FUSED_BWD_KERNELS);
	}
	if (pass == PIPE_F)
		return roofline_memory_s(&x->k, LOSS_FWD_BYTES_PER_LOGIT * logits, LOSS_FWD_KERNELS);
	return roofline_memory_s(&x->k, LOSS_BWD_BYTES_PER_LOGIT * logits, LOSS_BWD_KERNELS);
}

/*
 * One multi-token-prediction module's own work besides its layer, in one
 * pass (DeepSeek-V3, arXiv:2412.19437 section 2.2; Megatron-Core's
 * MultiTokenPredictionLayer): the next tokens' embedding looked up (the
 * forward), the two RMSNorms (of the hidden state and of that embedding),
 * the 2h -> h projection of their concatenation, and the shared output
 * head's GEMMs and the loss once more.
 */
double step_head_mtp_s(const struct layer_ctx *x, enum pipeline_op pass)
{
	double T = x->tokens, h = x->w->model->arch.hidden;
	double norms = roofline_memory_s(&x->k, TRAIN_ACT_BYTES * T * h * 2 * 2, 2);  /* read and write, two */
	double proj;
	switch (pass) {
	case PIPE_F:
		proj = roofline_gemm_tiled_s(&x->k, T, h / x->p->tp, 2 * h) +
		       roofline_memory_s(&x->k, TRAIN_ACT_BYTES * T * h * 2, 1);  /* embedding */
		return norms + proj + step_head_logits_s(x, PIPE_F) + step_head_loss_s(x, PIPE_F);
	case PIPE_B:
		proj = roofline_gemm_tiled_s(&x->k, T, 2 * h, h / x->p->tp);
		return 2 * norms + proj + step_head_logits_s(x, PIPE_B) + step_head_loss_s(x, PIPE_B);
	case PIPE_W:
		return roofline_gemm_tiled_s(&x->k, 2 * h, h / x->p->tp, T) + step_head_logits_s(x, PIPE_W);
	}
	return 0;
}
