/*
 * sweep_shard: which shard of a sweep this process runs: `--shard I/N`
 * (or `none`), else the array-task variables a batch scheduler sets in
 * each of an array's tasks (Slurm, Kubernetes Indexed Jobs, AWS Batch,
 * Google Cloud Batch, Cloud Run jobs; the table in sweep_shard.c cites
 * each one's documentation).
 *
 * It only parses text and reads the environment through a function the
 * caller passes, so tests give it a fake one; it never prints, and never
 * decides anything about the points of a shard (cmd_sweep does).
 */
#ifndef CLUSTERSIM_CLI_SWEEP_SWEEP_SHARD_H
#define CLUSTERSIM_CLI_SWEEP_SWEEP_SHARD_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#define SWEEP_SHARDS_MAX 1000000

/* Shard `index` of `count`: the points k with k mod count == index. */
struct sweep_shard {
	uint64_t index, count;
};

/* A decimal count of at most 9 digits (no sign, no blank) that is at most
 * max into *out: 0, or -1 with *out untouched. */
int sweep_shard_parse_count(const char *s, uint64_t max, uint64_t *out);

/* "I/N" with 0 <= I < N <= SWEEP_SHARDS_MAX, or "none" (0/1: every
 * point), into *out: 0, or -1 with *out untouched. */
int sweep_shard_parse(const char *arg, struct sweep_shard *out);

/* The environment's value of name, or NULL when it is not set. */
typedef const char *sweep_shard_getenv_fn(const char *name, void *ctx);

/* getenv(3) as a sweep_shard_getenv_fn (ctx unused). */
const char *sweep_shard_getenv(const char *name, void *ctx);

/*
 * --shard's default from the array-task variables that get() sees. Each
 * scheduler's pair (index, count) is either wholly unset or wholly valid:
 * one half without the other, a value that is not a count (empty, a sign,
 * a letter, over SWEEP_SHARDS_MAX), a count of 0 or an index >= its count
 * is an error; two schedulers' pairs that name different shards are an
 * error. Returns 1 with *out set and `said` holding the variables that set
 * it ("SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT"; pairs that agree
 * are joined by "; ") when some are set, 0 when none is (*out untouched),
 * or -1 with an input error in err naming the variable and its value.
 * said must hold at least 256 bytes (it is cut with a mark past that).
 */
int sweep_shard_from_env(sweep_shard_getenv_fn *get, void *ctx, struct sweep_shard *out,
			 char *said, size_t said_size, struct cs_error *err);

#endif
