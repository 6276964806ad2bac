/*
 * Pipeline layouts as Megatron-Core writes them: the grammar's expansions,
 * its rules, and a layout that places the layers as a split does costing
 * the same step.
 */
#include "testutil.h"

#include <string.h>

#include "models/scenario/scenario.h"
#include "models/train/layout.h"
#include "models/train/memory.h"
#include "models/train/parallel.h"
#include "models/train/pipeline.h"
#include "models/train/train.h"

#include "catalog_fixture.h"

/* NeMo's DeepSeek-V3 layout at pp 8, vpp 4, and Megatron-Core's own
 * docstring example (its parse_str_to_list: "Ettt|(tt|)*29,m|L"). */
static void test_parse(void **state)
{
	(void)state;
	struct pipeline_layout l;
	char why[160];
	assert_int_equal(layout_parse("Et|(tt|)*30mL", &l, why, sizeof why), 0);
	assert_int_equal(l.stages, 32);
	assert_int_equal(l.decoders_total, 61);
	assert_int_equal(l.mtp_total, 1);
	assert_int_equal(l.decoders[0], 1);
	for (int vs = 1; vs <= 30; vs++)
		assert_int_equal(l.decoders[vs], 2);
	assert_int_equal(l.decoders[31], 0);
	assert_int_equal(l.mtp[31], 1);
	assert_int_equal(layout_first_layer(&l, 31), 61);
	assert_int_equal(layout_first_layer(&l, 2), 3);

	assert_int_equal(layout_parse("Ettt|(tt|)*29,m|L", &l, why, sizeof why), 0);
	assert_int_equal(l.stages, 32);
	assert_int_equal(l.decoders_total, 61);
	assert_int_equal(l.decoders[0], 3);
	assert_int_equal(l.mtp[30], 1);
	assert_int_equal(l.decoders[31] + l.mtp[31], 0);

	/* x*n repeats one character, inside a group too: Megatron-Bridge's
	 * DeepSeek-V3 layout at pp 16 (E t*4, 14 x t*4, t m L) */
	assert_int_equal(layout_parse("Et*4|(t*4|)*14,tmL", &l, why, sizeof why), 0);
	assert_int_equal(l.stages, 16);
	assert_int_equal(l.decoders_total, 61);
	assert_int_equal(l.decoders[15], 1);
	assert_int_equal(l.mtp[15], 1);
}

static void test_parse_errors(void **state)
{
	(void)state;
	const struct { const char *text, *why; } bad[] = {
		{ "", "empty" },
		{ "Et|tt", "L (the loss) must appear exactly once" },
		{ "Xt|L", "'X' is not a layer" },
		{ "Et |L", "' ' is not a layer" },
		{ "(tt|", "'(' without ')'" },
		{ "Ett)L", "')' without '('" },
		{ "E(t(t))*2L", "nested parentheses" },
		{ "E(tt)L", "must be followed by '*' and a count" },
		{ "Et*0L", "at least 1" },
		{ "Et*99999L", "exceeds 10000" },
		{ "Et*L", "'*' must be followed by a count" },
		{ "EtL|", "L (the loss) must be in the last virtual stage" },
		{ "EtL|L", "L (the loss) must be the last layer" },
		{ "tEL", "E (the embedding) must be the first layer" },
		{ "EEtL", "E (the embedding) must be the first layer" },
		{ "EmtL", "decoder layers must come before the MTP modules" },
		{ "Etm|mL", "the MTP modules must all be in one virtual stage" },
		{ "E|(|)*600L", "more virtual stages than the 512" },
		{ "E(t*9999)*9L", "expands to more than" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct pipeline_layout l;
		char why[160] = "";
		int rc = layout_parse(bad[i].text, &l, why, sizeof why);
		if (rc == 0 || strstr(why, bad[i].why) == NULL)
			print_error("\"%s\": rc %d, \"%s\"\n", bad[i].text, rc, why);
		assert_int_equal(rc, -1);
		assert_non_null(strstr(why, bad[i].why));
		assert_null(strchr(why, '\n'));
	}
}

static void load_schedule(const char *schedule, int batch_tokens, const char *parallelism, struct scenario *s)
{
	char text[2048];
	struct cs_error err;
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"training\", \"model\": {\"layers\": 5, \"hidden\": 2048, \"heads\": 16,"
		 " \"ffn\": 8192, \"mlp\": \"gelu\", \"vocab\": 32768, \"mtp_layers\": 1}, \"seq_len\": 4096,"
		 " \"global_batch_tokens\": %d, \"parallelism\": {\"tp\": 1, \"pp\": 2, \"vpp\": 2, \"dp\": 4, \"cp\": 1,"
		 " \"ep\": 1, \"zero\": 1, \"micro_batch\": 1, \"schedule\": \"%s\", \"recompute\": \"selective\","
		 " \"sequence_parallel\": false, %s}}, \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 1}]}",
		 batch_tokens, schedule, parallelism);
	assert_int_equal(scenario_of_text(text, s, &err), 0);
}

static void load(const char *parallelism, struct scenario *s)
{
	load_schedule("interleaved", 32768, parallelism, s);
}

/*
 * 5 layers + the embedding's and the loss's slots over 4 virtual stages
 * put E t | t t | t t | L, and the MTP module goes to the last stage: the
 * layout "Et|tt|tt|mL" says the same, so the step and the memory are the
 * same to the bit. "Et|tt|ttm|L" moves the module (its layer, projection,
 * norms and its embedding copy) to the third virtual stage.
 */
