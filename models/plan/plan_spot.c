#include "plan_spot.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "models/plan/plan_point.h"
#include "util/text.h"

/* A tally of labels (a fate's or an outcome's name), in first-seen order. */
enum { TALLY_MAX = 16 };
struct tally {
	const char *label[TALLY_MAX];
	size_t count[TALLY_MAX];
	int n;
};

static void tally_add(struct tally *t, const char *label)
{
	int k = 0;
	while (k < t->n && strcmp(t->label[k], label) != 0)
		k++;
	if (k == t->n) {
		if (t->n == TALLY_MAX)
			return;
		t->label[t->n++] = label;
	}
	t->count[k]++;
}

/* What a point came to, in a word or two, for a tally. */
static const char *point_label(const struct plan_point *pt)
{
	if (pt->fate != PLAN_EVALUATED)
		return plan_fate_names[pt->fate];
	if (pt->result.outcome.status != OUTCOME_OK)
		return outcome_names[pt->result.outcome.status];
	if (!plan_point_priced_ok(&pt->result))
		return plan_point_serving(pt) ? "miss the SLO" : "without a cost";
	return pt->feasible ? "ok" : "miss the objective";
}

/* The cheapest feasible point of price type t at P50 (ties: the faster), or -1. */
static long cheapest_of_type(const struct plan_outcome *o, enum price_type t)
{
	long best = -1;
	for (size_t i = 0; i < o->n; i++) {
		const struct plan_point *pt = &o->points[i];
		if (!pt->feasible || pt->price_type != t)
			continue;
		if (best < 0 || plan_point_c50(pt) < plan_point_c50(&o->points[best]) ||
		    (plan_point_c50(pt) == plan_point_c50(&o->points[best]) && plan_point_t50(pt) < plan_point_t50(&o->points[best])))
			best = (long)i;
	}
	return best;
}

bool plan_spot(const struct plan_outcome *o, char *buf, size_t size)
{
	struct tally t = { .n = 0 };
	size_t n_spot = 0;
	char ts[32], td[32], us[48], ud[48];
	assert(size > 0);
	buf[0] = '\0';
	for (size_t i = 0; i < o->n; i++)
		if (o->points[i].price_type == PRICE_SPOT) {
			n_spot++;
			tally_add(&t, point_label(&o->points[i]));
		}
	if (n_spot == 0)
		return false;
	long s = cheapest_of_type(o, PRICE_SPOT), d = cheapest_of_type(o, PRICE_ON_DEMAND);
	const char *meets = o->objective.deadline_h > 0 || o->objective.budget_usd > 0 ? " and meets the objective" : "";
	if (s < 0 || plan_point_serving(&o->points[s])) {
		text_setf(buf, size, "spot: none of the %zu spot shape%s is ok%s:", n_spot, n_spot == 1 ? "" : "s", meets);
		for (int k = 0; k < t.n; k++)
			text_appendf(buf, size, "%s %zu %s", k ? "," : "", t.count[k], t.label[k]);
		text_appendf(buf, size, "; --show all gives each shape's reason");
		return true;
	}
	const struct plan_point *ps = &o->points[s];
	plan_point_say_time(plan_point_t50(ps), ts, sizeof ts);
	plan_point_say_usd(plan_point_c50(ps), us, sizeof us);
	if (d < 0) {
		char ts90[32], us90[48];
		plan_point_say_time(plan_point_t90(ps), ts90, sizeof ts90);
		plan_point_say_usd(plan_point_c90(ps), us90, sizeof us90);
		text_setf(buf, size, "spot: the cheapest spot shape, %s, takes %s for %s at P50 and %s for %s at P90 "
			 "(%g preemptions an instance-hour, %d trials); no on-demand shape is ok%s to compare it with",
			 ps->name, ts, us, ts90, us90, ps->preemptions_per_instance_h, o->trials, meets);
		return true;
	}
	const struct plan_point *pd = &o->points[d];
	plan_point_say_time(plan_point_t50(pd), td, sizeof td);
	plan_point_say_usd(plan_point_c50(pd), ud, sizeof ud);
	double save50 = 1 - plan_point_c50(ps) / plan_point_c50(pd), save90 = 1 - plan_point_c90(ps) / plan_point_c90(pd);
	if (save50 > 0)
		text_setf(buf, size, "spot saves %.0f%% at P50: %s takes %s for %s against %s for %s on the "
					"cheapest on-demand shape, %s", save50 * 100, ps->name, ts, us, td, ud, pd->name);
	else
		text_setf(buf, size, "spot saves nothing at P50: the cheapest spot shape, %s, takes %s for %s "
					"against %s for %s on the cheapest on-demand shape, %s", ps->name, ts, us, td, ud,
					pd->name);
	plan_point_say_time(plan_point_t90(ps), ts, sizeof ts);
	plan_point_say_usd(plan_point_c90(ps), us, sizeof us);
	plan_point_say_time(plan_point_t90(pd), td, sizeof td);
	plan_point_say_usd(plan_point_c90(pd), ud, sizeof ud);
	text_appendf(buf, size, "; at P90 (%g preemptions an instance-hour, %d trials) "
					 "%s for %s against %s for %s: %.0f%% %s, %.0f%% %s", ps->preemptions_per_instance_h,
					 o->trials, ts, us, td, ud, fabs(save90) * 100, save90 >= 0 ? "less" : "more",
					 fabs(plan_point_t90(ps) / plan_point_t90(pd) - 1) * 100,
					 plan_point_t90(ps) >= plan_point_t90(pd) ? "longer" : "shorter");
	if (o->objective.deadline_h > 0 && plan_point_t90(ps) > o->objective.deadline_h * 3600)
		text_appendf(buf, size, "; at P90 the spot shape misses the deadline of %g h",
			 o->objective.deadline_h);
	else if (o->objective.budget_usd > 0 && plan_point_c90(ps) > o->objective.budget_usd)
		text_appendf(buf, size, "; at P90 the spot shape is over the budget");
	return true;
}
