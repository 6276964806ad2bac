/*
 * sweep_fingerprint: what a sweep's rows were computed from, as the 16 hex
 * digits of the last column of every row (sweep_fingerprint), so that
 * `sweep --resume` and merge can tell the rows of one sweep from another's.
 *
 * It hashes the program's version, the base scenario after --set, the
 * sweep's axes and zip as written, --seed, --dry-run, and the digest of the
 * contents of every file a point reads (the --catalog files, the catalogs
 * and traces the base and the axis values name: cli/input_files.h), so
 * that rows computed from another catalog or trace are never taken for
 * this sweep's. It must never depend on the shard or --jobs: every part of
 * one sweep carries the same fingerprint. It never reads files itself and
 * never runs a point.
 */
#ifndef CLUSTERSIM_CLI_SWEEP_SWEEP_FINGERPRINT_H
#define CLUSTERSIM_CLI_SWEEP_SWEEP_FINGERPRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "models/scenario/sweep.h"

/* The digits of a fingerprint, without the NUL. */
enum { SWEEP_FINGERPRINT_LEN = 16 };

/* The name of the column that holds it: "sweep_fingerprint". */
extern const char sweep_fingerprint_column[];

/* Sweep sw's fingerprint under --seed `seed` (< 0: none) and --dry-run,
 * with `inputs`, the digest of its input files' contents (any text; NULL:
 * none), into out (SWEEP_FINGERPRINT_LEN lowercase hex digits and a NUL). */
void sweep_fingerprint(const sweep *sw, int64_t seed, bool dry_run, const char *inputs,
		       char out[SWEEP_FINGERPRINT_LEN + 1]);

/* Does text look like a fingerprint: SWEEP_FINGERPRINT_LEN lowercase hex
 * digits, nothing else? */
bool sweep_fingerprint_valid(const char *text);

#endif
