#include "queue.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/*
 * Layout, chosen for the cache:
 * - `key` holds (time, order) in 16 bytes per node; node i lives at key[i + 3]
 *   in a 64-byte-aligned array, so the four children of any node (4i+1 ..
 *   4i+4) share one cache line and a sift step reads one line.
 * - `hslot` (parallel to `key`) names the id slot of each node.
 * - `pos` gives each slot's heap index, kept apart from the payload so the
 *   writes made while sifting stay in cache.
 * - `slots` holds what each id carries.
 * An id is (generation << 32 | slot + 1): a stale id from a popped event is
 * caught by the generation check instead of silently naming a reused slot.
 */
struct heap_key {
	int64_t time_ns;
	uint64_t order;   /* class << 56 | sequence */
};

struct slot {
	uint32_t gen;
	uint32_t next_free;
	void *data;
	uint64_t arg;
};

#define SLOT_FREE UINT32_MAX
#define SEQ_BITS 56
#define SEQ_MASK ((UINT64_C(1) << SEQ_BITS) - 1)
#define HEAP_BASE 3

struct queue {
	struct heap_key *key;   /* aligned; node i at key[i + HEAP_BASE] */
	uint32_t *hslot;        /* node i at hslot[i + HEAP_BASE] */
	size_t n, cap;
	uint32_t *pos;          /* heap index of each slot, or SLOT_FREE */
	struct slot *slots;
	size_t nslots, slots_cap;
	uint32_t free_head;     /* SLOT_FREE when empty */
	uint64_t next_seq;
};

static void heap_grow(queue *q, size_t cap)
{
	struct heap_key *k = xaligned(64, cap + HEAP_BASE, sizeof *k);
	if (q->key != NULL) {
		memcpy(k, q->key, (q->n + HEAP_BASE) * sizeof *k);
		free(q->key);
	}
	q->key = k;
	q->hslot = xreallocarray(q->hslot, cap + HEAP_BASE, sizeof *q->hslot);
	q->cap = cap;
}

queue *queue_new(void)
{
	queue *q = xcalloc(1, sizeof *q);
	heap_grow(q, 64);
	q->slots_cap = 64;
	q->slots = xreallocarray(NULL, q->slots_cap, sizeof *q->slots);
	q->pos = xreallocarray(NULL, q->slots_cap, sizeof *q->pos);
	q->free_head = SLOT_FREE;
	return q;
}

void queue_free(queue *q)
{
	if (q == NULL)
		return;
	free(q->key);
	free(q->hslot);
	free(q->slots);
	free(q->pos);
	free(q);
}

/* Lexicographic (time, order) without branches: sift steps compare random
 * keys, where a mispredicted branch costs more than the arithmetic. */
static inline bool key_less(const struct heap_key *a, const struct heap_key *b)
{
	if (a->time_ns != b->time_ns)
		return a->time_ns < b->time_ns;
	return a->order < b->order;
}

#define KEY(q, i) (&(q)->key[(i) + HEAP_BASE])

static inline void heap_place(queue *q, size_t i, struct heap_key k, uint32_t slot)
{
	*KEY(q, i) = k;
	q->hslot[i + HEAP_BASE] = slot;
	q->pos[slot] = (uint32_t)i;
}

static inline void heap_copy(queue *q, size_t to, size_t from)
{
	heap_place(q, to, *KEY(q, from), q->hslot[from + HEAP_BASE]);
}

static void sift_up(queue *q, size_t i, struct heap_key k, uint32_t slot)
{
	struct heap_key *kb = q->key + HEAP_BASE;
	uint32_t *hs = q->hslot + HEAP_BASE;
	uint32_t *pos = q->pos;
	while (i > 0) {
		size_t parent = (i - 1) >> 2;
		if (!key_less(&k, &kb[parent]))
			break;
		kb[i] = kb[parent];
		hs[i] = hs[parent];
		pos[hs[i]] = (uint32_t)i;
		i = parent;
	}
	kb[i] = k;
	hs[i] = slot;
	pos[slot] = (uint32_t)i;
}

/* Index of the smallest child of i, or 0 when i is a leaf. */
static inline size_t min_child(const queue *q, size_t i)
{
	size_t first = 4 * i + 1, best, end;
	if (first >= q->n)
		return 0;
	if (first + 4 <= q->n) {
		/* All four children: a tournament of selects. */
		size_t a = first + key_less(KEY(q, first + 1), KEY(q, first));
		size_t b = first + 2 + key_less(KEY(q, first + 3), KEY(q, first + 2));
		return key_less(KEY(q, b), KEY(q, a)) ? b : a;
	}
	best = first;
	end = first + 4 < q->n ? first + 4 : q->n;
	for (size_t c = first + 1; c < end; c++)
		if (key_less(KEY(q, c), KEY(q, best)))
			best = c;
	return best;
}

static void sift_down(queue *q, size_t i, struct heap_key k, uint32_t slot)
{
	size_t best;
	while ((best = min_child(q, i)) != 0 && key_less(KEY(q, best), &k)) {
		heap_copy(q, i, best);
		i = best;
	}
	heap_place(q, i, k, slot);
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
		assert(q->slots_cap < UINT32_MAX / 2);
		q->slots_cap *= 2;
		q->slots = xreallocarray(q->slots, q->slots_cap, sizeof *q->slots);
		q->pos = xreallocarray(q->pos, q->slots_cap, sizeof *q->pos);
	}
	s = (uint32_t)q->nslots++;
	q->slots[s].gen = 0;
	return s;
}

