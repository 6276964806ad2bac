#include "catalog.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jread.h"
#include "util/text.h"
#include "util/xalloc.h"

const char *const precision_names[PREC_COUNT + 1] = {
	"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "fp4", NULL
};
const char *const fabric_kind_names[] = { "scale-up", "host", "scale-out", NULL };
const char *const fabric_topology_names[] = { "switch", "mesh", "bridge", "host", "none", NULL };
const char *const storage_kind_names[] = { "local-nvme", "parallel-fs", "object-store", "managed-lustre", NULL };
const char *const topology_kind_names[] = { "rail", "fat-tree", NULL };
const char *const price_type_names[] = { "on-demand", "spot", "reserved", "owned", NULL };
const char *const mlp_kind_names[] = { "gelu", "swiglu", NULL };

double precision_bytes(enum precision p)
{
	switch (p) {
	case PREC_FP64: return 8.0;
	case PREC_FP32: return 4.0;
	case PREC_TF32: return 4.0;
	case PREC_BF16: return 2.0;
	case PREC_FP16: return 2.0;
	case PREC_FP8: return 1.0;
	case PREC_FP4: return 0.5;
	default: break;
	}
	assert(0);
	return 0.0;
}

/* Generated from the JSON files of scenarios/catalog at build time (tools/embed.sh). */
struct catalog_blob {
	const char *file;
	const unsigned char *data;
	size_t len;
};
extern const struct catalog_blob catalog_builtin_blobs[];
extern const size_t catalog_builtin_blob_count;

/* A growable array of entries of one section. */
struct section {
	void *items;
	size_t n, cap, size;
};

struct catalog {
	struct section gpus, fabrics, storage, presets, prices, billing, models, sources;
	char as_of[16];  /* the catalog's reference date (YYYY-MM-DD) for price ages */
};

bool catalog_iso_date(const char *s, bool day_required)
{
	size_t n = strlen(s);
	if (n != 7 && n != 10)
		return false;
	if (day_required && n != 10)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool dash = i == 4 || i == 7;
		if (dash ? s[i] != '-' : (s[i] < '0' || s[i] > '9'))
			return false;
	}
	int month = (s[5] - '0') * 10 + (s[6] - '0');
	if (month < 1 || month > 12)
		return false;
	if (n == 10) {
		int day = (s[8] - '0') * 10 + (s[9] - '0');
		if (day < 1 || day > 31)
			return false;
	}
	return true;
}

static void *section_at(const struct section *s, size_t i)
{
	assert(i < s->n);
	return (char *)s->items + i * s->size;
}

static void *section_append(struct section *s)
{
	s->items = xgrow(s->items, &s->cap, s->n + 1, s->size, 16);
	void *p = (char *)s->items + s->n * s->size;
	memset(p, 0, s->size);
	s->n++;
	return p;
}

/* Insert a zeroed entry at index `at` (prices: a document's entries go in
 * front of older ones, in document order, so user entries win lookups). */
static void *section_insert(struct section *s, size_t at)
{
	char *base;
	section_append(s);
	base = s->items;
	memmove(base + (at + 1) * s->size, base + at * s->size, (s->n - 1 - at) * s->size);
	memset(base + at * s->size, 0, s->size);
	return base + at * s->size;
}

static void section_remove(struct section *s, size_t at)
{
	char *base = s->items;
	memmove(base + at * s->size, base + (at + 1) * s->size, (s->n - 1 - at) * s->size);
	s->n--;
}

static bool id_matches(const struct catalog_id *id, const char *name)
{
	if (text_equal_nocase(id->name, name))
		return true;
	for (int i = 0; i < id->n_aliases; i++)
		if (text_equal_nocase(id->aliases[i], name))
			return true;
	return false;
}

/* Named sections keep struct catalog_id as the first member of each entry. */
static void *section_find(const struct section *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++) {
		struct catalog_id *id = section_at(s, i);
		if (id_matches(id, name))
			return id;
	}
	return NULL;
}

/* ---- readers of one entry --------------------------------------------- */

/* Read the shared fields; name was read by the caller. */
static int read_id(struct jread *r, const json_t *obj, struct catalog_id *id)
{
	json_t *aliases = json_object_get(obj, "aliases");
	if (aliases != NULL) {
		size_t mark = jread_enter_key(r, "aliases");
		size_t i;
		json_t *v;
		if (!json_is_array(aliases) || json_array_size(aliases) > CAT_ALIASES_MAX) {
			jread_fail_value(r, aliases, "an array of at most 16 names");
			return -1;
		}
		id->n_aliases = 0;
		json_array_foreach(aliases, i, v) {
			size_t m2 = jread_enter_index(r, i);
			if (jread_value_string(r, v, id->aliases[i], CAT_NAME_MAX) < 0)
				return -1;
			jread_leave(r, m2);
			id->n_aliases++;
		}
		jread_leave(r, mark);
	}
	if (jread_string(r, obj, "description", false, id->description, sizeof id->description) < 0 ||
	    jread_string(r, obj, "source", false, id->source, sizeof id->source) < 0 ||
	    jread_string(r, obj, "confidence", false, id->confidence, sizeof id->confidence) < 0 ||
	    jread_string(r, obj, "note", false, id->note, sizeof id->note) < 0)
		return -1;
	return 0;
}

#define ID_KEYS "name", "aliases", "description", "source", "confidence", "note"

/* Read an optional/required number given in `unit`, stored times `scale`. */
static int read_scaled(struct jread *r, const json_t *obj, const char *key, bool required,
		       double min, double max, double scale, double *out)
{
	double v;
	if (json_object_get(obj, key) == NULL) {
		if (required)
			return jread_real(r, obj, key, true, min, max, &v);
		return 0;
	}
	if (jread_real(r, obj, key, true, min, max, &v) < 0)
		return -1;
	*out = v * scale;
	return 0;
}

