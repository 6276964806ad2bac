#include "candidate.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "models/cost/owned.h"
#include "models/cost/price_band.h"
#include "models/scenario/keys.h"
#include "models/scenario/reader.h"
#include "util/text.h"

/* The catalog names a cluster gives (or its preset gives), before lookup. */
struct candidate_names {
	char gpu[CAT_NAME_MAX];
	char scale_up[CAT_NAME_MAX];
	char nic[CAT_NAME_MAX];
};

/* What a price object asks for, before the catalog is asked. */
struct price_ask {
	char provider[CAT_NAME_MAX];
	char offering[CAT_NAME_MAX];
	char term[CAT_NAME_MAX];
	int type;               /* enum price_type */
	double usd_per_gpu_hour; /* 0: from the catalog */
	double billing_s;        /* 0: the default */
	double minimum_s;        /* -1: the default */
	double preemptions_per_instance_h; /* -1: not given */
	double preemption_notice_s;
	double capacity_wait_s;            /* -1: not given */
};

/* ---- storage tiers ------------------------------------------------------ */

static const char *default_tier_label(enum storage_kind k)
{
	switch (k) {
	case STORAGE_LOCAL_NVME: return "local";
	case STORAGE_PARALLEL_FS: return "pfs";
	case STORAGE_OBJECT: return "object";
	case STORAGE_MANAGED_LUSTRE: return "pfs";
	}
	return "storage";
}

/* The rates and latency a tier object gives, over its preset's values. A
 * tier without a preset (`custom`) starts from nothing. */
static int read_storage_rates(struct jread *r, const json_t *v, bool custom, struct storage_tier *t)
{
	double x;
	/* A tier given only an aggregate rate is limited by that alone. */
	bool has_agg = json_object_get(v, "aggregate_GBps") != NULL;
	if (key_real(r, v, KS_STORAGE, "aggregate_GBps", &x) < 0)
		return -1;
	if (has_agg)
		t->spec.aggregate_bytes_per_s = x * 1e9;
	if (custom && !has_agg) {
		t->spec.read_bytes_per_s_per_node = 0;
		t->spec.write_bytes_per_s_per_node = 0;
	}
	if (json_object_get(v, "read_GBps_per_node") != NULL) {
		if (key_real(r, v, KS_STORAGE, "read_GBps_per_node", &x) < 0)
			return -1;
		t->spec.read_bytes_per_s_per_node = x * 1e9;
	}
	if (json_object_get(v, "write_GBps_per_node") != NULL) {
		if (key_real(r, v, KS_STORAGE, "write_GBps_per_node", &x) < 0)
			return -1;
		t->spec.write_bytes_per_s_per_node = x * 1e9;
	}
	if (json_object_get(v, "latency_ms") != NULL) {
		if (key_real(r, v, KS_STORAGE, "latency_ms", &x) < 0)
			return -1;
		t->spec.latency_s = x * 1e-3;
	}
	if (t->spec.aggregate_bytes_per_s == 0 && t->spec.read_bytes_per_s_per_node == 0)
		return jread_fail(r, "give aggregate_GBps or read_GBps_per_node and write_GBps_per_node");
	return 0;
}

/* A managed-lustre tier's `capacity_tib`: at least the preset's minimum; the
 * aggregate rate is capacity x the tier's MB/s per TiB. Other kinds take none. */
static int read_capacity(struct jread *r, const json_t *v, struct storage_tier *t)
{
	const json_t *x = json_object_get(v, "capacity_tib");
	struct storage_spec *s = &t->spec;
	if (s->kind != STORAGE_MANAGED_LUSTRE) {
		if (x == NULL)
			return 0;
		(void)jread_enter_key(r, "capacity_tib");  /* the error names the key */
		return jread_fail(r, "only a managed-lustre tier is sized by capacity_tib (this one is %s)",
				  storage_kind_names[s->kind]);
	}
	if (s->bytes_per_s_per_tib == 0)
		return jread_fail(r, "kind managed-lustre needs a managed-lustre preset (its MB/s per TiB)");
	if (key_need(r, v, "capacity_tib") < 0 || key_real(r, v, KS_STORAGE, "capacity_tib", &s->capacity_tib) < 0)
		return -1;
	if (s->capacity_tib < s->min_capacity_tib) {
		(void)jread_enter_key(r, "capacity_tib");  /* the error names the key */
		return jread_fail(r, "%g TiB is below the minimum capacity of %s, %g TiB", s->capacity_tib,
				  s->id.name, s->min_capacity_tib);
	}
	s->aggregate_bytes_per_s = s->capacity_tib * s->bytes_per_s_per_tib;
	return 0;
}

