#include "bucket.h"

#include <assert.h>
#include <string.h>

#include "models/kernel/roofline.h"

void bucket_chunk_init(struct bucket_chunk *b, const struct layer_ctx *x, const struct collective_group *dpg,
		       int layers, double grad_params)
{
	memset(b, 0, sizeof *b);
	b->buckets = layers > 0 ? layers : 1;
	b->bytes = x->p->grad_bytes * grad_params / b->buckets;
	b->op = x->p->zero == 0 ? COLL_ALL_REDUCE : COLL_REDUCE_SCATTER;
	if (dpg->n < 2 || b->bytes <= 0)
		return;
	const char *why;
	bool ok = collective_analytic(&x->topo, dpg, b->op, ALGO_AUTO, b->bytes, &b->cost, &why);
	assert(ok);  /* only a multi-node group without a NIC fails; the scenario reader rejects that */
	(void)ok;
}

double bucket_ready_after_s(double duration_s, int j, int n)
{
	return duration_s * (j + 1) / n;
}

double bucket_stream_end_s(const struct bucket_chunk *b, double end_s, double duration_s, double *comm_free_s)
{
	double t = *comm_free_s;
	for (int j = 0; j < b->buckets; j++) {
		double ready = end_s - duration_s + bucket_ready_after_s(duration_s, j, b->buckets);
		if (t < ready)
			t = ready;
		t += b->cost.time_s;
	}
	*comm_free_s = t;
	return t;
}

double bucket_slowdown_s(const struct bucket_chunk *b, double duration_s, double slowdown)
{
	double all = b->buckets * b->cost.time_s;
	double under = all < duration_s ? all : duration_s;
	return slowdown * under;
}
