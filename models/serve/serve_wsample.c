/*
 * serve_wsample: (value, count) pairs, consecutive equal values merged.
 */
#include "serve_wsample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void serve_wsample_add(struct serve_wsample *w, int64_t v)
{
	if (w->n > 0 && w->p[w->n - 1].v == v) {
		w->p[w->n - 1].w++;
	} else {
		w->p = xgrow(w->p, &w->cap, w->n + 1, sizeof *w->p, 1024);
		w->p[w->n++] = (struct serve_wpair){ v, 1 };
	}
	w->total++;
}

static int wpair_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct serve_wpair *)a)->v, y = ((const struct serve_wpair *)b)->v;
	return (x > y) - (x < y);
}

/* The value of order statistic k (0-based) of a sorted weighted sample. */
static double wsample_order(const struct serve_wsample *w, long k)
{
	long c = 0;
	for (size_t i = 0; i < w->n; i++) {
		c += w->p[i].w;
		if (k < c)
			return (double)w->p[i].v;
	}
	return (double)w->p[w->n - 1].v;
}

double serve_wsample_percentile(struct serve_wsample *w, double p)
{
	if (w->total == 0)
		return 0;
	double h = (double)(w->total - 1) * p / 100;
	long lo = (long)floor(h);
	double lo_v = wsample_order(w, lo);
	double hi_v = lo + 1 < w->total ? wsample_order(w, lo + 1) : lo_v;
	return lo_v + (h - (double)lo) * (hi_v - lo_v);
}

double serve_wsample_mean(const struct serve_wsample *w)
{
	double sum = 0;
	for (size_t i = 0; i < w->n; i++)
		sum += (double)w->p[i].v * (double)w->p[i].w;
	return w->total ? sum / (double)w->total : 0;
}

void serve_wsample_sort(struct serve_wsample *w)
{
	if (w->n > 0)
		qsort(w->p, w->n, sizeof *w->p, wpair_cmp);
}

void serve_wsample_release(struct serve_wsample *w)
{
	free(w->p);
	memset(w, 0, sizeof *w);
}
