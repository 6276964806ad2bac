#include "serve_spec.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "util/outcome.h"
#include "util/text.h"

const char *const spec_method_names[] = { "draft", "eagle", "mtp", NULL };

/* 16-bit activations and norms, and the fp32 logits plus one more buffer
 * of them for the sampler, as serve_cost.c counts them. */
#define ACT_BYTES 2.0
#define LOGIT_PEAK_BYTES 8.0
/* vLLM's max_num_seqs default, as serve_cost.c's. */
#define DEFAULT_MAX_SEQS 256
/* Slack of the running-mean rounding (tau from a closed form is inexact). */
#define ADVANCE_EPS 1e-9

double serve_spec_tokens_per_step(const struct speculative_spec *sp)
{
	if (sp->acceptance_length > 0)
		return sp->acceptance_length;
	double a = sp->acceptance_rate;
	if (!(a > 0))
		return 1;
	if (a >= 1)
		return sp->tokens + 1;
	/* Leviathan, Kalman, Matias 2023 (arXiv:2211.17192), eq. 1 */
	return (1 - pow(a, sp->tokens + 1)) / (1 - a);
}

/* The drafter's model: a draft model as given; an EAGLE head, one dense
 * decoder layer of the target's shape (a MoE target's FFN width taken as
 * its active experts'); an MTP module, one layer like the target's last
 * (MoE where the target is). Neither has MTP modules of its own. */
static void drafter_model(const struct model_spec *target, const struct speculative_spec *sp, struct model_spec *out)
{
	if (sp->method == SPEC_DRAFT) {
		*out = sp->draft;
		out->mtp_layers = 0;
		return;
	}
	*out = *target;
	out->layers = 1;
	out->mtp_layers = 0;
	if (sp->method == SPEC_EAGLE) {
		if (target->experts > 0 && target->ffn <= 0)
			out->ffn = target->expert_ffn * (target->experts_active + target->shared_experts);
		out->experts = out->experts_active = out->expert_ffn = out->shared_experts = 0;
		out->dense_layers = 0;
	} else if (target->experts > 0) {
		out->dense_layers = 0;
	}
}

/* Bytes per GPU the drafter adds: a draft model's weights; an EAGLE head's
 * or MTP module's layer, norms and 2h -> h projection, without the
 * embedding and LM head it shares with the target. */
static double drafter_weight_bytes(const struct serve_spec *ss)
{
	const struct serve_cost *d = &ss->draft;
	const struct model_spec *m = &d->model;
	if (ss->method == SPEC_DRAFT)
		return d->weight_bytes_per_gpu;
	double h = m->hidden, emb = (double)m->vocab * h / d->tp * ACT_BYTES;
	double layer = d->weight_bytes_per_gpu - emb * (m->tied_embeddings ? 1 : 2) - h * ACT_BYTES;
	double proj = ss->fuse_in * h / d->tp * d->weight_bytes_per_param + 2 * h * ACT_BYTES;
	return ss->modules * (layer + proj);
}

int serve_spec_init(struct serve_spec *ss, const struct serve_cost *target, const struct cluster_spec *c,
		    const struct serving_spec *sv, enum precision pr, const struct kernel_calibration *cal,
		    char *reason, size_t reason_len)
{
	const struct speculative_spec *sp = &sv->spec;
	struct serving_spec dsv = *sv;
	struct model_spec dm;
	char why[OUTCOME_REASON_MAX];  /* the drafter's reason (text_setf marks a cut) */
	int rc;

	assert(sp->method != SPEC_NONE && sp->tokens >= 1);
	memset(ss, 0, sizeof *ss);
	ss->target = target;
	ss->method = sp->method;
	ss->k = sp->tokens;
	ss->tokens_per_step = serve_spec_tokens_per_step(sp);
	ss->modules = 1;
	if (sp->method == SPEC_MTP)
		ss->modules = target->model.mtp_layers < sp->tokens ? target->model.mtp_layers : sp->tokens;
	if (sp->method != SPEC_DRAFT)
		ss->fuse_in = 2.0 * target->model.hidden;
	drafter_model(&target->model, sp, &dm);
	/* the host's per-step time is the verify step's, charged once */
	dsv.step_overhead_s = 0;
	dsv.spec.method = SPEC_NONE;
	rc = serve_cost_init(&ss->draft, &dm, c, &dsv, pr, cal, target->tp, 1,
			     sp->method == SPEC_MTP ? target->ep : 1, why, sizeof why);
	if (rc == SERVE_COST_INVALID || (rc == SERVE_COST_OOM && !(ss->draft.weight_bytes_per_gpu > 0))) {
		text_setf(reason, reason_len, "speculative %s drafter: %s", spec_method_names[sp->method - 1], why);
		return rc;
	}
	ss->extra_weight_bytes_per_gpu = drafter_weight_bytes(ss);
	ss->draft_kv_bytes_per_token_gpu = ss->modules * ss->draft.kv_bytes_per_token_gpu;

	/* What the target's KV cache had per GPU, less the drafter's weights
	 * and k more sampled rows per sequence, shared by both KV caches. */
	double S = sv->max_seqs > 0 ? sv->max_seqs : DEFAULT_MAX_SEQS;
	double ep = target->ep, kv_gpu = target->kv_bytes_per_token_gpu;
	double free_b = target->kv_capacity_tokens * kv_gpu / ep;
	double logits = S * ss->k * target->model.vocab * LOGIT_PEAK_BYTES;
	double left = free_b - ss->extra_weight_bytes_per_gpu - logits;
	ss->kv_capacity_tokens = left > 0 ? floor(ep * left / (kv_gpu + ss->draft_kv_bytes_per_token_gpu)) : 0;
	ss->kv_bytes_per_token = target->kv_bytes_per_token + ss->modules * ss->draft.kv_bytes_per_token;
	if (ss->kv_capacity_tokens < (sv->block_tokens > 0 ? sv->block_tokens : 16) ||
	    ss->kv_capacity_tokens < ss->k + 1) {
		text_setf(reason, reason_len, "the speculative %s drafter's weights (%.2f GB per GPU) and verify logits "
			  "(%.2f GB) leave the KV cache %.0f tokens", spec_method_names[sp->method - 1],
			  ss->extra_weight_bytes_per_gpu / 1e9, logits / 1e9, ss->kv_capacity_tokens);
		return SERVE_COST_OOM;
	}
	return SERVE_COST_OK;
}

