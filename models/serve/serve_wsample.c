/*
 * serve_wsample: (value, count) pairs, consecutive equal values merged;
 * past exact_max pairs, a sketch fed one run of equal values at a time.
 */
#include "serve_wsample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/quantile.h"
#include "sim/stats.h"
#include "util/xalloc.h"

/* Past exact_max: every pair into the sketch but the last, kept as the
 * run under way. */
static void wsample_to_sketch(struct serve_wsample *w)
{
	sketch_init(&w->sk, SKETCH_ALPHA);
	for (size_t i = 0; i + 1 < w->n; i++)
		sketch_add_n(&w->sk, (double)w->p[i].v, (uint64_t)w->p[i].w);
	struct serve_wpair last = w->p[w->n - 1];
	free(w->p);
	w->cap = 1;
	w->p = xcalloc(1, sizeof *w->p);
	w->p[0] = last;
	w->n = 1;
	w->sketched = true;
}

/* Once sketched: the run under way into the sketch. */
static void wsample_flush(struct serve_wsample *w)
{
	if (w->sketched && w->n > 0) {
		sketch_add_n(&w->sk, (double)w->p[0].v, (uint64_t)w->p[0].w);
		w->n = 0;
	}
}

void serve_wsample_add(struct serve_wsample *w, int64_t v)
{
	w->total++;
	if (w->n > 0 && w->p[w->n - 1].v == v) {
		w->p[w->n - 1].w++;
		return;
	}
	if (w->sketched) {
		wsample_flush(w);
		w->p[w->n++] = (struct serve_wpair){ v, 1 };
		return;
	}
	w->p = xgrow(w->p, &w->cap, w->n + 1, sizeof *w->p, 1024);
	w->p[w->n++] = (struct serve_wpair){ v, 1 };
	if (w->n > (w->exact_max > 0 ? w->exact_max : QUANTILE_EXACT_MAX))
		wsample_to_sketch(w);
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
	if (w->sketched) {
		wsample_flush(w);
		return sketch_percentile(&w->sk, p);
	}
	double frac;
	long lo = (long)stats_type7_rank((uint64_t)w->total, p, &frac);
	double lo_v = wsample_order(w, lo);
	double hi_v = lo + 1 < w->total ? wsample_order(w, lo + 1) : lo_v;
	return lo_v + frac * (hi_v - lo_v);
}

double serve_wsample_mean(const struct serve_wsample *w)
{
	if (w->sketched) {
		long double sum = w->sk.sum;
		for (size_t i = 0; i < w->n; i++)
			sum += (long double)w->p[i].v * w->p[i].w;
		return w->total ? (double)(sum / w->total) : 0;
	}
	double sum = 0;
	for (size_t i = 0; i < w->n; i++)
		sum += (double)w->p[i].v * (double)w->p[i].w;
	return w->total ? sum / (double)w->total : 0;
}

void serve_wsample_sort(struct serve_wsample *w)
{
	wsample_flush(w);
	if (!w->sketched && w->n > 0)
		qsort(w->p, w->n, sizeof *w->p, wpair_cmp);
}

void serve_wsample_release(struct serve_wsample *w)
{
	size_t exact_max = w->exact_max;
	free(w->p);
	if (w->sketched)
		sketch_release(&w->sk);
	memset(w, 0, sizeof *w);
	w->exact_max = exact_max;
}
