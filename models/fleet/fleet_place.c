#include "fleet_place.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static int key_of(const struct fleet_place *p, int node)
{
	return p->usable[node] ? p->free[node] + 1 : 0;
}

/* Move node one key up or down: it swaps with the element at the segment
 * border it crosses, and that border moves past it. */
static void key_up(struct fleet_place *p, int node, int k)
{
	int last = p->start[k + 1] - 1, other = p->order[last], at = p->pos[node];
	p->order[at] = other;
	p->pos[other] = at;
	p->order[last] = node;
	p->pos[node] = last;
	p->start[k + 1]--;
}

static void key_down(struct fleet_place *p, int node, int k)
{
	int first = p->start[k], other = p->order[first], at = p->pos[node];
	p->order[at] = other;
	p->pos[other] = at;
	p->order[first] = node;
	p->pos[node] = first;
	p->start[k]++;
}

static void count(struct fleet_place *p, int node, int sign)
{
	if (!p->usable[node])
		return;
	p->free_gpus += sign * p->free[node];
	if (p->free[node] == p->gpn) {
		p->whole += sign;
		p->dom_whole[node / p->domain_nodes] += sign;
		p->leaf_whole[node / p->leaf_nodes] += sign;
	}
}

static void update(struct fleet_place *p, int node, int free_gpus, bool usable)
{
	assert(free_gpus >= 0 && free_gpus <= p->gpn);
	int k0 = key_of(p, node);
	count(p, node, -1);
	p->free[node] = free_gpus;
	p->usable[node] = usable;
	count(p, node, +1);
	int k1 = key_of(p, node);
	for (int k = k0; k < k1; k++)
		key_up(p, node, k);
	for (int k = k0; k > k1; k--)
		key_down(p, node, k);
}

void fleet_place_init(struct fleet_place *p, int nodes, int gpus_per_node, int domain_gpus, int nodes_per_leaf)
{
	assert(nodes > 0 && gpus_per_node > 0);
	memset(p, 0, sizeof *p);
	p->nodes = nodes;
	p->gpn = gpus_per_node;
	p->domain_nodes = domain_gpus > gpus_per_node ? domain_gpus / gpus_per_node : 1;
	p->n_domains = (nodes + p->domain_nodes - 1) / p->domain_nodes;
	p->leaf_nodes = nodes_per_leaf > 0 && nodes_per_leaf < nodes ? nodes_per_leaf : nodes;
	p->n_leaves = (nodes + p->leaf_nodes - 1) / p->leaf_nodes;
	p->free = xcalloc((size_t)nodes, sizeof *p->free);
	p->usable = xcalloc((size_t)nodes, sizeof *p->usable);
	p->order = xcalloc((size_t)nodes, sizeof *p->order);
	p->pos = xcalloc((size_t)nodes, sizeof *p->pos);
	p->start = xcalloc((size_t)gpus_per_node + 3, sizeof *p->start);
	p->dom_whole = xcalloc((size_t)p->n_domains, sizeof *p->dom_whole);
	p->leaf_whole = xcalloc((size_t)p->n_leaves, sizeof *p->leaf_whole);
	/* every node wholly free: all in the top key's segment */
	for (int n = 0; n < nodes; n++) {
		p->free[n] = gpus_per_node;
		p->usable[n] = 1;
		p->order[n] = n;
		p->pos[n] = n;
		p->dom_whole[n / p->domain_nodes]++;
		p->leaf_whole[n / p->leaf_nodes]++;
	}
	for (int k = 0; k <= gpus_per_node + 1; k++)
		p->start[k] = 0;
	p->start[gpus_per_node + 2] = nodes;
	p->whole = nodes;
	p->free_gpus = (long)nodes * gpus_per_node;
}

void fleet_place_release(struct fleet_place *p)
{
	free(p->free);
	free(p->usable);
	free(p->order);
	free(p->pos);
	free(p->start);
	free(p->dom_whole);
	free(p->leaf_whole);
	memset(p, 0, sizeof *p);
}

void fleet_place_copy(struct fleet_place *dst, const struct fleet_place *src)
{
	assert(dst->nodes == src->nodes && dst->gpn == src->gpn && dst->domain_nodes == src->domain_nodes &&
	       dst->leaf_nodes == src->leaf_nodes);
	size_t n = (size_t)src->nodes;
	memcpy(dst->free, src->free, n * sizeof *src->free);
	memcpy(dst->usable, src->usable, n * sizeof *src->usable);
	memcpy(dst->order, src->order, n * sizeof *src->order);
	memcpy(dst->pos, src->pos, n * sizeof *src->pos);
	memcpy(dst->start, src->start, ((size_t)src->gpn + 3) * sizeof *src->start);
	memcpy(dst->dom_whole, src->dom_whole, (size_t)src->n_domains * sizeof *src->dom_whole);
	memcpy(dst->leaf_whole, src->leaf_whole, (size_t)src->n_leaves * sizeof *src->leaf_whole);
	dst->whole = src->whole;
	dst->free_gpus = src->free_gpus;
}

