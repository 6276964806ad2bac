/* Storage and data dollars in closed form (cost/storage_cost.h):
 *   hold   = bytes / 1e12 x usd_per_tb_month x held_s / (730.5 h x 3600)
 *   egress = bytes / 1e9 x egress_usd_per_gb
 * Worked by hand: 140 GB of checkpoints (Llama 3 8B's 16 bytes x 8.03e9
 * parameters, rounded) x 3 kept on a tier at $65.19/TB-month for 1461 h
 * (two months) = 0.42 TB x 65.19 x 2 = $54.7596; one 140 GB download at
 * $0.09/GB = $12.60. */
#include "testutil.h"

#include <string.h>

#include "models/cost/storage_cost.h"

static void test_hold_closed_form(void **state)
{
	(void)state;
	assert_close(storage_cost_hold_usd(3 * 140e9, 65.19, 1461.0 * 3600), 0.42 * 65.19 * 2, 1e-9);
	assert_close(storage_cost_hold_usd(3 * 140e9, 65.19, 1461.0 * 3600), 54.7596, 1e-9);
	/* one TB for one month at $23 is $23; linear in each factor */
	assert_close(storage_cost_hold_usd(1e12, 23, 730.5 * 3600), 23, 1e-12);
	assert_close(storage_cost_hold_usd(2e12, 23, 730.5 * 3600 / 2), 23, 1e-12);
}

/* Nothing held, no time, or a tier priced in the instance (0) cost nothing. */
static void test_zeros(void **state)
{
	(void)state;
	assert_close(storage_cost_hold_usd(0, 23, 3600), 0, 0);
	assert_close(storage_cost_hold_usd(1e12, 23, 0), 0, 0);
	assert_close(storage_cost_hold_usd(1e12, 0, 3600), 0, 0);
	assert_close(storage_cost_egress_usd(0, 0.09), 0, 0);
}

static void test_egress_closed_form(void **state)
{
	(void)state;
	assert_close(storage_cost_egress_usd(140e9, 0.09), 12.6, 1e-12);
	assert_close(storage_cost_egress_usd(140e9, 0), 0, 0);
}

/* Managed Lustre bills its provisioned capacity, not the bytes on it:
 * 18 TiB = 18 x 2^40 bytes whatever the footprint; a parallel-fs tier
 * bills the footprint. */
static void test_billed_bytes(void **state)
{
	(void)state;
	struct storage_spec s;
	memset(&s, 0, sizeof s);
	s.kind = STORAGE_MANAGED_LUSTRE;
	s.capacity_tib = 18;
	assert_close(storage_cost_billed_bytes(&s, 1e12), 18 * 1099511627776.0, 0);
	s.kind = STORAGE_PARALLEL_FS;
	s.capacity_tib = 0;
	assert_close(storage_cost_billed_bytes(&s, 1e12), 1e12, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hold_closed_form),
		cmocka_unit_test(test_zeros),
		cmocka_unit_test(test_egress_closed_form),
		cmocka_unit_test(test_billed_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
