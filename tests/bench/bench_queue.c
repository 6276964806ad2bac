/*
 * bench_queue: hold-model throughput of the event queue and the engine.
 *
 * The classic hold model: keep n events pending; repeatedly take the earliest
 * and insert one at its time plus a random increment. One hold = one pop and
 * one push = one simulated event. Prints events per second for n = 1e3, 1e5,
 * 1e6 and 1e7 pending (target in DESIGN: >= 5e6 per core with 1e5 pending;
 * the engine should stay within ~1.3x of its 1e3 speed at 1e6), for four
 * increment distributions:
 *   exp        exponential, mean 1 ms (the classic hold model)
 *   uniform    uniform on [0, 2 ms)
 *   bimodal    90% exponential with mean 10 us, 10% with mean 10 ms
 *   clustered  exponential rounded up to a 100 us grid, classes 0..3: many
 *              events share an instant and a class (ties decided by class
 *              and sequence)
 * and the engine's run loop (handlers rescheduling themselves, exp).
 *
 * Usage: bench_queue [max_pending [ref|new [dist]]]. With "ref", each queue row is also
 * run on the queue as it was before the cache-layout rework
 * (tests/unit/queue_ref.h), in alternating chunks with the current one, so
 * both are timed in the same minutes. A distribution's name (or "engine") runs only
 * its rows. Times are CPU time of the process (see cpu_now_s).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"
#include "sim/engine.h"
#include "sim/queue.h"
#include "sim/rng.h"
#include "tests/unit/queue_ref.h"
#include "util/container.h"

/* CPU seconds of this process: the machines these figures come from are
 * shared, and time spent waiting for a core is not the queue's. */
static double cpu_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum dist { DIST_EXP, DIST_UNIFORM, DIST_BIMODAL, DIST_CLUSTERED, DIST_COUNT };

static const char *const dist_names[DIST_COUNT] = {
	[DIST_EXP] = "exp",
	[DIST_UNIFORM] = "uniform",
	[DIST_BIMODAL] = "bimodal",
	[DIST_CLUSTERED] = "clustered",
};

/* A uniform double in (0, 1) from a 64-bit mix. */
static double unit(uint64_t *s)
{
	return ((double)(rng_splitmix64(s) >> 11) + 0.5) * 0x1p-53;
}

/* One increment in nanoseconds (>= 1) drawn from distribution d; events in
 * clustersim's simulations are microseconds to seconds apart. */
static int64_t increment(enum dist d, uint64_t *s)
{
	double mean_ns = 1e6;
	switch (d) {
	case DIST_UNIFORM:
		return 1 + (int64_t)(unit(s) * 2e6);
	case DIST_BIMODAL:
		mean_ns = unit(s) < 0.9 ? 1e4 : 1e7;
		return 1 + (int64_t)(-log(unit(s)) * mean_ns);
	case DIST_CLUSTERED: {
		int64_t grid_ns = 100000;
		int64_t x = 1 + (int64_t)(-log(unit(s)) * mean_ns);
		return (x + grid_ns - 1) / grid_ns * grid_ns;
	}
	default:
		return 1 + (int64_t)(-log(unit(s)) * mean_ns);
	}
}

/* Tie class of a new event: 0, or 0..3 for the clustered times. */
static unsigned event_class(enum dist d, uint64_t *s)
{
	return d == DIST_CLUSTERED ? (unsigned)(rng_splitmix64(s) >> 62) : 0;
}

/* Run `holds` holds on q; returns the CPU seconds they took. */
static double hold_chunk(queue *q, enum dist d, uint64_t *s, long holds)
{
	struct queue_item it = { 0 };
	double t0 = cpu_now_s();
	for (long i = 0; i < holds; i++) {
		queue_pop(q, &it);
		queue_push(q, it.time_ns + increment(d, s), event_class(d, s), NULL, 0);
	}
	return cpu_now_s() - t0;
}

/* The same on the reference queue. */
static double hold_chunk_ref(queue_ref *q, enum dist d, uint64_t *s, long holds)
{
	struct queue_item it = { 0 };
	double t0 = cpu_now_s();
	for (long i = 0; i < holds; i++) {
		queue_ref_pop(q, &it);
		queue_ref_push(q, it.time_ns + increment(d, s), event_class(d, s), NULL, 0);
	}
	return cpu_now_s() - t0;
}

/* Events per second of the hold model with `pending` events, after a
 * warm-up of a quarter as many holds. */
static double bench_queue_hold(enum dist d, size_t pending, long holds)
{
	queue *q = queue_new();
	uint64_t s = 12345;
	for (size_t i = 0; i < pending; i++)
		queue_push(q, increment(d, &s), event_class(d, &s), NULL, 0);
	hold_chunk(q, d, &s, holds / 4);
	double dt = hold_chunk(q, d, &s, holds);
	queue_free(q);
	return (double)holds / dt;
}

