#include "topology.h"

#include <assert.h>
#include <stdlib.h>

#include "util/xalloc.h"

static struct link_class class_of(const struct fabric_spec *f, double bw)
{
	struct link_class k = {
		.bw_bytes_per_s = bw,
		.efficiency = f->efficiency,
		.latency_s = f->latency_s,
	};
	return k;
}

void topology_storage_rates(const struct storage_spec *s, int nodes, bool write, double *node_bytes_per_s,
			    double *tier_bytes_per_s)
{
	*node_bytes_per_s = write ? s->write_bytes_per_s_per_node : s->read_bytes_per_s_per_node;
	*tier_bytes_per_s = s->aggregate_bytes_per_s;
	if (*node_bytes_per_s <= 0)
		*node_bytes_per_s = *tier_bytes_per_s / nodes;
	if (*tier_bytes_per_s <= 0)
		*tier_bytes_per_s = *node_bytes_per_s * nodes;
}

void topology_init(struct topology *t, const struct cluster_spec *c)
{
	const struct fabric_spec *su = &c->scale_up;

	t->nodes = c->nodes;
	t->gpus_per_node = c->gpus_per_node;
	t->gpus = cluster_gpus(c);
	t->su_kind = su->topology;
	switch (su->topology) {
	case FTOPO_BRIDGE:
		t->domain_gpus = c->gpus_per_node < 2 ? c->gpus_per_node : 2;
		t->su = class_of(su, su->pair_bytes_per_s);
		t->su_gpu_bw = su->pair_bytes_per_s;
		break;
	case FTOPO_MESH:
		t->domain_gpus = su->domain_gpus > 0 && su->domain_gpus < c->gpus_per_node ? su->domain_gpus : c->gpus_per_node;
		t->su = class_of(su, su->pair_bytes_per_s);
		/* all of a GPU's links together, as far as the domain has peers */
		t->su_gpu_bw = su->pair_bytes_per_s * (t->domain_gpus - 1);
		if (t->su_gpu_bw > su->bw_bytes_per_s)
			t->su_gpu_bw = su->bw_bytes_per_s;
		break;
	case FTOPO_SWITCH:
	case FTOPO_HOST:
	case FTOPO_NONE:
	default:
		t->domain_gpus = c->gpus_per_node;
		t->su = class_of(su, su->bw_bytes_per_s);
		t->su_gpu_bw = su->bw_bytes_per_s;
		break;
	}
	t->nvls_efficiency = su->topology == FTOPO_SWITCH ? su->nvls_algbw_efficiency : 0.0;
	t->su_direct = su->topology == FTOPO_MESH && su->direct_collectives;
	t->has_host = c->has_host;
	if (c->has_host)
		t->host = class_of(&c->host, c->host.bw_bytes_per_s);
	t->has_nic = c->has_nic && c->nics_per_node > 0;
	t->rails = 0;
	if (t->has_nic) {
		t->rails = c->nics_per_node < c->gpus_per_node ? c->nics_per_node : c->gpus_per_node;
		t->rail = class_of(&c->nic, c->nic.bw_bytes_per_s * c->nics_per_node / t->rails);
	}
	t->kind = c->topology.kind;
	t->oversubscription = c->topology.oversubscription;
	t->nodes_per_leaf = c->topology.nodes_per_leaf > 0 ? c->topology.nodes_per_leaf : 1;
	t->leaf_groups = (t->nodes + t->nodes_per_leaf - 1) / t->nodes_per_leaf;
	t->n_storage = c->n_storage;
	for (int i = 0; i < c->n_storage; i++)
		t->storage[i] = c->storage[i];
}

bool topology_same_domain(const struct topology *t, long a, long b)
{
	if (topology_node(t, a) != topology_node(t, b))
		return false;
	return topology_local(t, a) / t->domain_gpus == topology_local(t, b) / t->domain_gpus;
}

double topology_leaf_uplink(const struct topology *t, int group)
{
	int first = group * t->nodes_per_leaf;
	int n = t->nodes - first < t->nodes_per_leaf ? t->nodes - first : t->nodes_per_leaf;
	double down = (double)n * t->rail.bw_bytes_per_s;
	if (t->kind == TOPO_FAT_TREE)
		down *= t->rails;
	return down / t->oversubscription;
}

static flow_link add(flow_net *fn, const struct link_class *k, double bw)
{
	return flow_add_link(fn, bw * k->efficiency);
}

