/*
 * runner: a loaded scenario -> its result rows.
 *
 * The glue the commands that produce results share (run, sweep, and later
 * plan): the scenario's jobs (scenario/jobs.h), each evaluated
 * (eval/evaluate.h) and formatted (output/results.h). It models nothing
 * and formats nothing itself.
 */
#ifndef CLUSTERSIM_CLI_RUNNER_H
#define CLUSTERSIM_CLI_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/scenario/scenario.h"
#include "output/rowset.h"
#include "util/error.h"

struct runner_options {
	bool dry_run;       /* shapes and prices only */
	int64_t row_id;     /* < 0: rows numbered 0, 1, 2 ...; else every row gets it */
	size_t *ok_rows;    /* when not NULL, incremented for each row whose status is ok */
	/* when not NULL, a fleet's utilization over time: each candidate's
	 * series rows appended here (output/results.h, results_fleet_series_rows) */
	rowset *fleet_series;
};

/* New empty rowset with the columns this scenario's rows will have. */
rowset *runner_columns(const struct scenario *s, const struct runner_options *o);

/* Append the scenario's rows to rs (made by runner_columns for the same
 * scenario). Returns 0, or -1 with err set on a runtime failure. */
int runner_run(const struct scenario *s, const struct runner_options *o, rowset *rs,
	       struct cs_error *err);

#endif
