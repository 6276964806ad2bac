#include "models/eval/eval_kind.h"

#include <math.h>

#include "models/eval/objective.h"
#include "models/train/train_reason.h"

/* Just under 2^63 ns, where the engine's clock saturates. */
static const double STEP_CLOCK_LIMIT_S = 9e9;

/* The step (train_evaluate), then the whole run on it (run_training), its
 * wait for data folded into the step, then the objective and the notes. */
void eval_train(const struct job *j, struct result *out)
{
	const struct workload_spec *w = j->workload;
	struct train_result *r = &out->train;

	train_evaluate(&w->train, j->cluster, j->trace, r);
	if (r->outcome.status == OUTCOME_OOM && isfinite(r->mem.total)) {
		train_reason_oom(r, &j->cluster->gpu, &out->outcome);
		return;
	}
	if (r->outcome.status != OUTCOME_OK) {
		out->outcome = r->outcome;
		return;
	}
	/* The trials' failure and preemption streams follow the scenario seed
	 * only (row 0), as serving's requests do: every candidate, every sweep
	 * point and every shape plan searches sees the same draws (common
	 * random numbers), so run and plan agree and candidates differ by
	 * their hardware, not their luck. */
	struct run_trials trials = { .seed = j->seed, .row_id = 0,
				     .trials = j->monte_carlo != NULL ? j->monte_carlo->trials : 1 };
	run_training(&w->run, &w->train, j->cluster, r, &trials, &out->run);
	if (out->run.failed) {
		outcome_set(&out->outcome, OUTCOME_INVALID, "%s", out->run.note);
		return;
	}
	run_fold_data_stall(&out->run, r);
	if (r->step_time_s >= STEP_CLOCK_LIMIT_S) {
		/* the engine's clock saturates at 2^63 ns: a longer step is not measured */
		outcome_set(&out->outcome, OUTCOME_ERROR,
			    "one step takes more than %.3g s (%.0f years), beyond the simulated clock's range",
			    STEP_CLOCK_LIMIT_S, STEP_CLOCK_LIMIT_S / 3.15576e7);
		return;
	}
	out->has_run = !evaluate_unmodelled(j, out);
	if (out->has_run && out->run.note[0] != '\0')
		outcome_add(&out->outcome, "%s", out->run.note);
	if (out->has_run)
		objective_check(j->objective, &out->run, &out->objective);
	train_reason_notes(&w->train, r, &out->outcome);
	train_reason_assumed_attention(&w->train, &j->cluster->gpu, &out->outcome);
	evaluate_note_assumed_rates(j, out);
	evaluate_note_calibration(j, out, true);
	evaluate_note_no_price(j, out);
	if (out->has_run && out->run.priced)
		evaluate_note_commitment(j, (long)cluster_gpus(j->cluster), out->run.held_p50_s, out);
}
