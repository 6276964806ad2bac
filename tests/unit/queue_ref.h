/*
 * queue_ref: the event queue as it was before its cache-layout rework (a
 * 4-ary heap of times with side arrays of slots, orders and positions),
 * kept whole as the reference that tests/unit/test_queue.c compares pop
 * sequences against and tests/bench/bench_queue.c times beside the current
 * one. Same contract as sim/queue.h; not part of the library.
 */
#ifndef CLUSTERSIM_TESTS_UNIT_QUEUE_REF_H
#define CLUSTERSIM_TESTS_UNIT_QUEUE_REF_H

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sim/queue.h"
#include "util/xalloc.h"

typedef struct queue_ref queue_ref;

/*
 * Layout, chosen for the cache:
 * - `tkey` holds only each node's time (8 bytes); node i lives at
 *   tkey[i + QREF_HEAP_BASE] in a 64-byte-aligned array, so the four children of
 *   a node (4i+1 .. 4i+4) are 32 contiguous aligned bytes: most comparisons
 *   read nothing else.
 * - `hslot` (parallel to `tkey`) names the id slot of each node; a slot's
 *   `order` (class << 56 | sequence) breaks ties of time, read only then.
 * - `pos` gives each slot's heap index, kept apart so the writes made
 *   while sifting stay in cache; `slots` holds what each id carries.
 * An id is (generation << 32 | slot + 1): a stale id from a popped event is
 * caught by the generation check instead of silently naming a reused slot.
 */
struct qref_slot {
	uint32_t gen;
	uint32_t next_free;
	void *data;
	uint64_t arg;
};

#define QREF_SLOT_FREE UINT32_MAX
#define QREF_SEQ_BITS 56
#define QREF_SEQ_MASK ((UINT64_C(1) << QREF_SEQ_BITS) - 1)
#define QREF_HEAP_BASE 3

struct queue_ref {
	int64_t *tkey;          /* aligned; node i at tkey[i + QREF_HEAP_BASE] */
	uint32_t *hslot;        /* node i at hslot[i + QREF_HEAP_BASE] */
	size_t n, cap;
	uint32_t *pos;          /* heap index of each slot, or QREF_SLOT_FREE */
	uint64_t *order;        /* per slot: class << 56 | sequence */
	struct qref_slot *slots;
	size_t nslots, slots_cap;
	uint32_t free_head;     /* QREF_SLOT_FREE when empty */
	uint64_t next_seq;
};

static inline void qref_heap_grow(queue_ref *q, size_t cap)
{
	int64_t *k = xaligned(64, cap + QREF_HEAP_BASE + 8, sizeof *k);
	if (q->tkey != NULL) {
		memcpy(k, q->tkey, (q->n + QREF_HEAP_BASE) * sizeof *k);
		free(q->tkey);
	}
	q->tkey = k;
	q->hslot = xreallocarray(q->hslot, cap + QREF_HEAP_BASE, sizeof *q->hslot);
	q->cap = cap;
}

static inline queue_ref *queue_ref_new(void)
{
	queue_ref *q = xcalloc(1, sizeof *q);
	qref_heap_grow(q, 64);
	q->slots_cap = 64;
	q->slots = xreallocarray(NULL, q->slots_cap, sizeof *q->slots);
	q->pos = xreallocarray(NULL, q->slots_cap, sizeof *q->pos);
	q->order = xreallocarray(NULL, q->slots_cap, sizeof *q->order);
	q->free_head = QREF_SLOT_FREE;
	return q;
}

static inline void queue_ref_free(queue_ref *q)
{
	if (q == NULL)
		return;
	free(q->tkey);
	free(q->hslot);
	free(q->slots);
	free(q->pos);
	free(q->order);
	free(q);
}

/* Is node (ta, sa) qref_before node (tb, sb)? Orders are read only on a tie. */
static inline bool qref_before(const queue_ref *q, int64_t ta, uint32_t sa, int64_t tb, uint32_t sb)
{
	/* the comparison result is data (no branch on it); equal times are
	 * rare, so that branch is well predicted */
	bool lt = ta < tb;
	if (__builtin_expect(ta == tb, 0))
		lt = q->order[sa] < q->order[sb];
	return lt;
}

static inline void qref_sift_up(queue_ref *q, size_t i, int64_t t, uint32_t slot)
{
	int64_t *kb = q->tkey + QREF_HEAP_BASE;
	uint32_t *hs = q->hslot + QREF_HEAP_BASE;
	uint32_t *pos = q->pos;
	while (i > 0) {
		size_t parent = (i - 1) >> 2;
		if (!qref_before(q, t, slot, kb[parent], hs[parent]))
			break;
		kb[i] = kb[parent];
		hs[i] = hs[parent];
		pos[hs[i]] = (uint32_t)i;
		i = parent;
	}
	kb[i] = t;
	hs[i] = slot;
	pos[slot] = (uint32_t)i;
}

