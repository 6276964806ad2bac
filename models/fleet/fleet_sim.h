/*
 * fleet_sim: the shared cluster's scheduler on the engine (sim/).
 *
 * Jobs (drawn from the classes' arrival processes and durations, or read
 * from traces) are submitted to a queue; the scheduler gang-schedules them
 * (a job starts only with all its GPUs): FIFO, SJF on the user's estimate,
 * priority with per-team quotas, or EASY backfill (a backfilled job never
 * delays the reservation of the head of the queue); optionally a
 * higher-priority job preempts lower ones, which restart from their last
 * checkpoint. Placement respects scale-up domains (whole nodes for jobs of
 * a node or more; a smaller job inside one node) and leaf switches, so
 * fragmentation shows. Nodes fail and are repaired (the whole-run failure
 * model); a failed job restarts from its last checkpoint. Every job is a
 * few events, so 100,000 jobs take well under a second.
 */
#ifndef CLUSTERSIM_MODELS_FLEET_FLEET_SIM_H
#define CLUSTERSIM_MODELS_FLEET_FLEET_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/fleet/fleet_types.h"

/* Run the fleet (docs/explanation/fleet.md, "The scheduler simulation"); returns 0,
 * or -1 with reason filled (a job of no GPUs, more GPUs than the cluster,
 * or spanning nodes with a GPU count that is not a whole number of nodes;
 * a negative duration or submission; too many teams or jobs). *out is
 * zeroed first; cfg->records, when given, is filled. Same cfg, same bytes. */
int fleet_sim_run(const struct fleet_sim_config *cfg, struct fleet_metrics *out, char *reason, size_t reason_len);

/* Seconds from 0 at which a run whose window ends at window_end_s stops
 * at the latest: the window's end + 10 windows (at least 30 days), at most
 * the engine's clock's end (SIM_TIME_MAX_S, 292 years). */
double fleet_sim_cap_s(double window_end_s);

/* Erlang C: probability that an arrival waits in an M/M/c queue with
 * offered load a = lambda / mu Erlangs (a < c); for the tests and docs. */
double fleet_erlang_c(int c, double a);

#endif
