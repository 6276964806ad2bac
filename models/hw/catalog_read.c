#include "catalog_read.h"

#include <stdio.h>
#include <string.h>

#include "util/jread.h"
#include "util/text.h"

bool catalog_read_iso_date(const char *s, bool day_required)
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

/* hw.h says where it comes from (docs/explanation/calibration.md, "FP4"). */
const double catalog_fp4_over_fp8_mamf = 0.76;

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

int catalog_read_gpu(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = {
		ID_KEYS, "vendor", "memory_gib", "mem_bw_GBps", "tflops_fp64", "tflops_fp32",
		"tflops_tf32", "tflops_bf16", "tflops_fp8", "tflops_fp4", "mamf_bf16", "mamf_fp8",
		"mamf_fp4", "mamf_note", "scale_up", "scale_up_GBps", "host_link", "tdp_w", "year", "sms", "sms_source",
		"mem_bw_measured_GBps", "mem_bw_source", "attn_train_over_gemm", "attn_train_assumed",
		"attn_train_note", "calibration", NULL
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
	    jread_real(r, obj, "mamf_fp4", false, 0.0, 1.0, &g->mamf_fp4_measured) < 0 ||
	    jread_string(r, obj, "mamf_note", false, g->mamf_note, sizeof g->mamf_note) < 0 ||
	    jread_string(r, obj, "scale_up", false, g->scale_up, sizeof g->scale_up) < 0 ||
	    read_scaled(r, obj, "scale_up_GBps", false, 0, 1e6, 1e9, &g->scale_up_bytes_per_s) < 0 ||
	    jread_string(r, obj, "host_link", false, g->host_link, sizeof g->host_link) < 0 ||
	    jread_real(r, obj, "tdp_w", false, 0, 1e5, &g->tdp_w) < 0 ||
	    jread_int32(r, obj, "year", false, 1990, 2100, &g->year) < 0 ||
	    jread_int32(r, obj, "sms", false, 1, 100000, &g->sms) < 0 ||
	    jread_string(r, obj, "sms_source", false, g->sms_source, sizeof g->sms_source) < 0 ||
	    read_scaled(r, obj, "mem_bw_measured_GBps", false, 0, 1e6, 1e9, &g->mem_bw_measured_bytes_per_s) < 0 ||
	    jread_string(r, obj, "mem_bw_source", false, g->mem_bw_source, sizeof g->mem_bw_source) < 0 ||
	    jread_real(r, obj, "attn_train_over_gemm", false, 0, 4, &g->attn_train_over_gemm) < 0 ||
	    jread_bool(r, obj, "attn_train_assumed", false, &g->attn_train_assumed) < 0 ||
	    jread_string(r, obj, "attn_train_note", false, g->attn_train_note, sizeof g->attn_train_note) < 0 ||
	    jread_string(r, obj, "calibration", false, g->calibration, sizeof g->calibration) < 0)
		return -1;
	g->memory_bytes = g->memory_gib * 1073741824.0;
	/* Derived rates: fp16 runs at bf16's rate; the GEMM efficiency of a
	 * precision without its own measurement is taken from bf16's. */
	g->peak_flops[PREC_FP16] = g->peak_flops[PREC_BF16];
	g->mamf[PREC_FP16] = g->mamf[PREC_BF16];
	for (int p = 0; p < PREC_COUNT; p++)
		if (p != PREC_FP8 && p != PREC_BF16 && p != PREC_FP16 && p != PREC_FP4)
			g->mamf[p] = g->mamf[PREC_BF16];
	if (g->mamf[PREC_FP8] == 0.0)
		g->mamf[PREC_FP8] = g->mamf[PREC_BF16];
	/* FP4: the catalog's measurement, else an assumption the rows that
	 * compute in FP4 name (catalog_fp4_over_fp8_mamf). */
	g->mamf_fp4_assumed = !(g->mamf_fp4_measured > 0.0);
	g->mamf[PREC_FP4] = g->mamf_fp4_assumed ? g->mamf[PREC_FP8] * catalog_fp4_over_fp8_mamf
						: g->mamf_fp4_measured;
	return 0;
}

