#include "collective.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/time.h"
#include "util/xalloc.h"

const char *const collective_op_names[] = {
	"all_reduce", "reduce_scatter", "all_gather", "all_to_all", "broadcast", "send_recv", NULL
};
const char *const collective_algo_names[] = { "auto", "ring", "tree", "hierarchical", "nvls", NULL };
const char *const collective_fidelity_names[] = { "analytic", "flows", NULL };
const char *const collective_protocol_names[] = { "LL", "Simple", NULL };

/*
 * Protocol constants, the only tuned numbers in this file (docs/calibration.md):
 * - base: latency of any collective, NCCL's baseLat for Ring (LL 3.6 us,
 *   Simple 8.4 us; NVIDIA/nccl src/graph/tuning.cc).
 * - step: protocol overhead per algorithm step, added to the hop latency.
 *   Fit to two nccl-tests points of an 8x A100 node (fabric nvlink3, 1 us
 *   hops, 14 ring steps): a 32 KiB all-reduce takes ~44 us (LL: S02 in
 *   reference/catalog/interconnects.csv) and a 16 MB all-reduce reaches
 *   109.22 GB/s busbw (Simple: Azure ND A100 v4, collectives.csv).
 * - bw_fraction: LL moves 8-byte lines of which half is flag, and NCCL's
 *   model gives ring LL a quarter of the bus bandwidth (tuning.cc).
 * - tree steps cost more than ring steps: NCCL's per-step latencies for
 *   Tree over Ring are, for LL, 0.52/0.47 (NVLink) and 5.0/2.7 (network);
 *   for Simple, 28/3.4 and 50/9.6 (tuning.cc hwLat). The same ratios are
 *   applied here.
 */
struct protocol {
	double base_s;
	double step_s;
	double bw_fraction;
	double tree_intra_ratio;
	double tree_inter_ratio;
};

static const struct protocol protocols[PROTO_COUNT] = {
	[PROTO_LL] = { 3.6e-6, 1.8e-6, 0.25, 0.52 / 0.47, 5.0 / 2.7 },
	[PROTO_SIMPLE] = { 8.4e-6, 8.7e-6, 1.0, 28.0 / 3.4, 50.0 / 9.6 },
};

/* NCCL engages NVLS only above 4 GPUs (S02: H200 > 4, B200 > 5; the
 * collectives.csv user report shows ring speed up to 4 GPUs on H100). */
#define NVLS_MIN_RANKS 5

/* The flow form of all-to-all makes n^2 flows; beyond this use analytic. */
#define A2A_FLOW_MAX_RANKS 512

void collective_group_make(struct collective_group *g, int nodes, int per_node)
{
	g->nodes = nodes;
	g->per_node = per_node;
	g->n = nodes * per_node;
}

void collective_group_all(struct collective_group *g, const struct topology *t)
{
	collective_group_make(g, t->nodes, t->gpus_per_node);
}

double collective_busbw_factor(enum collective_op op, int n)
{
	switch (op) {
	case COLL_ALL_REDUCE: return 2.0 * (n - 1) / n;
	case COLL_REDUCE_SCATTER:
	case COLL_ALL_GATHER:
	case COLL_ALL_TO_ALL: return (double)(n - 1) / n;
	case COLL_BROADCAST:
	case COLL_SEND_RECV:
	default: return 1.0;
	}
}

const char *collective_algo_label(enum collective_op op, enum collective_algo a)
{
	if (op == COLL_ALL_TO_ALL)
		return "pairwise";
	if (op == COLL_SEND_RECV)
		return "p2p";
	return collective_algo_names[a];
}

/* ---- the double binary tree ------------------------------------------ */

/*
 * Parent of rank r in NCCL's binary tree over m ranks, or -1 for the root
 * (NVIDIA/nccl src/graph/trees.cc, ncclGetBtree): r's parent clears r's
 * lowest set bit and sets the next one up, so subtrees are runs of
 * consecutive ranks and neighbours in rank order stay close.
 */
static int btree_parent(int r, int m)
{
	int bit, up;
	if (r == 0)
		return -1;
	for (bit = 1; bit < m; bit <<= 1)
		if (bit & r)
			break;
	up = (r ^ bit) | (bit << 1);
	if (up >= m)
		up = r ^ bit;
	return up;
}

/* The two trees of the double binary tree (ncclGetDtree): the second is the
 * first mirrored (m even) or shifted by one (m odd), so that a rank that is
 * a leaf in one tree is inside the other. */
