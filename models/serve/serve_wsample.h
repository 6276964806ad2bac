/*
 * serve_wsample: a weighted sample of nanosecond values, kept as (value,
 * count) pairs with consecutive equal values merged, so that the gaps
 * between the output tokens of a serving simulation (in a step, every
 * sequence that decoded in the previous step has the same gap) have exact
 * percentiles without a value per token. Past exact_max pairs
 * (QUANTILE_EXACT_MAX unless the caller gives fewer) the pairs move into a
 * sketch (sim/sketch.h) and so does every later run of equal values: the
 * percentiles are then within a relative SKETCH_ALPHA (0.1%) of the exact
 * ones, the count stays exact and the mean is the sum over the count.
 * Pure arithmetic: no engine.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_WSAMPLE_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_WSAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sketch.h"

struct serve_wpair {
	int64_t v;
	long w;
};

/* A weighted sample of nanosecond values (zeroed: empty, exact up to
 * QUANTILE_EXACT_MAX pairs). */
struct serve_wsample {
	struct serve_wpair *p;
	size_t n, cap;
	long total;
	size_t exact_max;  /* the most pairs kept (0: QUANTILE_EXACT_MAX) */
	bool sketched;     /* past it: the values in sk, but the last run of equal ones (p[0]) */
	struct sketch sk;
};

/* Add one value (merged into the last pair when equal to it; past
 * exact_max pairs, the pairs go into the sketch). */
void serve_wsample_add(struct serve_wsample *w, int64_t v);

/* Sort the pairs by value (once sketched: the last run into the sketch);
 * once, before the percentiles. */
void serve_wsample_sort(struct serve_wsample *w);

/* Percentile p of the sorted values as if each were stored count times:
 * linear interpolation between order statistics (R type 7, as
 * stats_sample), exact, or within a relative SKETCH_ALPHA once sketched.
 * O(n) per call. 0 for an empty sample. */
double serve_wsample_percentile(struct serve_wsample *w, double p);

/* The mean value (0 for an empty sample); once sketched, the sum over the
 * count. */
double serve_wsample_mean(const struct serve_wsample *w);

/* Free the pairs; w is empty after. */
void serve_wsample_release(struct serve_wsample *w);

#endif
