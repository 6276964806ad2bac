#include "placement.h"

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