static int tree_parent(int i, int m, int which)
{
	if (which == 0)
		return btree_parent(i, m);
	if (m % 2 == 0) {
		int p = btree_parent(m - 1 - i, m);
		return p < 0 ? -1 : m - 1 - p;
	}
	int p = btree_parent((i - 1 + m) % m, m);
	return p < 0 ? -1 : (p + 1) % m;
}

/*
 * The most a node sends, in units of S/2, over both trees: S/2 to its parent
 * (reduce) and S/2 to each child (broadcast). 4 (= 2S) for a node inside one
 * tree and a leaf of the other; less for small trees.
 */
static int tree_max_out(int m)
{
	int worst = 0;
	int *out = xcalloc((size_t)m, sizeof *out);
	for (int which = 0; which < 2; which++)
		for (int i = 0; i < m; i++) {
			int p = tree_parent(i, m, which);
			if (p < 0)
				continue;
			out[i]++;  /* reduce to the parent */
			out[p]++;  /* broadcast to this child */
		}
	for (int i = 0; i < m; i++)
		if (out[i] > worst)
			worst = out[i];
	free(out);
	return worst;
}

/*
 * Most tree edges (both trees) with exactly one end in one leaf group,
 * divided by the group's node count: the spine load per node of the
 * worst group, in units of one edge's traffic.
 */
static double tree_spine_load(int m, int nodes_per_leaf)
{
	double worst = 0;
	int groups = (m + nodes_per_leaf - 1) / nodes_per_leaf;
	int *cross = xcalloc((size_t)groups, sizeof *cross);
	/* one pass over the edges of both trees: O(m) */
	for (int which = 0; which < 2; which++)
		for (int i = 0; i < m; i++) {
			int p = tree_parent(i, m, which);
			int gi = i / nodes_per_leaf, gp;
			if (p < 0)
				continue;
			gp = p / nodes_per_leaf;
			if (gi != gp) {
				cross[gi]++;
				cross[gp]++;
			}
		}
	for (int g = 0; g < groups; g++) {
		int lo = g * nodes_per_leaf, hi = lo + nodes_per_leaf < m ? lo + nodes_per_leaf : m;
		double load = (double)cross[g] / (hi - lo);
		if (load > worst)
			worst = load;
	}
	free(cross);
	return worst;
}

/* ---- analytic ------------------------------------------------------------ */

/* Rates one rank gets, before the protocol's fraction. */
struct rates {
	double su;       /* scale-up, per rank */
	double su_pair;  /* scale-up between two given GPUs */
	double su_lat;   /* per hop */
	double net;      /* NIC rail share, per rank */
	double net_lat;
	double spine;    /* per rank across the leaf uplinks */
};

static struct rates rates_of(const struct topology *t, const struct collective_group *g)
{
	struct rates r = { 0 };
	int peers;

	switch (t->su_kind) {
	case FTOPO_MESH:
		/* Inside one node traffic spreads over all of a GPU's links; a ring
		 * across nodes uses one link to each neighbour. */
		peers = (g->per_node < t->domain_gpus ? g->per_node : t->domain_gpus) - 1;
		if (peers < 1 || g->nodes > 1)
			peers = 1;
		r.su = t->su.bw_bytes_per_s * peers;
		if (r.su > t->su_gpu_bw)
			r.su = t->su_gpu_bw;
		r.su *= t->su.efficiency;
		r.su_lat = t->su.latency_s;
		break;
	case FTOPO_BRIDGE:
		if (g->per_node <= t->domain_gpus || !t->has_host) {
			r.su = t->su.bw_bytes_per_s * t->su.efficiency;
			r.su_lat = t->su.latency_s;
		} else {
			/* a ring through more than a bridged pair crosses the host */
			r.su = t->host.bw_bytes_per_s * t->host.efficiency;
			r.su_lat = 2 * t->host.latency_s;
		}
		break;
	default:
		r.su = t->su_gpu_bw * t->su.efficiency;
		r.su_lat = t->su.latency_s;
		break;
	}
	r.su_pair = r.su;
	if (t->su_kind == FTOPO_MESH)
		r.su_pair = t->su.bw_bytes_per_s * t->su.efficiency;
	if (t->has_nic) {
		r.net = t->rail.bw_bytes_per_s * t->rails / t->gpus_per_node * t->rail.efficiency;
		r.net_lat = t->rail.latency_s;
		r.spine = r.net / t->oversubscription;
	}
	return r;
}

