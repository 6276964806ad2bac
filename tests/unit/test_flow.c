/* Bandwidth sharing: closed forms, a textbook max-min case, conservation. */
#include "testutil.h"

#include <stdlib.h>

#include "sim/engine.h"
#include "sim/flow.h"
#include "sim/rng.h"
#include "sim/time.h"
#include "util/container.h"

struct done_log {
	struct engine_handler h;
	int64_t t[4096];
	int n;
};

static void on_done(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct done_log *d = container_of(h, struct done_log, h);
	d->t[arg] = engine_now(e);
	d->n++;
}

static void test_single_flow_latency_plus_size(void **state)
{
	(void)state;
	engine *e = engine_new();
	flow_net *n = flow_new(e);
	struct done_log d = { .h = { on_done } };
	flow_link l = flow_add_link(n, 50e9);         /* 50 GB/s */
	flow_start(n, &l, 1, 1e9, 1.0, 5000, &d.h, 0); /* 1 GB, 5 us */
	engine_run(e, SIM_TIME_MAX);
	/* latency + size / bandwidth = 5 us + 20 ms */
	assert_int_equal(d.t[0], 20000000 + 5000);
	assert_close(flow_link_bytes(n, l), 1e9, 1e-12);
	flow_free(n);
	engine_free(e);
}

static void test_equal_flows_share(void **state)
{
	(void)state;
	engine *e = engine_new();
	flow_net *n = flow_new(e);
	struct done_log d = { .h = { on_done } };
	flow_link l = flow_add_link(n, 100.0);
	flow_id ids[8];
	flow_batch_begin(n);
	for (int i = 0; i < 8; i++)
		ids[i] = flow_start(n, &l, 1, 100.0, 1.0, 0, &d.h, (uint64_t)i);
	flow_batch_end(n);
	for (int i = 0; i < 8; i++)
		assert_close(flow_rate(n, ids[i]), 100.0 / 8, 1e-12);
	engine_run(e, SIM_TIME_MAX);
	for (int i = 0; i < 8; i++)
		assert_int_equal(d.t[i], 8 * SIM_NS_PER_S);  /* 8 x 100 bytes at 100 B/s */
	flow_free(n);
	engine_free(e);
}

/*
 * Max-min by hand: L1 (cap 10) carries f1, f2, f3; L2 (cap 4) carries f3, f4.
 * L2's share 2 < L1's 10/3, so f3 = f4 = 2; L1 has 8 left for f1, f2: 4 each.
 * Weighted: on a link of 8, weights 1 and 3 give 2 and 6.
 */
static void test_textbook_max_min(void **state)
{
	(void)state;
	engine *e = engine_new();
	flow_net *n = flow_new(e);
	flow_link l1 = flow_add_link(n, 10), l2 = flow_add_link(n, 4), l3 = flow_add_link(n, 8);
	flow_link p3[2] = { l1, l2 };
	flow_batch_begin(n);
	flow_id f1 = flow_start(n, &l1, 1, 1e6, 1, 0, NULL, 0);
	flow_id f2 = flow_start(n, &l1, 1, 1e6, 1, 0, NULL, 0);
	flow_id f3 = flow_start(n, p3, 2, 1e6, 1, 0, NULL, 0);
	flow_id f4 = flow_start(n, &l2, 1, 1e6, 1, 0, NULL, 0);
	flow_id w1 = flow_start(n, &l3, 1, 1e6, 1, 0, NULL, 0);
	flow_id w3 = flow_start(n, &l3, 1, 1e6, 3, 0, NULL, 0);
	flow_batch_end(n);
	assert_close(flow_rate(n, f1), 4, 1e-12);
	assert_close(flow_rate(n, f2), 4, 1e-12);
	assert_close(flow_rate(n, f3), 2, 1e-12);
	assert_close(flow_rate(n, f4), 2, 1e-12);
	assert_close(flow_rate(n, w1), 2, 1e-12);
	assert_close(flow_rate(n, w3), 6, 1e-12);
	flow_free(n);
	engine_free(e);
}

/* A flow that ends frees bandwidth for the other: 100 and 300 bytes on 100 B/s. */
static void test_rates_change_when_flows_end(void **state)
{
	(void)state;
	engine *e = engine_new();
	flow_net *n = flow_new(e);
	struct done_log d = { .h = { on_done } };
	flow_link l = flow_add_link(n, 100);
	flow_batch_begin(n);
	flow_start(n, &l, 1, 100, 1, 0, &d.h, 0);
	flow_start(n, &l, 1, 300, 1, 0, &d.h, 1);
	flow_batch_end(n);
	engine_run(e, SIM_TIME_MAX);
	assert_int_equal(d.t[0], 2 * SIM_NS_PER_S);  /* 100 at 50 */
	assert_int_equal(d.t[1], 4 * SIM_NS_PER_S);  /* 200 more at 100 */
	assert_close(flow_link_bytes(n, l), 400, 1e-9);
	flow_free(n);
	engine_free(e);
}

/* Random flows on random paths: every byte accounted for, capacity respected,
 * and each flow limited by a saturated link on which it has the largest
 * weighted rate (the defining property of weighted max-min fairness). */
