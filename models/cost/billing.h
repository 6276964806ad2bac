/*
 * billing: what holding a cluster costs: the price per GPU-hour times the
 * GPUs times the time held, rounded up to the provider's billing period
 * (you pay for every period you started).
 *
 * Pure arithmetic on the candidate's resolved price (struct price_quote in
 * hw/hw.h, whose basis says where the price came from). Storage and energy
 * costs belong here too when they are modelled. Never reads files.
 */
#ifndef CLUSTERSIM_MODELS_COST_BILLING_H
#define CLUSTERSIM_MODELS_COST_BILLING_H

#include "models/hw/hw.h"

/* Dollars per hour for the whole cluster (0 when the price is unknown). */
double billing_usd_per_hour(const struct cluster_spec *c);

/* Dollars for holding the cluster for held_s seconds, rounded up to the
 * billing granularity (a started period is paid whole; 0 s costs nothing). */
double billing_cost_usd(const struct cluster_spec *c, double held_s);

#endif
