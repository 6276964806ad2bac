#include "serve.h"

#include <stddef.h>

const char *const length_dist_names[] = { "fixed", "lognormal", "normal", "uniform", "histogram", NULL };
const char *const arrival_process_names[] = { "poisson", "gamma", "trace", "offline", "closed-loop", NULL };
const char *const serve_router_names[] = { "round-robin", "least-outstanding", "shortest-queue", NULL };
