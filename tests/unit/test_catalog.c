/* Catalog: built-in data against the reference, lookups, overrides. */
#include "testutil.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/hw/catalog.h"
#include "models/hw/catalog_read.h"
#include "models/kernel/transformer.h"

static catalog *builtin(void)
{
	struct cs_error err;
	error_clear(&err);
	catalog *c = catalog_new_builtin(&err);
	if (c == NULL)
		print_error("%s\n", err.msg);
	assert_non_null(c);
	return c;
}

static void test_required_gpus_present(void **state)
{
	(void)state;
	catalog *c = builtin();
	/* The list: at least these, 15+ in all. */
	const char *names[] = {
		"A100-40GB-SXM", "A100-80GB-SXM", "A800-SXM", "H100-SXM", "H100-PCIe", "H100-NVL",
		"H800-SXM", "H200-SXM", "GH200", "B200", "B300", "GB200", "L40S", "L4", "RTX-4090",
		"MI250X", "MI300X", "MI325X", "MI355X", "Gaudi2", "Gaudi3",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct gpu_spec *g = catalog_gpu(c, names[i]);
		if (g == NULL)
			print_error("missing GPU %s\n", names[i]);
		assert_non_null(g);
		assert_true(g->peak_flops[PREC_BF16] > 0);
		assert_true(g->mamf[PREC_BF16] > 0.3 && g->mamf[PREC_BF16] <= 1.0);
		assert_true(g->id.source[0] != '\0');
	}
	assert_true(catalog_gpu_count(c) >= 15);
	catalog_free(c);
}

/* Datasheet values (dense FLOP/s), as docs/explanation/catalog.md cites them. */
static void test_gpu_values_match_reference(void **state)
{
	(void)state;
	catalog *c = builtin();
	const struct gpu_spec *h100 = catalog_gpu(c, "H100-SXM");
	assert_close(h100->peak_flops[PREC_BF16], 989e12, 1e-9);
	assert_close(h100->peak_flops[PREC_FP8], 1979e12, 1e-9);
	assert_close(h100->mem_bw_bytes_per_s, 3.35e12, 1e-9);
	assert_close(h100->memory_bytes, 80.0 * 1073741824.0, 1e-12);
	assert_close(h100->mamf[PREC_BF16], 0.80, 1e-9);   /* notes.md MAMF */
	assert_close(h100->scale_up_bytes_per_s, 450e9, 1e-9);
	const struct gpu_spec *a100 = catalog_gpu(c, "A100-80GB-SXM");
	assert_close(a100->peak_flops[PREC_BF16], 312e12, 1e-9);
	assert_close(a100->mem_bw_bytes_per_s, 2.039e12, 1e-9);
	assert_close(a100->mamf[PREC_BF16], 0.87, 1e-9);
	const struct gpu_spec *mi300x = catalog_gpu(c, "MI300X");
	assert_close(mi300x->peak_flops[PREC_BF16], 1307.4e12, 1e-9);
	assert_close(mi300x->memory_gib, 192, 0);
	assert_close(mi300x->mamf[PREC_BF16], 0.51, 1e-9);
	/* AMD's measured max-achievable FP8 GEMM (sources.json A01): 1273 and
	 * 1519 TFLOP/s of 2614.9, within the 3-digit rounding */
	assert_close(mi300x->mamf[PREC_FP8] * 2614.9, 1273, 0.002);
	assert_close(catalog_gpu(c, "MI325X")->mamf[PREC_FP8] * 2614.9, 1519, 0.002);
	/* A03: STREAM copy 4.11 TB/s */
	assert_close(mi300x->mem_bw_measured_bytes_per_s, 4.11e12, 1e-12);
	const struct gpu_spec *b200 = catalog_gpu(c, "B200");
	assert_close(b200->peak_flops[PREC_BF16], 2250e12, 1e-9);
	assert_close(b200->mem_bw_bytes_per_s, 8e12, 1e-9);
	const struct gpu_spec *h200 = catalog_gpu(c, "H200-SXM");
	assert_close(h200->memory_gib, 141, 0);
	assert_close(h200->mem_bw_bytes_per_s, 4.8e12, 1e-9);
	/* fp16 runs at the bf16 rate */
	assert_close(h200->peak_flops[PREC_FP16], h200->peak_flops[PREC_BF16], 0);
	catalog_free(c);
}

