#include "cluster.h"

#include <math.h>

double cluster_peak_flops(const struct cluster_spec *c, enum precision p)
{
	return c->gpu.peak_flops[p] * (double)cluster_gpus(c);
}

double cluster_memory_bytes(const struct cluster_spec *c)
{
	return c->gpu.memory_bytes * (double)cluster_gpus(c);
}

double cluster_nic_bytes_per_s_per_gpu(const struct cluster_spec *c)
{
	if (!c->has_nic || c->nics_per_node == 0)
		return 0.0;
	return c->nic.bw_bytes_per_s * c->nics_per_node / c->gpus_per_node;
}

double cluster_usd_per_hour(const struct cluster_spec *c)
{
	if (!c->price.known)
		return 0.0;
	return c->price.usd_per_gpu_hour * (double)cluster_gpus(c);
}

double cluster_cost_usd(const struct cluster_spec *c, double duration_s)
{
	double billing = c->price.billing_s > 0 ? c->price.billing_s : 1.0;
	double periods = ceil(duration_s / billing - 1e-9);
	if (periods < 1 && duration_s > 0)
		periods = 1;
	return cluster_usd_per_hour(c) * periods * billing / 3600.0;
}
