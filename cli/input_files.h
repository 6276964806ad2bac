/*
 * input_files: every file a command's inputs name, at any depth, so that no
 * output ever replaces one (input_files_check_output) and a sweep's
 * fingerprint covers what they hold (input_files_digest).
 *
 * A scenario document names files with two keys, each relative to the
 * scenario's file: `catalog` (a path, or a list of paths) and `trace` (a
 * request trace, workload.serving.arrival.trace, or a fleet job class's
 * trace, workload.fleet.jobs[].arrival.trace). The walk takes every string
 * under either key at any depth, so a file is listed wherever it is named.
 * A sweep adds its own file, its base scenario's file, and every value of
 * its axes and zip, each walked as if it stood at its path (the values of
 * an axis `catalog` or `workload.serving.arrival.trace` are files; an axis
 * `workload` walks its objects).
 *
 * It never writes a file and never loads a scenario; it reads the listed
 * files only for input_files_digest().
 */
#ifndef CLUSTERSIM_CLI_INPUT_FILES_H
#define CLUSTERSIM_CLI_INPUT_FILES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/scenario/sweep.h"
#include "util/error.h"

/* One file an input names. */
struct input_file {
	char *path;          /* as the program opens it (resolved against its anchor); owned */
	const char *what;    /* "sweep file", "base scenario", "catalog", "request trace", ... (static) */
	bool content;        /* its bytes are part of input_files_digest() */
};

/* The list, in the order the files were named (the same for every shard of a
 * sweep); a path is listed once. */
struct input_files {
	struct input_file *v;
	size_t n;
};

void input_files_init(struct input_files *l);

/* Free the list's paths and array; the list is empty again. */
void input_files_release(struct input_files *l);

/* Add a file (copied); "-" (standard input), an empty path and one already
 * listed are skipped. `content`: its bytes count in the digest. */
void input_files_add(struct input_files *l, const char *path, const char *what, bool content);

/* Every file scenario document doc names (catalogs, traces, at any depth),
 * resolved against anchor, the file doc was read from ("-": the current
 * directory). doc is borrowed. */
void input_files_add_scenario(struct input_files *l, const json_t *doc, const char *anchor);

/* The files a --set PATH=value names: value walked as if it stood at
 * set_path in a scenario read from anchor. */
void input_files_add_value(struct input_files *l, const char *set_path, const json_t *value,
			   const char *anchor);

/* A sweep's files: sweep_file itself, its base scenario's file, what the base
 * (after --set) names, and what each value of its axes and zip names. */
void input_files_add_sweep(struct input_files *l, const sweep *sw, const char *sweep_file);

/* Refuse output `output` when it is one of the listed files (device and
 * inode after every link, hard links too): an input error whose one-line
 * message names both. 0 when it is none of them, or does not exist yet,
 * or is standard output (NULL or "-"). */
int input_files_check_output(const struct input_files *l, const char *output, struct cs_error *err);

/* The bytes of every listed file with `content`, in list order, as 16 hex
 * digits (FNV-1a 64) into out; a file that cannot be read counts as its
 * errno's name, so the digest still says that it was missing. */
void input_files_digest(const struct input_files *l, char out[17]);

#endif
