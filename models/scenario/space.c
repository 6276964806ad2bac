#include "space.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <assert.h>

#include "models/scenario/candidate.h"
#include "models/scenario/keys.h"
#include "models/scenario/reader.h"
#include "util/error.h"
#include "util/text.h"
#include "util/xalloc.h"

struct space {
	char file[1024];
	json_t **bases;            /* owned cluster objects */
	char (*labels)[CAT_TEXT_MAX];
	bool *from_preset;         /* a preset the block names, not a candidate */
	size_t n_bases;
	int *types;                /* enum price_type; none: each base's own */
	char (*terms)[CAT_NAME_MAX];  /* each type's commitment term ("" none: a reserved type's any) */
	size_t n_types;
	int *nodes;                /* none: each base's own node count */
	size_t n_nodes;
	char (*gpus)[CAT_NAME_MAX];  /* the GPUs kept (catalog names); none: all */
	size_t n_gpus;
	char (*providers)[CAT_NAME_MAX];
	size_t n_providers;
	bool mix;                  /* serving: search mixes of two GPU types too */
	/* "spot": the preemptions of spot shapes whose base gives none (given: rate >= 0) */
	double preemptions_per_instance_h, capacity_wait_s, preemption_notice_s;  /* < 0: not given */
	double tie_tolerance;      /* < 0: not given */
	bool disaggregated;        /* serving: search prefill/decode splits too */
};

static space *space_new(const char *file)
{
	space *sp = xcalloc(1, sizeof *sp);
	text_copy(sp->file, sizeof sp->file, file);
	sp->preemptions_per_instance_h = sp->capacity_wait_s = sp->preemption_notice_s = -1;
	sp->tie_tolerance = -1;
	return sp;
}

static void add_base(space *sp, json_t *obj, const char *label, bool from_preset)
{
	size_t n = sp->n_bases + 1;
	sp->bases = xreallocarray(sp->bases, n, sizeof *sp->bases);
	sp->labels = xreallocarray(sp->labels, n, sizeof *sp->labels);
	sp->from_preset = xreallocarray(sp->from_preset, n, sizeof *sp->from_preset);
	sp->bases[sp->n_bases] = obj;
	text_copy(sp->labels[sp->n_bases], sizeof sp->labels[0], label);
	sp->from_preset[sp->n_bases] = from_preset;
	sp->n_bases = n;
}

/* Each candidate object as a base, labelled with its name. */
static void add_candidates(space *sp, const json_t *candidates)
{
	size_t i;
	json_t *e;
	json_array_foreach(candidates, i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		char label[CAT_TEXT_MAX];
		if (name != NULL)
			text_copy(label, sizeof label, name);
		else
			snprintf(label, sizeof label, "candidate %zu", i);
		add_base(sp, json_deep_copy(e), label, false);
	}
}

space *space_of_candidates(const json_t *candidates, const char *file)
{
	space *sp = space_new(file);
	add_candidates(sp, candidates);
	return sp;
}

/* "presets": "all" or an array of catalog preset names. */
static int read_presets(struct jread *r, const json_t *v, const catalog *cat, space *sp)
{
	size_t i;
	json_t *e;
	if (json_is_string(v) && strcmp(json_string_value(v), "all") == 0) {
		for (size_t k = 0; k < catalog_preset_count(cat); k++) {
			const struct preset_spec *p = catalog_preset_at(cat, k);
			add_base(sp, json_pack("{s:s}", "preset", p->id.name), p->id.name, true);
		}
		return 0;
	}
	if (!json_is_array(v) || json_array_size(v) == 0)
		return jread_fail_value(r, v, "\"all\" or an array of preset names");
	json_array_foreach(v, i, e) {
		size_t mark = jread_enter_index(r, i);
		const struct preset_spec *p = json_is_string(e) ? catalog_preset(cat, json_string_value(e)) : NULL;
		if (!json_is_string(e))
			return jread_fail_value(r, e, "a preset name");
		if (p == NULL)
			return reader_unknown_name(r, cat, CAT_PRESETS, NULL, "preset", json_string_value(e));
		add_base(sp, json_pack("{s:s}", "preset", p->id.name), p->id.name, true);
		jread_leave(r, mark);
	}
	return 0;
}

