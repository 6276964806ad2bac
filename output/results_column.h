/*
 * results_column: the table of columns: every column a result row, a
 * sweep or validate can have, with its kind (how a table shows it, which
 * JSON type it is), its unit as --columns help says it, and what it means.
 * One entry per column name; a name means the same in every kind that has
 * it. Data only: it knows no result and writes nothing.
 */
#ifndef CLUSTERSIM_OUTPUT_RESULTS_COLUMN_H
#define CLUSTERSIM_OUTPUT_RESULTS_COLUMN_H

#include "output/rowset.h"

/* A column's entry: how the writers treat it, its unit, what it means. */
struct results_column {
	const char *name;
	enum cell_unit unit;
	const char *unit_text;   /* "s", "USD", "fraction", "GiB (2^30 bytes)"... */
	const char *meaning;
};

/* The entry of a result, sweep (set:PATH, sweep_fingerprint) or validate
 * column, or NULL (a catalog listing's columns have none). */
const struct results_column *results_column_info(const char *name);

#endif