static void test_fabrics_match_reference(void **state)
{
	(void)state;
	catalog *c = builtin();
	const struct fabric_spec *nvl4 = catalog_fabric(c, "nvlink4");
	assert_int_equal(nvl4->kind, FABRIC_SCALE_UP);
	assert_int_equal(nvl4->topology, FTOPO_SWITCH);
	assert_close(nvl4->bw_bytes_per_s, 450e9, 1e-9);
	/* collectives.csv: ring ~370 GB/s of 450 */
	assert_close(nvl4->efficiency * 450, 370, 0.01);
	const struct fabric_spec *ndr = catalog_fabric(c, "ib-ndr");
	assert_int_equal(ndr->kind, FABRIC_SCALE_OUT);
	assert_close(ndr->bw_bytes_per_s, 50e9, 1e-9);
	assert_close(ndr->line_rate_gbps, 400, 0);
	const struct fabric_spec *mesh = catalog_fabric(c, "xgmi-mi300x");
	assert_int_equal(mesh->topology, FTOPO_MESH);
	assert_close(mesh->pair_bytes_per_s, 64e9, 1e-9);
	/* A02: the slowest of 8 x MI300X's xGMI links measured 45.21 GB/s */
	assert_close(mesh->efficiency * 64, 45.21, 0.001);
	const char *required[] = {
		"nvlink3", "nvlink4", "nvlink5", "nvlink5-nvl72", "xgmi-mi300x", "pcie4", "pcie5",
		"ib-edr", "ib-hdr", "ib-ndr", "ib-xdr", "omni-path", "roce-100", "roce-200", "roce-400",
		"efa-v1", "efa-v2", "efa-v3", "efa-v4", "gcp-tcpx", "gcp-tcpxo",
	};
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
		if (catalog_fabric(c, required[i]) == NULL)
			print_error("missing fabric %s\n", required[i]);
		assert_non_null(catalog_fabric(c, required[i]));
	}
	assert_int_equal(catalog_fabric(c, "nvlink5-nvl72")->domain_gpus, 72);
	catalog_free(c);
}

static void test_lookup_aliases_and_case(void **state)
{
	(void)state;
	catalog *c = builtin();
	assert_ptr_equal(catalog_gpu(c, "h100"), catalog_gpu(c, "H100-SXM"));
	assert_ptr_equal(catalog_gpu(c, "h100-sxm"), catalog_gpu(c, "H100-SXM"));
	assert_ptr_equal(catalog_gpu(c, "H200"), catalog_gpu(c, "H200-SXM"));
	assert_null(catalog_gpu(c, "H1000"));
	char hint[256];
	catalog_suggest(c, CAT_PRESETS, "dgx-h10", hint, sizeof hint);
	assert_non_null(strstr(hint, "\"dgx-h100\""));
	catalog_suggest(c, CAT_MODELS, "lama3-70b", hint, sizeof hint);
	assert_non_null(strstr(hint, "\"llama3-70b\""));
	catalog_free(c);
}

static void test_presets_and_prices(void **state)
{
	(void)state;
	catalog *c = builtin();
	const char *presets[] = {
		"dgx-a100", "dgx-h100", "hgx-h200", "dgx-b200", "gb200-nvl72", "aws-p4d.24xlarge",
		"aws-p5.48xlarge", "aws-p5en.48xlarge", "gcp-a3-highgpu-8g", "gcp-a3-megagpu-8g",
		"azure-nd-a100-v4", "azure-nd-h100-v5", "lambda-8x-h100", "coreweave-8x-h100",
		"nebius-8x-h200",
	};
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
		if (catalog_preset(c, presets[i]) == NULL)
			print_error("missing preset %s\n", presets[i]);
		assert_non_null(catalog_preset(c, presets[i]));
	}
	const struct preset_spec *p5 = catalog_preset(c, "aws-p5.48xlarge");
	assert_int_equal(p5->gpus_per_node, 8);
	assert_int_equal(p5->nics_per_node, 32);  /* 32 x 100G EFA v2 */
	/* prices.csv: AWS p5 post-cut $6.88/GPU-h comes before the pre-cut $12.29 */
	const struct price_spec *pr = catalog_price_find(c, "aws", PRICE_ON_DEMAND, "p5.48xlarge", "H100-SXM", "");
	assert_non_null(pr);
	assert_close(pr->usd_per_gpu_hour, 6.88, 1e-9);
	/* p5en spot: 26.57-27.20 per instance -> 3.32-3.40 per GPU */
	pr = catalog_price_find(c, "aws", PRICE_SPOT, "p5en.48xlarge", "H200-SXM", "");
	assert_non_null(pr);
	assert_true(pr->usd_per_gpu_hour >= 3.32 && pr->usd_per_gpu_hour <= 3.40);
	/* GCP a3-highgpu-8g on-demand us-central1 $11.061/GPU-h */
	pr = catalog_price_find(c, "gcp", PRICE_ON_DEMAND, "a3-highgpu-8g", "", "");
	assert_non_null(pr);
	assert_close(pr->usd_per_gpu_hour, 11.061, 1e-3);
	assert_null(catalog_price_find(c, "lambda", PRICE_SPOT, "", "H100-SXM", ""));
	assert_true(catalog_provider_known(c, "AWS"));
	assert_false(catalog_provider_known(c, "awz"));
	catalog_free(c);
}

