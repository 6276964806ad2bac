/*
 * keys: every key a scenario file may hold, declared once (key_rows.c): its
 * JSON object (section), the workload kinds that accept it, its type, range,
 * default, unit and meaning.
 *
 * The readers take from it the keys each object accepts (key_object: the
 * unknown-key check, with "did you mean" over the table's names), the
 * keys each workload kind accepts (wl.c), and the range of a number they
 * read (key_real, key_int32, ...: the jread readers given the row's range,
 * so the messages are jread's). `clustersim help keys` prints the same
 * table, and docs/reference/scenario-keys.md is its output.
 *
 * The table and the records it is made of (enum key_section, the KIND_
 * bits, struct key_row, the shared bounds) are key_rows.h's, included here.
 * It never prints; failures go to the jread's error as the jread readers'.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_KEYS_H
#define CLUSTERSIM_MODELS_SCENARIO_KEYS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/eval/job.h"
#include "models/scenario/key_rows.h"
#include "util/jread.h"

/* The JSON path of a section's object ("" for the top level, [] for any index). */
const char *key_section_path(enum key_section sec);

/* The row of `key` in section `sec`, or NULL. */
const struct key_row *key_find(enum key_section sec, const char *key);

/* Every row, in the table's order: n rows at *rows. */
const struct key_row *key_rows_all(size_t *n);

/* Whether workload kind `kind` accepts the row's key. */
bool key_accepted_by(const struct key_row *row, enum workload_kind kind);

/* Fill out with the names of section sec's keys, in the table's order,
 * NULL-terminated; returns how many. */
size_t key_names(enum key_section sec, const char *out[KEY_SECTION_MAX + 1]);

/* jread_object() with section sec's keys: v must be an object whose keys
 * are all the section's. */
int key_object(struct jread *r, const json_t *v, enum key_section sec);

/* Fail with "missing required key" at obj's `key` when it is absent: for a
 * key required only in some cases (the table's def says which). */
int key_need(struct jread *r, const json_t *obj, const char *key);

/*
 * The jread readers of obj[key] with the row's range and the row's
 * required: the same results and messages as jread_real() ... given them.
 * The row must exist and be ranged (an assert).
 */
int key_real(struct jread *r, const json_t *obj, enum key_section sec, const char *key, double *out);
int key_int(struct jread *r, const json_t *obj, enum key_section sec, const char *key, int64_t *out);
int key_int32(struct jread *r, const json_t *obj, enum key_section sec, const char *key, int *out);
int key_int_or_auto(struct jread *r, const json_t *obj, enum key_section sec, const char *key,
		    int auto_value, int *out);
int key_real_or_auto(struct jread *r, const json_t *obj, enum key_section sec, const char *key,
		     double auto_value, double *out);

/* jread_enum() of obj[key] with the row's names and required. */
int key_enum(struct jread *r, const json_t *obj, enum key_section sec, const char *key, int *out);

/* The row's range in words ("1 to 1024", "fifo, sjf", ...; "" when none), and
 * its default ("required", or "" when none), into buf. */
void key_range_text(const struct key_row *row, char *buf, size_t size);
void key_default_text(const struct key_row *row, char *buf, size_t size);

#endif
