/* Serving's dollars (models/cost/inference): whole instances priced, per
 * million tokens at the measured throughput, nothing without a price. */
#include "testutil.h"

#include <string.h>

#include <math.h>

#include "models/cost/inference.h"
#include "models/cost/price_band.h"

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
	/* no band, no age: the band's percentiles are the point */
	assert_close(d.usd_per_gpu_hour_p10, 2.5, 1e-12);
	assert_close(d.usd_per_mtok_output_p90, 40 / 3.6, 1e-12);
}

/* A marketplace band, low 2 and high 3.5 around 2.5, with no age: its 10th
 * and 90th percentiles are the low and the high (cost/price_band.h), and
 * the per-token cost is linear in the price; an age of 4 years widens each
 * side by s_age^2 x 4 in log-variance. */
static void test_band(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct inference_dollars d;
	priced(&c);
	c.price.usd_per_gpu_hour_low = 2;
	c.price.usd_per_gpu_hour_high = 3.5;
	inference_dollars_fill(&c, 8, 1000, 4000, &d);
	assert_close(d.usd_per_hour, 20, 1e-12);
	assert_close(d.usd_per_gpu_hour_p10, 2, 1e-9);
	assert_close(d.usd_per_gpu_hour_p90, 3.5, 1e-9);
	assert_close(d.usd_per_mtok_output_p10, 20 / 3.6 * 2 / 2.5, 1e-9);
	assert_close(d.usd_per_mtok_output_p90, 20 / 3.6 * 3.5 / 2.5, 1e-9);
	c.price.age_years = 4;
	inference_dollars_fill(&c, 8, 1000, 4000, &d);
	double z = PRICE_BAND_Z90, s = price_band_age_sigma;
	double hi = log(3.5 / 2.5) / z;
	assert_close(d.usd_per_gpu_hour_p90, 2.5 * exp(z * sqrt(hi * hi + s * s * 4)), 1e-9);
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
		cmocka_unit_test(test_band),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
