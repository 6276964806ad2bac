/* for madvise(MADV_HUGEPAGE), a Linux extension, where there is one */
#define _DEFAULT_SOURCE 1
#include "queue.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "util/xalloc.h"

/*
 * Layout, chosen for the cache at 1e6 pending events and more, where the
 * heap no longer fits in it and every level a pop walks down is a miss:
 * - The heap is an array of 16-byte nodes, 64-byte aligned, node i at
 *   heap[i + HEAP_BASE], so the four children of a node (4i+1 .. 4i+4)
 *   fill exactly one cache line. A node holds all that orders it, as one
 *   128-bit key: the time in the high half, and in the low half the word
 *   class << 56 | sequence << SLOT_BITS | slot. Comparing keys is comparing
 *   (time, class, sequence), since a sequence is never shared (the slot
 *   bits below it never decide). So a comparison, a tie included, and a
 *   move of a node touch that one line and no second array.
 * - A pop walks the hole down asking, at each level, for all four lines of
 *   the grandchildren (256 contiguous bytes), so the next level's line is
 *   on its way one level early and two levels' misses overlap.
 * - Arrays from 2 MiB up are aligned to 2 MiB and ask for huge pages
 *   (madvise, Linux): past the caches every level is also a TLB miss on
 *   4 KiB pages.
 * - No heap positions are kept (they were a random write on every level
 *   of every pop). Cancelling or moving an event is lazy: the event's slot
 *   records its live word, a cancel clears it, and a move gives it a new
 *   word (a new sequence) and pushes a new node. A node whose word is not
 *   its slot's is stale; stale nodes are dropped when they reach the root
 *   (the root is always live), and when they outnumber the live ones by
 *   STALE_SLACK the heap is rebuilt without them (O(n); memory stays within
 *   about twice the live events). Live nodes keep their relative order, so
 *   the pop order is exactly (time, class, sequence) whatever stale ones do.
 * - The sequence has SEQ_BITS (30) bits in the word. When it runs out
 *   (every ~1e9 inserts) the pending events are renumbered 1..n in their
 *   order, which keeps every comparison between them and leaves room for
 *   the next; each slot also keeps the full 64-bit sequence for
 *   queue_pop()'s item. The slot has SLOT_BITS (26) bits: at most 2^26
 *   events pending at once.
 * - `slots` holds what each id carries, read once per pop (and asked for
 *   one pop early).
 * An id is (generation << 32 | slot + 1): a stale id from a popped event is
 * caught by the generation check instead of silently naming a reused slot.
 * The layout before (times in one array, slots in a second, tie orders in
 * a third, positions in a fourth) is kept in tests/unit/queue_ref.h, which
 * the tests compare pop sequences against and tests/bench/bench_queue.c
 * times beside this one.
 */
/* Bits of the sequence field; tests/unit/test_queue_seq.c builds this file
 * with 6, so that renumbering runs every few dozen inserts. */
#ifndef QUEUE_SEQ_BITS
#define QUEUE_SEQ_BITS 30
#endif
#define CLS_SHIFT 56
#define SEQ_BITS QUEUE_SEQ_BITS
#define SLOT_BITS (CLS_SHIFT - SEQ_BITS)
#define SLOT_MASK ((UINT64_C(1) << SLOT_BITS) - 1)
#define SEQ_END (UINT64_C(1) << SEQ_BITS)
#define SEQ_FIELD (((UINT64_C(1) << SEQ_BITS) - 1) << SLOT_BITS)
#define SLOT_FREE UINT32_MAX
#define ARITY 4
/* node 0 at HEAP_BASE puts each node's children on aligned lines */
#define HEAP_BASE (ARITY - 1)
/* Stale nodes allowed beyond the live count before a rebuild. */
#define STALE_SLACK 64

_Static_assert(SEQ_BITS >= 4 && SLOT_BITS >= 20, "word fields");

/*
 * A node is one 128-bit unsigned key: the time (its sign bit flipped, so
 * that unsigned order is signed order) in the high half, the word in the
 * low half. One unsigned comparison of keys is the whole (time, class,
 * sequence) order: two instructions, no branch, ties included.
 */
#ifndef __SIZEOF_INT128__
#error "sim/queue.c needs a compiler with unsigned __int128 (GCC, Clang on 64-bit targets)"
#endif
__extension__ typedef unsigned __int128 node;

