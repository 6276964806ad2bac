/*
 * catalog_read: one catalog entry from its JSON object into its plain
 * record (a GPU, fabric, storage tier, node preset, price, billing record,
 * model shape, source or engine), with the units converted and every field checked.
 *
 * The catalog (catalog.c) owns the sections and the merge of documents; it
 * calls these readers through its table of sections. Each reader reads into
 * `entry` (a zeroed record when is_new, else the record a later file
 * overrides field by field, so only is_new makes fields required), and on
 * bad input fails through the jread, which names the file, the JSON path
 * and the value. This module never prints and knows nothing of the catalog
 * object.
 */
#ifndef CLUSTERSIM_MODELS_HW_CATALOG_READ_H
#define CLUSTERSIM_MODELS_HW_CATALOG_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "models/hw/hw.h"

/* jansson's document type, without its header (see catalog.h). */
struct json_t;
struct jread;

/* True for YYYY-MM-DD, or YYYY-MM unless day_required. */
bool catalog_read_iso_date(const char *s, bool day_required);

/* The readers of one entry of each section (entry: a struct gpu_spec,
 * fabric_spec, storage_spec, preset_spec, price_spec, billing_spec,
 * model_spec, catalog_source or engine_spec). 0, or -1 with the jread's error set. */
int catalog_read_gpu(struct jread *r, const struct json_t *obj, void *entry, bool is_new);
int catalog_read_fabric(struct jread *r, const struct json_t *obj, void *entry, bool is_new);
int catalog_read_storage(struct jread *r, const struct json_t *obj, void *entry, bool is_new);
int catalog_read_preset(struct jread *r, const struct json_t *obj, void *entry, bool is_new);
int catalog_read_price(struct jread *r, const struct json_t *obj, void *entry, bool is_new);
int catalog_read_billing(struct jread *r, const struct json_t *obj, void *entry, bool is_new);
int catalog_read_model_entry(struct jread *r, const struct json_t *obj, void *entry, bool is_new);
int catalog_read_source(struct jread *r, const struct json_t *obj, void *entry, bool is_new);
/* An engine's entry: its name one of catalog_engine_names (its kind follows),
 * the keys of that kind only. */
int catalog_read_engine(struct jread *r, const struct json_t *obj, void *entry, bool is_new);

/* catalog_engine_names as a message lists them: "vllm-v0", "vllm-v1", ... */
void catalog_engine_names_text(char *buf, size_t size);

/* Default parse of a model object (catalog form); used by scenario files too.
 * `base` (may be NULL) supplies values for keys the object leaves out. */
int catalog_read_model(struct jread *r, const struct json_t *obj, const struct model_spec *base,
		       struct model_spec *out);

#endif
