/*
 * sketch: DDSketch's log-spaced buckets, dense per sign, grown to the keys
 * seen (by at least their span each time, so amortized O(1) an add).
 */
#include "sketch.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/stats.h"
#include "util/xalloc.h"

void sketch_init(struct sketch *s, double alpha)
{
	assert(alpha > 0 && alpha < 1);
	memset(s, 0, sizeof *s);
	s->alpha = alpha;
	s->ln_gamma = log1p(2 * alpha / (1 - alpha));  /* gamma = (1 + alpha) / (1 - alpha) */
	s->min = INFINITY;
	s->max = -INFINITY;
}

void sketch_release(struct sketch *s)
{
	free(s->pos.c);
	free(s->neg.c);
	sketch_init(s, s->alpha);
}

/* The bucket of magnitude m > 0: ceil(log_gamma(m)). */
static int key_of(const struct sketch *s, double m)
{
	return (int)ceil(log(m) / s->ln_gamma);
}

/* The value bucket k stands for: 2 gamma^k / (gamma + 1), within alpha of
 * every magnitude in (gamma^(k-1), gamma^k]. */
static double value_of(const struct sketch *s, int k)
{
	double gamma = exp(s->ln_gamma);
	return exp(k * s->ln_gamma) * (2 / (gamma + 1));
}

static void store_add(struct sketch_store *st, int k, uint64_t n)
{
	if (st->n == 0) {
		st->n = 64;
		st->lo = k - st->n / 2;
		st->c = xcalloc((size_t)st->n, sizeof *st->c);
	} else if (k < st->lo || k >= st->lo + st->n) {
		long lo = st->lo, hi = (long)st->lo + st->n;
		if (k < lo)
			lo = (long)k - st->n;  /* room below for as many again */
		else
			hi = (long)k + 1 + st->n;
		uint64_t *c = xcalloc((size_t)(hi - lo), sizeof *c);
		memcpy(c + (st->lo - lo), st->c, (size_t)st->n * sizeof *c);
		free(st->c);
		st->c = c;
		st->lo = (int)lo;
		st->n = (int)(hi - lo);
	}
	st->c[k - st->lo] += n;
}

void sketch_add_n(struct sketch *s, double x, uint64_t n)
{
	assert(isfinite(x) && n >= 1);
	if (x > 0)
		store_add(&s->pos, key_of(s, x), n);
	else if (x < 0)
		store_add(&s->neg, key_of(s, -x), n);
	else
		s->zeros += n;
	s->count += n;
	s->sum += (long double)x * n;
	if (x < s->min)
		s->min = x;
	if (x > s->max)
		s->max = x;
}

void sketch_merge(struct sketch *into, const struct sketch *from)
{
	assert(into->alpha == from->alpha);
	for (int i = 0; i < from->pos.n; i++)
		if (from->pos.c[i] > 0)
			store_add(&into->pos, from->pos.lo + i, from->pos.c[i]);
	for (int i = 0; i < from->neg.n; i++)
		if (from->neg.c[i] > 0)
			store_add(&into->neg, from->neg.lo + i, from->neg.c[i]);
	into->zeros += from->zeros;
	into->count += from->count;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

/* The order statistic of rank r (0-based, r < count): negative values
 * (largest magnitude first), zeros, positive values; clamped to [min, max],
 * which are the first and last exactly. */
static double order_stat(const struct sketch *s, uint64_t r)
{
	double v = 0;
	if (r == 0)
		return s->min;
	if (r == s->count - 1)
		return s->max;
	uint64_t c = 0;
	bool found = false;
	for (int i = s->neg.n - 1; i >= 0 && !found; i--)
		if (r < (c += s->neg.c[i])) {
			v = -value_of(s, s->neg.lo + i);
			found = true;
		}
	if (!found && r < (c += s->zeros)) {
		v = 0;
		found = true;
	}
	for (int i = 0; i < s->pos.n && !found; i++)
		if (r < (c += s->pos.c[i])) {
			v = value_of(s, s->pos.lo + i);
			found = true;
		}
	assert(found);
	return v < s->min ? s->min : v > s->max ? s->max : v;
}

double sketch_percentile(const struct sketch *s, double p)
{
	assert(p >= 0 && p <= 100);
	if (s->count == 0)
		return 0;
	double frac;
	uint64_t lo = stats_type7_rank(s->count, p, &frac);
	double lo_v = order_stat(s, lo);
	double hi_v = lo + 1 < s->count ? order_stat(s, lo + 1) : lo_v;
	return lo_v + frac * (hi_v - lo_v);
}

double sketch_mean(const struct sketch *s)
{
	return s->count > 0 ? (double)(s->sum / s->count) : 0;
}
