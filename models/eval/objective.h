/*
 * objective: does a whole run meet the scenario's objective (a deadline in
 * hours, a budget in dollars) at its median and at its 90th percentile?
 *
 * In eval/ because evaluate() fills it for every training row and a
 * feature folder only includes its own and earlier ones (plan/ comes
 * after eval/); plan/ will read these verdicts, not the other way round.
 */
#ifndef CLUSTERSIM_MODELS_EVAL_OBJECTIVE_H
#define CLUSTERSIM_MODELS_EVAL_OBJECTIVE_H

#include <stdbool.h>

#include "models/run/run.h"

/* The verdicts; a bound's pair is meaningful only when its `checked` is set. */
struct objective_verdict {
	bool deadline_checked;      /* the objective gives deadline_h and the run has a wall time */
	bool meets_deadline_p50, meets_deadline_p90;
	bool budget_checked;        /* the objective gives budget_usd and the run is priced */
	bool meets_budget_p50, meets_budget_p90;
};

/* Compare the run with the objective (NULL: none). A run meets a bound when
 * its figure is at most the bound: wall_time_pX_s <= deadline_h x 3600,
 * cost_usd_pX <= budget_usd. */
void objective_check(const struct objective_spec *o, const struct run_result *run,
		     struct objective_verdict *out);

#endif
