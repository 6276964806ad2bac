/*
 * serve_sched: a replica's iteration-level scheduler.
 *
 * The engine's table entry (serve_engine.h) picks the policy. vLLM v0's
 * (Kwon et al. SOSP'23, vllm/core/scheduler.py):
 *  - with chunked prefill, each step first gives every running decode one
 *    token (in arrival order), then continues partially prefilled prompts,
 *    then admits waiting requests head first, chunking the last one to the
 *    token budget max_batch_tokens; at most max_seqs sequences run;
 *  - without it, a step is either a prefill of whole prompts (admitted head
 *    first while they fit the budget; decodes wait, as vLLM v0's default) or,
 *    when no waiting prompt can be admitted, a decode of every running one;
 *  - admitting a request allocates the KV blocks of its whole prompt (vLLM
 *    v0's can_allocate); a decode allocates a block when its context crosses
 *    a block; when none is free, the most recently arrived running sequence
 *    is preempted by recompute (blocks freed, back to the head of the
 *    waiting queue; its prompt and the tokens generated so far are
 *    prefilled again, and that prefill emits its next token).
 * vLLM v1 and TensorRT-LLM give every running sequence its tokens in
 * arrival order (one for a decode, the rest of its prompt up to the budget
 * for a prefill), then admit waiting requests unless the step preempted
 * one, with or without chunked prefill (no prefill-only steps); vLLM v1 takes KV blocks as a prompt's
 * chunks are computed, TensorRT-LLM (GUARANTEED_NO_EVICT) takes on
 * admission the blocks of the prompt and the request's max_tokens, so it
 * never preempts (with MAX_UTILIZATION it takes the prompt's and preempts
 * as vLLM does). SGLang runs a prefill step (unfinished prompts, then
 * admissions) whenever it can form one, else a decode step.
 * A request's prefix-cache hits (prefix_hit_fraction of its prompt, at most
 * all but one token) are not computed but hold KV blocks. A step's
 * serve_batch counts, for each decode, its context including the token it
 * computes, and for each prefill chunk c after k tokens already in the KV,
 * c (k + (c + 1) / 2) query-key pairs.
 */
#include "serve_sched.h"

#include <assert.h>
#include <math.h>

#include "models/serve/serve_engine.h"
#include "models/serve/serve_kv.h"
#include "models/serve/serve_spec.h"
#include "sim/time.h"

/* Preempt replica r's latest arrival by recompute: its blocks freed, back
 * to the head of the waiting queue. */
static void preempt_last(struct serve_state *s, struct serve_replica *r)
{
	int si = r->running[--r->n_running];
	struct serve_seq *q = &s->seqs[si];
	serve_kv_give(s, r, q->blocks);
	q->blocks = 0;
	q->computed = q->hit;
	q->state = SEQ_WAITING;
	r->n_waiting++;
	serve_state_push_head(s, &r->wait_head, &r->wait_tail, si);
	s->preemptions++;
}

static void batch_prefill(struct serve_state *s, struct serve_replica *r, struct serve_batch *b, int si, int chunk)
{
	const struct serve_seq *q = &s->seqs[si];
	b->prefill_seqs++;
	b->prefill_tokens += chunk;
	b->prefill_attn_pairs += (double)chunk * (q->computed + (chunk + 1) / 2.0);
	r->batch[r->n_batch++] = (struct serve_item){ si, chunk };
}

/* Give sequence si the KV blocks of `tokens` tokens, preempting the
 * latest arrival while none are free; false when si itself was preempted. */
static bool grow(struct serve_state *s, struct serve_replica *r, int si, long tokens)
{
	struct serve_seq *q = &s->seqs[si];
	int need = serve_kv_blocks(s, tokens) - q->blocks;
	if (need <= 0)
		return true;
	while (need > r->blocks_free) {
		bool self = r->running[r->n_running - 1] == si;
		preempt_last(s, r);
		if (self)
			return false;
	}
	serve_kv_take(s, r, need);
	q->blocks += need;
	return true;
}

