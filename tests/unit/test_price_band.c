/* The price band (cost/price_band.h) in closed form: a band's low and high
 * are the price's 10th and 90th percentiles (ln F a split normal, median
 * 0); an age of t years adds price_band_age_sigma^2 x t to each side's
 * variance; a one-trial run's P50 is its cost exactly; the probability
 * that b x F_b < a x F_a for independent lognormal factors is
 * Phi(ln(a / b) / sqrt(sa^2 + sb^2)), worked by hand for a = 100, b = 105,
 * sa = 0.1, sb = 0.15: Phi(-0.27063) = 0.39333. The age constant is
 * recomputed from the built-in catalog's price histories. */
#include "testutil.h"

#include <string.h>

#include "models/cost/price_band.h"
#include "util/error.h"

static void test_band_quantiles(void **state)
{
	(void)state;
	struct price_band b;
	price_band_of(2.0, 1.6, 2.5, 0, &b);
	assert_close(price_band_factor(&b, 0.1), 0.8, 1e-12);
	assert_close(price_band_factor(&b, 0.9), 1.25, 1e-12);
	assert_true(price_band_factor(&b, 0.5) == 1.0);
	assert_close(b.sigma_low, log(1.25) / PRICE_BAND_Z90, 1e-12);
	assert_close(b.sigma_high, log(1.25) / PRICE_BAND_Z90, 1e-12);
	/* one side only: a band that reaches down but not up */
	price_band_of(1.0, 0.5, 1.0, 0, &b);
	assert_close(price_band_factor(&b, 0.1), 0.5, 1e-12);
	assert_true(price_band_factor(&b, 0.9) == 1.0);
}

static void test_no_spread(void **state)
{
	(void)state;
	struct price_band b;
	price_band_of(3.0, 3.0, 3.0, 0, &b);
	assert_false(price_band_spread(&b));
	assert_true(price_band_factor(&b, 0.1) == 1.0 && price_band_factor(&b, 0.9) == 1.0);
	struct price_quote q;
	memset(&q, 0, sizeof q);  /* unknown price: no band */
	price_band_of_quote(&q, &b);
	assert_false(price_band_spread(&b));
}

/* Four years without a band: sigma = 2 x the age constant on each side. */
static void test_age_spread(void **state)
{
	(void)state;
	struct price_band b;
	price_band_of(1.0, 1.0, 1.0, 4.0, &b);
	assert_close(b.sigma_low, 2 * price_band_age_sigma, 1e-12);
	assert_close(price_band_factor(&b, 0.9), exp(PRICE_BAND_Z90 * 2 * price_band_age_sigma), 1e-9);
	/* band and age add in variance */
	price_band_of(2.0, 1.6, 2.5, 4.0, &b);
	double band = log(1.25) / PRICE_BAND_Z90;
	assert_close(b.sigma_high, sqrt(band * band + 4 * price_band_age_sigma * price_band_age_sigma), 1e-12);
}

static void test_age_years(void **state)
{
	(void)state;
	assert_close(price_band_age_years("2026-09-20", "2026-12-01"), 72 / 365.25, 1e-12);
	/* a month is taken at its 15th: 2025-05-15 to 2026-12-01 is 565 days */
	assert_close(price_band_age_years("2025-05", "2026-12-01"), 565 / 365.25, 1e-12);
	assert_true(price_band_age_years("", "2026-12-01") == 0.0);
	assert_true(price_band_age_years("2027-01-01", "2026-12-01") == 0.0);
	assert_true(price_band_age_years("2026-13-01", "2026-12-01") == 0.0);
	assert_true(price_band_age_years("20x6-01-01", "2026-12-01") == 0.0);
	assert_true(price_band_age_years("2026-01-01", "") == 0.0);
}

/* One trial: the P50 is the cost itself, whatever the band's shape; the P90
 * is the cost times the factor's 90th percentile on the 99-point grid
 * (within 1% of the continuous one), and grows with the band. */
