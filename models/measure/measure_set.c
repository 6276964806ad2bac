/* measure_set: the growing list of measured documents. */
#include "models/measure/measure.h"

#include <stdlib.h>

#include "util/xalloc.h"

void measure_set_add(struct measure_set *set, json_t *scenario, const char *file, long line)
{
	set->docs = xgrow(set->docs, &set->cap, set->n + 1, sizeof *set->docs, 16);
	set->docs[set->n].scenario = scenario;
	set->docs[set->n].file = xstrdup(file);
	set->docs[set->n].line = line;
	set->n++;
}

void measure_set_release(struct measure_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		json_decref(set->docs[i].scenario);
		free(set->docs[i].file);
	}
	free(set->docs);
	set->docs = NULL;
	set->n = set->cap = 0;
}
