/* Random streams: reproducible, distinct and independent. */
#include "testutil.h"

#include <gsl/gsl_randist.h>

#include "sim/rng.h"

static void test_splitmix64_reference(void **state)
{
	(void)state;
	/* First outputs of splitmix64 from state 0 (Vigna's reference code). */
	uint64_t s = 0;
	assert_int_equal(rng_splitmix64(&s), UINT64_C(0xe220a8397b1dcdaf));
	assert_int_equal(rng_splitmix64(&s), UINT64_C(0x6e789e6aa1b965f4));
	assert_int_equal(rng_splitmix64(&s), UINT64_C(0x06c45d188009454f));
}

static void test_reproducible(void **state)
{
	(void)state;
	gsl_rng *a = rng_stream_new(42, 7, RNG_FAILURES);
	gsl_rng *b = rng_stream_new(42, 7, RNG_FAILURES);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(gsl_rng_get(a), gsl_rng_get(b));
	gsl_rng_free(a);
	gsl_rng_free(b);
}

static void test_streams_differ(void **state)
{
	(void)state;
	/* Changing any of seed, row or purpose changes the seed word. */
	uint64_t base = rng_stream_seed(42, 7, RNG_FAILURES);
	assert_true(base != rng_stream_seed(43, 7, RNG_FAILURES));
	assert_true(base != rng_stream_seed(42, 8, RNG_FAILURES));
	assert_true(base != rng_stream_seed(42, 7, RNG_ARRIVALS));
	/* And swapping row and purpose does not alias. */
	assert_true(rng_stream_seed(1, 2, 3) != rng_stream_seed(1, 3, 2));
}

/* Pearson correlation of paired uniforms from two streams is ~N(0, 1/n). */
static void test_streams_independent(void **state)
{
	(void)state;
	enum { N = 100000 };
	const unsigned purposes[] = { RNG_FAILURES, RNG_ARRIVALS, RNG_LENGTHS, RNG_JITTER };
	for (uint64_t row = 0; row < 4; row++) {
		for (int p = 0; p < 3; p++) {
			gsl_rng *a = rng_stream_new(2026, row, purposes[p]);
			gsl_rng *b = rng_stream_new(2026, row, purposes[p + 1]);
			double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
			for (int i = 0; i < N; i++) {
				double x = gsl_rng_uniform(a), y = gsl_rng_uniform(b);
				sa += x; sb += y; saa += x * x; sbb += y * y; sab += x * y;
			}
			double cov = sab / N - (sa / N) * (sb / N);
			double r = cov / sqrt((saa / N - (sa / N) * (sa / N)) * (sbb / N - (sb / N) * (sb / N)));
			/* 5 standard deviations: a false alarm is a 1-in-3-million event. */
			assert_true(fabs(r) < 5.0 / sqrt((double)N));
			/* Each stream is uniform: mean 1/2 with sd sqrt(1/12/N). */
			assert_true(fabs(sa / N - 0.5) < 5.0 * sqrt(1.0 / 12 / N));
			gsl_rng_free(a);
			gsl_rng_free(b);
		}
	}
}

static void test_exponential_mean(void **state)
{
	(void)state;
	enum { N = 200000 };
	gsl_rng *r = rng_stream_new(1, 0, RNG_TEST);
	double sum = 0;
	for (int i = 0; i < N; i++)
		sum += gsl_ran_exponential(r, 3.0);
	/* mean 3, sd of the mean 3/sqrt(N) */
	assert_true(fabs(sum / N - 3.0) < 5.0 * 3.0 / sqrt((double)N));
	gsl_rng_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_splitmix64_reference),
		cmocka_unit_test(test_reproducible),
		cmocka_unit_test(test_streams_differ),
		cmocka_unit_test(test_streams_independent),
		cmocka_unit_test(test_exponential_mean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
