/*
 * cluster: derived figures of one candidate cluster (struct cluster_spec).
 *
 * Aggregate peak FLOP/s, memory, per-GPU network bandwidth and the hourly
 * price with its billing rule. Pure functions of the resolved spec.
 */
#ifndef CLUSTERSIM_MODELS_CLUSTER_H
#define CLUSTERSIM_MODELS_CLUSTER_H

#include "models/hw/hw.h"

/* Dense peak FLOP/s of all GPUs in a precision (0 when unsupported). */
double cluster_peak_flops(const struct cluster_spec *c, enum precision p);

/* Total GPU memory in bytes. */
double cluster_memory_bytes(const struct cluster_spec *c);

/* Scale-out bandwidth per GPU per direction (NIC ports x rate / GPUs); 0 without NICs. */
double cluster_nic_bytes_per_s_per_gpu(const struct cluster_spec *c);

/* Dollars per hour for the whole cluster (0 when the price is unknown). */
double cluster_usd_per_hour(const struct cluster_spec *c);

/* Dollars for holding the cluster for duration_s seconds, rounded up to the
 * billing granularity (you pay for every started billing period). */
double cluster_cost_usd(const struct cluster_spec *c, double duration_s);

#endif
