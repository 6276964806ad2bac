#include "sweep_run.h"

#include <stdlib.h>
#include <string.h>

#include "cli/input_files.h"
#include "output/outfile.h"

/*
 * Every file the sweep reads into *files: the --catalog files, the sweep
 * file, its base scenario, and the catalogs and traces the base (after
 * --set) and each axis value name. Then refuse an -o, or its journal
 * FILE.partial, that is one of them: before anything is computed or
 * written.
 */
static int list_inputs(const struct sweep_run *run, const char *sweep_file, struct input_files *files,
		       struct cs_error *err)
{
	const char *out = run->o->output;
	char *journal;
	int rc;

	for (size_t i = 0; i < run->o->n_catalogs; i++)
		input_files_add(files, run->o->catalogs[i], "catalog file", true);
	input_files_add_sweep(files, run->sw, sweep_file);
	rc = input_files_check_output(files, out, err);
	journal = rc == 0 ? outfile_journal_name(out) : NULL;
	if (journal != NULL)
		rc = input_files_check_output(files, journal, err);
	free(journal);
	return rc;
}

int sweep_run_load(struct sweep_run *run, const char *sweep_file, struct cs_error *err)
{
	struct input_files files;
	char digest[17];

	run->sw = sweep_load(sweep_file, err);
	if (run->sw == NULL)
		return -1;
	for (size_t i = 0; i < run->o->n_sets; i++)
		if (sweep_set_base(run->sw, run->o->sets[i].path, run->o->sets[i].value, err) < 0)
			return -1;
	input_files_init(&files);
	if (list_inputs(run, sweep_file, &files, err) < 0) {
		input_files_release(&files);
		return -1;
	}
	input_files_digest(&files, digest);
	input_files_release(&files);
	sweep_fingerprint(run->sw, run->o->seed, run->dry_run, digest, run->fingerprint);
	run->cat = cli_catalog(run->o, err);
	return run->cat != NULL ? 0 : -1;
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
