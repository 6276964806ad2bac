#include "models/eval/job.h"

#include <stddef.h>

const char *const workload_kind_names[] = { "training", "finetune", "inference", "collective", NULL };
