/* Event queue: order against a sorted reference and against the queue as it
 * was before its layout changed (queue_ref.h), ties, move and cancel. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "queue_diff.h"
#include "sim/queue.h"
#include "sim/rng.h"

struct ref_event {
	int64_t time;
	unsigned cls;
	uint64_t seq;   /* order of (re)insertion */
	long tag;
	int live;
	queue_id id;
};

static int ref_cmp(const void *pa, const void *pb)
{
	const struct ref_event *a = pa, *b = pb;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	return a->seq < b->seq ? -1 : (a->seq > b->seq);
}

static uint64_t lcg(uint64_t *s)
{
	return rng_splitmix64(s);
}

/* Pop everything and compare with the reference sorted by (time, class, seq). */
static void drain_and_compare(queue *q, struct ref_event *ref, size_t n)
{
	struct ref_event *live = calloc(n ? n : 1, sizeof *live);
	size_t m = 0;
	struct queue_item it;

	for (size_t i = 0; i < n; i++)
		if (ref[i].live)
			live[m++] = ref[i];
	qsort(live, m, sizeof *live, ref_cmp);
	assert_int_equal(queue_size(q), m);
	for (size_t i = 0; i < m; i++) {
		assert_true(queue_pop(q, &it));
		assert_int_equal(it.time_ns, live[i].time);
		assert_int_equal(it.cls, live[i].cls);
		assert_int_equal((long)it.arg, live[i].tag);
	}
	assert_false(queue_pop(q, &it));
	free(live);
}

static void test_random_order(void **state)
{
	(void)state;
	enum { N = 20000 };
	uint64_t s = 7;
	queue *q = queue_new();
	struct ref_event *ref = calloc(N, sizeof *ref);
	uint64_t seq = 0;

	for (long i = 0; i < N; i++) {
		ref[i].time = (int64_t)(lcg(&s) % 1000);  /* many ties on purpose */
		ref[i].cls = (unsigned)(lcg(&s) % 4);
		ref[i].seq = seq++;
		ref[i].tag = i;
		ref[i].live = 1;
		ref[i].id = queue_push(q, ref[i].time, ref[i].cls, NULL, (uint64_t)i);
	}
	drain_and_compare(q, ref, N);
	free(ref);
	queue_free(q);
}

static void test_ties_in_insertion_order(void **state)
{
	(void)state;
	queue *q = queue_new();
	struct queue_item it;
	for (uint64_t i = 0; i < 1000; i++)
		queue_push(q, 5, 0, NULL, i);
	for (uint64_t i = 0; i < 1000; i++) {
		assert_true(queue_pop(q, &it));
		assert_int_equal(it.arg, i);
		assert_int_equal(it.time_ns, 5);
	}
	queue_free(q);
}

static void test_class_orders_same_time(void **state)
{
	(void)state;
	queue *q = queue_new();
	struct queue_item it;
	queue_push(q, 10, 3, NULL, 30);
	queue_push(q, 10, 1, NULL, 10);
	queue_push(q, 9, 9, NULL, 90);
	queue_push(q, 10, 2, NULL, 20);
	uint64_t want[] = { 90, 10, 20, 30 };
	for (int i = 0; i < 4; i++) {
		assert_true(queue_pop(q, &it));
		assert_int_equal(it.arg, want[i]);
	}
	queue_free(q);
}

static void test_move_and_cancel(void **state)
{
	(void)state;
	enum { N = 5000, OPS = 20000 };
	uint64_t s = 99;
	queue *q = queue_new();
	struct ref_event *ref = calloc(N, sizeof *ref);
	uint64_t seq = 0;

	for (long i = 0; i < N; i++) {
		ref[i].time = (int64_t)(lcg(&s) % 100000);
		ref[i].cls = (unsigned)(lcg(&s) % 3);
		ref[i].seq = seq++;
		ref[i].tag = i;
		ref[i].live = 1;
		ref[i].id = queue_push(q, ref[i].time, ref[i].cls, NULL, (uint64_t)i);
	}
	for (int k = 0; k < OPS; k++) {
		size_t i = (size_t)(lcg(&s) % N);
		if (!ref[i].live) {
			assert_false(queue_contains(q, ref[i].id));
			continue;
		}
		assert_true(queue_contains(q, ref[i].id));
		if (lcg(&s) % 5 == 0) {
			queue_cancel(q, ref[i].id);
			ref[i].live = 0;
			assert_false(queue_contains(q, ref[i].id));
		} else {
			/* earlier, later or the same time: a move counts as a new insert */
			ref[i].time = (int64_t)(lcg(&s) % 100000);
			ref[i].seq = seq++;
			queue_move(q, ref[i].id, ref[i].time);
		}
	}
	drain_and_compare(q, ref, N);
	free(ref);
	queue_free(q);
}

static void test_interleaved_push_pop(void **state)
{
	(void)state;
	/* Hold model: pop the minimum, push a later event; times never go back. */
	uint64_t s = 3;
	queue *q = queue_new();
	struct queue_item it;
	int64_t last = 0;
	for (int i = 0; i < 1000; i++)
		queue_push(q, (int64_t)(lcg(&s) % 1000), 0, NULL, 0);
	for (int i = 0; i < 100000; i++) {
		assert_true(queue_pop(q, &it));
		assert_true(it.time_ns >= last);
		last = it.time_ns;
		queue_push(q, it.time_ns + 1 + (int64_t)(lcg(&s) % 1000), 0, NULL, 0);
	}
	assert_int_equal(queue_size(q), 1000);
	queue_free(q);
}

static void test_stale_id_not_contained(void **state)
{
	(void)state;
	queue *q = queue_new();
	struct queue_item it;
	queue_id a = queue_push(q, 1, 0, NULL, 1);
	assert_true(queue_pop(q, &it));
	assert_int_equal(it.id, a);
	queue_id b = queue_push(q, 2, 0, NULL, 2);  /* reuses the slot */
	assert_false(queue_contains(q, a));
	assert_true(queue_contains(q, b));
	assert_true(a != b);
	assert_false(queue_contains(q, QUEUE_ID_NONE));
	queue_free(q);
}

/* Many events at each instant and class: the order is decided by class and
 * sequence, and must be the reference's, pop by pop. */
static void test_same_as_reference_ties(void **state)
{
	(void)state;
	const unsigned mix[4] = { 4, 3, 2, 1 };  /* push, pop, move, cancel */
	queue_diff_run(11, 2000, 200000, 50, mix);
}

/* Moves and cancels outnumber pops: stale nodes pile up, reach the root
 * and force rebuilds. */
static void test_same_as_reference_moves_cancels(void **state)
{
	(void)state;
	const unsigned mix[4] = { 3, 1, 3, 3 };
	queue_diff_run(12, 3000, 200000, 1000000, mix);
	const unsigned moves[4] = { 1, 1, 8, 0 };
	queue_diff_run(13, 500, 100000, 100, moves);
}

/* The hold model over a wide range of times. */
static void test_same_as_reference_hold(void **state)
{
	(void)state;
	const unsigned mix[4] = { 1, 1, 0, 0 };
	queue_diff_run(14, 5000, 200000, 1000000000, mix);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_order),
		cmocka_unit_test(test_ties_in_insertion_order),
		cmocka_unit_test(test_class_orders_same_time),
		cmocka_unit_test(test_move_and_cancel),
		cmocka_unit_test(test_interleaved_push_pop),
		cmocka_unit_test(test_stale_id_not_contained),
		cmocka_unit_test(test_same_as_reference_ties),
		cmocka_unit_test(test_same_as_reference_moves_cancels),
		cmocka_unit_test(test_same_as_reference_hold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
