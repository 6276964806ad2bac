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

/* The capacity that holds need elements, growing from cap: cap itself when
 * it does, else cap doubled (from first when cap is 0) as often as needed;
 * exits when that overflows. For arrays that share one capacity. */
size_t xgrow_cap(size_t cap, size_t need, size_t first);

/* Make room for need elements of size bytes in p, which holds *cap: when
 * need > *cap, *cap becomes xgrow_cap(*cap, need, first) and p is resized.
 * Returns p or its new place (the old pointer is then invalid); exits on
 * overflow. The one way an array grows: x->v = xgrow(x->v, &x->cap,
 * x->n + 1, sizeof *x->v, 64). Caller frees. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size, size_t first);

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
