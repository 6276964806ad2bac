/* The expected maximum of N standard normal draws against its tabulated
 * values, and the straggler wait built on it. */
#include "testutil.h"

#include <gsl/gsl_math.h>

#include "models/train/straggler.h"

/* E[max of n]: 1/sqrt(pi) for 2 (closed form), and the values tabulated by
 * Harter (1961, Biometrika 48: 151-165): 3 -> 0.846284 (= 3/(2 sqrt(pi))),
 * 10 -> 1.538753, 100 -> 2.507594, 1000 -> 3.241436. */
static void test_expected_max(void **state)
{
	(void)state;
	assert_close_abs(straggler_expected_max(1), 0.0, 0);
	assert_close_abs(straggler_expected_max(2), 1 / sqrt(M_PI), 1e-12);
	assert_close_abs(straggler_expected_max(2), 0.5642, 1e-3);
	assert_close_abs(straggler_expected_max(3), 1.5 / sqrt(M_PI), 1e-7);
	assert_close_abs(straggler_expected_max(10), 1.5388, 1e-3);
	assert_close_abs(straggler_expected_max(10), 1.538753, 1e-5);
	assert_close_abs(straggler_expected_max(100), 2.507594, 1e-5);
	assert_close_abs(straggler_expected_max(1000), 3.241436, 1e-5);
}

/* Above the integrated range the asymptotic expansion takes over: it
 * meets the integral at the switch within 0.3%, grows like sqrt(2 ln n),
 * and the expected maximum never falls as n grows. */
static void test_asymptote(void **state)
{
	(void)state;
	double at = straggler_expected_max(STRAGGLER_EXACT_MAX_N);
	double past = straggler_expected_max(STRAGGLER_EXACT_MAX_N + 1);
	assert_close(past, at, 3e-3);
	double big = straggler_expected_max(4000000000L);
	assert_true(big > past);
	assert_true(big < sqrt(2 * log(4e9)));
	assert_true(big > 0.9 * sqrt(2 * log(4e9)));
	double prev = 0;
	for (long n = 1; n <= 4096; n *= 2) {
		double e = straggler_expected_max(n);
		assert_true(e >= prev);
		prev = e;
	}
}

/* The wait is sigma x E[max] x the compute; nothing for one GPU. */
static void test_wait(void **state)
{
	(void)state;
	assert_close(straggler_wait_s(2.0, 10, 0.02), 0.02 * 1.538753 * 2.0, 1e-5);
	assert_close_abs(straggler_wait_s(2.0, 1, 0.02), 0.0, 0);
	assert_close_abs(straggler_wait_s(2.0, 10, 0.0), 0.0, 0);
}

/* The memo gives each n its own value: 48 sizes (more than the memo's
 * slots, so some share one) asked in one order and again in the reverse
 * order come back as the same doubles, and n = 3 keeps its published value
 * (3 / (2 sqrt(pi)), David and Nagaraja) after the others evicted it. */
static void test_memo_keeps_values(void **state)
{
	(void)state;
	double first[48];
	for (int i = 0; i < 48; i++)
		first[i] = straggler_expected_max(3 + 977L * i);
	for (int i = 47; i >= 0; i--)
		assert_true(straggler_expected_max(3 + 977L * i) == first[i]);
	for (int i = 1; i < 48; i++)
		assert_true(first[i] > first[i - 1]);
	assert_close(straggler_expected_max(3), 3 / (2 * sqrt(M_PI)), 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expected_max),
		cmocka_unit_test(test_asymptote),
		cmocka_unit_test(test_wait),
		cmocka_unit_test(test_memo_keeps_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