static int read_gpu(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = {
		ID_KEYS, "vendor", "memory_gib", "mem_bw_GBps", "tflops_fp64", "tflops_fp32",
		"tflops_tf32", "tflops_bf16", "tflops_fp8", "tflops_fp4", "mamf_bf16", "mamf_fp8",
		"mamf_note", "scale_up", "scale_up_GBps", "host_link", "tdp_w", "year", "sms", "sms_source", NULL
	};
	struct gpu_spec *g = entry;
	bool req = is_new;

	if (jread_object(r, obj, keys) < 0 || read_id(r, obj, &g->id) < 0)
		return -1;
	if (jread_string(r, obj, "vendor", false, g->vendor, sizeof g->vendor) < 0 ||
	    jread_real(r, obj, "memory_gib", req, 0.001, 65536, &g->memory_gib) < 0 ||
	    read_scaled(r, obj, "mem_bw_GBps", req, 0.001, 1e6, 1e9, &g->mem_bw_bytes_per_s) < 0 ||
	    read_scaled(r, obj, "tflops_fp64", false, 0, 1e6, 1e12, &g->peak_flops[PREC_FP64]) < 0 ||
	    read_scaled(r, obj, "tflops_fp32", false, 0, 1e6, 1e12, &g->peak_flops[PREC_FP32]) < 0 ||
	    read_scaled(r, obj, "tflops_tf32", false, 0, 1e6, 1e12, &g->peak_flops[PREC_TF32]) < 0 ||
	    read_scaled(r, obj, "tflops_bf16", req, 0.001, 1e6, 1e12, &g->peak_flops[PREC_BF16]) < 0 ||
	    read_scaled(r, obj, "tflops_fp8", false, 0, 1e6, 1e12, &g->peak_flops[PREC_FP8]) < 0 ||
	    read_scaled(r, obj, "tflops_fp4", false, 0, 1e6, 1e12, &g->peak_flops[PREC_FP4]) < 0 ||
	    jread_real(r, obj, "mamf_bf16", req, 0.01, 1.0, &g->mamf[PREC_BF16]) < 0 ||
	    jread_real(r, obj, "mamf_fp8", false, 0.0, 1.0, &g->mamf[PREC_FP8]) < 0 ||
	    jread_string(r, obj, "mamf_note", false, g->mamf_note, sizeof g->mamf_note) < 0 ||
	    jread_string(r, obj, "scale_up", false, g->scale_up, sizeof g->scale_up) < 0 ||
	    read_scaled(r, obj, "scale_up_GBps", false, 0, 1e6, 1e9, &g->scale_up_bytes_per_s) < 0 ||
	    jread_string(r, obj, "host_link", false, g->host_link, sizeof g->host_link) < 0 ||
	    jread_real(r, obj, "tdp_w", false, 0, 1e5, &g->tdp_w) < 0 ||
	    jread_int32(r, obj, "year", false, 1990, 2100, &g->year) < 0 ||
	    jread_int32(r, obj, "sms", false, 1, 100000, &g->sms) < 0 ||
	    jread_string(r, obj, "sms_source", false, g->sms_source, sizeof g->sms_source) < 0)
		return -1;
	g->memory_bytes = g->memory_gib * 1073741824.0;
	/* Derived rates: fp16 runs at bf16's rate; the GEMM efficiency of a
	 * precision without its own measurement is taken from bf16's. */
	g->peak_flops[PREC_FP16] = g->peak_flops[PREC_BF16];
	g->mamf[PREC_FP16] = g->mamf[PREC_BF16];
	for (int p = 0; p < PREC_COUNT; p++)
		if (p != PREC_FP8 && p != PREC_BF16 && p != PREC_FP16)
			g->mamf[p] = g->mamf[PREC_BF16];
	if (g->mamf[PREC_FP8] == 0.0)
		g->mamf[PREC_FP8] = g->mamf[PREC_BF16];
	if (g->mamf[PREC_FP4] == 0.0)
		g->mamf[PREC_FP4] = g->mamf[PREC_FP8];
	return 0;
}

static int read_fabric(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = {
		ID_KEYS, "kind", "topology", "domain_gpus", "bw_GBps", "pair_GBps", "line_rate_gbps",
		"latency_us", "efficiency", "nvls_algbw_efficiency", NULL
	};
	struct fabric_spec *f = entry;
	bool req = is_new;
	int kind = (int)f->kind, topo = (int)f->topology;

	if (jread_object(r, obj, keys) < 0 || read_id(r, obj, &f->id) < 0)
		return -1;
	if (jread_enum(r, obj, "kind", req, fabric_kind_names, &kind) < 0 ||
	    jread_enum(r, obj, "topology", false, fabric_topology_names, &topo) < 0 ||
	    jread_int32(r, obj, "domain_gpus", false, 0, 1 << 20, &f->domain_gpus) < 0 ||
	    read_scaled(r, obj, "bw_GBps", req, 0.001, 1e6, 1e9, &f->bw_bytes_per_s) < 0 ||
	    read_scaled(r, obj, "pair_GBps", false, 0, 1e6, 1e9, &f->pair_bytes_per_s) < 0 ||
	    jread_real(r, obj, "line_rate_gbps", false, 0, 1e7, &f->line_rate_gbps) < 0 ||
	    read_scaled(r, obj, "latency_us", req, 0, 1e6, 1e-6, &f->latency_s) < 0 ||
	    jread_real(r, obj, "efficiency", req, 0.01, 1.5, &f->efficiency) < 0 ||
	    jread_real(r, obj, "nvls_algbw_efficiency", false, 0, 1.5, &f->nvls_algbw_efficiency) < 0)
		return -1;
	f->kind = (enum fabric_kind)kind;
	if (is_new && json_object_get(obj, "topology") == NULL)
		topo = FTOPO_NONE;
	f->topology = (enum fabric_topology)topo;
	if (f->pair_bytes_per_s == 0.0)
		f->pair_bytes_per_s = f->bw_bytes_per_s;
	return 0;
}

static int read_storage(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = {
		ID_KEYS, "kind", "read_GBps_per_node", "write_GBps_per_node", "aggregate_GBps",
		"latency_ms", "MBps_per_tib", "min_capacity_tib", NULL
	};
	struct storage_spec *s = entry;
	bool req = is_new;
	int kind = (int)s->kind;

	if (jread_object(r, obj, keys) < 0 || read_id(r, obj, &s->id) < 0)
		return -1;
	if (jread_enum(r, obj, "kind", req, storage_kind_names, &kind) < 0 ||
	    read_scaled(r, obj, "read_GBps_per_node", req, 0.0001, 1e6, 1e9, &s->read_bytes_per_s_per_node) < 0 ||
	    read_scaled(r, obj, "write_GBps_per_node", req, 0.0001, 1e6, 1e9, &s->write_bytes_per_s_per_node) < 0 ||
	    read_scaled(r, obj, "aggregate_GBps", false, 0, 1e9, 1e9, &s->aggregate_bytes_per_s) < 0 ||
	    read_scaled(r, obj, "latency_ms", false, 0, 1e6, 1e-3, &s->latency_s) < 0 ||
	    read_scaled(r, obj, "MBps_per_tib", false, 0.001, 1e6, 1e6, &s->bytes_per_s_per_tib) < 0 ||
	    read_scaled(r, obj, "min_capacity_tib", false, 0, 1e6, 1, &s->min_capacity_tib) < 0)
		return -1;
	s->kind = (enum storage_kind)kind;
	if (s->kind == STORAGE_MANAGED_LUSTRE && s->bytes_per_s_per_tib == 0)
		return jread_fail(r, "a managed-lustre tier needs MBps_per_tib");
	if (storage_needs_aggregate(s->kind) && !(s->aggregate_bytes_per_s > 0)) {
		const json_t *v = json_object_get(obj, "aggregate_GBps");
		(void)jread_enter_key(r, "aggregate_GBps");  /* the error names the key */
		return jread_fail(r, "%s: %s", v == NULL ? "missing" : "got 0", storage_aggregate_hint(s->kind));
	}
	return 0;
}

