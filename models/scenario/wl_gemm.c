#include "wl_gemm.h"

#include <math.h>
#include <stdio.h>

#include "models/scenario/keys.h"
#include "models/scenario/reader.h"

/* One dimension: a whole number 1 to GEMM_DIM_MAX into out[i]. */
static int read_dim_value(struct jread *r, const json_t *e, double *out)
{
	double x;
	if (jread_value_real(r, e, 1, GEMM_DIM_MAX, &x) < 0)
		return -1;
	if (x != floor(x))
		return jread_fail_value(r, e, "a whole number from 1 to 16777216");
	*out = x;
	return 0;
}

/* Dimension `key` (m, n or k) of every shape: a number for all of them, or
 * an array of one per shape. *n_shapes is 0 until an array sets it; every
 * array must have that many elements. */
static int read_dim(struct jread *r, const json_t *v, const char *key, double dims[GEMM_SHAPES_MAX],
		    size_t *n_shapes)
{
	size_t mark, i;
	const json_t *d = reader_enter_required(r, v, key, &mark), *e;
	if (d == NULL)
		return -1;
	if (json_is_number(d)) {
		if (read_dim_value(r, d, &dims[0]) < 0)
			return -1;
		for (i = 1; i < GEMM_SHAPES_MAX; i++)
			dims[i] = dims[0];
	} else if (json_is_array(d)) {
		size_t len = json_array_size(d);
		if (len == 0 || len > GEMM_SHAPES_MAX)
			return jread_fail_value(r, d, "an array of 1 to 64 sizes");
		if (*n_shapes != 0 && len != *n_shapes)
			return jread_fail(r, "%zu sizes where the other arrays have %zu (m, n and k advance together)",
					  len, *n_shapes);
		*n_shapes = len;
		json_array_foreach(d, i, e) {
			size_t m2 = jread_enter_index(r, i);
			if (read_dim_value(r, e, &dims[i]) < 0)
				return -1;
			jread_leave(r, m2);
		}
	} else {
		return jread_fail_value(r, d, "a whole number or an array of them");
	}
	jread_leave(r, mark);
	return 0;
}

/* Fail at the first workload key the table leaves to the kind readers'
 * own refusal that a gemm workload does not take (seq_len, kernels...). */
static int refuse_others_keys(struct jread *r, const json_t *v)
{
	size_t n;
	const struct key_row *rows = key_rows_all(&n);
	for (size_t i = 0; i < n; i++) {
		const struct key_row *row = &rows[i];
		if (row->sec == KS_WORKLOAD && row->own_refusal && !key_accepted_by(row, WORKLOAD_GEMM) &&
		    json_object_get(v, row->key) != NULL)
			return reader_fail_at(r, row->key, "not used by gemm workloads");
	}
	return 0;
}

int wl_gemm_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		 struct workload_spec *w)
{
	static const char *const dims[] = { "m", "n", "k" };
	struct gemm_spec *g = &w->gemm;
	double *out[] = { g->m, g->n, g->k };
	size_t mark;
	const json_t *x;

	(void)file;
	(void)cat;
	if (refuse_others_keys(r, v) < 0 || (x = reader_enter_required(r, v, "gemm", &mark)) == NULL ||
	    key_object(r, x, KS_GEMM) < 0)
		return -1;
	g->n_shapes = 0;
	for (int d = 0; d < 3; d++)
		if (read_dim(r, x, dims[d], out[d], &g->n_shapes) < 0)
			return -1;
	if (g->n_shapes == 0)
		g->n_shapes = 1;
	jread_leave(r, mark);
	return 0;
}
