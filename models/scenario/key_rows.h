/*
 * key_rows: the table of scenario keys (keys.h), one row per key, in the
 * order of each object's keys in the readers' "did you mean" ranking, and
 * the records it is made of: the objects that hold keys (sections), the
 * sets of workload kinds, a row, and the bounds the table and the readers
 * share. Data only: keys.h, which includes this header, is how the
 * readers and `help keys` use it.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_KEY_ROWS_H
#define CLUSTERSIM_MODELS_SCENARIO_KEY_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "models/eval/job.h"

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
	KS_SPECULATIVE,
	KS_COLLECTIVE,
	KS_BYTES,
	KS_GEMM,
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
	KS_MEASURED,
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
	KIND_GEMM = 1u << WORKLOAD_GEMM,
	KINDS_TRAINING = KIND_TRAIN | KIND_FINETUNE,
	KINDS_ALL = KIND_TRAIN | KIND_FINETUNE | KIND_INFER | KIND_COLL | KIND_FLEET | KIND_GEMM
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

extern const struct key_row key_rows[];
extern const size_t key_rows_count;

#endif
