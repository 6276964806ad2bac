/* Statistics: time-weighted levels and percentiles against known values. */
#include "testutil.h"

#include "sim/stats.h"
#include "sim/time.h"

static void test_level_mean(void **state)
{
	(void)state;
	struct stats_level l;
	stats_level_init(&l, 0, 1.0);                      /* busy */
	stats_level_set(&l, 2 * SIM_NS_PER_S, 0.0);        /* idle after 2 s */
	assert_close(stats_level_mean(&l, 4 * SIM_NS_PER_S), 0.5, 1e-12);
	stats_level_add(&l, 4 * SIM_NS_PER_S, 3.0);         /* level 3 for 1 s */
	assert_close(stats_level_integral(&l, 5 * SIM_NS_PER_S), 2.0 + 3.0, 1e-12);
	assert_close(stats_level_mean(&l, 5 * SIM_NS_PER_S), 1.0, 1e-12);
}

static void test_level_zero_span(void **state)
{
	(void)state;
	struct stats_level l;
	stats_level_init(&l, 100, 0.25);
	assert_close(stats_level_mean(&l, 100), 0.25, 0);
}

static void test_percentiles_known(void **state)
{
	(void)state;
	struct stats_sample s;
	stats_sample_init(&s);
	/* 100..1 in reverse: percentiles must not depend on insertion order. */
	for (int i = 100; i >= 1; i--)
		stats_sample_add(&s, i);
	/* Linear interpolation between order statistics (R type 7):
	 * Q(p) = x[floor(h)] + (h - floor(h)) (x[floor(h)+1] - x[floor(h)]), h = (n-1)p. */
	assert_close(stats_sample_percentile(&s, 50), 50.5, 1e-12);
	assert_close(stats_sample_percentile(&s, 90), 90.1, 1e-12);
	assert_close(stats_sample_percentile(&s, 99), 99.01, 1e-12);
	assert_close(stats_sample_percentile(&s, 0), 1, 0);
	assert_close(stats_sample_percentile(&s, 100), 100, 0);
	assert_close(stats_sample_mean(&s), 50.5, 1e-12);
	stats_sample_add(&s, 1000);  /* adding after a query re-sorts */
	assert_close(stats_sample_percentile(&s, 100), 1000, 0);
	stats_sample_release(&s);
}

static void test_percentile_empty_and_single(void **state)
{
	(void)state;
	struct stats_sample s;
	stats_sample_init(&s);
	assert_close(stats_sample_percentile(&s, 50), 0, 0);
	stats_sample_add(&s, 7);
	assert_close(stats_sample_percentile(&s, 99), 7, 0);
	stats_sample_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level_mean),
		cmocka_unit_test(test_level_zero_span),
		cmocka_unit_test(test_percentiles_known),
		cmocka_unit_test(test_percentile_empty_and_single),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
