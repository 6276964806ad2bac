/* How a plan cuts the model: virtual stages cover every layer once. */
#include "testutil.h"

#include "models/train/parallel.h"

/* Virtual stages split the layers as evenly as they go: counts differ by
 * at most one, the longer ones first, and cover every layer once, in order. */
static void test_stage_layers_cover(void **state)
{
	(void)state;
	for (int P = 1; P <= 12; P++) {
		int next = 0, prev = 32;
		for (int vs = 0; vs < P; vs++) {
			int first, count;
			parallel_stage_layers(32, P, vs, &first, &count);
			assert_int_equal(first, next);
			assert_true(count == 32 / P || count == 32 / P + 1);
			assert_true(count <= prev);
			prev = count;
			next += count;
		}
		assert_int_equal(next, 32);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stage_layers_cover),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