/* Index of the smallest child of i, or 0 when i is a leaf. */
static inline size_t qref_min_child(const queue_ref *q, size_t i)
{
	const int64_t *kb = q->tkey + QREF_HEAP_BASE;
	const uint32_t *hs = q->hslot + QREF_HEAP_BASE;
	size_t c = 4 * i + 1, best, end;
	if (c >= q->n)
		return 0;
	if (c + 4 <= q->n) {
		size_t a = c + qref_before(q, kb[c + 1], hs[c + 1], kb[c], hs[c]);
		size_t b = c + 2 + qref_before(q, kb[c + 3], hs[c + 3], kb[c + 2], hs[c + 2]);
		size_t ab = qref_before(q, kb[b], hs[b], kb[a], hs[a]);
		return a + ab * (b - a);
	}
	best = c;
	end = q->n;
	for (size_t x = c + 1; x < end; x++)
		if (qref_before(q, kb[x], hs[x], kb[best], hs[best]))
			best = x;
	return best;
}

static inline void qref_sift_down(queue_ref *q, size_t i, int64_t t, uint32_t slot)
{
	int64_t *kb = q->tkey + QREF_HEAP_BASE;
	uint32_t *hs = q->hslot + QREF_HEAP_BASE;
	size_t best;
	while ((best = qref_min_child(q, i)) != 0 && qref_before(q, kb[best], hs[best], t, slot)) {
		kb[i] = kb[best];
		hs[i] = hs[best];
		q->pos[hs[i]] = (uint32_t)i;
		i = best;
	}
	kb[i] = t;
	hs[i] = slot;
	q->pos[slot] = (uint32_t)i;
}

static inline uint32_t qref_slot_alloc(queue_ref *q)
{
	uint32_t s;
	if (q->free_head != QREF_SLOT_FREE) {
		s = q->free_head;
		q->free_head = q->slots[s].next_free;
		return s;
	}
	if (q->nslots == q->slots_cap) {
		assert(q->slots_cap < UINT32_MAX / 2);
		q->slots_cap = xgrow_cap(q->slots_cap, q->nslots + 1, 64);
		q->slots = xreallocarray(q->slots, q->slots_cap, sizeof *q->slots);
		q->pos = xreallocarray(q->pos, q->slots_cap, sizeof *q->pos);
		q->order = xreallocarray(q->order, q->slots_cap, sizeof *q->order);
	}
	s = (uint32_t)q->nslots++;
	q->slots[s].gen = 0;
	return s;
}

static inline void qref_slot_release(queue_ref *q, uint32_t s)
{
	q->pos[s] = QREF_SLOT_FREE;
	q->slots[s].gen++;
	q->slots[s].next_free = q->free_head;
	q->free_head = s;
}

static inline queue_id qref_make_id(const queue_ref *q, uint32_t s)
{
	return ((uint64_t)q->slots[s].gen << 32) | ((uint64_t)s + 1);
}

/* Slot of a live id; asserts it is live. */
static inline uint32_t qref_id_slot(const queue_ref *q, queue_id id)
{
	uint32_t s = (uint32_t)(id & 0xffffffffu) - 1;
	assert(id != QUEUE_ID_NONE && s < q->nslots);
	assert(q->pos[s] != QREF_SLOT_FREE && q->slots[s].gen == (uint32_t)(id >> 32));
	return s;
}

static inline uint64_t qref_next_order(queue_ref *q, unsigned cls)
{
	assert(cls <= QUEUE_CLASS_MAX);
	assert(q->next_seq < QREF_SEQ_MASK);
	return ((uint64_t)cls << QREF_SEQ_BITS) | q->next_seq++;
}

/* not inlined, as a call into the library is not */
__attribute__((noinline)) static queue_id queue_ref_push(queue_ref *q, int64_t time_ns, unsigned cls, void *data, uint64_t arg)
{
	uint32_t s = qref_slot_alloc(q);

	q->slots[s].data = data;
	q->slots[s].arg = arg;
	q->order[s] = qref_next_order(q, cls);
	if (q->n == q->cap)
		qref_heap_grow(q, xgrow_cap(q->cap, q->n + 1, 64));
	q->n++;
	qref_sift_up(q, q->n - 1, time_ns, s);
	return qref_make_id(q, s);
}

