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
 * max(minimum_s, held_s rounded up to a whole number of billing_s); a
 * capacity block (q->block_s > 0) bills billing_block_billed_s instead; 0 s
 * held is 0 s billed. */
double billing_billed_s(const struct price_quote *q, double held_s);

/* A capacity block's seconds for holding held_s, paid up front whatever the
 * use: whole blocks (ceil(held / block_s) x block_s, at least one), in
 * block_long_s steps past block_long_after_s, and bookings of at most
 * block_max_s (a longer hold books the longest as often as it fits, then
 * one for the rest). 0 s held is 0 s billed. */
double billing_block_billed_s(const struct price_quote *q, double held_s);

/* Hours in a year: 365.25 days (the Julian year), the span a 1-year
 * commitment pays for. */
#define BILLING_YEAR_H 8766.0

/*
 * A commitment (a reserved 1y or 3y price) is paid for every hour of its
 * term whatever the use; on-demand is paid only for the hours used. The
 * commitment is the cheaper when the share of its hours used is above
 * committed / on-demand: that ratio, the break-even utilization (0 when
 * either price is not positive). (AWS, "Reserved Instances payment
 * options": a No Upfront RI bills its discounted rate "for every hour
 * within the term, regardless of whether the Reserved Instance is being
 * used".)
 */
double billing_commit_breakeven(double committed_usd_per_gpu_hour, double on_demand_usd_per_gpu_hour);

/* The share of a year's GPU-hours a cluster of `gpus` would use at the pace
 * of a window: used_gpu_hours in window_h hours, taken as the year's
 * (used x 8766 / window_h) over gpus x 8766 h; 0 when nothing is given. */
double billing_year_use(double used_gpu_hours, int gpus, double window_h);

/* The hours of a commitment term: "Ny" (N whole years, 1 to 10) is N x
 * BILLING_YEAR_H; 0 for any other term ("", "capacity-block"). */
double billing_term_h(const char *term);

/* What a whole commitment term costs `gpus` GPUs whatever the use:
 * usd_per_gpu_hour x gpus x billing_term_h(term); 0 without a term. */
double billing_term_usd(const struct price_quote *q, long gpus);

/*
 * How a run is billed on reserved price q (docs/explanation/costs.md,
 * "Commitments"), as one sentence for a row's reason, into buf: a run is
 * billed its held hours (rounded as billing_billed_s) at the committed
 * rate, which assumes the rest of the term is used elsewhere; the
 * sentence names the held hours (held_s > 0; 0: a service priced per
 * hour), the hours of the term, what the whole term costs these `gpus`
 * GPUs whatever the use (billing_term_usd) and the use above which it
 * beats the same offering's on-demand price (billing_commit_breakeven).
 * Empty unless q is a known reserved price.
 */
void billing_commit_note(const struct price_quote *q, long gpus, double held_s, char *buf, size_t size);

/* Dollars for holding every instance of the cluster for held_s seconds:
 * usd_per_gpu_hour x GPUs x billing_billed_s / 3600. */
double billing_cost_usd(const struct cluster_spec *c, double held_s);

#endif
