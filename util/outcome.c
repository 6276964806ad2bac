#include "outcome.h"

#include "util/text.h"

const char *const outcome_names[] = { "ok", "oom", "invalid", "unsupported", "error", NULL };

void outcome_vset(struct outcome *o, enum outcome_status s, const char *fmt, va_list ap)
{
	o->status = s;
	text_vsetf(o->reason, sizeof o->reason, fmt, ap);
}

void outcome_set(struct outcome *o, enum outcome_status s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	outcome_vset(o, s, fmt, ap);
	va_end(ap);
}

void outcome_add(struct outcome *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	text_vappend_itemf(o->reason, sizeof o->reason, "; ", fmt, ap);
	va_end(ap);
}
