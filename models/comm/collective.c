#include "collective.h"

#include <assert.h>
#include <string.h>

#include "models/comm/coll_plan.h"
#include "models/comm/dtree.h"

const char *const collective_op_names[] = {
	"all_reduce", "reduce_scatter", "all_gather", "all_to_all", "broadcast", "send_recv", NULL
};
const char *const collective_algo_names[] = { "auto", "ring", "tree", "hierarchical", "nvls", "direct", NULL };
const char *const collective_fidelity_names[] = { "analytic", "flows", NULL };
const char *const collective_protocol_names[] = { "LL", "Simple", NULL };

/*
 * Protocol constants, the only tuned numbers in this file (docs/explanation/calibration.md):
 * - base: latency of any collective, NCCL's baseLat for Ring (LL 3.6 us,
 *   Simple 8.4 us; NVIDIA/nccl src/graph/tuning.cc).
 * - step: protocol overhead per algorithm step, added to the hop latency.
 *   Fit to two nccl-tests points of an 8x A100 node (fabric nvlink3, 1 us
 *   hops, 14 ring steps): a 32 KiB all-reduce takes ~44 us (LL: S02 in
 *   reference/catalog/interconnects.csv) and a 16 MB all-reduce reaches
 *   109.22 GB/s busbw (Simple: Azure ND A100 v4, collectives.csv).
 * - bw_fraction: LL moves 8-byte lines of which half is flag, and NCCL's
 *   model gives ring LL a quarter of the bus bandwidth (tuning.cc). A power
 *   of two, so scaling rates or bytes by it is exact in either fidelity.
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

double collective_protocol_bw_fraction(enum coll_protocol pr)
{
	assert(pr >= 0 && pr < PROTO_COUNT);
	return protocols[pr].bw_fraction;
}

/* NCCL engages NVLS only above 4 GPUs (S02: H200 > 4, B200 > 5; the
 * collectives.csv user report shows ring speed up to 4 GPUs on H100). */
enum { NVLS_MIN_RANKS = 5 };

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

/* ---- analytic ------------------------------------------------------------ */

/* Rates one rank reaches with one protocol (its bandwidth fraction applied),
 * and per-hop latencies. */
struct rates {
	double su_bytes_per_s;       /* scale-up, per rank */
	double su_pair_bytes_per_s;  /* scale-up between two given GPUs */
	double su_hop_s;
	double switch_bytes_per_s;   /* through a reducing switch (NVLS) */
	double net_bytes_per_s;      /* NIC rail share, per rank */
	double rail_bytes_per_s;     /* one whole rail */
	double net_hop_s;
	double spine_bytes_per_s;    /* per rank across the leaf uplinks */
};

/* Scale-up rate per rank before the protocol's fraction, and its hop. */
static double scale_up_rate(const struct topology *t, const struct collective_group *g, double *hop_s)
{
	double bw;
	int peers;
	*hop_s = t->su.latency_s;
	switch (t->su_kind) {
	case FTOPO_MESH:
		/* Inside one node traffic spreads over all of a GPU's links; a ring
		 * across nodes uses one link to each neighbour. */
		peers = (g->per_node < t->domain_gpus ? g->per_node : t->domain_gpus) - 1;
		if (peers < 1 || g->nodes > 1)
			peers = 1;
		bw = t->su.bw_bytes_per_s * peers;
		if (bw > t->su_gpu_bw)
			bw = t->su_gpu_bw;
		return bw * t->su.efficiency;
	case FTOPO_BRIDGE:
		if (g->per_node <= t->domain_gpus || !t->has_host)
			return t->su.bw_bytes_per_s * t->su.efficiency;
		/* a ring through more than a bridged pair crosses the host */
		*hop_s = 2 * t->host.latency_s;
		return t->host.bw_bytes_per_s * t->host.efficiency;
	default:
		return t->su_gpu_bw * t->su.efficiency;
	}
}

static struct rates rates_of(const struct topology *t, const struct collective_group *g, double frac)
{
	struct rates r = { 0 };
	double su = scale_up_rate(t, g, &r.su_hop_s);

