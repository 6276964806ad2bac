/*
 * keys: every key a scenario file may hold, declared once (key_rows.c): its
 * JSON object (section), the workload kinds that accept it, its type, range,
 * default, unit and meaning.
 *
 * The readers take from it the keys each object accepts (key_object: the
 * unknown-key check, with "did you mean" over the table's names), the
 * keys each workload kind accepts (wl.c), and the range of a number they
 * read (key_real, key_int32, ...: the jread readers given the row's range,
 * so the messages are jread's). `clustersim help keys` prints the same
 * table, and docs/reference/scenario-keys.md is its output.
 *
 * It never prints; failures go to the jread's error as the jread readers'.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_KEYS_H
#define CLUSTERSIM_MODELS_SCENARIO_KEYS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/eval/job.h"
#include "util/jread.h"

/* The bounds the table and the readers share. */
#define KEY_LEN_TOKENS_MAX 4194304          /* a prompt or output length, tokens (4 Mi) */
#define KEY_FLEET_HOURS_MAX 1e6             /* a fleet's window (wl_fleet.c says why) */
#define KEY_FLEET_GPUS_MAX 1000000          /* a job class's GPUs */
#define KEY_COLLECTIVE_BYTES_MAX 1099511627776.0  /* a collective's message: 1 TiB */

/* The objects that hold keys, in the order the reference prints them. */
enum key_section {
	KS_TOP,
	KS_WORKLOAD,
	KS_MODEL,
	KS_BATCH,
	KS_PARALLELISM,
	KS_CHECKPOINT,
	KS_DATA,
	KS_FAILURES,
	KS_FINETUNE,
	KS_KERNELS,
	KS_SERVING,
	KS_ARRIVAL,
	KS_LENGTH,
	KS_SCHEDULER,
	KS_SLO,
	KS_DISAGGREGATED,
	KS_COLLECTIVE,
	KS_BYTES,
	KS_FLEET,
	KS_FLEET_SCHEDULER,
	KS_FLEET_OBJECTIVE,
	KS_JOBS,
	KS_JOB_ARRIVAL,
	KS_JOB_DURATION,
	KS_CANDIDATE,
	KS_TOPOLOGY,
	KS_STORAGE,
	KS_PRICE,
	KS_MONTE_CARLO,
	KS_OBJECTIVE,
	KS_VALIDATION,
	KS_SEARCH,
	KS_SEARCH_NODES,
	KS_SEARCH_SPOT,
	KS_COUNT
};

/* Sets of workload kinds, as bits 1 << enum workload_kind. */
enum {
	KIND_TRAIN = 1u << WORKLOAD_TRAINING,
	KIND_FINETUNE = 1u << WORKLOAD_FINETUNE,
	KIND_INFER = 1u << WORKLOAD_INFERENCE,
	KIND_COLL = 1u << WORKLOAD_COLLECTIVE,
	KIND_FLEET = 1u << WORKLOAD_FLEET,
	KINDS_TRAINING = KIND_TRAIN | KIND_FINETUNE,
	KINDS_ALL = KIND_TRAIN | KIND_FINETUNE | KIND_INFER | KIND_COLL | KIND_FLEET
};

/* The most keys one object may hold. */
enum { KEY_SECTION_MAX = 48 };

/* One key: one row of the table. */
struct key_row {
	enum key_section sec;
	const char *key;
	unsigned kinds;            /* KIND_* bits of the kinds that accept it */
	/* a kind outside `kinds` refuses it in its own reader, with a message
	 * that says why (the generic "not used by K workloads" is not used) */
	bool own_refusal;
	/* read by another module's reader (the catalog's model reader), which
	 * holds its own list: the table documents it, the tests compare */
	bool elsewhere;
	const char *type;          /* "integer", "number", "boolean", "string", ... */
	bool ranged;               /* lo and hi bound a number */
	double lo, hi;
	const char *const *names;  /* the choices of a name (NULL-terminated), or NULL */
	const char *range;         /* the range in words, over lo-hi and names, or NULL */
	bool required;             /* always required where its object is given */
	const char *def;           /* the default in words (NULL: none; "required" when required) */
	const char *unit;          /* "" when it has none */
	const char *meaning;
};

/* The JSON path of a section's object ("" for the top level, [] for any index). */
const char *key_section_path(enum key_section sec);

/* The row of `key` in section `sec`, or NULL. */
const struct key_row *key_find(enum key_section sec, const char *key);

/* Every row, in the table's order: n rows at *rows. */
const struct key_row *key_rows_all(size_t *n);

/* Whether workload kind `kind` accepts the row's key. */
bool key_accepted_by(const struct key_row *row, enum workload_kind kind);

/* Fill out with the names of section sec's keys, in the table's order,
 * NULL-terminated; returns how many. */
size_t key_names(enum key_section sec, const char *out[KEY_SECTION_MAX + 1]);

/* jread_object() with section sec's keys: v must be an object whose keys
 * are all the section's. */
int key_object(struct jread *r, const json_t *v, enum key_section sec);

/* Fail with "missing required key" at obj's `key` when it is absent: for a
 * key required only in some cases (the table's def says which). */
int key_need(struct jread *r, const json_t *obj, const char *key);

/*
 * The jread readers of obj[key] with the row's range and the row's
 * required: the same results and messages as jread_real() ... given them.
 * The row must exist and be ranged (an assert).
 */
int key_real(struct jread *r, const json_t *obj, enum key_section sec, const char *key, double *out);
int key_int(struct jread *r, const json_t *obj, enum key_section sec, const char *key, int64_t *out);
int key_int32(struct jread *r, const json_t *obj, enum key_section sec, const char *key, int *out);
int key_int_or_auto(struct jread *r, const json_t *obj, enum key_section sec, const char *key,
		    int auto_value, int *out);
int key_real_or_auto(struct jread *r, const json_t *obj, enum key_section sec, const char *key,
		     double auto_value, double *out);

/* jread_enum() of obj[key] with the row's names and required. */
int key_enum(struct jread *r, const json_t *obj, enum key_section sec, const char *key, int *out);

/* The row's range in words ("1 to 1024", "fifo, sjf", ...; "" when none), and
 * its default ("required", or "" when none), into buf. */
void key_range_text(const struct key_row *row, char *buf, size_t size);
void key_default_text(const struct key_row *row, char *buf, size_t size);

#endif
