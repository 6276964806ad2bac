/*
 * wl: the `workload` object of a scenario, read by the reader of its kind.
 *
 * The kinds are a table of readers (wl.c), one entry per kind: its name and
 * the function that reads its fields. The keys each kind accepts are the
 * key table's (keys.h, section "workload"). wl_read() checks the keys
 * against the table, picks the entry of `kind`, names a key of another kind
 * as a mistake, and calls the entry's reader. Adding a kind is one entry
 * here, its bit in the table's rows, plus one wl_<kind>.c. The entry's
 * record and the readers' type are wl_reader.h's, which the kinds' readers
 * include instead of this header: the table includes them.
 * Never prints; every failure names the file, the JSON path and the value.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_WL_H
#define CLUSTERSIM_MODELS_SCENARIO_WL_H

#include <jansson.h>

#include "models/eval/job.h"
#include "models/hw/catalog.h"
#include "models/scenario/wl_reader.h"
#include "util/jread.h"

/* The table's entry for `kind`, or NULL when the table has none. */
const struct wl_reader *wl_reader_of(enum workload_kind kind);

/*
 * Read workload object `v` (borrowed, at r's current path) into *w, which
 * the caller zeroed. w->collective.bytes and w->serving.trace_requests may
 * be allocated, on failure too; the caller frees them (scenario_release). Returns 0, or -1 with r's error set.
 */
int wl_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
	    struct workload_spec *w);

#endif
