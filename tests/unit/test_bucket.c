/* Data-parallel buckets on the communication stream, in closed form. */
#include "testutil.h"

#include <string.h>

#include "models/kernel/roofline.h"
#include "models/train/bucket.h"

static void chunk(struct bucket_chunk *b, int n, double bucket_s)
{
	memset(b, 0, sizeof *b);
	b->buckets = n;
	b->cost.time_s = bucket_s;
}

/* Buckets faster than the layers that produce them hide behind the last
 * backward (duration d ending at E): the stream ends one bucket after E.
 * Slower ones queue: the first starts at E - d + d/n, then n back to back. */
static void test_stream_end(void **state)
{
	(void)state;
	struct bucket_chunk b;
	double free_s = 0, E = 10, d = 4;
	chunk(&b, 4, 0.5);
	assert_close(bucket_stream_end_s(&b, E, d, &free_s), E + 0.5, 1e-15);
	assert_close(free_s, E + 0.5, 1e-15);
	free_s = 0;
	chunk(&b, 4, 2.0);
	assert_close(bucket_stream_end_s(&b, E, d, &free_s), E - d + d / 4 + 4 * 2.0, 1e-15);
	/* a busy stream delays the first bucket */
	free_s = 20;
	assert_close(bucket_stream_end_s(&b, E, d, &free_s), 20 + 4 * 2.0, 1e-15);
}

/* Bucket j of n is ready (j + 1) / n of the way through the last backward;
 * what runs under it slows it by the overlap fraction. */
static void test_ready_and_slowdown(void **state)
{
	(void)state;
	struct bucket_chunk b;
	assert_close(bucket_ready_after_s(4, 0, 4), 1, 1e-15);
	assert_close(bucket_ready_after_s(4, 3, 4), 4, 1e-15);
	chunk(&b, 4, 0.5);
	assert_close(bucket_slowdown_s(&b, 4, 0.3), 0.3 * 2, 1e-15);
	assert_close(bucket_slowdown_s(&b, 1, 0.3), 0.3 * 1, 1e-15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_end),
		cmocka_unit_test(test_ready_and_slowdown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
