/*
 * stats: time-weighted levels and sample percentiles.
 *
 * stats_level integrates a piecewise-constant level over simulated time (the
 * busy fraction of a GPU, the number of flows on a link) and gives its time
 * average. stats_sample collects values and answers percentiles with GSL's
 * quantile on sorted data (linear interpolation between order statistics,
 * R type 7).
 */
#ifndef CLUSTERSIM_SIM_STATS_H
#define CLUSTERSIM_SIM_STATS_H

#include <stddef.h>
#include <stdint.h>

struct stats_level {
	int64_t t_start_ns;
	int64_t t_last_ns;
	double level;
	double area;  /* level x seconds accumulated up to t_last_ns */
};

/* Start integrating at t0_ns with the given level. */
void stats_level_init(struct stats_level *s, int64_t t0_ns, double level);

/* The level changes to `level` at t_ns (>= the last change). */
void stats_level_set(struct stats_level *s, int64_t t_ns, double level);

/* Add delta to the level at t_ns. */
void stats_level_add(struct stats_level *s, int64_t t_ns, double delta);

/* Integral of the level from the start to t_end_ns, in level x seconds. */
double stats_level_integral(const struct stats_level *s, int64_t t_end_ns);

/* Time average from the start to t_end_ns; the current level when no time passed. */
double stats_level_mean(const struct stats_level *s, int64_t t_end_ns);

struct stats_sample {
	double *v;
	size_t n, cap;
	int sorted;
};

void stats_sample_init(struct stats_sample *s);
void stats_sample_release(struct stats_sample *s);
void stats_sample_add(struct stats_sample *s, double x);

/* Percentile p in [0, 100] of the values added so far (sorts them); 0 when empty. */
double stats_sample_percentile(struct stats_sample *s, double p);

double stats_sample_mean(const struct stats_sample *s);

/* R type 7 (GSL's gsl_stats_quantile_from_sorted_data, numpy's default):
 * percentile p in [0, 100] of n > 0 sorted values lies at *frac of the way
 * from order statistic k to k + 1 (0-based); returns k. For samples kept
 * in another form (weighted runs, a sketch's buckets). */
uint64_t stats_type7_rank(uint64_t n, double p, double *frac);

#endif