/* The EAGLE head's or MTP module's 2h -> h projection of `rows` rows, split
 * over tp: a roofline GEMM at the drafter's rates. */
static double fuse_s(const struct serve_spec *ss, double rows, struct serve_step_use *use)
{
	const struct serve_cost *d = &ss->draft;
	const struct roofline *k = &d->k;
	if (ss->fuse_in <= 0 || rows <= 0)
		return 0;
	double n = d->model.hidden / (double)d->tp;
	double flops = 2 * rows * n * ss->fuse_in;
	double bytes = k->operand_bytes * rows * ss->fuse_in + d->weight_bytes_per_param * ss->fuse_in * n +
		       ACT_BYTES * rows * n;
	double tc = flops / (k->peak_flops_per_s * k->gemm_efficiency), tm = bytes / k->hbm_bytes_per_s;
	use->flops += d->tp * d->ep * flops;
	use->hbm_bytes += d->tp * d->ep * bytes;
	return tc > tm ? tc : tm;
}

/* Add one pass of the drafter over batch p to *t and *use. */
static void draft_pass(const struct serve_spec *ss, const struct serve_batch *p, double *t, struct serve_step_use *use)
{
	struct serve_step_use u = { 0, 0 };
	*t += serve_cost_step_s(&ss->draft, p, &u) + fuse_s(ss, (double)p->prefill_tokens + p->decode_seqs, use);
	use->flops += u.flops;
	use->hbm_bytes += u.hbm_bytes;
}

double serve_spec_step_s(const struct serve_spec *ss, const struct serve_batch *b, struct serve_step_use *use)
{
	struct serve_step_use all = { 0, 0 }, u = { 0, 0 };
	double D = b->decode_seqs, k = ss->k, t = 0;

	/* The verify pass: each decoding sequence's k draft tokens ride as k
	 * more rows after its own (GEMM rows, sampled rows, KV written), and
	 * attend over its context and the drafts before them at the attention
	 * rate; the context's KV is read once, by the decode row. */
	struct serve_batch v = *b;
	v.prefill_tokens += (long)(k * D);
	v.prefill_seqs += (int)(k * D);
	v.prefill_attn_pairs += k * b->decode_ctx_tokens + D * k * (k + 1) / 2;
	t += serve_cost_step_s(ss->target, &v, &u);
	all.flops += u.flops;
	all.hbm_bytes += u.hbm_bytes;

	/* The drafter: its first pass also takes the step's prompt tokens (a
	 * draft model keeps its own KV cache of them; a head reads the
	 * target's features of them), then k - 1 more passes of one token per
	 * decoding sequence, each over a context one longer. */
	struct serve_batch p = *b;
	if (p.prefill_tokens > 0 || p.decode_seqs > 0)
		draft_pass(ss, &p, &t, &all);
	p.prefill_seqs = 0;
	p.prefill_tokens = 0;
	p.prefill_attn_pairs = 0;
	for (int i = 1; i < ss->k && D > 0; i++) {
		p.decode_ctx_tokens += D;
		draft_pass(ss, &p, &t, &all);
	}
	if (use != NULL)
		*use = all;
	return t;
}

static double step_cb(const void *ctx, const struct serve_batch *b, struct serve_step_use *use)
{
	return serve_spec_step_s(ctx, b, use);
}

void serve_spec_model(const struct serve_spec *ss, struct serve_step_model *out)
{
	serve_cost_model(ss->target, out);
	out->step_s = step_cb;
	out->ctx = ss;
	out->kv_capacity_tokens = ss->kv_capacity_tokens;
	out->kv_bytes_per_token = ss->kv_bytes_per_token;
	out->spec_tokens = ss->k;
	out->spec_tokens_per_step = ss->tokens_per_step;
}

int serve_spec_advance(const struct serve_step_model *m, int steps_done, int tokens_left)
{
	if (m->spec_tokens <= 0)
		return 1;
	double tau = m->spec_tokens_per_step, j = steps_done;
	int n = (int)(floor((j + 1) * tau + ADVANCE_EPS) - floor(j * tau + ADVANCE_EPS));
	if (n < 1)
		n = 1;
	if (n > m->spec_tokens + 1)
		n = m->spec_tokens + 1;
	return n < tokens_left ? n : tokens_left;
}

int serve_spec_lookahead(const struct serve_step_model *m, int tokens_left)
{
	int k = m->spec_tokens;
	return k <= 0 || tokens_left <= 1 ? 0 : (k < tokens_left - 1 ? k : tokens_left - 1);
}
