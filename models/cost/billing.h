/*
 * billing: what holding a cluster costs: the price per GPU-hour times the
 * GPUs times the time billed. Each instance (a candidate's node) is billed
 * for max(minimum, held time rounded up to the provider's granularity): a
 * started period is paid whole, and a short hold is paid as the minimum.
 *
 * Pure arithmetic on the candidate's resolved price (struct price_quote in
 * hw/hw.h: billing_s is the granularity, minimum_s the minimum, from the
 * catalog's billing record of the provider, the price entry or the
 * scenario). Storage and energy costs belong here too when they are
 * modelled. Never reads files.
 */
#ifndef CLUSTERSIM_MODELS_COST_BILLING_H
#define CLUSTERSIM_MODELS_COST_BILLING_H

#include "models/hw/hw.h"

/* Dollars per hour for the whole cluster (0 when the price is unknown). */
double billing_usd_per_hour(const struct cluster_spec *c);

/* Seconds one instance held for held_s seconds is billed for:
 * max(minimum_s, held_s rounded up to a whole number of billing_s); 0 s
 * held is 0 s billed. */
double billing_billed_s(const struct price_quote *q, double held_s);

/* Dollars for holding every instance of the cluster for held_s seconds:
 * usd_per_gpu_hour x GPUs x billing_billed_s / 3600. */
double billing_cost_usd(const struct cluster_spec *c, double held_s);

#endif
