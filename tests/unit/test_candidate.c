/* candidate_read: one cluster object, read alone (as a fleet's shared cluster will be). */
#include "testutil.h"

#include <string.h>

#include "models/scenario/candidate.h"
#include "util/jread.h"

#include "catalog_fixture.h"

/* Read cluster object `text` at path "cluster" of a document named c.json. */
static int read_text(const char *text, struct cluster_spec *c, struct cs_error *err)
{
	json_error_t jerr;
	json_t *v = json_loads(text, 0, &jerr);
	struct jread r;
	assert_non_null(v);
	error_clear(err);
	jread_init(&r, "scenario", "c.json", err);
	size_t mark = jread_enter_key(&r, "cluster");
	int rc = candidate_read(&r, v, cat, c);
	if (rc == 0)
		jread_leave(&r, mark);
	json_decref(v);
	return rc;
}

/* A preset gives every field; the cluster's own fields win; the name says both. */
static void test_preset_then_fields(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct cs_error err;
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"nodes\": 4,"
				   " \"topology\": {\"oversubscription\": 2}}", &c, &err), 0);
	assert_string_equal(c.preset, "dgx-h100");
	assert_int_equal(c.nodes, 4);
	assert_int_equal(c.gpus_per_node, 8);
	assert_int_equal(c.nics_per_node, 8);
	assert_true(c.has_nic);
	assert_string_equal(c.nic.id.name, "ib-ndr");
	assert_close(c.topology.oversubscription, 2, 0);
	assert_int_equal(c.topology.nodes_per_leaf, 32);
	assert_int_equal(c.n_storage, 2);
	assert_string_equal(c.name, "4 x dgx-h100");
}

/* A price given in the scenario is known, at the rate given, billed hourly. */
static void test_price_from_scenario(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct cs_error err;
	assert_int_equal(read_text("{\"gpu\": \"h200\", \"nodes\": 2, \"nic\": \"ib-ndr\","
				   " \"price\": {\"usd_per_gpu_hour\": 3.5}}", &c, &err), 0);
	assert_true(c.price.known);
	assert_close(c.price.usd_per_gpu_hour, 3.5, 0);
	assert_close(c.price.billing_s, 3600, 0);
	assert_string_equal(c.price.basis, "scenario");
	assert_int_equal(c.nics_per_node, c.gpus_per_node);
}

/* Each check fails at its key, naming the value. */
static void test_checks_name_the_path(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct cs_error err;
	assert_int_equal(read_text("{\"gpu\": \"h200\", \"nodes\": 2}", &c, &err), -1);
	assert_string_equal(err.msg, "scenario 'c.json': cluster.nic: missing: more than one node needs a scale-out NIC");
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"nic\": \"nvlink4\"}", &c, &err), -1);
	assert_string_equal(err.msg, "scenario 'c.json': cluster.nic: fabric \"nvlink4\" is a scale-up fabric, not scale-out");
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"storage\": [\"pfs-nope\"]}", &c, &err), -1);
	assert_non_null(strstr(err.msg, "cluster.storage[0]: unknown storage \"pfs-nope\""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preset_then_fields),
		cmocka_unit_test(test_price_from_scenario),
		cmocka_unit_test(test_checks_name_the_path),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
