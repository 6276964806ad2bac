/*
 * sweep_run: the sweep as `clustersim sweep` runs it, the state the modules
 * of cli/sweep/ share: the sweep file with --set applied, the options, the
 * catalog, the result columns and the fingerprint every row ends with.
 *
 * It is built once, before the first point, by sweep_run_load() and then
 * sweep_point_columns() (cli/sweep/sweep_point.h, which uses this module,
 * never the reverse); after that every module only reads it. It never runs
 * a point and never writes output.
 *
 * The folder's modules, each using only those listed before it:
 * sweep_fingerprint, sweep_run, sweep_point (a point's rows), sweep_sink
 * (the output and its .partial journal), sweep_resume (the two-pass
 * streaming resume), cmd_sweep (the command).
 */
#ifndef CLUSTERSIM_CLI_SWEEP_SWEEP_RUN_H
#define CLUSTERSIM_CLI_SWEEP_SWEEP_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cli/sweep/sweep_fingerprint.h"
#include "models/hw/catalog.h"
#include "models/scenario/sweep.h"
#include "output/rowset.h"
#include "util/error.h"

struct sweep_run {
	sweep *sw;               /* owned */
	const struct cli_options *o;
	catalog *cat;            /* built-in + --catalog: points without a catalog of their own */
	bool dry_run;
	char **cols;             /* result columns, one set:PATH per varied path, sweep_fingerprint (sweep_point_columns) */
	size_t ncols, nresult;
	uint64_t cols_point;     /* the point that gave the result columns, or UINT64_MAX */
	char fingerprint[SWEEP_FINGERPRINT_LEN + 1];
};

/* Fill run (whose o and dry_run the caller set) from sweep_file: the sweep
 * with --set applied, -o and its journal checked against every file it
 * reads (cli/input_files.h: a usage error naming both), the fingerprint
 * (with those files' contents) and the catalog; not the columns
 * (sweep_point_columns()). 0, or -1 with err set; release run either way. */
int sweep_run_load(struct sweep_run *run, const char *sweep_file, struct cs_error *err);

/* A new empty rowset in the sweep's columns. Caller frees. */
rowset *sweep_run_rowset(const struct sweep_run *run);

/* Free what sweep_run_load() filled in. */
void sweep_run_release(struct sweep_run *run);

#endif