static double max2(double a, double b)
{
	return a > b ? a : b;
}

/* Fixed latency of `steps` steps, `inter` of them between nodes. */
static double steps_latency(const struct protocol *p, const struct rates *r, double intra, double inter,
			    double intra_ratio, double inter_ratio)
{
	return intra * (p->step_s * intra_ratio + r->su_lat) + inter * (p->step_s * inter_ratio + r->net_lat);
}

static void add_phase(struct coll_cost *c, double latency, double transfer)
{
	assert(c->phases < COLL_MAX_PHASES);
	c->phase_latency_s[c->phases] = latency;
	c->phase_transfer_s[c->phases] = transfer;
	c->phases++;
	c->latency_s += latency;
	c->transfer_s += transfer;
}

/* Cost of one algorithm with one protocol; false if it does not apply. */
static bool cost_one(const struct topology *t, const struct collective_group *g, enum collective_op op,
		     enum collective_algo a, enum coll_protocol pr, double S, struct coll_cost *c,
		     const char **why)
{
	const struct protocol *p = &protocols[pr];
	struct rates r = rates_of(t, g);
	double n = g->n, M = g->nodes, G = g->per_node;
	double frac = p->bw_fraction;
	double su = r.su * frac, net = r.net * frac;

	memset(c, 0, sizeof *c);
	c->algo = a;
	c->proto = pr;
	if (g->n < 2) {
		/* nothing to exchange */
		add_phase(c, 0, 0);
		c->time_s = 0;
		return true;
	}
	if (M > 1 && !t->has_nic) {
		*why = "the group spans nodes without a scale-out NIC";
		return false;
	}
	if (op == COLL_ALL_TO_ALL || op == COLL_SEND_RECV) {
		if (a != ALGO_AUTO && a != ALGO_RING) {
			*why = "all_to_all and send_recv have one algorithm (use auto)";
			return false;
		}
		c->algo = ALGO_RING;
	}

	switch (op) {
	case COLL_ALL_TO_ALL: {
		/* Pairwise exchange (MODELING: (n-1) alpha + (n-1)/n S/B, bounded by
		 * the bisection). Inter-node pieces leave on the sender's rail and
		 * are forwarded over the scale-up domain at the destination when
		 * they land on another rail (PXN). */
		double intra = (G - 1) / n * S;
		double inter = (n - G) / n * S;
		double fwd = G > 1 ? inter * (G - 1) / G : 0;
		double t_su = G > 1 ? (intra + fwd) / su : 0;
		double t_net = M > 1 ? inter / net : 0;
		double t_spine = 0;
		int per_group = t->nodes_per_leaf < g->nodes ? t->nodes_per_leaf : g->nodes;
		if (per_group < g->nodes && t->has_nic) {
			double cross = (n - per_group * G) / n * S;
			t_spine = cross / (r.spine * frac);
		}
		add_phase(c, p->base_s + steps_latency(p, &r, G - 1, n - G, 1, 1),
			  max2(t_su, max2(t_net, t_spine)));
		c->wire_bytes_per_rank = intra + inter;
		break;
	}
	case COLL_SEND_RECV: {
		/* Every rank sends S to the next and receives S from the previous. */
		/* One rank per node sends across and has its whole rail. It lands
		 * on its own rail's GPU at the destination; when that GPU is not
		 * the receiver it forwards (PXN), on top of its own send. */
		double pxn = 1;
		if (M > 1 && G > 1 && t->rails > 0) {
			int rail = topology_rail(t, g->per_node - 1);
			int via = rail * t->gpus_per_node / t->rails;
			if (topology_rail(t, 0) != rail && via != g->per_node - 1)
				pxn = 2;
		}
		double t_su = G > 1 ? pxn * S / (r.su_pair * frac) : 0;
		double t_net = M > 1 ? S / (t->rail.bw_bytes_per_s * t->rail.efficiency * frac) : 0;
		add_phase(c, p->base_s + steps_latency(p, &r, M > 1 ? 0 : 1, M > 1 ? 1 : 0, 1, 1),
			  max2(t_su, t_net));
		c->wire_bytes_per_rank = S;
		break;
	}
	default:
		switch (a) {
		case ALGO_RING: {
			double f = op == COLL_ALL_REDUCE ? 2 * (n - 1) / n : op == COLL_BROADCAST ? 1.0 : (n - 1) / n;
			double steps = op == COLL_ALL_REDUCE ? 2 * (n - 1) : n - 1;
			double inter = op == COLL_ALL_REDUCE ? 2 * (M - 1) : M - 1;
			double W = f * S;
			double t_x;
			if (M == 1)
				t_x = W / su;
			else if (G == 1)
				t_x = W / net;
			else
				/* one channel per rail: each node sends W/G on every rail; a
				 * channel's exit GPU forwards over the scale-up domain (PXN),
				 * so every GPU moves W there too */
				t_x = max2(W / su, W / (G * net));
			/* A ring crosses each leaf boundary once per channel: only an
			 * uplink thinner than one rail of one node slows it. */
			if (M > t->nodes_per_leaf && M > 1) {
				double k = t->nodes_per_leaf;
				double per_rail = G == 1 ? W : W / G;
				t_x = max2(t_x, per_rail / (k * r.spine * frac));
			}
			add_phase(c, p->base_s + steps_latency(p, &r, steps - inter, inter, 1, 1), t_x);
			c->wire_bytes_per_rank = W;
			break;
		}
		case ALGO_TREE: {
			if (op != COLL_ALL_REDUCE) {
				*why = "tree is an all_reduce algorithm";
				return false;
			}
			if (M < 2) {
				*why = "tree runs across nodes";
				return false;
			}
			/* Double binary tree: a node sends S/2 per tree edge and direction
			 * (2S when inside one tree and a leaf of the other) over its G
			 * rails; inside, a chain where middle GPUs send S each way. */
			double chain = G >= 3 ? 2 * S : S;
			double t_su = G > 1 ? chain / su : 0;
			double t_net = tree_max_out(g->nodes) * (S / 2) / (G * net);
			double depth = ceil(log2(M));
			/* Tree edges that leave a leaf group carry S/2 each way per tree,
			 * spread over the G rails, through the group's uplinks. */
			if (M > t->nodes_per_leaf) {
				double load = tree_spine_load(g->nodes, t->nodes_per_leaf);
				t_net = max2(t_net, load * S / 2 / (G * r.spine * frac));
			}
			add_phase(c, p->base_s + 2 * steps_latency(p, &r, G - 1, depth, p->tree_intra_ratio, p->tree_inter_ratio),
				  max2(t_su, t_net));
			c->wire_bytes_per_rank = 2 * S;
			break;
		}
		case ALGO_HIERARCHICAL: {
			if (op != COLL_ALL_REDUCE && op != COLL_REDUCE_SCATTER && op != COLL_ALL_GATHER) {
				*why = "hierarchical applies to all_reduce, reduce_scatter and all_gather";
				return false;
			}
			if (M < 2 || G < 2) {
				*why = "hierarchical needs several GPUs on each of several nodes";
				return false;
			}
			double intra_w = (G - 1) / G * S;
			double intra_lat = p->base_s + steps_latency(p, &r, G - 1, 0, 1, 1);
			double inter_f = op == COLL_ALL_REDUCE ? 2 * (M - 1) / M : (M - 1) / M;
			double inter_steps = op == COLL_ALL_REDUCE ? 2 * (M - 1) : M - 1;
			double inter_w = inter_f * S / G;
			double inter_lat = p->base_s + steps_latency(p, &r, 0, inter_steps, 1, 1);
			if (op == COLL_ALL_GATHER)
				add_phase(c, inter_lat, inter_w / net);
			if (op != COLL_ALL_GATHER)
				add_phase(c, intra_lat, intra_w / su);           /* reduce-scatter in the node */
			if (op != COLL_ALL_GATHER)
				add_phase(c, inter_lat, inter_w / net);          /* 1/G of the data, every rail */
			if (op != COLL_REDUCE_SCATTER)
				add_phase(c, intra_lat, intra_w / su);           /* all-gather in the node */
			c->wire_bytes_per_rank = intra_w * (op == COLL_ALL_REDUCE ? 2 : 1) + inter_w;
			break;
		}
		case ALGO_NVLS: {
			if (op != COLL_ALL_REDUCE) {
				*why = "NVLS is modelled for all_reduce";
				return false;
			}
			if (t->nvls_efficiency <= 0) {
				*why = "the scale-up switch does not reduce (no NVLink SHARP)";
				return false;
			}
			if (M > 1) {
				*why = "NVLS runs inside one NVSwitch domain";
				return false;
			}
			if (g->n < NVLS_MIN_RANKS) {
				*why = "NCCL uses NVLS only above 4 GPUs";
				return false;
			}
			if (pr != PROTO_SIMPLE) {
				*why = "NVLS uses the Simple protocol";
				return false;
			}
			/* Each GPU sends and receives S through the switch at the
			 * measured NVLS rate; the buffer passes in G - 1 steps. */
			add_phase(c, p->base_s + steps_latency(p, &r, G - 1, 0, 1, 1),
				  S / (t->su.bw_bytes_per_s * t->nvls_efficiency));
			c->wire_bytes_per_rank = 2 * S;
			break;
		}
		default:
			*why = "unknown algorithm";
			return false;
		}
	}
	c->time_s = c->latency_s + c->transfer_s;
	return true;
}

