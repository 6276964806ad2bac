/* The key table (models/scenario/keys.h) against the readers: every key in
 * the table is accepted where the table puts it, a key not in the table is
 * refused there, and the table's rows are well formed. */
#include "testutil.h"

#include <string.h>

#include "models/scenario/keys.h"

#include "catalog_fixture.h"

/* Bases that reach every object of the table, each valid as it is. */
static const char *const base_finetune =
	"{\"workload\": {\"kind\": \"finetune\", \"model\": {\"preset\": \"llama3-8b\"}, \"seq_len\": 4096,"
	" \"global_batch_tokens\": {\"target\": 4194304}, \"parallelism\": {}, \"checkpoint\": {},"
	" \"data\": {\"tier\": \"pfs\"}, \"failures\": {\"gpu_mtbf_h\": 1000}, \"kernels\": {}, \"finetune\": {}},"
	" \"candidates\": [{\"preset\": \"dgx-h100\", \"topology\": {}, \"price\": {},"
	"   \"storage\": [{\"tier\": \"pfs\", \"kind\": \"parallel-fs\", \"aggregate_GBps\": 100}]}],"
	" \"monte_carlo\": {}, \"objective\": {}, \"validation\": {\"id\": \"x\", \"metric\": \"mfu\", \"published\": 0.4},"
	" \"search\": {\"nodes\": {\"max\": 2}, \"spot\": {\"preemptions_per_instance_h\": 0.1, \"capacity_wait_s\": 60}}}";
static const char *const base_inference =
	"{\"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\", \"serving\": {\"arrival\": {\"rate_per_s\": 1},"
	" \"prompt_tokens\": {\"dist\": \"lognormal\", \"mean\": 100, \"sd\": 10}, \"output_tokens\": 10,"
	" \"scheduler\": {}, \"slo\": {}, \"disaggregated\": {\"prefill_replicas\": 1, \"decode_replicas\": 1},"
	" \"speculative\": {\"method\": \"eagle\", \"num_speculative_tokens\": 2, \"acceptance_length\": 2}}},"
	" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
static const char *const base_collective =
	"{\"workload\": {\"kind\": \"collective\", \"collective\": {\"op\": \"all_reduce\", \"bytes\": {\"min\": 1024,"
	" \"max\": 4096}}}, \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
static const char *const base_gemm =
	"{\"workload\": {\"kind\": \"gemm\", \"gemm\": {\"m\": 4096, \"n\": 4096, \"k\": 4096}},"
	" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
static const char *const base_measured =
	"{\"workload\": {\"kind\": \"collective\", \"collective\": {\"op\": \"all_reduce\", \"bytes\": 1024}},"
	" \"candidates\": [{\"preset\": \"dgx-h100\"}], \"measured\": {\"metric\": \"busbw_GBps\", \"value\": 100}}";
static const char *const base_fleet =
	"{\"workload\": {\"kind\": \"fleet\", \"fleet\": {\"duration_h\": 10, \"scheduler\": {}, \"objective\": {\"wait_p90_h\": 1},"
	" \"jobs\": [{\"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 8,"
	" \"duration_s\": {\"dist\": \"fixed\", \"mean\": 100}}]}}, \"candidates\": [{\"preset\": \"dgx-h100\"}]}";

/* Where each section's object is: a base and the path to it ("#0": index 0). */
static const struct {
	const char *const *base;
	const char *path[5];
} where[KS_COUNT] = {
	[KS_TOP] = { &base_finetune, { NULL } },
	[KS_WORKLOAD] = { &base_finetune, { "workload" } },
	[KS_MODEL] = { &base_finetune, { "workload", "model" } },
	[KS_BATCH] = { &base_finetune, { "workload", "global_batch_tokens" } },
	[KS_PARALLELISM] = { &base_finetune, { "workload", "parallelism" } },
	[KS_CHECKPOINT] = { &base_finetune, { "workload", "checkpoint" } },
	[KS_DATA] = { &base_finetune, { "workload", "data" } },
	[KS_FAILURES] = { &base_finetune, { "workload", "failures" } },
	[KS_FINETUNE] = { &base_finetune, { "workload", "finetune" } },
	[KS_KERNELS] = { &base_finetune, { "workload", "kernels" } },
	[KS_SERVING] = { &base_inference, { "workload", "serving" } },
	[KS_ARRIVAL] = { &base_inference, { "workload", "serving", "arrival" } },
	[KS_LENGTH] = { &base_inference, { "workload", "serving", "prompt_tokens" } },
	[KS_SCHEDULER] = { &base_inference, { "workload", "serving", "scheduler" } },
	[KS_SLO] = { &base_inference, { "workload", "serving", "slo" } },
	[KS_DISAGGREGATED] = { &base_inference, { "workload", "serving", "disaggregated" } },
	[KS_SPECULATIVE] = { &base_inference, { "workload", "serving", "speculative" } },
	[KS_COLLECTIVE] = { &base_collective, { "workload", "collective" } },
	[KS_BYTES] = { &base_collective, { "workload", "collective", "bytes" } },
	[KS_GEMM] = { &base_gemm, { "workload", "gemm" } },
	[KS_FLEET] = { &base_fleet, { "workload", "fleet" } },
	[KS_FLEET_SCHEDULER] = { &base_fleet, { "workload", "fleet", "scheduler" } },
	[KS_FLEET_OBJECTIVE] = { &base_fleet, { "workload", "fleet", "objective" } },
	[KS_JOBS] = { &base_fleet, { "workload", "fleet", "jobs", "#0" } },
	[KS_JOB_ARRIVAL] = { &base_fleet, { "workload", "fleet", "jobs", "#0", "arrival" } },
	[KS_JOB_DURATION] = { &base_fleet, { "workload", "fleet", "jobs", "#0", "duration_s" } },
	[KS_CANDIDATE] = { &base_finetune, { "candidates", "#0" } },
	[KS_TOPOLOGY] = { &base_finetune, { "candidates", "#0", "topology" } },
	[KS_STORAGE] = { &base_finetune, { "candidates", "#0", "storage", "#0" } },
	[KS_PRICE] = { &base_finetune, { "candidates", "#0", "price" } },
	[KS_MONTE_CARLO] = { &base_finetune, { "monte_carlo" } },
	[KS_OBJECTIVE] = { &base_finetune, { "objective" } },
	[KS_VALIDATION] = { &base_finetune, { "validation" } },
	[KS_MEASURED] = { &base_measured, { "measured" } },
	[KS_SEARCH] = { &base_finetune, { "search" } },
	[KS_SEARCH_NODES] = { &base_finetune, { "search", "nodes" } },
	[KS_SEARCH_SPOT] = { &base_finetune, { "search", "spot" } },
};