/* A job of k whole nodes that fits one scale-up domain must stay inside one. */
static bool in_domain(const struct fleet_place *p, int k)
{
	return p->domain_nodes > 1 && k <= p->domain_nodes;
}

const char *fleet_place_invalid(const struct fleet_place *p, int gpus)
{
	if (gpus <= 0)
		return "a job asks for no GPUs";
	if (gpus > p->gpn && gpus % p->gpn != 0)
		return "a job spanning nodes must ask for a whole number of nodes' GPUs";
	if ((long)gpus > (long)p->nodes * p->gpn)
		return "a job asks for more GPUs than the cluster has";
	return NULL;
}

bool fleet_place_fits(const struct fleet_place *p, int gpus)
{
	if (gpus < p->gpn)
		return p->start[gpus + 1] < p->start[p->gpn + 2];
	int k = gpus / p->gpn;
	if (k > p->whole)
		return false;
	if (!in_domain(p, k))
		return true;
	for (int d = 0; d < p->n_domains; d++)
		if (p->dom_whole[d] >= k)
			return true;
	return false;
}

/* Take up to k wholly free usable nodes among first..end-1, in index order. */
static int take_range(struct fleet_place *p, int first, int end, int k, int *out)
{
	int got = 0;
	for (int n = first; n < end && got < k; n++)
		if (p->usable[n] && p->free[n] == p->gpn) {
			update(p, n, 0, true);
			out[got++] = n;
		}
	return got;
}

void fleet_place_take(struct fleet_place *p, int gpus, int *nodes_out, struct fleet_alloc *a)
{
	assert(fleet_place_fits(p, gpus));
	if (gpus < p->gpn) {
		/* best fit: the usable node with the fewest free GPUs that suffice */
		for (int f = gpus; f <= p->gpn; f++)
			if (p->start[f + 1] < p->start[f + 2]) {
				int n = p->order[p->start[f + 1]];
				update(p, n, f - gpus, true);
				nodes_out[0] = n;
				a->n = 1;
				a->gpus_each = gpus;
				return;
			}
		assert(0);
	}
	int k = gpus / p->gpn, got = 0;
	a->n = k;
	a->gpus_each = p->gpn;
	if (in_domain(p, k)) {
		int best = -1;
		for (int d = 0; d < p->n_domains; d++)
			if (p->dom_whole[d] >= k && (best < 0 || p->dom_whole[d] < p->dom_whole[best]))
				best = d;
		assert(best >= 0);
		int first = best * p->domain_nodes, end = first + p->domain_nodes;
		got = take_range(p, first, end < p->nodes ? end : p->nodes, k, nodes_out);
	} else if (p->n_leaves == 1) {
		/* one leaf: any wholly free nodes, straight from their segment */
		int top = p->gpn + 1;
		while (got < k) {
			assert(p->start[top] < p->start[top + 1]);
			int n = p->order[p->start[top]];
			update(p, n, 0, true);
			nodes_out[got++] = n;
		}
	} else {
		int best = -1;
		for (int l = 0; l < p->n_leaves; l++)
			if (p->leaf_whole[l] >= k && (best < 0 || p->leaf_whole[l] < p->leaf_whole[best]))
				best = l;
		if (best >= 0) {
			int first = best * p->leaf_nodes, end = first + p->leaf_nodes;
			got = take_range(p, first, end < p->nodes ? end : p->nodes, k, nodes_out);
		}
		/* no one leaf holds it: the emptiest leaves first, so it spans few */
		while (got < k) {
			int l = 0;
			for (int i = 1; i < p->n_leaves; i++)
				if (p->leaf_whole[i] > p->leaf_whole[l])
					l = i;
			assert(p->leaf_whole[l] > 0);
			int first = l * p->leaf_nodes, end = first + p->leaf_nodes;
			got += take_range(p, first, end < p->nodes ? end : p->nodes, k - got, nodes_out + got);
		}
	}
	assert(got == k);
}

void fleet_place_give(struct fleet_place *p, const int *nodes, const struct fleet_alloc *a)
{
	for (int i = 0; i < a->n; i++) {
		int n = nodes[i];
		update(p, n, p->free[n] + a->gpus_each, p->usable[n]);
	}
}

void fleet_place_set_usable(struct fleet_place *p, int node, bool usable)
{
	if ((bool)p->usable[node] != usable)
		update(p, node, p->free[node], usable);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int distinct(const int *nodes, int n, int per)
{
	if (n <= 0)
		return 0;
	int *ids = xmalloc((size_t)n * sizeof *ids), d = 1;
	for (int i = 0; i < n; i++)
		ids[i] = nodes[i] / per;
	qsort(ids, (size_t)n, sizeof *ids, cmp_int);
	for (int i = 1; i < n; i++)
		d += ids[i] != ids[i - 1];
	free(ids);
	return d;
}

int fleet_place_leaves(const struct fleet_place *p, const int *nodes, int n)
{
	return distinct(nodes, n, p->leaf_nodes);
}

int fleet_place_domains(const struct fleet_place *p, const int *nodes, int n)
{
	return distinct(nodes, n, p->domain_nodes);
}
