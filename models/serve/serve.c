#include "serve.h"

#include <stddef.h>

const char *const length_dist_names[] = { "fixed", "lognormal", "normal", "uniform", NULL };
const char *const arrival_process_names[] = { "poisson", "gamma", "trace", NULL };