/* A tier's own storage and egress prices, over its preset's. */
static int read_storage_prices(struct jread *r, const json_t *v, struct storage_tier *t)
{
	bool given = false;
	if (json_object_get(v, "usd_per_tb_month") != NULL) {
		if (key_real(r, v, KS_STORAGE, "usd_per_tb_month", &t->spec.usd_per_tb_month) < 0)
			return -1;
		given = true;
	}
	if (json_object_get(v, "egress_usd_per_gb") != NULL) {
		if (key_real(r, v, KS_STORAGE, "egress_usd_per_gb", &t->spec.egress_usd_per_gb) < 0)
			return -1;
		given = true;
	}
	if (given)
		text_copy(t->spec.price_source, sizeof t->spec.price_source, "scenario");
	return 0;
}

/* One storage tier: a catalog name, or an object with an optional preset. */
static int read_storage_tier(struct jread *r, const json_t *v, const catalog *cat,
			     struct storage_tier *t)
{
	char preset[CAT_NAME_MAX] = "";

	memset(t, 0, sizeof *t);
	if (json_is_string(v)) {
		const struct storage_spec *s = catalog_storage(cat, json_string_value(v));
		if (s == NULL)
			return reader_unknown_name(r, cat, CAT_STORAGE, NULL, "storage", json_string_value(v));
		if (s->kind == STORAGE_MANAGED_LUSTRE) {
			char q[96];
			text_quote(s->id.name, q, sizeof q);
			return jread_fail(r, "%s is sized by capacity: write {\"preset\": %s, \"capacity_tib\": N}",
					  q, q);
		}
		t->spec = *s;
		text_copy(t->tier, sizeof t->tier, default_tier_label(s->kind));
		return 0;
	}
	if (key_object(r, v, KS_STORAGE) < 0 ||
	    jread_string(r, v, "preset", false, preset, sizeof preset) < 0)
		return -1;
	if (preset[0]) {
		const struct storage_spec *s = catalog_storage(cat, preset);
		if (s == NULL)
			return reader_unknown_name(r, cat, CAT_STORAGE, "preset", "storage", preset);
		t->spec = *s;
	} else {
		text_copy(t->spec.id.name, sizeof t->spec.id.name, "custom");
		t->spec.usd_per_tb_month = t->spec.egress_usd_per_gb = -1;  /* no price until given */
	}
	if (read_storage_prices(r, v, t) < 0)
		return -1;
	int kind = (int)t->spec.kind;
	bool custom = preset[0] == '\0';
	if (jread_enum(r, v, "kind", custom, storage_kind_names, &kind) < 0)
		return -1;
	t->spec.kind = (enum storage_kind)kind;
	if (read_capacity(r, v, t) < 0 || read_storage_rates(r, v, custom, t) < 0)
		return -1;
	if (storage_needs_aggregate(t->spec.kind) && !(t->spec.aggregate_bytes_per_s > 0)) {
		/* a tier from a local-nvme preset given another kind, or a custom one
		 * with client rates only: nothing bounds the whole file system */
		(void)jread_enter_key(r, "aggregate_GBps");  /* the error names the key */
		return jread_fail(r, "missing: %s", storage_aggregate_hint(t->spec.kind));
	}
	text_copy(t->tier, sizeof t->tier, default_tier_label(t->spec.kind));
	return jread_string(r, v, "tier", false, t->tier, sizeof t->tier);
}

/* The `storage` array: at most CAT_STORAGE_MAX tiers with distinct labels. */
static int read_storage_list(struct jread *r, const json_t *x, const catalog *cat,
			     struct cluster_spec *c)
{
	size_t i;
	json_t *e;
	if (!json_is_array(x) || json_array_size(x) > CAT_STORAGE_MAX)
		return jread_fail_value(r, x, "an array of at most 4 storage tiers");
	json_array_foreach(x, i, e) {
		size_t mark = jread_enter_index(r, i);
		if (read_storage_tier(r, e, cat, &c->storage[i]) < 0)
			return -1;
		for (size_t k = 0; k < i; k++) {
			if (text_equal_nocase(c->storage[k].tier, c->storage[i].tier))
				return jread_fail(r, "tier \"%s\" is given twice", c->storage[i].tier);
		}
		jread_leave(r, mark);
		c->n_storage++;
	}
	return 0;
}