static void test_models_parameter_counts(void **state)
{
	(void)state;
	catalog *c = builtin();
	const struct model_spec *m = catalog_model(c, "llama3-70b");
	assert_int_equal(m->layers, 80);
	assert_int_equal(m->hidden, 8192);
	assert_int_equal(m->kv_heads, 8);
	assert_int_equal(m->ffn, 28672);
	assert_int_equal(m->mlp, MLP_SWIGLU);
	m = catalog_model(c, "gpt3-175b");
	assert_int_equal(m->layers, 96);
	assert_int_equal(m->hidden, 12288);
	assert_int_equal(m->mlp, MLP_GELU);
	m = catalog_model(c, "mixtral-8x7b");
	assert_int_equal(m->experts, 8);
	assert_int_equal(m->experts_active, 2);
	catalog_free(c);
}

static void test_override_merges_fields(void **state)
{
	(void)state;
	catalog *c = builtin();
	struct cs_error err;
	json_error_t jerr;
	error_clear(&err);
	json_t *doc = json_loads(
		"{\"gpus\": [{\"name\": \"h100-sxm\", \"mamf_bf16\": 0.75},"
		"            {\"name\": \"X9\", \"memory_gib\": 64, \"mem_bw_GBps\": 2000,"
		"             \"tflops_bf16\": 500, \"mamf_bf16\": 0.7, \"scale_up\": \"nvlink4\"}],"
		" \"prices\": [{\"provider\": \"aws\", \"offering\": \"p5.48xlarge\", \"gpu\": \"H100-SXM\","
		"              \"type\": \"on-demand\", \"usd_per_gpu_hour\": 2.5}]}", 0, &jerr);
	assert_non_null(doc);
	assert_int_equal(catalog_merge_json(c, doc, "catalog", "mine.json", NULL, &err), 0);
	json_decref(doc);
	const struct gpu_spec *h100 = catalog_gpu(c, "H100-SXM");
	assert_close(h100->mamf[PREC_BF16], 0.75, 0);       /* overridden */
	assert_close(h100->peak_flops[PREC_BF16], 989e12, 1e-9); /* kept */
	assert_non_null(catalog_gpu(c, "x9"));
	const struct price_spec *pr = catalog_price_find(c, "aws", PRICE_ON_DEMAND, "p5.48xlarge", "H100-SXM", "");
	assert_close(pr->usd_per_gpu_hour, 2.5, 0);  /* the user's price wins */
	assert_int_equal(catalog_check(c, &err), 0);
	catalog_free(c);
}

/* FP4's GEMM fraction: the catalog's measurement where it has one (B200:
 * cuBLASLt's 5239 of 9000 TFLOP/s), else the stated assumption, FP8's fraction times
 * catalog_fp4_over_fp8_mamf, flagged for the rows to name; a user's
 * measurement replaces the assumption, and an override of the FP8 fraction
 * carries into an assumed FP4 one. */
static void test_fp4_rate_measured_or_assumed(void **state)
{
	(void)state;
	catalog *c = builtin();
	const struct gpu_spec *b200 = catalog_gpu(c, "B200"), *gb200 = catalog_gpu(c, "GB200");
	assert_close(b200->mamf[PREC_FP4], 5239.0 / 9000, 1e-3);
	assert_false(b200->mamf_fp4_assumed);
	assert_true(gb200->mamf_fp4_assumed);
	assert_close(gb200->mamf[PREC_FP4], gb200->mamf[PREC_FP8] * catalog_fp4_over_fp8_mamf, 1e-12);
	/* the assumed ratio is B200's measured FP4 over its measured FP8 (3432.5 of 4500) */
	assert_close(catalog_fp4_over_fp8_mamf, (5239.0 / 9000) / (3432.5 / 4500), 0.01);
	struct cs_error err;
	json_error_t jerr;
	error_clear(&err);
	json_t *doc = json_loads("{\"gpus\": [{\"name\": \"GB200\", \"mamf_fp4\": 0.5},"
				 "            {\"name\": \"B300\", \"mamf_fp8\": 0.6}]}", 0, &jerr);
	assert_int_equal(catalog_merge_json(c, doc, "catalog", "mine.json", NULL, &err), 0);
	json_decref(doc);
	assert_close(catalog_gpu(c, "GB200")->mamf[PREC_FP4], 0.5, 0);
	assert_false(catalog_gpu(c, "GB200")->mamf_fp4_assumed);
	assert_close(catalog_gpu(c, "B300")->mamf[PREC_FP4], 0.6 * catalog_fp4_over_fp8_mamf, 1e-12);
	assert_true(catalog_gpu(c, "B300")->mamf_fp4_assumed);
	catalog_free(c);
}