	r.su_bytes_per_s = su * frac;
	r.su_pair_bytes_per_s = (t->su_kind == FTOPO_MESH ? t->su.bw_bytes_per_s * t->su.efficiency : su) * frac;
	r.switch_bytes_per_s = t->su.bw_bytes_per_s * t->nvls_efficiency * frac;
	if (t->has_nic) {
		double net = t->rail.bw_bytes_per_s * t->rails / t->gpus_per_node * t->rail.efficiency;
		r.net_bytes_per_s = net * frac;
		r.rail_bytes_per_s = t->rail.bw_bytes_per_s * t->rail.efficiency * frac;
		r.net_hop_s = t->rail.latency_s;
		r.spine_bytes_per_s = net / t->oversubscription * frac;
	}
	return r;
}

static double max2(double a, double b)
{
	return a > b ? a : b;
}

/* What a phase is costed against: the topology, the group, the rates. */
struct cost_env {
	const struct topology *t;
	const struct collective_group *g;
	struct rates r;
	double net_scale;  /* all-to-all: share of the inter-node bytes that go on the wire (1: all) */
};

/* Fixed part of a phase: the protocol's base latency, then per step the
 * protocol's overhead plus the hop (tree steps cost more, per NCCL). */
static double phase_latency_s(const struct protocol *p, const struct rates *r, const struct coll_plan_phase *ph)
{
	bool tree = ph->pattern == COLL_PLAN_TREE;
	double intra_ratio = tree ? p->tree_intra_ratio : 1, inter_ratio = tree ? p->tree_inter_ratio : 1;
	return p->base_s + (ph->intra_steps * (p->step_s * intra_ratio + r->su_hop_s) +
			    ph->inter_steps * (p->step_s * inter_ratio + r->net_hop_s));
}

/*
 * A ring. Across nodes with several GPUs each, one channel per rail: each
 * node sends W/G on every rail and a channel's exit GPU forwards over the
 * scale-up domain (PXN), so every GPU moves W there too. A ring crosses each
 * leaf boundary once per channel: only an uplink thinner than one rail of
 * one node slows it.
 */
static double ring_transfer_s(const struct cost_env *e, const struct coll_plan_phase *ph)
{
	const struct rates *r = &e->r;
	double W = ph->bytes_per_rank, M = e->g->nodes, G = e->g->per_node;
	double t_x;

	if (ph->scope == COLL_PLAN_IN_NODE || M == 1)
		return W / r->su_bytes_per_s;
	if (ph->scope == COLL_PLAN_ON_RAILS)
		return W / r->net_bytes_per_s;
	t_x = max2(G > 1 ? W / r->su_bytes_per_s : 0, W / (G * r->net_bytes_per_s));
	if (M > e->t->nodes_per_leaf)
		t_x = max2(t_x, W / G / (e->t->nodes_per_leaf * r->spine_bytes_per_s));
	return t_x;
}

/* The double binary tree: the busiest node's tree edges over its G rails,
 * the chain inside it, and the tree edges that leave a leaf group. */
static double tree_transfer_s(const struct cost_env *e, const struct coll_plan_phase *ph)
{
	const struct rates *r = &e->r;
	int nodes = e->g->nodes, per_leaf = e->t->nodes_per_leaf;
	double G = e->g->per_node;
	double edge = ph->bytes_per_rank / 4;
	double chain = G >= 3 ? ph->bytes_per_rank : ph->bytes_per_rank / 2;
	double t_su = G > 1 ? chain / r->su_bytes_per_s : 0;
	double t_net = dtree_max_out(nodes) * edge / (G * r->net_bytes_per_s);
	if (nodes > per_leaf)
		t_net = max2(t_net, dtree_spine_load(nodes, per_leaf) * edge / (G * r->spine_bytes_per_s));
	return max2(t_su, t_net);
}

/* Pairwise exchange, bounded by the bisection. Inter-node pieces leave on
 * the sender's rail and are forwarded over the scale-up domain at the
 * destination when they land on another rail (PXN). */
static double pairwise_transfer_s(const struct cost_env *e, const struct coll_plan_phase *ph)
{
	const struct rates *r = &e->r;
	double n = e->g->n, M = e->g->nodes, G = e->g->per_node;
	double piece = ph->bytes_per_rank / (n - 1);
	double intra = (G - 1) * piece, inter = (n - G) * piece;
	double fwd = G > 1 ? inter * (G - 1) / G : 0;
	double t_su = G > 1 ? (intra + fwd) / r->su_bytes_per_s : 0;
	double t_net = M > 1 ? e->net_scale * inter / r->net_bytes_per_s : 0;
	double t_spine = 0;
	if (e->t->nodes_per_leaf < e->g->nodes)
		t_spine = e->net_scale * (n - e->t->nodes_per_leaf * G) * piece / r->spine_bytes_per_s;
	return max2(t_su, max2(t_net, t_spine));
}

