/* Billing rules, each a fact worked by hand: per-minute, per-second with a
 * minimum, hourly; a capacity block paid in whole blocks (AWS EC2 Capacity
 * Blocks: 1-day steps to 14 days, 7-day steps to 182 days); the providers'
 * records in the built-in catalog (billing.json); and a commitment's
 * break-even utilization in closed form. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/cost/billing.h"
#include "models/hw/catalog.h"

#include "catalog_fixture.h"

#define DAY_S 86400.0

/* 61 s at per-minute billing is two started minutes: 120 s. */
static void test_per_minute(void **state)
{
	(void)state;
	struct price_quote q = { .known = true, .billing_s = 60, .minimum_s = 0 };
	assert_close(billing_billed_s(&q, 61), 120, 0);
	assert_close(billing_billed_s(&q, 60), 60, 0);
	assert_close(billing_billed_s(&q, 1), 60, 0);
}

/* Per second with a 60 s minimum: 10 s held bills the minimum, 60 s. */
static void test_per_second_minimum(void **state)
{
	(void)state;
	struct price_quote q = { .known = true, .billing_s = 1, .minimum_s = 60 };
	assert_close(billing_billed_s(&q, 10), 60, 0);
	assert_close(billing_billed_s(&q, 61), 61, 0);
}

/* Hourly: 61 s bills a whole hour, 3600 s. */
static void test_hourly(void **state)
{
	(void)state;
	struct price_quote q = { .known = true, .billing_s = 3600, .minimum_s = 0 };
	assert_close(billing_billed_s(&q, 61), 3600, 0);
	assert_close(billing_billed_s(&q, 3601), 7200, 0);
}

/* AWS's booking rule: whole days to 14, then weeks, at most 182 days a
 * booking. A capacity block bills its whole block: 1 h bills a day; 25 h
 * bills 2 days; 15 days bills 21; 182 days bills 182; 183 days bills 182 +
 * one day; the granularity and minimum do not apply. */
static void test_capacity_block(void **state)
{
	(void)state;
	struct price_quote q = { .known = true, .billing_s = 1, .minimum_s = 60, .block_s = DAY_S,
				 .block_long_after_s = 14 * DAY_S, .block_long_s = 7 * DAY_S,
				 .block_max_s = 182 * DAY_S };
	assert_close(billing_billed_s(&q, 0), 0, 0);
	assert_close(billing_billed_s(&q, 3600), DAY_S, 0);
	assert_close(billing_billed_s(&q, 25 * 3600), 2 * DAY_S, 0);
	assert_close(billing_billed_s(&q, 14 * DAY_S), 14 * DAY_S, 0);
	assert_close(billing_billed_s(&q, 15 * DAY_S), 21 * DAY_S, 0);
	assert_close(billing_billed_s(&q, 182 * DAY_S), 182 * DAY_S, 0);
	assert_close(billing_billed_s(&q, 183 * DAY_S), 183 * DAY_S, 0);
	assert_close(billing_billed_s(&q, 200 * DAY_S), 182 * DAY_S + 21 * DAY_S, 0);
	assert_true(isinf(billing_billed_s(&q, INFINITY)));  /* not NaN */
	/* a plain block (no long steps, no longest booking): ceil(held / block) x block */
	struct price_quote g = { .known = true, .block_s = DAY_S };
	assert_close(billing_billed_s(&g, 2.5 * DAY_S), 3 * DAY_S, 0);
}

/* The built-in records: CoreWeave and Lambda per minute, Nebius and RunPod
 * per second, AWS capacity blocks in days (billing.json, sourced there). */
