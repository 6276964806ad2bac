/*
 * candidate: one cluster object of a scenario (a candidate, and later a
 * fleet's shared cluster) read into a struct cluster_spec.
 *
 * A cluster starts from its preset's values, then takes the fields it gives
 * (gpu, counts, fabrics, topology, storage tiers), then resolves every
 * catalog name and its price. Every failure names the file, the JSON path
 * and the value. The result owns copies of what it takes from the catalog;
 * this module never prints and never reads another part of the scenario.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_CANDIDATE_H
#define CLUSTERSIM_MODELS_SCENARIO_CANDIDATE_H

#include <jansson.h>

#include "models/hw/catalog.h"
#include "models/hw/hw.h"
#include "util/jread.h"

/*
 * Read the cluster object `v` (borrowed), found at r's current path, into
 * *c against `cat` (borrowed for the call). Returns 0, or -1 with r's error
 * set; *c is then partly filled and owns nothing.
 */
int candidate_read(struct jread *r, const json_t *v, const catalog *cat, struct cluster_spec *c);

#endif
