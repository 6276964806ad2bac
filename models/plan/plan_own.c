#include "plan_own.h"

#include <stdlib.h>

#include "models/cost/owned.h"
#include "models/plan/plan_point.h"
#include "util/text.h"
#include "util/xalloc.h"

enum { OWN_NAMED_MAX = 6 };

/* A rented shape and its dollars per owned GPU-hour. */
struct rent {
	size_t i;
	double r_usd_per_gpu_hour;
};

static int by_rent(const void *a, const void *b)
{
	const struct rent *x = a, *y = b;
	if (x->r_usd_per_gpu_hour != y->r_usd_per_gpu_hour)
		return x->r_usd_per_gpu_hour < y->r_usd_per_gpu_hour ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static bool rented_ok(const struct plan_point *p)
{
	return p->fate == PLAN_EVALUATED && p->price_type != PRICE_OWNED && !plan_point_serving(p) &&
	       plan_point_priced_ok(&p->result);
}

/* One rented shape's clause: its break-even utilization, or why none. */
static void clause(char *buf, size_t size, const struct plan_point *p, double r, const struct price_quote *q)
{
	char usd[TEXT_USD_MAX];
	double u = owned_break_even_utilization(q->owned_fixed_usd_per_gpu_hour, q->owned_energy_usd_per_gpu_hour, r);
	text_usd_cents(r, 100, usd, sizeof usd);
	if (u < 0)
		text_appendf(buf, size, "never against %s (%s per owned GPU-h, below the energy)", p->name, usd);
	else if (u > 1)
		text_appendf(buf, size, "never against %s (%s per owned GPU-h: it needs %.0f%%)", p->name, usd, u * 100);
	else
		text_appendf(buf, size, "%.0f%% against %s (%s per owned GPU-h)", u * 100, p->name, usd);
}

bool plan_own(const struct plan_outcome *o, size_t i, const struct price_quote *q, char *buf, size_t size)
{
	const struct plan_point *own = &o->points[i];
	buf[0] = '\0';
	if (own->fate != PLAN_EVALUATED || own->price_type != PRICE_OWNED || plan_point_serving(own) ||
	    !plan_point_priced_ok(&own->result) || !(q->usd_per_gpu_hour > 0))
		return false;
	/* the owned job's held GPU-hours: its cost over its price (billed per second) */
	double own_gpu_h = own->result.run.cost_usd_p50 / q->usd_per_gpu_hour;
	if (!(own_gpu_h > 0))
		return false;
	struct rent *rs = xcalloc(o->n, sizeof *rs);
	size_t n = 0;
	for (size_t j = 0; j < o->n; j++)
		if (rented_ok(&o->points[j]))
			rs[n++] = (struct rent){ j, o->points[j].result.run.cost_usd_p50 / own_gpu_h };
	if (n == 0) {
		free(rs);
		return false;
	}
	qsort(rs, n, sizeof *rs, by_rent);
	char fixed[TEXT_USD_MAX], energy[TEXT_USD_MAX];
	text_usd_cents(q->owned_fixed_usd_per_gpu_hour, 100, fixed, sizeof fixed);
	text_usd_cents(q->owned_energy_usd_per_gpu_hour, 100, energy, sizeof energy);
	text_setf(buf, size, "buy vs rent: %s (%s/GPU-h fixed, %s/GPU-h energy) breaks even with renting the "
		  "same jobs at utilization ", own->name, fixed, energy);
	for (size_t k = 0; k < n && k < OWN_NAMED_MAX; k++) {
		if (k > 0)
			text_appendf(buf, size, ", ");
		clause(buf, size, &o->points[rs[k].i], rs[k].r_usd_per_gpu_hour, q);
	}
	if (n > OWN_NAMED_MAX)
		text_appendf(buf, size, ", and %zu more rented shapes", n - OWN_NAMED_MAX);
	/* the stated utilization against the cheapest rented shape */
	double u0 = owned_break_even_utilization(q->owned_fixed_usd_per_gpu_hour, q->owned_energy_usd_per_gpu_hour,
						 rs[0].r_usd_per_gpu_hour);
	double u = q->owned_utilization > 0 ? q->owned_utilization : 1;
	text_appendf(buf, size, "; at its stated %.0f%%, %s", u * 100,
		     u0 >= 0 && u >= u0 ? "buying is cheaper than renting any of them"
					 : "renting the cheapest is cheaper than buying");
	free(rs);
	return true;
}