#define TIME_FLIP (UINT64_C(1) << 63)

static inline node node_make(int64_t t, uint64_t w)
{
	return (node)((uint64_t)t ^ TIME_FLIP) << 64 | w;
}

static inline int64_t node_time(node x)
{
	return (int64_t)((uint64_t)(x >> 64) ^ TIME_FLIP);
}

static inline uint64_t node_word(node x)
{
	return (uint64_t)x;
}

struct slot {
	uint64_t w;     /* word of the live node; 0 when the slot is free */
	uint64_t seq;   /* full insertion sequence, for queue_pop()'s item */
	void *data;
	uint64_t arg;
	uint32_t gen;
	uint32_t next_free;
};

struct queue {
	node *heap;      /* aligned; node i at heap[i + HEAP_BASE] */
	size_t n, cap;          /* nodes, stale ones included */
	size_t live;            /* pending events */
	struct slot *slots;
	size_t nslots, slots_cap;
	uint32_t free_head;     /* SLOT_FREE when empty */
	uint64_t next_seq;      /* sequence field of the next word, < SEQ_END */
	uint64_t next_seq64;    /* full sequence of the next insert */
};

/* Huge pages, and their alignment, for arrays from this size up. */
#define HUGE_BYTES ((size_t)2 << 20)

/*
 * A new array of n elements of `size` bytes, 64-byte aligned; from
 * HUGE_BYTES up, aligned to and asking for huge pages, since past the
 * caches every level of a pop is a TLB miss as well on 4 KiB pages.
 * Caller frees.
 */
static void *big_array(size_t n, size_t size)
{
	size_t bytes = n * size;
	void *p;
	if (bytes < HUGE_BYTES)
		return xaligned(64, n, size);
	p = xaligned(HUGE_BYTES, n, size);
#ifdef MADV_HUGEPAGE
	(void)madvise(p, bytes / HUGE_BYTES * HUGE_BYTES, MADV_HUGEPAGE);  /* a hint */
#endif
	return p;
}

static void heap_grow(queue *q, size_t cap)
{
	node *h = big_array(cap + HEAP_BASE + ARITY, sizeof *h);
	if (q->heap != NULL) {
		memcpy(h + HEAP_BASE, q->heap + HEAP_BASE, q->n * sizeof *h);
		free(q->heap);
	}
	q->heap = h;
	q->cap = cap;
}

queue *queue_new(void)
{
	queue *q = xcalloc(1, sizeof *q);
	heap_grow(q, 64);
	q->slots_cap = 64;
	q->slots = big_array(q->slots_cap, sizeof *q->slots);
	q->free_head = SLOT_FREE;
	q->next_seq = 1;  /* so that no live word is 0 */
	return q;
}

void queue_free(queue *q)
{
	if (q == NULL)
		return;
	free(q->heap);
	free(q->slots);
	free(q);
}

/* Is node a before node b? */
static inline bool before(node a, node b)
{
	return a < b;
}

