/*
 * fleet_metrics: the metrics of a finished fleet simulation (struct
 * fleet_metrics, fleet_types.h) from its scheduler's state: waits, completion
 * times and trace waits per team, class and the whole fleet (P50, P90,
 * P99, mean), utilization, busy time, fragmentation, preemptions,
 * failures and cost over the window. It reads the state and never runs
 * the engine.
 */
#ifndef CLUSTERSIM_MODELS_FLEET_FLEET_METRICS_H
#define CLUSTERSIM_MODELS_FLEET_FLEET_METRICS_H

#include "models/fleet/fleet_types.h"
#include "models/fleet/fleet_sched.h"

/* Fill m from the state of the run s (its engine stopped). */
void fleet_metrics_collect(struct fleet_sched *s, struct fleet_metrics *m);

#endif