static void test_one_trial(void **state)
{
	(void)state;
	struct price_band b;
	double usd = 988078.123, p50, p90, p90_wide;
	price_band_of(2.0, 1.2, 2.3, 0.5, &b);
	price_band_cost_quantiles(&usd, 1, &b, &p50, &p90);
	assert_true(p50 == usd);
	assert_close(p90, usd * price_band_factor(&b, 0.9), 0.01);
	price_band_of(2.0, 1.2, 2.8, 0.5, &b);
	price_band_cost_quantiles(&usd, 1, &b, &p50, &p90_wide);
	assert_true(p50 == usd);
	assert_true(p90_wide > p90 * 1.05);
	/* equal trials give the same P50 exactly */
	double same[5] = { usd, usd, usd, usd, usd };
	price_band_cost_quantiles(same, 5, &b, &p50, &p90);
	assert_true(p50 == usd);
	assert_close(p90, usd * price_band_factor(&b, 0.9), 0.01);
	/* no band: each trial 99 times (run.c keeps its own quantiles then) */
	double runs[3] = { 3, 1, 2 };
	price_band_of(1, 1, 1, 0, &b);
	price_band_cost_quantiles(runs, 3, &b, &p50, &p90);
	assert_close(p50, 2, 1e-15);
	assert_close(p90, 3, 1e-15);
}

static double phi(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

static void test_swap_closed_form(void **state)
{
	(void)state;
	struct price_band a = { 0.1, 0.1 }, b = { 0.15, 0.15 };
	double p = price_band_swap_probability(100, &a, 105, &b, false);
	assert_close_abs(p, 0.39333, 0.002);
	assert_close_abs(p, phi(log(100.0 / 105) / sqrt(0.01 + 0.0225)), 0.002);
	/* equal costs and equal bands: a coin toss */
	assert_close_abs(price_band_swap_probability(100, &a, 100, &a, false), 0.5, 0.002);
	/* one price row: one draw, the order never changes */
	assert_true(price_band_swap_probability(100, &a, 105, &a, true) == 0.0);
	assert_true(price_band_swap_probability(105, &a, 100, &a, true) == 1.0);
	/* no band on either: the points decide */
	struct price_band none = { 0, 0 };
	assert_true(price_band_swap_probability(100, &none, 105, &none, false) == 0.0);
	/* a band on one side only: P(105 x F_b < 100) = Phi(ln(100/105) / 0.15) */
	assert_close_abs(price_band_swap_probability(100, &none, 105, &b, false),
			 phi(log(100.0 / 105) / 0.15), 0.002);
}

/* The age constant is what the built-in catalog's histories give: 21 pairs
 * (12 that moved), median |ln(new/old)| / sqrt(years) 0.17431 / 0.67449 =
 * 0.25843, rounded to 4 digits; the log-log slope of the moves on their
 * gaps, 0.539, is that of a random walk (0.5), not of a drift (1). */
static void test_age_constant_from_catalog(void **state)
{
	(void)state;
	struct cs_error err;
	catalog *c = catalog_new_builtin(&err);
	assert_non_null(c);
	struct price_band_history h;
	price_band_history(c, &h);
	assert_int_equal(h.pairs, 21);
	assert_int_equal(h.moved, 12);
	assert_close_abs(h.sigma_per_sqrt_year, 0.25843, 5e-6);
	assert_close_abs(price_band_age_sigma, h.sigma_per_sqrt_year, 5e-5);
	assert_close_abs(h.loglog_slope, 0.5393, 5e-4);
	catalog_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_band_quantiles),
		cmocka_unit_test(test_no_spread),
		cmocka_unit_test(test_age_spread),
		cmocka_unit_test(test_age_years),
		cmocka_unit_test(test_one_trial),
		cmocka_unit_test(test_swap_closed_form),
		cmocka_unit_test(test_age_constant_from_catalog),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
