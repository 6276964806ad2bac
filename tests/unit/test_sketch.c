/* The quantile sketch (sim/sketch.h) and the bounded sample on it
 * (sim/quantile.h) against exact percentiles (stats_sample, R type 7):
 * every percentile of lognormal, heavy-tailed (Pareto), bimodal, constant,
 * zero-heavy and signed data within the stated relative error SKETCH_ALPHA;
 * the merge of two sketches is the sketch of both, bucket for bucket; a
 * bounded sample is exact (to the bit) up to its threshold and within
 * SKETCH_ALPHA past it. */
#include "testutil.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <string.h>

#include "sim/quantile.h"
#include "sim/sketch.h"
#include "sim/stats.h"

static const double pcts[] = { 0, 0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100 };
#define N_PCTS (sizeof pcts / sizeof pcts[0])

/* |est - exact| <= alpha |exact|, with room for the last bits of the
 * logarithm at a bucket's edge. */
static void assert_within_alpha(double est, double exact, double p, const char *what)
{
	double bound = SKETCH_ALPHA * fabs(exact) * (1 + 1e-9) + 1e-300;
	if (!(fabs(est - exact) <= bound)) {
		print_error("%s: p%g: sketch %.12g, exact %.12g: relative error %.3g over alpha %g\n", what, p, est,
			    exact, fabs(est - exact) / fabs(exact), SKETCH_ALPHA);
		fail();
	}
}

enum dist { LOGNORMAL, PARETO, BIMODAL, CONSTANT, ZEROS, SIGNED, N_DIST };
static const char *const dist_names[] = { "lognormal", "pareto", "bimodal", "constant", "with zeros", "signed" };

static double draw(gsl_rng *r, enum dist d)
{
	switch (d) {
	case LOGNORMAL:
		return gsl_ran_lognormal(r, 3, 1.5);        /* a latency in ms: median 20, a long tail */
	case PARETO:
		return gsl_ran_pareto(r, 1.1, 0.5);         /* heavy tail: infinite variance */
	case BIMODAL:
		return gsl_rng_uniform(r) < 0.7 ? 20 + gsl_ran_gaussian(r, 1) : 3000 + gsl_ran_gaussian(r, 100);
	case CONSTANT:
		return 42.5;
	case ZEROS:
		return gsl_rng_uniform(r) < 0.3 ? 0 : gsl_ran_exponential(r, 5e6);  /* gaps in ns */
	case SIGNED:
		return gsl_rng_uniform(r) < 0.5 ? -gsl_ran_lognormal(r, 0, 2) : gsl_ran_lognormal(r, 1, 1);
	default:
		return 0;
	}
}

/* For values of one sign, every percentile within alpha of the exact
 * one; signed data (an interpolation may straddle 0) at each order
 * statistic instead: p such that (n - 1) p / 100 is whole. */
static void test_distributions(void **state)
{
	(void)state;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 12345);
	for (int d = 0; d < N_DIST; d++) {
		const int n = 100001;
		struct stats_sample x;
		struct sketch sk;
		long double sum = 0;
		stats_sample_init(&x);
		sketch_init(&sk, SKETCH_ALPHA);
		for (int i = 0; i < n; i++) {
			double v = draw(r, (enum dist)d);
			stats_sample_add(&x, v);
			sketch_add(&sk, v);
			sum += v;
		}
		assert_int_equal(sk.count, n);
		for (size_t i = 0; i < N_PCTS; i++) {
			double p = pcts[i];
			if (d == SIGNED)
				p = floor(p * (n - 1) / 100) * 100 / (n - 1);
			assert_within_alpha(sketch_percentile(&sk, p), stats_sample_percentile(&x, p), p, dist_names[d]);
		}
		assert_close(sketch_mean(&sk), (double)(sum / n), 1e-12);
		/* the ends are kept exactly */
		assert_true(sketch_percentile(&sk, 0) == stats_sample_percentile(&x, 0));
		assert_true(sketch_percentile(&sk, 100) == stats_sample_percentile(&x, 100));
		stats_sample_release(&x);
		sketch_release(&sk);
	}
	gsl_rng_free(r);
}

