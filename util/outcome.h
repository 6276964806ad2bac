/*
 * outcome: how an evaluation ended and why, one record for every kind.
 *
 * A training step, a serving run, a fleet, a collective point and the
 * result row all begin with a struct outcome: a status (`ok`; `oom` and
 * `invalid`: the plan cannot run; `unsupported`: the job asks for something
 * read but not modelled yet; `error`: a figure overflowed or is not a
 * number) and the reason in words. Reasons are written with util/text.h's
 * rules: one of OUTCOME_REASON_MAX bytes or more is cut with a mark that
 * counts the bytes left out, never silently.
 */
#ifndef CLUSTERSIM_UTIL_OUTCOME_H
#define CLUSTERSIM_UTIL_OUTCOME_H

#include <stdarg.h>

enum outcome_status { OUTCOME_OK, OUTCOME_OOM, OUTCOME_INVALID, OUTCOME_UNSUPPORTED, OUTCOME_ERROR };
/* "ok", "oom", "invalid", "unsupported", "error" (the status column), NULL-terminated */
extern const char *const outcome_names[];

enum { OUTCOME_REASON_MAX = 2048 };

struct outcome {
	enum outcome_status status;
	char reason[OUTCOME_REASON_MAX];
};

/* Status s with the reason fmt (replacing any reason). */
void outcome_set(struct outcome *o, enum outcome_status s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void outcome_vset(struct outcome *o, enum outcome_status s, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Append "; fmt" to the reason (just fmt when it is empty); the status stays. */
void outcome_add(struct outcome *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
