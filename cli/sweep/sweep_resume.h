/*
 * sweep_resume: `sweep --resume`, -o FILE read as a stream of points (and,
 * by a second reader, its journal FILE.partial, which a run that was killed
 * or interrupted left: sweep_sink).
 *
 * FILE is read twice through one open stream, one row at a time: a first
 * pass marks the points of the shard it holds complete, a second hands their
 * rows back while the sweep runs in point order. Memory is one point's rows,
 * whatever the file's size. A point is complete when FILE has exactly the
 * rows it yields (sweep_point_expected()), in order, each whole; repeated
 * rows are dropped.
 *
 * It only reads FILE: it never writes it, never computes a point's figures,
 * and refuses a FILE that is not this sweep's CSV (its header, and rows with
 * this sweep's fingerprint) rather than keep anything of it.
 */
#ifndef CLUSTERSIM_CLI_SWEEP_SWEEP_RESUME_H
#define CLUSTERSIM_CLI_SWEEP_SWEEP_RESUME_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/sweep/sweep_run.h"
#include "output/rowset.h"
#include "util/error.h"

struct sweep_resume;

/* The shard being resumed: its points are k = shard + i * nshards for the
 * shard indexes i < npoints. */
struct sweep_resume_shard {
	uint64_t shard, nshards, npoints;
};

/* Open FILE and mark the shard's points it holds complete. 0 with *out a new
 * reader (free with sweep_resume_free), 0 with *out NULL when FILE holds
 * nothing of this sweep yet (absent, not a regular file, or no more than a
 * beginning of the header), or -1 with err set. */
int sweep_resume_open(const struct sweep_run *run, const struct sweep_resume_shard *shard,
		      const char *file, struct sweep_resume **out, struct cs_error *err);

/* Does FILE hold shard index i complete? False for a NULL reader. */
bool sweep_resume_kept(const struct sweep_resume *rr, uint64_t i);

/* How many of the shard's points FILE holds complete. */
uint64_t sweep_resume_nkept(const struct sweep_resume *rr);

/* Second pass: kept point k's rows, the next kept group in FILE (ask in
 * point order). NULL with err set when the file changed under the sweep.
 * Caller frees. */
rowset *sweep_resume_take(struct sweep_resume *rr, uint64_t k, struct cs_error *err);

/* Close FILE and free the reader; NULL is fine. */
void sweep_resume_free(struct sweep_resume *rr);

#endif
