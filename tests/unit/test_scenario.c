/* Scenario loading: presets, overrides, prices, --set, and exact errors. */
#include "testutil.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/cost/billing.h"
#include "models/hw/cluster.h"
#include "models/scenario/scenario.h"

#include "catalog_fixture.h"

/* Load a scenario given as text; returns 0 or -1 with err set. */
static int load_text(const char *text, const struct scenario_override *ov, size_t n_ov,
		     struct scenario *s, struct cs_error *err)
{
	char path[] = "/tmp/clustersim-test-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	error_clear(err);
	int rc = scenario_load(path, ov, n_ov, -1, cat, s, err);
	unlink(path);
	return rc;
}

static const char *base_text =
	"{\"name\": \"t\", \"seed\": 7,"
	" \"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"seq_len\": 4096,"
	"   \"global_batch_tokens\": 4194304, \"parallelism\": {\"tp\": 2, \"pp\": 1}},"
	" \"candidates\": [{\"preset\": \"aws-p5.48xlarge\", \"nodes\": 2},"
	"                  {\"name\": \"own\", \"gpu\": \"h200\", \"nodes\": 4, \"nic\": \"ib-ndr\","
	"                   \"price\": {\"usd_per_gpu_hour\": 3.5}}]}";

static void test_example_resolves(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	assert_int_equal(load_text(base_text, NULL, 0, &s, &err), 0);
	assert_string_equal(s.name, "t");
	assert_int_equal(s.seed, 7);
	assert_int_equal(s.n_candidates, 2);
	const struct cluster_spec *p5 = &s.candidates[0];
	assert_string_equal(p5->name, "2 x aws-p5.48xlarge");
	assert_string_equal(p5->gpu.id.name, "H100-SXM");
	assert_int_equal(cluster_gpus(p5), 16);
	assert_string_equal(p5->nic.id.name, "efa-v2");
	assert_true(p5->price.known);
	assert_close(p5->price.usd_per_gpu_hour, 6.88, 1e-9);
	assert_close(billing_usd_per_hour(p5), 16 * 6.88, 1e-9);
	/* 16 x 989 TFLOP/s bf16 */
	assert_close(cluster_peak_flops(p5, PREC_BF16), 16 * 989e12, 1e-12);
	/* EFA v2: 32 x 100 Gb/s for 8 GPUs = 50 GB/s per GPU */
	assert_close(cluster_nic_bytes_per_s_per_gpu(p5), 50e9, 1e-12);
	const struct cluster_spec *own = &s.candidates[1];
	assert_string_equal(own->gpu.id.name, "H200-SXM");
	assert_string_equal(own->scale_up.id.name, "nvlink4");  /* the GPU's default */
	assert_int_equal(own->nics_per_node, 8);                /* one per GPU by default */
	assert_close(own->price.usd_per_gpu_hour, 3.5, 0);
	/* plan: given fields kept, the rest chosen by the planner */
	assert_int_equal(s.workload.train.plan.tp, 2);
	assert_int_equal(s.workload.train.plan.pp, 1);
	assert_int_equal(s.workload.train.plan.dp, PLAN_AUTO);
	assert_int_equal(s.workload.model.precision, PREC_BF16);
	scenario_release(&s);
}

static void test_set_overrides(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct scenario_override ov[4];
	assert_true(override_parse("candidates[0].nodes=4", &ov[0]));
	assert_true(override_parse("candidates[1].price.usd_per_gpu_hour=2.25", &ov[1]));
	assert_true(override_parse("workload.parallelism.tp=auto", &ov[2]));
	assert_true(override_parse("candidates[2]={\"preset\": \"dgx-b200\"}", &ov[3]));
	assert_int_equal(load_text(base_text, ov, 4, &s, &err), 0);
	assert_int_equal(s.candidates[0].nodes, 4);
	assert_close(s.candidates[1].price.usd_per_gpu_hour, 2.25, 0);
	assert_int_equal(s.workload.train.plan.tp, PLAN_AUTO);
	assert_int_equal(s.n_candidates, 3);                   /* appended */
	assert_string_equal(s.candidates[2].gpu.id.name, "B200");
	scenario_release(&s);
}

