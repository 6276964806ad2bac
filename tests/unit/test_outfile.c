/* Output files: atomic replacement, one writer at a time, stale temporaries
 * of killed runs removed, and results never written over an input. */
#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/outfile.h"
#include "util/error.h"

static int setup(void **state)
{
	(void)state;
	return test_dir_make("test_outfile");
}

static int teardown(void **state)
{
	(void)state;
	return test_dir_remove();
}

/* Number of entries of the test directory whose names start with prefix. */
static int count_entries(const char *prefix)
{
	DIR *d = opendir(test_dir());
	struct dirent *de;
	int n = 0;
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
			n++;
	closedir(d);
	return n;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_commit_replaces_atomically(void **state)
{
	(void)state;
	char path[128];
	struct outfile o;
	struct cs_error err;
	snprintf(path, sizeof path, "%s/out.csv", test_dir());
	write_text(path, "old\n");
	error_clear(&err);
	assert_int_equal(outfile_open(&o, path, &err), 0);
	fputs("new\n", o.f);
	/* until the commit, the old file is whole and the new one is a temporary */
	assert_int_equal(count_entries("out.csv.tmp."), 1);
	assert_int_equal(outfile_commit(&o, &err), 0);
	assert_int_equal(count_entries("out.csv.tmp."), 0);
	FILE *f = fopen(path, "r");
	char line[16] = "";
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	assert_string_equal(line, "new\n");
}

static void test_second_writer_refused(void **state)
{
	(void)state;
	char path[128];
	struct outfile a, b;
	struct cs_error err;
	snprintf(path, sizeof path, "%s/busy.csv", test_dir());
	error_clear(&err);
	assert_int_equal(outfile_open(&a, path, &err), 0);
	assert_int_equal(outfile_open(&b, path, &err), -1);
	assert_int_equal(err.kind, ERROR_RUNTIME);
	assert_non_null(strstr(err.msg, "another clustersim is writing it"));
	assert_null(b.f);
	/* the first writer's temporary survived the attempt */
	assert_int_equal(count_entries("busy.csv.tmp."), 1);
	assert_int_equal(outfile_commit(&a, &err), 0);
	error_clear(&err);
	assert_int_equal(outfile_open(&b, path, &err), 0);  /* free again */
	outfile_abort(&b);
	assert_int_equal(count_entries("busy.csv.tmp."), 0);
}

static void test_stale_temporary_removed(void **state)
{
	(void)state;
	char path[128], stale[160], other[160];
	struct outfile o;
	struct cs_error err;
	snprintf(path, sizeof path, "%s/sweep.csv", test_dir());
	/* what a kill -9 leaves: a temporary nobody holds a lock on */
	snprintf(stale, sizeof stale, "%s.tmp.Ab3dE9", path);
	write_text(stale, "half a file");
	/* a name that is not one of our temporaries is left alone */
	snprintf(other, sizeof other, "%s.tmp.notours", path);
	write_text(other, "keep");
	error_clear(&err);
	assert_int_equal(outfile_open(&o, path, &err), 0);
	assert_int_equal(access(stale, F_OK), -1);
	assert_int_equal(access(other, F_OK), 0);
	assert_int_equal(outfile_commit(&o, &err), 0);
}

static void test_output_is_an_input(void **state)
{
	(void)state;
	char in[128], link[128], out[128];
	struct cs_error err;
	snprintf(in, sizeof in, "%s/scenario.json", test_dir());
	snprintf(link, sizeof link, "%s/link.json", test_dir());
	snprintf(out, sizeof out, "%s/other.csv", test_dir());
	write_text(in, "{}");
	assert_int_equal(symlink(in, link), 0);
	error_clear(&err);
	assert_int_equal(outfile_check_not_input(in, in, "scenario", &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_non_null(strstr(err.msg, "it is the scenario"));
	error_clear(&err);
	assert_int_equal(outfile_check_not_input(link, in, "scenario", &err), -1);
	error_clear(&err);
	assert_int_equal(outfile_check_not_input(in, link, "scenario", &err), -1);
	error_clear(&err);
	assert_int_equal(outfile_check_not_input(out, in, "scenario", &err), 0);  /* does not exist yet */
	write_text(out, "x");
	assert_int_equal(outfile_check_not_input(out, in, "scenario", &err), 0);
	assert_int_equal(outfile_check_not_input("-", in, "scenario", &err), 0);
	assert_int_equal(outfile_check_not_input(NULL, in, "scenario", &err), 0);
	assert_int_equal(outfile_check_not_input(out, "-", "scenario", &err), 0);
	assert_false(error_is_set(&err));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commit_replaces_atomically),
		cmocka_unit_test(test_second_writer_refused),
		cmocka_unit_test(test_stale_temporary_removed),
		cmocka_unit_test(test_output_is_an_input),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
