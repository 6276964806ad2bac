#include "flow.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/time.h"
#include "util/container.h"
#include "util/heap.h"
#include "util/xalloc.h"

/*
 * Memory layout, chosen for the solver: what progressive filling reads of a
 * flow (its path, weight, new rate, marks) sits in a 64-byte `fl_hot`
 * record, one cache line per flow; the rest (progress, completion event,
 * callback) is in `fl_cold`. Bytes carried by a link are not updated as
 * flows progress: a link keeps the bytes of its finished flows, and its
 * active flows' progress is added when asked (flow_link_bytes), so
 * bringing a flow up to date touches nothing but the flow.
 */
struct fl_link {
	double cap;
	double rem;        /* solver scratch: capacity not yet given out */
	double wsum;       /* solver scratch: weight of unfixed flows */
	uint32_t *flows;   /* slots of the active flows on this link */
	uint32_t n, capn;
	uint32_t unfixed;  /* solver scratch */
	uint32_t stamp;
	double carried_done;  /* bytes of finished flows */
	double wtotal;        /* weight of the active flows on this link */
	bool seed;
};

struct fl_hot {
	flow_link links[FLOW_PATH_MAX];
	double weight;
	double rate;
	double new_rate;
	uint32_t stamp;
	uint8_t n_links;
	uint8_t fixed;
};

_Static_assert(sizeof(struct fl_hot) == 64, "a hot flow record fills one cache line");

struct fl_cold {
	uint32_t idx[FLOW_PATH_MAX];  /* position in each link's flow list */
	double remaining;
	double bytes;
	int64_t t_last_ns;
	queue_id ev;
	struct engine_handler *done;
	uint64_t arg;
	int64_t latency_ns;
	uint32_t gen;
	uint32_t next_free;
	bool active;
};

struct heap_entry {
	double share;
	uint32_t link;
};

struct flow_net {
	struct engine_handler on_complete;  /* first member: recovers the flow_net */
	struct engine_handler on_resolve;
	bool resolve_pending;
	engine *e;
	struct fl_link *links;
	size_t nlinks, cap_links;
	struct fl_hot *hot;
	struct fl_cold *cold;
	size_t nflows, cap_flows;
	uint32_t free_head;
	size_t active;
	uint32_t stamp;
	double delivered;
	int batch_depth;
	/* scratch arrays reused across solves */
	uint32_t *comp_links, *comp_flows, *seeds;
	size_t cap_comp_links, cap_comp_flows, nseeds, cap_seeds;
	struct heap_entry *heap;
	size_t nheap, cap_heap;
};

#define NO_SLOT UINT32_MAX

static void complete_flow(engine *e, struct engine_handler *h, uint64_t arg);
static void resolve_now(engine *e, struct engine_handler *h, uint64_t arg);

flow_net *flow_new(engine *e)
{
	flow_net *n = xcalloc(1, sizeof *n);
	n->on_complete.fn = complete_flow;
	n->on_resolve.fn = resolve_now;
	n->e = e;
	n->free_head = NO_SLOT;
	return n;
}

void flow_free(flow_net *n)
{
	if (n == NULL)
		return;
	for (size_t i = 0; i < n->nlinks; i++)
		free(n->links[i].flows);
	free(n->links);
	free(n->hot);
	free(n->cold);
	free(n->comp_links);
	free(n->comp_flows);
	free(n->seeds);
	free(n->heap);
	free(n);
}

flow_link flow_add_link(flow_net *n, double capacity)
{
	assert(capacity > 0 && isfinite(capacity));
	n->links = xgrow(n->links, &n->cap_links, n->nlinks + 1, sizeof *n->links, 64);
	struct fl_link *l = &n->links[n->nlinks];
	memset(l, 0, sizeof *l);
	l->cap = capacity;
	return (flow_link)n->nlinks++;
}

size_t flow_link_count(const flow_net *n)
{
	return n->nlinks;
}

double flow_link_capacity(const flow_net *n, flow_link l)
{
	assert(l < n->nlinks);
	return n->links[l].cap;
}

size_t flow_active(const flow_net *n)
{
	return n->active;
}

double flow_delivered_bytes(const flow_net *n)
{
	return n->delivered;
}

