/* Shared by the cmocka unit tests: cmocka 1.1 needs these headers first. */
#ifndef CLUSTERSIM_TESTS_TESTUTIL_H
#define CLUSTERSIM_TESTS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* |a - b| <= rel * max(|a|, |b|) + abs_tol, with a message naming both. */
#define assert_close(a, b, rel) assert_close_tol((a), (b), (rel), 0.0, __FILE__, __LINE__)
#define assert_close_abs(a, b, tol) assert_close_tol((a), (b), 0.0, (tol), __FILE__, __LINE__)

static inline void assert_close_tol(double a, double b, double rel, double abs_tol,
				    const char *file, int line)
{
	double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	if (!(fabs(a - b) <= rel * scale + abs_tol)) {
		print_error("%s:%d: %.10g and %.10g differ by more than rel %g / abs %g\n",
			    file, line, a, b, rel, abs_tol);
		_fail(file, line);
	}
}

/* A fresh directory /tmp/NAME.XXXXXX for a test's files: test_dir_make()
 * in the group's setup, test_dir_remove() (it and its contents) in its
 * teardown; test_dir() is its path (a static buffer). */
static inline char *test_dir(void)
{
	static char dir[64];
	return dir;
}

static inline int test_dir_make(const char *name)
{
	snprintf(test_dir(), 64, "/tmp/%s.XXXXXX", name);
	return mkdtemp(test_dir()) == NULL ? -1 : 0;
}

static inline int test_dir_remove(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_dir());
	return system(cmd) == 0 ? 0 : -1;
}

#endif
