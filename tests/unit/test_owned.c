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

/* Colocation: node kW x USD per kW-month / 730.5 h, a fixed cost like the
 * purchase: 14.3 kW (DGX B200) x $100 = $1,430 a month = $1.957563 an hour. */
static void test_colocation(void **state)
{
	(void)state;
	struct owned_terms t = { .node_power_w = 14300, .pue = 1, .usd_per_kwh = 0, .purchase_usd = 0,
				 .life_years = 4, .colo_usd_per_kw_month = 100 };
	assert_close(owned_colo_usd_per_node_hour(&t), 1430.0 / 730.5, 1e-12);
	assert_close(owned_usd_per_gpu_hour(&t, 8), 1430.0 / 730.5 / 8, 1e-12);
	/* used half the year, an hour used carries twice the fixed cost */
	t.utilization = 0.5;
	assert_close(owned_usd_per_gpu_hour(&t, 8), 2 * 1430.0 / 730.5 / 8, 1e-12);
}

/* Break-even in closed form, worked by hand for a DGX B200 at its $485,000
 * list price over 4 years, 14.3 kW at PUE 1.56 and $0.0892/kWh, against
 * renting at $5.50 per GPU-hour:
 *   fixed  = 485,000 / (4 x 8766) / 8      = $1.728981 per GPU-hour
 *   energy = 14.3 x 1.56 x 0.0892 / 8      = $0.248734 per GPU-hour
 *   u*     = 1.728981 / (5.50 - 0.248734)  = 0.329250
 * and at u* an hour used costs exactly the rent: energy + fixed / u* = R. */
static void test_break_even(void **state)
{
	(void)state;
	struct owned_terms t = { .node_power_w = 14300, .pue = 1.56, .usd_per_kwh = 0.0892,
				 .purchase_usd = 485000, .life_years = 4 };
	double fixed = owned_amortized_usd_per_node_hour(&t) / 8, energy = owned_energy_usd_per_node_hour(&t) / 8;
	assert_close(fixed, 485000.0 / 35064.0 / 8, 1e-12);
	assert_close(fixed, 1.728981, 1e-6);
	assert_close(energy, 0.248734, 1e-6);
	double u = owned_break_even_utilization(fixed, energy, 5.50);
	assert_close(u, fixed / (5.50 - energy), 1e-12);
	assert_close(u, 0.329250, 1e-5);
	t.utilization = u;
	assert_close(owned_usd_per_gpu_hour(&t, 8), 5.50, 1e-9);
	/* a year's owned cost equals the year's rent for the same hours used */
	assert_close((fixed + u * energy) * 8766, u * 5.50 * 8766, 1e-6);
	/* rent at or below the energy: owning never breaks even */
	assert_true(owned_break_even_utilization(fixed, energy, energy) < 0);
	assert_true(owned_break_even_utilization(fixed, energy, 0.1) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_colocation),
		cmocka_unit_test(test_break_even),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
