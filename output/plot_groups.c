#include "plot_groups.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/xalloc.h"

struct named {
	const char *name;
	size_t i;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *p = a, *q = b;
	int c = strcmp(p->name, q->name);
	return c != 0 ? c : p->i < q->i ? -1 : p->i > q->i;
}

size_t plot_groups(const char *const *names, size_t n, size_t *group_of)
{
	struct named *r = xcalloc(n ? n : 1, sizeof *r);
	size_t *run_of = xcalloc(n ? n : 1, sizeof *run_of), *run_first = xcalloc(n ? n : 1, sizeof *run_first);
	size_t *number = xcalloc(n ? n : 1, sizeof *number);
	size_t nruns = 0, ngroups = 0;

	for (size_t i = 0; i < n; i++)
		r[i] = (struct named){ names[i], i };
	/* equal names side by side, each run's first the earliest */
	qsort(r, n, sizeof *r, cmp_named);
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && strcmp(r[a].name, r[b].name) == 0; b++)
			;
		run_first[nruns] = r[a].i;
		for (size_t k = a; k < b; k++)
			run_of[r[k].i] = nruns;
		nruns++;
	}
	/* number the runs in the order their first names come */
	for (size_t i = 0; i < n; i++)
		if (run_first[run_of[i]] == i)
			number[run_of[i]] = ngroups++;
	for (size_t i = 0; i < n; i++)
		group_of[i] = number[run_of[i]];
	free(number);
	free(run_first);
	free(run_of);
	free(r);
	return ngroups;
}