/* Mesh or bridge: one link per ordered pair of GPUs sharing a domain. */
static void build_pair_links(struct topology_net *tn)
{
	const struct topology *t = tn->t;
	size_t per_node = (size_t)t->gpus_per_node * (size_t)t->gpus_per_node;
	tn->pair = xcalloc((size_t)t->nodes * per_node, sizeof *tn->pair);
	for (int n = 0; n < t->nodes; n++)
		for (int a = 0; a < t->gpus_per_node; a++)
			for (int b = 0; b < t->gpus_per_node; b++)
				if (a != b && a / t->domain_gpus == b / t->domain_gpus)
					tn->pair[(size_t)n * per_node + (size_t)a * t->gpus_per_node + (size_t)b] =
						add(tn->fn, &t->su, t->su.bw_bytes_per_s);
}

/* One link each way per GPU of the given class: a switch or host port. */
static void build_gpu_ports(struct topology_net *tn, const struct link_class *k, flow_link **up, flow_link **down)
{
	const struct topology *t = tn->t;
	*up = xcalloc((size_t)t->gpus, sizeof **up);
	*down = xcalloc((size_t)t->gpus, sizeof **down);
	for (long g = 0; g < t->gpus; g++) {
		(*up)[g] = add(tn->fn, k, k->bw_bytes_per_s);
		(*down)[g] = add(tn->fn, k, k->bw_bytes_per_s);
	}
}

/* The scale-up domain: pair links (with PCIe through the host between
 * domains of one node), or a switch/host port per GPU. */
static void build_scale_up(struct topology_net *tn)
{
	const struct topology *t = tn->t;
	if (t->su_kind == FTOPO_MESH || t->su_kind == FTOPO_BRIDGE) {
		build_pair_links(tn);
		if (t->has_host && t->domain_gpus < t->gpus_per_node)
			build_gpu_ports(tn, &t->host, &tn->pcie_up, &tn->pcie_down);
	} else {
		build_gpu_ports(tn, &t->su, &tn->gpu_up, &tn->gpu_down);
	}
}

/* Leaf uplinks and downlinks per group (x rail for rail topologies), when
 * there is more than one leaf group. */
static void build_leaf_links(struct topology_net *tn)
{
	const struct topology *t = tn->t;
	int per = t->kind == TOPO_RAIL ? t->rails : 1;
	size_t nl = (size_t)t->leaf_groups * (size_t)per;
	tn->has_leaf_links = true;
	tn->leaf_up = xcalloc(nl, sizeof *tn->leaf_up);
	tn->leaf_down = xcalloc(nl, sizeof *tn->leaf_down);
	for (int grp = 0; grp < t->leaf_groups; grp++) {
		double up_bytes_per_s = topology_leaf_uplink(t, grp);
		for (int r = 0; r < per; r++) {
			tn->leaf_up[(size_t)grp * per + r] = add(tn->fn, &t->rail, up_bytes_per_s);
			tn->leaf_down[(size_t)grp * per + r] = add(tn->fn, &t->rail, up_bytes_per_s);
		}
	}
}

/* The scale-out fabric: each node's rails, then the leaves above them. */
static void build_scale_out(struct topology_net *tn)
{
	const struct topology *t = tn->t;
	size_t nr = (size_t)t->nodes * (size_t)t->rails;
	tn->rail_up = xcalloc(nr, sizeof *tn->rail_up);
	tn->rail_down = xcalloc(nr, sizeof *tn->rail_down);
	for (size_t i = 0; i < nr; i++) {
		tn->rail_up[i] = add(tn->fn, &t->rail, t->rail.bw_bytes_per_s);
		tn->rail_down[i] = add(tn->fn, &t->rail, t->rail.bw_bytes_per_s);
	}
	if (t->leaf_groups > 1)
		build_leaf_links(tn);
}

/* Per tier its aggregate link, then each node's port to it (a rate left
 * out is the other one spread over, or summed from, the nodes). */
static void build_storage(struct topology_net *tn)
{
	const struct topology *t = tn->t;
	tn->store_node = xcalloc((size_t)t->nodes * (size_t)t->n_storage, sizeof *tn->store_node);
	tn->store_tier = xcalloc((size_t)t->n_storage, sizeof *tn->store_tier);
	for (int k = 0; k < t->n_storage; k++) {
		double node_bytes_per_s, tier_bytes_per_s;
		topology_storage_rates(&t->storage[k].spec, t->nodes, true, &node_bytes_per_s, &tier_bytes_per_s);
		tn->store_tier[k] = flow_add_link(tn->fn, tier_bytes_per_s);
		for (int n = 0; n < t->nodes; n++)
			tn->store_node[(size_t)n * t->n_storage + k] = flow_add_link(tn->fn, node_bytes_per_s);
	}
}

