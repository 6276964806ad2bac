#include "dtree.h"

#include <stdlib.h>

#include "util/xalloc.h"

/*
 * Parent of rank r in NCCL's binary tree over m ranks, or -1 for the root
 * (ncclGetBtree): r's parent clears r's lowest set bit and sets the next one
 * up, so subtrees are runs of consecutive ranks and neighbours in rank order
 * stay close.
 */
static int btree_parent(int r, int m)
{
	int bit, up;
	if (r == 0)
		return -1;
	for (bit = 1; bit < m; bit <<= 1)
		if (bit & r)
			break;
	up = (r ^ bit) | (bit << 1);
	if (up >= m)
		up = r ^ bit;
	return up;
}

/* ncclGetDtree: the second tree is the first mirrored (m even) or shifted by
 * one (m odd). */
int dtree_parent(int i, int m, int which)
{
	if (which == 0)
		return btree_parent(i, m);
	if (m % 2 == 0) {
		int p = btree_parent(m - 1 - i, m);
		return p < 0 ? -1 : m - 1 - p;
	}
	int p = btree_parent((i - 1 + m) % m, m);
	return p < 0 ? -1 : (p + 1) % m;
}

static int max_of(const int *v, int n)
{
	int worst = 0;
	for (int i = 0; i < n; i++)
		if (v[i] > worst)
			worst = v[i];
	return worst;
}

/*
 * Both shapes are pure functions of small integers that a plan search asks
 * for again and again (every plan's data-parallel all-reduce over the same
 * node count): a small direct-mapped memo per thread keeps the O(m) walks
 * to one per distinct argument. Found by profiling a 16,384-GPU search,
 * where these walks took 60% of the time.
 */
#define DTREE_MEMO 64

struct dtree_memo {
	int m, group;  /* m 0: empty */
	double value;
};

static _Thread_local struct dtree_memo max_out_memo[DTREE_MEMO], spine_memo[DTREE_MEMO];

static struct dtree_memo *memo_slot(struct dtree_memo *memo, int m, int group)
{
	unsigned h = (unsigned)m * 2654435761u ^ (unsigned)group * 40503u;
	return &memo[h % DTREE_MEMO];
}

static int dtree_max_out_walk(int m);
static double dtree_spine_load_walk(int m, int ranks_per_group);

int dtree_max_out(int m)
{
	struct dtree_memo *e = memo_slot(max_out_memo, m, 0);
	if (e->m != m || e->group != 0) {
		e->value = dtree_max_out_walk(m);
		e->m = m;
		e->group = 0;
	}
	return (int)e->value;
}

double dtree_spine_load(int m, int ranks_per_group)
{
	struct dtree_memo *e = memo_slot(spine_memo, m, ranks_per_group);
	if (e->m != m || e->group != ranks_per_group) {
		e->value = dtree_spine_load_walk(m, ranks_per_group);
		e->m = m;
		e->group = ranks_per_group;
	}
	return e->value;
}

static int dtree_max_out_walk(int m)
{
	int *out = xcalloc((size_t)m, sizeof *out);
	for (int which = 0; which < 2; which++)
		for (int i = 0; i < m; i++) {
			int p = dtree_parent(i, m, which);
			if (p < 0)
				continue;
			out[i]++;  /* reduce to the parent */
			out[p]++;  /* broadcast to this child */
		}
	int worst = max_of(out, m);
	free(out);
	return worst;
}

static double dtree_spine_load_walk(int m, int ranks_per_group)
{
	double worst = 0;
	int groups = (m + ranks_per_group - 1) / ranks_per_group;
	int *cross = xcalloc((size_t)groups, sizeof *cross);
	/* one pass over the edges of both trees */
	for (int which = 0; which < 2; which++)
		for (int i = 0; i < m; i++) {
			int p = dtree_parent(i, m, which);
			if (p < 0 || i / ranks_per_group == p / ranks_per_group)
				continue;
			cross[i / ranks_per_group]++;
			cross[p / ranks_per_group]++;
		}
	for (int g = 0; g < groups; g++) {
		int lo = g * ranks_per_group;
		int hi = lo + ranks_per_group < m ? lo + ranks_per_group : m;
		double load = (double)cross[g] / (hi - lo);
		if (load > worst)
			worst = load;
	}
	free(cross);
	return worst;
}