static void test_catalog_records(void **state)
{
	(void)state;
	static const struct { const char *provider; double granularity_s; } per[] = {
		{ "coreweave", 60 }, { "lambda", 60 }, { "nebius", 1 }, { "runpod", 1 },
		{ "modal", 1 }, { "hyperstack", 60 }, { "datacrunch", 1 },
	};
	for (size_t i = 0; i < sizeof per / sizeof per[0]; i++) {
		const struct billing_spec *b = catalog_billing_find(cat, per[i].provider, PRICE_ON_DEMAND, "");
		assert_string_equal(b->provider, per[i].provider);
		assert_close(b->granularity_s, per[i].granularity_s, 0);
		assert_close(b->minimum_s, 0, 0);
	}
	const struct billing_spec *cb = catalog_billing_find(cat, "aws", PRICE_CAPACITY_BLOCK, "");
	assert_close(cb->block_h, 24, 0);
	assert_close(cb->block_long_after_h, 14 * 24, 0);
	assert_close(cb->block_long_h, 7 * 24, 0);
	assert_close(cb->block_max_h, 182 * 24, 0);
	cb = catalog_billing_find(cat, "gcp", PRICE_CAPACITY_BLOCK, "");
	assert_close(cb->block_h, 24, 0);
	assert_close(cb->block_max_h, 90 * 24, 0);
}

/* A candidate asking for a capacity block is billed its whole block: 2 p5
 * instances (16 GPUs) at the catalog's capacity-block price, held 1 h, pay
 * one day each: 16 x price x 24. A Lambda node held 61 s pays 2 minutes. */
static void test_candidate_bills_blocks(void **state)
{
	(void)state;
	struct cluster_spec c;
	cluster_of("{\"preset\": \"aws-p5.48xlarge\", \"nodes\": 2, \"price\": {\"type\": \"capacity-block\"}}", &c);
	assert_true(c.price.known);
	assert_int_equal(c.price.type, PRICE_CAPACITY_BLOCK);
	double usd = c.price.usd_per_gpu_hour;
	assert_true(usd > 0);
	assert_close(billing_cost_usd(&c, 3600), 16 * usd * 24, 1e-9);
	assert_close(billing_cost_usd(&c, 15 * DAY_S), 16 * usd * 21 * 24, 1e-6);
	cluster_of("{\"preset\": \"lambda-8x-h100\", \"nodes\": 1}", &c);
	assert_true(c.price.known);
	assert_close(billing_cost_usd(&c, 61), 8 * c.price.usd_per_gpu_hour * 120 / 3600, 1e-12);
}

/* A reserved price asked without a term is a commitment (a 1y or 3y row),
 * never a row of the older capacity-block spelling (type reserved, term
 * capacity-block); and a reserved price carries the same offering's
 * on-demand price for its break-even. */
static void test_reserved_is_a_commitment(void **state)
{
	(void)state;
	struct cluster_spec c;
	cluster_of("{\"preset\": \"aws-p5.48xlarge\", \"price\": {\"type\": \"reserved\"}}", &c);
	assert_true(c.price.known);
	assert_string_not_equal(c.price.term, "capacity-block");
	assert_true(c.price.term[0] != '\0');
	assert_true(c.price.block_s == 0);
	const struct price_spec *od = catalog_price_find(cat, "aws", PRICE_ON_DEMAND, "p5.48xlarge", NULL, NULL);
	assert_non_null(od);
	assert_close(c.price.on_demand_usd_per_gpu_hour, od->usd_per_gpu_hour, 0);
}

/* A commitment beats on-demand above committed / on-demand of its hours
 * used: $2.97 against $6.88 breaks even at 43.17%. A cluster of 16 GPUs
 * that used 2,000 GPU-hours in a 720 h window used 2000 / (16 x 720). */
static void test_commit_breakeven(void **state)
{
	(void)state;
	assert_close(billing_commit_breakeven(2.97, 6.88), 2.97 / 6.88, 1e-15);
	assert_close(billing_commit_breakeven(2.97, 6.88), 0.431686, 1e-6);
	assert_close(billing_commit_breakeven(0, 6.88), 0, 0);
	assert_close(billing_commit_breakeven(2.97, 0), 0, 0);
	assert_close(billing_year_use(2000, 16, 720), 2000.0 / (16 * 720), 1e-15);
	assert_close(billing_year_use(2000, 0, 720), 0, 0);
	/* paying the commitment for all hours and on-demand for the used ones
	 * cost the same exactly at the break-even use */
	double use = billing_commit_breakeven(2.97, 6.88);
	assert_close(2.97 * BILLING_YEAR_H, 6.88 * BILLING_YEAR_H * use, 1e-9);
}

