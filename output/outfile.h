/*
 * outfile: results written so that a reader never sees half a file.
 *
 * outfile_open() on a regular path creates a temporary file beside it;
 * outfile_commit() flushes, syncs and renames it over the target, or removes
 * it and reports the failure (a full disk, an unwritable directory). A path
 * that names a device or pipe (/dev/full, /dev/stdout) is written directly,
 * never replaced. NULL or "-" means standard output.
 *
 * The temporary file holds an advisory lock (flock) from creation until it
 * is renamed and closed, so a second writer of the same path is refused
 * while the first runs, and a temporary left by a killed run (its lock gone
 * with the process) is removed by the next writer of that path.
 */
#ifndef CLUSTERSIM_OUTPUT_OUTFILE_H
#define CLUSTERSIM_OUTPUT_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "util/error.h"

struct outfile {
	FILE *f;
	char *path;      /* target, NULL for stdout */
	char *tmp_path;  /* temporary, NULL when writing directly */
	bool is_stdout;
};

/* Open for writing; on failure err is a runtime error and *o is cleared:
 * also when another process is writing the same path. */
int outfile_open(struct outfile *o, const char *path, struct cs_error *err);

/* Finish: flush, sync, rename. On failure the temporary file is removed. */
int outfile_commit(struct outfile *o, struct cs_error *err);

/* Give up: close and remove the temporary file. Safe on a cleared outfile. */
void outfile_abort(struct outfile *o);

/*
 * Refuse (a usage error, EXIT 2 for the caller) to write results to
 * `output` when it is the same file (device and inode, through any link)
 * as `input`, which the command reads as its `what` ("scenario", "sweep
 * file", ...). Returns 0 when they differ, when either is standard
 * input/output, or when the output does not exist yet.
 */
int outfile_check_not_input(const char *output, const char *input, const char *what,
			    struct cs_error *err);

#endif
