#include "inference.h"

#include <string.h>

void inference_dollars_fill(const struct cluster_spec *c, long gpus_used, double output_tok_s,
			    double throughput_tok_s, struct inference_dollars *d)
{
	memset(d, 0, sizeof *d);
	if (!c->price.known || gpus_used <= 0)
		return;
	d->instances = (gpus_used + c->gpus_per_node - 1) / c->gpus_per_node;
	d->usd_per_hour = c->price.usd_per_gpu_hour * (double)c->gpus_per_node * (double)d->instances;
	if (!(output_tok_s > 0) || !(throughput_tok_s > 0))
		return;
	d->priced = true;
	d->usd_per_mtok = d->usd_per_hour / (output_tok_s * 3600 / 1e6);
	d->usd_per_mtok_total = d->usd_per_hour / (throughput_tok_s * 3600 / 1e6);
}
