#include "plan_band.h"

#include <assert.h>

#include "models/cost/price_band.h"
#include "models/plan/plan_point.h"
#include <string.h>

#include "util/text.h"

static void band_of(const struct run_result *r, struct price_band *b)
{
	b->sigma_low = r->price_sigma_low;
	b->sigma_high = r->price_sigma_high;
}

bool plan_band_range(const struct run_result *r, char *lo, char *hi, size_t size)
{
	struct price_band b;
	band_of(r, &b);
	if (!price_band_spread(&b))
		return false;
	plan_point_say_usd(r->cost_usd_p50 * price_band_factor(&b, 0.1), lo, size);
	plan_point_say_usd(r->cost_usd_p50 * price_band_factor(&b, 0.9), hi, size);
	return true;
}

void plan_band_cost(const struct run_result *r, char *buf, size_t size)
{
	char lo[48], hi[48];
	plan_point_say_usd(r->cost_usd_p50, buf, size);
	if (plan_band_range(r, lo, hi, sizeof lo))
		text_appendf(buf, size, " (P50, price band %s-%s)", lo, hi);
	else
		text_appendf(buf, size, " (P50)");
}

/* "NAME P50 $X, band $lo-$hi" (no band: "NAME P50 $X") */
static void say_banded(const struct plan_point *p, char *buf, size_t size)
{
	char usd[48], lo[48], hi[48];
	plan_point_say_usd(p->result.run.cost_usd_p50, usd, sizeof usd);
	text_setf(buf, size, "%s P50 %s", p->name, usd);
	if (plan_band_range(&p->result.run, lo, hi, sizeof lo))
		text_appendf(buf, size, ", band %s-%s", lo, hi);
}

/* A feasible training point with a run and a cost. */
static bool costed(const struct plan_point *p)
{
	return p->feasible && !plan_point_serving(p) && p->result.has_run && p->result.run.priced;
}

bool plan_band_swap(const struct plan_outcome *o, char *buf, size_t size)
{
	assert(size > 0);
	buf[0] = '\0';
	if (o->cheapest < 0 || !costed(&o->points[o->cheapest]))
		return false;
	const struct run_result *a = &o->points[o->cheapest].result.run;
	struct price_band ba, bb;
	band_of(a, &ba);
	long best = -1, second = -1;
	double best_p = 0;
	for (size_t i = 0; i < o->n; i++) {
		const struct plan_point *pt = &o->points[i];
		if ((long)i == o->cheapest || !costed(pt))
			continue;
		const struct run_result *b = &pt->result.run;
		if (second < 0 || b->cost_usd_p50 < o->points[second].result.run.cost_usd_p50)
			second = (long)i;
		band_of(b, &bb);
		double p = price_band_swap_probability(a->cost_usd_p50, &ba, b->cost_usd_p50, &bb,
						       strcmp(a->price_id, b->price_id) == 0);
		if (p > best_p) {
			best_p = p;
			best = (long)i;
		}
	}
	if (best < 0 || best_p < PRICE_BAND_SWAP_MATERIAL)
		return false;
	char ca[400], cb[400];
	say_banded(&o->points[o->cheapest], ca, sizeof ca);
	say_banded(&o->points[best], cb, sizeof cb);
	if (best == second)
		text_setf(buf, size, "price band: the two cheapest swap places in %.0f%% of the price band (%s; %s)",
			  100 * best_p, ca, cb);
	else
		text_setf(buf, size, "price band: %s is cheaper than %s in %.0f%% of the price band (%s; %s)",
			  o->points[best].name, o->points[o->cheapest].name, 100 * best_p, ca, cb);
	return true;
}
