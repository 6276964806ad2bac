/*
 * heap: the one d-ary min-heap, over an array the caller owns.
 *
 * The caller keeps the elements (any size up to HEAP_ELEM_MAX) in one array
 * and grows it; the heap never allocates. A const `struct heap_ops` says
 * the element size, the arity (2 or 4), the order and, where the caller
 * keeps each element's index (to move or remove it later), how to note a
 * move; a per-heap context goes to both callbacks. The functions are
 * static inline so that a call with a file-scope const ops compiles to
 * direct, inlined comparisons.
 *
 * Ties break the same way everywhere, so a rerun gives the same bytes: a
 * sift-down takes the first (lowest index) of the least children and moves
 * it up only when it is strictly before the element sifted; a sift-up stops
 * at a parent the element is not strictly before. Elements that are equal
 * under `before` may come out in any order that these rules give: a site
 * that needs insertion order puts a sequence number in its key.
 */
#ifndef CLUSTERSIM_UTIL_HEAP_H
#define CLUSTERSIM_UTIL_HEAP_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define HEAP_ELEM_MAX 64

struct heap_ops {
	size_t size;                                             /* bytes per element */
	size_t arity;                                            /* children per node: 2 or 4 */
	bool (*before)(const void *a, const void *b, void *ctx); /* a strictly before b */
	void (*placed)(const void *elem, size_t i, void *ctx);   /* NULL, or: elem is now at index i */
};

static inline void *heap_at_(const struct heap_ops *o, void *base, size_t i)
{
	return (char *)base + i * o->size;
}

/* Write elem at index i and tell the caller. */
static inline void heap_put_(const struct heap_ops *o, void *base, size_t i, const void *elem, void *ctx)
{
	memcpy(heap_at_(o, base, i), elem, o->size);
	if (o->placed != NULL)
		o->placed(elem, i, ctx);
}

/* Move the element at index i (of n) down to where it belongs; for an
 * element whose key grew, or a new root. */
static inline void heap_sift_down(const struct heap_ops *o, void *base, size_t n, size_t i, void *ctx)
{
	unsigned char x[HEAP_ELEM_MAX];
	assert(o->size <= sizeof x && (o->arity == 2 || o->arity == 4));
	memcpy(x, heap_at_(o, base, i), o->size);
	for (;;) {
		size_t c = o->arity * i + 1, best = c, end;
		if (c >= n)
			break;
		end = c + o->arity < n ? c + o->arity : n;
		for (size_t k = c + 1; k < end; k++)
			if (o->before(heap_at_(o, base, k), heap_at_(o, base, best), ctx))
				best = k;
		if (!o->before(heap_at_(o, base, best), x, ctx))
			break;
		heap_put_(o, base, i, heap_at_(o, base, best), ctx);
		i = best;
	}
	heap_put_(o, base, i, x, ctx);
}

/* Move the element at index i up to where it belongs; for an element whose
 * key shrank, or one just added at the end. */
static inline void heap_sift_up(const struct heap_ops *o, void *base, size_t i, void *ctx)
{
	unsigned char x[HEAP_ELEM_MAX];
	assert(o->size <= sizeof x && (o->arity == 2 || o->arity == 4));
	memcpy(x, heap_at_(o, base, i), o->size);
	while (i > 0) {
		size_t p = (i - 1) / o->arity;
		if (!o->before(x, heap_at_(o, base, p), ctx))
			break;
		heap_put_(o, base, i, heap_at_(o, base, p), ctx);
		i = p;
	}
	heap_put_(o, base, i, x, ctx);
}

/* Order the n elements of base into a heap (bottom-up, O(n)). */
static inline void heap_make(const struct heap_ops *o, void *base, size_t n, void *ctx)
{
	for (size_t i = n > 1 ? (n - 2) / o->arity + 1 : 0; i-- > 0;)
		heap_sift_down(o, base, n, i, ctx);
}

/* Add elem to the heap of *n elements; base must hold *n + 1. */
static inline void heap_push(const struct heap_ops *o, void *base, size_t *n, const void *elem, void *ctx)
{
	memcpy(heap_at_(o, base, *n), elem, o->size);
	heap_sift_up(o, base, (*n)++, ctx);
}

/* Remove the element at index i (0: the least) from the heap of *n. */
static inline void heap_remove(const struct heap_ops *o, void *base, size_t *n, size_t i, void *ctx)
{
	size_t last = --*n;
	assert(i <= last);
	if (i == last)
		return;
	memcpy(heap_at_(o, base, i), heap_at_(o, base, last), o->size);
	if (i > 0 && o->before(heap_at_(o, base, i), heap_at_(o, base, (i - 1) / o->arity), ctx))
		heap_sift_up(o, base, i, ctx);
	else
		heap_sift_down(o, base, *n, i, ctx);
}

#endif
