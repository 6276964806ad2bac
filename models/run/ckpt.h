/*
 * ckpt: what one checkpoint costs on a candidate cluster.
 *
 * Its size comes from the plan: every trained parameter is written once
 * (the data-parallel replicas hold copies; distributed checkpointing writes
 * each shard once, spread over every node) as its weights (the run's
 * precision, at least bf16), the fp32 master copy and Adam's two fp32
 * moments: 2 + 4 + 4 + 4 = 14 bytes per parameter for a bf16 run. A LoRA or
 * QLoRA finetune writes only the adapters and their optimizer state (the
 * frozen base is already on storage).
 *
 * The write is simulated: one flow per node, each carrying size / nodes
 * bytes over topology_net_storage_path (the node's client port, then the
 * tier's aggregate link) on a flow_net, sharing bandwidth max-min fairly;
 * it takes as long as the last flow. A read (a restart) goes the same way
 * at the tier's read rates. The device-to-host copy of an asynchronous
 * checkpoint moves each GPU's share over its host link (the catalog's host
 * fabric, PCIe) at that link's rate.
 */
#ifndef CLUSTERSIM_MODELS_RUN_CKPT_H
#define CLUSTERSIM_MODELS_RUN_CKPT_H

#include <stdbool.h>

#include "models/hw/hw.h"
#include "models/train/train.h"

/* Bytes of one checkpoint of the whole job under plan p. */
double ckpt_bytes(const struct train_spec *w, const struct train_plan *p);

/* The index of storage tier `name` of the candidate, or -1. */
int ckpt_tier_index(const struct cluster_spec *c, const char *name);

/* Seconds for `writers` nodes (1 .. c->nodes) of the candidate to write
 * `bytes` in all (bytes / writers each) to tier `tier` at the same time,
 * simulated as flows; write = false reads them back instead. */
double ckpt_transfer_s(const struct cluster_spec *c, int tier, int writers, double bytes, bool write);

/* Seconds of the device-to-host copy of `bytes` spread over every GPU
 * (each over its own host link); < 0 when the candidate has no host link. */
double ckpt_d2h_s(const struct cluster_spec *c, double bytes);

/* Young (1974): the checkpoint interval sqrt(2 delta M). */
double ckpt_young_s(double delta_s, double mtbf_s);

/* Daly (FGCS 2006): sqrt(2 delta M)[1 + (1/3) sqrt(delta/(2M)) +
 * (1/9)(delta/(2M))] - delta for delta < 2M, else M. */
double ckpt_daly_s(double delta_s, double mtbf_s);

#endif