static void sift_up(node *h, size_t i, node x)
{
	while (i > 0) {
		size_t parent = (i - 1) / ARITY;
		if (!before(x, h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = x;
}

/* Sift x down from node i of a heap of n nodes (used only to rebuild). */
static void sift_down(node *h, size_t n, size_t i, node x)
{
	for (;;) {
		size_t c = ARITY * i + 1, best = c, end = c + ARITY < n ? c + ARITY : n;
		if (c >= n)
			break;
		for (size_t k = c + 1; k < end; k++)
			if (before(h[k], h[best]))
				best = k;
		if (!before(h[best], x))
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = x;
}

/* The least of four nodes from c: a small tournament without branches. */
static inline size_t min_of4(const node *h, size_t c)
{
	size_t a = c + before(h[c + 1], h[c]);
	size_t b = c + 2 + before(h[c + 3], h[c + 2]);
	return before(h[b], h[a]) ? b : a;
}

/*
 * Remove the root the bottom-up way (Floyd; Wegener's "bottom-up heapsort"):
 * walk the hole down along the smallest children to a leaf without comparing
 * against the element that will fill it, then sift that last element up from
 * the leaf. The last element usually belongs near the bottom, so this saves
 * about one comparison per level over a plain sift-down. This is the hot
 * loop of every simulation: one cache line per level.
 */
static void heap_pop_root(queue *q)
{
	node *h = q->heap + HEAP_BASE;
	size_t n = --q->n;
	node x = h[n];
	size_t i = 0;

	if (n == 0)
		return;
	for (;;) {
		size_t c = ARITY * i + 1, best;
		if (c + ARITY <= n) {
			/* Ask now for all four grandchild lines (the children of
			 * c .. c+3, 256 contiguous bytes): the next level's line
			 * then arrives while this level and the next are decided,
			 * so two levels' misses overlap instead of queueing. */
			size_t g = ARITY * c + 1;
			if (g + 12 < n) {
				__builtin_prefetch(&h[g]);
				__builtin_prefetch(&h[g + 4]);
				__builtin_prefetch(&h[g + 8]);
				__builtin_prefetch(&h[g + 12]);
			}
			best = min_of4(h, c);
		} else if (c < n) {
			best = c;
			for (size_t k = c + 1; k < n; k++)
				if (before(h[k], h[best]))
					best = k;
		} else {
			break;
		}
		h[i] = h[best];
		i = best;
	}
	sift_up(h, i, x);
}

static inline uint32_t node_slot(node x)
{
	return (uint32_t)(node_word(x) & SLOT_MASK);
}

static inline bool node_live(const queue *q, node x)
{
	return q->slots[node_slot(x)].w == node_word(x);
}

/* Drop stale nodes from the root, so that the root is live (or none is). */
static void drop_stale_roots(queue *q)
{
	if (q->live == 0) {
		q->n = 0;
		return;
	}
	while (q->n > q->live && !node_live(q, q->heap[HEAP_BASE]))
		heap_pop_root(q);
}

/* Rebuild the heap from its live nodes (Floyd's heap construction, O(n)). */
static void heap_rebuild(queue *q)
{
	node *h = q->heap + HEAP_BASE;
	size_t m = 0;
	for (size_t i = 0; i < q->n; i++)
		if (node_live(q, h[i]))
			h[m++] = h[i];
	assert(m == q->live);
	q->n = m;
	for (size_t i = m / ARITY + 1; i-- > 0;)
		if (i < m)
			sift_down(h, m, i, h[i]);
}

/* After a cancel or a move: keep the root live and the stale nodes few. */
static void after_unlink(queue *q)
{
	if (q->n - q->live > q->live + STALE_SLACK)
		heap_rebuild(q);
	else
		drop_stale_roots(q);
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return a < b ? -1 : a > b;
}

/*
 * The sequence field ran out: number the pending events 1..n in their
 * (class, sequence) order. A monotone renumbering keeps every comparison
 * between them, so the heap stays a heap.
 */
static void renumber(queue *q)
{
	node *h = q->heap + HEAP_BASE;
	uint64_t *rank;

	heap_rebuild(q);
	assert(q->n + 1 < SEQ_END);
	rank = xreallocarray(NULL, q->n ? q->n : 1, sizeof *rank);
	for (size_t i = 0; i < q->n; i++)  /* (sequence, node index) */
		rank[i] = ((node_word(h[i]) & SEQ_FIELD) >> SLOT_BITS) << 32 | i;
	qsort(rank, q->n, sizeof *rank, cmp_u64);
	for (size_t r = 0; r < q->n; r++) {
		node *x = &h[rank[r] & 0xffffffffu];
		uint64_t w = (node_word(*x) & ~SEQ_FIELD) | (uint64_t)(r + 1) << SLOT_BITS;
		*x = node_make(node_time(*x), w);
		q->slots[node_slot(*x)].w = w;
	}
	q->next_seq = q->n + 1;
	free(rank);
}

/* A new word for slot s in class cls: the next sequence. */
static inline uint64_t next_word(queue *q, unsigned cls, uint32_t s)
{
	assert(cls <= QUEUE_CLASS_MAX);
	if (q->next_seq == SEQ_END)
		renumber(q);
	q->slots[s].seq = q->next_seq64++;
	return (uint64_t)cls << CLS_SHIFT | q->next_seq++ << SLOT_BITS | s;
}

static uint32_t slot_alloc(queue *q)
{
	uint32_t s;
	if (q->free_head != SLOT_FREE) {
		s = q->free_head;
		q->free_head = q->slots[s].next_free;
		return s;
	}
	if (q->nslots == q->slots_cap) {
		assert(q->slots_cap <= SLOT_MASK);
		q->slots_cap = xgrow_cap(q->slots_cap, q->nslots + 1, 64);
		if (q->slots_cap > SLOT_MASK + 1)
			q->slots_cap = SLOT_MASK + 1;
		struct slot *grown = big_array(q->slots_cap, sizeof *grown);
		memcpy(grown, q->slots, q->nslots * sizeof *grown);
		free(q->slots);
		q->slots = grown;
	}
	s = (uint32_t)q->nslots++;
	q->slots[s].gen = 0;
	q->slots[s].w = 0;
	return s;
}

static void slot_release(queue *q, uint32_t s)
{
	q->slots[s].w = 0;
	q->slots[s].gen++;
	q->slots[s].next_free = q->free_head;
	q->free_head = s;
}

static inline queue_id make_id(const queue *q, uint32_t s)
{
	return ((uint64_t)q->slots[s].gen << 32) | ((uint64_t)s + 1);
}

/* Slot of a live id; asserts it is live. */
static inline uint32_t id_slot(const queue *q, queue_id id)
{
	uint32_t s = (uint32_t)(id & 0xffffffffu) - 1;
	assert(id != QUEUE_ID_NONE && s < q->nslots);
	assert(q->slots[s].w != 0 && q->slots[s].gen == (uint32_t)(id >> 32));
	return s;
}

/* Push node (t, w) for slot s, whose w is set. */
static void heap_push(queue *q, int64_t time_ns, uint64_t w)
{
	if (q->n == q->cap)
		heap_grow(q, xgrow_cap(q->cap, q->n + 1, 64));
	q->n++;
	sift_up(q->heap + HEAP_BASE, q->n - 1, node_make(time_ns, w));
}

queue_id queue_push(queue *q, int64_t time_ns, unsigned cls, void *data, uint64_t arg)
{
	uint32_t s = slot_alloc(q);
	uint64_t w = next_word(q, cls, s);

	q->slots[s].w = w;
	q->slots[s].data = data;
	q->slots[s].arg = arg;
	q->live++;
	heap_push(q, time_ns, w);
	return make_id(q, s);
}

bool queue_pop(queue *q, struct queue_item *out)
{
	node root;
	struct slot *sl;
	uint32_t s;

	if (q->live == 0)
		return false;
	root = q->heap[HEAP_BASE];
	s = node_slot(root);
	sl = &q->slots[s];
	assert(sl->w == node_word(root));
	out->time_ns = node_time(root);
	out->cls = (unsigned)(node_word(root) >> CLS_SHIFT);
	out->seq = sl->seq;
	out->id = make_id(q, s);
	out->data = sl->data;
	out->arg = sl->arg;
	heap_pop_root(q);
	q->live--;
	slot_release(q, s);
	if (q->n != q->live)  /* stale nodes exist only after a cancel or move */
		drop_stale_roots(q);
	if (q->n > 0)  /* the next pop reads the new root's slot */
		__builtin_prefetch(&q->slots[node_slot(q->heap[HEAP_BASE])]);
	return true;
}

bool queue_peek_time(const queue *q, int64_t *time_ns)
{
	if (q->live == 0)
		return false;
	*time_ns = node_time(q->heap[HEAP_BASE]);
	return true;
}

bool queue_contains(const queue *q, queue_id id)
{
	uint32_t s = (uint32_t)(id & 0xffffffffu) - 1;
	if (id == QUEUE_ID_NONE || s >= q->nslots)
		return false;
	return q->slots[s].w != 0 && q->slots[s].gen == (uint32_t)(id >> 32);
}

void queue_move(queue *q, queue_id id, int64_t time_ns)
{
	uint32_t s = id_slot(q, id);
	unsigned cls = (unsigned)(q->slots[s].w >> CLS_SHIFT);
	uint64_t w = next_word(q, cls, s);

	/* the old node goes stale; the new one counts as a new insertion */
	q->slots[s].w = w;
	heap_push(q, time_ns, w);
	after_unlink(q);
}

void queue_cancel(queue *q, queue_id id)
{
	uint32_t s = id_slot(q, id);
	slot_release(q, s);
	q->live--;
	after_unlink(q);
}

size_t queue_size(const queue *q)
{
	return q->live;
}
