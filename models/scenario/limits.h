/*
 * limits: the memory a scenario's simulations may take, checked when the
 * scenario is read.
 *
 * A reader that can count the work a workload asks for (a serving run's
 * requests, a fleet's jobs) multiplies it by the bytes each one holds at
 * most and asks limits_check_memory() whether this process can have that
 * much: the memory the system has available (MemAvailable of
 * /proc/meminfo, else its free pages) and the room left under the
 * address-space limit (RLIMIT_AS, `ulimit -v`) when one is set. Beyond it
 * the scenario is bad input (exit 2) with the numbers, before anything is
 * simulated, rather than a run that grows until the machine kills it.
 * Never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_LIMITS_H
#define CLUSTERSIM_MODELS_SCENARIO_LIMITS_H

#include <stdint.h>

#include "util/jread.h"

/* What this process may still allocate, in bytes, and what bounds it. */
struct limits_memory {
	uint64_t bytes;          /* 0: unknown (no bound is applied) */
	const char *bound;       /* "available memory (MemAvailable)", "the address-space limit (RLIMIT_AS)" */
};

/* The memory this process may still allocate now. */
void limits_memory_available(struct limits_memory *m);

/*
 * The `count` things of `what` ("requests", "jobs") at bytes_each bytes
 * each: 0 when they fit in the memory available, else -1 after failing r
 * at key (NULL: at r's path) with the count, the bytes and the bound.
 */
int limits_check_memory(struct jread *r, const char *key, const char *what, double count, double bytes_each);

#endif