static const struct fl_cold *flow_of(const flow_net *n, flow_id id)
{
	uint32_t slot = (uint32_t)(id & 0xffffffffu) - 1;
	if (id == 0 || slot >= n->nflows)
		return NULL;
	const struct fl_cold *c = &n->cold[slot];
	if (!c->active || c->gen != (uint32_t)(id >> 32))
		return NULL;
	return c;
}

double flow_rate(const flow_net *n, flow_id id)
{
	const struct fl_cold *c = flow_of(n, id);
	return c ? n->hot[c - n->cold].rate : 0.0;
}

/* Bring a flow's remaining bytes up to now at its current rate. */
static void advance(flow_net *n, uint32_t slot)
{
	struct fl_cold *c = &n->cold[slot];
	double rate = n->hot[slot].rate;
	int64_t now = engine_now(n->e);
	if (now > c->t_last_ns && rate > 0) {
		double moved = rate * sim_time_to_s(now - c->t_last_ns);
		c->remaining = moved >= c->remaining ? 0 : c->remaining - moved;
	}
	c->t_last_ns = now;
}

double flow_link_bytes(flow_net *n, flow_link l)
{
	assert(l < n->nlinks);
	struct fl_link *lk = &n->links[l];
	double sum = lk->carried_done;
	for (uint32_t i = 0; i < lk->n; i++) {
		struct fl_cold *c = &n->cold[lk->flows[i]];
		advance(n, lk->flows[i]);
		sum += c->bytes - c->remaining;
	}
	return sum;
}

/* ---- the min-heap of link shares used by progressive filling ----------- */

static bool share_before(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return ((const struct heap_entry *)a)->share < ((const struct heap_entry *)b)->share;
}

/* A 4-ary heap: its nodes' children share a cache line or two. */
static const struct heap_ops share_heap = { .size = sizeof(struct heap_entry), .arity = 4, .before = share_before };

/* ---- solving ------------------------------------------------------------ */

/* Move a flow's completion event to match its (new) rate. */
static void reschedule(flow_net *n, struct fl_cold *c, uint32_t slot, double rate)
{
	int64_t now = engine_now(n->e);
	if (rate <= 0) {
		if (c->ev != QUEUE_ID_NONE) {
			engine_cancel(n->e, c->ev);
			c->ev = QUEUE_ID_NONE;
		}
		return;
	}
	int64_t t = now + sim_time_from_s(c->remaining / rate);
	if (t < now) /* saturated */
		t = SIM_TIME_MAX;
	if (c->ev != QUEUE_ID_NONE)
		engine_move(n->e, c->ev, t);
	else
		c->ev = engine_at(n->e, t, ENGINE_CLASS_WORK, &n->on_complete, slot);
}

/* The component being re-solved: its links are n->comp_links[0..n_links),
 * its flows n->comp_flows[0..n_flows). */
struct component {
	size_t n_links, n_flows;
};

/* The stamp that marks what this solve has gathered; when the counter wraps,
 * every stamp is cleared first so no old mark reads as current. */
static uint32_t next_stamp(flow_net *n)
{
	uint32_t stamp = ++n->stamp;
	if (stamp == 0) {
		for (size_t i = 0; i < n->nlinks; i++)
			n->links[i].stamp = 0;
		for (size_t i = 0; i < n->nflows; i++)
			n->hot[i].stamp = 0;
		stamp = n->stamp = 1;
	}
	return stamp;
}

/* Every link is a seed: the component is every link and every active flow. */
static struct component component_all(flow_net *n)
{
	struct component cc = { 0, 0 };
	for (size_t l = 0; l < n->nlinks; l++) {
		n->links[l].seed = false;
		n->comp_links[cc.n_links++] = (uint32_t)l;
	}
	for (size_t f = 0; f < n->nflows; f++) {
		if (n->cold[f].active) {
			n->hot[f].fixed = 0;
			n->comp_flows[cc.n_flows++] = (uint32_t)f;
		}
	}
	n->nseeds = 0;
	return cc;
}

/* Add flow fs to the component unless it is there, with the links of its
 * path not seen yet (they join the breadth-first queue). */
