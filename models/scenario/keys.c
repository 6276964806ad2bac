#include "keys.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/scenario/key_rows.h"
#include "models/scenario/reader.h"
#include "util/text.h"

static const char *const section_paths[KS_COUNT] = {
	[KS_TOP] = "",
	[KS_WORKLOAD] = "workload",
	[KS_MODEL] = "workload.model",
	[KS_BATCH] = "workload.global_batch_tokens",
	[KS_PARALLELISM] = "workload.parallelism",
	[KS_CHECKPOINT] = "workload.checkpoint",
	[KS_DATA] = "workload.data",
	[KS_FAILURES] = "workload.failures",
	[KS_FINETUNE] = "workload.finetune",
	[KS_KERNELS] = "workload.kernels",
	[KS_SERVING] = "workload.serving",
	[KS_ARRIVAL] = "workload.serving.arrival",
	[KS_LENGTH] = "workload.serving.*_tokens",
	[KS_SCHEDULER] = "workload.serving.scheduler",
	[KS_SLO] = "workload.serving.slo",
	[KS_DISAGGREGATED] = "workload.serving.disaggregated",
	[KS_SPECULATIVE] = "workload.serving.speculative",
	[KS_COLLECTIVE] = "workload.collective",
	[KS_BYTES] = "workload.collective.bytes",
	[KS_GEMM] = "workload.gemm",
	[KS_FLEET] = "workload.fleet",
	[KS_FLEET_SCHEDULER] = "workload.fleet.scheduler",
	[KS_FLEET_OBJECTIVE] = "workload.fleet.objective",
	[KS_JOBS] = "workload.fleet.jobs[]",
	[KS_JOB_ARRIVAL] = "workload.fleet.jobs[].arrival",
	[KS_JOB_DURATION] = "workload.fleet.jobs[].duration_s",
	[KS_CANDIDATE] = "candidates[]",
	[KS_TOPOLOGY] = "candidates[].topology",
	[KS_STORAGE] = "candidates[].storage[]",
	[KS_PRICE] = "candidates[].price",
	[KS_MONTE_CARLO] = "monte_carlo",
	[KS_OBJECTIVE] = "objective",
	[KS_VALIDATION] = "validation",
	[KS_MEASURED] = "measured",
	[KS_SEARCH] = "search",
	[KS_SEARCH_NODES] = "search.nodes",
	[KS_SEARCH_SPOT] = "search.spot",
};

const char *key_section_path(enum key_section sec)
{
	assert(sec < KS_COUNT && section_paths[sec] != NULL);
	return section_paths[sec];
}

const struct key_row *key_rows_all(size_t *n)
{
	*n = key_rows_count;
	return key_rows;
}

const struct key_row *key_find(enum key_section sec, const char *key)
{
	for (size_t i = 0; i < key_rows_count; i++)
		if (key_rows[i].sec == sec && strcmp(key_rows[i].key, key) == 0)
			return &key_rows[i];
	return NULL;
}

bool key_accepted_by(const struct key_row *row, enum workload_kind kind)
{
	return (row->kinds & (1u << kind)) != 0;
}

size_t key_names(enum key_section sec, const char *out[KEY_SECTION_MAX + 1])
{
	size_t n = 0;
	for (size_t i = 0; i < key_rows_count; i++) {
		if (key_rows[i].sec != sec)
			continue;
		assert(n < KEY_SECTION_MAX);
		out[n++] = key_rows[i].key;
	}
	out[n] = NULL;
	return n;
}

int key_object(struct jread *r, const json_t *v, enum key_section sec)
{
	const char *names[KEY_SECTION_MAX + 1];
	key_names(sec, names);
	return jread_object(r, v, names);
}

int key_need(struct jread *r, const json_t *obj, const char *key)
{
	if (json_object_get(obj, key) != NULL)
		return 0;
	return reader_fail_at(r, key, "missing required key");
}

/* The row of a ranged key a reader reads: a bug when the table lacks it. */
static const struct key_row *ranged_row(enum key_section sec, const char *key)
{
	const struct key_row *row = key_find(sec, key);
	assert(row != NULL && row->ranged);
	return row;
}

int key_real(struct jread *r, const json_t *obj, enum key_section sec, const char *key, double *out)
{
	const struct key_row *row = ranged_row(sec, key);
	return jread_real(r, obj, key, row->required, row->lo, row->hi, out);
}

int key_int(struct jread *r, const json_t *obj, enum key_section sec, const char *key, int64_t *out)
{
	const struct key_row *row = ranged_row(sec, key);
	return jread_int(r, obj, key, row->required, (int64_t)row->lo, (int64_t)row->hi, out);
}

int key_int32(struct jread *r, const json_t *obj, enum key_section sec, const char *key, int *out)
{
	const struct key_row *row = ranged_row(sec, key);
	return jread_int32(r, obj, key, row->required, (int)row->lo, (int)row->hi, out);
}

int key_int_or_auto(struct jread *r, const json_t *obj, enum key_section sec, const char *key,
		    int auto_value, int *out)
{
	const struct key_row *row = ranged_row(sec, key);
	return jread_int_or_auto(r, obj, key, (int)row->lo, (int)row->hi, auto_value, out);
}

int key_real_or_auto(struct jread *r, const json_t *obj, enum key_section sec, const char *key,
		     double auto_value, double *out)
{
	const struct key_row *row = ranged_row(sec, key);
	return jread_real_or_auto(r, obj, key, row->lo, row->hi, auto_value, out);
}

int key_enum(struct jread *r, const json_t *obj, enum key_section sec, const char *key, int *out)
{
	const struct key_row *row = key_find(sec, key);
	assert(row != NULL && row->names != NULL);
	return jread_enum(r, obj, key, row->required, row->names, out);
}

/* A bound as a reader writes it: whole numbers in digits with thousands
 * separators up to 1e9, else %g. */
static void bound_text(double x, char *buf, size_t size)
{
	if (x == floor(x) && fabs(x) < 1e10) {
		char digits[32];
		long long v = (long long)fabs(x);
		int n = snprintf(digits, sizeof digits, "%lld", v), used = 0;
		char out[48];
		if (x < 0)
			out[used++] = '-';
		for (int i = 0; i < n; i++) {
			if (i > 0 && (n - i) % 3 == 0)
				out[used++] = ',';
			out[used++] = digits[i];
		}
		out[used] = '\0';
		snprintf(buf, size, "%s", out);
	} else {
		snprintf(buf, size, "%g", x);
	}
}

/* A cut text ends with util/text.h's mark: a user reads these. */
void key_range_text(const struct key_row *row, char *buf, size_t size)
{
	buf[0] = '\0';
	if (row->range != NULL) {
		text_setf(buf, size, "%s", row->range);
	} else if (row->names != NULL) {
		for (size_t i = 0; row->names[i] != NULL; i++)
			text_append_itemf(buf, size, ", ", "%s", row->names[i]);
	} else if (row->ranged) {
		char lo[48], hi[48];
		bound_text(row->lo, lo, sizeof lo);
		bound_text(row->hi, hi, sizeof hi);
		text_setf(buf, size, "%s to %s", lo, hi);
	}
}

void key_default_text(const struct key_row *row, char *buf, size_t size)
{
	text_setf(buf, size, "%s", row->def != NULL ? row->def : row->required ? "required" : "");
}
