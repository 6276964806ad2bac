/*
 * gencatalog OUT.c FILE.json...: the built-in catalog as C tables.
 *
 * Reads the catalog's JSON files with the library's own reader
 * (catalog_new_json_files: the same merge, unit conversion and checks as a
 * user's --catalog file) and writes every section's records as static const
 * initializers, field by field with designated initializers (a field left
 * out is zero, as the reader's zeroed record has it), plus the
 * struct catalog_tables that catalog_new_builtin borrows. Doubles are
 * written with 17 significant digits, so they read back bit for bit.
 * tests/unit/test_catalog_tables.c checks the tables against the JSON, entry
 * by entry. OUT.c is rewritten only when its text changes (so make does not
 * recompile it for nothing). Built and run by the Makefile; exit 1, with the
 * reader's message, on a bad catalog: the build fails, not the program.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/catalog.h"

/* A C string literal of s: printable ASCII as is, but for the quote, the
 * backslash and '?' (no trigraphs), every other byte as a 3-digit octal
 * escape (which no following digit can extend). */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\' || ch == '?')
			fprintf(f, "\\%c", ch);
		else if (ch >= 0x20 && ch < 0x7f)
			fputc(ch, f);
		else
			fprintf(f, "\\%03o", ch);
	}
	fputc('"', f);
}

static void field_str(FILE *f, const char *name, const char *v)
{
	if (v[0] == '\0')
		return;
	fprintf(f, "\t.%s = ", name);
	put_str(f, v);
	fputs(",\n", f);
}

static void put_double(FILE *f, double v)
{
	if (isnan(v))
		fputs("NAN", f);
	else if (isinf(v))
		fputs(v < 0 ? "-HUGE_VAL" : "HUGE_VAL", f);
	else
		fprintf(f, "%.17g", v);
}

/* 0 is left out, -0 is not (it is another bit pattern). */
static void field_double(FILE *f, const char *name, double v)
{
	if (v == 0 && !signbit(v))
		return;
	fprintf(f, "\t.%s = ", name);
	put_double(f, v);
	fputs(",\n", f);
}

static void field_int(FILE *f, const char *name, long v)
{
	if (v != 0)
		fprintf(f, "\t.%s = %ld,\n", name, v);
}

static void field_bool(FILE *f, const char *name, bool v)
{
	if (v)
		fprintf(f, "\t.%s = true,\n", name);
}

/* An enumeration by its number, with its catalog word as a comment. */
static void field_enum(FILE *f, const char *name, int v, const char *const *words)
{
	if (v != 0)
		fprintf(f, "\t.%s = %d, /* %s */\n", name, v, words[v]);
}

static void field_doubles(FILE *f, const char *name, const double *v, int n)
{
	bool any = false;
	for (int i = 0; i < n; i++)
		any = any || v[i] != 0 || signbit(v[i]);
	if (!any)
		return;
	fprintf(f, "\t.%s = {", name);
	for (int i = 0; i < n; i++) {
		if (v[i] == 0 && !signbit(v[i]))
			continue;
		fprintf(f, " [%d] = ", i);
		put_double(f, v[i]);
		fputc(',', f);
	}
	fputs(" },\n", f);
}

static void field_id(FILE *f, const struct catalog_id *id)
{
	field_str(f, "id.name", id->name);
	if (id->n_aliases > 0) {
		fputs("\t.id.aliases = {", f);
		for (int i = 0; i < id->n_aliases; i++) {
			fputc(' ', f);
			put_str(f, id->aliases[i]);
			fputc(',', f);
		}
		fputs(" },\n", f);
	}
	field_int(f, "id.n_aliases", id->n_aliases);
	field_str(f, "id.description", id->description);
	field_str(f, "id.source", id->source);
	field_str(f, "id.confidence", id->confidence);
	field_str(f, "id.note", id->note);
}