/* AMD's training attention ratio (A05): measured for the gfx942 parts,
 * carried over to MI355X and flagged for its rows to name; none elsewhere.
 * MI355X's FP8 fraction is AMD's hipBLASLt 3130.21 of 5033 TFLOP/s (A04). */
static void test_amd_training_rates(void **state)
{
	(void)state;
	catalog *c = builtin();
	const struct gpu_spec *mi300x = catalog_gpu(c, "MI300X"), *mi325x = catalog_gpu(c, "MI325X"),
			      *mi355x = catalog_gpu(c, "MI355X"), *h100 = catalog_gpu(c, "H100");
	assert_close(mi300x->attn_train_over_gemm, 0.666, 0);
	assert_close(mi325x->attn_train_over_gemm, 0.666, 0);
	assert_false(mi300x->attn_train_assumed);
	assert_false(mi325x->attn_train_assumed);
	assert_true(mi355x->attn_train_assumed);
	assert_true(mi355x->attn_train_note[0] != '\0');
	assert_close(h100->attn_train_over_gemm, 0, 0);
	/* the derivation in the notes: (19.47 x 0.25 + 7.48 x 0.53) / 67.43 of the
	 * GEMM time for 48.3 / 553.9 of its FLOPs */
	assert_close((48.3 / 553.9) / ((19.47 * 0.25 + 7.48 * 0.53) / 67.43), 0.666, 0.001);
	assert_close(mi355x->mamf[PREC_FP8], 3130.21 / 5033, 0.001);
	catalog_free(c);
}

static void test_override_errors(void **state)
{
	(void)state;
	catalog *c = builtin();
	struct cs_error err;
	json_error_t jerr;
	error_clear(&err);
	json_t *doc = json_loads("{\"gpus\": [{\"name\": \"Y1\", \"memory_gib\": 64}]}", 0, &jerr);
	assert_int_equal(catalog_merge_json(c, doc, "catalog", "mine.json", NULL, &err), -1);
	assert_string_equal(err.msg, "catalog 'mine.json': gpus[0].mem_bw_GBps: missing required key");
	json_decref(doc);
	doc = json_loads("{\"presets\": [{\"name\": \"p1\", \"gpu\": \"H1OO\", \"gpus_per_node\": 8, \"scale_up\": \"nvlink4\"}]}", 0, &jerr);
	assert_int_equal(catalog_merge_json(c, doc, "catalog", "mine.json", NULL, &err), 0);
	assert_int_equal(catalog_check(c, &err), -1);
	assert_non_null(strstr(err.msg, "unknown GPU \"H1OO\", did you mean \"H100-SXM\""));
	json_decref(doc);
	doc = json_loads("{\"gpus\": [{\"name\": \"Z1\", \"aliases\": [\"h100\"], \"memory_gib\": 1,"
			 "\"mem_bw_GBps\": 1, \"tflops_bf16\": 1, \"mamf_bf16\": 0.5}]}", 0, &jerr);
	assert_int_equal(catalog_merge_json(c, doc, "catalog", "mine.json", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "alias \"h100\" already names \"H100-SXM\""));
	json_decref(doc);
	doc = json_loads("{\"gpu\": []}", 0, &jerr);
	assert_int_equal(catalog_merge_json(c, doc, "catalog", "mine.json", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "unknown key \"gpu\", did you mean \"gpus\""));
	json_decref(doc);
	catalog_free(c);
}

/* A copy takes additions without changing the original. */
static void test_copy_is_independent(void **state)
{
	(void)state;
	catalog *c = builtin();
	catalog *d = catalog_copy(c);
	struct cs_error err;
	json_error_t jerr;
	json_t *doc = json_loads("{\"gpus\": [{\"name\": \"H100-SXM\", \"mamf_bf16\": 0.5}]}", 0, &jerr);
	assert_int_equal(catalog_merge_json(d, doc, "catalog", "x.json", NULL, &err), 0);
	json_decref(doc);
	assert_close(catalog_gpu(d, "H100-SXM")->mamf[PREC_BF16], 0.5, 0);
	assert_close(catalog_gpu(c, "H100-SXM")->mamf[PREC_BF16], 0.80, 1e-9);
	assert_int_equal(catalog_price_count(d), catalog_price_count(c));
	catalog_free(d);
	catalog_free(c);
}
/* Each newer model's shape-derived parameter count is within 3% of the
 * published figure (total, and active for MoE). The published figures are
 * the model cards' / announcements' (sources X22..X31), written here
 * independently of params_b so that a wrong shape cannot pass by editing
 * one number. */
