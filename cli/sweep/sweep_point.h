/*
 * sweep_point: one point of a sweep as rows in the sweep's columns, and the
 * columns themselves (the result columns, one set:PATH per varied path, then
 * sweep_fingerprint).
 *
 * A point whose scenario does not load, or whose result columns are not the
 * sweep's, is one row with status invalid or error and the reason: this
 * module never fails a sweep because of one point, never lets one point's
 * catalog additions reach another, and never writes output.
 */
#ifndef CLUSTERSIM_CLI_SWEEP_SWEEP_POINT_H
#define CLUSTERSIM_CLI_SWEEP_SWEEP_POINT_H

#include <stdint.h>

#include "cli/sweep/sweep_run.h"
#include "output/rowset.h"
#include "util/error.h"

/* Set run's columns: those of the first point (in point order, whatever the
 * shard) whose scenario loads, so that every shard agrees, or the six leading
 * columns when none does; then set:PATH for each varied path, then
 * sweep_fingerprint. Called once, after sweep_run_load(). When no point
 * loads, the base itself (after --set) may be what is wrong: then -1 with
 * the base's error (bad input); 0 otherwise. The columns are set either way. */
int sweep_point_columns(struct sweep_run *run, struct cs_error *err);

/* Point k's rows. Never fails: a point that cannot run is a row with status
 * invalid (bad input) or error. Caller frees. */
rowset *sweep_point_rows(const struct sweep_run *run, uint64_t k);

/* The rows point k yields without their figures: the head cells (scenario,
 * candidate, row_id, seed) and the set:PATH and fingerprint cells that a
 * resumed row must repeat. Caller frees. */
rowset *sweep_point_expected(const struct sweep_run *run, uint64_t k);

#endif
