/*
 * catalog_rows: the catalog's listings as rows, one rowset per section of
 * `clustersim catalog SECTION` (gpus, fabrics, storage, presets, prices,
 * models, sources, engines): each entry's name, aliases and description, its
 * figures in the units the column names spell, and where they come from.
 * Formats only: it never writes output and never changes the catalog.
 * The columns are a contract like the result columns (output/results.h):
 * add at the end, never rename or reorder.
 */
#ifndef CLUSTERSIM_OUTPUT_CATALOG_ROWS_H
#define CLUSTERSIM_OUTPUT_CATALOG_ROWS_H

#include "models/hw/catalog.h"
#include "output/rowset.h"

/* One section's rows, one per entry of c in the catalog's order. Caller frees. */
rowset *catalog_rows_gpus(const catalog *c);
rowset *catalog_rows_fabrics(const catalog *c);
rowset *catalog_rows_storage(const catalog *c);
rowset *catalog_rows_presets(const catalog *c);
rowset *catalog_rows_prices(const catalog *c);
rowset *catalog_rows_models(const catalog *c);
rowset *catalog_rows_sources(const catalog *c);
/* Each engine's constants in the catalog file's units; a constant of the
 * other kind of engine (a serving one's on "training") is an empty cell. */
rowset *catalog_rows_engines(const catalog *c);

#endif