/* The preset's tiers, each under its kind's label (a second tier of one kind
 * under its catalog name). The catalog checked the names when it loaded. */
static void take_preset_storage(const catalog *cat, const struct preset_spec *preset,
				struct cluster_spec *c)
{
	for (int i = 0; i < preset->n_storage; i++) {
		const struct storage_spec *s = catalog_storage(cat, preset->storage[i]);
		struct storage_tier *t = &c->storage[c->n_storage];
		t->spec = *s;
		text_copy(t->tier, CAT_NAME_MAX, default_tier_label(s->kind));
		bool dup = false;
		for (int k = 0; k < c->n_storage; k++)
			dup |= text_equal_nocase(c->storage[k].tier, t->tier);
		if (dup)
			text_copy(t->tier, CAT_NAME_MAX, s->id.name);
		c->n_storage++;
	}
}

/* ---- price -------------------------------------------------------------- */

/* The price the cluster asks for: the preset's provider (and offering, when
 * the GPU is the preset's), then the price object's fields. */
/* A spot price's preemption fields: only with type spot; capacity_wait_s
 * is required with preemptions_per_instance_h (no sourced default). */
static int read_preemptions(struct jread *r, const json_t *v, struct price_ask *a)
{
	static const char *const keys[] = { "preemptions_per_instance_h", "preemption_notice_s", "capacity_wait_s", NULL };
	if (key_real(r, v, KS_PRICE, "preemptions_per_instance_h", &a->preemptions_per_instance_h) < 0 ||
	    key_real(r, v, KS_PRICE, "preemption_notice_s", &a->preemption_notice_s) < 0 ||
	    key_real(r, v, KS_PRICE, "capacity_wait_s", &a->capacity_wait_s) < 0)
		return -1;
	for (size_t i = 0; keys[i] != NULL; i++) {
		const json_t *x = json_object_get(v, keys[i]);
		if (x != NULL && a->type != PRICE_SPOT) {
			char got[64];
			jread_describe(x, got, sizeof got);
			(void)jread_enter_key(r, keys[i]);  /* the error names the key */
			return jread_fail(r, "%s given for price type %s: only a spot price (type \"spot\") has preemptions",
					  got, price_type_names[a->type]);
		}
	}
	if (a->preemptions_per_instance_h >= 0 && a->capacity_wait_s < 0)
		return jread_fail(r, "preemptions_per_instance_h %g given without capacity_wait_s: give the seconds "
				  "until capacity is back after a preemption (there is no sourced default)",
				  a->preemptions_per_instance_h);
	return 0;
}

static int read_price_ask(struct jread *r, const json_t *v, const catalog *cat,
			  const struct preset_spec *preset, const char *gpu_name, struct price_ask *a)
{
	memset(a, 0, sizeof *a);
	a->type = PRICE_ON_DEMAND;
	a->minimum_s = -1;
	a->preemptions_per_instance_h = -1;
	a->preemption_notice_s = -1;  /* not given: the provider's billing record's */
	a->capacity_wait_s = -1;
	if (preset != NULL) {
		text_copy(a->provider, sizeof a->provider, preset->provider);
		if (catalog_gpu(cat, preset->gpu) == catalog_gpu(cat, gpu_name))
			text_copy(a->offering, sizeof a->offering, preset->offering);
	}
	if (v == NULL)
		return 0;
	if (key_object(r, v, KS_PRICE) < 0 ||
	    jread_string(r, v, "provider", false, a->provider, sizeof a->provider) < 0 ||
	    key_enum(r, v, KS_PRICE, "type", &a->type) < 0 ||
	    jread_string(r, v, "term", false, a->term, sizeof a->term) < 0 ||
	    jread_string(r, v, "offering", false, a->offering, sizeof a->offering) < 0 ||
	    key_real(r, v, KS_PRICE, "usd_per_gpu_hour", &a->usd_per_gpu_hour) < 0 ||
	    key_real(r, v, KS_PRICE, "billing_s", &a->billing_s) < 0 ||
	    key_real(r, v, KS_PRICE, "minimum_s", &a->minimum_s) < 0 ||
	    read_preemptions(r, v, a) < 0)
		return -1;
	/* Another provider than the preset's does not sell the preset's offering. */
	if (json_object_get(v, "provider") != NULL && json_object_get(v, "offering") == NULL &&
	    preset != NULL && !text_equal_nocase(a->provider, preset->provider))
		a->offering[0] = '\0';
	return 0;
}

