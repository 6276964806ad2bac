#include "storage_cost.h"

double storage_cost_hold_usd(double bytes, double usd_per_tb_month, double held_s)
{
	if (!(bytes > 0) || !(held_s > 0) || !(usd_per_tb_month > 0))
		return 0.0;
	return bytes / 1e12 * usd_per_tb_month * held_s / (STORAGE_COST_HOURS_PER_MONTH * 3600.0);
}

double storage_cost_egress_usd(double bytes, double egress_usd_per_gb)
{
	if (!(bytes > 0) || !(egress_usd_per_gb > 0))
		return 0.0;
	return bytes / 1e9 * egress_usd_per_gb;
}

double storage_cost_billed_bytes(const struct storage_spec *s, double footprint_bytes)
{
	if (s->kind == STORAGE_MANAGED_LUSTRE && s->capacity_tib > 0)
		return s->capacity_tib * 1099511627776.0;  /* 2^40 bytes per TiB */
	return footprint_bytes;
}
