#include "price_notes.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct price_note {
	char *text;
	char *first;   /* the first candidate or shape that uses it */
	size_t users;
	bool said;
};

/* O(n) per call in the distinct prices noted, which are few (one per
 * provider, offering and price type). */
void price_notes_add(struct price_notes *ns, const char *who, const char *text)
{
	if (text[0] == '\0')
		return;
	for (size_t i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i].text, text) == 0) {
			ns->v[i].users++;
			return;
		}
	ns->v = xgrow(ns->v, &ns->cap, ns->n + 1, sizeof *ns->v, 8);
	ns->v[ns->n++] = (struct price_note){ .text = xstrdup(text), .first = xstrdup(who), .users = 1 };
}

void price_notes_mark_said(struct price_notes *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		ns->v[i].said = true;
}

void price_notes_say(struct price_notes *ns, FILE *f, const char *what)
{
	for (size_t i = 0; i < ns->n; i++) {
		const struct price_note *p = &ns->v[i];
		if (p->said)
			continue;
		fprintf(f, "clustersim: warning: %s (%s '%s'", p->text, what, p->first);
		if (p->users > 1)
			fprintf(f, " and %zu more", p->users - 1);
		fputs(")\n", f);
	}
	price_notes_mark_said(ns);
}

void price_notes_release(struct price_notes *ns)
{
	for (size_t i = 0; i < ns->n; i++) {
		free(ns->v[i].text);
		free(ns->v[i].first);
	}
	free(ns->v);
	*ns = (struct price_notes){ 0 };
}
