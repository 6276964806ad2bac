/*
 * topology: the shape of a candidate cluster as links.
 *
 * struct topology is the cluster reduced to what collectives and transfers
 * need: nodes x GPUs per node; the scale-up domain (an NVSwitch crossbar of
 * 8 or NVL72's 72, an xGMI full mesh where each pair has its own link, NVLink
 * bridge pairs, or PCIe through the host); NIC rails (NIC ports per node
 * grouped rail-aligned behind the GPUs: with 8 GPUs and 32 ports each GPU
 * has 4 ports, with 4 ports two GPUs share one); the scale-out fabric
 * (rail-optimized: rail r of every node on the rail-r leaf of its group;
 * fat-tree: a node's ports on one leaf), leaves of nodes_per_leaf nodes,
 * with oversubscription above the leaves; and storage tiers.
 *
 * struct topology_net instantiates it as flow_net links (capacities derated by
 * each fabric's measured efficiency) and gives the path between two GPUs
 * or from a node to a storage tier. Rank placement (which GPU runs which
 * rank of a parallel plan) lives in plan.c; here a GPU is 0 .. gpus-1,
 * node = gpu / gpus_per_node.
 */
#ifndef CLUSTERSIM_MODELS_TOPOLOGY_H
#define CLUSTERSIM_MODELS_TOPOLOGY_H

#include <stdbool.h>

#include "models/hw/hw.h"
#include "sim/flow.h"

/* One class of link: its raw rate per direction, the fraction of it that
 * collectives reach, and its per-hop latency. */
struct link_class {
	double bw_bytes_per_s;
	double efficiency;
	double latency_s;
};

struct topology {
	int nodes;
	int gpus_per_node;
	long gpus;
	enum fabric_topology su_kind;
	int domain_gpus;          /* GPUs one scale-up domain joins (<= gpus_per_node) */
	struct link_class su;     /* per GPU (switch/host) or per pair (mesh/bridge) */
	double su_gpu_bw;         /* per-GPU total scale-up rate (all links) */
	double nvls_efficiency;   /* algbw / su bw for in-switch reduction; 0 = none */
	bool su_direct;           /* a mesh whose library runs direct (all peers at once) collectives */
	bool has_host;
	struct link_class host;   /* per-GPU PCIe to the host */
	bool has_nic;
	int rails;                /* rail ports per node = min(NIC ports, GPUs) */
	struct link_class rail;   /* one rail: all NIC ports behind one GPU */
	enum topology_kind kind;
	double oversubscription;
	int nodes_per_leaf;
	int leaf_groups;
	int n_storage;
	struct storage_tier storage[CAT_STORAGE_MAX];
};

/* A storage tier's client rate per node and aggregate rate for writes (or
 * reads), the one that is not given (0) following from the other. */
void topology_storage_rates(const struct storage_spec *s, int nodes, bool write, double *node_bytes_per_s,
			    double *tier_bytes_per_s);

void topology_init(struct topology *t, const struct cluster_spec *c);

static inline int topology_node(const struct topology *t, long gpu)
{
	return (int)(gpu / t->gpus_per_node);
}

static inline int topology_local(const struct topology *t, long gpu)
{
	return (int)(gpu % t->gpus_per_node);
}

/* The rail (0 .. rails-1) a GPU's traffic leaves its node on. */
static inline int topology_rail(const struct topology *t, int local)
{
	return t->rails > 0 ? local * t->rails / t->gpus_per_node : 0;
}

/* The leaf group of a node. */
static inline int topology_group(const struct topology *t, int node)
{
	return node / t->nodes_per_leaf;
}

/* Whether two GPUs of one node share a scale-up domain with a direct path. */
bool topology_same_domain(const struct topology *t, long a, long b);

/* Uplink capacity (raw bytes/s, one direction) of one leaf: for a rail
 * topology one rail's leaf of group g, for a fat tree the node group's leaf. */
double topology_leaf_uplink(const struct topology *t, int group);

/* Links of a topology inside a flow_net. */
struct topology_net {
	const struct topology *t;
	flow_net *fn;
	flow_link *gpu_up, *gpu_down;  /* switch/host scale-up port per GPU */
	flow_link *pair;               /* mesh/bridge: per node, per ordered pair */
	flow_link *pcie_up, *pcie_down;/* bridge/mesh fallback through the host */
	flow_link *rail_up, *rail_down;/* per node x rail */
	flow_link *leaf_up, *leaf_down;/* per group (x rail for rail topologies) */
	flow_link *store_node;         /* per node x tier: the node's storage port */
	flow_link *store_tier;         /* per tier: its aggregate rate */
	bool has_leaf_links;
};

/* Create the links (capacity = raw rate x efficiency). Borrows t and fn. */
void topology_net_build(struct topology_net *tn, const struct topology *t, flow_net *fn);
void topology_net_release(struct topology_net *tn);

/*
 * Path from GPU src to GPU dst (src != dst) into path[FLOW_PATH_MAX]; returns
 * its length. Inter-node traffic leaves on the source GPU's rail and arrives
 * on the same rail of the destination node, crossing the scale-up domain
 * there when the destination GPU sits on another rail (as NCCL's PXN does).
 * *latency_s gets the sum of the hops' latencies.
 */
int topology_net_path(const struct topology_net *tn, long src, long dst, flow_link *path, double *latency_s);

/* Path from a node to storage tier `tier` (node port, then tier aggregate). */
int topology_net_storage_path(const struct topology_net *tn, int node, int tier, flow_link *path);

#endif
