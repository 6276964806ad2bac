#include "objective.h"

#include <string.h>

void objective_check(const struct objective_spec *o, const struct run_result *run,
		     struct objective_verdict *out)
{
	memset(out, 0, sizeof *out);
	if (o == NULL)
		return;
	if (o->deadline_h > 0) {
		const double deadline_s = o->deadline_h * 3600;
		out->deadline_checked = true;
		out->meets_deadline_p50 = run->wall_time_p50_s <= deadline_s;
		out->meets_deadline_p90 = run->wall_time_p90_s <= deadline_s;
	}
	if (o->budget_usd > 0 && run->priced) {
		out->budget_checked = true;
		out->meets_budget_p50 = run->cost_usd_p50 <= o->budget_usd;
		out->meets_budget_p90 = run->cost_usd_p90 <= o->budget_usd;
	}
}
