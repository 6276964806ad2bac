/*
 * inference: what serving costs. The renter pays for whole instances, so
 * the replicas' GPUs are priced as ceil(gpus_used / gpus_per_node) nodes,
 * whatever else the candidate holds; per million tokens = that hourly
 * price / the tokens of an hour (the measured throughput x 3600 / 1e6).
 *
 * Pure arithmetic on the candidate's resolved price and plain numbers from
 * the serving result (cost comes before serve in the models' order, so it
 * never sees struct serve_result). A per-token cost is linear in the price,
 * so the price band's percentiles give the cost's. Never reads files.
 */
#ifndef CLUSTERSIM_MODELS_COST_INFERENCE_H
#define CLUSTERSIM_MODELS_COST_INFERENCE_H

#include <stdbool.h>

#include "models/cost/price_band.h"
#include "models/hw/hw.h"

/* What serving costs: the whole instances (nodes) the replicas occupy, and
 * per million tokens at the measured throughput. */
struct inference_dollars {
	bool priced;                       /* the candidate has a price and tokens were served */
	long instances;                    /* ceil(gpus_used / gpus_per_node) */
	double usd_per_hour;               /* those instances for an hour */
	double usd_per_mtok;               /* per million output tokens */
	double usd_per_mtok_total;         /* per million prompt + output tokens */
	/* the price's band (cost/price_band.h: the catalog row's low and high,
	 * widened by its age) at its 10th and 90th percentiles: the price per
	 * GPU-hour and, priced, the cost per million output tokens */
	double usd_per_gpu_hour_p10, usd_per_gpu_hour_p90;
	double usd_per_mtok_output_p10, usd_per_mtok_output_p90;
	struct price_band band;            /* the price's spread (none: both sigmas 0) */
	char price_id[PRICE_BAND_ID_MAX];  /* which row: services on one row share one draw */
};

/*
 * Fill d for replicas occupying gpus_used GPUs of cluster c that served
 * output_tok_s output and throughput_tok_s prompt + output tokens per
 * second. d is zero when c has no price or no GPU is used; instances and
 * usd_per_hour without the per-token figures (priced false) when no token
 * was served.
 */
void inference_dollars_fill(const struct cluster_spec *c, long gpus_used, double output_tok_s,
			    double throughput_tok_s, struct inference_dollars *d);

#endif
