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

double owned_usd_per_gpu_hour(const struct owned_terms *t, int gpus_per_node)
{
	return (owned_energy_usd_per_node_hour(t) + owned_amortized_usd_per_node_hour(t)) / gpus_per_node;
}
