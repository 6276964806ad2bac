/*
 * plan_disagg_out: how `clustersim plan` shows its prefill/decode split
 * search (models/plan/plan_disagg.h): one answer line per provider and a
 * summary line, and the disagg_ columns of a serving front's rows.
 * Formats only; never searches.
 */
#ifndef CLUSTERSIM_CLI_PLAN_DISAGG_OUT_H
#define CLUSTERSIM_CLI_PLAN_DISAGG_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "models/plan/plan.h"
#include "models/plan/plan_disagg.h"
#include "output/rowset.h"

/* The columns a serving plan's rows add after plan's own, NULL-ended. */
extern const char *const plan_disagg_out_columns[];

/* The answer lines of d (searched or not) after plan_search gave o. */
void plan_disagg_out_print(FILE *f, const struct plan_disagg *d, const struct plan_outcome *o);

/* Fill the disagg_ columns of rs's last row, the row of point i of o:
 * the cheapest split of its instance type, when one was found. */
void plan_disagg_out_row(rowset *rs, const struct plan_disagg *d, const struct plan_outcome *o, size_t i);

#endif
