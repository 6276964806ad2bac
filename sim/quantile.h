/*
 * quantile: the percentiles of a sample in bounded memory: exact (every
 * value kept, stats_sample's percentiles and mean, to the last bit) while
 * it holds at most exact_max values (QUANTILE_EXACT_MAX unless the caller
 * gives fewer), then a sketch (sketch.h) of every value: percentiles within
 * a relative SKETCH_ALPHA (0.1%) of the exact ones, the count exact and the
 * mean the sum over the count. So a long run's memory stops growing at
 * exact_max values (8 MB at QUANTILE_EXACT_MAX) plus the sketch's buckets.
 * Pure arithmetic: no engine.
 */
#ifndef CLUSTERSIM_SIM_QUANTILE_H
#define CLUSTERSIM_SIM_QUANTILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sketch.h"
#include "sim/stats.h"

/* The most values a sample keeps for exact percentiles: 1,048,576. */
#define QUANTILE_EXACT_MAX ((size_t)1 << 20)

struct quantile {
	struct stats_sample exact;
	struct sketch sk;
	size_t exact_max;
	bool sketched;   /* past exact_max: every value is in sk, none in exact */
};

/* An empty sample that keeps up to exact_max values (0: QUANTILE_EXACT_MAX). */
void quantile_init(struct quantile *q, size_t exact_max);

/* Free what q holds; q is empty (same exact_max) after. */
void quantile_release(struct quantile *q);

/* Add x (finite); past exact_max the kept values move into the sketch. */
void quantile_add(struct quantile *q, double x);

/* Percentile p in [0, 100] (R type 7): exact, or within a relative
 * SKETCH_ALPHA of it once sketched. Sorts the kept values. 0 when empty. */
double quantile_percentile(struct quantile *q, double p);

/* The mean: stats_sample_mean while exact, the sum over the count after
 * (0 when empty). */
double quantile_mean(const struct quantile *q);

/* How many values were added. */
uint64_t quantile_count(const struct quantile *q);

#endif