/* No price for a preset's own offering: not an error (the row says so). */
static void price_missing(const struct price_ask *a, const struct preset_spec *preset,
			  struct price_quote *q)
{
	if (preset->price_checked[0])
		snprintf(q->missing, sizeof q->missing,
			 "no price in the catalog for %.60s (%.30s %.60s %s; source checked: %.255s); "
			 "give candidates[].price", preset->id.name, a->provider,
			 a->offering[0] ? a->offering : preset->gpu, price_type_names[q->type],
			 preset->price_checked);
	else
		snprintf(q->missing, sizeof q->missing,
			 "no price in the catalog for %.60s (%.30s %.60s %s); give candidates[].price",
			 preset->id.name, a->provider, a->offering[0] ? a->offering : preset->gpu,
			 price_type_names[q->type]);
}

/* Fill *q from the catalog's price for the ask; fails naming what is missing,
 * except for the implicit ask of a preset (`implicit`, else NULL), which
 * leaves the price unknown with the reason in q->missing. */
/* A capacity block's booking rule, from its billing record (none: billed
 * by the granularity and minimum alone). */
static void quote_blocks(struct price_quote *q, const struct billing_spec *b)
{
	if (b == NULL || !(b->block_h > 0))
		return;
	q->block_s = b->block_h * 3600;
	q->block_long_after_s = b->block_long_after_h * 3600;
	q->block_long_s = b->block_long_h * 3600;
	q->block_max_s = b->block_max_h * 3600;
}

static int price_from_catalog(struct jread *r, const catalog *cat, const struct price_ask *a,
			      const char *gpu_name, const struct preset_spec *implicit,
			      struct price_quote *q)
{
	if (!catalog_provider_known(cat, a->provider)) {
		if (implicit != NULL) {
			price_missing(a, implicit, q);
			return 0;
		}
		char qn[96];
		text_quote(a->provider, qn, sizeof qn);
		return jread_fail(r, "unknown provider %s (see clustersim catalog prices)", qn);
	}
	const struct price_spec *p = catalog_price_find(cat, a->provider, q->type, a->offering,
							gpu_name, a->term);
	/* An instance type is not priced by another one with the same GPU (p5e is
	 * not p5en); a provider-wide per-GPU price (no offering) still applies. */
	if (p != NULL && a->offering[0] && p->offering[0] && !text_equal_nocase(p->offering, a->offering))
		p = NULL;
	const struct price_spec *rival = catalog_price_rival(cat, p, a->offering, gpu_name, a->term);
	if (rival != NULL)
		return jread_fail(r, "the catalog's %s prices of %.40s for %.60s are ambiguous: offering \"%.60s\" "
				  "(%g) and \"%.60s\" (%g) both match; give price.offering",
				  price_type_names[q->type], p->provider, gpu_name, p->offering,
				  p->usd_per_gpu_hour, rival->offering, rival->usd_per_gpu_hour);
	if (p == NULL) {
		if (implicit != NULL) {
			price_missing(a, implicit, q);
			return 0;
		}
		char msg[256];
		snprintf(msg, sizeof msg, "the catalog has no %s%s%s price for %s from %s; give usd_per_gpu_hour",
			 a->term[0] ? a->term : "", a->term[0] ? " " : "", price_type_names[q->type],
			 gpu_name, a->provider);
		return jread_fail(r, "%s", msg);
	}
	q->known = true;
	q->usd_per_gpu_hour = p->usd_per_gpu_hour;
	q->usd_per_gpu_hour_low = p->usd_per_gpu_hour_low;
	q->usd_per_gpu_hour_high = p->usd_per_gpu_hour_high;
	q->age_years = price_band_age_years(p->observed, catalog_as_of(cat));
	const struct billing_spec *rec;
	catalog_price_billing(cat, p, &q->billing_s, &q->minimum_s, &rec);
	quote_blocks(q, rec);
	if (q->type == PRICE_RESERVED) {
		/* the on-demand price a commitment is weighed against: the same
		 * offering's (or the provider's per-GPU one) */
		const struct price_spec *od = catalog_price_find(cat, a->provider, PRICE_ON_DEMAND, p->offering,
								 p->gpu, NULL);
		if (od != NULL && (!od->offering[0] || !p->offering[0] ||
				   text_equal_nocase(od->offering, p->offering)))
			q->on_demand_usd_per_gpu_hour = od->usd_per_gpu_hour;
	}
	text_copy(q->term, sizeof q->term, p->term);
	text_copy(q->observed, sizeof q->observed, p->observed);
	snprintf(q->basis, sizeof q->basis, "%.40s %.60s %s%s%.20s (%.100s)", p->provider,
		 p->offering[0] ? p->offering : p->gpu, price_type_names[p->type],
		 p->term[0] ? " " : "", p->term, p->source);
	if (catalog_price_stale(cat, p))
		snprintf(q->stale, sizeof q->stale,
			 "the %.40s %.60s %s price (%.100s) was observed %.12s, over a year before "
			 "the catalog's as_of %.12s", p->provider, p->offering[0] ? p->offering : p->gpu,
			 price_type_names[p->type], p->source, p->observed, catalog_as_of(cat));
	else if (p->observed[0] == '\0' && catalog_as_of(cat)[0] != '\0')
		snprintf(q->stale, sizeof q->stale,
			 "the %.40s %.60s %s price (%.100s) has no observation date, so its age is unknown",
			 p->provider, p->offering[0] ? p->offering : p->gpu, price_type_names[p->type],
			 p->source);
	return 0;
}