static void put_gpu(FILE *f, const struct gpu_spec *g)
{
	field_id(f, &g->id);
	field_str(f, "vendor", g->vendor);
	field_double(f, "memory_gib", g->memory_gib);
	field_double(f, "memory_bytes", g->memory_bytes);
	field_double(f, "mem_bw_bytes_per_s", g->mem_bw_bytes_per_s);
	field_doubles(f, "peak_flops", g->peak_flops, PREC_COUNT);
	field_doubles(f, "mamf", g->mamf, PREC_COUNT);
	field_double(f, "mamf_fp4_measured", g->mamf_fp4_measured);
	field_bool(f, "mamf_fp4_assumed", g->mamf_fp4_assumed);
	field_str(f, "mamf_note", g->mamf_note);
	field_str(f, "scale_up", g->scale_up);
	field_double(f, "scale_up_bytes_per_s", g->scale_up_bytes_per_s);
	field_str(f, "host_link", g->host_link);
	field_double(f, "tdp_w", g->tdp_w);
	field_int(f, "year", g->year);
	field_int(f, "sms", g->sms);
	field_str(f, "sms_source", g->sms_source);
	field_double(f, "mem_bw_measured_bytes_per_s", g->mem_bw_measured_bytes_per_s);
	field_str(f, "mem_bw_source", g->mem_bw_source);
	field_double(f, "attn_train_over_gemm", g->attn_train_over_gemm);
	field_bool(f, "attn_train_assumed", g->attn_train_assumed);
	field_str(f, "attn_train_note", g->attn_train_note);
	field_str(f, "calibration", g->calibration);
}

static void put_fabric(FILE *f, const struct fabric_spec *b)
{
	field_id(f, &b->id);
	field_enum(f, "kind", (int)b->kind, fabric_kind_names);
	field_enum(f, "topology", (int)b->topology, fabric_topology_names);
	field_int(f, "domain_gpus", b->domain_gpus);
	field_double(f, "bw_bytes_per_s", b->bw_bytes_per_s);
	field_double(f, "pair_bytes_per_s", b->pair_bytes_per_s);
	field_double(f, "line_rate_gbps", b->line_rate_gbps);
	field_double(f, "latency_s", b->latency_s);
	field_double(f, "efficiency", b->efficiency);
	field_double(f, "nvls_algbw_efficiency", b->nvls_algbw_efficiency);
	field_bool(f, "direct_collectives", b->direct_collectives);
	field_str(f, "calibration", b->calibration);
}

static void put_storage(FILE *f, const struct storage_spec *s)
{
	field_id(f, &s->id);
	field_enum(f, "kind", (int)s->kind, storage_kind_names);
	field_double(f, "read_bytes_per_s_per_node", s->read_bytes_per_s_per_node);
	field_double(f, "write_bytes_per_s_per_node", s->write_bytes_per_s_per_node);
	field_double(f, "aggregate_bytes_per_s", s->aggregate_bytes_per_s);
	field_double(f, "latency_s", s->latency_s);
	field_double(f, "bytes_per_s_per_tib", s->bytes_per_s_per_tib);
	field_double(f, "min_capacity_tib", s->min_capacity_tib);
	field_double(f, "capacity_tib", s->capacity_tib);
	field_double(f, "usd_per_tb_month", s->usd_per_tb_month);
	field_double(f, "egress_usd_per_gb", s->egress_usd_per_gb);
	field_str(f, "price_source", s->price_source);
}

static void put_preset(FILE *f, const struct preset_spec *p)
{
	field_id(f, &p->id);
	field_str(f, "gpu", p->gpu);
	field_int(f, "gpus_per_node", p->gpus_per_node);
	field_str(f, "scale_up", p->scale_up);
	field_str(f, "nic", p->nic);
	field_int(f, "nics_per_node", p->nics_per_node);
	field_enum(f, "topology.kind", (int)p->topology.kind, topology_kind_names);
	field_double(f, "topology.oversubscription", p->topology.oversubscription);
	field_int(f, "topology.nodes_per_leaf", p->topology.nodes_per_leaf);
	if (p->n_storage > 0) {
		fputs("\t.storage = {", f);
		for (int i = 0; i < p->n_storage; i++) {
			fputc(' ', f);
			put_str(f, p->storage[i]);
			fputc(',', f);
		}
		fputs(" },\n", f);
	}
	field_int(f, "n_storage", p->n_storage);
	field_str(f, "provider", p->provider);
	field_str(f, "offering", p->offering);
	field_double(f, "node_power_w", p->node_power_w);
	field_str(f, "price_checked", p->price_checked);
	field_double(f, "purchase_usd", p->purchase_usd);
	field_str(f, "purchase_source", p->purchase_source);
}