/* "gpus": GPU names (catalog names or aliases), kept as the catalog's names. */
static int read_gpus(struct jread *r, const json_t *v, const catalog *cat, space *sp)
{
	size_t i;
	json_t *e;
	if (!json_is_array(v) || json_array_size(v) == 0)
		return jread_fail_value(r, v, "an array of GPU names");
	sp->gpus = xcalloc(json_array_size(v), sizeof *sp->gpus);
	json_array_foreach(v, i, e) {
		size_t mark = jread_enter_index(r, i);
		const struct gpu_spec *g = json_is_string(e) ? catalog_gpu(cat, json_string_value(e)) : NULL;
		if (!json_is_string(e))
			return jread_fail_value(r, e, "a GPU name");
		if (g == NULL)
			return reader_unknown_name(r, cat, CAT_GPUS, NULL, "gpu", json_string_value(e));
		text_copy(sp->gpus[sp->n_gpus++], sizeof sp->gpus[0], g->id.name);
		jread_leave(r, mark);
	}
	return 0;
}

static int read_providers(struct jread *r, const json_t *v, const catalog *cat, space *sp)
{
	size_t i;
	json_t *e;
	if (!json_is_array(v) || json_array_size(v) == 0)
		return jread_fail_value(r, v, "an array of provider names");
	sp->providers = xcalloc(json_array_size(v), sizeof *sp->providers);
	json_array_foreach(v, i, e) {
		size_t mark = jread_enter_index(r, i);
		if (!json_is_string(e))
			return jread_fail_value(r, e, "a provider name");
		if (!catalog_provider_known(cat, json_string_value(e)))
			return jread_fail(r, "unknown provider %s (see clustersim catalog prices)", json_string_value(e));
		text_copy(sp->providers[sp->n_providers++], sizeof sp->providers[0], json_string_value(e));
		jread_leave(r, mark);
	}
	return 0;
}

/* The commitment terms a price type may name: "reserved-1y", "reserved-3y"
 * (the catalog's reserved rows' terms: 1- and 3-year commitments). */
static const char *const commit_terms[] = { "1y", "3y" };

/* Price type name `name` into *type and *term: a price_type_names entry
 * but owned (term ""), or "reserved-" and a commitment term; false when
 * it is neither. */
static bool parse_type(const char *name, int *type, char *term, size_t term_size)
{
	term[0] = '\0';
	for (int k = 0; price_type_names[k] != NULL; k++)
		if (strcmp(price_type_names[k], name) == 0 && k != PRICE_OWNED) {
			*type = k;
			return true;
		}
	for (size_t k = 0; k < sizeof commit_terms / sizeof commit_terms[0]; k++) {
		char label[PRICE_TYPE_LABEL_MAX];
		price_type_label(PRICE_RESERVED, commit_terms[k], label, sizeof label);
		if (strcmp(label, name) == 0) {
			*type = PRICE_RESERVED;
			text_copy(term, term_size, commit_terms[k]);
			return true;
		}
	}
	return false;
}

/* "price_types": an array of price type names; "reserved-1y" and
 * "reserved-3y" are reserved prices of that term, "reserved" alone the
 * base's first reserved row, whatever its term (as a candidate's
 * {"type": "reserved"} without "term"). */
static int read_types(struct jread *r, const json_t *v, space *sp)
{
	size_t i;
	json_t *e;
	static const char *const expected = "on-demand, spot, reserved, reserved-1y, reserved-3y or capacity-block";
	if (!json_is_array(v) || json_array_size(v) == 0)
		return jread_fail_value(r, v, "an array of price types (on-demand, spot, reserved, reserved-1y, "
				       "reserved-3y, capacity-block)");
	sp->types = xcalloc(json_array_size(v), sizeof *sp->types);
	sp->terms = xcalloc(json_array_size(v), sizeof *sp->terms);
	json_array_foreach(v, i, e) {
		size_t mark = jread_enter_index(r, i);
		int t = -1;
		if (!json_is_string(e) ||
		    !parse_type(json_string_value(e), &t, sp->terms[sp->n_types], sizeof sp->terms[0]))
			return jread_fail_value(r, e, expected);
		sp->types[sp->n_types++] = t;
		jread_leave(r, mark);
	}
	return 0;
}