static int read_topology(struct jread *r, const json_t *obj, struct topology_spec *t)
{
	static const char *const keys[] = { "kind", "oversubscription", "nodes_per_leaf", NULL };
	int kind = (int)t->kind;
	if (jread_object(r, obj, keys) < 0 ||
	    jread_enum(r, obj, "kind", false, topology_kind_names, &kind) < 0 ||
	    jread_real(r, obj, "oversubscription", false, 1.0, 1000.0, &t->oversubscription) < 0 ||
	    jread_int32(r, obj, "nodes_per_leaf", false, 1, 1 << 20, &t->nodes_per_leaf) < 0)
		return -1;
	t->kind = (enum topology_kind)kind;
	return 0;
}

static int read_preset(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = {
		ID_KEYS, "gpu", "gpus_per_node", "scale_up", "nic", "nics_per_node", "topology",
		"storage", "provider", "offering", "node_power_kw", "price_checked", NULL
	};
	struct preset_spec *p = entry;
	bool req = is_new;
	json_t *v;

	if (is_new) {
		p->topology.kind = TOPO_RAIL;
		p->topology.oversubscription = 1.0;
		p->topology.nodes_per_leaf = 32;
	}
	if (jread_object(r, obj, keys) < 0 || read_id(r, obj, &p->id) < 0)
		return -1;
	if (jread_string(r, obj, "gpu", req, p->gpu, sizeof p->gpu) < 0 ||
	    jread_int32(r, obj, "gpus_per_node", req, 1, 1024, &p->gpus_per_node) < 0 ||
	    jread_string(r, obj, "scale_up", req, p->scale_up, sizeof p->scale_up) < 0 ||
	    jread_string(r, obj, "nic", false, p->nic, sizeof p->nic) < 0 ||
	    jread_int32(r, obj, "nics_per_node", false, 0, 1024, &p->nics_per_node) < 0 ||
	    jread_string(r, obj, "provider", false, p->provider, sizeof p->provider) < 0 ||
	    jread_string(r, obj, "offering", false, p->offering, sizeof p->offering) < 0 ||
	    jread_string(r, obj, "price_checked", false, p->price_checked, sizeof p->price_checked) < 0 ||
	    read_scaled(r, obj, "node_power_kw", false, 0, 1e4, 1e3, &p->node_power_w) < 0)
		return -1;
	if ((v = json_object_get(obj, "topology")) != NULL) {
		size_t mark = jread_enter_key(r, "topology");
		if (read_topology(r, v, &p->topology) < 0)
			return -1;
		jread_leave(r, mark);
	}
	if ((v = json_object_get(obj, "storage")) != NULL) {
		size_t mark = jread_enter_key(r, "storage");
		size_t i;
		json_t *e;
		if (!json_is_array(v) || json_array_size(v) > CAT_STORAGE_MAX)
			return jread_fail_value(r, v, "an array of at most 4 storage names");
		p->n_storage = 0;
		json_array_foreach(v, i, e) {
			size_t m2 = jread_enter_index(r, i);
			if (jread_value_string(r, e, p->storage[i], CAT_NAME_MAX) < 0)
				return -1;
			jread_leave(r, m2);
			p->n_storage++;
		}
		jread_leave(r, mark);
	}
	return 0;
}

static int read_price(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = {
		"provider", "offering", "gpu", "gpus_per_instance", "type", "term", "region",
		"usd_per_gpu_hour", "usd_per_gpu_hour_low", "usd_per_gpu_hour_high", "billing_s",
		"minimum_s", "observed", "observed_note", "source", "confidence", "note", NULL
	};
	struct price_spec *p = entry;
	int type = 0;

	(void)is_new;
	p->gpus_per_instance = 1;
	if (jread_object(r, obj, keys) < 0 ||
	    jread_string(r, obj, "provider", true, p->provider, sizeof p->provider) < 0 ||
	    jread_string(r, obj, "offering", false, p->offering, sizeof p->offering) < 0 ||
	    jread_string(r, obj, "gpu", true, p->gpu, sizeof p->gpu) < 0 ||
	    jread_int32(r, obj, "gpus_per_instance", false, 1, 1024, &p->gpus_per_instance) < 0 ||
	    jread_enum(r, obj, "type", true, price_type_names, &type) < 0 ||
	    jread_string(r, obj, "term", false, p->term, sizeof p->term) < 0 ||
	    jread_string(r, obj, "region", false, p->region, sizeof p->region) < 0 ||
	    jread_real(r, obj, "usd_per_gpu_hour", true, 0.0001, 1e4, &p->usd_per_gpu_hour) < 0 ||
	    jread_real(r, obj, "usd_per_gpu_hour_low", false, 0.0001, 1e4, &p->usd_per_gpu_hour_low) < 0 ||
	    jread_real(r, obj, "usd_per_gpu_hour_high", false, 0.0001, 1e4, &p->usd_per_gpu_hour_high) < 0 ||
	    jread_real(r, obj, "billing_s", false, 1, 31622400, &p->billing_s) < 0 ||
	    jread_real(r, obj, "minimum_s", false, 0, 31622400, &p->minimum_s) < 0 ||
	    jread_string(r, obj, "observed", false, p->observed, sizeof p->observed) < 0 ||
	    jread_string(r, obj, "observed_note", false, p->observed_note, sizeof p->observed_note) < 0 ||
	    jread_string(r, obj, "source", false, p->source, sizeof p->source) < 0 ||
	    jread_string(r, obj, "confidence", false, p->confidence, sizeof p->confidence) < 0 ||
	    jread_string(r, obj, "note", false, p->note, sizeof p->note) < 0)
		return -1;
	p->type = (enum price_type)type;
	if (p->type == PRICE_OWNED) {
		size_t m = jread_enter_key(r, "type");
		int rc = jread_fail(r, "\"owned\" is a scenario's price basis (candidates[].price), not a catalog price");
		jread_leave(r, m);
		return rc;
	}
	if (p->observed[0] != '\0' && !catalog_iso_date(p->observed, false)) {
		size_t m = jread_enter_key(r, "observed");
		int rc = jread_fail(r, "expected an ISO date YYYY-MM-DD or YYYY-MM, got \"%.40s\" "
				    "(put words in observed_note)", p->observed);
		jread_leave(r, m);
		return rc;
	}
	if (p->usd_per_gpu_hour_low == 0.0)
		p->usd_per_gpu_hour_low = p->usd_per_gpu_hour;
	if (p->usd_per_gpu_hour_high == 0.0)
		p->usd_per_gpu_hour_high = p->usd_per_gpu_hour;
	if (p->usd_per_gpu_hour_low > p->usd_per_gpu_hour || p->usd_per_gpu_hour_high < p->usd_per_gpu_hour)
		return jread_fail(r, "usd_per_gpu_hour %g is outside its low-high range %g-%g",
				  p->usd_per_gpu_hour, p->usd_per_gpu_hour_low, p->usd_per_gpu_hour_high);
	return 0;
}

