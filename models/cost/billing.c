#include "billing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"

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

double billing_term_h(const char *term)
{
	char *end;
	if (term == NULL || term[0] < '1' || term[0] > '9')
		return 0.0;
	long years = strtol(term, &end, 10);
	if (strcmp(end, "y") != 0 || years < 1 || years > 10)
		return 0.0;
	return (double)years * BILLING_YEAR_H;
}

double billing_term_usd(const struct price_quote *q, long gpus)
{
	if (!q->known || q->type != PRICE_RESERVED || gpus <= 0)
		return 0.0;
	return q->usd_per_gpu_hour * (double)gpus * billing_term_h(q->term);
}

/* The clause of the use above which commitment q beats on-demand. */
static void beats_clause(const struct price_quote *q, char *buf, size_t size)
{
	double even = billing_commit_breakeven(q->usd_per_gpu_hour, q->on_demand_usd_per_gpu_hour);
	if (even > 0)
		text_appendf(buf, size, "; it beats on-demand ($%.4g/GPU-h) only above %.1f%% use of its hours",
			     q->on_demand_usd_per_gpu_hour, 100 * even);
	else
		text_appendf(buf, size, "; the catalog has no on-demand price of the same offering to weigh it against");
}

void billing_commit_note(const struct price_quote *q, long gpus, double held_s, char *buf, size_t size)
{
	char usd[TEXT_USD_MAX];
	buf[0] = '\0';
	if (!q->known || q->type != PRICE_RESERVED)
		return;
	double term_h = billing_term_h(q->term), held_h = billing_billed_s(q, held_s) / 3600;
	text_usd(billing_term_usd(q, gpus), usd, sizeof usd);
	if (term_h <= 0)
		text_setf(buf, size, "commitment: billed the reserved rate ($%.4g/GPU-h) for the hours held; the price "
			  "names no term in years, so what the rest of its term costs is not counted",
			  q->usd_per_gpu_hour);
	else if (held_s <= 0)
		text_setf(buf, size, "commitment: priced per hour at the %s reserved rate ($%.4g/GPU-h), as if every one "
			  "of the term's %.0f h is used; the term costs %s for these %ld GPUs whatever the use",
			  q->term, q->usd_per_gpu_hour, term_h, usd, gpus);
	else if (held_h < term_h)
		text_setf(buf, size, "commitment: billed the %s reserved rate ($%.4g/GPU-h) for the %.1f h held, as if "
			  "the other %.0f h of the term's %.0f h are used elsewhere; the term costs %s for these %ld "
			  "GPUs whatever the use", q->term, q->usd_per_gpu_hour, held_h, term_h - held_h, term_h, usd,
			  gpus);
	else
		text_setf(buf, size, "commitment: the %.0f h held are more than the %s term's %.0f h: billed the "
			  "reserved rate ($%.4g/GPU-h) for every hour held, as if the commitment is renewed for the rest",
			  held_h, q->term, term_h, q->usd_per_gpu_hour);
	beats_clause(q, buf, size);
}
