/*
 * jobs: a loaded scenario as the list of jobs to evaluate.
 *
 * One job per candidate, in the order the scenario lists them; a collective
 * workload gives one job per candidate and message size (sizes vary
 * fastest). Row ids count from 0 in that order, or are all `fixed_row_id`
 * when it is >= 0 (a sweep point's rows share its id). A fleet's job gives
 * several rows (jobs_rows_per_job). The jobs borrow the
 * scenario, which must outlive them.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_JOBS_H
#define CLUSTERSIM_MODELS_SCENARIO_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/eval/job.h"
#include "models/scenario/scenario.h"

/* The scenario's jobs in a new array of *n (caller frees). shape_only
 * jobs report the cluster's shape and price only (--dry-run). */
struct job *jobs_from_scenario(const struct scenario *s, bool shape_only, int64_t fixed_row_id,
			       size_t *n);

/* The result rows each job of the scenario yields: 1, or for a fleet
 * (not shape_only) the fleet's row, one per team and one per job class. */
size_t jobs_rows_per_job(const struct scenario *s, bool shape_only);

#endif
