/*
 * serve_wsample: a weighted sample of nanosecond values, kept as (value,
 * count) pairs with consecutive equal values merged, so that the gaps
 * between the output tokens of a serving simulation (in a step, every
 * sequence that decoded in the previous step has the same gap) have exact
 * percentiles without a value per token. Pure arithmetic: no engine.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_WSAMPLE_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_WSAMPLE_H

#include <stddef.h>
#include <stdint.h>

struct serve_wpair {
	int64_t v;
	long w;
};

/* A weighted sample of nanosecond values (zeroed: empty). */
struct serve_wsample {
	struct serve_wpair *p;
	size_t n, cap;
	long total;
};

/* Add one value (merged into the last pair when equal to it). */
void serve_wsample_add(struct serve_wsample *w, int64_t v);

/* Sort the pairs by value; once, before the percentiles. */
void serve_wsample_sort(struct serve_wsample *w);

/* Percentile p of the sorted values as if each were stored count times:
 * linear interpolation between order statistics (R type 7, as
 * stats_sample). O(n) per call. 0 for an empty sample. */
double serve_wsample_percentile(struct serve_wsample *w, double p);

/* The mean value (0 for an empty sample). */
double serve_wsample_mean(const struct serve_wsample *w);

/* Free the pairs; w is empty after. */
void serve_wsample_release(struct serve_wsample *w);

#endif
