#include "train_reason.h"

#include "models/train/train.h"

void train_reason_oom(const struct train_result *r, const struct gpu_spec *g, struct outcome *o)
{
	const double gib = 1073741824.0;
	const struct train_memory *m = &r->mem;
	outcome_set(o, OUTCOME_OOM,
		    "needs %.1f GiB per GPU (weights %.1f, grads %.1f, optimizer %.1f, activations %.1f, "
		    "workspace %.1f) but one %s has %.1f GiB (%.1f GB of %.1f GB)",
		    m->total / gib, m->weights / gib, m->grads / gib, m->optimizer / gib, m->activations / gib,
		    m->workspace / gib, g->id.name, g->memory_bytes / gib, m->total / 1e9, g->memory_bytes / 1e9);
	if (r->searched)
		outcome_add(o, "none of the %d plans searched (%s) fits: this one needs the least", r->plans_tried,
			    r->searched_fields);
}

void train_reason_assumed_attention(const struct train_spec *w, const struct gpu_spec *g, struct outcome *o)
{
	if (!g->attn_train_assumed || !(g->attn_train_over_gemm > 0) || !w->model->kernels.flash_attention ||
	    w->model->kernels.attention_efficiency > 0)
		return;
	outcome_add(o,
		    "assumption: no training attention rate is measured for %s; its FlashAttention runs at %.3g x "
		    "its in-step BF16 GEMM rate, a ratio carried over from another GPU (catalog attn_train_over_gemm, "
		    "attn_train_note)",
		    g->id.name, g->attn_train_over_gemm);
}

void train_reason_notes(const struct train_spec *w, const struct train_result *r, struct outcome *o)
{
	if (r->searched) {
		if (r->plans_oom > 0)
			outcome_add(o, "fastest of %d plans searched (%s); %d of them did not fit in memory",
				    r->plans_tried, r->searched_fields, r->plans_oom);
		else
			outcome_add(o, "fastest of %d plans searched (%s); all fit in memory", r->plans_tried,
				    r->searched_fields);
	}
	if (r->searched && (w->plan.search_levers & ~(unsigned)LEVERS_NO_NUMERICS)) {
		char used[128];
		train_plan_numerics(w, &r->plan, used, sizeof used);
		outcome_add(o, "numerics changed as search_numerics allows: %s",
			    used[0] ? used
				    : "none (each either does not apply to this model and precision, or made no plan faster)");
	}
	if (r->tokens_per_step != w->global_batch_tokens)  /* round_batch moved it */
		outcome_add(o, "global batch rounded from %.0f to %.0f sequences (%.0f tokens) to split over dp %d x "
			    "micro_batch %d",
			    w->global_batch_tokens / w->seq_len, r->tokens_per_step / w->seq_len, r->tokens_per_step,
			    r->plan.dp, r->plan.micro_batch);
}
