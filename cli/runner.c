#include "runner.h"

#include <stdlib.h>

#include "models/eval/evaluate.h"
#include "models/scenario/jobs.h"
#include "output/results.h"

rowset *runner_columns(const struct scenario *s, const struct runner_options *o)
{
	return results_new(evaluate_result_kind(s->workload.kind, o->dry_run));
}

int runner_run(const struct scenario *s, const struct runner_options *o, rowset *rs,
	       struct cs_error *err)
{
	size_t n;
	struct job *jobs = jobs_from_scenario(s, o->dry_run, o->row_id, &n);
	struct result r;

	(void)err;
	for (size_t i = 0; i < n; i++) {
		struct fleet_series series = { 0 };
		if (o->fleet_series != NULL && jobs[i].kind == WORKLOAD_FLEET && !jobs[i].shape_only)
			jobs[i].fleet_series = &series;
		evaluate(&jobs[i], &r);
		results_row(rs, &jobs[i], &r);
		if (jobs[i].fleet_series != NULL) {
			if (r.outcome.status == OUTCOME_OK)
				results_fleet_series_rows(o->fleet_series, &jobs[i], &series);
			fleet_series_release(&series);
		}
		if (o->ok_rows != NULL && r.outcome.status == OUTCOME_OK)
			(*o->ok_rows)++;
	}
	free(jobs);
	return 0;
}