/* The cluster's price: a price the scenario gives, else the catalog's for
 * the provider, else unknown. `v` is the price object or NULL. */
static int read_price(struct jread *r, const json_t *v, const catalog *cat,
		      const struct preset_spec *preset, const char *gpu_name, struct price_quote *q)
{
	struct price_ask a;
	memset(q, 0, sizeof *q);
	q->preemptions_per_instance_h = -1;
	if (read_price_ask(r, v, cat, preset, gpu_name, &a) < 0)
		return -1;
	q->type = (enum price_type)a.type;
	q->preemptions_per_instance_h = a.preemptions_per_instance_h;
	q->preemption_notice_s = a.preemption_notice_s;
	if (q->type == PRICE_SPOT && q->preemption_notice_s < 0)
		q->preemption_notice_s = catalog_billing_find(cat, a.provider, q->type, a.term)->spot_notice_s;
	q->capacity_wait_s = a.capacity_wait_s;
	if (q->type == PRICE_OWNED)
		return 0;  /* priced by read_owned_price(), which knows the node */
	text_copy(q->provider, sizeof q->provider, a.provider);
	text_copy(q->term, sizeof q->term, a.term);
	if (a.usd_per_gpu_hour > 0) {
		/* a price of the scenario's own is metered as its provider meters
		 * (hourly when it names none) */
		const struct billing_spec *b = catalog_billing_find(cat, a.provider, q->type, a.term);
		q->billing_s = b->granularity_s;
		q->minimum_s = b->minimum_s;
		quote_blocks(q, b);
		q->known = true;
		q->usd_per_gpu_hour = q->usd_per_gpu_hour_low = q->usd_per_gpu_hour_high = a.usd_per_gpu_hour;
		snprintf(q->basis, sizeof q->basis, "scenario");
	} else if (a.provider[0] &&
		   price_from_catalog(r, cat, &a, gpu_name, v == NULL ? preset : NULL, q) < 0) {
		return -1;
	}
	if (!q->known) {
		q->billing_s = 3600;
		q->minimum_s = 0;
	}
	if (a.billing_s > 0)
		q->billing_s = a.billing_s;
	if (a.minimum_s >= 0)
		q->minimum_s = a.minimum_s;
	return 0;
}

/* The `owned` price basis: energy (node power x PUE x electricity price)
 * plus the fixed costs (the purchase amortized over its life, colocation)
 * over the utilization, per GPU-hour (cost/owned.h). The node's power is
 * the preset's node_power_kw unless the price gives node_power_kw; the
 * purchase is the preset's list price (catalog purchase_usd) unless the
 * price gives purchase_usd. Owned hardware is not billed by a provider:
 * every second used counts, with no minimum. `v` is the price object. */
