/* The owned price basis, worked by hand: a DGX H100 (10.2 kW, power_tco.csv
 * S57) in a PUE 1.3 data centre at $0.08/kWh, bought for $270,000 (S58's
 * estimate) and amortized over 4 years:
 *   energy     10.2 x 1.3 x 0.08            = $1.0608 per node-hour
 *   amortized  270,000 / (4 x 8766 h)        = $7.700205 per node-hour
 *   per GPU    (1.0608 + 7.700205) / 8       = $1.095126 per GPU-hour */
#include "testutil.h"

#include "models/cost/owned.h"

static void test_hand_worked(void **state)
{
	(void)state;
	struct owned_terms t = { .node_power_w = 10200, .pue = 1.3, .usd_per_kwh = 0.08,
				 .purchase_usd = 270000, .life_years = 4 };
	assert_close(owned_energy_usd_per_node_hour(&t), 1.0608, 1e-12);
	assert_close(owned_amortized_usd_per_node_hour(&t), 270000.0 / 35064.0, 1e-12);
	assert_close(owned_usd_per_gpu_hour(&t, 8), (1.0608 + 270000.0 / 35064.0) / 8, 1e-12);
	assert_close(owned_usd_per_gpu_hour(&t, 8), 1.095126, 1e-6);
}

/* Free electricity leaves only the purchase; a purchase already paid off leaves only energy. */
static void test_parts(void **state)
{
	(void)state;
	struct owned_terms t = { .node_power_w = 10200, .pue = 1.5, .usd_per_kwh = 0,
				 .purchase_usd = 87660, .life_years = 10 };
	assert_close(owned_usd_per_gpu_hour(&t, 1), 1.0, 1e-12);
	t.usd_per_kwh = 0.1;
	t.purchase_usd = 0;
	assert_close(owned_usd_per_gpu_hour(&t, 2), 10.2 * 1.5 * 0.1 / 2, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_parts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