static void put_price(FILE *f, const struct price_spec *p)
{
	field_str(f, "provider", p->provider);
	field_str(f, "offering", p->offering);
	field_str(f, "gpu", p->gpu);
	field_int(f, "gpus_per_instance", p->gpus_per_instance);
	field_enum(f, "type", (int)p->type, price_type_names);
	field_str(f, "term", p->term);
	field_str(f, "region", p->region);
	field_double(f, "usd_per_gpu_hour", p->usd_per_gpu_hour);
	field_double(f, "usd_per_gpu_hour_low", p->usd_per_gpu_hour_low);
	field_double(f, "usd_per_gpu_hour_high", p->usd_per_gpu_hour_high);
	field_double(f, "billing_s", p->billing_s);
	field_double(f, "minimum_s", p->minimum_s);
	field_str(f, "observed", p->observed);
	field_str(f, "observed_note", p->observed_note);
	field_str(f, "source", p->source);
	field_str(f, "confidence", p->confidence);
	field_str(f, "note", p->note);
}

static void put_billing(FILE *f, const struct billing_spec *b)
{
	field_str(f, "provider", b->provider);
	field_str(f, "type", b->type);
	field_str(f, "term", b->term);
	field_double(f, "granularity_s", b->granularity_s);
	field_double(f, "minimum_s", b->minimum_s);
	field_double(f, "spot_notice_s", b->spot_notice_s);
	field_str(f, "spot_notice_source", b->spot_notice_source);
	field_double(f, "block_h", b->block_h);
	field_double(f, "block_long_after_h", b->block_long_after_h);
	field_double(f, "block_long_h", b->block_long_h);
	field_double(f, "block_max_h", b->block_max_h);
	field_str(f, "source", b->source);
	field_str(f, "confidence", b->confidence);
	field_str(f, "note", b->note);
}

static void put_model(FILE *f, const struct model_spec *m)
{
	field_id(f, &m->id);
	field_int(f, "layers", m->layers);
	field_int(f, "hidden", m->hidden);
	field_int(f, "heads", m->heads);
	field_int(f, "kv_heads", m->kv_heads);
	field_int(f, "head_dim", m->head_dim);
	field_int(f, "q_lora_rank", m->q_lora_rank);
	field_int(f, "kv_lora_rank", m->kv_lora_rank);
	field_int(f, "qk_rope_dim", m->qk_rope_dim);
	field_int(f, "ffn", m->ffn);
	field_enum(f, "mlp", (int)m->mlp, mlp_kind_names);
	field_int(f, "vocab", m->vocab);
	field_int(f, "experts", m->experts);
	field_int(f, "experts_active", m->experts_active);
	field_int(f, "expert_ffn", m->expert_ffn);
	field_int(f, "shared_experts", m->shared_experts);
	field_int(f, "dense_layers", m->dense_layers);
	field_int(f, "mtp_layers", m->mtp_layers);
	field_bool(f, "tied_embeddings", m->tied_embeddings);
	field_bool(f, "dropout", m->dropout);
	field_double(f, "params_b", m->params_b);
	field_double(f, "active_params_b", m->active_params_b);
	field_int(f, "max_seq_len", m->max_seq_len);
}

static void put_source(FILE *f, const struct catalog_source *s)
{
	field_str(f, "id", s->id);
	field_str(f, "text", s->text);
}

static void put_engine(FILE *f, const struct engine_spec *e)
{
	static const char *const kinds[] = { "serving", "training" };
	field_id(f, &e->id);
	field_enum(f, "kind", (int)e->kind, kinds);
	field_double(f, "step_overhead_s", e->step_overhead_s);
	field_double(f, "seq_overhead_s", e->seq_overhead_s);
	field_double(f, "kernel_s", e->kernel_s);
	field_double(f, "gemm_over_mamf", e->gemm_over_mamf);
	field_double(f, "hbm_efficiency", e->hbm_efficiency);
	field_double(f, "overlap_slowdown", e->overlap_slowdown);
	field_double(f, "ep_overlap_slowdown", e->ep_overlap_slowdown);
	field_double(f, "straggler_sigma", e->straggler_sigma);
	field_str(f, "calibration", e->calibration);
}

/* One section: `static const TYPE NAME[] = { { ... }, ... };` (a section
 * without entries is a NULL table). */
