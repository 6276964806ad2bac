/*
 * rowcodec: a rowset's rows as a self-delimiting binary record, for passing
 * result rows between processes (the sweep's workers and their parent).
 *
 * A record is: its body length (u64), then the body: a key (u64, the
 * caller's: which piece of work this is), the row count (u64) and, row by
 * row, each cell as a type tag byte followed by its value (text: u64 length
 * and bytes; int: int64; real: the double's bytes; empty: nothing). Values
 * are in the host's byte order: writer and reader are the same binary on the
 * same machine. Integers and reals come back bit for bit.
 */
#ifndef CLUSTERSIM_OUTPUT_ROWCODEC_H
#define CLUSTERSIM_OUTPUT_ROWCODEC_H

#include <stddef.h>
#include <stdint.h>

#include "output/rowset.h"

/* A growable byte buffer; zero-initialise, free p when done. */
struct rowcodec_buf {
	unsigned char *p;
	size_t n, cap;
};

/* Replace b's contents with the record of rs's rows under key. */
void rowcodec_encode(struct rowcodec_buf *b, uint64_t key, const rowset *rs);

/* Decode a record's body (without its length prefix) into a new rowset
 * with the given columns; NULL when it is malformed, truncated, has extra
 * bytes or a row of another width. Caller frees. */
rowset *rowcodec_decode(const unsigned char *body, size_t n, const char *const cols[], size_t ncols,
			uint64_t *key);

#endif
