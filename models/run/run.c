#include "run.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "models/cost/billing.h"

const char *const failure_dist_names[] = { "exponential", "weibull", NULL };

/* The step's GPU time split, as fractions that add up to 1 (no checkpoint
 * or failure time in a run that has neither). */
static void split_step(const struct train_breakdown *b, struct run_result *out)
{
	double comm_s = b->comm_tp + b->comm_ep + b->comm_cp + b->comm_dp;
	double total_s = b->compute + b->optimizer + comm_s + b->bubble + b->other;
	if (!(total_s > 0))
		return;
	out->has_split = true;
	out->frac_compute = (b->compute + b->optimizer) / total_s;
	out->frac_comm_exposed = comm_s / total_s;
	out->frac_bubble = b->bubble / total_s;
	out->frac_checkpoint = 0;
	out->frac_lost_to_failures = 0;
	out->frac_idle = b->other / total_s;
}

void run_training(const struct run_spec *run, const struct train_spec *w, const struct cluster_spec *c,
		  const struct train_result *r, struct run_result *out)
{
	memset(out, 0, sizeof *out);
	out->steps = run->tokens > 0 ? ceil(run->tokens / w->global_batch_tokens) : 1;
	out->tokens = out->steps * w->global_batch_tokens;
	double wall_s = out->steps * r->step_time_s;
	/* nothing random happens in this run: every trial is the same */
	out->wall_time_p50_s = out->wall_time_p90_s = wall_s;
	out->ettr = 1.0;
	out->gpu_hours = wall_s / 3600 * (double)cluster_gpus(c);
	if (c->price.known) {
		out->priced = true;
		out->billed_s = billing_billed_s(&c->price, wall_s);
		out->cost_usd_p50 = out->cost_usd_p90 = billing_cost_usd(c, wall_s);
		out->usd_per_mtok = out->cost_usd_p50 / (out->tokens / 1e6);
	}
	split_step(&r->br, out);
}
