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
	/* owned, or NULL: the file the scenario's relative paths are relative
	 * to when it is not `file` (the --on scenario a format built it from) */
	char *anchor;
	int gpus;          /* the GPUs the measurement ran on when the file says; 0: not stated */
};

/* The documents of one or more measurement files, in file order. */
struct measure_set {
	struct measure_doc *docs;  /* owned */
	size_t n, cap;
};

/* Append a document to set, taking the reference to scenario. */
void measure_set_add(struct measure_set *set, json_t *scenario, const char *file, long line);

/* Append a document whose "validation" block is built here from the
 * figure: scenario (taken) gets validation {id, metric, published = value,
 * source, family}; family "" is left out (validate's default). Returns the
 * document, owned by set. */
struct measure_doc *measure_set_add_figure(struct measure_set *set, json_t *scenario, const char *file, long line,
					   const char *id, const char *metric, double value, const char *source,
					   const char *family);

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

/* The formats, one entry each (an integrator adds a format with one line to
 * measure_formats[] in measure.c), ended by NULL; detection tries them in
 * this order. */
extern const struct measure_format *const measure_formats[];
extern const struct measure_format measure_format_runs;    /* measure_runs.c */
extern const struct measure_format measure_format_nccl;    /* measure_nccl.c */
extern const struct measure_format measure_format_vllm;    /* measure_vllm.c */
extern const struct measure_format measure_format_trtllm;  /* measure_trtllm.c */
/* A GEMM sweep CSV (hipblaslt-bench, hipblas-bench, rocblas-bench, or
 * m,n,k,dtype,tflops) or mamf-finder.py's report: docs/reference/gemm-sweeps.md. */
extern const struct measure_format measure_format_gemm_csv; /* measure_gemm.c */

/* The largest count (requests, tokens, clients) a measurement file may
 * state: beyond it a count is not one (and would not fit a long). */
#define MEASURE_COUNT_MAX 1e12

/* The most bytes one measurement file may hold (as a scenario: 64 MiB). */
#define MEASURE_FILE_MAX_BYTES (64u << 20)

/*
 * Read files[0..n) ("-" = standard input, once), recognise each one's
 * format from its content and append its documents to set, in file order.
 * on_scenario_file (NULL: none) is the scenario of the cluster and
 * deployment (--on) that formats which need one build on. Returns 0, or -1
 * with err set to one line naming the file and the line or key (a file of
 * no known format names the formats read); set then holds what came before
 * (the caller releases it).
 */
int measure_load_files(const char *const *files, size_t n, const char *on_scenario_file, struct measure_set *set,
		       struct cs_error *err);

/* The format of file when it is a measurement file (read whole, bounded),
 * else NULL: a scenario file with a "validation" block, unreadable files
 * and anything else are not. */
const struct measure_format *measure_file_format(const char *file);

/* True when file is meant as a scenario (validate's own rows): standard
 * input, a file that cannot be read, JSON that starts like an object but is
 * not JSON, or an object with a workload, candidates or validation key.
 * Validate reads any other file as measurements, whose error names the
 * formats read. */
bool measure_file_is_scenario(const char *file);

/* The base name of path without its directory and last extension into buf
 * ("runs/a.b.jsonl" -> "a.b"): the default id prefix and family of its rows. */
void measure_file_stem(const char *path, char *buf, size_t size);

/* Check a document against the scenario read from it: when the measurement
 * states its GPU count, the first candidate must have that many. 0, or -1
 * with err naming both counts. */
struct scenario;
int measure_doc_check(const struct measure_doc *d, const struct scenario *s, struct cs_error *err);

#endif