/* Send to the next rank: one rank per node sends across and has its whole
 * rail. It lands on its own rail's GPU at the destination; when that GPU is
 * not the receiver it forwards (PXN), on top of its own send. */
static double next_transfer_s(const struct cost_env *e, const struct coll_plan_phase *ph)
{
	const struct topology *t = e->t;
	const struct collective_group *g = e->g;
	double S = ph->bytes_per_rank, pxn = 1;
	if (g->nodes > 1 && g->per_node > 1 && t->rails > 0) {
		int rail = topology_rail(t, g->per_node - 1);
		int via = rail * t->gpus_per_node / t->rails;
		if (topology_rail(t, 0) != rail && via != g->per_node - 1)
			pxn = 2;
	}
	double t_su = g->per_node > 1 ? pxn * S / e->r.su_pair_bytes_per_s : 0;
	double t_net = g->nodes > 1 ? S / e->r.rail_bytes_per_s : 0;
	return max2(t_su, t_net);
}

/* Bandwidth part of one phase. */
static double phase_transfer_s(const struct cost_env *e, const struct coll_plan_phase *ph)
{
	switch (ph->pattern) {
	case COLL_PLAN_RING: return ring_transfer_s(e, ph);
	case COLL_PLAN_TREE: return tree_transfer_s(e, ph);
	case COLL_PLAN_PAIRWISE: return pairwise_transfer_s(e, ph);
	case COLL_PLAN_NEXT: return next_transfer_s(e, ph);
	case COLL_PLAN_SWITCH: return ph->bytes_per_rank / e->r.switch_bytes_per_s;
	}
	assert(0 && "phase_transfer_s: no such pattern");
	return 0;
}

/* Whether NVLS can run `op` on g with protocol pr. */
static bool nvls_applies(const struct topology *t, const struct collective_group *g, enum collective_op op,
			 enum coll_protocol pr, const char **why)
{
	if (op != COLL_ALL_REDUCE)
		*why = "NVLS is modelled for all_reduce";
	else if (t->nvls_efficiency <= 0)
		*why = "the scale-up switch does not reduce (no NVLink SHARP)";
	else if (g->nodes > 1)
		*why = "NVLS runs inside one NVSwitch domain";
	else if (g->n < NVLS_MIN_RANKS)
		*why = "NCCL uses NVLS only above 4 GPUs";
	else if (pr != PROTO_SIMPLE)
		*why = "NVLS uses the Simple protocol";
	else
		return true;
	return false;
}

/* Whether algorithm a (not ALGO_AUTO) can run `op` on g over t with
 * protocol pr; if not, *why says why. */
static bool algo_applies(const struct topology *t, const struct collective_group *g, enum collective_op op,
			 enum collective_algo a, enum coll_protocol pr, const char **why)
{
	if (g->nodes > 1 && !t->has_nic) {
		*why = "the group spans nodes without a scale-out NIC";
		return false;
	}
	if (op == COLL_ALL_TO_ALL || op == COLL_SEND_RECV || a == ALGO_RING)
		return true;
	switch (a) {
	case ALGO_TREE:
		if (op != COLL_ALL_REDUCE)
			*why = "tree is an all_reduce algorithm";
		else if (g->nodes < 2)
			*why = "tree runs across nodes";
		else
			return true;
		return false;
	case ALGO_HIERARCHICAL:
		if (op != COLL_ALL_REDUCE && op != COLL_REDUCE_SCATTER && op != COLL_ALL_GATHER)
			*why = "hierarchical applies to all_reduce, reduce_scatter and all_gather";
		else if (g->nodes < 2 || g->per_node < 2)
			*why = "hierarchical needs several GPUs on each of several nodes";
		else
			return true;
		return false;
	case ALGO_NVLS:
		return nvls_applies(t, g, op, pr, why);
	case ALGO_DIRECT:
		if (op != COLL_ALL_REDUCE && op != COLL_REDUCE_SCATTER && op != COLL_ALL_GATHER)
			*why = "direct applies to all_reduce, reduce_scatter and all_gather";
		else if (!t->su_direct)
			*why = "direct needs a scale-up mesh whose library exchanges with all peers at once";
		else if (g->nodes > 1 || g->per_node > t->domain_gpus)
			*why = "direct runs inside one mesh";
		else
			return true;
		return false;
	default:
		*why = "unknown algorithm";
		return false;
	}
}

