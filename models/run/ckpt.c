#include "ckpt.h"

#include <math.h>

#include "models/hw/topology.h"
#include "models/kernel/transformer.h"
#include "models/train/memory.h"
#include "sim/engine.h"
#include "sim/flow.h"
#include "util/container.h"
#include "util/text.h"


double ckpt_bytes(const struct train_spec *w, const struct train_plan *p)
{
	double weight_bytes = fmax(2.0, precision_bytes(w->model->precision));
	double params;
	if (w->is_finetune && w->finetune.method != FINETUNE_FULL)
		params = memory_lora_params_per_layer(w, p) * p->tp * w->model->arch.layers;
	else
		params = transformer_params_total(&w->model->arch) + transformer_mtp_params(&w->model->arch);
	/* Adam's state per trained parameter: the fp32 master copy and the two
	 * moments, as the run holds them (train_optimizer_bytes) */
	return params * (weight_bytes + p->optimizer_bytes);
}

int ckpt_tier_index(const struct cluster_spec *c, const char *name)
{
	for (int i = 0; i < c->n_storage; i++)
		if (text_equal_nocase(c->storage[i].tier, name))  /* as the scenario reader checks it */
			return i;
	return -1;
}

struct transfer {
	struct engine_handler done;
	int left;
	int64_t last_ns;
};

static void transfer_done(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)arg;
	struct transfer *t = container_of(h, struct transfer, done);
	t->left--;
	t->last_ns = engine_now(e);
}

/* A read: the same two links per node as topology_net_build gives a write,
 * at the tier's read rates. */
static double read_s(const struct cluster_spec *c, int tier, int readers, double bytes)
{
	double node_bps, tier_bps;
	topology_storage_rates(&c->storage[tier].spec, c->nodes, false, &node_bps, &tier_bps);
	engine *e = engine_new();
	flow_net *fn = flow_new(e);
	struct transfer t = { .done = { transfer_done }, .left = readers };
	flow_link agg = flow_add_link(fn, tier_bps);
	flow_batch_begin(fn);
	for (int n = 0; n < readers; n++) {
		flow_link path[2] = { flow_add_link(fn, node_bps), agg };
		flow_start(fn, path, 2, bytes / readers, 1, 0, &t.done, (uint64_t)n);
	}
	flow_batch_end(fn);
	engine_run(e, INT64_MAX);
	flow_free(fn);
	engine_free(e);
	return t.last_ns * 1e-9 + c->storage[tier].spec.latency_s;
}

/*
 * A write: each writer's flow over its node's client port, then the tier's
 * aggregate, as topology_net_storage_path routes it on the whole topology;
 * only those links are made (the whole topology_net, a link each way per
 * GPU and rail, made this O(GPUs) with a large constant for links no flow
 * crosses). One more link, which no flow crosses, keeps the solver on its
 * seeded path as on the whole topology (flow.c re-solves every link in
 * index order when every link is a seed), so its heap sees the links in the
 * same order and the rates come out the same to the last bit.
 */
static double write_s(const struct cluster_spec *c, int tier, int writers, double bytes)
{
	double node_bps, tier_bps;
	topology_storage_rates(&c->storage[tier].spec, c->nodes, true, &node_bps, &tier_bps);
	engine *e = engine_new();
	flow_net *fn = flow_new(e);
	struct transfer t = { .done = { transfer_done }, .left = writers };
	flow_link agg = flow_add_link(fn, tier_bps);
	flow_link first = flow_add_link(fn, node_bps);
	for (int n = 1; n < writers; n++)
		flow_add_link(fn, node_bps);
	flow_add_link(fn, node_bps);  /* the link no flow crosses */
	flow_batch_begin(fn);
	for (int n = 0; n < writers; n++) {
		flow_link path[2] = { first + (flow_link)n, agg };
		flow_start(fn, path, 2, bytes / writers, 1, 0, &t.done, (uint64_t)n);
	}
	flow_batch_end(fn);
	engine_run(e, INT64_MAX);
	flow_free(fn);
	engine_free(e);
	return t.last_ns * 1e-9 + c->storage[tier].spec.latency_s;
}

double ckpt_transfer_s(const struct cluster_spec *c, int tier, int writers, double bytes, bool write)
{
	return write ? write_s(c, tier, writers, bytes) : read_s(c, tier, writers, bytes);
}

double ckpt_d2h_s(const struct cluster_spec *c, double bytes)
{
	if (!c->has_host || !(c->host.bw_bytes_per_s > 0))
		return -1;
	return bytes / (double)cluster_gpus(c) / c->host.bw_bytes_per_s;
}

double ckpt_young_s(double delta_s, double mtbf_s)
{
	return sqrt(2 * delta_s * mtbf_s);
}

double ckpt_daly_s(double delta_s, double mtbf_s)
{
	if (!(delta_s < 2 * mtbf_s))
		return mtbf_s;
	double x = delta_s / (2 * mtbf_s);
	return sqrt(2 * delta_s * mtbf_s) * (1 + sqrt(x) / 3 + x / 9) - delta_s;
}