bool collective_analytic(const struct topology *t, const struct collective_group *g,
			 enum collective_op op, enum collective_algo algo, double bytes,
			 struct coll_cost *out, const char **why_not)
{
	/* What NCCL chooses from. Hierarchical (a sequence of separate intra and
	 * inter collectives) is not one of NCCL's algorithms, so it runs only
	 * when asked for; it is cheaper in this model than NCCL is in practice at
	 * medium sizes (docs/calibration.md). */
	static const enum collective_algo all[] = { ALGO_RING, ALGO_TREE, ALGO_NVLS, ALGO_HIERARCHICAL };
	const char *why = "no algorithm applies";
	bool found = false;
	struct coll_cost c;

	assert(bytes >= 0 && g->n >= 1);
	if ((op == COLL_ALL_TO_ALL || op == COLL_SEND_RECV) && algo != ALGO_AUTO && algo != ALGO_RING) {
		if (why_not != NULL)
			*why_not = "all_to_all and send_recv have one algorithm (use auto)";
		return false;
	}
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		enum collective_algo a = all[i];
		if (algo != ALGO_AUTO && algo != a)
			continue;
		if (algo == ALGO_AUTO && a == ALGO_HIERARCHICAL)
			continue;
		if ((op == COLL_ALL_TO_ALL || op == COLL_SEND_RECV) && a != ALGO_RING)
			continue;
		for (int pr = 0; pr < PROTO_COUNT; pr++) {
			if (!cost_one(t, g, op, a, (enum coll_protocol)pr, bytes, &c, &why))
				continue;
			/* Ties go to the earlier algorithm and protocol: deterministic. */
			if (!found || c.time_s < out->time_s) {
				*out = c;
				found = true;
			}
		}
	}
	if (!found && why_not != NULL)
		*why_not = why;
	return found;
}

