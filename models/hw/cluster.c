#include "cluster.h"

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
