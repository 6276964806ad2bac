/*
 * rng: seeded random streams.
 *
 * Every random stream (failures, arrivals, lengths, jitter) is its own
 * gsl_rng, seeded from the scenario seed, the result row id and the stream's
 * purpose through splitmix64, never from the clock or the environment. So a
 * row's numbers do not depend on which process or shard ran it, and two
 * streams of one row do not share a sequence.
 */
#ifndef CLUSTERSIM_SIM_RNG_H
#define CLUSTERSIM_SIM_RNG_H

#include <gsl/gsl_rng.h>
#include <stdint.h>

/* What a stream is for; part of its seed. Values are fixed forever. */
enum rng_purpose {
	RNG_FAILURES = 1,
	RNG_ARRIVALS = 2,
	RNG_LENGTHS = 3,
	RNG_JITTER = 4,
	RNG_PREEMPTION = 5,
	RNG_TEST = 100
};

/* One step of splitmix64 (Steele, Lea, Flood 2014): advances *state, returns a mixed word. */
uint64_t rng_splitmix64(uint64_t *state);

/* The 64-bit seed of stream `purpose` of row `row_id` under `scenario_seed`. */
uint64_t rng_stream_seed(uint64_t scenario_seed, uint64_t row_id, unsigned purpose);

/*
 * A new Mersenne Twister (gsl_rng_mt19937) seeded for that stream. GSL's
 * mt19937 takes 32 bits of seed, so the 64-bit seed is folded (xor of its
 * halves). Caller frees with gsl_rng_free().
 */
gsl_rng *rng_stream_new(uint64_t scenario_seed, uint64_t row_id, unsigned purpose);

#endif