static int read_owned_price(struct jread *r, const json_t *v, const struct preset_spec *preset,
			    struct cluster_spec *c)
{
	static const char *const other[] = { "provider", "term", "offering", "usd_per_gpu_hour", "billing_s",
					     "minimum_s", NULL };
	struct owned_terms t = { .node_power_w = c->node_power_w, .utilization = 1 };
	double kw = 0;
	struct price_quote *q = &c->price;
	for (int i = 0; other[i] != NULL; i++) {
		if (json_object_get(v, other[i]) != NULL) {
			(void)jread_enter_key(r, other[i]);  /* the error names the key */
			return jread_fail(r, "not used by an owned price (it is priced from pue, usd_per_kwh, "
					  "purchase_usd and life_years)");
		}
	}
	/* the preset's list price fits only the preset's node */
	bool listed = preset != NULL && preset->purchase_usd > 0 && preset->gpus_per_node == c->gpus_per_node &&
		      text_equal_nocase(preset->gpu, c->gpu.id.name);
	if (listed)
		t.purchase_usd = preset->purchase_usd;
	if (key_need(r, v, "pue") < 0 || key_real(r, v, KS_PRICE, "pue", &t.pue) < 0 ||
	    key_need(r, v, "usd_per_kwh") < 0 || key_real(r, v, KS_PRICE, "usd_per_kwh", &t.usd_per_kwh) < 0 ||
	    (!listed && key_need(r, v, "purchase_usd") < 0) ||
	    key_real(r, v, KS_PRICE, "purchase_usd", &t.purchase_usd) < 0 ||
	    key_need(r, v, "life_years") < 0 || key_real(r, v, KS_PRICE, "life_years", &t.life_years) < 0 ||
	    key_real(r, v, KS_PRICE, "colo_usd_per_kw_month", &t.colo_usd_per_kw_month) < 0 ||
	    key_real(r, v, KS_PRICE, "utilization", &t.utilization) < 0 ||
	    key_real(r, v, KS_PRICE, "node_power_kw", &kw) < 0)
		return -1;
	if (kw > 0)
		t.node_power_w = kw * 1000;
	if (t.node_power_w <= 0)
		return jread_fail(r, "an owned price needs the node's power: %s has no node_power_kw in the "
				  "catalog; give price.node_power_kw", c->preset[0] ? c->preset : "a cluster without a preset");
	q->known = true;
	q->usd_per_gpu_hour = owned_usd_per_gpu_hour(&t, c->gpus_per_node);
	q->usd_per_gpu_hour_low = q->usd_per_gpu_hour_high = q->usd_per_gpu_hour;
	q->billing_s = 1;
	q->minimum_s = 0;
	q->owned_energy_usd_per_gpu_hour = owned_energy_usd_per_node_hour(&t) / c->gpus_per_node;
	q->owned_fixed_usd_per_gpu_hour =
		(owned_amortized_usd_per_node_hour(&t) + owned_colo_usd_per_node_hour(&t)) / c->gpus_per_node;
	q->owned_utilization = t.utilization;
	snprintf(q->basis, sizeof q->basis,
		 "owned: %g kW x PUE %g x $%g/kWh = $%.4g/node-h energy + ($%g%s over %g years = $%.4g/node-h "
		 "amortized + $%.4g/node-h colocation) / utilization %g, over %d GPUs", t.node_power_w / 1000, t.pue,
		 t.usd_per_kwh, owned_energy_usd_per_node_hour(&t), t.purchase_usd,
		 listed && json_object_get(v, "purchase_usd") == NULL ? " list price" : "", t.life_years,
		 owned_amortized_usd_per_node_hour(&t), owned_colo_usd_per_node_hour(&t), t.utilization,
		 c->gpus_per_node);
	return 0;
}

/* ---- the cluster -------------------------------------------------------- */

/* The values a cluster has when neither it nor a preset gives them. */
static void set_defaults(struct cluster_spec *c)
{
	memset(c, 0, sizeof *c);
	c->nodes = 1;
	c->gpus_per_node = 8;
	c->topology.kind = TOPO_RAIL;
	c->topology.oversubscription = 1;
	c->topology.nodes_per_leaf = 32;
}

/* The preset c->preset names (if any) gives the defaults of every field. */
static int apply_preset(struct jread *r, const catalog *cat, struct cluster_spec *c,
			struct candidate_names *n, const struct preset_spec **out)
{
	*out = NULL;
	if (c->preset[0] == '\0')
		return 0;
	const struct preset_spec *p = catalog_preset(cat, c->preset);
	if (p == NULL)
		return reader_unknown_name(r, cat, CAT_PRESETS, "preset", "preset", c->preset);
	text_copy(c->preset, sizeof c->preset, p->id.name);
	text_copy(n->gpu, sizeof n->gpu, p->gpu);
	c->gpus_per_node = p->gpus_per_node;
	text_copy(n->scale_up, sizeof n->scale_up, p->scale_up);
	text_copy(n->nic, sizeof n->nic, p->nic);
	c->nics_per_node = p->nics_per_node;
	c->topology = p->topology;
	c->node_power_w = p->node_power_w;
	*out = p;
	return 0;
}

