/*
 * outfile: results written so that a reader never sees half a file, and so
 * that writing them never replaces what it must not.
 *
 * Where outfile_open() sends the bytes:
 * - NULL or "-": standard output.
 * - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N (and a link that
 *   leads to one): written through the descriptor this process already
 *   holds: nothing reopened, truncated or replaced.
 * - A path that is not a regular file once every link is resolved (a
 *   device, a fifo, a socket, another /proc link): written through, never
 *   replaced. A directory is an error.
 * - Otherwise (a regular file, or nothing yet): a new temporary file in the
 *   directory of the final target (the file the links lead to), which
 *   outfile_commit() flushes, syncs and renames over that target, so a link
 *   stays a link and points to the new bytes. On failure it is removed.
 *
 * Temporaries are named ".BASE.clustersim-PID-RANDOM.tmp": hidden, BASE the
 * target's name (its first 200 bytes), PID the writer's process id, RANDOM
 * 16 hex digits; created with O_EXCL, and marked with the extended
 * attribute user.clustersim.temporary = "PID-RANDOM" where the file system
 * keeps attributes. The writer holds an advisory lock (flock) on it until it
 * is renamed, so a second writer of the same target is refused while the
 * first runs. A later writer of the target removes a temporary only when it
 * is provably one of ours that nobody writes: exactly that name, a regular
 * file of this user with one link, unlocked, and its attribute equal to its
 * name's (without attributes: its PID no process here). Anything else,
 * such as a user's "FILE.tmp.abcdef", is never touched. SIGINT, SIGTERM and
 * SIGHUP remove the process's temporaries before it dies, unless the
 * program handles the signal itself (sweep does, and aborts its outputs).
 *
 * A journal (outfile_open_journal) is for rows appended as they finish: the
 * file is TARGET.partial beside the final target, visible from the start and
 * locked while written; outfile_checkpoint() hands each point's bytes to the
 * kernel (so they survive any kill of the process, SIGKILL too) and syncs
 * them to disk at most once a second; outfile_commit() renames it over the
 * target, outfile_keep() leaves it for a later run to read.
 *
 * It never decides what is written and never reads an input.
 */
#ifndef CLUSTERSIM_OUTPUT_OUTFILE_H
#define CLUSTERSIM_OUTPUT_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/error.h"

/* How often at most outfile_checkpoint() syncs a journal to disk. */
#define OUTFILE_SYNC_INTERVAL_S 1.0

struct outfile {
	FILE *f;
	char *path;       /* as given, for messages; NULL for standard output */
	char *target;     /* what commit renames over (links resolved), NULL when written through */
	char *tmp_path;   /* the temporary or the journal, NULL when written through */
	bool borrowed;    /* f is stdout or stderr itself: flushed, never closed */
	bool journal;     /* tmp_path is target.partial */
	dev_t dev;        /* of tmp_path: still ours at commit? */
	ino_t ino;
	double synced_s;  /* when a journal was last synced (monotonic seconds) */
};

/* Open for writing; on failure err is a runtime error and *o is cleared:
 * also when another process is writing the same target. */
int outfile_open(struct outfile *o, const char *path, struct cs_error *err);

/* Open path's journal (see above) when path names a regular file or none
 * yet; a path written through is opened as outfile_open() does. Refused
 * when another process writes the journal; an unlocked one (a run that was
 * killed) is replaced: the caller decides beforehand whether it may be. */
int outfile_open_journal(struct outfile *o, const char *path, struct cs_error *err);

/* Hand what was written to the kernel; a journal is also synced to disk
 * when OUTFILE_SYNC_INTERVAL_S has passed since the last sync. 0, or -1
 * with errno set. */
int outfile_checkpoint(struct outfile *o);

/* Finish: flush, sync, rename over the target (then sync its directory).
 * On failure the temporary is removed (a journal is kept). */
int outfile_commit(struct outfile *o, struct cs_error *err);

/* A journal: flush, sync and close it, leaving it where it is; its name
 * into *kept (caller frees). Anything else is committed. 0, or -1 with err
 * set. */
int outfile_keep(struct outfile *o, char **kept, struct cs_error *err);

/* Give up: close and remove the temporary file (or the journal). Safe on a
 * cleared outfile. */
void outfile_abort(struct outfile *o);

/* Does the output replace a file (a temporary or journal renamed at commit),
 * rather than being written through? */
bool outfile_replaces(const struct outfile *o);

/* The journal outfile_open_journal() would write for path: the final
 * target's name with ".partial" (caller frees), or NULL when path is
 * written through (standard output, a descriptor, a device, a fifo). */
char *outfile_journal_name(const char *path);

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