/* A run on a commitment is billed its held hours at the committed rate
 * (docs/explanation/catalog.md, "Commitments"): 8 GPUs on a 1y reserved
 * price of $2/GPU-h, billed hourly, held 72 h + 1 s, pay 73 h: 8 x 2 x 73
 * = $1,168. The whole term is 8 x 2 x 8766 = $140,256 whatever the use;
 * 3y is 3 x 8766 = 26,298 h; no term, or a capacity block's, is none. The
 * note names the held hours, the hours of the term left and the term's
 * dollars. */
static void test_commit_term(void **state)
{
	(void)state;
	struct price_quote q = { .known = true, .type = PRICE_RESERVED, .usd_per_gpu_hour = 2,
				 .on_demand_usd_per_gpu_hour = 5, .billing_s = 3600, .term = "1y" };
	struct cluster_spec c = { .nodes = 1, .gpus_per_node = 8, .price = q };
	char note[1024];
	assert_close(billing_cost_usd(&c, 72 * 3600.0 + 1), 8 * 2 * 73, 1e-9);
	assert_close(billing_term_h("1y"), 8766, 0);
	assert_close(billing_term_h("3y"), 3 * 8766, 0);
	assert_close(billing_term_h(""), 0, 0);
	assert_close(billing_term_h("capacity-block"), 0, 0);
	assert_close(billing_term_h("1yr"), 0, 0);
	assert_close(billing_term_h("0y"), 0, 0);
	assert_close(billing_term_usd(&q, 8), 8 * 2 * 8766.0, 1e-9);
	billing_commit_note(&q, 8, 72 * 3600.0 + 1, note, sizeof note);
	assert_non_null(strstr(note, "for the 73.0 h held, as if the other 8693 h of the term's 8766 h"));
	assert_non_null(strstr(note, "the term costs $140,256 for these 8 GPUs"));
	assert_non_null(strstr(note, "above 40.0% use"));  /* 2 / 5 */
	/* a run longer than the term: every hour held at the rate */
	billing_commit_note(&q, 8, 9000 * 3600.0, note, sizeof note);
	assert_non_null(strstr(note, "the 9000 h held are more than the 1y term's 8766 h"));
	/* not a commitment: no note */
	q.type = PRICE_ON_DEMAND;
	billing_commit_note(&q, 8, 3600, note, sizeof note);
	assert_string_equal(note, "");
	assert_close(billing_term_usd(&q, 8), 0, 0);
}

/* A term picks its own row: GCP a3-highgpu-8g at 1y and 3y are the
 * catalog's two rows (prices.json), each with the offering's on-demand
 * price for the break-even. */
static void test_term_picks_row(void **state)
{
	(void)state;
	struct cluster_spec c;
	const char *terms[] = { "1y", "3y" };
	for (int k = 0; k < 2; k++) {
		char json[160];
		snprintf(json, sizeof json, "{\"preset\": \"gcp-a3-highgpu-8g\", \"price\": {\"type\": "
			 "\"reserved\", \"term\": \"%s\"}}", terms[k]);
		cluster_of(json, &c);
		const struct price_spec *p = catalog_price_find(cat, "gcp", PRICE_RESERVED, "a3-highgpu-8g", NULL,
								 terms[k]);
		assert_non_null(p);
		assert_string_equal(p->term, terms[k]);
		assert_true(c.price.known);
		assert_close(c.price.usd_per_gpu_hour, p->usd_per_gpu_hour, 0);
		assert_string_equal(c.price.term, terms[k]);
	}
	char label[PRICE_TYPE_LABEL_MAX];
	price_type_label(PRICE_RESERVED, "3y", label, sizeof label);
	assert_string_equal(label, "reserved-3y");
	price_type_label(PRICE_RESERVED, "", label, sizeof label);
	assert_string_equal(label, "reserved");
	price_type_label(PRICE_SPOT, "3y", label, sizeof label);
	assert_string_equal(label, "spot");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_minute),
		cmocka_unit_test(test_per_second_minimum),
		cmocka_unit_test(test_hourly),
		cmocka_unit_test(test_capacity_block),
		cmocka_unit_test(test_catalog_records),
		cmocka_unit_test(test_candidate_bills_blocks),
		cmocka_unit_test(test_reserved_is_a_commitment),
		cmocka_unit_test(test_commit_breakeven),
		cmocka_unit_test(test_commit_term),
		cmocka_unit_test(test_term_picks_row),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
