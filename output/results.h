/*
 * results: result rows, one format per result kind, from evaluated jobs;
 * and the catalog listings.
 *
 * Every row starts with scenario,candidate,row_id,seed,status,reason. The
 * column lists here are the contract with users' scripts: add columns at the
 * end, never rename or reorder.
 */
#ifndef CLUSTERSIM_OUTPUT_RESULTS_H
#define CLUSTERSIM_OUTPUT_RESULTS_H

#include <stdint.h>

#include "models/eval/job.h"
#include "models/eval/result.h"
#include "models/hw/catalog.h"
#include "output/rowset.h"

/* An empty rowset with the columns of a result kind. */
rowset *results_new(enum result_kind kind);

/* Append the row of one evaluated job (r->kind says which columns). Formats
 * only: every figure comes computed in r. */
void results_row(rowset *rs, const struct job *j, const struct result *r);

/* Start a row with only the six leading columns (a sweep point that could
 * not be loaded: status invalid or error). */
void results_head_row(rowset *rs, const char *scenario, const char *candidate, uint64_t row_id,
		      uint64_t seed, const char *status, const char *reason);

/* Catalog listings for `clustersim catalog SECTION`. */
rowset *results_catalog_gpus(const catalog *c);
rowset *results_catalog_fabrics(const catalog *c);
rowset *results_catalog_storage(const catalog *c);
rowset *results_catalog_presets(const catalog *c);
rowset *results_catalog_prices(const catalog *c);
rowset *results_catalog_models(const catalog *c);
rowset *results_catalog_sources(const catalog *c);

#endif
