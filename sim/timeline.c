#include "timeline.h"

#include <stdlib.h>

#include "util/text.h"
#include "util/xalloc.h"

void timeline_add(struct timeline *t, int stage, int stream, const char *name, double start_s, double end_s)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->spans = xreallocarray(t->spans, t->cap, sizeof *t->spans);
	}
	struct timeline_span *s = &t->spans[t->n++];
	s->stage = stage;
	s->stream = stream;
	text_copy(s->name, sizeof s->name, name);
	s->start_s = start_s;
	s->end_s = end_s;
}

void timeline_release(struct timeline *t)
{
	free(t->spans);
	t->spans = NULL;
	t->n = t->cap = 0;
}
