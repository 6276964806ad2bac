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

/* A `gpu` written over a preset that names another GPU brings its own
 * scale-up link: an H800 in a dgx-h100 gets its NVLink capped at 400 GB/s
 * bidirectional, 200 per direction (the catalog's H800-SXM scale_up_GBps,
 * NVIDIA's H800 specification), not the H100's 450; `scale_up` written
 * beside it wins, and naming the preset's own GPU keeps the preset's. */
static void test_gpu_over_preset_brings_its_scale_up(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct cs_error err;
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"gpu\": \"H800\"}", &c, &err), 0);
	assert_string_equal(c.gpu.id.name, "H800-SXM");
	assert_string_equal(c.scale_up.id.name, "nvlink4-h800");
	assert_close(c.scale_up.bw_bytes_per_s, 200e9, 1e-12);
	assert_close(c.scale_up.bw_bytes_per_s, c.gpu.scale_up_bytes_per_s, 1e-12);
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"gpu\": \"H800\", \"scale_up\": \"nvlink4\"}", &c,
				   &err), 0);
	assert_close(c.scale_up.bw_bytes_per_s, 450e9, 1e-12);
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"gpu\": \"h100\"}", &c, &err), 0);
	assert_string_equal(c.scale_up.id.name, "nvlink4");
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\"}", &c, &err), 0);
	assert_close(c.scale_up.bw_bytes_per_s, 450e9, 1e-12);
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

/* A managed-lustre tier sized by capacity: 100 TiB of FSx PERSISTENT_2 at
 * 1000 MB/s per TiB is 100,000 MB/s = 100 GB/s aggregate. */
static void test_managed_lustre_sized(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct cs_error err;
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"storage\": [{\"tier\": \"pfs\", \"kind\": \"managed-lustre\","
				   " \"preset\": \"fsx-lustre-persistent2-1000\", \"capacity_tib\": 100}]}", &c, &err), 0);
	assert_int_equal(c.n_storage, 1);
	assert_string_equal(c.storage[0].tier, "pfs");
	assert_close(c.storage[0].spec.aggregate_bytes_per_s, 100e9, 1e-12);
	assert_close(c.storage[0].spec.capacity_tib, 100, 1e-12);
	/* 40 TiB of Azure AMLFS Durable Premium 500: 20 GB/s */
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"storage\": [{\"preset\": \"amlfs-durable-premium-500\","
				   " \"capacity_tib\": 40}]}", &c, &err), 0);
	assert_close(c.storage[0].spec.aggregate_bytes_per_s, 20e9, 1e-12);
}

/* Below the provider's minimum capacity, or without one, is an error with the path and value. */
static void test_managed_lustre_errors(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct cs_error err;
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"storage\": [{\"preset\": \"gcp-managed-lustre-1000\","
				   " \"capacity_tib\": 8}]}", &c, &err), -1);
	assert_string_equal(err.msg, "scenario 'c.json': cluster.storage[0].capacity_tib: 8 TiB is below the minimum "
			    "capacity of gcp-managed-lustre-1000, 8.78906 TiB");
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"storage\": [{\"preset\": \"amlfs-durable-premium-40\","
				   " \"capacity_tib\": 16}]}", &c, &err), -1);
	assert_non_null(strstr(err.msg, "cluster.storage[0].capacity_tib: 16 TiB is below the minimum capacity of "
				       "amlfs-durable-premium-40, 48 TiB"));
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"storage\": [{\"preset\": \"fsx-lustre-persistent2-125\"}]}",
				   &c, &err), -1);
	assert_non_null(strstr(err.msg, "cluster.storage[0].capacity_tib: missing required key"));
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"storage\": [{\"preset\": \"weka\", \"capacity_tib\": 10}]}",
				   &c, &err), -1);
	assert_non_null(strstr(err.msg, "cluster.storage[0].capacity_tib: only a managed-lustre tier is sized by capacity_tib"));
}

