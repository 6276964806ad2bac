#include "plan_band.h"

#include <assert.h>
#include <string.h>

#include "models/cost/price_band.h"
#include "models/plan/plan_point.h"
#include "util/text.h"

static void band_of(const struct run_result *r, struct price_band *b)
{
	b->sigma_low = r->price_sigma_low;
	b->sigma_high = r->price_sigma_high;
}

/* usd x the band's 10th and 90th percentile factors into lo and hi (each
 * TEXT_USD_MAX); false, nothing written, without a band. */
static bool say_range(double usd, const struct price_band *b, char *lo, char *hi)
{
	if (!price_band_spread(b))
		return false;
	plan_point_say_usd(usd * price_band_factor(b, 0.1), lo, TEXT_USD_MAX);
	plan_point_say_usd(usd * price_band_factor(b, 0.9), hi, TEXT_USD_MAX);
	return true;
}

void plan_band_cost(const struct run_result *r, char *buf, size_t size)
{
	char lo[TEXT_USD_MAX], hi[TEXT_USD_MAX];
	struct price_band b;
	assert(size >= PLAN_BAND_COST_MAX);
	band_of(r, &b);
	plan_point_say_usd(r->cost_usd_p50, buf, size);
	if (say_range(r->cost_usd_p50, &b, lo, hi))
		text_appendf(buf, size, " (P50, price band %s-%s)", lo, hi);
	else
		text_appendf(buf, size, " (P50)");
}

/* A feasible point with a cost: a training run's P50, a service's hour. */
static bool costed(const struct plan_point *p)
{
	if (!p->feasible)
		return false;
	if (plan_point_serving(p))
		return p->result.serve_usd.instances > 0;
	return p->result.has_run && p->result.run.priced;
}

static double point_usd(const struct plan_point *p)
{
	return plan_point_serving(p) ? p->result.serve_usd.usd_per_hour : p->result.run.cost_usd_p50;
}

static void point_band(const struct plan_point *p, struct price_band *b)
{
	if (plan_point_serving(p))
		*b = p->result.serve_usd.band;
	else
		band_of(&p->result.run, b);
}

static const char *point_price_id(const struct plan_point *p)
{
	return plan_point_serving(p) ? p->result.serve_usd.price_id : p->result.run.price_id;
}

/* "NAME P50 $X, band $lo-$hi" (no band: "NAME P50 $X"); a service's
 * "NAME $X/h, band $lo-$hi/h"; size at least SAY_BANDED_MAX */
#define SAY_BANDED_MAX (CAT_TEXT_MAX + PLAN_BAND_COST_MAX)
static void say_banded(const struct plan_point *p, char *buf, size_t size)
{
	char usd[TEXT_USD_MAX], lo[TEXT_USD_MAX], hi[TEXT_USD_MAX];
	struct price_band b;
	bool serving = plan_point_serving(p);
	point_band(p, &b);
	plan_point_say_usd(point_usd(p), usd, sizeof usd);
	text_setf(buf, size, serving ? "%s %s/h" : "%s P50 %s", p->name, usd);
	if (say_range(point_usd(p), &b, lo, hi))
		text_appendf(buf, size, ", band %s-%s%s", lo, hi, serving ? "/h" : "");
}

void plan_band_serving_cost(const struct inference_dollars *d, char *buf, size_t size)
{
	char lo[TEXT_USD_MAX], hi[TEXT_USD_MAX];
	assert(size >= PLAN_BAND_COST_MAX);
	plan_point_say_usd(d->usd_per_hour, buf, size);
	text_appendf(buf, size, "/h");
	if (say_range(d->usd_per_hour, &d->band, lo, hi))
		text_appendf(buf, size, " (price band %s-%s/h)", lo, hi);
}

bool plan_band_swap(const struct plan_outcome *o, char *buf, size_t size)
{
	assert(size >= PLAN_BAND_SWAP_MAX);
	buf[0] = '\0';
	if (o->cheapest < 0 || !costed(&o->points[o->cheapest]))
		return false;
	const struct plan_point *a = &o->points[o->cheapest];
	struct price_band ba, bb;
	point_band(a, &ba);
	long best = -1, second = -1;
	double best_p = 0;
	for (size_t i = 0; i < o->n; i++) {
		const struct plan_point *b = &o->points[i];
		if ((long)i == o->cheapest || !costed(b) || plan_point_serving(b) != plan_point_serving(a))
			continue;
		if (second < 0 || point_usd(b) < point_usd(&o->points[second]))
			second = (long)i;
		point_band(b, &bb);
		double p = price_band_swap_probability(point_usd(a), &ba, point_usd(b), &bb,
						       strcmp(point_price_id(a), point_price_id(b)) == 0);
		if (p > best_p) {
			best_p = p;
			best = (long)i;
		}
	}
	if (best < 0 || best_p < PRICE_BAND_SWAP_MATERIAL)
		return false;
	char ca[SAY_BANDED_MAX], cb[SAY_BANDED_MAX];
	say_banded(a, ca, sizeof ca);
	say_banded(&o->points[best], cb, sizeof cb);
	if (best == second)
		text_setf(buf, size, "price band: the two cheapest swap places in %.0f%% of the price band (%s; %s)",
			  100 * best_p, ca, cb);
	else
		text_setf(buf, size, "price band: %s is cheaper than %s in %.0f%% of the price band (%s; %s)",
			  o->points[best].name, a->name, 100 * best_p, ca, cb);
	return true;
}
