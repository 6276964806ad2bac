/*
 * plan_point: the figures a plan's point is compared on, and how a time
 * or a price reads in the plan's messages.
 *
 * A training run is compared on its wall time and dollars (P50, P90); a
 * service on its TTFT P99 and its dollars per hour (one figure each: its
 * P50 and P90 are the same). The search, its explanations, the spot
 * comparison and the mixes all read points through these, so the fronts
 * and the words agree. Nothing here searches or evaluates.
 */
#ifndef CLUSTERSIM_MODELS_PLAN_PLAN_POINT_H
#define CLUSTERSIM_MODELS_PLAN_PLAN_POINT_H

#include <stdbool.h>
#include <stddef.h>

#include "models/plan/plan_types.h"

/* True for a service's point (its figures are TTFT P99 and $/hour). */
bool plan_point_serving(const struct plan_point *p);

/* The point's time (s) and dollars at P50 and at P90. */
double plan_point_t50(const struct plan_point *p);
double plan_point_t90(const struct plan_point *p);
double plan_point_c50(const struct plan_point *p);
double plan_point_c90(const struct plan_point *p);

/* An ok, priced result: a training run with dollars, or a service with
 * dollars that meets its SLO. */
bool plan_point_priced_ok(const struct result *r);

/* A time as "45 min", "37.5 h", "1248 h"; dollars as "$1,234,567". */
void plan_point_say_time(double s, char *buf, size_t size);
void plan_point_say_usd(double usd, char *buf, size_t size);

#endif
