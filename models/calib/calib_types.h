/*
 * calib_types: the records of a calibration (the candidate constants, the
 * measurements' points, the result), shared by calib's modules.
 */
#ifndef CLUSTERSIM_MODELS_CALIB_CALIB_TYPES_H
#define CLUSTERSIM_MODELS_CALIB_CALIB_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "models/hw/hw.h"
#include "models/measure/measure.h"
#include "models/validate/validation.h"

enum calib_section { CALIB_GPU, CALIB_FABRIC, CALIB_ENGINE };

/* Why a constant was or was not fitted. */
enum calib_state {
	CALIB_UNUSED,     /* no measurement's prediction depends on it */
	CALIB_FITTED,
	CALIB_UNDETERMINED /* its posterior sd is not well below its prior sd */
};

/* The default relative error of a prediction against a measurement when the
 * constants are right (the model's structural error plus measurement
 * noise): the built-in validation's median |error| over its 148 predicted
 * rows is 3.7% (clustersim validate on every file of scenarios/validation/,
 * 2026-12-06); for a normal error, median |e| = 0.6745 sigma, so sigma =
 * 3.7% / 0.6745 = 5.5%. `calibrate --error PCT` sets another. */
#define CALIB_ERROR_DEFAULT 0.055
/* A constant is fitted when its posterior sd is below this fraction of its
 * prior sd: the measurements, not the prior, determine it. */
#define CALIB_DETERMINED 0.5

/* A fit moves a constant by at most this factor either way: further, the
 * measurements are not describing that constant (it ends at_bound). */
#define CALIB_RANGE 10.0

/* One candidate constant: a field of a catalog entry, in the JSON's units. */
struct calib_param {
	enum calib_section section;
	char entry[CAT_NAME_MAX];  /* the catalog entry's name */
	const char *field;         /* its JSON key: "mamf_bf16", "latency_us", ... */
	double before, after;      /* after == before unless fitted */
	double upper;              /* physical upper bound; 0: none (a latency) */
	double lo, hi;             /* the fit's range: within CALIB_RANGE of before and the bound */
	double sd_prior;           /* the prior's sd of log(value): the catalog's spread */
	double sd_post;            /* the posterior sd of log(value) (0: not in the fit) */
	enum calib_state state;
	bool at_bound;             /* fitted to an end of its range (clamped) */
};

/* One measurement and what the model makes of it. */
struct calib_point {
	const struct measure_doc *doc;  /* borrowed from the set */
	char id[128];
	char metric[CAT_NAME_MAX];
	char source[CAT_NOTE_MAX];
	enum validation_kind kind;
	double measured;
	bool ok;                        /* predicted under the starting catalog */
	char why[512];                  /* when not: the model's reason */
	double before, after;           /* predictions under the starting and fitted catalogs */
	bool after_ok;
	bool has_heldout;
	double heldout;                 /* predicted by the fit without this point */
	char heldout_why[128];          /* when no held-out prediction: why */
	char entries[4][CAT_NAME_MAX];  /* the catalog entries it runs on: gpu, scale-up, host, nic */
	int n_entries;
	char engine[CAT_NAME_MAX];      /* the engines entry whose constants it uses ("": none) */
};

struct calib_result {
	struct calib_param *params;  /* owned, in catalog order of the entries used */
	size_t n_params;
	struct calib_point *points;  /* owned, in the set's order */
	size_t n_points;
	size_t n_fitted;
	int iterations;              /* of the fit on every point */
	double error_rel;            /* sigma of log(predicted / measured) */
	size_t n_evals;              /* model predictions run (cache misses) */
};

#endif
