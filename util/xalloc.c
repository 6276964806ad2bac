#include "xalloc.h"

#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void xalloc_die(size_t n, size_t size)
{
	fprintf(stderr, "clustersim: out of memory allocating %zu x %zu bytes\n", n, size);
	exit(1);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (p == NULL)
		xalloc_die(1, size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p;
	if (n == 0 || size == 0)
		n = size = 1;
	if (SIZE_MAX / n < size)
		xalloc_die(n, size);
	p = calloc(n, size);
	if (p == NULL)
		xalloc_die(n, size);
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	void *q;
	if (n == 0 || size == 0)
		n = size = 1;
	if (SIZE_MAX / n < size)
		xalloc_die(n, size);
	q = realloc(p, n * size);
	if (q == NULL)
		xalloc_die(n, size);
	return q;
}

size_t xgrow_cap(size_t cap, size_t need, size_t first)
{
	assert(first > 0);
	while (cap < need) {
		if (cap > SIZE_MAX / 2)
			xalloc_die(need, 1);
		cap = cap ? 2 * cap : first;
	}
	return cap;
}

void *xgrow(void *p, size_t *cap, size_t need, size_t size, size_t first)
{
	if (need <= *cap)
		return p;
	*cap = xgrow_cap(*cap, need, first);
	return xreallocarray(p, *cap, size);
}

void *xaligned(size_t align, size_t n, size_t size)
{
	void *p = NULL;
	if (n == 0 || size == 0)
		n = size = 1;
	if (SIZE_MAX / n < size)
		xalloc_die(n, size);
	if (posix_memalign(&p, align, n * size) != 0)
		xalloc_die(n, size);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p;
	size_t len = strnlen(s, n);
	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int len;
	char *p;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		xalloc_die(1, 0);
	p = xmalloc((size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)len + 1, fmt, ap);
	va_end(ap);
	return p;
}