static void test_new_models_published_counts(void **state)
{
	(void)state;
	catalog *c = builtin();
	static const struct { const char *name; double total_b, active_b; } want[] = {
		{ "llama4-scout", 109, 17 },       /* 109B / 17B incl. the vision encoder */
		{ "llama4-maverick", 400, 17 },
		{ "qwen2.5-7b", 7.61, 7.61 },
		{ "qwen2.5-72b", 72.7, 72.7 },
		{ "qwen3-8b", 8.2, 8.2 },
		{ "qwen3-32b", 32.8, 32.8 },
		{ "qwen3-30b-a3b", 30.5, 3.3 },
		{ "qwen3-235b-a22b", 235, 22 },
		{ "mistral-7b", 7.3, 7.3 },
		{ "mistral-large-2", 123, 123 },
		{ "mixtral-8x22b", 141, 39 },
		{ "gemma2-9b", 9.24, 9.24 },
		{ "gemma2-27b", 27.2, 27.2 },
		{ "gemma3-12b", 12, 12 },          /* 12B incl. the ~0.4B vision encoder */
		{ "gemma3-27b", 27, 27 },
	};
	double worst = 0;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct model_spec *m = catalog_model(c, want[i].name);
		if (m == NULL)
			print_error("missing model %s\n", want[i].name);
		assert_non_null(m);
		double t = transformer_params_total(m) / 1e9, a = transformer_params_active(m) / 1e9;
		double et = fabs(t / want[i].total_b - 1), ea = fabs(a / want[i].active_b - 1);
		if (et > 0.03 || ea > 0.03)
			print_error("%s: %.2fB total (published %.2fB), %.2fB active (published %.2fB)\n",
				    want[i].name, t, want[i].total_b, a, want[i].active_b);
		assert_true(et <= 0.03);
		assert_true(ea <= 0.03);
		worst = fmax(worst, fmax(et, ea));
	}
	assert_true(worst <= 0.03);
	/* DeepSeek-R1 is the same shape as V3: an alias, not an entry */
	assert_ptr_equal(catalog_model(c, "deepseek-r1"), catalog_model(c, "deepseek-v3"));
	catalog_free(c);
}

/* Every built-in price has an ISO observation date (YYYY-MM-DD or YYYY-MM)
 * and a source (a user's file may still give an undated row, which says so in
 * observed_note); the catalog has an as_of date; ages are measured against it. */
static void test_price_dates(void **state)
{
	(void)state;
	catalog *c = builtin();
	assert_true(catalog_read_iso_date(catalog_as_of(c), true));
	for (size_t i = 0; i < catalog_price_count(c); i++) {
		const struct price_spec *p = catalog_price_at(c, i);
		if (p->observed[0] == '\0' || p->source[0] == '\0')
			print_error("%s %s %s: no observation date or no source\n", p->provider, p->offering, p->gpu);
		assert_true(p->observed[0] != '\0');
		assert_true(p->source[0] != '\0');
		if (!catalog_read_iso_date(p->observed, false))
			print_error("%s %s: observed \"%s\"\n", p->provider, p->offering, p->observed);
		assert_true(catalog_read_iso_date(p->observed, false));
		assert_true(strcmp(p->observed, catalog_as_of(c)) <= 0 ||
			    strncmp(p->observed, catalog_as_of(c), 7) == 0);
	}
	assert_true(catalog_read_iso_date("2026-02", false));
	assert_false(catalog_read_iso_date("2026-02", true));
	assert_false(catalog_read_iso_date("2026-13-01", false));
	assert_false(catalog_read_iso_date("late 2024", false));
	assert_false(catalog_read_iso_date("2026-1-01", false));

	/* The stale rule against as_of 2026-12-01: older than 2025-12-01 */
	struct price_spec p;
	memset(&p, 0, sizeof p);
	const char *stale[] = { "2025-11-30", "2025-11", "2024-12" };
	const char *fresh[] = { "2025-12-01", "2025-12", "2026-07-30", "" };
	struct cs_error err;
	error_clear(&err);
	json_t *doc = json_loads("{\"as_of\": \"2026-12-01\"}", 0, NULL);
	assert_int_equal(catalog_merge_json(c, doc, "test", "t.json", NULL, &err), 0);
	json_decref(doc);
	for (size_t i = 0; i < sizeof stale / sizeof stale[0]; i++) {
		snprintf(p.observed, sizeof p.observed, "%s", stale[i]);
		assert_true(catalog_price_stale(c, &p));
	}
	for (size_t i = 0; i < sizeof fresh / sizeof fresh[0]; i++) {
		snprintf(p.observed, sizeof p.observed, "%s", fresh[i]);
		assert_false(catalog_price_stale(c, &p));
	}
	/* a user file's words in observed are refused, with the way out named */
	doc = json_loads("{\"prices\": [{\"provider\": \"x\", \"gpu\": \"H100-SXM\", \"type\": "
			 "\"on-demand\", \"usd_per_gpu_hour\": 2, \"observed\": \"May 2025\"}]}", 0, NULL);
	assert_int_equal(catalog_merge_json(c, doc, "test", "t.json", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "observed_note"));
	json_decref(doc);
	doc = json_loads("{\"as_of\": \"2026-12\"}", 0, NULL);
	assert_int_equal(catalog_merge_json(c, doc, "test", "t.json", NULL, &err), -1);
	json_decref(doc);
	catalog_free(c);
}


