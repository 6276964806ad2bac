/* A cmocka group fixture shared by the unit tests that need the built-in
 * catalog: `cat` is loaded once before the group and freed after it. */
#ifndef CLUSTERSIM_TESTS_CATALOG_FIXTURE_H
#define CLUSTERSIM_TESTS_CATALOG_FIXTURE_H

#include "models/catalog.h"
#include "util/error.h"

static catalog *cat;

static int setup(void **state)
{
	(void)state;
	struct cs_error err;
	cat = catalog_new_builtin(&err);
	return cat == NULL;
}

static int teardown(void **state)
{
	(void)state;
	catalog_free(cat);
	return 0;
}

#endif
