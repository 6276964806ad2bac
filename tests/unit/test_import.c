/* import: argument files split as a launch script holds them; Megatron-LM
 * arguments mapped to the keys and Megatron-LM's defaults. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/import/import.h"

/* Write text to a temporary file; its path into path. */
static void write_temp(char *path, size_t size, const char *text)
{
	int fd;
	snprintf(path, size, "/tmp/test_import_XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void test_args_file_words(void **state)
{
	(void)state;
	char path[64];
	struct import_args a = { 0 };
	struct cs_error err;
	error_clear(&err);
	write_temp(path, sizeof path,
		   "# a comment line\n"
		   "--num-layers 96 \\\n"
		   "  --split '99,1,0' --sched \"0:16 2.4B:320\" # tail comment\n"
		   "\t--fp16\n");
	assert_int_equal(import_args_read_file(&a, path, &err), 0);
	assert_int_equal(a.n, 7);
	assert_string_equal(a.argv[0], "--num-layers");
	assert_string_equal(a.argv[1], "96");
	assert_string_equal(a.argv[3], "99,1,0");
	assert_string_equal(a.argv[5], "0:16 2.4B:320");
	assert_int_equal(a.line[2], 3);  /* the continuation keeps counting lines */
	import_args_release(&a);
	unlink(path);
}

static void test_args_file_variable(void **state)
{
	(void)state;
	char path[64];
	struct import_args a = { 0 };
	struct cs_error err;
	error_clear(&err);
	write_temp(path, sizeof path, "--num-layers 2\n--tensor-model-parallel-size ${TP}\n");
	assert_int_equal(import_args_read_file(&a, path, &err), -1);
	assert_non_null(strstr(err.msg, "line 2: '${TP}' holds a shell variable"));
	import_args_release(&a);
	unlink(path);
}

static void test_megatron_defaults(void **state)
{
	(void)state;
	struct import_args a = { 0 };
	struct import_notes notes = { 0 };
	struct cs_error err;
	json_t *doc, *p;
	error_clear(&err);
	import_args_add(&a, "--tensor-model-parallel-size=4", 0);
	import_args_add(&a, "--recompute-granularity", 0);
	import_args_add(&a, "full", 0);
	import_args_add(&a, "--recompute-method", 0);
	import_args_add(&a, "block", 0);
	import_args_add(&a, "--recompute-num-layers", 0);
	import_args_add(&a, "3", 0);
	doc = import_megatron(&a, &notes, &err);
	assert_non_null(doc);
	p = json_object_get(json_object_get(json_object_get(doc, "workload"), "parallelism"), "tp");
	assert_int_equal(json_integer_value(p), 4);
	p = json_object_get(json_object_get(doc, "workload"), "parallelism");
	assert_int_equal(json_integer_value(json_object_get(p, "pp")), 1);   /* Megatron-LM's default */
	assert_int_equal(json_integer_value(json_object_get(p, "zero")), 0);
	assert_string_equal(json_string_value(json_object_get(p, "recompute")), "full");
	assert_string_equal(json_string_value(json_object_get(p, "recompute_method")), "block");
	assert_int_equal(json_integer_value(json_object_get(p, "recompute_num_layers")), 3);
	assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "workload"), "precision")), "fp32");
	json_decref(doc);
	import_notes_release(&notes);
	import_args_release(&a);
}

/* Megatron-LM's default FFN with --swiglu: int(4h * 2/3 / 64) * 64. */
static void test_megatron_swiglu_ffn(void **state)
{
	(void)state;
	const char *words[] = { "--num-layers", "2", "--hidden-size", "4096", "--num-attention-heads", "32",
				"--vocab-size", "32000", "--swiglu" };
	struct import_args a = { 0 };
	struct import_notes notes = { 0 };
	struct cs_error err;
	json_t *doc, *m;
	error_clear(&err);
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		import_args_add(&a, words[i], 0);
	doc = import_megatron(&a, &notes, &err);
	assert_non_null(doc);
	m = json_object_get(json_object_get(doc, "workload"), "model");
	assert_int_equal(json_integer_value(json_object_get(m, "ffn")), 10880);  /* int(10922.67 / 64) * 64 */
	assert_true(json_is_true(json_object_get(m, "tied_embeddings")));
	json_decref(doc);
	import_notes_release(&notes);
	import_args_release(&a);
}

/* GPT-2 small (the shape of huggingface.co/gpt2 config.json: 12 layers,
 * n_embd 768, 12 heads, vocab 50257, n_positions 1024, n_inner null):
 * GPT2LMHeadModel holds 124,439,808 weights, biases, LayerNorms and the
 * learned positions included, the output head tied. */
static void test_hf_gpt2_count(void **state)
{
	(void)state;
	char path[64];
	struct import_hf_result res;
	struct import_notes notes = { 0 };
	struct cs_error err;
	json_t *doc;
	error_clear(&err);
	write_temp(path, sizeof path,
		   "{\"model_type\": \"gpt2\", \"architectures\": [\"GPT2LMHeadModel\"], \"n_layer\": 12, "
		   "\"n_embd\": 768, \"n_head\": 12, \"n_inner\": null, \"vocab_size\": 50257, \"n_positions\": 1024}");
	doc = import_hf(path, "gpt2", &res, &notes, &err);
	assert_non_null(doc);
	assert_true(res.config_params == 124439808.0);
	assert_int_equal(res.model.ffn, 3072);
	assert_int_equal(res.model.mlp, MLP_GELU);
	assert_true(res.model.tied_embeddings);
	json_decref(doc);
	import_notes_release(&notes);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args_file_words),
		cmocka_unit_test(test_args_file_variable),
		cmocka_unit_test(test_megatron_defaults),
		cmocka_unit_test(test_megatron_swiglu_ffn),
		cmocka_unit_test(test_hf_gpt2_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