/* ---- flows ------------------------------------------------------------- */

static void start_flow(struct collective_run *cr, flow_net *fn, long src, long dst, double bytes)
{
	flow_link path[FLOW_PATH_MAX];
	int len;
	if (bytes <= 0 || src == dst)
		return;
	len = topology_net_path(cr->tn, src, dst, path, NULL);
	cr->pending++;
	flow_start(fn, path, len, bytes, 1.0, 0, &cr->flow_done, 0);
}

/* A flow through one port of the switch (NVLS). */
static void start_port_flow(struct collective_run *cr, flow_net *fn, flow_link l, double bytes)
{
	cr->pending++;
	flow_start(fn, &l, 1, bytes, 1.0, 0, &cr->flow_done, 0);
}

/* GPU of rank (node k, local l) in the run's list. */
static inline long rank_gpu(const struct collective_run *cr, int k, int l)
{
	return cr->gpus[(size_t)k * cr->g.per_node + l];
}

/* Multi-channel ring: channel c enters each node at local c, visits the
 * node's GPUs in order and leaves from local c-1 for the next node. */
static void flows_ring(struct collective_run *cr, flow_net *fn, double W)
{
	int M = cr->g.nodes, G = cr->g.per_node;
	if (M == 1) {
		if (cr->tn->pair != NULL && G > 2) {
			/* a mesh: spread over every pair link (one ring per link) */
			for (int a = 0; a < G; a++)
				for (int b = 0; b < G; b++)
					if (a != b)
						start_flow(cr, fn, rank_gpu(cr, 0, a), rank_gpu(cr, 0, b), W / (G - 1));
			return;
		}
		for (int l = 0; l < G; l++)
			start_flow(cr, fn, rank_gpu(cr, 0, l), rank_gpu(cr, 0, (l + 1) % G), W);
		return;
	}
	double per_channel = W / G;
	for (int c = 0; c < G; c++) {
		for (int k = 0; k < M; k++) {
			for (int i = 0; i < G - 1; i++) {
				int a = (c + i) % G, b = (c + i + 1) % G;
				start_flow(cr, fn, rank_gpu(cr, k, a), rank_gpu(cr, k, b), per_channel);
			}
			int exit_l = (c + G - 1) % G;
			start_flow(cr, fn, rank_gpu(cr, k, exit_l), rank_gpu(cr, (k + 1) % M, c), per_channel);
		}
	}
}