/* An owned price: the preset's node power (DGX H100, 10.2 kW) x PUE x
 * $/kWh plus the purchase over its life, per GPU (tests/unit/test_owned.c
 * works the same case by hand: $1.095126 per GPU-hour); per-second use. */
static void test_owned_price(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct cs_error err;
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"price\": {\"type\": \"owned\", \"pue\": 1.3,"
				   " \"usd_per_kwh\": 0.08, \"purchase_usd\": 270000, \"life_years\": 4}}", &c, &err), 0);
	assert_true(c.price.known);
	assert_int_equal(c.price.type, PRICE_OWNED);
	assert_close(c.price.usd_per_gpu_hour, (10.2 * 1.3 * 0.08 + 270000.0 / (4 * 8766.0)) / 8, 1e-12);
	assert_close(c.price.billing_s, 1, 0);
	assert_close(c.price.minimum_s, 0, 0);
	assert_non_null(strstr(c.price.basis, "owned: 10.2 kW x PUE 1.3"));
	/* node_power_kw in the price wins over the preset's */
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"price\": {\"type\": \"owned\", \"pue\": 1,"
				   " \"usd_per_kwh\": 0.1, \"purchase_usd\": 0, \"life_years\": 4, \"node_power_kw\": 8}}",
				   &c, &err), 0);
	assert_close(c.price.usd_per_gpu_hour, 0.1, 1e-12);
	/* no node power anywhere, a missing term, a rental field: errors naming the path */
	assert_int_equal(read_text("{\"gpu\": \"H100-SXM\", \"price\": {\"type\": \"owned\", \"pue\": 1.3,"
				   " \"usd_per_kwh\": 0.08, \"purchase_usd\": 270000, \"life_years\": 4}}", &c, &err), -1);
	assert_non_null(strstr(err.msg, "cluster.price: an owned price needs the node's power"));
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"price\": {\"type\": \"owned\", \"pue\": 1.3,"
				   " \"usd_per_kwh\": 0.08, \"purchase_usd\": 270000}}", &c, &err), -1);
	assert_non_null(strstr(err.msg, "cluster.price.life_years: missing required key"));
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"price\": {\"type\": \"owned\", \"pue\": 0.5,"
				   " \"usd_per_kwh\": 0.08, \"purchase_usd\": 270000, \"life_years\": 4}}", &c, &err), -1);
	assert_non_null(strstr(err.msg, "cluster.price.pue: expected a number from 1 to 5, got 0.5"));
	assert_int_equal(read_text("{\"preset\": \"dgx-h100\", \"price\": {\"type\": \"owned\", \"pue\": 1.3,"
				   " \"usd_per_kwh\": 0.08, \"purchase_usd\": 270000, \"life_years\": 4, \"usd_per_gpu_hour\": 2}}",
				   &c, &err), -1);
	assert_non_null(strstr(err.msg, "cluster.price.usd_per_gpu_hour: not used by an owned price"));
}

/* A provider that sells several GPUs under one offering name (Vultr's "cloud
 * GPU", RunPod's "secure cloud"): each preset of that offering takes its own
 * GPU's price, whichever row comes first; a GPU asked without an offering
 * that two offerings sell (secure and community tiers) is refused in one
 * line, as is an offering asked without a GPU. */
#define ACME_PRESET(name, gpu) \
	"{\"name\": \"" name "\", \"description\": \"d\", \"gpu\": \"" gpu "\", \"gpus_per_node\": 8," \
	" \"scale_up\": \"nvlink4\", \"nic\": \"ib-ndr\", \"nics_per_node\": 8," \
	" \"topology\": {\"kind\": \"fat-tree\", \"oversubscription\": 1, \"nodes_per_leaf\": 32}," \
	" \"storage\": [\"local-nvme\"], \"provider\": \"acme\", \"offering\": \"cloud GPU\"," \
	" \"node_power_kw\": 0, \"source\": \"t\", \"confidence\": \"low\", \"note\": \"n\"}"
