/*
 * serve_load: the random streams of the requests a serving simulation is
 * offered: RNG_ARRIVALS, from which the arrival process (arrival.h) draws
 * its gaps, and prompt and output lengths (fixed, lognormal, normal,
 * uniform or a histogram, clamped to the spec's [min, max], whole tokens
 * >= 1) from the RNG_LENGTHS stream, both seeded by (seed, row_id). It
 * never schedules events: the arrival process asks it for the next lengths.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_LOAD_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_LOAD_H

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stddef.h>
#include <stdint.h>

#include "models/serve/serve_types.h"

struct serve_load {
	const struct serving_spec *sv;
	gsl_rng *arrivals, *lengths;
	gsl_ran_discrete_t *prompt_bins, *output_bins;  /* histograms, else NULL */
};

/* Seed the streams of row (seed, row_id); borrows sv until release.
 * Returns 0, or -1 with reason filled (a histogram without weight). */
int serve_load_init(struct serve_load *l, const struct serving_spec *sv, uint64_t seed, uint64_t row_id,
		    char *reason, size_t reason_len);
void serve_load_release(struct serve_load *l);

/* The next request's prompt and output lengths (prompt drawn first). */
void serve_load_lengths(struct serve_load *l, int *prompt_tokens, int *output_tokens);

/* A length clamped to [min, max] (max <= 0: no upper bound) and rounded
 * to a whole number of tokens, at least 1. */
int serve_load_clamp(const struct length_spec *s, double x);

#endif