static void take_flow(flow_net *n, uint32_t fs, uint32_t stamp, struct component *cc)
{
	struct fl_hot *f = &n->hot[fs];
	if (f->stamp == stamp)
		return;
	f->stamp = stamp;
	f->fixed = 0;
	n->comp_flows[cc->n_flows++] = fs;
	for (int k = 0; k < f->n_links; k++) {
		uint32_t l2 = f->links[k];
		if (n->links[l2].stamp != stamp) {
			n->links[l2].stamp = stamp;
			n->comp_links[cc->n_links++] = l2;
		}
	}
}

/* Breadth-first from the seed links over the flows on each link and the
 * links of those flows. */
static struct component component_from_seeds(flow_net *n, uint32_t stamp)
{
	struct component cc = { 0, 0 };
	size_t head = 0;
	for (size_t s = 0; s < n->nseeds; s++) {
		uint32_t l = n->seeds[s];
		n->links[l].seed = false;
		if (n->links[l].stamp == stamp)
			continue;
		n->links[l].stamp = stamp;
		n->comp_links[cc.n_links++] = l;
	}
	n->nseeds = 0;
	while (head < cc.n_links) {
		const struct fl_link *lk = &n->links[n->comp_links[head++]];
		for (uint32_t i = 0; i < lk->n; i++)
			take_flow(n, lk->flows[i], stamp, &cc);
	}
	return cc;
}

/* The part of the flow/link graph the seed links touch; clears the seeds.
 * Its flows are marked unfixed. */
static struct component collect_component(flow_net *n)
{
	uint32_t stamp = next_stamp(n);
	n->comp_links = xgrow(n->comp_links, &n->cap_comp_links, n->nlinks, sizeof *n->comp_links, 64);
	n->comp_flows = xgrow(n->comp_flows, &n->cap_comp_flows, n->nflows, sizeof *n->comp_flows, 64);
	if (n->nseeds == n->nlinks)
		return component_all(n);
	return component_from_seeds(n, stamp);
}

/* Give each component link its whole capacity and all its flows' weight
 * again, and heap the links that carry flows by their share. */
static void heap_build(flow_net *n, size_t n_links)
{
	if (n->cap_heap < n_links) {
		n->cap_heap = n_links;
		n->heap = xreallocarray(n->heap, n->cap_heap, sizeof *n->heap);
	}
	n->nheap = 0;
	for (size_t i = 0; i < n_links; i++) {
		struct fl_link *lk = &n->links[n->comp_links[i]];
		lk->rem = lk->cap;
		lk->wsum = lk->wtotal;
		lk->unfixed = lk->n;
		if (lk->n > 0) {
			n->heap[n->nheap].share = lk->rem / lk->wsum;
			n->heap[n->nheap].link = n->comp_links[i];
			n->nheap++;
		}
	}
	heap_make(&share_heap, n->heap, n->nheap, NULL);
}

/* Take the smallest entry off the heap. */
static void pop_share(flow_net *n)
{
	heap_remove(&share_heap, n->heap, &n->nheap, 0, NULL);
}

/* A link's fair share now (capacity left over the weight of its unfixed
 * flows), never below key_share, the level fixed so far. */
static double link_share(const struct fl_link *lk, double key_share)
{
	double rem = lk->rem > 0 ? lk->rem : 0;
	double share = lk->wsum > 0 ? rem / lk->wsum : key_share;
	if (share < key_share)
		share = key_share;  /* rounding */
	return share;
}

/* Fix the unfixed flows of lk at share x weight, taking their rate and
 * weight off every link they cross. */
static void fix_flows_of(flow_net *n, const struct fl_link *lk, double share)
{
	for (uint32_t k = 0; k < lk->n; k++) {
		struct fl_hot *f = &n->hot[lk->flows[k]];
		if (f->fixed)
			continue;
		f->fixed = 1;
		f->new_rate = share * f->weight;
		for (int j = 0; j < f->n_links; j++) {
			struct fl_link *o = &n->links[f->links[j]];
			o->rem -= f->new_rate;
			o->wsum -= f->weight;
			o->unfixed--;
		}
	}
}

/*
 * Progressive filling over the heaped links, setting new_rate of every
 * component flow. Shares only grow as flows are fixed (a link that loses a
 * flow fixed at level x had share >= x, so its new share is >= its old
 * one). So a link's key in the heap, set when it was last looked at, is a
 * lower bound of its true share: when the smallest key turns out stale it
 * is raised in place and sifted down; when it is current it is the true
 * minimum, and its unfixed flows are fixed at that share. Each link is in
 * the heap once, so the heap stays small and in cache.
 */
