/* The arrival processes' table: one entry per process name, in the enum's
 * order, each with what the simulation calls; the requests each offers
 * before it runs (a rate x duration, the requests given, a trace's rows)
 * and the rate it is reported at (the spec's for Poisson and gamma, the
 * measured one otherwise); the checks' reasons. */
#include "testutil.h"

#include <string.h>

#include "models/serve/arrival.h"

static void test_one_entry_per_name(void **state)
{
	(void)state;
	size_t n = 0;
	while (arrival_process_names[n] != NULL) {
		const struct arrival_ops *o = arrival_of((enum arrival_process)n);
		assert_string_equal(o->name, arrival_process_names[n]);
		assert_non_null(o->check);
		assert_non_null(o->requests);
		assert_non_null(o->offered_rate);
		assert_non_null(o->start);
		assert_non_null(o->next);
		/* a gap only where arrivals come at a rate */
		assert_int_equal(o->gap_s != NULL, n == ARRIVAL_POISSON || n == ARRIVAL_GAMMA);
		/* only a closed loop's requests have a client */
		assert_int_equal(o->finished != NULL, n == ARRIVAL_CLOSED_LOOP);
		n++;
	}
	assert_int_equal(n, 5);
	assert_true(arrival_of(ARRIVAL_TRACE)->lengths_given);
	assert_false(arrival_of(ARRIVAL_POISSON)->lengths_given);
}

static void test_requests_offered(void **state)
{
	(void)state;
	struct serving_spec sv;
	struct serve_request rows[3] = { { 0, 10, 10 }, { 1, 10, 10 }, { 2, 10, 10 } };
	struct serve_trace tr = { rows, 3 };
	memset(&sv, 0, sizeof sv);
	sv.rate_per_s = 20;
	sv.duration_s = 600;
	assert_close(arrival_of(ARRIVAL_POISSON)->requests(&sv), 12000, 1e-12);
	assert_close(arrival_of(ARRIVAL_GAMMA)->requests(&sv), 12000, 1e-12);
	assert_close(arrival_of(ARRIVAL_CLOSED_LOOP)->requests(&sv), 0, 0);  /* known only as it runs */
	sv.requests = 300;
	assert_close(arrival_of(ARRIVAL_POISSON)->requests(&sv), 300, 0);
	assert_close(arrival_of(ARRIVAL_OFFLINE)->requests(&sv), 300, 0);
	assert_close(arrival_of(ARRIVAL_CLOSED_LOOP)->requests(&sv), 300, 0);
	sv.requests = 0;
	sv.trace_requests = &tr;
	assert_close(arrival_of(ARRIVAL_TRACE)->requests(&sv), 3, 0);
}

static void test_offered_rate(void **state)
{
	(void)state;
	struct serving_spec sv;
	struct serve_metrics m;
	memset(&sv, 0, sizeof sv);
	memset(&m, 0, sizeof m);
	sv.rate_per_s = 20;
	m.request_per_s = 17.5;
	assert_close(arrival_of(ARRIVAL_POISSON)->offered_rate(&sv, &m), 20, 0);
	assert_close(arrival_of(ARRIVAL_GAMMA)->offered_rate(&sv, &m), 20, 0);
	assert_close(arrival_of(ARRIVAL_TRACE)->offered_rate(&sv, &m), 17.5, 0);
	assert_close(arrival_of(ARRIVAL_OFFLINE)->offered_rate(&sv, &m), 17.5, 0);
	assert_close(arrival_of(ARRIVAL_CLOSED_LOOP)->offered_rate(&sv, &m), 17.5, 0);
}

static void test_checks(void **state)
{
	(void)state;
	struct serving_spec sv;
	char why[256];
	memset(&sv, 0, sizeof sv);
	assert_int_equal(arrival_of(ARRIVAL_POISSON)->check(&sv, why, sizeof why), -1);
	assert_string_equal(why, "an arrival rate (0) and a duration (0 s) or request count are needed");
	assert_int_equal(arrival_of(ARRIVAL_OFFLINE)->check(&sv, why, sizeof why), -1);
	assert_string_equal(why, "offline arrivals need a request count");
	assert_int_equal(arrival_of(ARRIVAL_CLOSED_LOOP)->check(&sv, why, sizeof why), -1);
	assert_int_equal(arrival_of(ARRIVAL_TRACE)->check(&sv, why, sizeof why), -1);
	assert_string_equal(why, "trace arrivals need the trace's requests");
	sv.rate_per_s = 1;
	sv.requests = 10;
	sv.concurrency = 2;
	assert_int_equal(arrival_of(ARRIVAL_GAMMA)->check(&sv, why, sizeof why), 0);
	assert_int_equal(arrival_of(ARRIVAL_OFFLINE)->check(&sv, why, sizeof why), 0);
	assert_int_equal(arrival_of(ARRIVAL_CLOSED_LOOP)->check(&sv, why, sizeof why), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_entry_per_name),
		cmocka_unit_test(test_requests_offered),
		cmocka_unit_test(test_offered_rate),
		cmocka_unit_test(test_checks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
