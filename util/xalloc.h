/*
 * xalloc: allocation that never returns NULL.
 *
 * Every allocation in clustersim goes through these. On exhaustion they print
 * one line to standard error and exit with status 1 (a runtime failure), so
 * callers never test the result. They never return NULL for a zero size.
 */
#ifndef CLUSTERSIM_UTIL_XALLOC_H
#define CLUSTERSIM_UTIL_XALLOC_H

#include <stddef.h>

/* Allocate size bytes (at least 1). Caller frees. */
void *xmalloc(size_t size);

/* Allocate n zeroed elements of size bytes; exits on overflow. Caller frees. */
void *xcalloc(size_t n, size_t size);

/* Resize p to n elements of size bytes; exits on overflow. Caller frees. */
void *xreallocarray(void *p, size_t n, size_t size);

/* n elements of size bytes aligned to `align` (a power of two, a multiple of
 * sizeof(void *)); exits on overflow or exhaustion. Caller frees with free(). */
void *xaligned(size_t align, size_t n, size_t size);

/* Copy of the NUL-terminated s. Caller frees. */
char *xstrdup(const char *s);

/* Copy of the first n bytes of s, NUL-terminated. Caller frees. */
char *xstrndup(const char *s, size_t n);

/* printf into a new string. Caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