static int read_billing(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = {
		"provider", "type", "term", "granularity_s", "minimum_s", "spot_notice_s",
		"spot_notice_source", "source", "confidence", "note", NULL
	};
	struct billing_spec *b = entry;
	int type = -1;

	if (is_new)
		b->spot_notice_s = -1;  /* not known unless the record says */
	if (jread_object(r, obj, keys) < 0 ||
	    jread_string(r, obj, "provider", true, b->provider, sizeof b->provider) < 0 ||
	    jread_enum(r, obj, "type", false, price_type_names, &type) < 0 ||
	    jread_string(r, obj, "term", false, b->term, sizeof b->term) < 0 ||
	    jread_real(r, obj, "granularity_s", true, 1, 31622400, &b->granularity_s) < 0 ||
	    jread_real(r, obj, "minimum_s", false, 0, 31622400, &b->minimum_s) < 0 ||
	    jread_real(r, obj, "spot_notice_s", false, 0, 86400, &b->spot_notice_s) < 0 ||
	    jread_string(r, obj, "spot_notice_source", false, b->spot_notice_source, sizeof b->spot_notice_source) < 0 ||
	    jread_string(r, obj, "source", true, b->source, sizeof b->source) < 0 ||
	    jread_string(r, obj, "confidence", true, b->confidence, sizeof b->confidence) < 0 ||
	    jread_string(r, obj, "note", false, b->note, sizeof b->note) < 0)
		return -1;
	if (type == PRICE_OWNED) {
		size_t m = jread_enter_key(r, "type");
		int rc = jread_fail(r, "\"owned\" hardware is not billed by a provider");
		jread_leave(r, m);
		return rc;
	}
	if (type >= 0)
		snprintf(b->type, sizeof b->type, "%s", price_type_names[type]);
	return 0;
}

int catalog_read_model(struct jread *r, const json_t *obj, const struct model_spec *base,
		       struct model_spec *m)
{
	static const char *const keys[] = {
		ID_KEYS, "preset", "layers", "hidden", "heads", "kv_heads", "head_dim", "q_lora_rank",
		"kv_lora_rank", "qk_rope_dim", "ffn", "mlp",
		"vocab", "experts", "experts_active", "expert_ffn", "shared_experts", "dense_layers",
		"tied_embeddings", "dropout", "params_b", "active_params_b", "max_seq_len", "mtp_layers", NULL
	};
	bool req = base == NULL;
	int mlp;

	if (base != NULL && m != base)
		*m = *base;
	mlp = (int)m->mlp;
	if (jread_object(r, obj, keys) < 0 || read_id(r, obj, &m->id) < 0)
		return -1;
	if (jread_int32(r, obj, "layers", req, 1, 100000, &m->layers) < 0 ||
	    jread_int32(r, obj, "hidden", req, 1, 1 << 22, &m->hidden) < 0 ||
	    jread_int32(r, obj, "heads", req, 1, 1 << 16, &m->heads) < 0 ||
	    jread_int32(r, obj, "kv_heads", false, 1, 1 << 16, &m->kv_heads) < 0 ||
	    jread_int32(r, obj, "head_dim", false, 0, 1 << 16, &m->head_dim) < 0 ||
	    jread_int32(r, obj, "q_lora_rank", false, 0, 1 << 20, &m->q_lora_rank) < 0 ||
	    jread_int32(r, obj, "kv_lora_rank", false, 0, 1 << 20, &m->kv_lora_rank) < 0 ||
	    jread_int32(r, obj, "qk_rope_dim", false, 0, 1 << 16, &m->qk_rope_dim) < 0 ||
	    jread_int32(r, obj, "ffn", req, 1, 1 << 24, &m->ffn) < 0 ||
	    jread_enum(r, obj, "mlp", false, mlp_kind_names, &mlp) < 0 ||
	    jread_int32(r, obj, "vocab", req, 1, 1 << 24, &m->vocab) < 0 ||
	    jread_int32(r, obj, "experts", false, 0, 1 << 16, &m->experts) < 0 ||
	    jread_int32(r, obj, "experts_active", false, 0, 1 << 16, &m->experts_active) < 0 ||
	    jread_int32(r, obj, "expert_ffn", false, 0, 1 << 24, &m->expert_ffn) < 0 ||
	    jread_int32(r, obj, "shared_experts", false, 0, 1 << 16, &m->shared_experts) < 0 ||
	    jread_int32(r, obj, "dense_layers", false, 0, 100000, &m->dense_layers) < 0 ||
	    jread_int32(r, obj, "mtp_layers", false, 0, 64, &m->mtp_layers) < 0 ||
	    jread_bool(r, obj, "tied_embeddings", false, &m->tied_embeddings) < 0 ||
	    jread_bool(r, obj, "dropout", false, &m->dropout) < 0 ||
	    jread_real(r, obj, "params_b", false, 0, 1e6, &m->params_b) < 0 ||
	    jread_real(r, obj, "active_params_b", false, 0, 1e6, &m->active_params_b) < 0 ||
	    jread_int32(r, obj, "max_seq_len", false, 0, 1 << 30, &m->max_seq_len) < 0)
		return -1;
	/* No silent MLP: a GPT-style model (ffn 4h, GELU) read as SwiGLU would
	 * get 1.5x its MLP parameters and FLOPs. A preset's is kept. */
	if (req && json_object_get(obj, "mlp") == NULL) {
		size_t mark = jread_enter_key(r, "mlp");
		jread_fail(r, "missing: a model that does not start from a preset must state \"swiglu\" (gated, "
			      "3 matrices of h x ffn) or \"gelu\" (2)");
		jread_leave(r, mark);
		return -1;
	}
	m->mlp = (enum mlp_kind)mlp;
	if (m->kv_heads == 0)
		m->kv_heads = m->heads;
	/* Cross-field rules, reported at the object's path. */
	if (m->heads > 0 && m->head_dim == 0 && m->hidden % m->heads != 0)
		return jread_fail(r, "hidden %d is not a multiple of heads %d (give head_dim)", m->hidden, m->heads);
	if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0)
		return jread_fail(r, "kv_heads %d must divide heads %d", m->kv_heads, m->heads);
	if (m->kv_lora_rank == 0 && (m->q_lora_rank != 0 || m->qk_rope_dim != 0))
		return jread_fail(r, "q_lora_rank and qk_rope_dim are Multi-head Latent Attention fields: they need "
				     "kv_lora_rank > 0");
	if (m->kv_lora_rank > 0 && m->kv_heads != m->heads)
		return jread_fail(r, "Multi-head Latent Attention has a key and value per head: kv_heads %d must "
				     "equal heads %d", m->kv_heads, m->heads);
	if (m->experts > 0) {
		if (m->experts_active < 1 || m->experts_active > m->experts)
			return jread_fail(r, "experts_active %d must be from 1 to experts %d", m->experts_active, m->experts);
		if (m->expert_ffn < 1)
			return jread_fail(r, "a mixture-of-experts model needs expert_ffn");
		if (m->dense_layers > m->layers)
			return jread_fail(r, "dense_layers %d exceeds layers %d", m->dense_layers, m->layers);
	} else if (m->experts_active != 0 || m->shared_experts != 0) {
		return jread_fail(r, "experts_active and shared_experts need experts > 0");
	}
	return 0;
}

