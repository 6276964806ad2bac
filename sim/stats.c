#include "stats.h"

#include <assert.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>

#include "sim/time.h"
#include "util/xalloc.h"

void stats_level_init(struct stats_level *s, int64_t t0_ns, double level)
{
	s->t_start_ns = t0_ns;
	s->t_last_ns = t0_ns;
	s->level = level;
	s->area = 0.0;
}

void stats_level_set(struct stats_level *s, int64_t t_ns, double level)
{
	assert(t_ns >= s->t_last_ns);
	s->area += s->level * sim_time_to_s(t_ns - s->t_last_ns);
	s->t_last_ns = t_ns;
	s->level = level;
}

void stats_level_add(struct stats_level *s, int64_t t_ns, double delta)
{
	stats_level_set(s, t_ns, s->level + delta);
}

double stats_level_integral(const struct stats_level *s, int64_t t_end_ns)
{
	assert(t_end_ns >= s->t_last_ns);
	return s->area + s->level * sim_time_to_s(t_end_ns - s->t_last_ns);
}

double stats_level_mean(const struct stats_level *s, int64_t t_end_ns)
{
	double span = sim_time_to_s(t_end_ns - s->t_start_ns);
	if (span <= 0.0)
		return s->level;
	return stats_level_integral(s, t_end_ns) / span;
}

void stats_sample_init(struct stats_sample *s)
{
	s->v = NULL;
	s->n = s->cap = 0;
	s->sorted = 1;
}

void stats_sample_release(struct stats_sample *s)
{
	free(s->v);
	stats_sample_init(s);
}

void stats_sample_add(struct stats_sample *s, double x)
{
	s->v = xgrow(s->v, &s->cap, s->n + 1, sizeof *s->v, 64);
	s->v[s->n++] = x;
	s->sorted = 0;
}

double stats_sample_percentile(struct stats_sample *s, double p)
{
	assert(p >= 0.0 && p <= 100.0);
	if (s->n == 0)
		return 0.0;
	if (!s->sorted) {
		gsl_sort(s->v, 1, s->n);
		s->sorted = 1;
	}
	return gsl_stats_quantile_from_sorted_data(s->v, 1, s->n, p / 100.0);
}

uint64_t stats_type7_rank(uint64_t n, double p, double *frac)
{
	assert(n > 0 && p >= 0.0 && p <= 100.0);
	double h = (double)(n - 1) * p / 100;
	uint64_t k = (uint64_t)floor(h);
	*frac = h - (double)k;
	return k;
}

double stats_sample_mean(const struct stats_sample *s)
{
	if (s->n == 0)
		return 0.0;
	return gsl_stats_mean(s->v, 1, s->n);
}
