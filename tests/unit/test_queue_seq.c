/*
 * Event queue with a 6-bit sequence field (sim/queue.c built into this test
 * with QUEUE_SEQ_BITS 6): the sequence runs out every few dozen inserts and
 * the pending events are renumbered, and the pop order must stay the
 * reference's exactly. The library's own build has 30 bits, renumbering
 * only every ~1e9 inserts.
 */
#define QUEUE_SEQ_BITS 6
#include "sim/queue.c"

#include "testutil.h"

#include "queue_diff.h"

static void test_renumber_keeps_order(void **state)
{
	(void)state;
	const unsigned ties[4] = { 4, 3, 2, 1 };   /* push, pop, move, cancel */
	const unsigned hold[4] = { 1, 1, 0, 0 };
	const unsigned moves[4] = { 2, 1, 4, 1 };
	queue_diff_run(21, 40, 100000, 8, ties);
	queue_diff_run(22, 50, 100000, 1000000, hold);
	queue_diff_run(23, 30, 100000, 20, moves);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_renumber_keeps_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
