#include "billing.h"

#include <math.h>

double billing_usd_per_hour(const struct cluster_spec *c)
{
	if (!c->price.known)
		return 0.0;
	return c->price.usd_per_gpu_hour * (double)cluster_gpus(c);
}

double billing_cost_usd(const struct cluster_spec *c, double held_s)
{
	double period_s = c->price.billing_s > 0 ? c->price.billing_s : 1.0;
	/* the 1e-9 keeps an exact multiple from rounding up to one more period */
	double periods = ceil(held_s / period_s - 1e-9);
	if (periods < 1 && held_s > 0)
		periods = 1;
	return billing_usd_per_hour(c) * periods * period_s / 3600.0;
}