static void flows_tree(struct collective_run *cr, flow_net *fn, double S)
{
	int M = cr->g.nodes, G = cr->g.per_node;
	/* chains inside nodes: S each way per edge (S/2 per tree, two trees) */
	for (int k = 0; k < M; k++)
		for (int l = 0; l + 1 < G; l++) {
			start_flow(cr, fn, rank_gpu(cr, k, l), rank_gpu(cr, k, l + 1), S);
			start_flow(cr, fn, rank_gpu(cr, k, l + 1), rank_gpu(cr, k, l), S);
		}
	/* tree edges between nodes: S/2 each way per tree, over all G rails */
	for (int which = 0; which < 2; which++)
		for (int k = 0; k < M; k++) {
			int p = tree_parent(k, M, which);
			if (p < 0)
				continue;
			for (int l = 0; l < G; l++) {
				start_flow(cr, fn, rank_gpu(cr, k, l), rank_gpu(cr, p, l), S / 2 / G);
				start_flow(cr, fn, rank_gpu(cr, p, l), rank_gpu(cr, k, l), S / 2 / G);
			}
		}
}

/* Rings inside each node (intra) or across nodes on each rail (inter). */
static void flows_intra_ring(struct collective_run *cr, flow_net *fn, double W)
{
	int M = cr->g.nodes, G = cr->g.per_node;
	for (int k = 0; k < M; k++)
		for (int l = 0; l < G; l++)
			start_flow(cr, fn, rank_gpu(cr, k, l), rank_gpu(cr, k, (l + 1) % G), W);
}

static void flows_inter_ring(struct collective_run *cr, flow_net *fn, double W)
{
	int M = cr->g.nodes, G = cr->g.per_node;
	for (int l = 0; l < G; l++)
		for (int k = 0; k < M; k++)
			start_flow(cr, fn, rank_gpu(cr, k, l), rank_gpu(cr, (k + 1) % M, l), W);
}

/* Start the flows of the current phase. */
static void start_phase(struct collective_run *cr)
{
	flow_net *fn = cr->fn;
	double S = cr->bytes, n = cr->g.n, M = cr->g.nodes, G = cr->g.per_node;
	double frac = protocols[cr->cost.proto].bw_fraction;
	double W;

	/* A protocol that uses a fraction of the bandwidth puts 1/fraction as
	 * many bytes on the wire. */
	S /= frac;
	cr->pending = 0;
	flow_batch_begin(fn);
	switch (cr->op) {
	case COLL_ALL_TO_ALL:
		for (int a = 0; a < cr->n; a++)
			for (int b = 0; b < cr->n; b++)
				if (a != b)
					start_flow(cr, fn, cr->gpus[a], cr->gpus[b], S / n);
		break;
	case COLL_SEND_RECV:
		for (int a = 0; a < cr->n; a++)
			start_flow(cr, fn, cr->gpus[a], cr->gpus[(a + 1) % cr->n], S);
		break;
	default:
		switch (cr->cost.algo) {
		case ALGO_RING:
			W = cr->op == COLL_ALL_REDUCE ? 2 * (n - 1) / n * S : cr->op == COLL_BROADCAST ? S : (n - 1) / n * S;
			flows_ring(cr, fn, W);
			break;
		case ALGO_TREE:
			flows_tree(cr, fn, S);
			break;
		case ALGO_NVLS: {
			/* Through the switch at NVLS speed: a port link runs at the ring
			 * efficiency, so the bytes are scaled to the NVLS rate. */
			const struct topology *t = cr->tn->t;
			double scale = t->su.efficiency / t->nvls_efficiency;
			for (int l = 0; l < cr->n; l++) {
				start_port_flow(cr, fn, cr->tn->gpu_up[cr->gpus[l]], S * scale);
				start_port_flow(cr, fn, cr->tn->gpu_down[cr->gpus[l]], S * scale);
			}
			break;
		}
		case ALGO_HIERARCHICAL: {
			double intra = (G - 1) / G * S;
			double inter = (cr->op == COLL_ALL_REDUCE ? 2 * (M - 1) / M : (M - 1) / M) * S / G;
			bool inter_phase = cr->op == COLL_ALL_GATHER ? cr->phase == 0 : cr->phase == 1;
			if (inter_phase)
				flows_inter_ring(cr, fn, inter);
			else
				flows_intra_ring(cr, fn, intra);
			break;
		}
		default:
			assert(0);
		}
	}
	flow_batch_end(fn);
}

