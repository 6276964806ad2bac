#include "wl.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "models/scenario/keys.h"
#include "models/scenario/reader.h"
#include "models/scenario/wl_collective.h"
#include "models/scenario/wl_fleet.h"
#include "models/scenario/wl_gemm.h"
#include "models/scenario/wl_serve.h"
#include "models/scenario/wl_train.h"

/* The fleet's reader, given wl_read for its job classes' workloads (wl_fleet.h
 * includes no wl.h: this table includes it). */
static int fleet_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		      struct workload_spec *w)
{
	return wl_fleet_read(r, v, file, cat, w, wl_read);
}

/* The workload readers, one entry per kind; the keys each accepts are the
 * key table's (keys.h). */
static const struct wl_reader wl_readers[] = {
	{ .kind = WORKLOAD_TRAINING, .name = "training", .keys = "workload", .read = wl_train_read },
	{ .kind = WORKLOAD_FINETUNE, .name = "finetune", .keys = "workload", .read = wl_train_read },
	{ .kind = WORKLOAD_INFERENCE, .name = "inference", .keys = "workload", .read = wl_serve_read },
	{ .kind = WORKLOAD_COLLECTIVE, .name = "collective", .keys = "workload", .read = wl_collective_read },
	{ .kind = WORKLOAD_FLEET, .name = "fleet", .keys = "workload", .read = fleet_read },
	{ .kind = WORKLOAD_GEMM, .name = "gemm", .keys = "workload", .read = wl_gemm_read },
};

enum { N_READERS = sizeof wl_readers / sizeof wl_readers[0] };

/*
 * Fail at the first key of v (in the table's order) that rd's kind does not
 * accept, unless its row leaves the refusal to the kind's own reader (which
 * says why: `tokens` outside training, say).
 */
static int reject_other_kinds_keys(struct jread *r, const json_t *v, const struct wl_reader *rd)
{
	size_t n;
	const struct key_row *rows = key_rows_all(&n);
	for (size_t i = 0; i < n; i++) {
		const struct key_row *row = &rows[i];
		if (row->sec != KS_WORKLOAD || row->own_refusal || key_accepted_by(row, rd->kind) ||
		    json_object_get(v, row->key) == NULL)
			continue;
		char msg[128];
		snprintf(msg, sizeof msg, "not used by %s workloads", rd->name);
		return reader_fail_at(r, row->key, msg);
	}
	return 0;
}

const struct wl_reader *wl_reader_of(enum workload_kind kind)
{
	for (size_t e = 0; e < N_READERS; e++) {
		if (wl_readers[e].kind == kind)
			return &wl_readers[e];
	}
	return NULL;
}

int wl_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
	    struct workload_spec *w)
{
	int kind = 0, prec = PREC_BF16;

	if (key_object(r, v, KS_WORKLOAD) < 0 ||
	    key_enum(r, v, KS_WORKLOAD, "kind", &kind) < 0 ||
	    key_enum(r, v, KS_WORKLOAD, "precision", &prec) < 0)
		return -1;
	w->kind = (enum workload_kind)kind;
	w->model.precision = (enum precision)prec;
	const struct wl_reader *rd = wl_reader_of(w->kind);
	assert(rd != NULL); /* every kind has an entry (test_scenario checks) */
	if (reject_other_kinds_keys(r, v, rd) < 0)
		return -1;
	workload_bind(w);
	return rd->read(r, v, file, cat, w);
}
