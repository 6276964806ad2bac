#include "wl_collective.h"

#include <stdint.h>

#include "models/scenario/keys.h"
#include "models/scenario/reader.h"
#include "models/scenario/wl_train.h"
#include "util/xalloc.h"

/* The most message sizes one collective workload sweeps. */
enum { SIZES_MAX = 64 };

/* The largest message: 1 TiB. */
static const double max_bytes = KEY_COLLECTIVE_BYTES_MAX;

/* `bytes` as an array of 1 to SIZES_MAX sizes. */
static int read_size_list(struct jread *r, const json_t *b, struct collective_spec *c)
{
	size_t i;
	json_t *e;
	if (json_array_size(b) == 0 || json_array_size(b) > SIZES_MAX)
		return jread_fail_value(r, b, "an array of 1 to 64 sizes");
	json_array_foreach(b, i, e) {
		size_t mark = jread_enter_index(r, i);
		if (jread_value_real(r, e, 1, max_bytes, &c->bytes[i]) < 0)
			return -1;
		jread_leave(r, mark);
		c->n_bytes++;
	}
	return 0;
}

/* `bytes` as {"min", "max", "factor"}: min, min x factor, ... up to max. */
static int read_size_range(struct jread *r, const json_t *b, struct collective_spec *c)
{
	double lo, hi, factor = 2;
	if (key_object(r, b, KS_BYTES) < 0 ||
	    key_real(r, b, KS_BYTES, "min", &lo) < 0 ||
	    key_real(r, b, KS_BYTES, "max", &hi) < 0 ||
	    key_real(r, b, KS_BYTES, "factor", &factor) < 0)
		return -1;
	if (lo > hi)
		return jread_fail(r, "min %g exceeds max %g", lo, hi);
	for (double x = lo; x <= hi * (1 + 1e-9); x *= factor) {
		if (c->n_bytes == SIZES_MAX)
			return jread_fail(r, "the range gives more than %d sizes", SIZES_MAX);
		c->bytes[c->n_bytes++] = x;
	}
	return 0;
}

/* The required `bytes`: a size, a list or a range, cut to whole bytes. */
static int read_sizes(struct jread *r, const json_t *v, struct collective_spec *c)
{
	size_t mark;
	const json_t *b = reader_enter_required(r, v, "bytes", &mark);
	if (b == NULL)
		return -1;
	c->bytes = xcalloc(SIZES_MAX, sizeof *c->bytes);
	c->n_bytes = 0;
	if (json_is_number(b)) {
		if (jread_value_real(r, b, 1, max_bytes, &c->bytes[0]) < 0)
			return -1;
		c->n_bytes = 1;
	} else if (json_is_array(b)) {
		if (read_size_list(r, b, c) < 0)
			return -1;
	} else if (json_is_object(b)) {
		if (read_size_range(r, b, c) < 0)
			return -1;
	} else {
		return jread_fail_value(r, b, "a size, an array of sizes or {\"min\", \"max\", \"factor\"}");
	}
	for (size_t i = 0; i < c->n_bytes; i++)
		c->bytes[i] = (double)(int64_t)c->bytes[i]; /* whole bytes */
	jread_leave(r, mark);
	return 0;
}

/* The `collective` object. */
static int read_collective(struct jread *r, const json_t *v, struct collective_spec *c)
{
	int op = COLL_ALL_REDUCE, algo = ALGO_AUTO, fid = FIDELITY_ANALYTIC;

	if (key_object(r, v, KS_COLLECTIVE) < 0 ||
	    key_enum(r, v, KS_COLLECTIVE, "op", &op) < 0 ||
	    key_enum(r, v, KS_COLLECTIVE, "algorithm", &algo) < 0 ||
	    key_enum(r, v, KS_COLLECTIVE, "fidelity", &fid) < 0)
		return -1;
	c->op = (enum collective_op)op;
	c->algorithm = (enum collective_algo)algo;
	c->fidelity = (enum collective_fidelity)fid;
	return read_sizes(r, v, c);
}

int wl_collective_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		       struct workload_spec *w)
{
	size_t mark;
	const json_t *x;

	(void)file;
	(void)cat;
	if (key_int32(r, v, KS_WORKLOAD, "seq_len", &w->train.seq_len) < 0)
		return -1;
	if (json_object_get(v, "tokens") != NULL)
		return reader_fail_at(r, "tokens", "not used by this workload kind");
	if (wl_train_read_kernels(r, v, &w->model.kernels) < 0 ||
	    wl_train_read_failures(r, v, &w->run.failures) < 0 ||
	    (x = reader_enter_required(r, v, "collective", &mark)) == NULL ||
	    read_collective(r, x, &w->collective) < 0)
		return -1;
	jread_leave(r, mark);
	return 0;
}
