#include "price_band.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "util/text.h"
#include "util/xalloc.h"

/* price_band_history over the built-in catalog of 2026-12 (as_of
 * 2026-12-01): 21 pairs, median |ln(new/old)| / sqrt(years) 0.17431, over
 * 0.67449 = 0.25843; docs/explanation/catalog.md, "Price uncertainty". */
const double price_band_age_sigma = 0.2584;

/* The median of |Z| for a standard normal Z: Phi^-1(0.75). */
#define MEDIAN_ABS_Z 0.6744897501960817

/* Quantiles of each factor on the swap probability's grid. */
#define SWAP_GRID 999

/* Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's
 * days_from_civil, http://howardhinnant.github.io/date_algorithms.html). */
static long days_from_civil(long y, long m, long d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int digits(const char *s, size_t n)
{
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

bool price_band_date_days(const char *s, double *days)
{
	size_t n = strlen(s);
	if ((n != 7 && n != 10) || s[4] != '-' || (n == 10 && s[7] != '-'))
		return false;
	int y = digits(s, 4), m = digits(s + 5, 2), d = n == 10 ? digits(s + 8, 2) : 15;
	if (y < 0 || m < 1 || m > 12 || d < 1 || d > 31)
		return false;
	*days = (double)days_from_civil(y, m, d);
	return true;
}

double price_band_age_years(const char *observed, const char *as_of)
{
	double a, b;
	if (!price_band_date_days(observed, &a) || !price_band_date_days(as_of, &b) || b <= a)
		return 0.0;
	return (b - a) / 365.25;
}

void price_band_of(double point, double low, double high, double age_years, struct price_band *b)
{
	double lo = low > 0 && low < point ? log(point / low) / PRICE_BAND_Z90 : 0.0;
	double hi = high > point ? log(high / point) / PRICE_BAND_Z90 : 0.0;
	double age = age_years > 0 ? price_band_age_sigma * price_band_age_sigma * age_years : 0.0;
	b->sigma_low = sqrt(lo * lo + age);
	b->sigma_high = sqrt(hi * hi + age);
}

void price_band_quote_id(const struct price_quote *q, char *buf, size_t size)
{
	text_setf(buf, size, "%s|%s|%s|%.17g", q->provider, q->basis, q->observed, q->usd_per_gpu_hour);
}

void price_band_of_quote(const struct price_quote *q, struct price_band *b)
{
	if (!q->known || !(q->usd_per_gpu_hour > 0)) {
		b->sigma_low = b->sigma_high = 0.0;
		return;
	}
	price_band_of(q->usd_per_gpu_hour, q->usd_per_gpu_hour_low, q->usd_per_gpu_hour_high, q->age_years, b);
}

bool price_band_spread(const struct price_band *b)
{
	return b->sigma_low > 0 || b->sigma_high > 0;
}

double price_band_factor(const struct price_band *b, double p)
{
	assert(p > 0 && p < 1);
	if (p == 0.5)
		return 1.0;
	double z = gsl_cdf_ugaussian_Pinv(p);
	return exp(z * (z < 0 ? b->sigma_low : b->sigma_high));
}

/* GSL's quantile of sorted data (gsl_stats_quantile_from_sorted_data),
 * written so that equal neighbours give their value exactly. */
static double sorted_quantile(const double *x, size_t n, double f)
{
	double index = f * (double)(n - 1);
	size_t lhs = (size_t)index;
	double delta = index - (double)lhs;
	if (lhs + 1 >= n || delta == 0.0 || x[lhs] == x[lhs + 1])
		return x[lhs];
	return x[lhs] + delta * (x[lhs + 1] - x[lhs]);
}

void price_band_cost_quantiles(const double *usd, size_t n, const struct price_band *b, double *p50,
			       double *p90)
{
	assert(n >= 1);
	double f[PRICE_BAND_K];
	for (size_t k = 0; k < PRICE_BAND_K; k++)
		f[k] = price_band_factor(b, ((double)k + 0.5) / PRICE_BAND_K);
	double *x = xcalloc(n * PRICE_BAND_K, sizeof *x);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < PRICE_BAND_K; k++)
			x[i * PRICE_BAND_K + k] = usd[i] * f[k];
	gsl_sort(x, 1, n * PRICE_BAND_K);
	*p50 = sorted_quantile(x, n * PRICE_BAND_K, 0.5);
	*p90 = sorted_quantile(x, n * PRICE_BAND_K, 0.9);
	free(x);
}

double price_band_swap_probability(double a_usd, const struct price_band *a, double b_usd,
				   const struct price_band *b, bool shared)
{
	if (shared || (!price_band_spread(a) && !price_band_spread(b)))
		return b_usd < a_usd ? 1.0 : 0.0;
	double *xa = xcalloc(2 * SWAP_GRID, sizeof *xa), *xb = xa + SWAP_GRID;
	for (size_t k = 0; k < SWAP_GRID; k++) {
		double p = ((double)k + 0.5) / SWAP_GRID;
		xa[k] = a_usd * price_band_factor(a, p);
		xb[k] = b_usd * price_band_factor(b, p);
	}
	/* both ascending: for each of a's costs, b's below it, by one walk */
	size_t below = 0, j = 0;
	for (size_t i = 0; i < SWAP_GRID; i++) {
		while (j < SWAP_GRID && xb[j] < xa[i])
			j++;
		below += j;
	}
	free(xa);
	return (double)below / ((double)SWAP_GRID * SWAP_GRID);
}

/* Whether two rows are one price's history: the same provider, offering,
 * GPU, type, term and region. */
static bool same_offer(const struct price_spec *a, const struct price_spec *b)
{
	return text_equal_nocase(a->provider, b->provider) && text_equal_nocase(a->offering, b->offering) &&
	       text_equal_nocase(a->gpu, b->gpu) && a->type == b->type && text_equal_nocase(a->term, b->term) &&
	       text_equal_nocase(a->region, b->region);
}

void price_band_history(const catalog *c, struct price_band_history *h)
{
	size_t n = catalog_price_count(c);
	double *r = xcalloc(2 * n + 1, sizeof *r), *ly = r + n;
	double *lr = xcalloc(n + 1, sizeof *lr);
	memset(h, 0, sizeof *h);
	for (size_t i = 0; i < n; i++) {
		const struct price_spec *p = catalog_price_at(c, i);
		double dp, dq, best = 0;
		const struct price_spec *next = NULL;
		if (!price_band_date_days(p->observed, &dp))
			continue;
		/* the next newer row of the same offer */
		for (size_t j = 0; j < n; j++) {
			const struct price_spec *q = catalog_price_at(c, j);
			if (j == i || !same_offer(p, q) || !price_band_date_days(q->observed, &dq) || dq <= dp)
				continue;
			if (next == NULL || dq < best) {
				next = q;
				best = dq;
			}
		}
		if (next == NULL)
			continue;
		double years = (best - dp) / 365.25, move = fabs(log(next->usd_per_gpu_hour / p->usd_per_gpu_hour));
		r[h->pairs++] = move / sqrt(years);
		if (move > 0) {
			ly[h->moved] = log(years);
			lr[h->moved++] = log(move);
		}
	}
	if (h->pairs > 0) {
		gsl_sort(r, 1, h->pairs);
		h->sigma_per_sqrt_year = gsl_stats_median_from_sorted_data(r, 1, h->pairs) / MEDIAN_ABS_Z;
	}
	if (h->moved > 1) {
		double mx = gsl_stats_mean(ly, 1, h->moved), my = gsl_stats_mean(lr, 1, h->moved), sxy = 0, sxx = 0;
		for (size_t k = 0; k < h->moved; k++) {
			sxy += (ly[k] - mx) * (lr[k] - my);
			sxx += (ly[k] - mx) * (ly[k] - mx);
		}
		h->loglog_slope = sxx > 0 ? sxy / sxx : 0.0;
	}
	free(lr);
	free(r);
}
