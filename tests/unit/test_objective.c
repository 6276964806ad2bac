/* The objective's verdicts: a run meets a deadline or a budget when its
 * figure is at most the bound, at P50 and at P90. */
#include "testutil.h"

#include "models/eval/objective.h"

static struct run_result run_of(double p50_h, double p90_h, bool priced, double usd_p50, double usd_p90)
{
	struct run_result r = { 0 };
	r.wall_time_p50_s = p50_h * 3600;
	r.wall_time_p90_s = p90_h * 3600;
	r.priced = priced;
	r.cost_usd_p50 = usd_p50;
	r.cost_usd_p90 = usd_p90;
	return r;
}

/* P50 10 h, P90 14 h against a 12 h deadline: meets at P50, not at P90;
 * against 20 h both, against 8 h neither. */
static void test_deadline(void **state)
{
	(void)state;
	struct run_result r = run_of(10, 14, false, 0, 0);
	struct objective_spec o = { .deadline_h = 12 };
	struct objective_verdict v;
	objective_check(&o, &r, &v);
	assert_true(v.deadline_checked);
	assert_true(v.meets_deadline_p50);
	assert_false(v.meets_deadline_p90);
	assert_false(v.budget_checked);
	o.deadline_h = 20;
	objective_check(&o, &r, &v);
	assert_true(v.meets_deadline_p50 && v.meets_deadline_p90);
	o.deadline_h = 8;
	objective_check(&o, &r, &v);
	assert_true(v.deadline_checked);
	assert_false(v.meets_deadline_p50 || v.meets_deadline_p90);
	/* exactly on the deadline meets it */
	o.deadline_h = 10;
	objective_check(&o, &r, &v);
	assert_true(v.meets_deadline_p50);
}

/* $900 at P50, $1,100 at P90 against a $1,000 budget; unpriced: unchecked. */
static void test_budget(void **state)
{
	(void)state;
	struct run_result r = run_of(10, 10, true, 900, 1100);
	struct objective_spec o = { .budget_usd = 1000 };
	struct objective_verdict v;
	objective_check(&o, &r, &v);
	assert_true(v.budget_checked);
	assert_true(v.meets_budget_p50);
	assert_false(v.meets_budget_p90);
	assert_false(v.deadline_checked);
	o.budget_usd = 800;
	objective_check(&o, &r, &v);
	assert_false(v.meets_budget_p50 || v.meets_budget_p90);
	r.priced = false;
	objective_check(&o, &r, &v);
	assert_false(v.budget_checked);
}

/* No objective, or one with neither bound: nothing is checked. */
static void test_none(void **state)
{
	(void)state;
	struct run_result r = run_of(10, 10, true, 900, 900);
	struct objective_spec o = { 0 };
	struct objective_verdict v;
	objective_check(NULL, &r, &v);
	assert_false(v.deadline_checked || v.budget_checked);
	objective_check(&o, &r, &v);
	assert_false(v.deadline_checked || v.budget_checked);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
