#include "run.h"

#include <stddef.h>

const char *const failure_dist_names[] = { "exponential", "weibull", NULL };
