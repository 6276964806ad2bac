/*
 * storage_cost: what holding data on a storage tier and moving it out of
 * the provider cost: the footprint times the tier's price per TB-month
 * times the held time, and the bytes out times the egress price.
 *
 *   hold_usd   = bytes / 1e12 x usd_per_tb_month x held_s / (730.5 x 3600)
 *   egress_usd = bytes / 1e9 x egress_usd_per_gb
 *
 * A month is 730.5 hours (a 365.25-day year over 12), the unit the
 * providers' per-GB-month prices are prorated in (AWS FSx for Lustre
 * "prorated by the second"; CoreWeave and Nebius divide by 730).
 * Managed Lustre is billed for the capacity provisioned, whatever the
 * footprint. Pure arithmetic on struct storage_spec; never reads files.
 */
#ifndef CLUSTERSIM_MODELS_COST_STORAGE_COST_H
#define CLUSTERSIM_MODELS_COST_STORAGE_COST_H

#include "models/hw/hw.h"

/* Hours in the month a per-TB-month price is given for. */
#define STORAGE_COST_HOURS_PER_MONTH 730.5

/* Dollars for holding `bytes` for held_s seconds at usd_per_tb_month. */
double storage_cost_hold_usd(double bytes, double usd_per_tb_month, double held_s);

/* Dollars for moving `bytes` out at egress_usd_per_gb. */
double storage_cost_egress_usd(double bytes, double egress_usd_per_gb);

/* The bytes a tier bills for a footprint: a managed-lustre tier's
 * provisioned capacity (capacity_tib x 2^40) when it has one, else the
 * footprint itself. */
double storage_cost_billed_bytes(const struct storage_spec *s, double footprint_bytes);

#endif