static void phase_latency_passed(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct collective_run *cr = (struct collective_run *)((char *)h - offsetof(struct collective_run, phase_done));
	(void)arg;
	cr->phase++;
	if (cr->phase < cr->cost.phases) {
		start_phase(cr);
		if (cr->pending == 0)
			engine_after(e, sim_time_from_s(cr->cost.phase_latency_s[cr->phase]), ENGINE_CLASS_DECIDE, &cr->phase_done, 0);
		return;
	}
	cr->finished_ns = engine_now(e);
	if (cr->done != NULL)
		engine_after(e, 0, ENGINE_CLASS_DECIDE, cr->done, cr->arg);
}

static void flow_finished(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct collective_run *cr = (struct collective_run *)h;
	(void)arg;
	assert(cr->pending > 0);
	if (--cr->pending == 0)
		engine_after(e, sim_time_from_s(cr->cost.phase_latency_s[cr->phase]), ENGINE_CLASS_DECIDE, &cr->phase_done, 0);
}

int collective_run_start(struct collective_run *cr, const struct topology_net *tn, engine *e, flow_net *fn,
		   const long *gpus, int n, enum collective_op op, const struct coll_cost *cost,
		   double bytes, struct engine_handler *done, uint64_t arg)
{
	const struct topology *t = tn->t;
	int nodes = 1;

	memset(cr, 0, sizeof *cr);
	for (int i = 1; i < n; i++)
		if (topology_node(t, gpus[i]) != topology_node(t, gpus[i - 1]))
			nodes++;
	assert(n % nodes == 0);
	collective_group_make(&cr->g, nodes, n / nodes);
	if (op == COLL_ALL_TO_ALL && n > A2A_FLOW_MAX_RANKS)
		return -1;
	cr->flow_done.fn = flow_finished;
	cr->phase_done.fn = phase_latency_passed;
	cr->tn = tn;
	cr->fn = fn;
	cr->gpus = xcalloc((size_t)n, sizeof *cr->gpus);
	memcpy(cr->gpus, gpus, (size_t)n * sizeof *gpus);
	cr->n = n;
	cr->op = op;
	cr->cost = *cost;
	cr->bytes = bytes;
	cr->done = done;
	cr->arg = arg;
	cr->started_ns = engine_now(e);
	start_phase(cr);
	if (cr->pending == 0)
		engine_after(e, sim_time_from_s(cr->cost.phase_latency_s[0]), ENGINE_CLASS_DECIDE, &cr->phase_done, 0);
	return 0;
}

void collective_run_release(struct collective_run *cr)
{
	free(cr->gpus);
	cr->gpus = NULL;
}

double collective_simulate(const struct topology *t, enum collective_op op,
			   const struct coll_cost *cost, double bytes)
{
	engine *e = engine_new();
	flow_net *fn = flow_new(e);
	struct topology_net tn;
	struct collective_run cr;
	long *gpus = xcalloc((size_t)t->gpus, sizeof *gpus);
	double result = -1;

	for (long g = 0; g < t->gpus; g++)
		gpus[g] = g;
	topology_net_build(&tn, t, fn);
	if (collective_run_start(&cr, &tn, e, fn, gpus, (int)t->gpus, op, cost, bytes, NULL, 0) == 0) {
		engine_run(e, SIM_TIME_MAX);
		result = sim_time_to_s(cr.finished_ns - cr.started_ns);
		collective_run_release(&cr);
	}
	topology_net_release(&tn);
	free(gpus);
	flow_free(fn);
	engine_free(e);
	return result;
}