static int read_model_entry(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	struct model_spec *m = entry;
	if (json_object_get(obj, "preset") != NULL) {
		size_t mark = jread_enter_key(r, "preset");
		jread_fail(r, "not allowed in a catalog entry");
		jread_leave(r, mark);
		return -1;
	}
	return catalog_read_model(r, obj, is_new ? NULL : m, m);
}

static int read_source(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = { "id", "text", NULL };
	struct catalog_source *s = entry;
	(void)is_new;
	if (jread_object(r, obj, keys) < 0 ||
	    jread_string(r, obj, "id", true, s->id, sizeof s->id) < 0 ||
	    jread_string(r, obj, "text", true, s->text, sizeof s->text) < 0)
		return -1;
	return 0;
}

/* ---- sections ---------------------------------------------------------- */

enum merge_mode { MERGE_BY_NAME, MERGE_PREPEND, MERGE_BY_ID };

struct section_def {
	const char *key;
	size_t offset;     /* of the struct section in struct catalog */
	size_t entry_size;
	enum merge_mode mode;
	int (*read)(struct jread *r, const json_t *obj, void *entry, bool is_new);
};

static const struct section_def section_defs[] = {
	{ "gpus", offsetof(struct catalog, gpus), sizeof(struct gpu_spec), MERGE_BY_NAME, read_gpu },
	{ "fabrics", offsetof(struct catalog, fabrics), sizeof(struct fabric_spec), MERGE_BY_NAME, read_fabric },
	{ "storage", offsetof(struct catalog, storage), sizeof(struct storage_spec), MERGE_BY_NAME, read_storage },
	{ "presets", offsetof(struct catalog, presets), sizeof(struct preset_spec), MERGE_BY_NAME, read_preset },
	{ "prices", offsetof(struct catalog, prices), sizeof(struct price_spec), MERGE_PREPEND, read_price },
	{ "billing", offsetof(struct catalog, billing), sizeof(struct billing_spec), MERGE_PREPEND, read_billing },
	{ "models", offsetof(struct catalog, models), sizeof(struct model_spec), MERGE_BY_NAME, read_model_entry },
	{ "sources", offsetof(struct catalog, sources), sizeof(struct catalog_source), MERGE_BY_ID, read_source },
};
#define N_SECTIONS (sizeof section_defs / sizeof section_defs[0])

static struct section *catalog_section(catalog *c, const struct section_def *d)
{
	return (struct section *)((char *)c + d->offset);
}

/* Names are ids: letters, digits and "-._+ /()" only, 1..63 bytes. */
static bool name_is_valid(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      strchr("-._+ /()", ch)))
			return false;
	}
	return true;
}

/* Which entries of a section one document has given so far: seen[e] is 1 +
 * the index in the document's array of the entry that gave entry e, 0 when
 * none did. */
struct seen {
	size_t *at;
	size_t n;
};

static void seen_grow(struct seen *sn, size_t n)
{
	if (n <= sn->n)
		return;
	sn->at = xreallocarray(sn->at, n, sizeof *sn->at);
	memset(sn->at + sn->n, 0, (n - sn->n) * sizeof *sn->at);
	sn->n = n;
}

/* The path of element k of the array whose element the jread is at
 * ("catalog.gpus[3]" -> "catalog.gpus[k]"), for messages. */
static void sibling_path(const struct jread *r, size_t k, char *buf, size_t size)
{
	const char *open = strrchr(r->path, '[');
	int len = open != NULL ? (int)(open - r->path) : (int)r->path_len;
	snprintf(buf, size, "%.*s[%zu]", len, r->path, k);
}

/* Fail at arr[index].name: the name names the entry that arr[first] gave
 * already. A document gives each entry once; a later document (a user's
 * --catalog file after the built-in one) may override it. */
static int fail_duplicate_name(struct jread *r, const json_t *arr, size_t first, const char *name)
{
	const char *first_name = json_string_value(json_object_get(json_array_get(arr, first), "name"));
	char q[96], qf[96], other[JREAD_PATH_MAX + 24];
	size_t mark;

	sibling_path(r, first, other, sizeof other);
	mark = jread_enter_key(r, "name");
	text_quote(name, q, sizeof q);
	if (first_name == NULL || text_equal_nocase(first_name, name))
		jread_fail(r, "%s is also the name of %s: give each entry once in a file", q, other);
	else {
		text_quote(first_name, qf, sizeof qf);
		jread_fail(r, "%s names the same entry as %s (%s): give each entry once in a file", q, other, qf);
	}
	jread_leave(r, mark);
	return -1;
}

