/* Serving's dollars (models/cost/inference): whole instances priced, per
 * million tokens at the measured throughput, nothing without a price. */
#include "testutil.h"

#include <string.h>

#include "models/cost/inference.h"

static void priced(struct cluster_spec *c)
{
	memset(c, 0, sizeof *c);
	c->gpus_per_node = 8;
	c->price.known = true;
	c->price.usd_per_gpu_hour = 2.5;
}

static void test_whole_instances(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct inference_dollars d;
	priced(&c);
	/* 12 GPUs on 8-GPU nodes: 2 instances = 16 GPUs x $2.5 = $40/h */
	inference_dollars_fill(&c, 12, 1000, 4000, &d);
	assert_true(d.priced);
	assert_int_equal(d.instances, 2);
	assert_close(d.usd_per_hour, 40, 1e-12);
	/* 1000 output tok/s = 3.6 M tokens an hour: $40 / 3.6 */
	assert_close(d.usd_per_mtok, 40 / 3.6, 1e-12);
	assert_close(d.usd_per_mtok_total, 40 / 14.4, 1e-12);
}

static void test_unpriced(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct inference_dollars d;
	priced(&c);
	inference_dollars_fill(&c, 8, 0, 0, &d);  /* no token served: the hour, no per-token figure */
	assert_false(d.priced);
	assert_int_equal(d.instances, 1);
	assert_close(d.usd_per_hour, 20, 1e-12);
	assert_close(d.usd_per_mtok, 0, 0);
	c.price.known = false;
	inference_dollars_fill(&c, 8, 1000, 4000, &d);
	assert_false(d.priced);
	assert_int_equal(d.instances, 0);
	assert_close(d.usd_per_hour, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_instances),
		cmocka_unit_test(test_unpriced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