/* "nodes": an array of counts, or {"min": A, "max": B} (every count between). */
static int read_nodes(struct jread *r, const json_t *v, space *sp)
{
	size_t i;
	json_t *e;
	if (json_is_object(v)) {
		int64_t lo = 1, hi = 0;
		if (key_object(r, v, KS_SEARCH_NODES) < 0 || key_int(r, v, KS_SEARCH_NODES, "min", &lo) < 0 ||
		    key_int(r, v, KS_SEARCH_NODES, "max", &hi) < 0)
			return -1;
		if (hi < lo)
			return reader_fail_at(r, "max", "max is below min");
		sp->nodes = xcalloc((size_t)(hi - lo + 1), sizeof *sp->nodes);
		for (int64_t n = lo; n <= hi; n++)
			sp->nodes[sp->n_nodes++] = (int)n;
		return 0;
	}
	if (!json_is_array(v) || json_array_size(v) == 0)
		return jread_fail_value(r, v, "an array of node counts or {\"min\": A, \"max\": B}");
	sp->nodes = xcalloc(json_array_size(v), sizeof *sp->nodes);
	json_array_foreach(v, i, e) {
		size_t mark = jread_enter_index(r, i);
		int64_t n;
		if (jread_value_int(r, e, 1, 100000, &n) < 0)
			return -1;
		sp->nodes[sp->n_nodes++] = (int)n;
		jread_leave(r, mark);
	}
	return 0;
}

/* "spot": {"preemptions_per_instance_h", "capacity_wait_s", "preemption_notice_s"}:
 * the preemptions of the spot shapes whose base price gives none, with the
 * same ranges as a candidate's price (models/scenario/candidate.c); the rate
 * and the wait are both required (no sourced default for either). */
static int read_spot(struct jread *r, const json_t *v, space *sp)
{
	if (key_object(r, v, KS_SEARCH_SPOT) < 0 ||
	    key_real(r, v, KS_SEARCH_SPOT, "preemptions_per_instance_h", &sp->preemptions_per_instance_h) < 0 ||
	    key_real(r, v, KS_SEARCH_SPOT, "capacity_wait_s", &sp->capacity_wait_s) < 0 ||
	    key_real(r, v, KS_SEARCH_SPOT, "preemption_notice_s", &sp->preemption_notice_s) < 0)
		return -1;
	return 0;
}

space *space_read(struct jread *r, const json_t *x, const json_t *candidates, const catalog *cat,
		  const char *file)
{
	space *sp = space_new(file);
	const json_t *v;
	size_t mark;

	if (key_object(r, x, KS_SEARCH) < 0 || jread_bool(r, x, "mix", false, &sp->mix) < 0 ||
	    key_real(r, x, KS_SEARCH, "tie_tolerance", &sp->tie_tolerance) < 0 ||
	    jread_bool(r, x, "disaggregated", false, &sp->disaggregated) < 0)
		goto out_free;
#define SPACE_PART(key, call)                                   \
	if ((v = json_object_get(x, key)) != NULL) {            \
		mark = jread_enter_key(r, key);                 \
		if ((call) < 0)                                 \
			goto out_free;                          \
		jread_leave(r, mark);                           \
	}
	SPACE_PART("presets", read_presets(r, v, cat, sp))
	SPACE_PART("gpus", read_gpus(r, v, cat, sp))
	SPACE_PART("providers", read_providers(r, v, cat, sp))
	SPACE_PART("price_types", read_types(r, v, sp))
	SPACE_PART("nodes", read_nodes(r, v, sp))
	SPACE_PART("spot", read_spot(r, v, sp))
#undef SPACE_PART
	if (sp->n_bases == 0)
		add_candidates(sp, candidates);
	if (space_count(sp) > SPACE_MAX_SHAPES) {
		jread_fail(r, "%zu shapes (bases x price types x node counts) are more than the %d one search may have",
			   space_count(sp), SPACE_MAX_SHAPES);
		goto out_free;
	}
	return sp;
out_free:
	space_free(sp);
	return NULL;
}

bool space_mix(const space *sp)
{
	return sp->mix;
}

double space_tie_tolerance(const space *sp)
{
	return sp->tie_tolerance;
}

