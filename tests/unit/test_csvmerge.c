/* The streaming merge: the same bytes as merging in memory, for parts in
 * and out of row_id order, repeated rows within and across parts, parts
 * long enough to be cut into several sorted runs, and quoted fields. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/csvmerge.h"
#include "output/csvtable.h"
#include "output/writer.h"
#include "sim/rng.h"

static int setup(void **state)
{
	(void)state;
	return test_dir_make("test_csvmerge");
}

static int teardown(void **state)
{
	(void)state;
	return test_dir_remove();
}

/* The whole file as a string (caller frees). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	char chunk[4096];
	assert_non_null(f);
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (len + got + 1 > cap) {
			cap = 2 * (len + got + 1);
			buf = realloc(buf, cap);
		}
		memcpy(buf + len, chunk, got);
		len += got;
	}
	fclose(f);
	if (buf == NULL)
		buf = calloc(1, 1);
	buf[len] = '\0';
	return buf;
}

/* What csvtable_merge() (everything in memory) writes for the same parts. */
static char *merge_in_memory(char **paths, size_t n)
{
	struct csvtable *t = calloc(n, sizeof *t);
	struct cs_error err;
	char *buf = NULL;
	size_t len = 0;
	error_clear(&err);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(csvtable_load(&t[i], paths[i], CSVTABLE_STRICT, "part", &err), 0);
	rowset *rs = csvtable_merge(t, (const char *const *)paths, n, &err);
	assert_non_null(rs);
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(writer_csv(f, rs), 0);
	fclose(f);
	rowset_free(rs);
	for (size_t i = 0; i < n; i++)
		csvtable_release(&t[i]);
	free(t);
	return buf;
}

/* n parts of random rows: ids from a small range (so they repeat), some
 * rows copied from earlier parts, some parts shuffled. */
static void write_parts(char **paths, size_t n, size_t rows, uint64_t seed, bool sorted)
{
	gsl_rng *rng = rng_stream_new(seed, 0, 0);
	for (size_t i = 0; i < n; i++) {
		paths[i] = malloc(128);
		snprintf(paths[i], 128, "%s/part%zu-%llu.csv", test_dir(), i, (unsigned long long)seed);
		FILE *f = fopen(paths[i], "w");
		fputs("scenario,row_id,reason,value\n", f);
		for (size_t r = 0; r < rows; r++) {
			unsigned long id = sorted ? r / 3 : gsl_rng_uniform_int(rng, rows / 2 + 1);
			unsigned long v = gsl_rng_uniform_int(rng, 4);  /* few values: equal rows happen */
			fprintf(f, "s,%lu,\"a, \"\"q\"\" %lu\",%lu\n", id, v % 2, v);
		}
		fclose(f);
	}
	gsl_rng_free(rng);
}

static void check_same(size_t n, size_t rows, uint64_t seed, bool sorted)
{
	char *paths[4], out[128];
	struct cs_error err;
	write_parts(paths, n, rows, seed, sorted);
	snprintf(out, sizeof out, "%s/merged-%llu.csv", test_dir(), (unsigned long long)seed);
	error_clear(&err);
	assert_int_equal(csvmerge_files((const char *const *)paths, n, out, &err), 0);
	char *streamed = slurp(out), *in_memory = merge_in_memory(paths, n);
	assert_string_equal(streamed, in_memory);
	free(streamed);
	free(in_memory);
	for (size_t i = 0; i < n; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
}

static void test_same_as_in_memory(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 20; seed++)
		check_same(1 + seed % 4, 50 + 13 * seed, seed, seed % 3 == 0);
}

/* An unsorted part of more rows than one run holds is cut into several. */
static void test_many_runs(void **state)
{
	(void)state;
	check_same(2, 150000, 99, false);
}

/* A part given twice adds nothing; the header is checked as in memory. */
static void test_part_twice_and_errors(void **state)
{
	(void)state;
	char *paths[1], out[128], bad[128];
	struct cs_error err;
	write_parts(paths, 1, 40, 7, false);
	const char *twice[] = { paths[0], paths[0] };
	snprintf(out, sizeof out, "%s/twice.csv", test_dir());
	error_clear(&err);
	assert_int_equal(csvmerge_files(twice, 2, out, &err), 0);
	char *a = slurp(out), *b = merge_in_memory(paths, 1);
	assert_string_equal(a, b);
	free(a);
	free(b);
	snprintf(bad, sizeof bad, "%s/bad.csv", test_dir());
	FILE *f = fopen(bad, "w");
	fputs("scenario,row_id,reason,value\ns,x,r,1\n", f);
	fclose(f);
	const char *withbad[] = { paths[0], bad };
	error_clear(&err);
	assert_int_equal(csvmerge_files(withbad, 2, out, &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_non_null(strstr(err.msg, "line 2: row_id \"x\" is not a non-negative integer"));
	unlink(paths[0]);
	free(paths[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_in_memory),
		cmocka_unit_test(test_many_runs),
		cmocka_unit_test(test_part_twice_and_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
