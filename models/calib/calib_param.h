/*
 * calib_param: calib's candidate constants, their names and reasons, and the
 * catalog a vector of their values makes.
 */
#ifndef CLUSTERSIM_MODELS_CALIB_CALIB_PARAM_H
#define CLUSTERSIM_MODELS_CALIB_CALIB_PARAM_H

#include <jansson.h>

#include "models/calib/calib_types.h"
#include "models/hw/catalog.h"

/* Append to res->params the candidates of every GPU and fabric entry of
 * base that a predicted point of res runs on, in the catalog's order. */
void calib_params_collect(const catalog *base, struct calib_result *res);

/* True when pt runs on p's entry. */
bool calib_point_uses(const struct calib_point *pt, const struct calib_param *p);

/* The overlay setting params[i] to values[i] (only those != before when
 * only_moved). New reference. */
json_t *calib_params_overlay(const struct calib_param *params, size_t n, const double *values, bool only_moved);

/* base with the values merged; NULL when the catalog refuses one. Caller frees. */
catalog *calib_catalog_at(const catalog *base, const struct calib_param *params, size_t n, const double *values);

/* The model's value of pt's metric under cat; false with the reason in why. */
bool calib_predict(const catalog *cat, const struct calib_point *pt, double *out, char *why, size_t size);

/* The printable name of a constant: "ENTRY.FIELD". */
void calib_param_name(const struct calib_param *p, char *buf, size_t size);

/* Why p of res was not fitted, or was held at an end of its range, into
 * buf; "" for a constant fitted inside its range. */
void calib_param_reason(const struct calib_result *res, const struct calib_param *p, char *buf, size_t size);

/* The prior sd of log(value) of a constant named field. */
double calib_prior_sd(const char *field);

/* The relative error of a prediction, in percent (validate's). */
double calib_error_pct(double measured, double predicted);

#endif