bool space_disaggregated(const space *sp)
{
	return sp->disaggregated;
}

size_t space_count(const space *sp)
{
	return sp->n_bases * (sp->n_types ? sp->n_types : 1) * (sp->n_nodes ? sp->n_nodes : 1);
}

static bool listed(char (*list)[CAT_NAME_MAX], size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(list[i], name) == 0)
			return true;
	return false;
}

/* The preemption fields of a price object. */
static const char *const preemption_keys[] = { "preemptions_per_instance_h", "capacity_wait_s",
						"preemption_notice_s" };

/*
 * The price object of shape type t and term (a reserved type's
 * commitment term, "" for any) of base `obj` (changed in place). The
 * base's own type (its price's "type", on-demand when it gives none) keeps
 * the base's price as written, unless the shape names a term other than
 * the base's. Another type or term drops the base's own dollars and term
 * (they are that type's: the other type's price comes from the catalog, by
 * the base's provider, and the shape's term picks its row) and, unless it
 * is spot, its preemption fields (only a spot price has them). A spot
 * shape whose price gives no preemption rate takes the search block's
 * "spot" fields.
 */
static void shape_price(const space *sp, json_t *obj, enum price_type t, const char *term)
{
	json_t *price = json_object_get(obj, "price");
	if (!json_is_object(price))
		json_object_set_new(obj, "price", price = json_object());
	const char *own = json_string_value(json_object_get(price, "type"));
	const char *own_term = json_string_value(json_object_get(price, "term"));
	if (own == NULL)
		own = price_type_names[PRICE_ON_DEMAND];
	if (strcmp(own, price_type_names[t]) != 0 ||
	    (term[0] != '\0' && (own_term == NULL || strcmp(own_term, term) != 0))) {
		json_object_del(price, "usd_per_gpu_hour");
		json_object_del(price, "term");
		if (t != PRICE_SPOT)
			for (size_t k = 0; k < sizeof preemption_keys / sizeof preemption_keys[0]; k++)
				json_object_del(price, preemption_keys[k]);
	}
	json_object_set_new(price, "type", json_string(price_type_names[t]));
	if (term[0] != '\0')
		json_object_set_new(price, "term", json_string(term));
	if (t != PRICE_SPOT || sp->preemptions_per_instance_h < 0 ||
	    json_object_get(price, "preemptions_per_instance_h") != NULL)
		return;
	json_object_set_new(price, "preemptions_per_instance_h", json_real(sp->preemptions_per_instance_h));
	json_object_set_new(price, "capacity_wait_s", json_real(sp->capacity_wait_s));
	if (sp->preemption_notice_s >= 0)
		json_object_set_new(price, "preemption_notice_s", json_real(sp->preemption_notice_s));
}

/* The spot price type of a base without price_types: its own price's. */
static bool base_is_spot(const json_t *obj)
{
	const char *type = json_string_value(json_object_get(json_object_get(obj, "price"), "type"));
	return type != NULL && strcmp(type, price_type_names[PRICE_SPOT]) == 0;
}

/* The candidate object of shape i: the base with the shape's node count,
 * price and name (caller decrefs). */
static json_t *shape_object(const space *sp, size_t i)
{
	size_t nn = sp->n_nodes ? sp->n_nodes : 1, nt = sp->n_types ? sp->n_types : 1;
	size_t b = i / (nn * nt), t = i / nn % nt, n = i % nn;
	json_t *obj = json_deep_copy(sp->bases[b]);
	char name[CAT_TEXT_MAX * 2];
	size_t used;

	assert(i < space_count(sp));
	if (sp->n_nodes)
		json_object_set_new(obj, "nodes", json_integer(sp->nodes[n]));
	if (sp->n_types)
		shape_price(sp, obj, (enum price_type)sp->types[t], sp->terms[t]);
	else if (base_is_spot(obj))
		shape_price(sp, obj, PRICE_SPOT, "");
	/* the shape's name: the base, its node count, its price type */
	if (sp->from_preset[b])
		used = (size_t)snprintf(name, sizeof name, "%d x %s",
					(int)json_integer_value(json_object_get(obj, "nodes")) > 0
						? (int)json_integer_value(json_object_get(obj, "nodes")) : 1,
					sp->labels[b]);
	else if (sp->n_nodes)
		used = (size_t)snprintf(name, sizeof name, "%s @ %d nodes", sp->labels[b], sp->nodes[n]);
	else
		used = (size_t)snprintf(name, sizeof name, "%s", sp->labels[b]);
	if (sp->n_types && used < sizeof name) {
		char label[PRICE_TYPE_LABEL_MAX];
		price_type_label((enum price_type)sp->types[t], sp->terms[t], label, sizeof label);
		snprintf(name + used, sizeof name - used, ", %s", label);
	}
	json_object_set_new(obj, "name", json_string(name));
	return obj;
}

