#include "sweep_run.h"

#include <stdlib.h>
#include <string.h>

#include "cli/sweep_point.h"
#include "models/scenario/reader.h"
#include "output/outfile.h"

/* A catalog file the base scenario names (relative to it) as -o? */
static int check_base_catalog(const char *output, const char *base_file, const json_t *name,
			      struct cs_error *err)
{
	char path[1024];
	if (!json_is_string(name))
		return 0;
	reader_resolve_relative(base_file, json_string_value(name), path, sizeof path);
	return outfile_check_not_input(output, path, "catalog", err);
}

/* Refuse an -o that names a file the sweep reads: the sweep file, its base
 * scenario, a catalog the base names, a --catalog file. */
static int check_inputs(const struct sweep_run *run, const char *sweep_file, struct cs_error *err)
{
	const char *out = run->o->output, *base = sweep_base_file(run->sw);
	const json_t *cat = json_object_get(sweep_base(run->sw), "catalog");

	if (outfile_check_not_input(out, sweep_file, "sweep file", err) < 0)
		return -1;
	if (strcmp(base, sweep_file) != 0 && outfile_check_not_input(out, base, "base scenario", err) < 0)
		return -1;
	for (size_t i = 0; i < run->o->n_catalogs; i++)
		if (outfile_check_not_input(out, run->o->catalogs[i], "catalog", err) < 0)
			return -1;
	if (check_base_catalog(out, base, cat, err) < 0)
		return -1;
	for (size_t i = 0; json_is_array(cat) && i < json_array_size(cat); i++)
		if (check_base_catalog(out, base, json_array_get(cat, i), err) < 0)
			return -1;
	return 0;
}

int sweep_run_load(struct sweep_run *run, const char *sweep_file, struct cs_error *err)
{
	run->sw = sweep_load(sweep_file, err);
	if (run->sw == NULL)
		return -1;
	for (size_t i = 0; i < run->o->n_sets; i++)
		if (sweep_set_base(run->sw, run->o->sets[i].path, run->o->sets[i].value, err) < 0)
			return -1;
	if (check_inputs(run, sweep_file, err) < 0)
		return -1;
	sweep_fingerprint(run->sw, run->o->seed, run->dry_run, run->fingerprint);
	run->cat = cli_catalog(run->o, err);
	if (run->cat == NULL)
		return -1;
	sweep_point_columns(run);
	return sweep_point_check_base(run, err);
}

rowset *sweep_run_rowset(const struct sweep_run *run)
{
	return rowset_new_n((const char *const *)run->cols, run->ncols);
}

void sweep_run_release(struct sweep_run *run)
{
	for (size_t c = 0; c < run->ncols; c++)
		free(run->cols[c]);
	free(run->cols);
	catalog_free(run->cat);
	sweep_free(run->sw);
}
