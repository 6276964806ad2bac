/* util/heap.h: sorted output against qsort, the position index, and the
 * tie rule every site relies on (the first least child moves, an equal one
 * does not). */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "util/heap.h"

struct item {
	int key;
	int tag;
};

static bool key_before(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return ((const struct item *)a)->key < ((const struct item *)b)->key;
}

static void note_pos(const void *elem, size_t i, void *ctx)
{
	size_t *pos = ctx;
	pos[((const struct item *)elem)->tag] = i;
}

static const struct heap_ops bin = { .size = sizeof(struct item), .arity = 2, .before = key_before };
static const struct heap_ops quad = { .size = sizeof(struct item), .arity = 4, .before = key_before, .placed = note_pos };

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Push, make and pop give the keys in sorted order for either arity. */
static void test_sorted(void **state)
{
	(void)state;
	enum { N = 1000 };
	struct item *h = calloc(N, sizeof *h);
	int ref[N];
	size_t pos[N];
	unsigned s = 12345;
	for (int pass = 0; pass < 2; pass++) {
		const struct heap_ops *o = pass ? &quad : &bin;
		size_t n = 0;
		for (int i = 0; i < N; i++) {
			s = s * 1103515245u + 12345u;
			ref[i] = (int)((s >> 16) % 100);  /* many ties */
			struct item it = { ref[i], i };
			heap_push(o, h, &n, &it, pos);
		}
		qsort(ref, N, sizeof *ref, int_cmp);
		for (int i = 0; i < N; i++) {
			if (o->placed != NULL)
				for (size_t k = 0; k < n; k++)
					assert_int_equal(pos[h[k].tag], k);
			assert_int_equal(h[0].key, ref[i]);
			heap_remove(o, h, &n, 0, pos);
		}
		assert_int_equal(n, 0);
	}
	free(h);
}

/* Ties: an element equal to its least child stays above it; of equal
 * children the first moves up. */
static void test_ties(void **state)
{
	(void)state;
	struct item h[3] = { { 5, 0 }, { 5, 1 }, { 5, 2 } };
	heap_sift_down(&bin, h, 3, 0, NULL);
	assert_int_equal(h[0].tag, 0);
	h[0].key = 9;
	heap_sift_down(&bin, h, 3, 0, NULL);
	assert_int_equal(h[0].tag, 1);  /* the left child, not the right */
	assert_int_equal(h[1].tag, 0);
}

/* Removing from the middle keeps the heap and the index. */
static void test_remove_middle(void **state)
{
	(void)state;
	struct item h[7];
	size_t pos[7], n = 0;
	int keys[7] = { 4, 1, 6, 3, 0, 5, 2 };
	for (int i = 0; i < 7; i++) {
		struct item it = { keys[i], i };
		heap_push(&quad, h, &n, &it, pos);
	}
	heap_remove(&quad, h, &n, pos[2], pos);  /* key 6 */
	heap_remove(&quad, h, &n, pos[3], pos);  /* key 3 */
	int want[5] = { 0, 1, 2, 4, 5 };
	for (int i = 0; i < 5; i++) {
		assert_int_equal(h[0].key, want[i]);
		heap_remove(&quad, h, &n, 0, pos);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_remove_middle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