/* Take the node at heap index i out of the heap. */
static inline void qref_heap_remove_at(queue_ref *q, size_t i)
{
	size_t last = --q->n;
	int64_t t = q->tkey[last + QREF_HEAP_BASE];
	uint32_t slot = q->hslot[last + QREF_HEAP_BASE];
	if (i == last)
		return;
	if (i > 0 && qref_before(q, t, slot, q->tkey[(i - 1) / 4 + QREF_HEAP_BASE], q->hslot[(i - 1) / 4 + QREF_HEAP_BASE]))
		qref_sift_up(q, i, t, slot);
	else
		qref_sift_down(q, i, t, slot);
}

/*
 * Remove the root the bottom-up way (Floyd; Wegener's "bottom-up heapsort"):
 * walk the hole down along the smallest children to a leaf without comparing
 * against the element that will fill it, then sift that last element up from
 * the leaf. The last element usually belongs near the bottom, so this saves
 * about one comparison per level over a plain sift-down. This is the hot
 * loop of every simulation: it works on local copies of the arrays so the
 * compiler need not reload them after each store.
 */
static inline void qref_heap_pop_root(queue_ref *q)
{
	size_t n = --q->n;
	int64_t *kb = q->tkey + QREF_HEAP_BASE;
	uint32_t *hs = q->hslot + QREF_HEAP_BASE;
	uint32_t *pos = q->pos;
	int64_t t = kb[n];
	uint32_t slot = hs[n];
	size_t i = 0;

	if (n == 0)
		return;
	for (;;) {
		size_t c = 4 * i + 1, best;
		if (c + 4 <= n) {
			/* all four children: a small tournament */
			size_t a = c + qref_before(q, kb[c + 1], hs[c + 1], kb[c], hs[c]);
			size_t b = c + 2 + qref_before(q, kb[c + 3], hs[c + 3], kb[c + 2], hs[c + 2]);
			size_t ab = qref_before(q, kb[b], hs[b], kb[a], hs[a]);
			best = a + ab * (b - a);
			/* ask for the grandchildren's line now: memory works while we copy */
			if (4 * best + 1 < n)
				__builtin_prefetch(&kb[4 * best + 1]);
		} else if (c < n) {
			best = c;
			for (size_t x = c + 1; x < n; x++)
				if (qref_before(q, kb[x], hs[x], kb[best], hs[best]))
					best = x;
		} else {
			break;
		}
		kb[i] = kb[best];
		hs[i] = hs[best];
		pos[hs[i]] = (uint32_t)i;
		i = best;
	}
	qref_sift_up(q, i, t, slot);
}

__attribute__((noinline)) static bool queue_ref_pop(queue_ref *q, struct queue_item *out)
{
	uint32_t s;

	if (q->n == 0)
		return false;
	s = q->hslot[QREF_HEAP_BASE];
	__builtin_prefetch(&q->slots[s]);
	out->time_ns = q->tkey[QREF_HEAP_BASE];
	out->cls = (unsigned)(q->order[s] >> QREF_SEQ_BITS);
	out->seq = q->order[s] & QREF_SEQ_MASK;
	out->id = qref_make_id(q, s);
	out->data = q->slots[s].data;
	out->arg = q->slots[s].arg;
	qref_heap_pop_root(q);
	qref_slot_release(q, s);
	return true;
}

static inline bool queue_ref_peek_time(const queue_ref *q, int64_t *time_ns)
{
	if (q->n == 0)
		return false;
	*time_ns = q->tkey[QREF_HEAP_BASE];
	return true;
}

static inline bool queue_ref_contains(const queue_ref *q, queue_id id)
{
	uint32_t s = (uint32_t)(id & 0xffffffffu) - 1;
	if (id == QUEUE_ID_NONE || s >= q->nslots)
		return false;
	return q->pos[s] != QREF_SLOT_FREE && q->slots[s].gen == (uint32_t)(id >> 32);
}

static inline void queue_ref_move(queue_ref *q, queue_id id, int64_t time_ns)
{
	uint32_t s = qref_id_slot(q, id);
	size_t i = q->pos[s];
	unsigned cls = (unsigned)(q->order[s] >> QREF_SEQ_BITS);

	q->order[s] = qref_next_order(q, cls);
	/* The new key may be smaller (earlier time) or larger (later time, or the
	 * same time with a newer sequence): try up first, then down. */
	if (i > 0 && qref_before(q, time_ns, s, q->tkey[(i - 1) / 4 + QREF_HEAP_BASE], q->hslot[(i - 1) / 4 + QREF_HEAP_BASE]))
		qref_sift_up(q, i, time_ns, s);
	else
		qref_sift_down(q, i, time_ns, s);
}

static inline void queue_ref_cancel(queue_ref *q, queue_id id)
{
	uint32_t s = qref_id_slot(q, id);
	qref_heap_remove_at(q, q->pos[s]);
	qref_slot_release(q, s);
}

static inline size_t queue_ref_size(const queue_ref *q)
{
	return q->n;
}

#endif
