/*
 * timeline: spans of simulated work on numbered tracks, kept for traces.
 *
 * A model that can show what it simulated (the pipeline, the collectives of
 * a step) appends one span per operation: which stage (a GPU or a group of
 * them), which stream on it (0 compute, 1 communication), a short name and
 * the start and end in seconds. output/trace writes them in Chrome's trace
 * event format. Knows nothing of GPUs or files.
 */
#ifndef CLUSTERSIM_SIM_TIMELINE_H
#define CLUSTERSIM_SIM_TIMELINE_H

#include <stddef.h>

/* One span of work, for traces. */
struct timeline_span {
	int stage;
	int stream;       /* 0 compute, 1 communication */
	char name[40];
	double start_s, end_s;
};

/* A growable list of spans (owned). */
struct timeline {
	struct timeline_span *spans;
	size_t n, cap;
};

/* Append one span (the name is truncated to fit). */
void timeline_add(struct timeline *t, int stage, int stream, const char *name, double start_s, double end_s);
/* Free the spans; the timeline is empty afterwards. */
void timeline_release(struct timeline *t);

#endif
