#include "fleet.h"

#include <stddef.h>

const char *const fleet_policy_names[] = { "fifo", "sjf", "priority", "backfill", NULL };
const char *const fleet_duration_dist_names[] = { "fixed", "exponential", "lognormal", "uniform", NULL };
const char *const fleet_arrival_names[] = { "poisson", "trace", NULL };
const char *const fleet_trace_format_names[] = { "sacct", "csv", NULL };