int catalog_read_fabric(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = {
		ID_KEYS, "kind", "topology", "domain_gpus", "bw_GBps", "pair_GBps", "line_rate_gbps",
		"latency_us", "efficiency", "nvls_algbw_efficiency", "direct_collectives", "calibration", NULL
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
	    jread_real(r, obj, "nvls_algbw_efficiency", false, 0, 1.5, &f->nvls_algbw_efficiency) < 0 ||
	    jread_bool(r, obj, "direct_collectives", false, &f->direct_collectives) < 0 ||
	    jread_string(r, obj, "calibration", false, f->calibration, sizeof f->calibration) < 0)
		return -1;
	f->kind = (enum fabric_kind)kind;
	if (is_new && json_object_get(obj, "topology") == NULL)
		topo = FTOPO_NONE;
	f->topology = (enum fabric_topology)topo;
	if (f->pair_bytes_per_s == 0.0)
		f->pair_bytes_per_s = f->bw_bytes_per_s;
	return 0;
}

int catalog_read_storage(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = {
		ID_KEYS, "kind", "read_GBps_per_node", "write_GBps_per_node", "aggregate_GBps",
		"latency_ms", "MBps_per_tib", "min_capacity_tib", "usd_per_tb_month", "egress_usd_per_gb",
		"price_source", NULL
	};
	struct storage_spec *s = entry;
	bool req = is_new;
	int kind = (int)s->kind;

	if (is_new)
		s->usd_per_tb_month = s->egress_usd_per_gb = -1;  /* not known until given */

	if (jread_object(r, obj, keys) < 0 || read_id(r, obj, &s->id) < 0)
		return -1;
	if (jread_enum(r, obj, "kind", req, storage_kind_names, &kind) < 0 ||
	    read_scaled(r, obj, "read_GBps_per_node", req, 0.0001, 1e6, 1e9, &s->read_bytes_per_s_per_node) < 0 ||
	    read_scaled(r, obj, "write_GBps_per_node", req, 0.0001, 1e6, 1e9, &s->write_bytes_per_s_per_node) < 0 ||
	    read_scaled(r, obj, "aggregate_GBps", false, 0, 1e9, 1e9, &s->aggregate_bytes_per_s) < 0 ||
	    read_scaled(r, obj, "latency_ms", false, 0, 1e6, 1e-3, &s->latency_s) < 0 ||
	    read_scaled(r, obj, "MBps_per_tib", false, 0.001, 1e6, 1e6, &s->bytes_per_s_per_tib) < 0 ||
	    read_scaled(r, obj, "min_capacity_tib", false, 0, 1e6, 1, &s->min_capacity_tib) < 0 ||
	    read_scaled(r, obj, "usd_per_tb_month", false, 0, 1e6, 1, &s->usd_per_tb_month) < 0 ||
	    read_scaled(r, obj, "egress_usd_per_gb", false, 0, 1e3, 1, &s->egress_usd_per_gb) < 0 ||
	    jread_string(r, obj, "price_source", false, s->price_source, sizeof s->price_source) < 0)
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

int catalog_read_preset(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = {
		ID_KEYS, "gpu", "gpus_per_node", "scale_up", "nic", "nics_per_node", "topology",
		"storage", "provider", "offering", "node_power_kw", "price_checked", "purchase_usd",
		"purchase_source", NULL
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
	    read_scaled(r, obj, "node_power_kw", false, 0, 1e4, 1e3, &p->node_power_w) < 0 ||
	    read_scaled(r, obj, "purchase_usd", false, 0, 1e9, 1, &p->purchase_usd) < 0 ||
	    jread_string(r, obj, "purchase_source", false, p->purchase_source, sizeof p->purchase_source) < 0)
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

int catalog_read_price(struct jread *r, const json_t *obj, void *entry, bool is_new)
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
	if (p->observed[0] != '\0' && !catalog_read_iso_date(p->observed, false)) {
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

int catalog_read_billing(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = {
		"provider", "type", "term", "granularity_s", "minimum_s", "spot_notice_s",
		"spot_notice_source", "block_h", "block_long_after_h", "block_long_h", "block_max_h",
		"source", "confidence", "note", NULL
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
	    jread_real(r, obj, "block_h", false, 1, 87660, &b->block_h) < 0 ||
	    jread_real(r, obj, "block_long_after_h", false, 1, 87660, &b->block_long_after_h) < 0 ||
	    jread_real(r, obj, "block_long_h", false, 1, 87660, &b->block_long_h) < 0 ||
	    jread_real(r, obj, "block_max_h", false, 1, 87660, &b->block_max_h) < 0 ||
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
	/* a block rule: the capacity-block type's, and the older spelling of
	 * it (type reserved, term capacity-block) may have one */
	const char *tname = type >= 0 ? price_type_names[type] : b->type;
	bool block_type = strcmp(tname, price_type_names[PRICE_CAPACITY_BLOCK]) == 0;
	bool block_ok = block_type || (strcmp(tname, price_type_names[PRICE_RESERVED]) == 0 &&
				       strcmp(b->term, "capacity-block") == 0);
	if (block_type ? !(b->block_h > 0) : (b->block_h > 0 && !block_ok)) {
		size_t m = jread_enter_key(r, b->block_h > 0 ? "block_h" : "type");
		int rc = jread_fail(r, "a \"capacity-block\" record gives block_h (the length its bookings are "
				    "made of), and no other record does");
		jread_leave(r, m);
		return rc;
	}
	if ((b->block_long_after_h > 0) != (b->block_long_h > 0)) {
		size_t m = jread_enter_key(r, b->block_long_h > 0 ? "block_long_h" : "block_long_after_h");
		int rc = jread_fail(r, "block_long_after_h and block_long_h go together");
		jread_leave(r, m);
		return rc;
	}
	if (b->block_max_h > 0 && b->block_max_h < b->block_h) {
		size_t m = jread_enter_key(r, "block_max_h");
		int rc = jread_fail(r, "%g is shorter than block_h %g", b->block_max_h, b->block_h);
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

int catalog_read_model_entry(struct jread *r, const json_t *obj, void *entry, bool is_new)
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

int catalog_read_source(struct jread *r, const json_t *obj, void *entry, bool is_new)
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

/* ---- engines ------------------------------------------------------------ */

/* The names of the engines of one kind (-1: every engine), quoted, with ", ". */
static void engine_names(int kind, char *buf, size_t size)
{
	buf[0] = '\0';
	for (size_t k = 0; catalog_engine_names[k] != NULL; k++)
		if (kind < 0 || (int)catalog_engine_kinds[k] == kind)
			text_append_itemf(buf, size, ", ", "\"%s\"", catalog_engine_names[k]);
}

void catalog_engine_names_text(char *buf, size_t size)
{
	engine_names(-1, buf, size);
}

/* The keys of each kind of engine (hw.h, struct engine_spec). */
#define ENGINE_SERVING_KEYS "step_overhead_ms", "seq_overhead_us", "kernel_us", "gemm_over_mamf", "hbm_efficiency"
#define ENGINE_TRAINING_KEYS "overlap_slowdown", "ep_overlap_slowdown", "straggler_sigma"

/* Fail at the first key of `other` in obj: a key of the other kind of engine. */
static int refuse_other_kind(struct jread *r, const json_t *obj, const char *const *other,
			     enum engine_kind other_kind)
{
	for (size_t i = 0; other[i] != NULL; i++) {
		if (json_object_get(obj, other[i]) == NULL)
			continue;
		char names[128];
		size_t mark = jread_enter_key(r, other[i]);
		engine_names((int)other_kind, names, sizeof names);
		jread_fail(r, "a %s engine's key (%s), not a %s engine's",
			   other_kind == ENGINE_SERVING ? "serving" : "training", names,
			   other_kind == ENGINE_SERVING ? "training" : "serving");
		jread_leave(r, mark);
		return -1;
	}
	return 0;
}

/* A number in (0, max]: jread_real's check, with 0 itself refused. */
static int read_above_zero(struct jread *r, const json_t *obj, const char *key, bool required, double max,
			   double *out)
{
	const json_t *v = json_object_get(obj, key);
	if (v != NULL && json_is_number(v) && !(json_number_value(v) > 0)) {
		char expect[64];
		size_t mark = jread_enter_key(r, key);
		snprintf(expect, sizeof expect, "a number above 0 and at most %g", max);
		jread_fail_value(r, v, expect);
		jread_leave(r, mark);
		return -1;
	}
	return jread_real(r, obj, key, required, 0, max, out);
}

int catalog_read_engine(struct jread *r, const json_t *obj, void *entry, bool is_new)
{
	static const char *const keys[] = { ID_KEYS, ENGINE_SERVING_KEYS, ENGINE_TRAINING_KEYS, "calibration", NULL };
	static const char *const serving_keys[] = { ENGINE_SERVING_KEYS, NULL };
	static const char *const training_keys[] = { ENGINE_TRAINING_KEYS, NULL };
	struct engine_spec *e = entry;
	size_t k = 0;

	/* Only the engines the model knows are entries (hw.h): an entry for
	 * another would be read and never used. */
	while (catalog_engine_names[k] != NULL && !text_equal_nocase(catalog_engine_names[k], e->id.name))
		k++;
	if (catalog_engine_names[k] == NULL) {
		char q[96], names[128];
		size_t mark = jread_enter_key(r, "name");
		text_quote(e->id.name, q, sizeof q);
		catalog_engine_names_text(names, sizeof names);
		jread_fail(r, "%s is not an engine the model knows: the engines are %s", q, names);
		jread_leave(r, mark);
		return -1;
	}
	text_copy(e->id.name, sizeof e->id.name, catalog_engine_names[k]);  /* the model's spelling */
	e->kind = catalog_engine_kinds[k];
	bool serving = e->kind == ENGINE_SERVING;
	bool req_s = is_new && serving, req_t = is_new && !serving;  /* a later file may give only some */

	if (jread_object(r, obj, keys) < 0 ||
	    refuse_other_kind(r, obj, serving ? training_keys : serving_keys,
			      serving ? ENGINE_TRAINING : ENGINE_SERVING) < 0 ||
	    read_id(r, obj, &e->id) < 0)
		return -1;
	if (read_scaled(r, obj, "step_overhead_ms", req_s, 0, 10000, 1e-3, &e->step_overhead_s) < 0 ||
	    read_scaled(r, obj, "seq_overhead_us", req_s, 0, 1e6, 1e-6, &e->seq_overhead_s) < 0 ||
	    read_scaled(r, obj, "kernel_us", req_s, 0, 1e6, 1e-6, &e->kernel_s) < 0 ||
	    read_above_zero(r, obj, "gemm_over_mamf", req_s, 1.5, &e->gemm_over_mamf) < 0 ||
	    read_above_zero(r, obj, "hbm_efficiency", req_s, 1.0, &e->hbm_efficiency) < 0 ||
	    jread_real(r, obj, "overlap_slowdown", req_t, 0, 1, &e->overlap_slowdown) < 0 ||
	    jread_real(r, obj, "ep_overlap_slowdown", req_t, 0, 1, &e->ep_overlap_slowdown) < 0 ||
	    jread_real(r, obj, "straggler_sigma", req_t, 0, 0.5, &e->straggler_sigma) < 0 ||
	    jread_string(r, obj, "calibration", false, e->calibration, sizeof e->calibration) < 0)
		return -1;
	return 0;
}
