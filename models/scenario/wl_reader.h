/*
 * wl_reader: what a workload kind's reader is: its function type and its
 * entry in the table of readers (wl.c). Records only: the kinds' readers
 * (wl_train.h, wl_serve.h, wl_collective.h, wl_fleet.h) include this
 * header, never wl.h, whose table includes them.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_WL_READER_H
#define CLUSTERSIM_MODELS_SCENARIO_WL_READER_H

#include <jansson.h>

#include "models/eval/job.h"
#include "models/hw/catalog.h"
#include "util/jread.h"

/*
 * A kind's reader: reads the fields of workload object `v` (at r's path)
 * into *w, whose kind and precision are already set. `file` anchors
 * relative paths; `cat` resolves catalog names. Returns 0 or -1 with r's
 * error set.
 */
typedef int wl_read_fn(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		       struct workload_spec *w);

/* One entry of the table of workload readers. */
struct wl_reader {
	enum workload_kind kind;
	const char *name;          /* as in the scenario's "kind" (workload_kind_names) */
	wl_read_fn *read;
	/* the key table's section whose rows that accept this kind are its
	 * keys (keys.h): "workload" for every kind */
	const char *keys;
};

#endif
