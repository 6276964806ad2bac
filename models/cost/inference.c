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
	price_band_of_quote(&c->price, &d->band);
	price_band_quote_id(&c->price, d->price_id, sizeof d->price_id);
	double f10 = price_band_factor(&d->band, 0.1), f90 = price_band_factor(&d->band, 0.9);
	d->usd_per_gpu_hour_p10 = c->price.usd_per_gpu_hour * f10;
	d->usd_per_gpu_hour_p90 = c->price.usd_per_gpu_hour * f90;
	if (!(output_tok_s > 0) || !(throughput_tok_s > 0))
		return;
	d->priced = true;
	d->usd_per_mtok = d->usd_per_hour / (output_tok_s * 3600 / 1e6);
	d->usd_per_mtok_total = d->usd_per_hour / (throughput_tok_s * 3600 / 1e6);
	d->usd_per_mtok_output_p10 = d->usd_per_mtok * f10;
	d->usd_per_mtok_output_p90 = d->usd_per_mtok * f90;
}