static void test_random_conservation_and_max_min(void **state)
{
	(void)state;
	enum { L = 40, F = 400 };
	uint64_t s = 2026;
	engine *e = engine_new();
	flow_net *n = flow_new(e);
	struct done_log *d = calloc(1, sizeof *d);
	double caps[L], bytes_total = 0, link_bytes_expected[L] = { 0 };
	flow_link paths[F][4];
	int plen[F];
	double w[F];
	flow_id ids[F];

	d->h.fn = on_done;
	for (int i = 0; i < L; i++) {
		caps[i] = 1e9 * (1 + rng_splitmix64(&s) % 10);
		flow_add_link(n, caps[i]);
	}
	flow_batch_begin(n);
	for (int f = 0; f < F; f++) {
		plen[f] = 1 + (int)(rng_splitmix64(&s) % 4);
		for (int k = 0; k < plen[f]; k++) {
			flow_link c;
			int dup;
			do {
				c = (flow_link)(rng_splitmix64(&s) % L);
				dup = 0;
				for (int j = 0; j < k; j++)
					dup |= paths[f][j] == c;
			} while (dup);
			paths[f][k] = c;
		}
		double b = 1e6 * (1 + rng_splitmix64(&s) % 1000);
		w[f] = 1 + (double)(rng_splitmix64(&s) % 3);
		bytes_total += b;
		for (int k = 0; k < plen[f]; k++)
			link_bytes_expected[paths[f][k]] += b;
		ids[f] = flow_start(n, paths[f], plen[f], b, w[f], 0, &d->h, (uint64_t)f);
	}
	flow_batch_end(n);

	/* Max-min check on the initial allocation. */
	double load[L] = { 0 };
	for (int f = 0; f < F; f++)
		for (int k = 0; k < plen[f]; k++)
			load[paths[f][k]] += flow_rate(n, ids[f]);
	for (int i = 0; i < L; i++)
		assert_true(load[i] <= caps[i] * (1 + 1e-9));
	for (int f = 0; f < F; f++) {
		int bottlenecked = 0;
		double rf = flow_rate(n, ids[f]) / w[f];
		for (int k = 0; k < plen[f]; k++) {
			int l = (int)paths[f][k];
			if (load[l] < caps[l] * (1 - 1e-9))
				continue;  /* not saturated */
			int largest = 1;
			for (int g = 0; g < F; g++)
				for (int j = 0; j < plen[g]; j++)
					if ((int)paths[g][j] == l && flow_rate(n, ids[g]) / w[g] > rf * (1 + 1e-9))
						largest = 0;
			bottlenecked |= largest;
		}
		assert_true(bottlenecked);
	}
	/* Incremental solving gave what a full solve gives. */
	double before[F];
	for (int f = 0; f < F; f++)
		before[f] = flow_rate(n, ids[f]);
	flow_resolve_all(n);
	for (int f = 0; f < F; f++)
		assert_close(flow_rate(n, ids[f]), before[f], 1e-12);

	engine_run(e, SIM_TIME_MAX);
	assert_int_equal(d->n, F);
	assert_int_equal(flow_active(n), 0);
	assert_close(flow_delivered_bytes(n), bytes_total, 1e-12);
	for (int i = 0; i < L; i++)
		assert_close(flow_link_bytes(n, (flow_link)i), link_bytes_expected[i], 1e-9);
	free(d);
	flow_free(n);
	engine_free(e);
}

/* Incremental re-solves after each completion agree with a full solve. */
static void test_incremental_matches_full(void **state)
{
	(void)state;
	enum { L = 30, F = 200 };
	uint64_t s = 77;
	engine *e = engine_new();
	flow_net *n = flow_new(e);
	flow_id ids[F];
	for (int i = 0; i < L; i++)
		flow_add_link(n, 1e9 * (1 + rng_splitmix64(&s) % 5));
	for (int f = 0; f < F; f++) {
		flow_link p[3];
		int len = 1 + (int)(rng_splitmix64(&s) % 3);
		for (int k = 0; k < len; k++) {
			int dup;
			do {
				p[k] = (flow_link)(rng_splitmix64(&s) % L);
				dup = 0;
				for (int j = 0; j < k; j++)
					dup |= p[j] == p[k];
			} while (dup);
		}
		ids[f] = flow_start(n, p, len, 1e6 * (1 + rng_splitmix64(&s) % 100), 1, 0, NULL, 0);
	}
	/* Step through time (each step runs the completions due); after each
	 * step the incrementally maintained rates must equal a full solve. */
	int steps = 0;
	int64_t until = 0;
	while (flow_active(n) > 0) {
		double r[F];
		until += 20000000;  /* 20 ms */
		engine_run(e, until);
		for (int f = 0; f < F; f++)
			r[f] = flow_rate(n, ids[f]);
		flow_resolve_all(n);
		for (int f = 0; f < F; f++)
			assert_close(flow_rate(n, ids[f]), r[f], 1e-9);
		steps++;
	}
	assert_true(steps > 5);
	flow_free(n);
	engine_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_flow_latency_plus_size),
		cmocka_unit_test(test_equal_flows_share),
		cmocka_unit_test(test_textbook_max_min),
		cmocka_unit_test(test_rates_change_when_flows_end),
		cmocka_unit_test(test_random_conservation_and_max_min),
		cmocka_unit_test(test_incremental_matches_full),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
