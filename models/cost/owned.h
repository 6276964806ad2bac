/*
 * owned: what an hour of owned hardware costs, for a buy-vs-rent
 * comparison with a rental price: the node's power times the data
 * centre's PUE times the electricity price, plus the fixed costs: the
 * purchase price spread evenly over the stated life (straight-line, no
 * residual value, no financing, no staff) and the colocation rent (USD per
 * kW of the node's power per month), per GPU. The fixed costs accrue every
 * hour of the year whether the node works or not, so an hour used costs
 * them over the utilization u (the fraction of the year's hours used):
 *
 *   fixed  = purchase_usd / (life_years x 8766 h) + node_kw x colo_usd_per_kw_month / 730.5 h
 *   energy = node_kw x pue x usd_per_kwh
 *   usd_per_gpu_hour = (energy + fixed / u) / gpus_per_node
 *
 * Buying beats renting at R USD per GPU-hour when a year's owned cost,
 * (fixed + u x energy) x 8766 / gpus_per_node, is below the year's rent
 * for the same hours used, u x R x 8766: the break-even utilization is
 *
 *   u* = fixed_per_gpu_hour / (R - energy_per_gpu_hour)
 *
 * (none when R <= energy: renting is cheaper at any use). A year is 365.25
 * days (8766 hours), a month 730.5 hours. Pure arithmetic; never reads files.
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
	double colo_usd_per_kw_month; /* colocation rent per kW of node power; 0: none */
	double utilization;    /* the fraction of the year's hours used; <= 0: 1 */
};

/* Dollars per hour of one node: energy, and the purchase amortized. */
double owned_energy_usd_per_node_hour(const struct owned_terms *t);
double owned_amortized_usd_per_node_hour(const struct owned_terms *t);

/* Dollars per hour of one node for colocation: node kW x rent / 730.5 h. */
double owned_colo_usd_per_node_hour(const struct owned_terms *t);

/* Dollars per GPU-hour used: energy, plus the fixed costs (amortized
 * purchase and colocation) over the utilization, over the node's GPUs. */
double owned_usd_per_gpu_hour(const struct owned_terms *t, int gpus_per_node);

/* The utilization at which owning costs what renting at rent_usd_per_gpu_hour
 * does: fixed / (rent - energy), all per GPU-hour; < 0 when rent <= energy
 * (owning never breaks even). May exceed 1 (not reachable). */
double owned_break_even_utilization(double fixed_usd_per_gpu_hour, double energy_usd_per_gpu_hour,
				    double rent_usd_per_gpu_hour);

#endif