/* Load section sec's base with `key` set to null (or nothing set when key
 * is NULL); returns the reader's status, its message in err. */
static int probe(enum key_section sec, const char *key, struct cs_error *err)
{
	json_t *root = json_loads(*where[sec].base, JSON_REJECT_DUPLICATES, NULL);
	json_t *obj = root;
	struct scenario s;
	assert_non_null(root);
	for (size_t i = 0; i < 5 && where[sec].path[i] != NULL; i++) {
		const char *p = where[sec].path[i];
		obj = p[0] == '#' ? json_array_get(obj, (size_t)atoi(p + 1)) : json_object_get(obj, p);
		assert_non_null(obj);
	}
	if (key != NULL)
		json_object_set_new(obj, key, json_null());
	error_clear(err);
	int rc = scenario_from_json(root, "test.json", cat, &s, err);
	if (rc == 0)
		scenario_release(&s);
	json_decref(root);
	return rc;
}

/* Each base loads as it is: the probes below reach their objects. */
static void test_bases_load(void **state)
{
	(void)state;
	struct cs_error err;
	for (int sec = 0; sec < KS_COUNT; sec++) {
		assert_non_null(where[sec].base);
		if (probe((enum key_section)sec, NULL, &err) != 0)
			fail_msg("section %s: %s", key_section_path((enum key_section)sec), err.msg);
	}
}

/* Every key of the table is a key its object accepts: whatever a null there
 * makes the reader say, it is not "unknown key". */
static void test_every_table_key_is_accepted(void **state)
{
	(void)state;
	struct cs_error err;
	size_t n;
	const struct key_row *rows = key_rows_all(&n);
	char unknown[160];
	assert_true(n > 200);
	for (size_t i = 0; i < n; i++) {
		snprintf(unknown, sizeof unknown, "unknown key \"%s\"", rows[i].key);
		probe(rows[i].sec, rows[i].key, &err);
		if (strstr(err.msg, unknown) != NULL)
			fail_msg("%s.%s is refused: %s", key_section_path(rows[i].sec), rows[i].key, err.msg);
	}
}

/* A key the table does not have is refused in every object, as unknown. */
static void test_a_key_not_in_the_table_is_refused(void **state)
{
	(void)state;
	struct cs_error err;
	for (int sec = 0; sec < KS_COUNT; sec++) {
		assert_int_equal(probe((enum key_section)sec, "zz_not_a_key", &err), -1);
		if (strstr(err.msg, "unknown key \"zz_not_a_key\"") == NULL)
			fail_msg("section %s: %s", key_section_path((enum key_section)sec), err.msg);
	}
}

/* Rows are whole: a meaning, a type, a unit; no key twice in an object;
 * a range lo <= hi; at most KEY_SECTION_MAX keys an object. */
static void test_rows_are_well_formed(void **state)
{
	(void)state;
	size_t n;
	const struct key_row *rows = key_rows_all(&n);
	for (size_t i = 0; i < n; i++) {
		const struct key_row *r = &rows[i];
		assert_non_null(r->meaning);
		assert_true(r->meaning[0] != '\0');
		assert_non_null(r->type);
		assert_non_null(r->unit);
		assert_true(r->kinds != 0);
		assert_true(!r->ranged || r->lo <= r->hi);
		assert_ptr_equal(key_find(r->sec, r->key), r);
	}
	for (int sec = 0; sec < KS_COUNT; sec++) {
		const char *names[KEY_SECTION_MAX + 1];
		assert_true(key_names((enum key_section)sec, names) > 0);
	}
}

/* The range and default in words, as help keys prints them. */
static void test_range_and_default_text(void **state)
{
	(void)state;
	char buf[256];
	key_range_text(key_find(KS_PRICE, "billing_s"), buf, sizeof buf);
	assert_string_equal(buf, "1 to 31,622,400");
	key_range_text(key_find(KS_ARRIVAL, "rate_per_s"), buf, sizeof buf);
	assert_string_equal(buf, "1e-06 to 10,000,000");
	key_range_text(key_find(KS_FLEET_SCHEDULER, "policy"), buf, sizeof buf);
	assert_string_equal(buf, "fifo, sjf, priority, backfill");
	key_default_text(key_find(KS_FLEET, "duration_h"), buf, sizeof buf);
	assert_string_equal(buf, "required");
	key_default_text(key_find(KS_SERVING, "duration_s"), buf, sizeof buf);
	assert_string_equal(buf, "600");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bases_load),
		cmocka_unit_test(test_every_table_key_is_accepted),
		cmocka_unit_test(test_a_key_not_in_the_table_is_refused),
		cmocka_unit_test(test_rows_are_well_formed),
		cmocka_unit_test(test_range_and_default_text),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