static void slot_release(queue *q, uint32_t s)
{
	q->pos[s] = SLOT_FREE;
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
	assert(q->pos[s] != SLOT_FREE && q->slots[s].gen == (uint32_t)(id >> 32));
	return s;
}

static inline uint64_t next_order(queue *q, unsigned cls)
{
	assert(cls <= QUEUE_CLASS_MAX);
	assert(q->next_seq < SEQ_MASK);
	return ((uint64_t)cls << SEQ_BITS) | q->next_seq++;
}

queue_id queue_push(queue *q, int64_t time_ns, unsigned cls, void *data, uint64_t arg)
{
	uint32_t s = slot_alloc(q);
	struct heap_key k = { .time_ns = time_ns, .order = next_order(q, cls) };

	q->slots[s].data = data;
	q->slots[s].arg = arg;
	if (q->n == q->cap)
		heap_grow(q, 2 * q->cap);
	q->n++;
	sift_up(q, q->n - 1, k, s);
	return make_id(q, s);
}

/* Take the node at heap index i out of the heap. */
static void heap_remove_at(queue *q, size_t i)
{
	size_t last = --q->n;
	struct heap_key k = *KEY(q, last);
	uint32_t slot = q->hslot[last + HEAP_BASE];
	if (i == last)
		return;
	if (i > 0 && key_less(&k, KEY(q, (i - 1) >> 2)))
		sift_up(q, i, k, slot);
	else
		sift_down(q, i, k, slot);
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
static void heap_pop_root(queue *q)
{
	size_t n = --q->n;
	struct heap_key *kb = q->key + HEAP_BASE;
	uint32_t *hs = q->hslot + HEAP_BASE;
	uint32_t *pos = q->pos;
	struct heap_key k = kb[n];
	uint32_t slot = hs[n];
	size_t i = 0;

	if (n == 0)
		return;
	for (;;) {
		size_t c = 4 * i + 1, best;
		if (c + 4 <= n) {
			/* all four children: a small tournament */
			size_t a = key_less(&kb[c + 1], &kb[c]) ? c + 1 : c;
			size_t b = key_less(&kb[c + 3], &kb[c + 2]) ? c + 3 : c + 2;
			best = key_less(&kb[b], &kb[a]) ? b : a;
			/* ask for the grandchildren's line now: memory works while we copy */
			if (4 * best + 1 < n)
				__builtin_prefetch(&kb[4 * best + 1]);
		} else if (c < n) {
			best = c;
			for (size_t x = c + 1; x < n; x++)
				if (key_less(&kb[x], &kb[best]))
					best = x;
		} else {
			break;
		}
		kb[i] = kb[best];
		hs[i] = hs[best];
		pos[hs[i]] = (uint32_t)i;
		i = best;
	}
	sift_up(q, i, k, slot);
}

bool queue_pop(queue *q, struct queue_item *out)
{
	struct heap_key top;
	uint32_t s;

	if (q->n == 0)
		return false;
	top = *KEY(q, 0);
	s = q->hslot[HEAP_BASE];
	__builtin_prefetch(&q->slots[s]);
	out->time_ns = top.time_ns;
	out->cls = (unsigned)(top.order >> SEQ_BITS);
	out->seq = top.order & SEQ_MASK;
	out->id = make_id(q, s);
	out->data = q->slots[s].data;
	out->arg = q->slots[s].arg;
	heap_pop_root(q);
	slot_release(q, s);
	return true;
}

bool queue_peek_time(const queue *q, int64_t *time_ns)
{
	if (q->n == 0)
		return false;
	*time_ns = KEY(q, 0)->time_ns;
	return true;
}

bool queue_contains(const queue *q, queue_id id)
{
	uint32_t s = (uint32_t)(id & 0xffffffffu) - 1;
	if (id == QUEUE_ID_NONE || s >= q->nslots)
		return false;
	return q->pos[s] != SLOT_FREE && q->slots[s].gen == (uint32_t)(id >> 32);
}

void queue_move(queue *q, queue_id id, int64_t time_ns)
{
	uint32_t s = id_slot(q, id);
	size_t i = q->pos[s];
	unsigned cls = (unsigned)(KEY(q, i)->order >> SEQ_BITS);
	struct heap_key k = { .time_ns = time_ns, .order = next_order(q, cls) };

	/* The new key may be smaller (earlier time) or larger (later time, or the
	 * same time with a newer sequence): try up first, then down. */
	if (i > 0 && key_less(&k, KEY(q, (i - 1) >> 2)))
		sift_up(q, i, k, s);
	else
		sift_down(q, i, k, s);
}

void queue_cancel(queue *q, queue_id id)
{
	uint32_t s = id_slot(q, id);
	heap_remove_at(q, q->pos[s]);
	slot_release(q, s);
}

size_t queue_size(const queue *q)
{
	return q->n;
}