/* Small samples too: every percentile of n = 1 .. 40 values. */
static void test_small(void **state)
{
	(void)state;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 7);
	for (int n = 1; n <= 40; n++) {
		struct stats_sample x;
		struct sketch sk;
		stats_sample_init(&x);
		sketch_init(&sk, SKETCH_ALPHA);
		for (int i = 0; i < n; i++) {
			double v = draw(r, LOGNORMAL);
			stats_sample_add(&x, v);
			sketch_add(&sk, v);
		}
		for (double p = 0; p <= 100; p += 2.5)
			assert_within_alpha(sketch_percentile(&sk, p), stats_sample_percentile(&x, p), p, "small");
		stats_sample_release(&x);
		sketch_release(&sk);
	}
	struct sketch empty;
	sketch_init(&empty, SKETCH_ALPHA);
	assert_true(sketch_percentile(&empty, 50) == 0 && sketch_mean(&empty) == 0);
	gsl_rng_free(r);
}

/* Merging the sketches of two halves gives the sketch of the whole:
 * the same counts, ends and percentiles, to the bit. */
static void test_merge(void **state)
{
	(void)state;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 99);
	struct sketch a, b, all;
	sketch_init(&a, SKETCH_ALPHA);
	sketch_init(&b, SKETCH_ALPHA);
	sketch_init(&all, SKETCH_ALPHA);
	for (int i = 0; i < 50000; i++) {
		/* the halves cover different ranges, so the merge grows a's buckets both ways */
		double v = i % 2 ? draw(r, SIGNED) * 1e3 : draw(r, ZEROS) * 1e-9;
		sketch_add(i < 20000 ? &a : &b, v);
		sketch_add(&all, v);
	}
	sketch_merge(&a, &b);
	assert_int_equal(a.count, all.count);
	assert_int_equal(a.zeros, all.zeros);
	assert_true(a.min == all.min && a.max == all.max);
	for (double p = 0; p <= 100; p += 0.5)
		assert_true(sketch_percentile(&a, p) == sketch_percentile(&all, p));
	assert_close(sketch_mean(&a), sketch_mean(&all), 1e-12);
	sketch_release(&a);
	sketch_release(&b);
	sketch_release(&all);
	gsl_rng_free(r);
}

/* A bounded sample is stats_sample to the bit up to exact_max values;
 * one more and it answers from the sketch, within alpha. */
static void test_quantile_threshold(void **state)
{
	(void)state;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 3);
	struct quantile q;
	struct stats_sample x;
	quantile_init(&q, 5000);
	stats_sample_init(&x);
	for (int i = 0; i < 5000; i++) {
		double v = draw(r, PARETO);
		quantile_add(&q, v);
		stats_sample_add(&x, v);
	}
	assert_false(q.sketched);
	for (size_t i = 0; i < N_PCTS; i++)
		assert_true(quantile_percentile(&q, pcts[i]) == stats_sample_percentile(&x, pcts[i]));
	assert_true(quantile_mean(&q) == stats_sample_mean(&x));
	for (int i = 0; i < 20000; i++) {
		double v = draw(r, PARETO);
		quantile_add(&q, v);
		stats_sample_add(&x, v);
	}
	assert_true(q.sketched);
	assert_int_equal(quantile_count(&q), 25000);
	for (size_t i = 0; i < N_PCTS; i++)
		assert_within_alpha(quantile_percentile(&q, pcts[i]), stats_sample_percentile(&x, pcts[i]), pcts[i],
				    "bounded");
	assert_close(quantile_mean(&q), stats_sample_mean(&x), 1e-12);
	quantile_release(&q);
	stats_sample_release(&x);
	gsl_rng_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distributions),
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_quantile_threshold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
