/*
 * benchutil: what the benchmarks share: a monotonic clock, and a scenario
 * loaded from text (written to a temporary file, as a user's would be).
 */
#ifndef CLUSTERSIM_TESTS_BENCH_BENCHUTIL_H
#define CLUSTERSIM_TESTS_BENCH_BENCHUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "models/scenario/scenario.h"

/* Seconds on the monotonic clock. */
static inline double bench_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Load the scenario `text` with catalog cat into *s; 0, or -1 with the
 * message on standard error. */
static inline int bench_load(catalog *cat, const char *text, struct scenario *s)
{
	char path[] = "/tmp/clustersim-bench-XXXXXX";
	struct cs_error err;
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	int rc = scenario_load(path, NULL, 0, -1, cat, s, &err);
	if (rc != 0)
		fprintf(stderr, "%s\n", err.msg);
	unlink(path);
	return rc;
}

#endif
