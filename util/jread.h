/*
 * jread: reading JSON documents into C structs with exact error messages.
 *
 * A jread carries the file name and the JSON path of the value being read,
 * so every failure produces one line such as
 *   scenario 'a.json': workload.model.layers: expected an integer from 1 to 100000, got -3
 * It checks types, ranges and unknown keys (with a "did you mean" suggestion).
 * It never prints; failures are returned through the struct cs_error given at
 * init. It borrows every json_t it is given.
 */
#ifndef CLUSTERSIM_UTIL_JREAD_H
#define CLUSTERSIM_UTIL_JREAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define JREAD_PATH_MAX 256

struct jread {
	const char *what;  /* "scenario", "catalog", "sweep" */
	const char *file;  /* as given by the user; "-" is shown as "<stdin>" */
	char path[JREAD_PATH_MAX];
	size_t path_len;
	struct cs_error *err;
};

/*
 * Read and parse a JSON document from `file` ("-" = standard input), with
 * duplicate keys rejected; the top level must be an object. At most 64 MiB.
 * Returns a new reference, or NULL with err set to an input error naming
 * the file (and the line and column of a syntax error).
 */
json_t *jread_load(const char *what, const char *file, struct cs_error *err);

/*
 * The same checks and parse as jread_load() for a document already in memory
 * (len bytes at buf, which need not be NUL-terminated): not empty, no NUL
 * byte, valid JSON with duplicate keys rejected, an object at the top level.
 * `file` only names it in messages. Returns a new reference, or NULL with err
 * set to an input error. Used by the fuzz targets and for inline documents.
 */
json_t *jread_load_buffer(const char *what, const char *file, const char *buf, size_t len,
			  struct cs_error *err);

/* Start reading document `file` of kind `what`; both strings are borrowed. */
void jread_init(struct jread *r, const char *what, const char *file, struct cs_error *err);

/* Descend into a key or an array index; returns a mark for jread_leave(). */
size_t jread_enter_key(struct jread *r, const char *key);
size_t jread_enter_index(struct jread *r, size_t index);
void jread_leave(struct jread *r, size_t mark);

/* Fail at the current path with a formatted reason; returns -1. */
int jread_fail(struct jread *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Fail at the current path with "expected <expected>, got <v>"; returns -1. */
int jread_fail_value(struct jread *r, const json_t *v, const char *expected);

/* Render a JSON value for a message (quoted and cut for strings). */
void jread_describe(const json_t *v, char *buf, size_t size);

/* Check v is an object whose keys are all in the NULL-terminated `allowed`. */
int jread_object(struct jread *r, const json_t *v, const char *const allowed[]);

/*
 * Typed readers of obj[key]. When the key is absent: a required key fails,
 * an optional one leaves *out untouched and returns 0. Ranges are inclusive.
 * jread_int accepts a JSON real with an integral value (15e12).
 */
int jread_int(struct jread *r, const json_t *obj, const char *key, bool required,
	      int64_t min, int64_t max, int64_t *out);
int jread_int32(struct jread *r, const json_t *obj, const char *key, bool required,
		int min, int max, int *out);
int jread_real(struct jread *r, const json_t *obj, const char *key, bool required,
	       double min, double max, double *out);
int jread_string(struct jread *r, const json_t *obj, const char *key, bool required,
		 char *buf, size_t size);
int jread_bool(struct jread *r, const json_t *obj, const char *key, bool required, bool *out);

/* Read a string that must be one of the NULL-terminated names; *out is its index. */
int jread_enum(struct jread *r, const json_t *obj, const char *key, bool required,
	       const char *const names[], int *out);

/* Like jread_int32, but the string "auto" stores `auto_value`. */
int jread_int_or_auto(struct jread *r, const json_t *obj, const char *key,
		      int min, int max, int auto_value, int *out);

/* Like jread_real, but the string "auto" stores `auto_value`. */
int jread_real_or_auto(struct jread *r, const json_t *obj, const char *key,
		       double min, double max, double auto_value, double *out);

/* Check a value already in hand (used for array elements). */
int jread_value_real(struct jread *r, const json_t *v, double min, double max, double *out);
int jread_value_int(struct jread *r, const json_t *v, int64_t min, int64_t max, int64_t *out);
int jread_value_string(struct jread *r, const json_t *v, char *buf, size_t size);

#endif
