#include "billing.h"

#include <math.h>

double billing_usd_per_hour(const struct cluster_spec *c)
{
	if (!c->price.known)
		return 0.0;
	return c->price.usd_per_gpu_hour * (double)cluster_gpus(c);
}

/* Whole periods of period_s covering held_s (at least one); the 1e-9
 * keeps an exact multiple from rounding up to one more period. */
static double whole_periods_s(double held_s, double period_s)
{
	double periods = ceil(held_s / period_s - 1e-9);
	return (periods < 1 ? 1 : periods) * period_s;
}

/* One booking of a capacity block covering held_s: whole blocks up to
 * block_long_after_s, whole long steps past it (AWS: 1-day steps to 14
 * days, 7-day steps to 182 days). */
static double one_booking_s(const struct price_quote *q, double held_s)
{
	if (q->block_long_s > 0 && held_s > q->block_long_after_s + 1e-9)
		return whole_periods_s(held_s, q->block_long_s);
	return whole_periods_s(held_s, q->block_s);
}

double billing_block_billed_s(const struct price_quote *q, double held_s)
{
	if (!(held_s > 0))
		return 0.0;
	if (isinf(held_s))
		return held_s;  /* never released: never a whole number of bookings */
	double full_s = 0;
	if (q->block_max_s > 0 && held_s > q->block_max_s + 1e-9) {
		/* longer than one booking may be: as many longest ones as fit, then
		 * one booking for the rest */
		double n = floor(held_s / q->block_max_s + 1e-9);
		full_s = n * q->block_max_s;
		held_s -= full_s;
		if (held_s <= 1e-9)
			return full_s;
	}
	return full_s + one_booking_s(q, held_s);
}

double billing_billed_s(const struct price_quote *q, double held_s)
{
	if (!(held_s > 0))
		return 0.0;
	if (q->block_s > 0)
		return billing_block_billed_s(q, held_s);
	double period_s = q->billing_s > 0 ? q->billing_s : 1.0;
	double billed_s = whole_periods_s(held_s, period_s);
	return billed_s < q->minimum_s ? q->minimum_s : billed_s;
}

double billing_cost_usd(const struct cluster_spec *c, double held_s)
{
	return billing_usd_per_hour(c) * billing_billed_s(&c->price, held_s) / 3600.0;
}

double billing_commit_breakeven(double committed_usd_per_gpu_hour, double on_demand_usd_per_gpu_hour)
{
	if (!(committed_usd_per_gpu_hour > 0) || !(on_demand_usd_per_gpu_hour > 0))
		return 0.0;
	return committed_usd_per_gpu_hour / on_demand_usd_per_gpu_hour;
}

double billing_year_use(double used_gpu_hours, int gpus, double window_h)
{
	if (gpus <= 0 || !(window_h > 0) || !(used_gpu_hours >= 0))
		return 0.0;
	/* (used x Y / window_h) / (gpus x Y) for a year of Y hours: the year
	 * cancels, the use of the window stands for the year's */
	return used_gpu_hours / ((double)gpus * window_h);
}
