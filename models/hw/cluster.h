/*
 * cluster: derived figures of one candidate cluster (struct cluster_spec).
 *
 * Aggregate peak FLOP/s, memory and per-GPU network bandwidth. Pure
 * functions of the resolved spec; what it costs is cost/billing.h's.
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

#endif