/* Look a fabric name up; it must be of kind `want`. Fails at `key`. */
static int fabric_ref(struct jread *r, const catalog *cat, const char *key, const char *name,
		      enum fabric_kind want, struct fabric_spec *out)
{
	const struct fabric_spec *f = catalog_fabric(cat, name);
	if (f == NULL)
		return reader_unknown_name(r, cat, CAT_FABRICS, key, "fabric", name);
	if (f->kind != want) {
		char msg[192];
		snprintf(msg, sizeof msg, "fabric \"%s\" is a %s fabric, not %s", f->id.name,
			 fabric_kind_names[f->kind], fabric_kind_names[want]);
		return reader_fail_at(r, key, msg);
	}
	*out = *f;
	return 0;
}

/* A `gpu` written over a preset that names another GPU brings its own
 * scale-up fabric unless `scale_up` is written too: an H800 in a dgx-h100
 * preset gets its nvlink4-h800 (200 GB/s per direction), not the H100's
 * 450 GB/s NVLink 4 (scenarios/catalog/gpus.json, scale_up). */
static void gpu_scale_up_default(const json_t *v, const catalog *cat, const struct preset_spec *preset,
				 struct candidate_names *n, const struct cluster_spec *c)
{
	if (preset == NULL || json_object_get(v, "gpu") == NULL || json_object_get(v, "scale_up") != NULL)
		return;
	const struct gpu_spec *own = catalog_gpu(cat, preset->gpu);
	if (own != NULL && strcmp(own->id.name, c->gpu.id.name) == 0)
		return;
	if (c->gpu.scale_up[0])
		text_copy(n->scale_up, sizeof n->scale_up, c->gpu.scale_up);
}

/* The GPU, at most 4 million of them, its host link when the catalog has
 * it, and its scale-up fabric when it replaces a preset's GPU. An unknown
 * GPU is blamed on `gpu`, or on the preset that named it. */
static int resolve_gpu(struct jread *r, const json_t *v, const catalog *cat, const struct preset_spec *preset,
		       struct candidate_names *n, struct cluster_spec *c)
{
	const struct gpu_spec *gpu = catalog_gpu(cat, n->gpu);
	if (gpu == NULL)
		return reader_unknown_name(r, cat, CAT_GPUS, json_object_get(v, "gpu") ? "gpu" : "preset",
					   "GPU", n->gpu);
	c->gpu = *gpu;
	if (cluster_gpus(c) > 4000000)
		return reader_fail_at(r, "nodes", "more than 4 million GPUs");
	const struct fabric_spec *h = gpu->host_link[0] ? catalog_fabric(cat, gpu->host_link) : NULL;
	if (h != NULL && h->kind == FABRIC_HOST) {
		c->host = *h;
		c->has_host = true;
	}
	gpu_scale_up_default(v, cat, preset, n, c);
	return 0;
}

/* The scale-up fabric (the GPU's own by default), whose domain must hold a
 * node's GPUs, and the scale-out NIC, which more than one node needs. */
static int resolve_fabrics(struct jread *r, const catalog *cat, struct candidate_names *n,
			   struct cluster_spec *c)
{
	if (n->scale_up[0] == '\0')
		text_copy(n->scale_up, sizeof n->scale_up, c->gpu.scale_up);
	if (n->scale_up[0] == '\0')
		return reader_fail_at(r, "scale_up", "missing: the GPU has no default scale-up fabric");
	if (fabric_ref(r, cat, "scale_up", n->scale_up, FABRIC_SCALE_UP, &c->scale_up) < 0)
		return -1;
	if (c->scale_up.topology != FTOPO_BRIDGE && c->scale_up.domain_gpus > 0 &&
	    c->gpus_per_node > c->scale_up.domain_gpus && c->scale_up.topology != FTOPO_HOST) {
		char msg[160];
		snprintf(msg, sizeof msg, "%d GPUs per node exceed the %d-GPU domain of %s",
			 c->gpus_per_node, c->scale_up.domain_gpus, c->scale_up.id.name);
		return reader_fail_at(r, "gpus_per_node", msg);
	}
	if (n->nic[0]) {
		if (fabric_ref(r, cat, "nic", n->nic, FABRIC_SCALE_OUT, &c->nic) < 0)
			return -1;
		c->has_nic = true;
		if (c->nics_per_node == 0)
			c->nics_per_node = c->gpus_per_node;
	} else if (c->nodes > 1) {
		return reader_fail_at(r, "nic", "missing: more than one node needs a scale-out NIC");
	}
	return 0;
}