static void test_set_errors(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct scenario_override ov;
	assert_false(override_parse("nodes", &ov));
	assert_false(override_parse("=4", &ov));
	assert_true(override_parse("candidates[5].nodes=4", &ov));
	assert_int_equal(load_text(base_text, &ov, 1, &s, &err), -1);
	assert_non_null(strstr(err.msg, "--set candidates[5].nodes: index 5 is past the end (the array has 2)"));
	assert_true(override_parse("candidates[0].nodes=many", &ov));
	assert_int_equal(load_text(base_text, &ov, 1, &s, &err), -1);
	assert_non_null(strstr(err.msg, "candidates[0].nodes: expected an integer from 1 to 1000000, got \"many\""));
	assert_true(override_parse("workload.tpp=2", &ov));
	assert_int_equal(load_text(base_text, &ov, 1, &s, &err), -1);
	assert_non_null(strstr(err.msg, "workload: unknown key \"tpp\""));
}

/* A --set value that starts like JSON and is not JSON is refused, naming
 * the path, the value and jansson's reason, where it used to become a
 * string silently. */
static void test_set_value_not_json(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct scenario_override ov;
	assert_true(override_parse("name={\"a\": 1, \"a\": 2}", &ov));
	assert_int_equal(load_text(base_text, &ov, 1, &s, &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_non_null(strstr(err.msg, "': --set name: the value \"{\\\"a\\\": 1, \\\"a\\\": 2}\" starts like JSON "
				    "but is not JSON: column 12: duplicate object key"));
	assert_true(override_parse("name=\"x\\u0000y\"", &ov));
	assert_int_equal(load_text(base_text, &ov, 1, &s, &err), -1);
	assert_non_null(strstr(err.msg, "--set name: the value \"\\\"x\\\\u0000y\\\"\" starts like JSON but is not JSON: "
				    "column 10: a \\u0000 (NUL) escape is not allowed"));
	assert_true(override_parse("name=plain words", &ov));
	assert_int_equal(load_text(base_text, &ov, 1, &s, &err), 0);
	assert_string_equal(s.name, "plain words");
	scenario_release(&s);
}

/* A file named "p" in a fresh directory holding `text` (len bytes);
 * returns its path (a static buffer). */
static const char *file_of(const char *text, size_t len)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/clustersim-trace-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

/* The traces a scenario names share one line reader: a line longer than
 * 1 MiB (or a quoted field carried over lines past it) is an input error
 * naming the trace and the line, found after 1 MiB of it, for the request
 * trace and for both forms of the job trace. */
static void test_trace_line_bound(void **state)
{
	(void)state;
	size_t big = (1u << 20) + 10;
	char *text = malloc(big + 64);
	char scen[1024];
	struct scenario s;
	struct cs_error err;
	assert_non_null(text);
	strcpy(text, "arrival_s,prompt_tokens,output_tokens\n0,");
	size_t head = strlen(text);
	memset(text + head, '1', big);
	strcpy(text + head + big, ",10\n");
	const char *path = file_of(text, strlen(text));
	snprintf(scen, sizeof scen,
		 "{\"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\", \"serving\": {\"arrival\": "
		 "{\"process\": \"trace\", \"trace\": \"%s\"}, \"prompt_tokens\": 1000, \"output_tokens\": 200}},"
		 " \"candidates\": [{\"preset\": \"dgx-h100\"}]}", path);
	assert_int_equal(load_text(scen, NULL, 0, &s, &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_non_null(strstr(err.msg, "': line 2: a line longer than 1048576 bytes, the bound on a trace's line"));
	unlink(path);
	static const char *const fleet_heads[][2] = {
		{ "csv", "submit_s,gpus,duration_s\n\"" },
		{ "sacct", "JobID|Submit|Start|End|AllocTRES\n" },
	};
	for (int i = 0; i < 2; i++) {
		strcpy(text, fleet_heads[i][1]);
		head = strlen(text);
		for (size_t k = 0; k < big; k++)
			text[head + k] = k % 100 == 99 ? '\n' : 'x';
		text[head + big] = '\0';
		path = file_of(text, strlen(text));
		snprintf(scen, sizeof scen,
			 "{\"workload\": {\"kind\": \"fleet\", \"fleet\": {\"duration_h\": 24, \"jobs\": [{\"name\": \"s\","
			 " \"arrival\": {\"process\": \"trace\", \"trace\": \"%s\", \"format\": \"%s\"}}]}},"
			 " \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 2}]}", path, fleet_heads[i][0]);
		assert_int_equal(load_text(scen, NULL, 0, &s, &err), -1);
		/* csv: a quote left open carries the field over lines; sacct has
		 * no quotes, so its lines are short and the rows are bad */
		if (i == 0)
			assert_non_null(strstr(err.msg, "': line 10487: a quoted field longer than 1048576 bytes, the bound on a "
						    "trace's field (a quote not closed?)"));
		else
			assert_null(strstr(err.msg, "longer than"));
		unlink(path);
	}
	free(text);
}

/* A scenario's inline catalog gives each entry once, as a file does. */
static void test_inline_catalog_duplicate(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *text =
		"{\"workload\": {\"kind\": \"collective\", \"collective\": {\"op\": \"all_reduce\", \"bytes\": 1}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}],"
		" \"catalog\": {\"fabrics\": [{\"name\": \"nvlink4\", \"efficiency\": 0.8},"
		"                            {\"name\": \"nvlink4\", \"efficiency\": 0.7}]}}";
	assert_int_equal(load_text(text, NULL, 0, &s, &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_non_null(strstr(err.msg, "': catalog.fabrics[1].name: \"nvlink4\" is also the name of catalog.fabrics[0]: "
				    "give each entry once in a file"));
}

static void test_error_message_form(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *text =
		"{\"workload\": {\"kind\": \"training\", \"model\": {\"layers\": -3, \"hidden\": 64,"
		" \"heads\": 4, \"ffn\": 128, \"vocab\": 100}, \"seq_len\": 128, \"global_batch_tokens\": 128},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(load_text(text, NULL, 0, &s, &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	/* scenario '<file>': <path>: <problem>, with the value */
	assert_non_null(strstr(err.msg, "': workload.model.layers: expected an integer from 1 to 100000, got -3"));
	assert_true(strncmp(err.msg, "scenario '/tmp/clustersim-test-", 31) == 0);
	assert_null(strchr(err.msg, '\n'));
}

static void test_model_object_with_preset(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *text =
		"{\"workload\": {\"kind\": \"training\", \"model\": {\"preset\": \"llama3-70b\", \"layers\": 40},"
		" \"seq_len\": 8192, \"global_batch_tokens\": 8192},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(load_text(text, NULL, 0, &s, &err), 0);
	assert_int_equal(s.workload.model.arch.layers, 40);
	assert_int_equal(s.workload.model.arch.hidden, 8192);
	assert_string_equal(s.workload.model.arch.id.name, "llama3-70b (modified)");
	assert_false(s.candidates[0].price.known);  /* owned hardware: no price */
	scenario_release(&s);
}

/* An inline model that does not start from a preset must state its MLP
 * (a GPT-style ffn 4h GELU model read as SwiGLU would get 1.5x its MLP):
 * one line naming the path. Every field it leaves out is listed with the
 * value assumed and why, for run --dry-run; a catalog name lists none. */
static void test_model_defaults_stated(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *no_mlp =
		"{\"workload\": {\"kind\": \"training\", \"model\": {\"layers\": 2, \"hidden\": 64,"
		" \"heads\": 4, \"ffn\": 256, \"vocab\": 100}, \"seq_len\": 128, \"global_batch_tokens\": 128},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(load_text(no_mlp, NULL, 0, &s, &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_non_null(strstr(err.msg, "': workload.model.mlp: missing: a model that does not start from a preset"));
	assert_null(strchr(err.msg, '\n'));

	const char *gelu =
		"{\"workload\": {\"kind\": \"training\", \"model\": {\"layers\": 2, \"hidden\": 64,"
		" \"heads\": 4, \"ffn\": 256, \"mlp\": \"gelu\", \"vocab\": 100}, \"seq_len\": 128,"
		" \"global_batch_tokens\": 128}, \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(load_text(gelu, NULL, 0, &s, &err), 0);
	assert_int_equal(s.workload.model.arch.mlp, MLP_GELU);
	assert_string_equal(s.workload.model_defaults,
			    "kv_heads 4 (= heads, no GQA), head_dim 16 (hidden / heads), kv_lora_rank 0 (ordinary attention, "
			    "no latent), tied_embeddings false (untied), dropout false (no dropout masks kept), experts 0 (dense), "
			    "mtp_layers 0 (no multi-token prediction)");
	scenario_release(&s);

	const char *preset =
		"{\"workload\": {\"kind\": \"training\", \"model\": {\"preset\": \"llama3-70b\", \"layers\": 40},"
		" \"seq_len\": 8192, \"global_batch_tokens\": 8192}, \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(load_text(preset, NULL, 0, &s, &err), 0);
	assert_int_equal(s.workload.model.arch.mlp, MLP_SWIGLU);
	assert_non_null(strstr(s.workload.model_defaults, "hidden 8192 (llama3-70b)"));
	assert_non_null(strstr(s.workload.model_defaults, "kv_heads 8 (llama3-70b)"));
	assert_non_null(strstr(s.workload.model_defaults, "mlp swiglu (llama3-70b)"));
	/* the stated layers are not among the defaults (mtp_layers is) */
	assert_true(strncmp(s.workload.model_defaults, "layers ", 7) != 0);
	assert_null(strstr(s.workload.model_defaults, ", layers "));
	assert_non_null(strstr(s.workload.model_defaults, "mtp_layers 0 (llama3-70b)"));
	scenario_release(&s);

	const char *named =
		"{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-70b\", \"seq_len\": 8192,"
		" \"global_batch_tokens\": 8192}, \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(load_text(named, NULL, 0, &s, &err), 0);
	assert_string_equal(s.workload.model_defaults, "");
	scenario_release(&s);
}

static void test_collective_sizes(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *text =
		"{\"workload\": {\"kind\": \"collective\", \"collective\": {\"op\": \"all_gather\","
		" \"bytes\": {\"min\": 1024, \"max\": 1048576, \"factor\": 4}}},"
		" \"candidates\": [{\"preset\": \"dgx-h100\"}]}";
	assert_int_equal(load_text(text, NULL, 0, &s, &err), 0);
	assert_int_equal(s.workload.collective.op, COLL_ALL_GATHER);
	assert_int_equal(s.workload.collective.n_bytes, 6);  /* 1K 4K 16K 64K 256K 1M */
	assert_close(s.workload.collective.bytes[5], 1048576, 0);
	scenario_release(&s);
}

static void test_billing_rounds_up(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	assert_int_equal(load_text(base_text, NULL, 0, &s, &err), 0);
	struct cluster_spec *own = &s.candidates[1];  /* 32 GPUs at $3.5, hourly billing */
	assert_close(billing_cost_usd(own, 3600), 32 * 3.5, 1e-12);
	assert_close(billing_cost_usd(own, 3601), 2 * 32 * 3.5, 1e-12);
	assert_close(billing_cost_usd(own, 1), 32 * 3.5, 1e-12);
	own->price.billing_s = 1;
	assert_close(billing_cost_usd(own, 1800), 16 * 3.5, 1e-12);
	scenario_release(&s);
}

/* The billing rule on its own: max(minimum, held time rounded up to the
 * granularity), per instance. */
static void test_billed_time_facts(void **state)
{
	(void)state;
	struct price_quote per_second = { .known = true, .billing_s = 1, .minimum_s = 60 };
	struct price_quote hourly = { .known = true, .billing_s = 3600, .minimum_s = 0 };
	assert_close(billing_billed_s(&per_second, 61), 61, 0);     /* 61 s bills 61 s */
	assert_close(billing_billed_s(&per_second, 30), 60, 0);     /* 30 s bills the minimum */
	assert_close(billing_billed_s(&per_second, 100.5), 101, 0); /* a started second */
	assert_close(billing_billed_s(&per_second, 0), 0, 0);       /* nothing held, nothing billed */
	assert_close(billing_billed_s(&hourly, 61 * 60), 7200, 0);  /* 61 min bills 2 h */
	assert_close(billing_billed_s(&hourly, 3600), 3600, 0);     /* an exact hour stays one */
}

/* The catalog's AWS on-demand, spot and reserved (not capacity-block) prices are
 * billed per second with a 60 s minimum; a hand-worked cost: 16 p5
 * instances (128 GPUs) held 100.5 s at $6.88 per GPU-hour are billed 101 s
 * each: 16 x 8 x 6.88 x 101 / 3600. */
static void test_aws_bills_per_second(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	assert_int_equal(load_text(base_text, NULL, 0, &s, &err), 0);
	struct cluster_spec *p5 = &s.candidates[0];
	assert_close(p5->price.billing_s, 1, 0);
	assert_close(p5->price.minimum_s, 60, 0);
	p5->nodes = 16;
	assert_close(billing_cost_usd(p5, 100.5), 16 * 8 * 6.88 * 101 / 3600, 1e-12);
	assert_close(billing_cost_usd(p5, 30), 16 * 8 * 6.88 * 60 / 3600, 1e-12);
	scenario_release(&s);

	size_t aws = 0;
	for (size_t i = 0; i < catalog_price_count(cat); i++) {
		const struct price_spec *p = catalog_price_at(cat, i);
		const struct billing_spec *b;
		double g, m;
		if (strcmp(p->provider, "aws") != 0)
			continue;
		catalog_price_billing(cat, p, &g, &m, &b);
		assert_non_null(b);
		if (strcmp(p->term, "capacity-block") == 0 || p->type == PRICE_CAPACITY_BLOCK) {
			assert_close(b->block_h, 24, 0);  /* whole days, paid up front */
			assert_string_equal(b->source, "B01");
			continue;
		}
		assert_close(g, 1, 0);
		assert_close(m, 60, 0);
		assert_string_equal(b->source, "X37");
		aws++;
	}
	assert_true(aws >= 10);
}

/* A scenario's billing_s and minimum_s replace the provider's. */
static void test_scenario_billing_overrides(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	struct scenario_override ov[2];
	assert_true(override_parse("candidates[0].price.billing_s=3600", &ov[0]));
	assert_true(override_parse("candidates[0].price.minimum_s=7200", &ov[1]));
	assert_int_equal(load_text(base_text, ov, 2, &s, &err), 0);
	const struct cluster_spec *p5 = &s.candidates[0];
	assert_close(p5->price.billing_s, 3600, 0);
	assert_close(p5->price.minimum_s, 7200, 0);
	assert_close(billing_cost_usd(p5, 61 * 60), 16 * 6.88 * 2, 1e-9);
	scenario_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_resolves),
		cmocka_unit_test(test_set_overrides),
		cmocka_unit_test(test_set_errors),
		cmocka_unit_test(test_error_message_form),
		cmocka_unit_test(test_set_value_not_json),
		cmocka_unit_test(test_trace_line_bound),
		cmocka_unit_test(test_inline_catalog_duplicate),
		cmocka_unit_test(test_model_object_with_preset),
		cmocka_unit_test(test_model_defaults_stated),
		cmocka_unit_test(test_collective_sizes),
		cmocka_unit_test(test_billing_rounds_up),
		cmocka_unit_test(test_billed_time_facts),
		cmocka_unit_test(test_aws_bills_per_second),
		cmocka_unit_test(test_scenario_billing_overrides),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