/* A candidate reader's message about a shape without "scenario 'FILE':
 * search." before it ("price: the catalog has no spot price ..."): the
 * shape is no place in the file. */
static const char *shape_message(const space *sp, const char *msg)
{
	char head[sizeof sp->file + 32];
	snprintf(head, sizeof head, "scenario '%s': search", strcmp(sp->file, "-") == 0 ? "<stdin>" : sp->file);
	size_t n = strlen(head);
	if (strncmp(msg, head, n) != 0)
		return msg;
	msg += n;
	return msg[0] == '.' ? msg + 1 : msg[0] == ':' && msg[1] == ' ' ? msg + 2 : msg;
}

bool space_shape(const space *sp, const catalog *cat, size_t i, struct cluster_spec *c, char *why, size_t why_size)
{
	json_t *obj = shape_object(sp, i);
	struct cs_error err;
	struct jread r;
	bool ok = true;

	memset(&err, 0, sizeof err);
	jread_init(&r, "scenario", sp->file, &err);
	size_t mark = jread_enter_key(&r, "search");
	if (candidate_read(&r, obj, cat, c) < 0) {
		ok = false;
		if (why != NULL)
			snprintf(why, why_size, "%s", shape_message(sp, err.msg));
	} else if (sp->n_gpus && !listed(sp->gpus, sp->n_gpus, c->gpu.id.name)) {
		ok = false;
		if (why != NULL)
			snprintf(why, why_size, "%s is not one of search.gpus", c->gpu.id.name);
	} else if (sp->n_providers && !listed(sp->providers, sp->n_providers, c->price.provider)) {
		ok = false;
		if (why != NULL)
			snprintf(why, why_size, "provider '%s' is not one of search.providers", c->price.provider);
	}
	jread_leave(&r, mark);
	json_decref(obj);
	return ok;
}

void space_shape_name(const space *sp, size_t i, char *buf, size_t size)
{
	json_t *obj = shape_object(sp, i);
	snprintf(buf, size, "%s", json_string_value(json_object_get(obj, "name")));
	json_decref(obj);
}

enum price_type space_shape_price_type(const space *sp, size_t i)
{
	size_t nn = sp->n_nodes ? sp->n_nodes : 1, nt = sp->n_types ? sp->n_types : 1;
	if (sp->n_types)
		return (enum price_type)sp->types[i / nn % nt];
	const char *own = json_string_value(json_object_get(json_object_get(sp->bases[i / (nn * nt)], "price"), "type"));
	for (int k = 0; own != NULL && price_type_names[k] != NULL; k++)
		if (strcmp(price_type_names[k], own) == 0)
			return (enum price_type)k;
	return PRICE_ON_DEMAND;
}

void space_shape_price_label(const space *sp, size_t i, char *buf, size_t size)
{
	json_t *obj = shape_object(sp, i);
	const json_t *price = json_object_get(obj, "price");
	const char *term = json_string_value(json_object_get(price, "term"));
	price_type_label(space_shape_price_type(sp, i), term, buf, size);
	json_decref(obj);
}

char *space_shape_json(const space *sp, size_t i)
{
	json_t *obj = shape_object(sp, i);
	char *text = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(obj);
	return text;
}

void space_free(space *sp)
{
	if (sp == NULL)
		return;
	for (size_t i = 0; i < sp->n_bases; i++)
		json_decref(sp->bases[i]);
	free(sp->bases);
	free(sp->labels);
	free(sp->from_preset);
	free(sp->types);
	free(sp->terms);
	free(sp->nodes);
	free(sp->gpus);
	free(sp->providers);
	free(sp);
}
