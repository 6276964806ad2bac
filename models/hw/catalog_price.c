#include "catalog.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "util/text.h"

/* catalog_price: the price lookups of catalog.h (which row answers an ask,
 * which rows an ask cannot tell apart, a row's age and status), over the
 * catalog's public accessors. */

/* Whether a row fits an ask's provider, type and term (a reserved price asked
 * without a term is a commitment, never a row of the older spelling of a
 * capacity block). */
static bool price_fits(const struct price_spec *p, const char *provider, enum price_type type,
		       const char *term)
{
	if (!text_equal_nocase(p->provider, provider) || p->type != type)
		return false;
	if (term != NULL && term[0] != '\0' && !text_equal_nocase(p->term, term))
		return false;
	if ((term == NULL || term[0] == '\0') && type == PRICE_RESERVED &&
	    text_equal_nocase(p->term, "capacity-block"))
		return false;
	return true;
}

/* Whether a row names the asked GPU (by name or alias); any GPU when none is asked. */
static bool price_gpu_is(const catalog *c, const struct price_spec *p, const char *gpu)
{
	if (gpu == NULL || gpu[0] == '\0')
		return true;
	const struct gpu_spec *want = catalog_gpu(c, gpu);
	return want != NULL && want == catalog_gpu(c, p->gpu);
}

const struct price_spec *catalog_price_find(const catalog *c, const char *provider,
					    enum price_type type, const char *offering,
					    const char *gpu, const char *term)
{
	/* Two passes: by offering and GPU first (a provider may sell several
	 * GPUs under one offering name), then by GPU alone. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < catalog_price_count(c); i++) {
			const struct price_spec *p = catalog_price_at(c, i);
			if (!price_fits(p, provider, type, term))
				continue;
			if (pass == 0) {
				if (offering == NULL || offering[0] == '\0' ||
				    !text_equal_nocase(p->offering, offering) || !price_gpu_is(c, p, gpu))
					continue;
			} else if (gpu == NULL || gpu[0] == '\0' || !price_gpu_is(c, p, gpu)) {
				continue;
			}
			return p;
		}
	}
	return NULL;
}

const struct price_spec *catalog_price_rival(const catalog *c, const struct price_spec *p,
					     const char *offering, const char *gpu, const char *term)
{
	if (p == NULL)
		return NULL;
	bool by_offering = offering != NULL && offering[0] != '\0' && text_equal_nocase(p->offering, offering);
	for (size_t i = 0; i < catalog_price_count(c); i++) {
		const struct price_spec *q = catalog_price_at(c, i);
		if (q == p || !price_fits(q, p->provider, p->type, term))
			continue;
		/* Rows of one offering and GPU differ by date or region (a file
		 * refuses two of one date and region): a history, newest first,
		 * or a variant, never a rival. */
		if (by_offering) {
			if ((gpu == NULL || gpu[0] == '\0') && text_equal_nocase(q->offering, p->offering) &&
			    catalog_gpu(c, q->gpu) != catalog_gpu(c, p->gpu))
				return q;
		} else if (price_gpu_is(c, q, p->gpu) && p->offering[0] != '\0' && q->offering[0] != '\0' &&
			   !text_equal_nocase(q->offering, p->offering)) {
			return q;
		}
	}
	return NULL;
}

bool catalog_price_stale(const catalog *c, const struct price_spec *p)
{
	if (catalog_as_of(c)[0] == '\0' || p->observed[0] == '\0')
		return false;
	/* The cutoff is as_of one year earlier; a month-only date is compared by
	 * month, so it is stale only when its whole month lies before the cutoff's. */
	char cutoff[CAT_NAME_MAX];
	int year = atoi(catalog_as_of(c));
	snprintf(cutoff, sizeof cutoff, "%04d%s", year - 1, catalog_as_of(c) + 4);
	size_t n = strlen(p->observed);
	if (n == 7)
		return strncmp(p->observed, cutoff, 7) < 0;
	return strcmp(p->observed, cutoff) < 0;
}

const char *catalog_price_status(const catalog *c, const struct price_spec *p)
{
	/* A price's history lists its newest row first, and a lookup takes the
	 * first match; a row of another region is a variant, not history. */
	const struct price_spec *taken = catalog_price_find(c, p->provider, p->type, p->offering, p->gpu, p->term);
	if (taken != NULL && taken != p && text_equal_nocase(taken->region, p->region) &&
	    text_equal_nocase(taken->offering, p->offering))
		return "superseded";
	if (catalog_price_stale(c, p))
		return "over a year";
	if (p->observed[0] == '\0')
		return "undated";
	return "";
}
