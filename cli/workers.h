/*
 * workers: a pool of forked processes that compute numbered jobs, each job's
 * result a rowset, and send them back to the parent over one pipe each.
 *
 * Worker w of n computes jobs w, w + n, w + 2n, ... in that order, so the
 * parent reading job j from worker j mod n gets every job in job order; a
 * worker is never more than a pipe buffer ahead. Records are rowcodec
 * records keyed by the job number. Used by `clustersim sweep --jobs`.
 *
 * A worker keeps none of the parent's descriptors but its pipe (and
 * standard input, output, error): it never holds the parent's output
 * files, nor their locks, so a worker left running when the parent is
 * killed never makes the parent's output look busy.
 */
#ifndef CLUSTERSIM_CLI_WORKERS_H
#define CLUSTERSIM_CLI_WORKERS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "output/rowcodec.h"
#include "output/rowset.h"
#include "util/error.h"

/* Compute job j in a worker; returns its rows (the worker frees them). */
typedef rowset *(*workers_job_fn)(void *ctx, uint64_t j);

struct workers {
	size_t n;
	pid_t *pid;
	int *fd;                          /* read end of each worker's pipe */
	struct rowcodec_buf buf;
	volatile sig_atomic_t *interrupted;
};

/* Fork n workers over jobs 0 .. njobs - 1. When *interrupted becomes
 * nonzero (a signal handler's flag), a read that a signal cuts short gives
 * up. -1 with err set when a pipe or fork fails (nothing left running). */
int workers_start(struct workers *ws, size_t n, uint64_t njobs, workers_job_fn fn, void *ctx,
		  volatile sig_atomic_t *interrupted, struct cs_error *err);

/* Job j's rows, in the given columns, from worker j mod n (`point` is
 * what error messages call the job). NULL with err set when the worker
 * died or sent a malformed record, or NULL with err untouched when
 * interrupted. Caller frees. */
rowset *workers_take(struct workers *ws, uint64_t j, uint64_t point, const char *const cols[],
		     size_t ncols, struct cs_error *err);

/* After the last job: reap the workers; -1 with err set if one failed. */
int workers_finish(struct workers *ws, struct cs_error *err);

/* Stop and reap the workers at once, stopped ones too (SIGKILL); safe to
 * call on a zeroed struct. */
void workers_stop(struct workers *ws);

#endif
