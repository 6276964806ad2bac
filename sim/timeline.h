/*
 * timeline: spans of simulated work on numbered tracks, kept for traces.
 *
 * A model that can show what it simulated (the pipeline, the collectives of
 * a step) appends one span per operation: which track (a unit of the
 * model: the trace maps it to a process and threads), which stream on it,
 * a category and a short name, the start and end in seconds, a few named
 * numbers (args), a tag only the model reads, and flow ids linking a span
 * that produces something (flow_out) to the span that consumes it
 * (flow_in). Spans of one stream may nest (a child inside its parent);
 * output/trace writes them in Chrome's trace event format. It knows nothing
 * of GPUs, files or the trace format, and never orders or checks spans.
 */
#ifndef CLUSTERSIM_SIM_TIMELINE_H
#define CLUSTERSIM_SIM_TIMELINE_H

#include <stddef.h>

enum { TIMELINE_ARGS_MAX = 8 };

/* A named number on a span; key points to storage that outlives the
 * timeline (a string literal). */
struct timeline_arg {
	const char *key;
	double value;
};

/* One span of work, for traces. */
struct timeline_span {
	int track;
	int stream;
	const char *cat;         /* category, a string literal */
	char name[48];
	double start_s, end_s;
	int tag;                 /* the logging model's own number; 0 = none */
	long flow_out, flow_in;  /* flow ids (0 = none) */
	int nargs;
	struct timeline_arg args[TIMELINE_ARGS_MAX];
};

/* A growable list of spans (owned). With max > 0 it holds at most max
 * spans: the ones after are counted in `dropped`, not kept, so a model
 * that logs without end cannot take all memory. */
struct timeline {
	struct timeline_span *spans;
	size_t n, cap;
	size_t max;              /* 0: no bound */
	size_t dropped;          /* spans not kept past max */
	struct timeline_span spare;  /* what a dropped span is written to */
};

/* Append one span (the name is truncated to fit); returns it, valid until
 * the next append (past max: a spare that is overwritten by the next).
 * cat must outlive the timeline. */
struct timeline_span *timeline_add(struct timeline *t, int track, int stream, const char *cat, const char *name,
				   double start_s, double end_s);
/* Add a named number to s (ignored beyond TIMELINE_ARGS_MAX). */
void timeline_span_arg(struct timeline_span *s, const char *key, double value);
/* Free the spans; the timeline is empty afterwards (max is kept). */
void timeline_release(struct timeline *t);

#endif
