/*
 * bench_queue: hold-model throughput of the event queue and the engine.
 *
 * The classic hold model: keep n events pending; repeatedly take the earliest
 * and insert one at its time plus a random increment. One hold = one pop and
 * one push = one simulated event. Prints events per second for n = 1e3 and
 * 1e5 (target in DESIGN: >= 5e6 per core with 1e5 pending).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "benchutil.h"
#include "sim/engine.h"
#include "sim/queue.h"
#include "sim/rng.h"
#include "util/container.h"

/* The classic hold model's exponential increment, here with a mean of
 * 1 ms (events in clustersim's simulations are microseconds to seconds
 * apart), from a 64-bit mix. */
static int64_t increment(uint64_t *s)
{
	double u = ((double)(rng_splitmix64(s) >> 11) + 0.5) * 0x1p-53;
	return 1 + (int64_t)(-log(u) * 1e6);
}

static double bench_queue_hold(size_t pending, long holds)
{
	queue *q = queue_new();
	uint64_t s = 12345;
	struct queue_item it;
	for (size_t i = 0; i < pending; i++)
		queue_push(q, increment(&s), 0, NULL, 0);
	/* warm-up */
	for (long i = 0; i < holds / 10; i++) {
		queue_pop(q, &it);
		queue_push(q, it.time_ns + increment(&s), 0, NULL, 0);
	}
	double t0 = bench_now_s();
	for (long i = 0; i < holds; i++) {
		queue_pop(q, &it);
		queue_push(q, it.time_ns + increment(&s), 0, NULL, 0);
	}
	double dt = bench_now_s() - t0;
	queue_free(q);
	return (double)holds / dt;
}

struct holder {
	struct engine_handler h;
	uint64_t s;
	long left;
};

static void hold_fn(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct holder *x = container_of(h, struct holder, h);
	if (x->left-- > 0)
		engine_after(e, increment(&x->s), 0, h, arg);
}

static double bench_engine_hold(size_t pending, long holds)
{
	engine *e = engine_new();
	struct holder x = { .h = { hold_fn }, .s = 777, .left = holds };
	for (size_t i = 0; i < pending; i++)
		engine_at(e, increment(&x.s), 0, &x.h, i);
	double t0 = bench_now_s();
	uint64_t n = engine_run(e, INT64_MAX);
	double dt = bench_now_s() - t0;
	engine_free(e);
	return (double)n / dt;
}

int main(void)
{
	const size_t sizes[] = { 1000, 100000 };
	printf("%-28s %12s %16s\n", "benchmark", "pending", "events_per_s");
	for (int k = 0; k < 2; k++) {
		double best = 0;
		for (int rep = 0; rep < 3; rep++) {
			double r = bench_queue_hold(sizes[k], 5000000);
			if (r > best)
				best = r;
		}
		printf("%-28s %12zu %16.0f\n", "queue hold (push+pop)", sizes[k], best);
	}
	for (int k = 0; k < 2; k++) {
		double best = 0;
		for (int rep = 0; rep < 3; rep++) {
			double r = bench_engine_hold(sizes[k], 5000000);
			if (r > best)
				best = r;
		}
		printf("%-28s %12zu %16.0f\n", "engine run loop", sizes[k], best);
	}
	return 0;
}
