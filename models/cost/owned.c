#include "owned.h"

static const double HOURS_PER_YEAR = 8766.0;  /* 365.25 days */

double owned_energy_usd_per_node_hour(const struct owned_terms *t)
{
	return t->node_power_w / 1000.0 * t->pue * t->usd_per_kwh;
}

double owned_amortized_usd_per_node_hour(const struct owned_terms *t)
{
	return t->purchase_usd / (t->life_years * HOURS_PER_YEAR);
}

static const double HOURS_PER_MONTH = 730.5;  /* a year over 12 */

double owned_colo_usd_per_node_hour(const struct owned_terms *t)
{
	return t->node_power_w / 1000.0 * t->colo_usd_per_kw_month / HOURS_PER_MONTH;
}

double owned_usd_per_gpu_hour(const struct owned_terms *t, int gpus_per_node)
{
	double u = t->utilization > 0 ? t->utilization : 1.0;
	double fixed = owned_amortized_usd_per_node_hour(t) + owned_colo_usd_per_node_hour(t);
	return (owned_energy_usd_per_node_hour(t) + fixed / u) / gpus_per_node;
}

double owned_break_even_utilization(double fixed_usd_per_gpu_hour, double energy_usd_per_gpu_hour,
				    double rent_usd_per_gpu_hour)
{
	double margin = rent_usd_per_gpu_hour - energy_usd_per_gpu_hour;
	if (!(margin > 0))
		return -1.0;
	return fixed_usd_per_gpu_hour / margin;
}
