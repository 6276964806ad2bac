#include "serve_load.h"

#include <math.h>
#include <stdio.h>

#include "sim/rng.h"
#include "util/text.h"

static gsl_ran_discrete_t *bins_new(const struct length_spec *s)
{
	double total = 0;
	if (s->dist != LEN_HISTOGRAM)
		return NULL;
	for (int i = 0; i < s->n_bins; i++)
		total += s->bin_weight[i] > 0 ? s->bin_weight[i] : 0;
	if (!(total > 0))
		return NULL;
	return gsl_ran_discrete_preproc((size_t)s->n_bins, s->bin_weight);
}

int serve_load_init(struct serve_load *l, const struct serving_spec *sv, uint64_t seed, uint64_t row_id,
		    char *reason, size_t reason_len)
{
	l->sv = sv;
	l->arrivals = rng_stream_new(seed, row_id, RNG_ARRIVALS);
	l->lengths = rng_stream_new(seed, row_id, RNG_LENGTHS);
	l->prompt_bins = bins_new(&sv->prompt_tokens);
	l->output_bins = bins_new(&sv->output_tokens);
	if ((sv->prompt_tokens.dist == LEN_HISTOGRAM && l->prompt_bins == NULL) ||
	    (sv->output_tokens.dist == LEN_HISTOGRAM && l->output_bins == NULL)) {
		text_setf(reason, reason_len, "a token-length histogram has no bin of positive weight");
		serve_load_release(l);
		return -1;
	}
	return 0;
}

void serve_load_release(struct serve_load *l)
{
	gsl_rng_free(l->arrivals);
	gsl_rng_free(l->lengths);
	if (l->prompt_bins != NULL)
		gsl_ran_discrete_free(l->prompt_bins);
	if (l->output_bins != NULL)
		gsl_ran_discrete_free(l->output_bins);
	l->arrivals = l->lengths = NULL;
	l->prompt_bins = l->output_bins = NULL;
}

int serve_load_clamp(const struct length_spec *s, double x)
{
	if (s->max > 0 && x > s->max)
		x = s->max;
	if (x < s->min)
		x = s->min;
	if (!(x >= 1))
		x = 1;
	if (x > 1 << 30)
		x = 1 << 30;
	return (int)lround(x);
}

static int draw(gsl_rng *r, const struct length_spec *s, const gsl_ran_discrete_t *bins)
{
	double x = s->mean;
	switch (s->dist) {
	case LEN_FIXED:
		break;
	case LEN_LOGNORMAL:
		/* Mean m and sd s of the lengths themselves: sigma^2 = ln(1 + s^2/m^2),
		 * mu = ln m - sigma^2 / 2. */
		if (s->sd > 0 && s->mean > 0) {
			double s2 = log(1 + s->sd * s->sd / (s->mean * s->mean));
			x = gsl_ran_lognormal(r, log(s->mean) - s2 / 2, sqrt(s2));
		}
		break;
	case LEN_NORMAL:
		x = s->mean + (s->sd > 0 ? gsl_ran_gaussian(r, s->sd) : 0);
		break;
	case LEN_UNIFORM:
		/* Whole tokens min..max, each equally likely. */
		if (s->max >= s->min) {
			double lo = ceil(s->min), hi = floor(s->max);
			x = hi >= lo ? lo + floor(gsl_rng_uniform(r) * (hi - lo + 1)) : lo;
		}
		break;
	case LEN_HISTOGRAM:
		x = s->bin_tokens[gsl_ran_discrete(r, bins)];
		break;
	}
	return serve_load_clamp(s, x);
}

void serve_load_lengths(struct serve_load *l, int *prompt_tokens, int *output_tokens)
{
	*prompt_tokens = draw(l->lengths, &l->sv->prompt_tokens, l->prompt_bins);
	*output_tokens = draw(l->lengths, &l->sv->output_tokens, l->output_bins);
}
