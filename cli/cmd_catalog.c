/* clustersim catalog: list the built-in catalog (plus --catalog files). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "output/catalog_rows.h"

static const char usage_text[] =
	"usage: clustersim catalog [gpus|fabrics|storage|presets|prices|models|sources|engines]\n"
	"                          [--format table|csv|json] [--catalog FILE]... [--columns LIST] [-o FILE]\n\n"
	"Lists the catalog: every number with its source. Without a section, counts entries.\n"
	"engines lists the serving engines' and training's step constants (in the JSON's units),\n"
	"which an overlay written by clustersim calibrate may refit.\n"
	"  --format F        table (on a terminal), csv (otherwise) or json\n"
	"  --catalog FILE    merge a user's catalog file (same form as scenarios/catalog/*.json)\n"
	"  --columns a,b,c   print only these columns, in this order\n"
	"  -o, --output FILE write the list to FILE (atomically) instead of standard output\n"
	"  -h, --help        print this help\n";

static int catalog_exec(struct cli_call *call, struct cs_error *err)
{
	const catalog *cat = call->cat;
	const char *section = call->n_operands > 0 ? call->operands[0] : NULL;
	rowset *rs = NULL;
	int status = EXIT_OK;

	if (section == NULL) {
		static const char *const cols[] = { "section", "entries", NULL };
		rs = rowset_new(cols);
		static const struct { const char *name; size_t (*count)(const catalog *); } secs[] = {
			{ "gpus", catalog_gpu_count }, { "fabrics", catalog_fabric_count },
			{ "storage", catalog_storage_count }, { "presets", catalog_preset_count },
			{ "prices", catalog_price_count }, { "models", catalog_model_count },
			{ "sources", catalog_source_count }, { "engines", catalog_engine_count },
		};
		for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++) {
			rowset_add_row(rs);
			rowset_text(rs, "section", secs[i].name);
			rowset_int(rs, "entries", (int64_t)secs[i].count(cat));
		}
	} else if (strcmp(section, "gpus") == 0) {
		rs = catalog_rows_gpus(cat);
	} else if (strcmp(section, "fabrics") == 0) {
		rs = catalog_rows_fabrics(cat);
	} else if (strcmp(section, "storage") == 0) {
		rs = catalog_rows_storage(cat);
	} else if (strcmp(section, "presets") == 0) {
		rs = catalog_rows_presets(cat);
	} else if (strcmp(section, "prices") == 0) {
		rs = catalog_rows_prices(cat);
	} else if (strcmp(section, "models") == 0) {
		rs = catalog_rows_models(cat);
	} else if (strcmp(section, "sources") == 0) {
		rs = catalog_rows_sources(cat);
	} else if (strcmp(section, "engines") == 0) {
		rs = catalog_rows_engines(cat);
	} else {
		status = cli_usage_error(err, "catalog", "unknown section '%.40s': use gpus, fabrics, storage, presets, prices, models, sources or engines", section);
		goto out;
	}
	if (cli_write(&call->o, rs, err) < 0)
		status = cli_status(err);
out:
	rowset_free(rs);
	return status;
}

const struct cli_command cli_cmd_catalog = {
	.name = "catalog",
	.summary = "list GPUs, fabrics, storage, presets, prices, models and engines",
	.usage = usage_text,
	.common = CLI_FORMAT | CLI_OUTPUT | CLI_CATALOG | CLI_COLUMNS,
	.operands = { .min = 0, .max = 1, .name = "SECTION" },
	.load = CLI_LOAD_CATALOG,
	.exec = catalog_exec,
};
