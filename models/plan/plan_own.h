/*
 * plan_own: buy vs rent in a plan's outcome: for a shape on the owned price
 * basis, the utilization at which owning it costs what renting each other
 * ok, priced shape costs for the same jobs, in one line. It reads the
 * outcome plan_search gave and the owned shape's price; it never
 * evaluates anything.
 *
 * Over a year at utilization u the owned cluster of G GPUs costs
 * (F + u E) G 8766 (F, E: its fixed and energy dollars per GPU-hour,
 * cost/owned.h) and runs u 8766 / T jobs (T: one job's held hours on it);
 * renting shape j for those jobs costs C_j each (its P50 cost). They are
 * equal at u* = F / (R_j - E), with R_j = C_j / (G T) the rented job's
 * dollars per owned GPU-hour (owned_break_even_utilization). For the same
 * GPUs and time R_j is the rented price per GPU-hour.
 */
#ifndef CLUSTERSIM_MODELS_PLAN_PLAN_OWN_H
#define CLUSTERSIM_MODELS_PLAN_PLAN_OWN_H

#include <stdbool.h>
#include <stddef.h>

#include "models/plan/plan.h"

/* The line for owned shape i (evaluated, ok and priced, its price quote
 * q): the break-even utilization against each rented shape that is ok and
 * priced, cheapest first (at most 6 named, then how many more), and
 * whether q's stated utilization buys or rents cheaper against the
 * cheapest; false (buf empty) when i is not such a shape or no rented
 * shape is. */
bool plan_own(const struct plan_outcome *o, size_t i, const struct price_quote *q, char *buf, size_t size);

#endif
