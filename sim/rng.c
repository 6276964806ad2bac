#include "rng.h"

#include <stdio.h>
#include <stdlib.h>

uint64_t rng_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

uint64_t rng_stream_seed(uint64_t scenario_seed, uint64_t row_id, unsigned purpose)
{
	/* Feed each part through the mixer in turn so that (seed, row, purpose)
	 * triples that differ in any part give unrelated words. */
	uint64_t state = scenario_seed;
	uint64_t h = rng_splitmix64(&state);
	state = h ^ row_id;
	h = rng_splitmix64(&state);
	state = h ^ (uint64_t)purpose;
	return rng_splitmix64(&state);
}

gsl_rng *rng_stream_new(uint64_t scenario_seed, uint64_t row_id, unsigned purpose)
{
	uint64_t s = rng_stream_seed(scenario_seed, row_id, purpose);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	if (r == NULL) {
		fprintf(stderr, "clustersim: out of memory allocating a random stream\n");
		exit(1);
	}
	unsigned long folded = (unsigned long)((s ^ (s >> 32)) & 0xffffffffu);
	/* mt19937 treats seed 0 as its default 4357; avoid aliasing with that. */
	gsl_rng_set(r, folded ? folded : 0x9e3779b9u);
	return r;
}