static void test_layout_as_split(void **state)
{
	(void)state;
	struct scenario a, b, c;
	struct train_result ra, rb;
	struct train_memory ma, mb;
	load("\"pipeline_split\": \"embedding+loss\"", &a);
	load("\"pipeline_layout\": \"Et|tt|tt|mL\"", &b);
	train_evaluate(&a.workload.train, &a.candidates[0], NULL, &ra);
	train_evaluate(&b.workload.train, &b.candidates[0], NULL, &rb);
	assert_int_equal(ra.outcome.status, OUTCOME_OK);
	assert_int_equal(rb.outcome.status, OUTCOME_OK);
	assert_true(ra.step_time_s == rb.step_time_s);
	memory_per_gpu(&a.workload.train, &ra.plan, &ma);
	memory_per_gpu(&b.workload.train, &rb.plan, &mb);
	assert_true(ma.total == mb.total);

	load("\"pipeline_layout\": \"Et|tt|ttm|L\"", &c);
	struct train_result rc;
	train_evaluate(&c.workload.train, &c.candidates[0], NULL, &rc);
	assert_int_equal(rc.outcome.status, OUTCOME_OK);
	const struct model_spec *m = &c.workload.model.arch;
	double Vh = (double)m->vocab * m->hidden, mtp = transformer_mtp_params(m);
	/* stage 2: its two layers, the module and the module's embedding copy;
	 * stage 3: only the output projection */
	assert_close(parallel_vstage_params(m, &rc.plan, 2, 4) - parallel_vstage_params(m, &rb.plan, 2, 4), mtp + Vh,
		     1e-12);
	assert_close(parallel_vstage_params(m, &rb.plan, 3, 4) - parallel_vstage_params(m, &rc.plan, 3, 4), mtp + Vh,
		     1e-12);
	assert_true(rc.step_time_s != rb.step_time_s);
	scenario_release(&a);
	scenario_release(&b);
	scenario_release(&c);
}

/*
 * Under DualPipeV the last virtual stage ("mL") lies on the first stage,
 * beside the embedding, and the module uses that embedding instead of a
 * copy of its own (DeepSeek-V3, 3.2.3): the stage holds one vocabulary x
 * hidden matrix less than the same layout interleaved, where the module's
 * stage is the second one.
 */
static void test_dualpipev_mtp_shares_embedding(void **state)
{
	(void)state;
	struct scenario a, b;
	struct train_result ra, rb;
	load_schedule("interleaved", 65536, "\"pipeline_layout\": \"Et|tt|tt|mL\"", &a);
	load_schedule("dualpipev", 65536, "\"pipeline_layout\": \"Et|tt|tt|mL\"", &b);
	train_evaluate(&a.workload.train, &a.candidates[0], NULL, &ra);
	train_evaluate(&b.workload.train, &b.candidates[0], NULL, &rb);
	assert_int_equal(ra.outcome.status, OUTCOME_OK);
	assert_int_equal(rb.outcome.status, OUTCOME_OK);
	const struct model_spec *m = &a.workload.model.arch;
	double Vh = (double)m->vocab * m->hidden;
	assert_int_equal(pipeline_stage(2, SCHED_DUALPIPEV, 3), 0);
	assert_int_equal(pipeline_stage(2, SCHED_INTERLEAVED, 3), 1);
	assert_close(parallel_vstage_params(m, &ra.plan, 3, 4) - parallel_vstage_params(m, &rb.plan, 3, 4), Vh, 1e-12);
	assert_close(parallel_vstage_params(m, &ra.plan, 0, 4), parallel_vstage_params(m, &rb.plan, 0, 4), 1e-12);
	scenario_release(&a);
	scenario_release(&b);
}

/*
 * With a rounded batch the plan is filled from a copy of the spec; the
 * result's plan must point at the caller's layout, not the freed copy's
 * (the sanitizer build reads it here), whether the plan was searched or
 * only its dp derived.
 */
static void test_layout_rounded_batch(void **state)
{
	(void)state;
	const char *par[] = {
		"\"tp\": 1, \"pp\": 2, \"vpp\": 2, \"cp\": 1, \"ep\": 1, \"zero\": 1, \"micro_batch\": 1,"
		" \"schedule\": \"interleaved\", \"recompute\": \"selective\", \"sequence_parallel\": false",
		"\"tp\": 1, \"pp\": 2, \"vpp\": \"auto\", \"cp\": 1, \"ep\": 1, \"zero\": \"auto\", \"micro_batch\": 1,"
		" \"schedule\": \"auto\", \"recompute\": \"selective\", \"sequence_parallel\": false",
	};
	for (int i = 0; i < 2; i++) {
		char text[2048];
		struct cs_error err;
		struct scenario s;
		struct train_result r;
		snprintf(text, sizeof text,
			 "{\"workload\": {\"kind\": \"training\", \"model\": {\"layers\": 5, \"hidden\": 2048, \"heads\": 16,"
			 " \"ffn\": 8192, \"mlp\": \"gelu\", \"vocab\": 32768, \"mtp_layers\": 1}, \"seq_len\": 4096,"
			 " \"global_batch_tokens\": {\"target\": 28672, \"round\": true}, \"parallelism\": {%s,"
			 " \"pipeline_layout\": \"Et|tt|tt|mL\"}}, \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 1}]}",
			 par[i]);
		assert_int_equal(scenario_of_text(text, &s, &err), 0);
		train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r);
		assert_int_equal(r.outcome.status, OUTCOME_OK);
		assert_ptr_equal(r.plan.layout, &s.workload.train.plan.layout);
		struct train_memory mem;
		memory_per_gpu(&s.workload.train, &r.plan, &mem);
		assert_true(mem.total > 0);
		scenario_release(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_layout_as_split),
		cmocka_unit_test(test_layout_rounded_batch),
		cmocka_unit_test(test_dualpipev_mtp_shares_embedding),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
