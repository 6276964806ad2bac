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
	const char *words;       /* what a chart's axis says, in words ("Cost, P50"); NULL: from the name */
};

/* The entry of a result, sweep (set:PATH, sweep_fingerprint) or validate
 * column, or NULL (a catalog listing's columns have none). */
const struct results_column *results_column_info(const char *name);

/* A column's name in words for a chart's axis, title or legend: its
 * entry's words, else the name with its underscores as spaces, a
 * percentile in capitals ("p99" -> "P99") and its first letter a capital;
 * a name with no entry (a column of the user's own, set:PATH) as it is.
 * A new string the caller frees. */
char *results_column_words(const char *name);

/* The axis label of a column: "WORDS (UNIT)", the unit left out for a
 * text column or one without an entry ("Cost, P50 (USD)"). Caller frees. */
char *results_column_axis_label(const char *name);

#endif