static int merge_named(struct section *s, const struct section_def *d, struct jread *r,
		       const json_t *arr, size_t index, struct seen *sn)
{
	const json_t *obj = json_array_get(arr, index);
	char name[CAT_NAME_MAX];
	struct catalog_id *entry;
	bool is_new;
	size_t mark, e;

	if (!json_is_object(obj))
		return jread_fail_value(r, obj, "an object");
	if (jread_string(r, obj, "name", true, name, sizeof name) < 0)
		return -1;
	if (!name_is_valid(name)) {
		mark = jread_enter_key(r, "name");
		jread_fail_value(r, json_object_get(obj, "name"),
				 "a name of letters, digits and -._+ /()");
		jread_leave(r, mark);
		return -1;
	}
	entry = section_find(s, name);
	is_new = entry == NULL;
	if (is_new) {
		entry = section_append(s);
		text_copy(entry->name, sizeof entry->name, name);
	}
	e = (size_t)((char *)entry - (char *)s->items) / s->size;
	seen_grow(sn, s->n);
	if (sn->at[e] != 0)  /* never for a new entry */
		return fail_duplicate_name(r, arr, sn->at[e] - 1, name);
	if (d->read(r, obj, entry, is_new) < 0) {
		if (is_new)
			s->n--;
		return -1;
	}
	/* Aliases must not name another entry. */
	for (int a = 0; a < entry->n_aliases; a++) {
		struct catalog_id *other = section_find(s, entry->aliases[a]);
		if (other != NULL && other != entry) {
			char q[96];
			text_quote(entry->aliases[a], q, sizeof q);
			mark = jread_enter_key(r, "aliases");
			jread_fail(r, "alias %s already names \"%s\"", q, other->name);
			jread_leave(r, mark);
			if (is_new)
				s->n--;
			return -1;
		}
	}
	sn->at[e] = index + 1;
	return 0;
}

/* The same price twice: the same provider, offering, GPU, type, term,
 * region and observation date (a price's history differs in its date). */
static bool same_price(const struct price_spec *a, const struct price_spec *b)
{
	return text_equal_nocase(a->provider, b->provider) && text_equal_nocase(a->offering, b->offering) &&
	       text_equal_nocase(a->gpu, b->gpu) && a->type == b->type && text_equal_nocase(a->term, b->term) &&
	       text_equal_nocase(a->region, b->region) && strcmp(a->observed, b->observed) == 0;
}

/* The same billing record twice: the same provider, type and term. */
static bool same_billing(const struct billing_spec *a, const struct billing_spec *b)
{
	return text_equal_nocase(a->provider, b->provider) && text_equal_nocase(a->type, b->type) &&
	       text_equal_nocase(a->term, b->term);
}

/*
 * Entry first + index of an unnamed section (prices, billing, sources), just
 * read from the document's array at `index`, against the entries the same
 * document gave before it: first..first + index - 1 (a document's entries
 * are contiguous and in its order). O(n^2) in a document's entries; past
 * ~1e4 prices a hash would be needed.
 */
static int check_unnamed(struct jread *r, const struct section_def *d, const struct section *s, size_t first,
			 size_t index)
{
	const void *e = section_at(s, first + index);
	char other[JREAD_PATH_MAX + 24];
	size_t k = 0;

	for (; k < index; k++) {
		const void *o = section_at(s, first + k);
		if (d->mode == MERGE_BY_ID ? strcmp(((const struct catalog_source *)e)->id,
						    ((const struct catalog_source *)o)->id) == 0
		    : d->read == read_price ? same_price(e, o) : same_billing(e, o))
			break;
	}
	if (k == index)
		return 0;
	sibling_path(r, k, other, sizeof other);
	if (d->mode == MERGE_BY_ID) {
		const struct catalog_source *a = e;
		return jread_fail(r, "id \"%s\" is also the id of %s: give each entry once in a file", a->id, other);
	}
	if (d->read == read_price) {
		const struct price_spec *a = e;
		return jread_fail(r, "the same provider, offering, gpu, type, term, region and observed date as %s "
				  "(\"%s\", \"%s\", \"%s\", \"%s\", \"%s\", \"%s\", \"%s\"): give each price once in a file",
				  other, a->provider, a->offering, a->gpu, price_type_names[a->type], a->term, a->region,
				  a->observed);
	}
	const struct billing_spec *a = e;
	return jread_fail(r, "the same provider, type and term as %s (\"%s\", \"%s\", \"%s\"): give each billing "
			  "record once in a file", other, a->provider, a->type, a->term);
}

int catalog_merge_json(catalog *c, const json_t *root, const char *what, const char *file,
		       const char *path_prefix, struct cs_error *err)
{
	struct jread r;
	const char *allowed[N_SECTIONS + 2];

	jread_init(&r, what, file, err);
	if (path_prefix != NULL)
		jread_enter_key(&r, path_prefix);
	for (size_t i = 0; i < N_SECTIONS; i++)
		allowed[i] = section_defs[i].key;
	allowed[N_SECTIONS] = "as_of";
	allowed[N_SECTIONS + 1] = NULL;
	if (jread_object(&r, root, allowed) < 0)
		return -1;
	if (json_object_get(root, "as_of") != NULL) {
		char as_of[sizeof c->as_of];
		if (jread_string(&r, root, "as_of", false, as_of, sizeof as_of) < 0)
			return -1;
		if (!catalog_iso_date(as_of, true)) {
			jread_enter_key(&r, "as_of");
			return jread_fail(&r, "expected an ISO date YYYY-MM-DD, got \"%.20s\"", as_of);
		}
		memcpy(c->as_of, as_of, sizeof c->as_of);
	}
	for (size_t k = 0; k < N_SECTIONS; k++) {
		const struct section_def *d = &section_defs[k];
		struct section *s = catalog_section(c, d);
		json_t *arr = json_object_get(root, d->key);
		struct seen sn = { 0 };
		size_t mark, i;
		int rc = 0;
		json_t *obj;

		if (arr == NULL)
			continue;
		size_t inserted = 0, first = s->n;
		mark = jread_enter_key(&r, d->key);
		if (!json_is_array(arr))
			return jread_fail_value(&r, arr, "an array");
		json_array_foreach(arr, i, obj) {
			size_t m2 = jread_enter_index(&r, i);
			if (d->mode == MERGE_BY_NAME) {
				rc = merge_named(s, d, &r, arr, i, &sn);
			} else if (d->mode == MERGE_PREPEND) {
				if (!json_is_object(obj)) {
					rc = jread_fail_value(&r, obj, "an object");
					break;
				}
				void *entry = section_insert(s, inserted);
				rc = d->read(&r, obj, entry, true);
				if (rc == 0)
					rc = check_unnamed(&r, d, s, 0, inserted);
				if (rc < 0)
					section_remove(s, inserted);
				else
					inserted++;
			} else {
				void *entry = section_append(s);
				rc = d->read(&r, obj, entry, true);
				if (rc == 0)
					rc = check_unnamed(&r, d, s, first, i);
				if (rc < 0)
					s->n--;
			}
			if (rc < 0)
				break;
			jread_leave(&r, m2);
		}
		free(sn.at);
		if (rc < 0)
			return -1;
		jread_leave(&r, mark);
	}
	return 0;
}

