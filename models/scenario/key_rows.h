/*
 * key_rows: the table of scenario keys (keys.h), one row per key, in the
 * order of each object's keys in the readers' "did you mean" ranking. Data
 * only: keys.h is how the readers and `help keys` use it.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_KEY_ROWS_H
#define CLUSTERSIM_MODELS_SCENARIO_KEY_ROWS_H

#include <stddef.h>

#include "models/scenario/keys.h"

extern const struct key_row key_rows[];
extern const size_t key_rows_count;

#endif
