#include "billing.h"

#include <math.h>

double billing_usd_per_hour(const struct cluster_spec *c)
{
	if (!c->price.known)
		return 0.0;
	return c->price.usd_per_gpu_hour * (double)cluster_gpus(c);
}

double billing_billed_s(const struct price_quote *q, double held_s)
{
	if (!(held_s > 0))
		return 0.0;
	double period_s = q->billing_s > 0 ? q->billing_s : 1.0;
	/* the 1e-9 keeps an exact multiple from rounding up to one more period */
	double periods = ceil(held_s / period_s - 1e-9);
	if (periods < 1)
		periods = 1;
	double billed_s = periods * period_s;
	return billed_s < q->minimum_s ? q->minimum_s : billed_s;
}

double billing_cost_usd(const struct cluster_spec *c, double held_s)
{
	return billing_usd_per_hour(c) * billing_billed_s(&c->price, held_s) / 3600.0;
}
