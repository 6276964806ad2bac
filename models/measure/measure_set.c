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
	set->docs[set->n].anchor = NULL;
	set->docs[set->n].gpus = 0;
	set->n++;
}

struct measure_doc *measure_set_add_figure(struct measure_set *set, json_t *scenario, const char *file, long line,
					   const char *id, const char *metric, double value, const char *source,
					   const char *family)
{
	json_t *v = json_object();
	json_object_set_new(v, "id", json_string(id));
	json_object_set_new(v, "metric", json_string(metric));
	json_object_set_new(v, "published", json_real(value));
	json_object_set_new(v, "source", json_string(source));
	if (family != NULL && family[0] != '\0')
		json_object_set_new(v, "family", json_string(family));
	json_object_del(scenario, "measured");
	json_object_set_new(scenario, "validation", v);
	measure_set_add(set, scenario, file, line);
	return &set->docs[set->n - 1];
}

void measure_set_release(struct measure_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		json_decref(set->docs[i].scenario);
		free(set->docs[i].file);
		free(set->docs[i].anchor);
	}
	free(set->docs);
	set->docs = NULL;
	set->n = set->cap = 0;
}
