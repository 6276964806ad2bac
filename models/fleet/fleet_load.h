/*
 * fleet_load: the jobs a fleet simulation runs.
 *
 * Either the caller's jobs (a trace, already turned into struct fleet_job)
 * or jobs drawn from the classes: Poisson arrivals at rate_per_h over
 * [0, duration_h), durations stated by the caller per class (a workload's
 * time on its allocation) or drawn from the class's distribution, the
 * user's estimate = duration x estimate_factor. A trace class contributes
 * its trace's jobs. Each class draws from its own two streams (arrivals,
 * durations), so adding a class does not change another class's jobs.
 * Nothing here knows the scheduler.
 */
#ifndef CLUSTERSIM_MODELS_FLEET_FLEET_LOAD_H
#define CLUSTERSIM_MODELS_FLEET_FLEET_LOAD_H

#include <gsl/gsl_rng.h>
#include <stddef.h>

#include "models/fleet/fleet_types.h"

/* A fleet never simulates more jobs than this: twice the jobs the reader
 * lets a fleet ask for (FLEET_JOBS_MAX), for a Poisson count above its mean. */
#define FLEET_LOAD_MAX_JOBS (2 * FLEET_JOBS_MAX)

/* The jobs of cfg sorted by submission (ties: class, then team, GPUs,
 * duration), into *jobs (caller frees) and *n; the team table (cfg's, or
 * built from the classes' teams in class order, trace teams appended) into
 * teams and *n_teams. Returns 0, or -1 with reason (a team index out of
 * range, too many teams or jobs). */
int fleet_load_jobs(const struct fleet_sim_config *cfg, struct fleet_job **jobs, size_t *n,
		    char (*teams)[FLEET_NAME_MAX], int *n_teams, char *reason, size_t reason_len);

/* One draw of duration d from r, clamped to [min_s, max_s] (max_s <= 0:
 * no upper bound) and to >= 0. */
double fleet_load_duration(const struct fleet_duration *d, gsl_rng *r);

#endif
