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
	assert_int_equal(kinds, 6);
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

/* finetune.mean_example_tokens counts examples x epochs x that many tokens;
 * it may not exceed seq_len and needs examples. base_precision is read, and
 * refused with the path and the value where it means nothing. */
static void test_finetune_mean_example_tokens_and_base(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *ok =
		"{\"workload\": {\"kind\": \"finetune\", \"model\": \"llama3-8b\", \"seq_len\": 2048,"
		" \"global_batch_tokens\": 65536, \"examples\": 1000, \"epochs\": 2,"
		" \"finetune\": {\"method\": \"lora\", \"mean_example_tokens\": 700, \"base_precision\": \"fp8\"}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(scenario_of_text(ok, &s, &err), 0);
	assert_close(s.workload.run.tokens, 1000.0 * 2 * 700, 0);
	assert_int_equal(s.workload.train.finetune.base, FT_BASE_FP8);
	scenario_release(&s);

	const char *too_long =
		"{\"workload\": {\"kind\": \"finetune\", \"model\": \"llama3-8b\", \"seq_len\": 2048,"
		" \"global_batch_tokens\": 65536, \"examples\": 1000, \"finetune\": {\"mean_example_tokens\": 4000}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(scenario_of_text(too_long, &s, &err), -1);
	assert_non_null(strstr(err.msg, "'test.json': workload.finetune.mean_example_tokens: 4000 tokens per example"
					" exceed seq_len 2048"));
	const char *no_examples =
		"{\"workload\": {\"kind\": \"finetune\", \"model\": \"llama3-8b\", \"seq_len\": 2048,"
		" \"global_batch_tokens\": 65536, \"tokens\": 1e9, \"finetune\": {\"mean_example_tokens\": 400}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(scenario_of_text(no_examples, &s, &err), -1);
	assert_non_null(strstr(err.msg, "workload.finetune.mean_example_tokens: 400 tokens per example"));
	const char *qlora_bf16 =
		"{\"workload\": {\"kind\": \"finetune\", \"model\": \"llama3-8b\", \"seq_len\": 2048,"
		" \"global_batch_tokens\": 65536, \"tokens\": 1e9, \"finetune\": {\"method\": \"qlora\", \"base_precision\": \"bf16\"}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(scenario_of_text(qlora_bf16, &s, &err), -1);
	assert_non_null(strstr(err.msg, "workload.finetune.base_precision: \"bf16\" is not 4-bit"));
	const char *full_fp8 =
		"{\"workload\": {\"kind\": \"finetune\", \"model\": \"llama3-8b\", \"seq_len\": 2048,"
		" \"global_batch_tokens\": 65536, \"tokens\": 1e9, \"finetune\": {\"method\": \"full\", \"base_precision\": \"fp8\"}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(scenario_of_text(full_fp8, &s, &err), -1);
	assert_non_null(strstr(err.msg, "workload.finetune.base_precision: \"fp8\": a full finetune"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind_has_a_reader),
		cmocka_unit_test(test_key_of_another_kind),
		cmocka_unit_test(test_tokens_outside_training),
		cmocka_unit_test(test_finetune_examples),
		cmocka_unit_test(test_finetune_mean_example_tokens_and_base),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
