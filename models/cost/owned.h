/*
 * owned: what an hour of owned hardware costs, for a buy-vs-rent
 * comparison with a rental price: the node's power times the data
 * centre's PUE times the electricity price, plus the purchase price spread
 * evenly over the stated life (straight-line, no residual value, no
 * financing, no colocation or staff), per GPU.
 *
 *   usd_per_gpu_hour = (node_kw x pue x usd_per_kwh
 *                       + purchase_usd / (life_years x 8766 h)) / gpus_per_node
 *
 * A year is 365.25 days (8766 hours). Pure arithmetic; never reads files.
 */
#ifndef CLUSTERSIM_MODELS_COST_OWNED_H
#define CLUSTERSIM_MODELS_COST_OWNED_H

/* The terms of an owned price basis, per node. */
struct owned_terms {
	double node_power_w;   /* the node's maximum power */
	double pue;            /* power usage effectiveness of the data centre, >= 1 */
	double usd_per_kwh;    /* electricity price */
	double purchase_usd;   /* one node's purchase price */
	double life_years;     /* the life it is amortized over */
};

/* Dollars per hour of one node: energy, and the purchase amortized. */
double owned_energy_usd_per_node_hour(const struct owned_terms *t);
double owned_amortized_usd_per_node_hour(const struct owned_terms *t);

/* Dollars per GPU-hour: the two above over the node's GPUs. */
double owned_usd_per_gpu_hour(const struct owned_terms *t, int gpus_per_node);

#endif
