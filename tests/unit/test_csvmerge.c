/* The streaming merge: the same bytes as merging in memory, for parts in
 * and out of row_id order, repeated rows within and across parts, parts
 * long enough to be cut into several sorted runs, quoted fields, standard
 * input, rows at the line bound; standard input's copy bounded, and no
 * temporary file left behind, even by a killed merge. */
#include "testutil.h"

#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

/* An unsorted part of more rows than one run holds (65,536) is cut into
 * several: two each here. */
static void test_many_runs(void **state)
{
	(void)state;
	check_same(2, 70000, 99, false);
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

/* A fresh empty directory under the test's, made TMPDIR (a static buffer). */
static const char *fresh_tmpdir(const char *name)
{
	static char dir[160];
	snprintf(dir, sizeof dir, "%s/%s", test_dir(), name);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(setenv("TMPDIR", dir, 1), 0);
	return dir;
}

/* How many entries a directory holds. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* Standard input, sorted or not, merges as the same part given by name
 * does, and its copy leaves nothing in $TMPDIR. */
static void test_stdin(void **state)
{
	(void)state;
	char *paths[1], out[128];
	struct cs_error err;
	const char *dir = fresh_tmpdir("stdin");
	for (int sorted = 0; sorted < 2; sorted++) {
		write_parts(paths, 1, 70000, 11 + (uint64_t)sorted, sorted);
		assert_non_null(freopen(paths[0], "rb", stdin));
		snprintf(out, sizeof out, "%s/from-stdin.csv", test_dir());
		const char *names[] = { "-" };
		error_clear(&err);
		assert_int_equal(csvmerge_files(names, 1, out, &err), 0);
		char *streamed = slurp(out), *in_memory = merge_in_memory(paths, 1);
		assert_string_equal(streamed, in_memory);
		free(streamed);
		free(in_memory);
		assert_int_equal(entries(dir), 0);
		unlink(paths[0]);
		free(paths[0]);
	}
}

/* Standard input's copy is bounded: past the bound, an input error that
 * says to give the part by name; a line over CSVREADER_LINE_MAX (as
 * /dev/zero gives) stops it after that line, at line 1. Nothing is left in
 * $TMPDIR, nothing is written. */
static void test_stdin_bounds(void **state)
{
	(void)state;
	char *paths[1], out[128];
	struct cs_error err;
	const char *dir = fresh_tmpdir("bounds");
	const char *names[] = { "-" };
	write_parts(paths, 1, 100, 5, true);
	assert_non_null(freopen(paths[0], "rb", stdin));
	snprintf(out, sizeof out, "%s/bounded.csv", test_dir());
	error_clear(&err);
	assert_int_equal(csvmerge_files_max(names, 1, out, 500, &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_non_null(strstr(err.msg, "merge: '<stdin>': line "));
	assert_non_null(strstr(err.msg, ": more than 500 bytes, the most merge copies from standard input: "
				    "give the part by name"));
	assert_int_equal(access(out, F_OK), -1);
	assert_int_equal(entries(dir), 0);
	assert_non_null(freopen("/dev/zero", "rb", stdin));
	error_clear(&err);
	assert_int_equal(csvmerge_files(names, 1, out, &err), -1);
	assert_string_equal(err.msg, "part '<stdin>': line 1: a line longer than 1048576 bytes, the bound on a CSV line");
	assert_int_equal(entries(dir), 0);
	unlink(paths[0]);
	free(paths[0]);
}

/* Killed while it copies standard input (SIGKILL: no handler runs), merge
 * leaves nothing in $TMPDIR: its temporary file had no name from the start. */
static void test_killed_leaves_nothing(void **state)
{
	(void)state;
	const char *dir = fresh_tmpdir("killed");
	int fds[2];
	/* a fresh stdin stream (no bytes of an earlier test buffered), on fd 0 */
	assert_non_null(freopen("/dev/null", "rb", stdin));
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct cs_error err;
		const char *names[] = { "-" };
		dup2(fds[0], 0);
		close(fds[1]);
		_exit(csvmerge_files(names, 1, "/dev/null", &err) == 0 ? 0 : 3);
	}
	close(fds[0]);
	FILE *w = fdopen(fds[1], "w");
	fputs("scenario,row_id\n", w);
	for (int i = 0; i < 1000; i++)
		fprintf(w, "s,%d\n", i);
	fflush(w);
	/* until the child holds a file in dir open (at most 10 s) */
	bool open_there = false;
	for (int tries = 0; tries < 1000 && !open_there; tries++) {
		char fdpath[64], link[512];
		for (int fd = 0; fd < 64 && !open_there; fd++) {
			snprintf(fdpath, sizeof fdpath, "/proc/%d/fd/%d", (int)pid, fd);
			ssize_t n = readlink(fdpath, link, sizeof link - 1);
			if (n > 0) {
				link[n] = '\0';
				open_there = strncmp(link, dir, strlen(dir)) == 0;
			}
		}
		if (!open_there)
			nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	}
	assert_true(open_there);
	kill(pid, SIGKILL);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	fclose(w);
	assert_int_equal(entries(dir), 0);
}

/* Rows at the bound go through the sorted runs of an unsorted part (whose
 * lines carry one more cell) as they came. */
static void test_rows_at_the_bound(void **state)
{
	(void)state;
	char *paths[1], out[128];
	struct cs_error err;
	paths[0] = malloc(128);
	snprintf(paths[0], 128, "%s/wide.csv", test_dir());
	FILE *f = fopen(paths[0], "w");
	fputs("row_id,v\n", f);
	for (int id = 2; id >= 0; id--) {
		fprintf(f, "%d,", id);
		for (size_t i = 0; i < CSVREADER_LINE_MAX - 3; i++)
			fputc('a' + id, f);
		fputc('\n', f);
	}
	fclose(f);
	snprintf(out, sizeof out, "%s/wide-merged.csv", test_dir());
	error_clear(&err);
	assert_int_equal(csvmerge_files((const char *const *)paths, 1, out, &err), 0);
	/* (not against merge_in_memory(): writer_csv() cuts long cells) */
	char *streamed = slurp(out);
	size_t line = CSVREADER_LINE_MAX;
	assert_int_equal(strlen(streamed), 9 + 3 * line);
	for (int id = 0; id < 3; id++) {
		const char *row = streamed + 9 + (size_t)id * line;
		assert_int_equal(row[0], '0' + id);
		assert_int_equal(row[1], ',');
		assert_int_equal(strspn(row + 2, (char[]){ (char)('a' + id), '\0' }), line - 3);
	}
	free(streamed);
	unlink(paths[0]);
	free(paths[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_in_memory),
		cmocka_unit_test(test_many_runs),
		cmocka_unit_test(test_part_twice_and_errors),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_stdin_bounds),
		cmocka_unit_test(test_killed_leaves_nothing),
		cmocka_unit_test(test_rows_at_the_bound),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