/* The same for the current and the reference queue side by side, timed in
 * alternating chunks (each one first in turn) so that both see the same
 * machine; events per second of each into *cur and *ref. */
static void bench_pair_hold(enum dist d, size_t pending, long holds, double *cur, double *ref)
{
	enum { CHUNKS = 10 };
	queue *q = queue_new();
	queue_ref *r = queue_ref_new();
	uint64_t s = 12345, sr = 12345;
	double t = 0, tr = 0;
	for (size_t i = 0; i < pending; i++) {
		queue_push(q, increment(d, &s), event_class(d, &s), NULL, 0);
		queue_ref_push(r, increment(d, &sr), event_class(d, &sr), NULL, 0);
	}
	hold_chunk(q, d, &s, holds / 4);
	hold_chunk_ref(r, d, &sr, holds / 4);
	for (int c = 0; c < CHUNKS; c++) {
		if (c % 2 == 0) {
			t += hold_chunk(q, d, &s, holds / CHUNKS);
			tr += hold_chunk_ref(r, d, &sr, holds / CHUNKS);
		} else {
			tr += hold_chunk_ref(r, d, &sr, holds / CHUNKS);
			t += hold_chunk(q, d, &s, holds / CHUNKS);
		}
	}
	queue_free(q);
	queue_ref_free(r);
	*cur = (double)(holds / CHUNKS * CHUNKS) / t;
	*ref = (double)(holds / CHUNKS * CHUNKS) / tr;
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
		engine_after(e, increment(DIST_EXP, &x->s), 0, h, arg);
}

static double bench_engine_hold(size_t pending, long holds)
{
	engine *e = engine_new();
	struct holder x = { .h = { hold_fn }, .s = 777, .left = holds };
	for (size_t i = 0; i < pending; i++)
		engine_at(e, increment(DIST_EXP, &x.s), 0, &x.h, i);
	double t0 = cpu_now_s();
	uint64_t n = engine_run(e, INT64_MAX);
	double dt = cpu_now_s() - t0;
	engine_free(e);
	return (double)n / dt;
}

/* Holds timed per run and runs taken (best of): fewer at 1e7, whose set-up
 * alone pushes 1e7 events. */
static long holds_for(size_t pending)
{
	return pending >= 10000000 ? 2000000 : 3000000;
}

static int reps_for(size_t pending)
{
	return pending >= 10000000 ? 1 : 3;
}

int main(int argc, char **argv)
{
	const size_t sizes[] = { 1000, 100000, 1000000, 10000000 };
	size_t max_pending = argc > 1 ? (size_t)strtod(argv[1], NULL) : 10000000;
	int with_ref = argc > 2 && strcmp(argv[2], "ref") == 0;
	const char *only = argc > 3 ? argv[3] : NULL;
	printf("%-28s %12s %16s%s\n", "benchmark", "pending", "events_per_s",
	       with_ref ? "  ref_events_per_s  ratio" : "");
	for (int d = 0; d < DIST_COUNT; d++) {
		if (only != NULL && strcmp(only, dist_names[d]) != 0)
			continue;
		for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && sizes[k] <= max_pending; k++) {
			double best = 0, best_ref = 0;
			char name[64];
			for (int rep = 0; rep < reps_for(sizes[k]); rep++) {
				double r, rr = 0;
				if (with_ref)
					bench_pair_hold((enum dist)d, sizes[k], holds_for(sizes[k]), &r, &rr);
				else
					r = bench_queue_hold((enum dist)d, sizes[k], holds_for(sizes[k]));
				best = r > best ? r : best;
				best_ref = rr > best_ref ? rr : best_ref;
			}
			snprintf(name, sizeof name, "queue hold %s", dist_names[d]);
			if (with_ref)
				printf("%-28s %12zu %16.0f %17.0f %6.2f\n", name, sizes[k], best, best_ref,
				       best / best_ref);
			else
				printf("%-28s %12zu %16.0f\n", name, sizes[k], best);
			fflush(stdout);
		}
	}
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && sizes[k] <= max_pending; k++) {
		if (only != NULL && strcmp(only, "engine") != 0)
			break;
		double best = 0;
		for (int rep = 0; rep < reps_for(sizes[k]); rep++) {
			double r = bench_engine_hold(sizes[k], holds_for(sizes[k]));
			best = r > best ? r : best;
		}
		printf("%-28s %12zu %16.0f\n", "engine run loop exp", sizes[k], best);
		fflush(stdout);
	}
	return 0;
}