static void add_cost_phase(struct coll_cost *c, double latency_s, double transfer_s)
{
	assert(c->phases < COLL_MAX_PHASES);
	c->phase_latency_s[c->phases] = latency_s;
	c->phase_transfer_s[c->phases] = transfer_s;
	c->phases++;
	c->latency_s += latency_s;
	c->transfer_s += transfer_s;
}

/* Cost of one algorithm with one protocol: its plan's phases, each at its
 * latency plus its transfer. False (with *why) if it does not apply. */
static bool cost_one(const struct topology *t, const struct collective_group *g, enum collective_op op,
		     enum collective_algo a, enum coll_protocol pr, double bytes, double net_scale,
		     struct coll_cost *c, const char **why)
{
	const struct protocol *p = &protocols[pr];
	struct cost_env e = { .t = t, .g = g, .net_scale = net_scale };
	struct coll_plan plan;

	memset(c, 0, sizeof *c);
	c->algo = a;
	c->proto = pr;
	if (g->n < 2) {
		add_cost_phase(c, 0, 0);  /* nothing to exchange */
		return true;
	}
	if (!algo_applies(t, g, op, a, pr, why))
		return false;
	e.r = rates_of(t, g, p->bw_fraction);
	coll_plan_make(&plan, g, op, a, bytes);
	for (int i = 0; i < plan.phases; i++)
		add_cost_phase(c, phase_latency_s(p, &e.r, &plan.phase[i]), phase_transfer_s(&e, &plan.phase[i]));
	c->time_s = c->latency_s + c->transfer_s;
	c->wire_bytes_per_rank = coll_plan_bytes_per_rank(&plan);
	return true;
}

/* Whether collective_analytic tries algorithm a when asked for `algo`. */
static bool algo_tried(enum collective_op op, enum collective_algo algo, enum collective_algo a)
{
	if (op == COLL_ALL_TO_ALL || op == COLL_SEND_RECV)
		return a == ALGO_RING;
	/* Hierarchical (a sequence of separate intra and inter collectives) is
	 * not one of NCCL's algorithms, so it runs only when asked for; it is
	 * cheaper in this model than NCCL is in practice at medium sizes
	 * (docs/explanation/calibration.md). */
	return algo == ALGO_AUTO ? a != ALGO_HIERARCHICAL : a == algo;
}

bool collective_analytic(const struct topology *t, const struct collective_group *g,
			 enum collective_op op, enum collective_algo algo, double bytes,
			 struct coll_cost *out, const char **why_not)
{
	/* What NCCL chooses from, in the order ties are broken. */
	static const enum collective_algo all[] = { ALGO_RING, ALGO_TREE, ALGO_NVLS, ALGO_DIRECT, ALGO_HIERARCHICAL };
	const char *why = "no algorithm applies";
	bool found = false;
	struct coll_cost c;

	assert(bytes >= 0 && g->n >= 1);
	if ((op == COLL_ALL_TO_ALL || op == COLL_SEND_RECV) && algo != ALGO_AUTO && algo != ALGO_RING)
		why = "all_to_all and send_recv have one algorithm (use auto)";
	else
		for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
			if (!algo_tried(op, algo, all[i]))
				continue;
			for (int pr = 0; pr < PROTO_COUNT; pr++) {
				if (!cost_one(t, g, op, all[i], (enum coll_protocol)pr, bytes, 1.0, &c, &why))
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

bool collective_all_to_all_routed(const struct topology *t, const struct collective_group *g, double bytes,
				  double net_scale, struct coll_cost *out, const char **why_not)
{
	const char *why = "no algorithm applies";
	bool found = false;
	struct coll_cost c;

	assert(bytes >= 0 && g->n >= 1 && net_scale >= 0 && net_scale <= 1);
	for (int pr = 0; pr < PROTO_COUNT; pr++) {
		if (!cost_one(t, g, COLL_ALL_TO_ALL, ALGO_RING, (enum coll_protocol)pr, bytes, net_scale, &c, &why))
			continue;
		if (!found || c.time_s < out->time_s) {
			*out = c;
			found = true;
		}
	}
	if (!found && why_not != NULL)
		*why_not = why;
	return found;
}