/* The `topology` object, over the preset's (or the default) topology. */
static int read_topology(struct jread *r, const json_t *x, struct topology_spec *t)
{
	int kind = (int)t->kind;
	if (key_object(r, x, KS_TOPOLOGY) < 0 ||
	    key_enum(r, x, KS_TOPOLOGY, "kind", &kind) < 0 ||
	    key_real(r, x, KS_TOPOLOGY, "oversubscription", &t->oversubscription) < 0 ||
	    key_int32(r, x, KS_TOPOLOGY, "nodes_per_leaf", &t->nodes_per_leaf) < 0)
		return -1;
	t->kind = (enum topology_kind)kind;
	return 0;
}

/* The fields after the preset: GPU name (required without a preset), counts
 * and fabric names. */
static int read_fields(struct jread *r, const json_t *v, bool has_preset,
		       struct candidate_names *n, struct cluster_spec *c)
{
	if (jread_string(r, v, "gpu", !has_preset, n->gpu, sizeof n->gpu) < 0 ||
	    key_int32(r, v, KS_CANDIDATE, "nodes", &c->nodes) < 0 ||
	    key_int32(r, v, KS_CANDIDATE, "gpus_per_node", &c->gpus_per_node) < 0 ||
	    jread_string(r, v, "scale_up", false, n->scale_up, sizeof n->scale_up) < 0 ||
	    jread_string(r, v, "nic", false, n->nic, sizeof n->nic) < 0 ||
	    key_int32(r, v, KS_CANDIDATE, "nics_per_node", &c->nics_per_node) < 0)
		return -1;
	return 0;
}

/* The `topology` and `storage` objects when given; a cluster without
 * `storage` takes its preset's tiers. */
static int read_topology_and_storage(struct jread *r, const json_t *v, const catalog *cat,
				     const struct preset_spec *preset, struct cluster_spec *c)
{
	const json_t *x;
	size_t mark;
	if ((x = json_object_get(v, "topology")) != NULL) {
		mark = jread_enter_key(r, "topology");
		if (read_topology(r, x, &c->topology) < 0)
			return -1;
		jread_leave(r, mark);
	}
	if ((x = json_object_get(v, "storage")) != NULL) {
		mark = jread_enter_key(r, "storage");
		if (read_storage_list(r, x, cat, c) < 0)
			return -1;
		jread_leave(r, mark);
	} else if (preset != NULL) {
		take_preset_storage(cat, preset, c);
	}
	return 0;
}

/* "<nodes> x <preset>" or "<nodes> x <gpus per node> <gpu>". */
static void default_name(const struct preset_spec *preset, struct cluster_spec *c)
{
	if (preset != NULL)
		snprintf(c->name, sizeof c->name, "%d x %s", c->nodes, preset->id.name);
	else
		snprintf(c->name, sizeof c->name, "%d x %d %s", c->nodes, c->gpus_per_node, c->gpu.id.name);
}

int candidate_read(struct jread *r, const json_t *v, const catalog *cat, struct cluster_spec *c)
{
	const struct preset_spec *preset;
	struct candidate_names names = { "", "", "" };
	char desc[CAT_TEXT_MAX];

	set_defaults(c);
	if (key_object(r, v, KS_CANDIDATE) < 0 ||
	    jread_string(r, v, "name", false, c->name, sizeof c->name) < 0 ||
	    jread_string(r, v, "description", false, desc, sizeof desc) < 0 ||
	    jread_string(r, v, "preset", false, c->preset, sizeof c->preset) < 0 ||
	    apply_preset(r, cat, c, &names, &preset) < 0 ||
	    read_fields(r, v, preset != NULL, &names, c) < 0 ||
	    resolve_gpu(r, v, cat, preset, &names, c) < 0 ||
	    resolve_fabrics(r, cat, &names, c) < 0 ||
	    read_topology_and_storage(r, v, cat, preset, c) < 0)
		return -1;
	const json_t *price = json_object_get(v, "price");
	size_t mark = price != NULL ? jread_enter_key(r, "price") : 0;
	if (read_price(r, price, cat, preset, c->gpu.id.name, &c->price) < 0 ||
	    (c->price.type == PRICE_OWNED && read_owned_price(r, price, preset, c) < 0))
		return -1;
	if (price != NULL)
		jread_leave(r, mark);
	if (c->name[0] == '\0')
		default_name(preset, c);
	return 0;
}
