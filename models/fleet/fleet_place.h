/*
 * fleet_place: which GPUs of the shared cluster are free, and where a gang
 * job goes.
 *
 * The cluster is nodes x gpus_per_node, cut into scale-up domains (an
 * 8-GPU node is its own domain; an NVL72 rack is 18 nodes of 4 GPUs) and
 * leaf switches (nodes_per_leaf consecutive nodes). A job smaller than a
 * node goes into one node, best fit (the fullest node that has room). A job
 * of a node or more takes whole nodes: inside one scale-up domain when it
 * fits one (a hard rule: its duration assumes the domain's links), else
 * inside one leaf when it fits one (best fit: the leaf with the fewest whole
 * free nodes that suffice), else across leaves, the emptiest first. A job
 * gets all its GPUs or none (gang). A node can be made unusable (failed, or
 * held back for a reservation) and usable again.
 *
 * The state is flat arrays, so a copy (for a what-if: "when would the head
 * job fit?") is a few memcpy. Nodes sit in one array ordered by their key
 * (0 = unusable, 1 + free GPUs otherwise), segment bounds per key, so the
 * best-fit node and "does a sub-node job fit anywhere" are O(1), and a
 * node's free count moves in O(gpus_per_node). Nothing here knows jobs,
 * time or queues.
 */
#ifndef CLUSTERSIM_MODELS_FLEET_FLEET_PLACE_H
#define CLUSTERSIM_MODELS_FLEET_FLEET_PLACE_H

#include <stdbool.h>

struct fleet_place {
	int nodes, gpn;              /* nodes, GPUs per node */
	int domain_nodes, n_domains; /* nodes per scale-up domain (1: the node is the domain) */
	int leaf_nodes, n_leaves;    /* nodes per leaf switch */
	int *free;                   /* per node: free GPUs */
	unsigned char *usable;       /* per node: up and not held back */
	int *order;                  /* nodes ordered by key */
	int *pos;                    /* node -> its index in order */
	int *start;                  /* key k occupies order[start[k] .. start[k+1]); gpn + 3 entries */
	int *dom_whole, *leaf_whole; /* usable wholly free nodes per domain, per leaf */
	int whole;                   /* usable wholly free nodes */
	long free_gpus;              /* free GPUs on usable nodes */
};

/* Where a job went: n nodes, gpus_each GPUs on each (gang: n x gpus_each = its GPUs). */
struct fleet_alloc {
	int n;
	int gpus_each;
};

/* A cluster with every node usable and free; domain_gpus <= gpus_per_node
 * makes the node the domain; nodes_per_leaf <= 0 makes one leaf. Release
 * with fleet_place_release. */
void fleet_place_init(struct fleet_place *p, int nodes, int gpus_per_node, int domain_gpus, int nodes_per_leaf);
void fleet_place_release(struct fleet_place *p);

/* Copy src's state into dst (both initialised with the same shape). */
void fleet_place_copy(struct fleet_place *dst, const struct fleet_place *src);

/* NULL when a job of `gpus` GPUs can be placed on some cluster of this
 * shape, else why not (a static string). */
const char *fleet_place_invalid(const struct fleet_place *p, int gpus);

/* True when a job of `gpus` GPUs fits now (all its GPUs at once). */
bool fleet_place_fits(const struct fleet_place *p, int gpus);

/* Place a job of `gpus` GPUs that fits: its nodes into nodes_out (room for
 * max(1, gpus / gpus_per_node)), its shape into *a. */
void fleet_place_take(struct fleet_place *p, int gpus, int *nodes_out, struct fleet_alloc *a);

/* Give back what fleet_place_take gave. */
void fleet_place_give(struct fleet_place *p, const int *nodes, const struct fleet_alloc *a);

/* Make a node unusable or usable again (its free GPUs are kept). */
void fleet_place_set_usable(struct fleet_place *p, int node, bool usable);

/* Leaves and domains the given nodes touch. */
int fleet_place_leaves(const struct fleet_place *p, const int *nodes, int n);
int fleet_place_domains(const struct fleet_place *p, const int *nodes, int n);

#endif
