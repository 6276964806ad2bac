#include "quantile.h"

void quantile_init(struct quantile *q, size_t exact_max)
{
	stats_sample_init(&q->exact);
	sketch_init(&q->sk, SKETCH_ALPHA);
	q->exact_max = exact_max > 0 ? exact_max : QUANTILE_EXACT_MAX;
	q->sketched = false;
}

void quantile_release(struct quantile *q)
{
	stats_sample_release(&q->exact);
	sketch_release(&q->sk);
	q->sketched = false;
}

void quantile_add(struct quantile *q, double x)
{
	if (q->sketched) {
		sketch_add(&q->sk, x);
		return;
	}
	stats_sample_add(&q->exact, x);
	if (q->exact.n <= q->exact_max)
		return;
	for (size_t i = 0; i < q->exact.n; i++)
		sketch_add(&q->sk, q->exact.v[i]);
	stats_sample_release(&q->exact);
	q->sketched = true;
}

double quantile_percentile(struct quantile *q, double p)
{
	return q->sketched ? sketch_percentile(&q->sk, p) : stats_sample_percentile(&q->exact, p);
}

double quantile_mean(const struct quantile *q)
{
	return q->sketched ? sketch_mean(&q->sk) : stats_sample_mean(&q->exact);
}

uint64_t quantile_count(const struct quantile *q)
{
	return q->sketched ? q->sk.count : q->exact.n;
}
