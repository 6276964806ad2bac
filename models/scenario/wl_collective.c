#include "wl_collective.h"

#include <stdint.h>

#include "models/scenario/reader.h"
#include "models/scenario/wl_train.h"
#include "util/xalloc.h"

/* The most message sizes one collective workload sweeps. */
enum { SIZES_MAX = 64 };

/* The largest message: 1 TiB. */
static const double max_bytes = 1099511627776.0;

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
	static const char *const keys[] = { "min", "max", "factor", NULL };
	double lo, hi, factor = 2;
	if (jread_object(r, b, keys) < 0 ||
	    jread_real(r, b, "min", true, 1, max_bytes, &lo) < 0 ||
	    jread_real(r, b, "max", true, 1, max_bytes, &hi) < 0 ||
	    jread_real(r, b, "factor", false, 1.01, 1024, &factor) < 0)
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
	static const char *const keys[] = { "op", "bytes", "algorithm", "fidelity", NULL };
	int op = COLL_ALL_REDUCE, algo = ALGO_AUTO, fid = FIDELITY_ANALYTIC;

	if (jread_object(r, v, keys) < 0 ||
	    jread_enum(r, v, "op", true, collective_op_names, &op) < 0 ||
	    jread_enum(r, v, "algorithm", false, collective_algo_names, &algo) < 0 ||
	    jread_enum(r, v, "fidelity", false, collective_fidelity_names, &fid) < 0)
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
	if (jread_int32(r, v, "seq_len", false, 1, 1 << 24, &w->train.seq_len) < 0)
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
