/* clustersim catalog: list the built-in catalog (plus --catalog files). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "output/results.h"

static const char *const usage_text =
	"usage: clustersim catalog [gpus|fabrics|storage|presets|prices|models|sources]\n"
	"                          [--format table|csv|json] [--catalog FILE]... [-o FILE]\n\n"
	"Lists the catalog: every number with its source. Without a section, counts entries.\n"
	"--catalog FILE merges a user's catalog file (same form as scenarios/catalog/*.json).\n";

int cmd_catalog(int argc, char **argv, struct cs_error *err)
{
	static const struct option longopts[] = {
		CLI_OPT_FORMAT,
		CLI_OPT_OUTPUT,
		CLI_OPT_CATALOG,
		CLI_OPT_COLUMNS,
		CLI_OPT_HELP,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_options o;
	catalog *cat = NULL;
	rowset *rs = NULL;
	int ch, status = EXIT_OK;
	const char *section = NULL;

	cli_options_init(&o);
	while ((ch = cli_next_option(&o, "catalog", argc, argv, ":o:h", longopts, err)) != -1) {
		switch (ch) {
		case 'h':
			fputs(usage_text, stdout);
			cli_options_release(&o);
			return EXIT_OK;
		default:
			status = EXIT_USAGE;  /* CLI_OPTION_ERROR: err says why */
			goto out;
		}
	}
	if (optind < argc)
		section = argv[optind++];
	if (optind < argc) {
		status = cli_usage_error(err, "catalog", "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	cat = cli_catalog(&o, err);
	if (cat == NULL) {
		status = cli_status(err);
		goto out;
	}
	if (section == NULL) {
		static const char *const cols[] = { "section", "entries", NULL };
		rs = rowset_new(cols);
		static const struct { const char *name; size_t (*count)(const catalog *); } secs[] = {
			{ "gpus", catalog_gpu_count }, { "fabrics", catalog_fabric_count },
			{ "storage", catalog_storage_count }, { "presets", catalog_preset_count },
			{ "prices", catalog_price_count }, { "models", catalog_model_count },
			{ "sources", catalog_source_count },
		};
		for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++) {
			rowset_add_row(rs);
			rowset_text(rs, "section", secs[i].name);
			rowset_int(rs, "entries", (int64_t)secs[i].count(cat));
		}
	} else if (strcmp(section, "gpus") == 0) {
		rs = results_catalog_gpus(cat);
	} else if (strcmp(section, "fabrics") == 0) {
		rs = results_catalog_fabrics(cat);
	} else if (strcmp(section, "storage") == 0) {
		rs = results_catalog_storage(cat);
	} else if (strcmp(section, "presets") == 0) {
		rs = results_catalog_presets(cat);
	} else if (strcmp(section, "prices") == 0) {
		rs = results_catalog_prices(cat);
	} else if (strcmp(section, "models") == 0) {
		rs = results_catalog_models(cat);
	} else if (strcmp(section, "sources") == 0) {
		rs = results_catalog_sources(cat);
	} else {
		status = cli_usage_error(err, "catalog", "unknown section '%.40s': use gpus, fabrics, storage, presets, prices, models or sources", section);
		goto out;
	}
	if (cli_write(&o, rs, err) < 0)
		status = cli_status(err);
out:
	rowset_free(rs);
	catalog_free(cat);
	cli_options_release(&o);
	return status;
}