/* A price's history: the newest row comes first and is the one a lookup
 * takes; the older row of the same region is "superseded", a row of another
 * region is a variant judged by its own date, an undated row says so. */
static void test_price_status(void **state)
{
	(void)state;
	catalog *c = builtin();
	struct cs_error err;
	const char *want[] = { "", "superseded", "over a year", "undated" };
	const char *observed[] = { "2026-09-20", "2024-01", "2024-01", "" };
	size_t k = 0;
	json_t *doc = json_loads("{\"as_of\": \"2026-12-01\", \"prices\": ["
		"{\"provider\": \"x\", \"offering\": \"o\", \"gpu\": \"H100-SXM\", \"type\": \"on-demand\", "
		"\"region\": \"r\", \"usd_per_gpu_hour\": 3, \"observed\": \"2026-09-20\"}, "
		"{\"provider\": \"x\", \"offering\": \"o\", \"gpu\": \"H100-SXM\", \"type\": \"on-demand\", "
		"\"region\": \"r\", \"usd_per_gpu_hour\": 2, \"observed\": \"2024-01\"}, "
		"{\"provider\": \"x\", \"offering\": \"o\", \"gpu\": \"H100-SXM\", \"type\": \"on-demand\", "
		"\"region\": \"s\", \"usd_per_gpu_hour\": 2, \"observed\": \"2024-01\"}, "
		"{\"provider\": \"x\", \"offering\": \"p\", \"gpu\": \"H100-SXM\", \"type\": \"on-demand\", "
		"\"usd_per_gpu_hour\": 2, \"observed_note\": \"n/r\"}]}", 0, NULL);
	assert_non_null(doc);
	error_clear(&err);
	assert_int_equal(catalog_merge_json(c, doc, "test", "t.json", NULL, &err), 0);
	json_decref(doc);
	for (size_t i = 0; i < catalog_price_count(c); i++) {
		const struct price_spec *p = catalog_price_at(c, i);
		if (strcmp(p->provider, "x") != 0)
			continue;
		assert_true(k < 4);
		assert_string_equal(p->observed, observed[k]);
		assert_string_equal(catalog_price_status(c, p), want[k]);
		k++;
	}
	assert_int_equal(k, 4);
	/* the lookup takes the newest row */
	assert_true(catalog_price_find(c, "x", PRICE_ON_DEMAND, "o", "H100-SXM", "")->usd_per_gpu_hour == 3);
	catalog_free(c);
}


/* Merge the document `text` into c as file "mine.json": the rc, and the
 * message in err. */
static int merge_text(catalog *c, const char *text, struct cs_error *err)
{
	json_error_t jerr;
	json_t *doc = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	int rc;
	assert_non_null(doc);
	error_clear(err);
	rc = catalog_merge_json(c, doc, "catalog", "mine.json", NULL, err);
	json_decref(doc);
	return rc;
}

/* One file gives each entry once: the same name twice in a section (or a
 * name and an alias of one entry, or two spellings of it) is an input
 * error naming the file, the path and the name, in every section. */