static void progressive_fill(flow_net *n)
{
	while (n->nheap > 0) {
		struct heap_entry *top = &n->heap[0];
		const struct fl_link *lk = &n->links[top->link];
		if (lk->unfixed == 0) {
			pop_share(n);  /* all its flows were fixed elsewhere */
			continue;
		}
		double share = link_share(lk, top->share);
		if (share > top->share * (1 + 1e-12)) {
			top->share = share;  /* stale key: raise it and look again */
			heap_sift_down(&share_heap, n->heap, n->nheap, 0, NULL);
			continue;
		}
		fix_flows_of(n, lk, share);
		pop_share(n);
	}
}

/* Flows whose rate changed: progress at the old rate up to now, then move
 * their completion to match the new rate. */
static void apply_rates(flow_net *n, size_t n_flows)
{
	for (size_t i = 0; i < n_flows; i++) {
		uint32_t slot = n->comp_flows[i];
		struct fl_hot *h = &n->hot[slot];
		if (h->new_rate != h->rate || h->rate == 0) {
			struct fl_cold *c = &n->cold[slot];
			advance(n, slot);
			h->rate = h->new_rate;
			reschedule(n, c, slot, h->rate);
		}
	}
}

/* Weighted max-min rates for the component reachable from the seed links
 * (then cleared); flows whose rate changes have their completion moved. */
static void solve_from_seeds(flow_net *n)
{
	struct component cc = collect_component(n);
	heap_build(n, cc.n_links);
	progressive_fill(n);
	apply_rates(n, cc.n_flows);
}

static void add_seeds(flow_net *n, const struct fl_hot *f)
{
	n->seeds = xgrow(n->seeds, &n->cap_seeds, n->nseeds + (size_t)f->n_links, sizeof *n->seeds, 64);
	for (int k = 0; k < f->n_links; k++) {
		struct fl_link *lk = &n->links[f->links[k]];
		if (!lk->seed) {
			lk->seed = true;
			n->seeds[n->nseeds++] = f->links[k];
		}
	}
}

void flow_batch_begin(flow_net *n)
{
	n->batch_depth++;
}

void flow_batch_end(flow_net *n)
{
	assert(n->batch_depth > 0);
	if (--n->batch_depth == 0 && n->nseeds > 0)
		solve_from_seeds(n);
}

void flow_resolve_all(flow_net *n)
{
	n->seeds = xgrow(n->seeds, &n->cap_seeds, n->nlinks, sizeof *n->seeds, 64);
	n->nseeds = 0;
	for (size_t l = 0; l < n->nlinks; l++) {
		n->links[l].seed = true;
		n->seeds[n->nseeds++] = (uint32_t)l;
	}
	solve_from_seeds(n);
}

/* Hot records are 64 bytes: allocate them on 64-byte boundaries so each
 * sits in exactly one cache line. */
static struct fl_hot *hot_grow(struct fl_hot *old, size_t used, size_t cap)
{
	struct fl_hot *h = xaligned(64, cap, sizeof *h);
	if (old != NULL)
		memcpy(h, old, used * sizeof *h);
	free(old);
	return h;
}

