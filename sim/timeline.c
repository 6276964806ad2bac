#include "timeline.h"

#include <stdlib.h>
#include <string.h>

#include "util/text.h"
#include "util/xalloc.h"

struct timeline_span *timeline_add(struct timeline *t, int track, int stream, const char *cat, const char *name,
				   double start_s, double end_s)
{
	struct timeline_span *s;
	if (t->max > 0 && t->n >= t->max) {
		t->dropped++;
		s = &t->spare;
	} else {
		if (t->n == t->cap) {
			t->cap = xgrow_cap(t->cap, t->n + 1, 256);
			if (t->max > 0 && t->cap > t->max)
				t->cap = t->max;
			t->spans = xreallocarray(t->spans, t->cap, sizeof *t->spans);
		}
		s = &t->spans[t->n++];
	}
	memset(s, 0, sizeof *s);
	s->track = track;
	s->stream = stream;
	s->cat = cat;
	text_copy(s->name, sizeof s->name, name);
	s->start_s = start_s;
	s->end_s = end_s;
	return s;
}

void timeline_span_arg(struct timeline_span *s, const char *key, double value)
{
	if (s->nargs >= TIMELINE_ARGS_MAX)
		return;
	s->args[s->nargs].key = key;
	s->args[s->nargs].value = value;
	s->nargs++;
}

void timeline_release(struct timeline *t)
{
	free(t->spans);
	t->spans = NULL;
	t->n = t->cap = t->dropped = 0;
}