#define ACME_ROW(offering, gpu, usd) \
	"{\"provider\": \"acme\", \"offering\": \"" offering "\", \"gpu\": \"" gpu "\"," \
	" \"gpus_per_instance\": 1, \"type\": \"on-demand\", \"region\": \"r\"," \
	" \"usd_per_gpu_hour\": " usd ", \"observed\": \"2026-09-20\", \"source\": \"t\"}"
static void test_offering_of_several_gpus(void **state)
{
	(void)state;
	struct cluster_spec c;
	struct cs_error err;
	catalog *builtin_cat = cat;
	cat = catalog_copy(builtin_cat);
	json_t *doc = json_loads("{\"presets\": [" ACME_PRESET("acme-h100", "H100-SXM") ", "
				 ACME_PRESET("acme-mi300x", "MI300X") "], \"prices\": ["
				 ACME_ROW("cloud GPU", "MI300X", "1.85") ", " ACME_ROW("cloud GPU", "H100-SXM", "2.99") ", "
				 ACME_ROW("secure", "H200-SXM", "3.5") ", " ACME_ROW("community", "H200-SXM", "3.1")
				 "]}", 0, NULL);
	assert_non_null(doc);
	error_clear(&err);
	assert_int_equal(catalog_merge_json(cat, doc, "test", "acme.json", NULL, &err), 0);
	json_decref(doc);
	assert_int_equal(read_text("{\"preset\": \"acme-h100\"}", &c, &err), 0);
	assert_true(c.price.known);
	assert_close(c.price.usd_per_gpu_hour, 2.99, 0);
	assert_int_equal(read_text("{\"preset\": \"acme-mi300x\"}", &c, &err), 0);
	assert_true(c.price.known);
	assert_close(c.price.usd_per_gpu_hour, 1.85, 0);
	/* the row of each GPU is its own, not superseded by the other GPU's */
	for (size_t i = 0; i < catalog_price_count(cat); i++) {
		const struct price_spec *p = catalog_price_at(cat, i);
		if (strcmp(p->provider, "acme") == 0 && strcmp(p->gpu, "H200-SXM") != 0)
			assert_string_equal(catalog_price_status(cat, p), "");
	}
	/* an ask without a GPU cannot choose among the offering's GPUs */
	const struct price_spec *p = catalog_price_find(cat, "acme", PRICE_ON_DEMAND, "cloud GPU", NULL, NULL);
	assert_non_null(p);
	assert_non_null(catalog_price_rival(cat, p, "cloud GPU", NULL, NULL));
	p = catalog_price_find(cat, "acme", PRICE_ON_DEMAND, "cloud GPU", "MI300X", NULL);
	assert_close(p->usd_per_gpu_hour, 1.85, 0);
	assert_null(catalog_price_rival(cat, p, "cloud GPU", "MI300X", NULL));
	/* one GPU under two offerings, asked by GPU alone: refused; by offering: priced */
	assert_int_equal(read_text("{\"preset\": \"acme-h100\", \"gpu\": \"H200-SXM\"}", &c, &err), -1);
	assert_non_null(strstr(err.msg, "cluster: the catalog's on-demand prices of acme for H200-SXM are ambiguous: "
				"offering \"secure\" (3.5) and \"community\" (3.1) both match; give price.offering"));
	assert_null(strchr(err.msg, '\n'));
	assert_int_equal(read_text("{\"preset\": \"acme-h100\", \"gpu\": \"H200-SXM\","
				   " \"price\": {\"offering\": \"community\"}}", &c, &err), 0);
	assert_close(c.price.usd_per_gpu_hour, 3.1, 0);
	catalog_free(cat);
	cat = builtin_cat;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preset_then_fields),
		cmocka_unit_test(test_price_from_scenario),
		cmocka_unit_test(test_checks_name_the_path),
		cmocka_unit_test(test_managed_lustre_sized),
		cmocka_unit_test(test_managed_lustre_errors),
		cmocka_unit_test(test_owned_price),
		cmocka_unit_test(test_gpu_over_preset_brings_its_scale_up),
		cmocka_unit_test(test_offering_of_several_gpus),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
