/*
 * replay: a fuzz target as a plain program, for `make check`.
 *
 * Linked with one tests/fuzz/fuzz_*.c instead of libFuzzer, it feeds each
 * file named on the command line to LLVMFuzzerTestOneInput() once, so that
 * the seed corpus and every input that once crashed (tests/bad/) run in
 * every build, under ASan and UBSan when SANITIZE is set. Exit status 0
 * when all ran; a target that finds a bug aborts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int ran = 0;

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t cap = 65536, n = 0, got;
		uint8_t *buf;

		if (f == NULL) {
			fprintf(stderr, "replay: cannot open '%s'\n", argv[i]);
			return 1;
		}
		buf = xmalloc(cap);
		while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
			n += got;
			if (n == cap) {
				cap *= 2;
				buf = xreallocarray(buf, cap, 1);
			}
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
		ran++;
	}
	printf("replay: %d inputs\n", ran);
	return 0;
}
