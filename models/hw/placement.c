#include "placement.h"

#include <assert.h>
#include <string.h>

#include "util/text.h"

const char *const plan_dim_names[DIM_COUNT] = { "tp", "cp", "pp", "dp" };

int placement_init(struct placement *p, int tp, int cp, int pp, int dp, const char *order,
		   struct cs_error *err)
{
	char buf[64];
	int seen[DIM_COUNT] = { 0 };
	int k = 0;

	p->size[DIM_TP] = tp;
	p->size[DIM_CP] = cp;
	p->size[DIM_PP] = pp;
	p->size[DIM_DP] = dp;
	if (order == NULL || order[0] == '\0')
		order = "tp-cp-pp-dp";
	if (!text_copy(buf, sizeof buf, order))
		return error_set(err, "placement order \"%.40s...\" is too long", order);
	for (char *tok = buf, *next; tok != NULL && *tok; tok = next) {
		int d;
		next = strchr(tok, '-');
		if (next != NULL)
			*next++ = '\0';
		for (d = 0; d < DIM_COUNT; d++)
			if (strcmp(tok, plan_dim_names[d]) == 0)
				break;
		if (d == DIM_COUNT || seen[d] || k == DIM_COUNT)
			return error_set(err, "placement order \"%s\" must name tp, cp, pp and dp once each, joined by '-'", order);
		seen[d] = 1;
		p->order[k++] = d;
	}
	if (k != DIM_COUNT)
		return error_set(err, "placement order \"%s\" must name tp, cp, pp and dp once each, joined by '-'", order);
	int stride = 1;
	for (int i = 0; i < DIM_COUNT; i++) {
		p->stride[p->order[i]] = stride;
		stride *= p->size[p->order[i]];
	}
	return 0;
}

long placement_gpu(const struct placement *p, const int c[DIM_COUNT])
{
	long g = 0;
	for (int d = 0; d < DIM_COUNT; d++)
		g += (long)c[d] * p->stride[d];
	return g;
}

void placement_coords(const struct placement *p, long g, int c[DIM_COUNT])
{
	for (int i = 0; i < DIM_COUNT; i++) {
		int d = p->order[i];
		c[d] = (int)(g % p->size[d]);
		g /= p->size[d];
	}
}

void placement_group(const struct placement *p, enum plan_dim dim, const int c[DIM_COUNT], long *out)
{
	int x[DIM_COUNT];
	memcpy(x, c, sizeof x);
	for (int i = 0; i < p->size[dim]; i++) {
		x[dim] = i;
		out[i] = placement_gpu(p, x);
	}
}

/* One level of the box: `count` blocks `stride` GPUs apart. */
struct box_dim {
	long count, stride;
	long max;  /* the largest GPU offset of this level's box */
};

static long gcd_long(long a, long b)
{
	while (b != 0) {
		long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/*
 * Distinct nodes of r + (the box of levels 0 .. k), 0 <= r < G. The box's
 * GPUs in increasing order are its blocks j * stride + (the box of levels
 * below), each block below the next one (mixed radix: stride > max below),
 * so the distinct nodes are each block's own, less one for each pair of
 * consecutive blocks that meet on a node. Both terms depend on the block's
 * start only modulo G, which repeats with period G / gcd(stride, G): sum
 * one period and scale. Level 0 in closed form: n GPUs s apart from r
 * cover every node from the first to the last when s < G (the node grows
 * by at most one a step), n nodes otherwise.
 */
static long box_nodes(const struct box_dim *b, int k, long r, long G)
{
	if (k < 0)
		return 1;
	if (k == 0)
		return b[0].stride >= G ? b[0].count : (r + (b[0].count - 1) * b[0].stride) / G + 1;
	long below = b[k - 1].max;
	long period = G / gcd_long(b[k].stride % G, G);
	long n = b[k].count < period ? b[k].count : period;
	long sum_nodes = 0, sum_meet = 0, part_nodes = 0, part_meet = 0;
	long full = b[k].count / period, rem = b[k].count % period;
	long full_meet = (b[k].count - 1) / period, rem_meet = (b[k].count - 1) % period;
	for (long j = 0; j < n; j++) {
		long start = (r + j * (b[k].stride % G)) % G;
		long nodes = box_nodes(b, k - 1, start, G);
		/* the last node of this block is the first of the next */
		long meet = (start + below) / G == (start + b[k].stride) / G;
		sum_nodes += nodes;
		sum_meet += meet;
		if (j < rem)
			part_nodes += nodes;
		if (j < rem_meet)
			part_meet += meet;
	}
	return full * sum_nodes + part_nodes - (full_meet * sum_meet + part_meet);
}

long placement_nodes(const struct placement *p, const int count[DIM_COUNT], int gpus_per_node)
{
	struct box_dim b[DIM_COUNT];
	int k = 0;
	long max = 0;
	for (int i = 0; i < DIM_COUNT; i++) {
		int d = p->order[i];
		assert(count[d] >= 1 && count[d] <= p->size[d]);
		if (count[d] == 1)
			continue;
		max += (long)(count[d] - 1) * p->stride[d];
		b[k++] = (struct box_dim){ .count = count[d], .stride = p->stride[d], .max = max };
	}
	return box_nodes(b, k - 1, 0, gpus_per_node);
}
