/*
 * sketch: a mergeable quantile sketch with a stated relative error, for
 * percentiles of samples too long to keep (DDSketch: Masson, Rim and Lee,
 * "DDSketch: a fast and fully-mergeable quantile sketch with
 * relative-error guarantees", VLDB 2019).
 *
 * A value x > 0 is counted in bucket k = ceil(log_gamma(x)), gamma =
 * (1 + alpha) / (1 - alpha), and stands for 2 gamma^k / (gamma + 1), within
 * a relative alpha of every value of (gamma^(k-1), gamma^k]; negative
 * values are counted by magnitude in a second set of buckets, zeros apart.
 * So the order statistic of every rank is answered within a relative alpha
 * (SKETCH_ALPHA: 0.1%), and a percentile interpolated between two of them
 * as R type 7 does (stats_sample) is within alpha of the exact one for
 * values of one sign. The smallest and largest values are kept exactly,
 * and the count and the sum (so the mean) too. Two sketches merge by
 * adding their counts: the merge of sketches of two samples is the sketch
 * of both, bucket for bucket.
 *
 * Memory grows with the range of the values, not their number: ln(10) /
 * ln(gamma) = 1,151 buckets (8 bytes each) a decade of magnitude at alpha
 * 0.1%, at most about 730,000 a sign over the whole range of a double.
 * Pure arithmetic: no engine, no files.
 */
#ifndef CLUSTERSIM_SIM_SKETCH_H
#define CLUSTERSIM_SIM_SKETCH_H

#include <stddef.h>
#include <stdint.h>

/* The relative error of every percentile the simulation reads from a
 * sketch: 0.1%. */
#define SKETCH_ALPHA 0.001

/* The counts of one sign's buckets: key lo + i in c[i], i < n. */
struct sketch_store {
	uint64_t *c;
	int lo, n;
};

struct sketch {
	double alpha, ln_gamma;
	struct sketch_store pos, neg;
	uint64_t zeros, count;
	double min, max;
	long double sum;
};

/* An empty sketch of relative accuracy alpha in (0, 1). */
void sketch_init(struct sketch *s, double alpha);

/* Free the buckets; s is empty (of the same alpha) after. */
void sketch_release(struct sketch *s);

/* Count x, n times (n >= 1). x must be finite. */
void sketch_add_n(struct sketch *s, double x, uint64_t n);

static inline void sketch_add(struct sketch *s, double x)
{
	sketch_add_n(s, x, 1);
}

/* Add the counts of `from` (of the same alpha) into `into`. */
void sketch_merge(struct sketch *into, const struct sketch *from);

/* Percentile p in [0, 100], interpolated between order statistics as R
 * type 7 (stats_sample_percentile), each answered within a relative alpha
 * and clamped to [min, max]. 0 for an empty sketch. O(buckets). */
double sketch_percentile(const struct sketch *s, double p);

/* The mean: the sum over the count (0 when empty). */
double sketch_mean(const struct sketch *s);

#endif