static void catalog_init(catalog *c)
{
	for (size_t k = 0; k < N_SECTIONS; k++) {
		struct section *s = catalog_section(c, &section_defs[k]);
		s->items = NULL;
		s->n = s->cap = 0;
		s->size = section_defs[k].entry_size;
	}
}

catalog *catalog_new_builtin(struct cs_error *err)
{
	catalog *c = xcalloc(1, sizeof *c);
	catalog_init(c);
	for (size_t i = 0; i < catalog_builtin_blob_count; i++) {
		const struct catalog_blob *b = &catalog_builtin_blobs[i];
		json_error_t jerr;
		json_t *root = json_loadb((const char *)b->data, b->len, JSON_REJECT_DUPLICATES, &jerr);
		int rc;
		if (root == NULL) {
			error_runtime(err, "built-in catalog '%s': line %d: %s", b->file, jerr.line, jerr.text);
			catalog_free(c);
			return NULL;
		}
		rc = catalog_merge_json(c, root, "built-in catalog", b->file, NULL, err);
		json_decref(root);
		if (rc < 0) {
			err->kind = ERROR_RUNTIME;
			catalog_free(c);
			return NULL;
		}
	}
	if (catalog_check(c, err) < 0) {
		error_prefix(err, "built-in catalog");
		err->kind = ERROR_RUNTIME;
		catalog_free(c);
		return NULL;
	}
	return c;
}

int catalog_merge_file(catalog *c, const char *path, struct cs_error *err)
{
	json_t *root = jread_load("catalog", path, err);
	int rc;

	if (root == NULL)
		return -1;
	rc = catalog_merge_json(c, root, "catalog", path, NULL, err);
	json_decref(root);
	if (rc < 0)
		return -1;
	if (catalog_check(c, err) < 0) {
		error_prefix(err, "catalog '%s'", path);
		return -1;
	}
	return 0;
}

catalog *catalog_copy(const catalog *c)
{
	catalog *d = xcalloc(1, sizeof *d);
	catalog_init(d);
	for (size_t k = 0; k < N_SECTIONS; k++) {
		const struct section *from = catalog_section((catalog *)c, &section_defs[k]);
		struct section *to = catalog_section(d, &section_defs[k]);
		to->n = to->cap = from->n;
		to->items = xcalloc(from->n ? from->n : 1, from->size);
		if (from->n > 0)
			memcpy(to->items, from->items, from->n * from->size);
	}
	memcpy(d->as_of, c->as_of, sizeof d->as_of);
	return d;
}

void catalog_free(catalog *c)
{
	if (c == NULL)
		return;
	for (size_t k = 0; k < N_SECTIONS; k++)
		free(catalog_section(c, &section_defs[k])->items);
	free(c);
}

/* ---- lookups ----------------------------------------------------------- */

const struct gpu_spec *catalog_gpu(const catalog *c, const char *name)
{
	return section_find(&c->gpus, name);
}

const struct fabric_spec *catalog_fabric(const catalog *c, const char *name)
{
	return section_find(&c->fabrics, name);
}

const struct storage_spec *catalog_storage(const catalog *c, const char *name)
{
	return section_find(&c->storage, name);
}

const struct preset_spec *catalog_preset(const catalog *c, const char *name)
{
	return section_find(&c->presets, name);
}

const struct model_spec *catalog_model(const catalog *c, const char *name)
{
	return section_find(&c->models, name);
}

#define CATALOG_ITER(fn, member, type)                                  \
	size_t catalog_##fn##_count(const catalog *c) { return c->member.n; } \
	const type *catalog_##fn##_at(const catalog *c, size_t i) { return section_at(&c->member, i); }

CATALOG_ITER(gpu, gpus, struct gpu_spec)
CATALOG_ITER(fabric, fabrics, struct fabric_spec)
CATALOG_ITER(storage, storage, struct storage_spec)
CATALOG_ITER(preset, presets, struct preset_spec)
CATALOG_ITER(price, prices, struct price_spec)
CATALOG_ITER(billing, billing, struct billing_spec)
CATALOG_ITER(model, models, struct model_spec)
CATALOG_ITER(source, sources, struct catalog_source)

void catalog_suggest(const catalog *c, enum catalog_section section, const char *wanted,
		     char *buf, size_t size)
{
	const struct section *s = NULL;
	struct text_suggest sg;

	switch (section) {
	case CAT_GPUS: s = &c->gpus; break;
	case CAT_FABRICS: s = &c->fabrics; break;
	case CAT_STORAGE: s = &c->storage; break;
	case CAT_PRESETS: s = &c->presets; break;
	case CAT_MODELS: s = &c->models; break;
	}
	assert(s != NULL);
	text_suggest_init(&sg, wanted);
	for (size_t i = 0; i < s->n; i++) {
		const struct catalog_id *id = section_at(s, i);
		text_suggest_add(&sg, id->name);
	}
	text_suggest_format(&sg, buf, size);
}

