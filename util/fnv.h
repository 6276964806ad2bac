/*
 * fnv: the 64-bit FNV-1a hash (Fowler, Noll, Vo), for fingerprints of
 * bytes that must agree across processes and machines (a sweep's inputs).
 * Not for anything an attacker may choose to collide.
 */
#ifndef CLUSTERSIM_UTIL_FNV_H
#define CLUSTERSIM_UTIL_FNV_H

#include <stddef.h>
#include <stdint.h>

/* The hash of no bytes: where a fingerprint starts. */
#define FNV_OFFSET_BASIS UINT64_C(14695981039346656037)

/* FNV-1a 64 of n bytes, on from h (FNV_OFFSET_BASIS to start). */
static inline uint64_t fnv_hash(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= UINT64_C(1099511628211);
	}
	return h;
}

#endif
