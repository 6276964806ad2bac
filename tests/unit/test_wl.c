/* The workload-reader table: one entry per kind, and its keys refused by the other kinds. */
#include "testutil.h"

#include <string.h>

#include "models/scenario/wl.h"

#include "catalog_fixture.h"

/* Every kind has an entry, under the name the scenario's "kind" gives it. */
static void test_every_kind_has_a_reader(void **state)
{
	(void)state;
	size_t kinds = 0;
	for (; workload_kind_names[kinds] != NULL; kinds++) {
		const struct wl_reader *rd = wl_reader_of((enum workload_kind)kinds);
		assert_non_null(rd);
		assert_int_equal(rd->kind, kinds);
		assert_string_equal(rd->name, workload_kind_names[kinds]);
		assert_non_null(rd->read);
		assert_non_null(rd->keys);
	}
	assert_int_equal(kinds, 4);
	assert_null(wl_reader_of((enum workload_kind)kinds));
}

/* A key of another kind is named as a mistake with the kind's name. */
static void test_key_of_another_kind(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *text =
		"{\"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\", \"parallelism\": \"auto\","
		" \"serving\": {\"arrival\": {\"rate_per_s\": 1}, \"prompt_tokens\": 100, \"output_tokens\": 10}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(scenario_of_text(text, &s, &err), -1);
	assert_string_equal(err.msg, "scenario 'test.json': workload.parallelism: not used by inference workloads");
}

/* `tokens` is refused by the kinds that do not train, with its own message. */
static void test_tokens_outside_training(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *text =
		"{\"workload\": {\"kind\": \"collective\", \"tokens\": 5, \"collective\": {\"op\": \"all_reduce\", \"bytes\": 1024}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(scenario_of_text(text, &s, &err), -1);
	assert_string_equal(err.msg, "scenario 'test.json': workload.tokens: not used by this workload kind");
}

/* A finetune given examples x epochs runs examples x epochs x seq_len tokens. */
static void test_finetune_examples(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *text =
		"{\"workload\": {\"kind\": \"finetune\", \"model\": \"llama3-8b\", \"seq_len\": 2048,"
		" \"global_batch_tokens\": 65536, \"examples\": 1000, \"epochs\": 3,"
		" \"finetune\": {\"method\": \"lora\", \"rank\": 8}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(scenario_of_text(text, &s, &err), 0);
	assert_true(s.workload.train.is_finetune);
	assert_int_equal(s.workload.train.finetune.rank, 8);
	assert_close(s.workload.run.tokens, 1000.0 * 3 * 2048, 0);
	scenario_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind_has_a_reader),
		cmocka_unit_test(test_key_of_another_kind),
		cmocka_unit_test(test_tokens_outside_training),
		cmocka_unit_test(test_finetune_examples),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