const struct price_spec *catalog_price_find(const catalog *c, const char *provider,
					    enum price_type type, const char *offering,
					    const char *gpu, const char *term)
{
	/* Two passes: by offering first (an instance type names its GPU), then by GPU. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < c->prices.n; i++) {
			const struct price_spec *p = section_at(&c->prices, i);
			if (!text_equal_nocase(p->provider, provider) || p->type != type)
				continue;
			if (term != NULL && term[0] != '\0' && !text_equal_nocase(p->term, term))
				continue;
			if (pass == 0) {
				if (offering == NULL || offering[0] == '\0' ||
				    !text_equal_nocase(p->offering, offering))
					continue;
			} else {
				const struct gpu_spec *want, *have;
				if (gpu == NULL || gpu[0] == '\0')
					continue;
				want = catalog_gpu(c, gpu);
				have = catalog_gpu(c, p->gpu);
				if (want == NULL || want != have)
					continue;
			}
			return p;
		}
	}
	return NULL;
}

/* The billing that applies when neither the price nor a record says. */
static const struct billing_spec billing_default = {
	.granularity_s = 3600,
	.minimum_s = 0,
	.spot_notice_s = -1,
	.source = "",
	.confidence = "assumption",
	.note = "no billing record for this provider: the billing granularity was not found, "
		"hourly assumed",
};

const struct billing_spec *catalog_billing_find(const catalog *c, const char *provider,
						enum price_type type, const char *term)
{
	for (size_t i = 0; i < c->billing.n; i++) {
		const struct billing_spec *b = section_at(&c->billing, i);
		if (!text_equal_nocase(b->provider, provider))
			continue;
		if (b->type[0] && strcmp(b->type, price_type_names[type]) != 0)
			continue;
		if (b->term[0] && !text_equal_nocase(b->term, term))
			continue;
		return b;
	}
	return &billing_default;
}

void catalog_price_billing(const catalog *c, const struct price_spec *p, double *granularity_s,
			   double *minimum_s, const struct billing_spec **record)
{
	const struct billing_spec *b = catalog_billing_find(c, p->provider, p->type, p->term);
	*record = b;
	*granularity_s = b->granularity_s;
	*minimum_s = b->minimum_s;
	if (p->billing_s > 0) {
		/* the entry's own billing replaces the provider's */
		*record = NULL;
		*granularity_s = p->billing_s;
		*minimum_s = p->minimum_s;
	} else if (p->minimum_s > 0) {
		*minimum_s = p->minimum_s;
	}
}

bool catalog_provider_known(const catalog *c, const char *provider)
{
	for (size_t i = 0; i < c->prices.n; i++) {
		const struct price_spec *p = section_at(&c->prices, i);
		if (text_equal_nocase(p->provider, provider))
			return true;
	}
	return false;
}

static int check_fabric_ref(const catalog *c, const char *owner, const char *field,
			    const char *name, enum fabric_kind kind, bool allow_host,
			    struct cs_error *err)
{
	const struct fabric_spec *f = catalog_fabric(c, name);
	char hint[256];
	if (f == NULL) {
		catalog_suggest(c, CAT_FABRICS, name, hint, sizeof hint);
		return error_set(err, "%s: %s: unknown fabric \"%s\"%s", owner, field, name, hint);
	}
	if (f->kind != kind && !(allow_host && f->kind == FABRIC_HOST))
		return error_set(err, "%s: %s: fabric \"%s\" is %s, expected %s", owner, field,
				 name, fabric_kind_names[f->kind], fabric_kind_names[kind]);
	return 0;
}

int catalog_check(const catalog *c, struct cs_error *err)
{
	char hint[256];

	for (size_t i = 0; i < c->gpus.n; i++) {
		const struct gpu_spec *g = section_at(&c->gpus, i);
		if (g->scale_up[0] && catalog_fabric(c, g->scale_up) == NULL) {
			catalog_suggest(c, CAT_FABRICS, g->scale_up, hint, sizeof hint);
			return error_set(err, "gpu \"%s\": scale_up: unknown fabric \"%s\"%s",
					 g->id.name, g->scale_up, hint);
		}
	}
	for (size_t i = 0; i < c->presets.n; i++) {
		const struct preset_spec *p = section_at(&c->presets, i);
		char owner[CAT_NAME_MAX + 16];
		snprintf(owner, sizeof owner, "preset \"%s\"", p->id.name);
		if (catalog_gpu(c, p->gpu) == NULL) {
			catalog_suggest(c, CAT_GPUS, p->gpu, hint, sizeof hint);
			return error_set(err, "%s: gpu: unknown GPU \"%s\"%s", owner, p->gpu, hint);
		}
		if (check_fabric_ref(c, owner, "scale_up", p->scale_up, FABRIC_SCALE_UP, false, err) < 0)
			return -1;
		if (p->nic[0] && check_fabric_ref(c, owner, "nic", p->nic, FABRIC_SCALE_OUT, false, err) < 0)
			return -1;
		for (int k = 0; k < p->n_storage; k++) {
			const struct storage_spec *s = catalog_storage(c, p->storage[k]);
			if (s == NULL) {
				catalog_suggest(c, CAT_STORAGE, p->storage[k], hint, sizeof hint);
				return error_set(err, "%s: storage[%d]: unknown storage \"%s\"%s",
						 owner, k, p->storage[k], hint);
			}
			/* a preset's tier is taken whole: one sized by capacity has no size here */
			if (s->kind == STORAGE_MANAGED_LUSTRE)
				return error_set(err, "%s: storage[%d]: \"%s\" is sized by capacity, which a preset "
						 "cannot give: name a tier with a total rate (aggregate_GBps)",
						 owner, k, p->storage[k]);
		}
	}
	for (size_t i = 0; i < c->prices.n; i++) {
		const struct price_spec *p = section_at(&c->prices, i);
		if (catalog_gpu(c, p->gpu) == NULL) {
			catalog_suggest(c, CAT_GPUS, p->gpu, hint, sizeof hint);
			return error_set(err, "price %s/%s: gpu: unknown GPU \"%s\"%s",
					 p->provider, p->offering, p->gpu, hint);
		}
	}
	return 0;
}

const char *catalog_as_of(const catalog *c)
{
	return c->as_of;
}

bool catalog_price_stale(const catalog *c, const struct price_spec *p)
{
	if (c->as_of[0] == '\0' || p->observed[0] == '\0')
		return false;
	/* The cutoff is as_of one year earlier; a month-only date is compared by
	 * month, so it is stale only when its whole month lies before the cutoff's. */
	char cutoff[sizeof c->as_of];
	int year = atoi(c->as_of);
	snprintf(cutoff, sizeof cutoff, "%04d%s", year - 1, c->as_of + 4);
	size_t n = strlen(p->observed);
	if (n == 7)
		return strncmp(p->observed, cutoff, 7) < 0;
	return strcmp(p->observed, cutoff) < 0;
}