/* Draft positions a decode of sequence si verifies beyond its own token
 * (speculative decoding; 0 without): they need KV blocks and budget too. */
static int decode_ahead(const struct serve_state *s, const struct serve_replica *r, int si)
{
	const struct serve_seq *q = &s->seqs[si];
	return serve_spec_lookahead(&r->pool->model, q->output - q->generated);
}

/* A decode in the batch, advancing by the tokens its verify step accepts
 * (one without speculative decoding). */
static void batch_decode(struct serve_state *s, struct serve_replica *r, struct serve_batch *b, int si)
{
	struct serve_seq *q = &s->seqs[si];
	b->decode_seqs++;
	b->decode_ctx_tokens += q->computed + 1;
	int advance = serve_spec_advance(&r->pool->model, q->spec_steps++, q->output - q->generated);
	r->batch[r->n_batch++] = (struct serve_item){ si, advance };
}

/* One token for each running decode, in arrival order, within the budget;
 * a decode without a free block preempts the latest arrival. */
static void batch_decodes(struct serve_state *s, struct serve_replica *r, struct serve_batch *b, long *budget)
{
	int max_seqs = s->sv->max_seqs;
	for (int i = 0; i < r->n_running; i++) {
		int si = r->running[i];
		struct serve_seq *q = &s->seqs[si];
		if (!serve_state_is_decode(q))
			continue;
		if (*budget <= 0 || r->n_batch >= max_seqs)
			break;
		int ahead = decode_ahead(s, r, si);
		if (!grow(s, r, si, (long)q->computed + 1 + ahead))
			break;
		batch_decode(s, r, b, si);
		*budget -= 1 + ahead;
	}
}

/* The unfinished prompts of the running set, in arrival order, each its
 * rest up to the budget (the blocks of each chunk taken when the engine
 * takes them per chunk). */
static void batch_prefills(struct serve_state *s, struct serve_replica *r, struct serve_batch *b, long *budget,
			   bool per_chunk)
{
	for (int i = 0; i < r->n_running && *budget > 0 && r->n_batch < s->sv->max_seqs; i++) {
		int si = r->running[i];
		const struct serve_seq *q = &s->seqs[si];
		if (serve_state_is_decode(q))
			continue;
		long need_tokens = (long)q->prompt + q->generated - q->computed;
		int chunk = (int)(need_tokens < *budget ? need_tokens : *budget);
		if (per_chunk && !grow(s, r, si, (long)q->computed + chunk))
			break;
		batch_prefill(s, r, b, si, chunk);
		*budget -= chunk;
	}
}

/* Every running sequence in arrival order under one budget: a decode its
 * token, an unfinished prompt its rest up to the budget (vLLM v1,
 * TensorRT-LLM). */
static void batch_running(struct serve_state *s, struct serve_replica *r, struct serve_batch *b, long *budget,
			  bool per_chunk)
{
	for (int i = 0; i < r->n_running && *budget > 0 && r->n_batch < s->sv->max_seqs; i++) {
		int si = r->running[i];
		const struct serve_seq *q = &s->seqs[si];
		bool decode = serve_state_is_decode(q);
		long need_tokens = decode ? 1 + decode_ahead(s, r, si) : (long)q->prompt + q->generated - q->computed;
		int chunk = (int)(need_tokens < *budget || decode ? need_tokens : *budget);
		if ((decode || per_chunk) && !grow(s, r, si, (long)q->computed + chunk))
			break;
		if (i >= r->n_running || r->running[i] != si)
			break;
		if (decode)
			batch_decode(s, r, b, si);
		else
			batch_prefill(s, r, b, si, chunk);
		*budget -= chunk;
	}
}

/* Admit waiting requests head first while they fit: KV blocks (the whole
 * context's; the first chunk's when the engine takes them per chunk; the
 * prompt's and its max_tokens' when it reserves the output), a
 * sequence slot, and (whole mode) the budget. */
