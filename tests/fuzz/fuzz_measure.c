/*
 * fuzz_measure: bytes -> a measurement file, through every format that
 * recognises it (models/measure: measured runs, nccl-tests, vLLM's and
 * trtllm-bench's reports, GEMM sweeps), each loaded against a fixed --on
 * scenario (a two-node H100 cluster serving Llama 3 8B), and every
 * document it makes read back as a scenario against the built-in catalog,
 * as `validate` and `calibrate` read them (a "catalog" key, which names
 * files, dropped first). A refusal must be one non-empty line; a document
 * must either load or be refused the same way.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/catalog.h"
#include "models/measure/measure.h"
#include "models/scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static catalog *builtin;
static json_t *on;

static const char on_text[] =
	"{\"name\": \"on\", \"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\", \"precision\": \"fp8\","
	" \"serving\": {\"requests\": 8, \"prompt_tokens\": 128, \"output_tokens\": 16, \"tp\": 1}},"
	" \"candidates\": [{\"name\": \"c\", \"preset\": \"dgx-h100\", \"nodes\": 2}]}";

static void one_line(const struct cs_error *err)
{
	if (strchr(err->msg, '\n') != NULL || err->msg[0] == '\0')
		abort();  /* every failure is one non-empty line */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (builtin == NULL) {
		struct cs_error err;
		builtin = catalog_new_builtin(&err);
		on = json_loads(on_text, 0, NULL);
		if (builtin == NULL || on == NULL)
			abort();
	}
	/* The readers take text: a copy ended by a NUL, as a file read whole is. */
	char *text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (int f = 0; measure_formats[f] != NULL; f++) {
		const struct measure_format *fmt = measure_formats[f];
		struct measure_set set = { 0 };
		struct cs_error err = { 0 };
		if (!fmt->detect("fuzz.txt", text, size))
			continue;
		if (fmt->load("fuzz.txt", text, size, on, &set, &err) < 0) {
			one_line(&err);
			measure_set_release(&set);
			continue;
		}
		for (size_t i = 0; i < set.n && i < 64; i++) {
			struct scenario s;
			json_object_del(set.docs[i].scenario, "catalog");  /* never read files */
			catalog *cat = catalog_copy(builtin);
			if (cat == NULL)
				abort();
			if (scenario_from_json(set.docs[i].scenario, "fuzz.txt", cat, &s, &err) == 0)
				scenario_release(&s);
			else
				one_line(&err);
			catalog_free(cat);
		}
		measure_set_release(&set);
	}
	free(text);
	return 0;
}
