#include "catalog.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/catalog_read.h"
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
const char *const price_type_names[] = { "on-demand", "spot", "reserved", "owned", "capacity-block", NULL };
const char *const mlp_kind_names[] = { "gelu", "swiglu", NULL };
/* The engines the model knows (hw.h): the serving engines of
 * workload.serving.engine, then training's one entry. */
const char *const catalog_engine_names[] = { "vllm-v0", "vllm-v1", "trtllm", "sglang", "training", NULL };
const enum engine_kind catalog_engine_kinds[] = {
	ENGINE_SERVING, ENGINE_SERVING, ENGINE_SERVING, ENGINE_SERVING, ENGINE_TRAINING
};

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

/* A growable array of entries of one section. A borrowed section's items
 * are a constant table (the built-in catalog's, catalog_new_tables): never
 * written nor freed, copied to the heap by section_own before any change. */
struct section {
	void *items;
	size_t n, cap, size;
	bool borrowed;
};

struct catalog {
	struct section gpus, fabrics, storage, presets, prices, billing, models, sources, engines;
	char as_of[16];  /* the catalog's reference date (YYYY-MM-DD) for price ages */
};

static void *section_at(const struct section *s, size_t i)
{
	assert(i < s->n);
	return (char *)s->items + i * s->size;
}

/* Make a borrowed section's items the section's own (a heap copy). */
static void section_own(struct section *s)
{
	void *items;
	if (!s->borrowed)
		return;
	items = xcalloc(s->n ? s->n : 1, s->size);
	if (s->n > 0)
		memcpy(items, s->items, s->n * s->size);
	s->items = items;
	s->cap = s->n;
	s->borrowed = false;
}

static void *section_append(struct section *s)
{
	assert(!s->borrowed);
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
	{ "gpus", offsetof(struct catalog, gpus), sizeof(struct gpu_spec), MERGE_BY_NAME, catalog_read_gpu },
	{ "fabrics", offsetof(struct catalog, fabrics), sizeof(struct fabric_spec), MERGE_BY_NAME, catalog_read_fabric },
	{ "storage", offsetof(struct catalog, storage), sizeof(struct storage_spec), MERGE_BY_NAME, catalog_read_storage },
	{ "presets", offsetof(struct catalog, presets), sizeof(struct preset_spec), MERGE_BY_NAME, catalog_read_preset },
	{ "prices", offsetof(struct catalog, prices), sizeof(struct price_spec), MERGE_PREPEND, catalog_read_price },
	{ "billing", offsetof(struct catalog, billing), sizeof(struct billing_spec), MERGE_PREPEND, catalog_read_billing },
	{ "models", offsetof(struct catalog, models), sizeof(struct model_spec), MERGE_BY_NAME, catalog_read_model_entry },
	{ "sources", offsetof(struct catalog, sources), sizeof(struct catalog_source), MERGE_BY_ID, catalog_read_source },
	{ "engines", offsetof(struct catalog, engines), sizeof(struct engine_spec), MERGE_BY_NAME, catalog_read_engine },
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
		    : d->read == catalog_read_price ? same_price(e, o) : same_billing(e, o))
			break;
	}
	if (k == index)
		return 0;
	sibling_path(r, k, other, sizeof other);
	if (d->mode == MERGE_BY_ID) {
		const struct catalog_source *a = e;
		return jread_fail(r, "id \"%s\" is also the id of %s: give each entry once in a file", a->id, other);
	}
	if (d->read == catalog_read_price) {
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
		if (!catalog_read_iso_date(as_of, true)) {
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
		section_own(s);
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

catalog *catalog_new_tables(const struct catalog_tables *t)
{
	catalog *c = xcalloc(1, sizeof *c);
	const struct {
		struct section *s;
		const void *items;
		size_t n;
	} from[N_SECTIONS] = {
		{ &c->gpus, t->gpus, t->n_gpus }, { &c->fabrics, t->fabrics, t->n_fabrics },
		{ &c->storage, t->storage, t->n_storage }, { &c->presets, t->presets, t->n_presets },
		{ &c->prices, t->prices, t->n_prices }, { &c->billing, t->billing, t->n_billing },
		{ &c->models, t->models, t->n_models }, { &c->sources, t->sources, t->n_sources },
		{ &c->engines, t->engines, t->n_engines },
	};

	catalog_init(c);
	for (size_t k = 0; k < N_SECTIONS; k++) {
		/* const is kept by borrowed: nothing writes through items before section_own */
		from[k].s->items = (void *)from[k].items;
		from[k].s->n = from[k].n;
		from[k].s->borrowed = from[k].n > 0;
	}
	if (t->as_of != NULL)
		text_copy(c->as_of, sizeof c->as_of, t->as_of);
	return c;
}

catalog *catalog_new_json_files(const char *const *paths, size_t n, const char *what, struct cs_error *err)
{
	static const struct catalog_tables none = { 0 };
	catalog *c = catalog_new_tables(&none);

	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(paths[i], '/') != NULL ? strrchr(paths[i], '/') + 1 : paths[i];
		json_error_t jerr;
		json_t *root = json_load_file(paths[i], JSON_REJECT_DUPLICATES, &jerr);
		int rc;
		if (root == NULL) {
			error_runtime(err, "%s '%s': line %d: %s", what, base, jerr.line, jerr.text);
			catalog_free(c);
			return NULL;
		}
		rc = catalog_merge_json(c, root, what, base, NULL, err);
		json_decref(root);
		if (rc < 0) {
			err->kind = ERROR_RUNTIME;
			catalog_free(c);
			return NULL;
		}
	}
	if (catalog_check(c, err) < 0) {
		error_prefix(err, "%s", what);
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
		if (from->borrowed) {  /* the same constant table */
			*to = *from;
			continue;
		}
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
	for (size_t k = 0; k < N_SECTIONS; k++) {
		struct section *s = catalog_section(c, &section_defs[k]);
		if (!s->borrowed)
			free(s->items);
	}
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

const struct engine_spec *catalog_engine(const catalog *c, const char *name)
{
	return section_find(&c->engines, name);
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
CATALOG_ITER(engine, engines, struct engine_spec)

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
	/* The model reads every engine's constants (hw.h): a catalog lacks none.
	 * A user's file is merged over the built-in catalog, which has them all. */
	for (size_t k = 0; catalog_engine_names[k] != NULL; k++) {
		if (catalog_engine(c, catalog_engine_names[k]) != NULL)
			continue;
		catalog_engine_names_text(hint, sizeof hint);
		return error_set(err, "engines: no entry \"%s\": the model needs every engine's constants (%s)",
				 catalog_engine_names[k], hint);
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
