/*
 * measure: a user's measurements as validation rows.
 *
 * Every measurement file (a measured run, nccl-tests output, a serving
 * benchmark's report, a GEMM sweep) becomes a set of scenario documents,
 * each a whole scenario whose "validation" block holds the measured figure
 * (id, metric, published = the measured value, source = the file and line,
 * family). `validate` predicts them like the built-in rows; `calibrate`
 * re-reads them against each catalog it tries. The documents stay JSON so
 * that every consumer reads them with its own catalog (scenario_from_json).
 */
#ifndef CLUSTERSIM_MODELS_MEASURE_MEASURE_H
#define CLUSTERSIM_MODELS_MEASURE_MEASURE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

/* One measured figure as a scenario document. */
struct measure_doc {
	json_t *scenario;  /* owned: the scenario, its "validation" block filled */
	char *file;        /* owned: the measurement file it came from */
	long line;         /* its line in that file; 0: the whole file */
};

/* The documents of one or more measurement files, in file order. */
struct measure_set {
	struct measure_doc *docs;  /* owned */
	size_t n, cap;
};

/* Append a document to set, taking the reference to scenario. */
void measure_set_add(struct measure_set *set, json_t *scenario, const char *file, long line);

/* Free what set owns and leave it empty; safe to call twice. */
void measure_set_release(struct measure_set *set);

/* One measurement format: how to recognise a file of it from its content
 * and how to turn it into documents. */
struct measure_format {
	const char *name;     /* as the user may name it: "nccl-tests", ... */
	/* The file says what was measured but not where: it needs the scenario
	 * of the cluster (and deployment) it ran on (--on SCENARIO). */
	bool needs_scenario;
	/* True when text (len bytes of file) is of this format. */
	bool (*detect)(const char *file, const char *text, size_t len);
	/* Append the file's documents to set; on is the parsed --on scenario
	 * (borrowed, NULL when none was given). Returns 0, or -1 with err set: a
	 * one-line message naming the file, the line or key, and the value. */
	int (*load)(const char *file, const char *text, size_t len, const json_t *on,
		    struct measure_set *set, struct cs_error *err);
};

#endif
