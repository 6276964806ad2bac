/*
 * plan_band: what a price band (cost/price_band.h) does to a plan's
 * answer: a cost's band in words, and whether the cheapest shape keeps its
 * place inside the bands. It reads the outcome plan_search gave and never
 * evaluates anything.
 */
#ifndef CLUSTERSIM_MODELS_PLAN_PLAN_BAND_H
#define CLUSTERSIM_MODELS_PLAN_PLAN_BAND_H

#include <stdbool.h>
#include <stddef.h>

#include "models/cost/inference.h"
#include "models/plan/plan.h"
#include "models/run/run_types.h"
#include "util/text.h"

/* Bytes that hold any cost with its band (plan_band_cost,
 * plan_band_serving_cost): three text_usd() figures and the words. */
#define PLAN_BAND_COST_MAX (3 * TEXT_USD_MAX + 64)

/* Bytes that hold any swap line (plan_band_swap): two shape names, each
 * again with its cost and band, and the words. */
#define PLAN_BAND_SWAP_MAX (4 * CAT_TEXT_MAX + 2 * PLAN_BAND_COST_MAX + 256)

/* A run's cost P50 with its band: "$988,078 (P50, price band $852,978-
 * $1,144,576)", or "$988,078 (P50)" without a band; size at least
 * PLAN_BAND_COST_MAX. */
void plan_band_cost(const struct run_result *r, char *buf, size_t size);

/* A service's hourly price with its band: "$64/h (price band $55-$74/h)",
 * or "$64/h" without a band; size at least PLAN_BAND_COST_MAX. */
void plan_band_serving_cost(const struct inference_dollars *d, char *buf, size_t size);

/*
 * Whether the cheapest feasible shape's place holds inside the price
 * bands: against each other feasible shape of its kind with a cost, the
 * probability that it is the cheaper (price_band_swap_probability on their
 * P50 costs, a service's on its hourly price: one draw when they share a
 * price row, independent draws otherwise); the likeliest one, when that is
 * at least PRICE_BAND_SWAP_MATERIAL, in one line into buf (size at least
 * PLAN_BAND_SWAP_MAX). False (buf empty) otherwise.
 */
bool plan_band_swap(const struct plan_outcome *o, char *buf, size_t size);

#endif
