/*
 * trace: a step as a Chrome / Perfetto trace (the JSON trace event format).
 *
 * One process per node ("pid" the node, named "node N", labelled with the
 * trace's title), one thread per GPU stream ("GPU g compute", "GPU g comm",
 * ...; a stream whose spans overlap without nesting gets more threads,
 * "GPU g comm (2)", so every thread's slices nest), one complete event
 * ("ph": "X") per span with its category and args, and a flow ("ph": "s"
 * at the producer's start, "f" with "bp": "e" at the consumer's start) for
 * each flow id a span produces and another consumes. Times are whole
 * nanoseconds written in microseconds. It never simulates or reorders
 * what the model logged beyond sorting it for output.
 */
#ifndef CLUSTERSIM_OUTPUT_TRACE_H
#define CLUSTERSIM_OUTPUT_TRACE_H

#include <stdio.h>

#include "sim/timeline.h"

/* Where a timeline track runs: the GPU its threads stand for, its node. */
struct trace_track {
	long gpu;
	long node;
};

/* The most events (metadata, slices, flow starts and ends) a trace may
 * hold: about 300 MB of JSON. `clustersim trace` also stops the step's
 * timeline at this many spans (timeline.max), so its memory stays bounded
 * while the step is simulated. */
#define TRACE_EVENTS_MAX ((size_t)1000000)

/* Write log's spans; tracks[ntracks] maps each span's track, stream_names
 * [nstreams] names each stream ("compute"). The JSON is written event by
 * event as it is formed (memory: about 100 bytes a span beside the
 * timeline). *n_events (when not NULL) gets the events the trace holds.
 * Returns 0; -2, writing nothing, when they are more than max_events (0:
 * no bound); -1 when the stream reports an error. */
int trace_write(FILE *f, const char *title, const struct timeline *log, const struct trace_track *tracks, int ntracks,
		const char *const *stream_names, int nstreams, size_t max_events, size_t *n_events);

#endif
