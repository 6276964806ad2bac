/*
 * queue_diff: drive the queue (sim/queue.h) and the reference queue
 * (queue_ref.h) through the same random pushes, pops, moves and cancels,
 * and assert that every answer is the same: each popped event (time, class,
 * sequence, id, argument), sizes, peeks and liveness of ids. Shared by
 * test_queue.c and test_queue_seq.c (the latter with a tiny sequence field,
 * so that renumbering runs every few dozen inserts).
 */
#ifndef CLUSTERSIM_TESTS_UNIT_QUEUE_DIFF_H
#define CLUSTERSIM_TESTS_UNIT_QUEUE_DIFF_H

#include "testutil.h"

#include "queue_ref.h"
#include "sim/queue.h"
#include "sim/rng.h"

/*
 * `ops` random operations on both queues, keeping at most max_pending
 * events; times are drawn from [now, now + time_range) and classes from
 * 0..3, so a small range gives many events at one instant. The mix (pushes,
 * pops, moves, cancels in proportion) follows `weights`.
 */
static inline void queue_diff_run(uint64_t seed, size_t max_pending, long ops,
				  int64_t time_range, const unsigned weights[4])
{
	queue *q = queue_new();
	queue_ref *r = queue_ref_new();
	queue_id *ids = calloc(max_pending, sizeof *ids);      /* this queue's */
	queue_id *rids = calloc(max_pending, sizeof *rids);    /* the reference's */
	size_t n = 0;
	int64_t now = 0;
	uint64_t s = seed;
	unsigned total = weights[0] + weights[1] + weights[2] + weights[3];
	struct queue_item a, b;

	for (long k = 0; k < ops; k++) {
		unsigned pick = (unsigned)(rng_splitmix64(&s) % total);
		int64_t t = now + (int64_t)(rng_splitmix64(&s) % (uint64_t)time_range);
		if ((pick < weights[0] && n < max_pending) || n == 0) {
			unsigned cls = (unsigned)(rng_splitmix64(&s) % 4);
			ids[n] = queue_push(q, t, cls, &ids[n], (uint64_t)k);
			rids[n] = queue_ref_push(r, t, cls, &ids[n], (uint64_t)k);
			assert_true(ids[n] == rids[n]);
			n++;
		} else if (pick < weights[0] + weights[1] || pick < weights[0]) {
			/* pop: the same event from both; drop its id from the list */
			assert_true(queue_pop(q, &a));
			assert_true(queue_ref_pop(r, &b));
			assert_int_equal(a.time_ns, b.time_ns);
			assert_int_equal(a.cls, b.cls);
			assert_int_equal(a.seq, b.seq);
			assert_int_equal(a.id, b.id);
			assert_int_equal(a.arg, b.arg);
			assert_true(a.time_ns >= now);
			now = a.time_ns;
			assert_false(queue_contains(q, a.id));
			for (size_t i = 0; i < n; i++)
				if (ids[i] == a.id) {
					ids[i] = ids[--n];
					rids[i] = rids[n];
					break;
				}
		} else {
			size_t i = (size_t)(rng_splitmix64(&s) % n);
			assert_true(queue_contains(q, ids[i]));
			if (pick < weights[0] + weights[1] + weights[2]) {
				queue_move(q, ids[i], t);
				queue_ref_move(r, rids[i], t);
			} else {
				queue_cancel(q, ids[i]);
				queue_ref_cancel(r, rids[i]);
				assert_false(queue_contains(q, ids[i]));
				ids[i] = ids[--n];
				rids[i] = rids[n];
			}
		}
		assert_int_equal(queue_size(q), queue_ref_size(r));
		int64_t pa = -1, pb = -1;
		assert_int_equal(queue_peek_time(q, &pa), queue_ref_peek_time(r, &pb));
		assert_int_equal(pa, pb);
	}
	/* drain */
	while (queue_ref_pop(r, &b)) {
		assert_true(queue_pop(q, &a));
		assert_int_equal(a.time_ns, b.time_ns);
		assert_int_equal(a.seq, b.seq);
		assert_int_equal(a.id, b.id);
		assert_int_equal(a.arg, b.arg);
	}
	assert_false(queue_pop(q, &a));
	assert_int_equal(queue_size(q), 0);
	free(ids);
	free(rids);
	queue_free(q);
	queue_ref_free(r);
}

#endif
