/*
 * results: result rows, one format per result kind, from evaluated jobs
 * (the catalog listings are output/catalog_rows.h).
 *
 * Every row starts with scenario,candidate,row_id,seed,status,reason. The
 * column lists here are the contract with users' scripts: add columns at the
 * end, never rename or reorder. Every column has one entry in a table of
 * columns (output/results_column.h): its unit and meaning (--columns help)
 * and its kind (how a table shows it). It never writes output and never
 * computes a figure. It is the one guard against NaN and infinity in
 * output: a result with a non-finite figure becomes an error row naming
 * the column (results_row).
 */
#ifndef CLUSTERSIM_OUTPUT_RESULTS_H
#define CLUSTERSIM_OUTPUT_RESULTS_H

#include <stdint.h>

#include "models/eval/job.h"
#include "models/eval/result.h"
#include "models/hw/catalog.h"
#include "output/results_column.h"
#include "output/rowset.h"

/* Set every column's unit from its entry (UNIT_NONE when it has none). */
void results_set_units(rowset *rs);

/* The columns a table shows by default ("a,b,c", a string literal) when rs
 * has a result kind's columns (a sweep's set:PATH and fingerprint after
 * them allowed); NULL otherwise (all columns). */
const char *results_brief(const rowset *rs);

/* For a table a person reads: a copy of rs in which a fleet's team and
 * class rows whose reason is their fleet row's (the same candidate and
 * row_id, the row before them without a team or class) have it emptied,
 * so the fleet's row says it once; NULL when rs has no such row (or no
 * team column). Caller frees. CSV and JSON keep every row's reason. */
rowset *results_reasons_once(const rowset *rs);

/* An empty rowset with the columns of a result kind, their units set. */
rowset *results_new(enum result_kind kind);

/* Append the row of one evaluated job (r->kind says which columns). Formats
 * only: every figure comes computed in r. */
void results_row(rowset *rs, const struct job *j, const struct result *r);

/* Start a row with only the six leading columns (a sweep point that could
 * not be loaded: status invalid or error). */
void results_head_row(rowset *rs, const char *scenario, const char *candidate, uint64_t row_id,
		      uint64_t seed, const char *status, const char *reason);

/* A fleet's utilization over time (run --series): the columns time_h,
 * candidate, allocated_frac, busy_frac, queued_jobs, and one row per bucket
 * of s for job j's candidate. */
rowset *results_fleet_series_new(void);
void results_fleet_series_rows(rowset *rs, const struct job *j, const struct fleet_series *s);

#endif