#define PUT_SECTION(f, c, type, table, count, at, put)                              \
	do {                                                                          \
		size_t n_ = count(c);                                                 \
		if (n_ == 0)                                                          \
			break;                                                        \
		fprintf(f, "\nstatic const %s %s[%zu] = {\n", #type, #table, n_);    \
		for (size_t i_ = 0; i_ < n_; i_++) {                                  \
			fputs("{\n", f);                                              \
			put(f, at(c, i_));                                            \
			fputs("},\n", f);                                             \
		}                                                                     \
		fputs("};\n", f);                                                     \
	} while (0)

static void put_table_ref(FILE *f, const char *field, const char *table, size_t n)
{
	fprintf(f, "\t.%s = %s, .n_%s = %zu,\n", field, n > 0 ? table : "NULL", field, n);
}

static void put_catalog(FILE *f, const catalog *c)
{
	fputs("/* Generated by tools/gencatalog.c from scenarios/catalog; do not edit. */\n"
	      "#include <math.h>\n#include <stdbool.h>\n#include <stddef.h>\n\n"
	      "#include \"models/hw/catalog.h\"\n\n"
	      "extern const struct catalog_tables catalog_builtin_tables;\n", f);
	PUT_SECTION(f, c, struct gpu_spec, gpus, catalog_gpu_count, catalog_gpu_at, put_gpu);
	PUT_SECTION(f, c, struct fabric_spec, fabrics, catalog_fabric_count, catalog_fabric_at, put_fabric);
	PUT_SECTION(f, c, struct storage_spec, storage, catalog_storage_count, catalog_storage_at, put_storage);
	PUT_SECTION(f, c, struct preset_spec, presets, catalog_preset_count, catalog_preset_at, put_preset);
	PUT_SECTION(f, c, struct price_spec, prices, catalog_price_count, catalog_price_at, put_price);
	PUT_SECTION(f, c, struct billing_spec, billing, catalog_billing_count, catalog_billing_at, put_billing);
	PUT_SECTION(f, c, struct model_spec, models, catalog_model_count, catalog_model_at, put_model);
	PUT_SECTION(f, c, struct catalog_source, sources, catalog_source_count, catalog_source_at, put_source);
	PUT_SECTION(f, c, struct engine_spec, engines, catalog_engine_count, catalog_engine_at, put_engine);
	fputs("\nconst struct catalog_tables catalog_builtin_tables = {\n", f);
	put_table_ref(f, "gpus", "gpus", catalog_gpu_count(c));
	put_table_ref(f, "fabrics", "fabrics", catalog_fabric_count(c));
	put_table_ref(f, "storage", "storage", catalog_storage_count(c));
	put_table_ref(f, "presets", "presets", catalog_preset_count(c));
	put_table_ref(f, "prices", "prices", catalog_price_count(c));
	put_table_ref(f, "billing", "billing", catalog_billing_count(c));
	put_table_ref(f, "models", "models", catalog_model_count(c));
	put_table_ref(f, "sources", "sources", catalog_source_count(c));
	put_table_ref(f, "engines", "engines", catalog_engine_count(c));
	fputs("\t.as_of = ", f);
	put_str(f, catalog_as_of(c));
	fputs(",\n};\n", f);
}

/* The whole of a file (NULL when it cannot be read); *len its length. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	struct cs_error err;
	catalog *c;
	char tmp[4096], *old, *new;
	size_t old_len = 0, new_len = 0;
	FILE *f;
	int rc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: gencatalog OUT.c FILE.json...\n");
		return 2;
	}
	c = catalog_new_json_files((const char *const *)argv + 2, (size_t)argc - 2, "built-in catalog", &err);
	if (c == NULL) {
		fprintf(stderr, "gencatalog: %s\n", err.msg);
		return 1;
	}
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]) >= sizeof tmp) {
		fprintf(stderr, "gencatalog: output path longer than %zu bytes: %s\n", sizeof tmp - 5, argv[1]);
		catalog_free(c);
		return 2;
	}
	f = fopen(tmp, "w");
	if (f == NULL) {
		perror(tmp);
		catalog_free(c);
		return 1;
	}
	put_catalog(f, c);
	catalog_free(c);
	if (fclose(f) != 0) {
		perror(tmp);
		return 1;
	}
	old = slurp(argv[1], &old_len);
	new = slurp(tmp, &new_len);
	if (new == NULL) {
		perror(tmp);
		rc = 1;
	} else if (old != NULL && old_len == new_len && memcmp(old, new, new_len) == 0) {
		remove(tmp);  /* unchanged: the old file and its time stay */
	} else if (rename(tmp, argv[1]) != 0) {
		perror(argv[1]);
		rc = 1;
	}
	free(old);
	free(new);
	return rc;
}
