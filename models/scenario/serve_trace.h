/*
 * serve_trace: a request trace for inference serving, read from a CSV file
 * (libcsv) into struct serve_trace (serve/serve.h).
 *
 * The file has the header `arrival_s,prompt_tokens,output_tokens` (the
 * three columns in any order, no others), then one request per row:
 * arrival_s a number of seconds from 0 that never decreases from one row to
 * the next, the token counts whole numbers from 1 to 4194304. Blank lines
 * are skipped. Every defect is one message naming the file and the line.
 * It lives with the scenario readers because the scenario names the file;
 * output/csvreader is the same kind of reader, for result files, in a
 * higher layer. Never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_SERVE_TRACE_H
#define CLUSTERSIM_MODELS_SCENARIO_SERVE_TRACE_H

#include <stddef.h>
#include <stdio.h>

#include "models/serve/serve.h"

/* The most requests a trace may hold (16 bytes each in memory). */
#define SERVE_TRACE_MAX_REQUESTS 20000000

/*
 * Read the trace at `path`. Returns a new trace of at least one request
 * (the caller frees it with serve_trace_free), or NULL with a one-line
 * message in msg ("trace 'reqs.csv': line 7: prompt_tokens: ...").
 */
struct serve_trace *serve_trace_load(const char *path, char *msg, size_t msg_size);

/* The same from an open stream (borrowed); `path` only names it. */
struct serve_trace *serve_trace_read(FILE *f, const char *path, char *msg, size_t msg_size);

/* Free a trace and its requests; NULL is allowed. */
void serve_trace_free(struct serve_trace *t);

#endif
