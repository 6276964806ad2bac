/*
 * price_band: how far a catalog price may be from what a renter pays, as a
 * distribution of the price factor F = price paid / catalog price, from
 * the row's band (usd_per_gpu_hour_low/_high: a marketplace's spread of
 * offers) and its age (the catalog's as_of minus the row's observed date).
 *
 * ln F is a split normal with median 0 (the catalog price is the median):
 *
 *   sigma_low  = sqrt((ln(point / low)  / z90)^2 + s_age^2 x age_years)
 *   sigma_high = sqrt((ln(high / point) / z90)^2 + s_age^2 x age_years)
 *
 * below and above the median, z90 = 1.2816 the standard normal's 90th
 * percentile: the band's low and high are the price's 10th and 90th
 * percentiles, and an old price has moved, up or down, as a random walk
 * whose log-spread grows like the square root of its age. s_age
 * (price_band_age_sigma) comes from the catalog's own price histories
 * (price_band_history), docs/explanation/costs.md gives its derivation.
 * A row with no band and age 0 has no spread (F = 1).
 *
 * Costs are combined deterministically: the factor is taken at K fixed
 * quantiles (k - 0.5) / K, symmetric about the median, so a run's costs
 * times the K factors give P50/P90 with no new random numbers. Pure
 * arithmetic; never reads files (price_band_history reads a loaded catalog).
 */
#ifndef CLUSTERSIM_MODELS_COST_PRICE_BAND_H
#define CLUSTERSIM_MODELS_COST_PRICE_BAND_H

#include <stdbool.h>
#include <stddef.h>

#include "models/hw/catalog.h"
#include "models/hw/hw.h"

/* The factor's fixed quantiles a cost is combined with (odd: the middle one
 * is the median, exactly 1). */
#define PRICE_BAND_K 99

/* The standard normal's 90th percentile: a band's high is the price's
 * 90th percentile, its low the 10th. */
#define PRICE_BAND_Z90 1.2815515655446004

/* The log-spread a price gains per square root of a year of age: the
 * median over the catalog's price histories of |ln(new / old)| /
 * sqrt(years between them), over 0.6745 (the median of |Z| for a standard
 * normal Z), rounded to 4 digits. test_price_band recomputes it from the
 * built-in catalog (price_band_history). */
extern const double price_band_age_sigma;

/* The share of the band from which the answer says the two cheapest
 * shapes may swap places. */
#define PRICE_BAND_SWAP_MATERIAL 0.10

struct price_band {
	double sigma_low, sigma_high;  /* of ln F below and above the median */
};

/* Days from 1970-01-01 to an ISO date YYYY-MM-DD, or to the 15th of a
 * YYYY-MM month (a month-only date is taken at its middle); false when s
 * is neither. */
bool price_band_date_days(const char *s, double *days);

/* Years (of 365.25 days) from observed to as_of; 0 when either date is
 * missing or not ISO, or observed is later. */
double price_band_age_years(const char *observed, const char *as_of);

/* The band of a price: point with its low and high (low <= point <= high,
 * all positive; 0 or out of order counts as no band on that side) and its
 * age in years. */
void price_band_of(double point, double low, double high, double age_years, struct price_band *b);

/* The band of a candidate's quote (its usd_per_gpu_hour, low, high and
 * age_years); none without a known price. */
void price_band_of_quote(const struct price_quote *q, struct price_band *b);

/* The size of a quote's id (price_band_quote_id). */
#define PRICE_BAND_ID_MAX (CAT_NAME_MAX + 2 * CAT_TEXT_MAX + 64)

/* Which price row a quote is, as text two quotes share exactly when their
 * prices are one draw (provider, basis, observed date and price): into buf
 * of PRICE_BAND_ID_MAX bytes. */
void price_band_quote_id(const struct price_quote *q, char *buf, size_t size);

/* True when the band spreads the price (either sigma above zero). */
bool price_band_spread(const struct price_band *b);

/* The factor F at probability p in (0, 1): exp(sigma x z_p), sigma_low
 * below the median and sigma_high above. */
double price_band_factor(const struct price_band *b, double p);

/*
 * The 50th and 90th percentiles of cost x F over the n costs (one per
 * trial, any order) and the K factors at (k - 0.5) / K: the n x K
 * products sorted, quantiles as GSL's (linear between order statistics),
 * equal neighbours giving their value exactly. With one cost the P50 is
 * that cost exactly. n >= 1; the costs are not changed.
 */
void price_band_cost_quantiles(const double *usd, size_t n, const struct price_band *b, double *p50,
			       double *p90);

/*
 * The probability that a cost of b_usd x F_b is below a_usd x F_a: F_a and
 * F_b independent (two price rows), or one draw (shared: the same row,
 * when b_usd < a_usd decides it). Counted over a grid of 999 x 999 fixed
 * quantiles of each factor; its error against the exact integral is below
 * 0.002 for lognormal factors (test_price_band).
 */
double price_band_swap_probability(double a_usd, const struct price_band *a, double b_usd,
				   const struct price_band *b, bool shared);

/* What the catalog's price histories show: the pairs (a row and the next
 * newer row of the same provider, offering, GPU, type, term and region,
 * both dated, at different dates), the median |ln(new / old)| /
 * sqrt(years) over 0.6745 (sigma), and the least-squares slope of
 * ln |ln(new / old)| on ln(years) over the pairs whose price moved (0.5
 * for a random walk, 1 for a steady drift). */
struct price_band_history {
	size_t pairs, moved;
	double sigma_per_sqrt_year;
	double loglog_slope;
};

/* Fill h from the catalog's prices (zeros without pairs). */
void price_band_history(const catalog *c, struct price_band_history *h);

#endif
