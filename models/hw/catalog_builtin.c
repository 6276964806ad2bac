/*
 * catalog_builtin: the built-in catalog, from the tables generated at build
 * time from the JSON files of scenarios/catalog (tools/gencatalog.c writes
 * $(BUILD)/gen/catalog_tables.c). Kept apart from catalog.c so that the
 * generator, which links the library's catalog reader, does not need the
 * tables it writes.
 */
#include "models/hw/catalog.h"

/* $(BUILD)/gen/catalog_tables.c */
extern const struct catalog_tables catalog_builtin_tables;

catalog *catalog_new_builtin(struct cs_error *err)
{
	(void)err;
	return catalog_new_tables(&catalog_builtin_tables);
}
