/* Engine: run loop order, clock, until and stop. */
#include "testutil.h"

#include "sim/engine.h"
#include "sim/time.h"
#include "util/container.h"

struct recorder {
	struct engine_handler h;
	int64_t times[64];
	uint64_t args[64];
	int n;
	int reschedule_left;
};

static void record(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct recorder *r = container_of(h, struct recorder, h);
	r->times[r->n] = engine_now(e);
	r->args[r->n] = arg;
	r->n++;
	if (r->reschedule_left > 0) {
		r->reschedule_left--;
		engine_after(e, 10, ENGINE_CLASS_WORK, h, arg + 100);
	}
}

static void test_runs_in_time_order(void **state)
{
	(void)state;
	engine *e = engine_new();
	struct recorder r = { .h = { record } };
	engine_at(e, 30, 0, &r.h, 3);
	engine_at(e, 10, 0, &r.h, 1);
	engine_at(e, 20, 0, &r.h, 2);
	engine_at(e, 20, 0, &r.h, 22);  /* tie: after the first 20 */
	assert_int_equal(engine_run(e, SIM_TIME_MAX), 4);
	assert_int_equal(r.args[0], 1);
	assert_int_equal(r.args[1], 2);
	assert_int_equal(r.args[2], 22);
	assert_int_equal(r.args[3], 3);
	assert_int_equal(engine_now(e), 30);
	engine_free(e);
}

static void test_handlers_schedule_and_until(void **state)
{
	(void)state;
	engine *e = engine_new();
	struct recorder r = { .h = { record }, .reschedule_left = 5 };
	engine_at(e, 0, 0, &r.h, 0);
	/* Events at 0, 10, 20, ...: stop before 25. */
	assert_int_equal(engine_run(e, 25), 3);
	assert_int_equal(engine_now(e), 20);
	assert_int_equal(engine_pending_count(e), 1);
	assert_int_equal(engine_run(e, SIM_TIME_MAX), 3);
	assert_int_equal(engine_now(e), 50);
	assert_int_equal(r.n, 6);
	for (int i = 1; i < r.n; i++)
		assert_true(r.times[i] >= r.times[i - 1]);
	engine_free(e);
}

static void test_move_and_cancel(void **state)
{
	(void)state;
	engine *e = engine_new();
	struct recorder r = { .h = { record } };
	queue_id a = engine_at(e, 100, 0, &r.h, 1);
	queue_id b = engine_at(e, 200, 0, &r.h, 2);
	engine_move(e, b, 50);
	engine_cancel(e, a);
	assert_false(engine_pending(e, a));
	assert_int_equal(engine_run(e, SIM_TIME_MAX), 1);
	assert_int_equal(r.args[0], 2);
	assert_int_equal(r.times[0], 50);
	engine_free(e);
}

static void test_time_conversions(void **state)
{
	(void)state;
	assert_int_equal(sim_time_from_s(1.5), 1500000000);
	assert_int_equal(sim_time_from_s(1e-9 / 2), 1);   /* rounds up: never early */
	assert_int_equal(sim_time_from_s(0), 0);
	assert_int_equal(sim_time_from_s(1e30), SIM_TIME_MAX);
	assert_close(sim_time_to_s(2500000000), 2.5, 1e-15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_in_time_order),
		cmocka_unit_test(test_handlers_schedule_and_until),
		cmocka_unit_test(test_move_and_cancel),
		cmocka_unit_test(test_time_conversions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