static void batch_admit(struct serve_state *s, struct serve_replica *r, struct serve_batch *b, long *budget, bool whole)
{
	const struct serve_engine_ops *ops = serve_engine_of(s->sv->engine);
	int max_seqs = s->sv->max_seqs;
	while (r->wait_head >= 0 && *budget > 0 && r->n_batch < max_seqs && r->n_running + r->n_moving < max_seqs) {
		struct serve_seq *q = &s->seqs[r->wait_head];
		long need_tokens = (long)q->prompt + q->generated - q->computed;
		int chunk = (int)(need_tokens < *budget ? need_tokens : *budget);
		long hold = (long)q->prompt + q->generated;
		/* a prefill replica computes the prompt only: nothing to reserve */
		long reserve = r->kind == REP_PREFILL ? 0 : serve_engine_reserve_tokens(s->sv, q->prompt, q->output);
		if (ops->blocks_per_chunk)
			hold = (long)q->computed + chunk;
		else if (reserve > 0)
			hold = reserve;
		int need = serve_kv_blocks(s, hold);
		if (need > r->blocks_free || (whole && need_tokens > *budget))
			break;
		int si = serve_state_pop_head(s, &r->wait_head, &r->wait_tail);
		r->n_waiting--;
		serve_kv_take(s, r, need);
		q->blocks = need;
		q->state = SEQ_RUNNING;
		serve_state_running_insert(s, r, si);
		batch_prefill(s, r, b, si, chunk);
		*budget -= chunk;
	}
}

/* Form the step's batch by the engine's policy. */
static void form_batch(struct serve_state *s, struct serve_replica *r, struct serve_batch *b)
{
	const struct serving_spec *sv = s->sv;
	const struct serve_engine_ops *ops = serve_engine_of(sv->engine);
	long budget = sv->max_batch_tokens;
	bool whole = !sv->chunked_prefill;

	if (ops->unified_budget) {
		/* vLLM v1 admits no waiting request in a step that preempted one
		 * (scheduler.py: "if not preempted_reqs") */
		long preempted = s->preemptions;
		batch_running(s, r, b, &budget, ops->blocks_per_chunk);
		if (s->preemptions == preempted)
			batch_admit(s, r, b, &budget, whole);
	} else if (ops->prefill_first) {
		batch_prefills(s, r, b, &budget, false);
		batch_admit(s, r, b, &budget, whole);
		if (r->n_batch == 0)
			batch_decodes(s, r, b, &budget);
	} else if (sv->chunked_prefill) {
		batch_decodes(s, r, b, &budget);
		batch_prefills(s, r, b, &budget, false);
		batch_admit(s, r, b, &budget, false);
	} else {
		batch_admit(s, r, b, &budget, true);
		if (r->n_batch == 0)
			batch_decodes(s, r, b, &budget);
	}
}

bool serve_sched_step(struct serve_state *s, struct serve_replica *r)
{
	const struct serving_spec *sv = s->sv;
	struct serve_batch b = { 0 };
	struct serve_step_use use = { 0, 0 };

	r->n_batch = 0;
	form_batch(s, r, &b);
	if (r->n_batch == 0) {
		if (r->wait_head >= 0 && r->n_running == 0 && r->n_moving == 0 && r->blocks_free == r->blocks_total) {
			const struct serve_seq *q = &s->seqs[r->wait_head];
			serve_state_fail(s, SERVE_SIM_UNSCHEDULABLE, "a request of %d prompt tokens (%d generated) can never be scheduled: %d tokens to "
			     "prefill against max_batch_tokens %d without chunked prefill", q->prompt, q->generated,
			     q->prompt + q->generated - q->computed, sv->max_batch_tokens);
		}
		return false;
	}
	double dt = r->pool->model.step_s(r->pool->model.ctx, &b, &use);
	assert(isfinite(dt) && dt >= 0);
	int64_t dt_ns = sim_time_from_s(dt);
	s->busy_s += sim_time_to_s(dt_ns);
	s->flops += use.flops;
	s->hbm_bytes += use.hbm_bytes;
	r->busy = true;
	engine_after(s->e, dt_ns, ENGINE_CLASS_WORK, &s->on_step, (uint64_t)(r - s->reps));
	return true;
}
