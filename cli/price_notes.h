/*
 * price_notes: the warnings about the prices a command's candidates use,
 * one per distinct price. A catalog price observed over a year before the
 * catalog's as_of date (or with no date at all) is used but said on
 * standard error (never in the rows, which stay the same whatever the
 * day): once per price, naming the first candidate or shape that uses it
 * and how many more do, however many of them there are.
 *
 * It only collects and prints warnings: it never changes a price.
 */
#ifndef CLUSTERSIM_CLI_PRICE_NOTES_H
#define CLUSTERSIM_CLI_PRICE_NOTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The warnings collected; start from { 0 }. */
struct price_notes {
	struct price_note *v;
	size_t n, cap;
};

/* Note that candidate who uses a price with the warning text (a
 * price_quote's stale; "" adds nothing). A text already noted counts one
 * more user; one noted as said (price_notes_mark_said) is left out. Both
 * strings are copied. */
void price_notes_add(struct price_notes *ns, const char *who, const char *text);

/* Every text noted so far counts as said already: price_notes_say leaves
 * them out (a command that warned about its candidates, then about its
 * shapes, says each price once). */
void price_notes_mark_said(struct price_notes *ns);

/* One line on f per text noted and not said yet, in the order noted:
 * "clustersim: warning: TEXT (WHAT 'first')" or "(WHAT 'first' and N
 * more)", WHAT being "candidate" or "shape"; they count as said after. */
void price_notes_say(struct price_notes *ns, FILE *f, const char *what);

/* Free what ns holds; it is empty again. */
void price_notes_release(struct price_notes *ns);

#endif