flow_id flow_start(flow_net *n, const flow_link *path, int path_len, double bytes,
		      double weight, int64_t latency_ns, struct engine_handler *done, uint64_t arg)
{
	uint32_t slot;
	struct fl_hot *h;
	struct fl_cold *c;

	assert(path_len >= 1 && path_len <= FLOW_PATH_MAX);
	assert(bytes >= 0 && isfinite(bytes) && weight > 0 && latency_ns >= 0);
	if (n->free_head != NO_SLOT) {
		slot = n->free_head;
		n->free_head = n->cold[slot].next_free;
	} else {
		if (n->nflows == n->cap_flows) {
			n->cap_flows = xgrow_cap(n->cap_flows, n->nflows + 1, 256);
			n->hot = hot_grow(n->hot, n->nflows, n->cap_flows);
			n->cold = xreallocarray(n->cold, n->cap_flows, sizeof *n->cold);
		}
		slot = (uint32_t)n->nflows++;
		n->cold[slot].gen = 0;
		n->hot[slot].stamp = 0;
	}
	h = &n->hot[slot];
	c = &n->cold[slot];
	h->n_links = (uint8_t)path_len;
	h->weight = weight;
	h->rate = 0;
	h->new_rate = 0;
	h->fixed = 0;
	c->remaining = bytes;
	c->bytes = bytes;
	c->t_last_ns = engine_now(n->e);
	c->ev = QUEUE_ID_NONE;
	c->done = done;
	c->arg = arg;
	c->latency_ns = latency_ns;
	c->active = true;
	for (int k = 0; k < path_len; k++) {
		struct fl_link *lk;
		assert(path[k] < n->nlinks);
		for (int j = 0; j < k; j++)
			assert(path[j] != path[k]);
		lk = &n->links[path[k]];
		if (lk->n == lk->capn) {
			lk->capn = (uint32_t)xgrow_cap(lk->capn, (size_t)lk->n + 1, 8);
			lk->flows = xreallocarray(lk->flows, lk->capn, sizeof *lk->flows);
		}
		h->links[k] = path[k];
		c->idx[k] = lk->n;
		lk->flows[lk->n++] = slot;
		lk->wtotal += weight;
	}
	n->active++;
	add_seeds(n, h);
	if (n->batch_depth == 0)
		solve_from_seeds(n);
	return ((uint64_t)c->gen << 32) | ((uint64_t)slot + 1);
}

/* Take a flow off its links (swap-remove, fixing the moved flow's index). */
static void unlink_flow(flow_net *n, uint32_t slot)
{
	const struct fl_hot *h = &n->hot[slot];
	const struct fl_cold *c = &n->cold[slot];
	for (int k = 0; k < h->n_links; k++) {
		struct fl_link *lk = &n->links[h->links[k]];
		uint32_t at = c->idx[k];
		uint32_t moved = lk->flows[--lk->n];
		lk->carried_done += c->bytes;
		/* recomputed from scratch when the link empties: no drift */
		lk->wtotal = lk->n == 0 ? 0 : lk->wtotal - h->weight;
		if (at != lk->n) {
			const struct fl_hot *mh = &n->hot[moved];
			lk->flows[at] = moved;
			for (int j = 0; j < mh->n_links; j++) {
				if (mh->links[j] == h->links[k]) {
					n->cold[moved].idx[j] = at;
					break;
				}
			}
		}
	}
}

static void complete_flow(engine *e, struct engine_handler *h, uint64_t arg)
{
	flow_net *n = container_of(h, struct flow_net, on_complete);
	uint32_t slot = (uint32_t)arg;
	struct fl_cold *c = &n->cold[slot];

	(void)e;
	assert(c->active);
	/* The event was set for when the last byte leaves; what is left is
	 * rounding (the completion time was rounded up to a nanosecond). */
	c->remaining = 0;
	c->ev = QUEUE_ID_NONE;
	n->delivered += c->bytes;
	unlink_flow(n, slot);
	c->active = false;
	n->hot[slot].rate = 0;
	n->active--;
	add_seeds(n, &n->hot[slot]);
	struct engine_handler *done = c->done;
	uint64_t user_arg = c->arg;
	int64_t lat = c->latency_ns;
	c->gen++;
	c->next_free = n->free_head;
	n->free_head = slot;
	/* Flows of a symmetric collective end at the same instant: re-solve once
	 * after all of them (the event queues behind the completions already
	 * due now, and before callbacks, which are in a later class). */
	if (n->batch_depth == 0 && !n->resolve_pending) {
		n->resolve_pending = true;
		engine_after(n->e, 0, ENGINE_CLASS_WORK, &n->on_resolve, 0);
	}
	if (done != NULL)
		engine_after(n->e, lat, ENGINE_CLASS_DELIVERY, done, user_arg);
}

static void resolve_now(engine *e, struct engine_handler *h, uint64_t arg)
{
	flow_net *n = container_of(h, struct flow_net, on_resolve);
	(void)e;
	(void)arg;
	n->resolve_pending = false;
	if (n->nseeds > 0)
		solve_from_seeds(n);
}
