/*
 * error: a returned error with a one-line message.
 *
 * Functions that can fail on bad input take a `struct cs_error *` and return
 * -1 (or NULL) after filling it. The message names the problem first, in lower
 * case, without a final full stop; only main() adds the "clustersim: " prefix.
 * Messages never contain a newline: error_set() replaces control characters.
 */
#ifndef CLUSTERSIM_UTIL_ERROR_H
#define CLUSTERSIM_UTIL_ERROR_H

#include <stdbool.h>

#define ERROR_MSG_MAX 1024

/* What kind of failure: bad input (exit 2) or a failure while running (exit 1). */
enum error_kind {
	ERROR_NONE = 0,
	ERROR_INPUT,   /* bad usage or bad input */
	ERROR_RUNTIME  /* I/O failure, overflow, ... */
};

struct cs_error {
	enum error_kind kind;
	char msg[ERROR_MSG_MAX];
};

/* Clear err (kind ERROR_NONE, empty message). */
void error_clear(struct cs_error *err);

/* Set an input error from a printf format; returns -1 for `return error_set(...)`. */
int error_set(struct cs_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Same as error_set() for a runtime failure. */
int error_runtime(struct cs_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Put "prefix: " in front of the current message (for adding file context). */
void error_prefix(struct cs_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* True when err holds an error. */
static inline bool error_is_set(const struct cs_error *err)
{
	return err->kind != ERROR_NONE;
}

#endif