static void test_duplicates_in_one_file(void **state)
{
	(void)state;
	catalog *c = builtin();
	struct cs_error err;
	size_t ngpus = catalog_gpu_count(c);
#define X1 "{\"name\": \"X1\", \"aliases\": [\"x-one\"], \"memory_gib\": 64, \"mem_bw_GBps\": 2000, " \
	   "\"tflops_bf16\": 500, \"mamf_bf16\": 0.7, \"scale_up\": \"nvlink4\"}"
	assert_int_equal(merge_text(c, "{\"gpus\": [" X1 ", " X1 "]}", &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_string_equal(err.msg, "catalog 'mine.json': gpus[1].name: \"X1\" is also the name of gpus[0]: "
			    "give each entry once in a file");
	assert_int_equal(merge_text(c, "{\"gpus\": [" X1 ", {\"name\": \"X-ONE\", \"mamf_bf16\": 0.5}]}", &err), -1);
	assert_string_equal(err.msg, "catalog 'mine.json': gpus[1].name: \"X-ONE\" names the same entry as gpus[0] "
			    "(\"X1\"): give each entry once in a file");
	/* a built-in entry overridden twice in one file, by an alias and its name */
	assert_int_equal(merge_text(c, "{\"gpus\": [{\"name\": \"h100\", \"mamf_bf16\": 0.7}, "
				    "{\"name\": \"H100-SXM\", \"mamf_bf16\": 0.6}]}", &err), -1);
	assert_string_equal(err.msg, "catalog 'mine.json': gpus[1].name: \"H100-SXM\" names the same entry as gpus[0] "
			    "(\"h100\"): give each entry once in a file");
#undef X1
	static const char *const named[][2] = {
		{ "{\"fabrics\": [{\"name\": \"nvlink4\"}, {\"name\": \"NVLINK4\"}]}", "fabrics[1].name: \"NVLINK4\"" },
		{ "{\"storage\": [{\"name\": \"fsx-lustre-p2-1000\"}, {\"name\": \"fsx-lustre-p2-1000\"}]}",
		  "storage[1].name: \"fsx-lustre-p2-1000\" is also the name of storage[0]" },
		{ "{\"presets\": [{\"name\": \"dgx-h100\"}, {\"name\": \"dgx-h100\"}]}",
		  "presets[1].name: \"dgx-h100\" is also the name of presets[0]" },
		{ "{\"models\": [{\"name\": \"llama3-8b\"}, {\"name\": \"llama3-8b\"}]}",
		  "models[1].name: \"llama3-8b\" is also the name of models[0]" },
	};
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
		assert_int_equal(merge_text(c, named[i][0], &err), -1);
		if (strstr(err.msg, named[i][1]) == NULL)
			fail_msg("%s: %s", named[i][0], err.msg);
	}
#define PRICE(obs) "{\"provider\": \"acme\", \"gpu\": \"H100-SXM\", \"type\": \"on-demand\", " \
		   "\"region\": \"eu\", \"usd_per_gpu_hour\": 2, \"observed\": \"" obs "\"}"
	assert_int_equal(merge_text(c, "{\"prices\": [" PRICE("2026-01") ", " PRICE("2026-01") "]}", &err), -1);
	assert_string_equal(err.msg, "catalog 'mine.json': prices[1]: the same provider, offering, gpu, type, term, region "
			    "and observed date as prices[0] (\"acme\", \"\", \"H100-SXM\", \"on-demand\", \"\", \"eu\", "
			    "\"2026-01\"): give each price once in a file");
	assert_int_equal(merge_text(c, "{\"billing\": [{\"provider\": \"acme\", \"granularity_s\": 60, "
				    "\"source\": \"S1\", \"confidence\": \"low\"}, {\"provider\": \"ACME\", "
				    "\"granularity_s\": 1, \"source\": \"S1\", \"confidence\": \"low\"}]}", &err), -1);
	assert_non_null(strstr(err.msg, "billing[1]: the same provider, type and term as billing[0]"));
	assert_int_equal(merge_text(c, "{\"sources\": [{\"id\": \"Z1\", \"text\": \"a\"}, "
				    "{\"id\": \"Z1\", \"text\": \"b\"}]}", &err), -1);
	assert_non_null(strstr(err.msg, "sources[1]: id \"Z1\" is also the id of sources[0]"));
	assert_int_equal(catalog_gpu_count(c), ngpus + 1);  /* X1: a failed file may leave a part merged */

	/* A price's history (the same key, other dates) is not a duplicate. */
	assert_int_equal(merge_text(c, "{\"prices\": [" PRICE("2026-01") ", " PRICE("2025-06") "]}", &err), 0);
#undef PRICE
	catalog_free(c);
}

/* A later file overrides what an earlier one gave (the built-in catalog,
 * another --catalog file): entries merge field by field, prices go first. */
static void test_later_file_overrides(void **state)
{
	(void)state;
	catalog *c = builtin();
	struct cs_error err;
	assert_int_equal(merge_text(c, "{\"gpus\": [{\"name\": \"H100-SXM\", \"mamf_bf16\": 0.7}]}", &err), 0);
	assert_int_equal(merge_text(c, "{\"gpus\": [{\"name\": \"h100\", \"mamf_bf16\": 0.6}]}", &err), 0);
	assert_close(catalog_gpu(c, "H100-SXM")->mamf[PREC_BF16], 0.6, 0);
	const char *price = "{\"prices\": [{\"provider\": \"aws\", \"offering\": \"p5.48xlarge\", \"gpu\": \"H100-SXM\", "
			    "\"type\": \"on-demand\", \"region\": \"us-east-1\", \"usd_per_gpu_hour\": 3, "
			    "\"observed\": \"2026-01\"}]}";
	assert_int_equal(merge_text(c, price, &err), 0);  /* the same key as a built-in price */
	assert_int_equal(merge_text(c, price, &err), 0);  /* and as the last file's */
	assert_close(catalog_price_find(c, "aws", PRICE_ON_DEMAND, "p5.48xlarge", "", "")->usd_per_gpu_hour, 3, 0);
	assert_int_equal(catalog_check(c, &err), 0);
	catalog_free(c);
}

/* Every tier the catalog gives that the nodes share has a finite total
 * rate: a preset's tiers on 2,048 nodes write no faster than their
 * aggregate (node-local NVMe excepted: each node has its own drives). The
 * generic parallel-fs is NVIDIA's 4-SU DGX SuperPOD "Best" guideline
 * (RA-11333-001 Table 6: 40 / 20 GB/s per node, 250 GB/s aggregate write);
 * ddn-exascaler 4 AI400X2-Turbo appliances of 10 x 1 GB/s x 8 GPUs. A user
 * tier without a total rate is an error that says what to give; one that
 * overrides a built-in tier keeps its total. */
static void test_storage_aggregates(void **state)
{
	(void)state;
	catalog *c = builtin();
	struct cs_error err;
	error_clear(&err);
	for (size_t i = 0; i < catalog_storage_count(c); i++) {
		const struct storage_spec *s = catalog_storage_at(c, i);
		if (storage_needs_aggregate(s->kind)) {
			if (!(s->aggregate_bytes_per_s > 0))
				print_error("storage \"%s\" has no aggregate\n", s->id.name);
			assert_true(s->aggregate_bytes_per_s > 0 && s->aggregate_bytes_per_s < 1e15);
		}
	}
	for (size_t i = 0; i < catalog_preset_count(c); i++) {
		const struct preset_spec *p = catalog_preset_at(c, i);
		for (int k = 0; k < p->n_storage; k++) {
			const struct storage_spec *s = catalog_storage(c, p->storage[k]);
			assert_true(s->kind == STORAGE_LOCAL_NVME || s->aggregate_bytes_per_s > 0);
		}
	}
	const struct storage_spec *pfs = catalog_storage(c, "pfs");
	assert_close(pfs->read_bytes_per_s_per_node, 40e9, 0);
	assert_close(pfs->write_bytes_per_s_per_node, 20e9, 0);
	assert_close(pfs->aggregate_bytes_per_s, 250e9, 0);
	assert_close(catalog_storage(c, "ddn")->aggregate_bytes_per_s, 4 * 10 * 1e9 * 8, 0);
	assert_int_equal(merge_text(c, "{\"storage\": [{\"name\": \"mine\", \"kind\": \"parallel-fs\","
				       " \"read_GBps_per_node\": 10, \"write_GBps_per_node\": 10, \"aggregate_GBps\": 0}]}", &err), -1);
	assert_non_null(strstr(err.msg, "catalog 'mine.json': storage[0].aggregate_GBps: got 0: a parallel-fs tier is "
				 "shared by every node and needs its total rate in GB/s (0 no longer means unlimited)"));
	assert_int_equal(merge_text(c, "{\"storage\": [{\"name\": \"s3b\", \"kind\": \"object-store\","
				       " \"read_GBps_per_node\": 1, \"write_GBps_per_node\": 1}]}", &err), -1);
	assert_non_null(strstr(err.msg, "storage[0].aggregate_GBps: missing: an object-store tier"));
	assert_int_equal(merge_text(c, "{\"storage\": [{\"name\": \"pfs\", \"write_GBps_per_node\": 30}]}", &err), 0);
	assert_close(catalog_storage(c, "parallel-fs")->aggregate_bytes_per_s, 250e9, 0);
	/* a preset cannot give a tier sized by capacity */
	assert_int_equal(merge_text(c, "{\"presets\": [{\"name\": \"p1\", \"gpu\": \"H100-SXM\", \"gpus_per_node\": 8,"
				       " \"scale_up\": \"nvlink4\", \"storage\": [\"fsx-lustre-persistent2-125\"]}]}", &err), 0);
	assert_int_equal(catalog_check(c, &err), -1);
	assert_non_null(strstr(err.msg, "preset \"p1\": storage[0]: \"fsx-lustre-persistent2-125\" is sized by capacity"));
	catalog_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_required_gpus_present),
		cmocka_unit_test(test_gpu_values_match_reference),
		cmocka_unit_test(test_fabrics_match_reference),
		cmocka_unit_test(test_lookup_aliases_and_case),
		cmocka_unit_test(test_presets_and_prices),
		cmocka_unit_test(test_models_parameter_counts),
		cmocka_unit_test(test_new_models_published_counts),
		cmocka_unit_test(test_price_dates),
		cmocka_unit_test(test_override_merges_fields),
		cmocka_unit_test(test_override_errors),
		cmocka_unit_test(test_fp4_rate_measured_or_assumed),
		cmocka_unit_test(test_amd_training_rates),
		cmocka_unit_test(test_copy_is_independent),
		cmocka_unit_test(test_duplicates_in_one_file),
		cmocka_unit_test(test_later_file_overrides),
		cmocka_unit_test(test_storage_aggregates),
		cmocka_unit_test(test_price_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
