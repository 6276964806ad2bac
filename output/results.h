/*
 * results: the result columns of INTERFACES.md, filled from model results.
 *
 * Every row starts with scenario,candidate,row_id,seed,status,reason. The
 * column lists here are the contract with users' scripts: add columns at the
 * end, never rename or reorder.
 */
#ifndef CLUSTERSIM_OUTPUT_RESULTS_H
#define CLUSTERSIM_OUTPUT_RESULTS_H

#include <stdint.h>

#include "models/hw/catalog.h"
#include "models/scenario/scenario.h"
#include "output/rowset.h"

/* Columns of `clustersim run --dry-run`: each candidate's shape and price. */
rowset *results_shapes_new(void);
void results_shape_row(rowset *rs, const struct scenario *s, size_t candidate, uint64_t row_id);

/* Columns of a collective workload (nccl-tests' figures). */
rowset *results_collective_new(void);
struct nccl_point;
void results_collective_row(rowset *rs, const struct scenario *s, size_t candidate,
			    uint64_t row_id, const struct nccl_point *p);

/* Columns of a training or fine-tuning workload. */
rowset *results_training_new(void);
struct train_result;
void results_training_row(rowset *rs, const struct scenario *s, size_t candidate,
			  uint64_t row_id, const struct train_result *r);

/* Start a row with the six leading columns. */
void results_row_head(rowset *rs, const struct scenario *s, const char *candidate,
		      uint64_t row_id, const char *status, const char *reason);

/* Catalog listings for `clustersim catalog SECTION`. */
rowset *results_catalog_gpus(const catalog *c);
rowset *results_catalog_fabrics(const catalog *c);
rowset *results_catalog_storage(const catalog *c);
rowset *results_catalog_presets(const catalog *c);
rowset *results_catalog_prices(const catalog *c);
rowset *results_catalog_models(const catalog *c);
rowset *results_catalog_sources(const catalog *c);

#endif
