/*
 * serve_spec: speculative decoding in serving (workload.serving.speculative;
 * docs/explanation/serving.md, "Speculative decoding").
 *
 * Each step of a replica that decodes speculatively is one verify step: a
 * drafter proposes k tokens per decoding sequence in k sequential forward
 * passes, then the target computes every sequence's k + 1 positions in one
 * forward pass (its weights streamed once, k + 1 times the GEMM rows,
 * sampled rows and attention FLOPs; each sequence's KV cache read once, as
 * one attention kernel over several queries does), and each sequence
 * advances by the tokens accepted plus the target's own one. The drafter
 * is costed with serve_cost's step functions at its own size: a draft
 * model (a catalog model, at the target's tp), an EAGLE head (one dense
 * decoder layer of the target's shape and the target's LM head, plus the
 * 2h -> h projection of its fused input), or an MTP module (one decoder
 * layer of the target's, MoE where the target is, plus its 2h -> h
 * projection; DeepSeek-V3, arXiv:2412.19437 section 2.2). The user states
 * the acceptance (there is no default): the mean tokens per verify step
 * tau (EAGLE's "average acceptance length", vLLM's and SGLang's acceptance
 * length: the bonus token included), or a per-token acceptance rate a,
 * with tau = (1 - a^(k+1)) / (1 - a) (Leviathan et al. 2023, eq. 1,
 * tokens i.i.d.). A sequence's steps advance it by a deterministic
 * sequence of whole tokens whose running mean is tau (step j gives
 * floor((j+1) tau) - floor(j tau)), capped by the tokens it has left.
 *
 * Memory: the drafter's weights (a draft model's all, an EAGLE head's or
 * MTP module's layer and projection; they share the target's embedding
 * and LM head), the logits of k more rows per sequence, and per token the
 * drafter's KV cache beside the target's; the scheduler holds blocks for
 * the k speculative positions of each decoding sequence.
 *
 * Never reads a scenario file; the records are serve_types.h's.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_SPEC_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_SPEC_H

#include <stddef.h>

#include "models/serve/serve_cost.h"
#include "models/serve/serve_types.h"

struct serve_spec {
	const struct serve_cost *target;  /* borrowed */
	struct serve_cost draft;          /* the drafter's step model */
	enum spec_method method;
	int k;                            /* draft tokens per verify step */
	int modules;                      /* EAGLE: 1; MTP: min(k, mtp_layers); draft model: 1 */
	double tokens_per_step;           /* tau */
	double fuse_in;                   /* EAGLE/MTP: the projection's input width (2h); 0 for a draft model */
	double extra_weight_bytes_per_gpu;
	double draft_kv_bytes_per_token_gpu;
	double kv_capacity_tokens;        /* replica, target and drafter together */
	double kv_bytes_per_token;        /* replica: the target's and the drafter's */
};

/* The mean tokens a sequence advances per verify step: acceptance_length
 * when given, else (1 - a^(k+1)) / (1 - a) of acceptance_rate a. */
double serve_spec_tokens_per_step(const struct speculative_spec *sp);

/*
 * Build the speculative model over the target's cost model (borrowed until
 * ss is dropped) for sv->spec (method != SPEC_NONE). Returns SERVE_COST_OK,
 * SERVE_COST_OOM (the drafter's weights and KV leave no room for one
 * request) or SERVE_COST_INVALID (the drafter does not divide over the
 * target's layout), with reason filled.
 */
int serve_spec_init(struct serve_spec *ss, const struct serve_cost *target, const struct cluster_spec *c,
		    const struct serving_spec *sv, enum precision pr, const struct kernel_calibration *cal,
		    char *reason, size_t reason_len);

/* Seconds of one verify step (the drafter's k passes and the target's
 * verify pass); fills *use when not NULL. */
double serve_spec_step_s(const struct serve_spec *ss, const struct serve_batch *b, struct serve_step_use *use);

/* The model the simulation calls (borrows ss): serve_cost_model's with
 * the verify step, the joint KV capacity and the speculative fields. */
void serve_spec_model(const struct serve_spec *ss, struct serve_step_model *out);

/* Tokens a decoding sequence advances in its verify step number
 * steps_done (counting from 0) with tokens_left still to emit: 1 without
 * speculative decoding; else floor((j+1) tau) - floor(j tau), at least 1,
 * at most k + 1 and tokens_left. */
int serve_spec_advance(const struct serve_step_model *m, int steps_done, int tokens_left);

/* Speculative positions a decoding sequence with tokens_left to emit holds
 * KV blocks for beyond its next token: min(k, tokens_left - 1), 0 without. */
int serve_spec_lookahead(const struct serve_step_model *m, int tokens_left);

#endif
