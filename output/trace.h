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

/* Write log's spans; tracks[ntracks] maps each span's track, stream_names
 * [nstreams] names each stream ("compute"). Returns -1 when the stream
 * reports an error. */
int trace_write(FILE *f, const char *title, const struct timeline *log, const struct trace_track *tracks, int ntracks,
		const char *const *stream_names, int nstreams);

#endif
