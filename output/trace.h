/*
 * trace: a step as a Chrome / Perfetto trace (the JSON trace event format).
 *
 * One process per candidate, one track per GPU stream (compute and
 * communication of each pipeline stage's first GPU), one complete event
 * ("ph": "X") per span, times in microseconds. Open the file in
 * chrome://tracing or https://ui.perfetto.dev.
 */
#ifndef CLUSTERSIM_OUTPUT_TRACE_H
#define CLUSTERSIM_OUTPUT_TRACE_H

#include <stdio.h>

#include "models/train/pipeline.h"

/* Write the spans; stage_gpu[i] is the GPU that stage i's tracks stand for.
 * Returns -1 when the stream reports an error. */
int trace_write(FILE *f, const char *title, const struct timeline *log, int stages, const long *stage_gpu);

#endif