void topology_net_build(struct topology_net *tn, const struct topology *t, flow_net *fn)
{
	tn->t = t;
	tn->fn = fn;
	tn->gpu_up = tn->gpu_down = tn->pair = tn->pcie_up = tn->pcie_down = NULL;
	tn->rail_up = tn->rail_down = tn->leaf_up = tn->leaf_down = NULL;
	tn->store_node = tn->store_tier = NULL;
	tn->has_leaf_links = false;
	build_scale_up(tn);
	if (t->has_nic)
		build_scale_out(tn);
	if (t->n_storage > 0)
		build_storage(tn);
}

void topology_net_release(struct topology_net *tn)
{
	free(tn->gpu_up);
	free(tn->gpu_down);
	free(tn->pair);
	free(tn->pcie_up);
	free(tn->pcie_down);
	free(tn->rail_up);
	free(tn->rail_down);
	free(tn->leaf_up);
	free(tn->leaf_down);
	free(tn->store_node);
	free(tn->store_tier);
}

/* Append the intra-node hop(s) from local a to local b of node n. */
static int intra_path(const struct topology_net *tn, int n, int a, int b, flow_link *p, int len, double *lat)
{
	const struct topology *t = tn->t;
	long ga = (long)n * t->gpus_per_node + a, gb = (long)n * t->gpus_per_node + b;
	if (a == b)
		return len;
	if (tn->pair != NULL) {
		if (a / t->domain_gpus == b / t->domain_gpus) {
			size_t per_node = (size_t)t->gpus_per_node * (size_t)t->gpus_per_node;
			p[len++] = tn->pair[(size_t)n * per_node + (size_t)a * t->gpus_per_node + (size_t)b];
			*lat += t->su.latency_s;
		} else {
			assert(tn->pcie_up != NULL);
			p[len++] = tn->pcie_up[ga];
			p[len++] = tn->pcie_down[gb];
			*lat += 2 * t->host.latency_s;
		}
		return len;
	}
	p[len++] = tn->gpu_up[ga];
	p[len++] = tn->gpu_down[gb];
	*lat += t->su.latency_s;
	return len;
}

int topology_net_path(const struct topology_net *tn, long src, long dst, flow_link *p, double *latency_s)
{
	const struct topology *t = tn->t;
	int sn = topology_node(t, src), dn = topology_node(t, dst);
	int sl = topology_local(t, src), dl = topology_local(t, dst);
	int len = 0;
	double lat = 0;

	assert(src != dst && src >= 0 && dst >= 0 && src < t->gpus && dst < t->gpus);
	if (sn == dn) {
		len = intra_path(tn, sn, sl, dl, p, 0, &lat);
	} else {
		int r = topology_rail(t, sl);
		int sg = topology_group(t, sn), dg = topology_group(t, dn);
		assert(t->has_nic);
		p[len++] = tn->rail_up[(size_t)sn * t->rails + r];
		lat += t->rail.latency_s;
		if (sg != dg && tn->has_leaf_links) {
			int per = t->kind == TOPO_RAIL ? t->rails : 1;
			int lr = t->kind == TOPO_RAIL ? r : 0;
			p[len++] = tn->leaf_up[(size_t)sg * per + lr];
			p[len++] = tn->leaf_down[(size_t)dg * per + lr];
			lat += 2 * t->rail.latency_s;
		}
		p[len++] = tn->rail_down[(size_t)dn * t->rails + r];
		/* Arrive on rail r; cross to the destination GPU if it is on another rail. */
		if (topology_rail(t, dl) != r) {
			int via = r * t->gpus_per_node / t->rails;
			len = intra_path(tn, dn, via, dl, p, len, &lat);
		}
	}
	assert(len > 0 && len <= FLOW_PATH_MAX);
	if (latency_s != NULL)
		*latency_s = lat;
	return len;
}

int topology_net_storage_path(const struct topology_net *tn, int node, int tier, flow_link *p)
{
	const struct topology *t = tn->t;
	assert(tier >= 0 && tier < t->n_storage && node >= 0 && node < t->nodes);
	p[0] = tn->store_node[(size_t)node * t->n_storage + tier];
	p[1] = tn->store_tier[tier];
	return 2;
}
