#include "plan_point.h"

#include <stdio.h>

#include "util/text.h"

/* The figures a point is compared on. */
/* The figures a point is compared on: a training run's wall time and
 * dollars (P50, P90); a service's TTFT P99 (s) and dollars per hour (one
 * figure each: both fronts are the same). */
bool plan_point_serving(const struct plan_point *p) { return p->result.kind == RESULT_INFERENCE; }
double plan_point_t50(const struct plan_point *p)
{
	return plan_point_serving(p) ? p->result.serve.m.ttft_ms.p99 / 1e3 : p->result.run.wall_time_p50_s;
}
double plan_point_t90(const struct plan_point *p)
{
	return plan_point_serving(p) ? p->result.serve.m.ttft_ms.p99 / 1e3 : p->result.run.wall_time_p90_s;
}
double plan_point_c50(const struct plan_point *p)
{
	return plan_point_serving(p) ? p->result.serve_usd.usd_per_hour : p->result.run.cost_usd_p50;
}
double plan_point_c90(const struct plan_point *p)
{
	return plan_point_serving(p) ? p->result.serve_usd.usd_per_hour : p->result.run.cost_usd_p90;
}

/* An ok, priced result: a training run with dollars, or a service with
 * dollars that meets its SLO. */
bool plan_point_priced_ok(const struct result *r)
{
	if (r->outcome.status != OUTCOME_OK)
		return false;
	if (r->kind == RESULT_INFERENCE)
		return r->serve_usd.priced && r->serve.slo_met;
	return r->has_run && r->run.priced;
}

/* "45 min", "37.5 h", "1248 h". */
void plan_point_say_time(double s, char *buf, size_t size)
{
	if (s < 3600)
		snprintf(buf, size, "%.0f min", s / 60);
	else if (s < 100 * 3600)
		snprintf(buf, size, "%.3g h", s / 3600);
	else
		snprintf(buf, size, "%.0f h", s / 3600);
}

/* "$1,234,567". */
void plan_point_say_usd(double usd, char *buf, size_t size)
{
	text_usd(usd, buf, size);
}
