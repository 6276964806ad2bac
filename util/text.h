/*
 * text: small string helpers for messages and name lookup.
 *
 * Case-insensitive comparison, edit distance for "did you mean" suggestions,
 * and quoting of untrusted input for one-line error messages.
 */
#ifndef CLUSTERSIM_UTIL_TEXT_H
#define CLUSTERSIM_UTIL_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

/* ASCII case-insensitive equality. */
bool text_equal_nocase(const char *a, const char *b);

/* Damerau-free Levenshtein distance, ASCII case-insensitive; strings longer
 * than 127 bytes are compared on their first 127. */
int text_edit_distance(const char *a, const char *b);

/*
 * Collects the closest names to a misspelt one. Feed every candidate with
 * text_suggest_add(), then text_suggest_format() writes
 * `, did you mean "a", "b"?` (or nothing when none is close) into buf.
 */
struct text_suggest {
	const char *wanted;
	const char *best[3];
	int dist[3];
};

void text_suggest_init(struct text_suggest *s, const char *wanted);
void text_suggest_add(struct text_suggest *s, const char *name);
void text_suggest_format(const struct text_suggest *s, char *buf, size_t size);

/*
 * Write s into buf as a double-quoted, printable, one-line string:
 * control and non-ASCII bytes become \xNN, quotes and backslashes are
 * escaped, and anything past about 60 characters is cut with "...".
 */
void text_quote(const char *s, char *buf, size_t size);

/*
 * Bounded text that says when it is cut: reasons, notes and messages a
 * user reads. text_setf() formats into buf of size bytes (at least
 * TEXT_CUT_MIN): the whole text and true when it fits; else the start of
 * the text, cut at a UTF-8 character's boundary, then TEXT_CUT_MARK with
 * the count of the text's bytes not shown, e.g. "... [cut: 112 more
 * bytes]", and false. A cut text ends with the mark, so it is never cut
 * silently. text_appendf() appends the same way; appended to a text
 * already cut, its bytes join the count (the shown start stays).
 */
#define TEXT_CUT_MARK "... [cut: %zu more bytes]"
enum { TEXT_CUT_MIN = 64 };

bool text_setf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool text_vsetf(char *buf, size_t size, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
bool text_appendf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool text_vappendf(char *buf, size_t size, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

/* Append one item of a list: sep first unless buf is empty (a reason's
 * "; "), then fmt, as text_appendf() does. */
bool text_append_itemf(char *buf, size_t size, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
bool text_vappend_itemf(char *buf, size_t size, const char *sep, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* Copy src into dst of size bytes; returns false (and truncates) when it
 * does not fit. For names checked to fit beforehand; text a user reads
 * goes through text_setf(), which marks a cut. */
bool text_copy(char *dst, size_t size, const char *src);

/* Format a double for output: six significant digits, plain decimal notation
 * between 1e-4 and 1e15, no trailing zeros, "0" for zero and -0. The value
 * must be finite. */
void text_format_real(double x, char *buf, size_t size);

/* Whole dollars with thousands separators, "$1,234,567", into buf (at
 * least 2 bytes; digits that do not fit are left out). */
void text_usd(double usd, char *buf, size_t size);

/* Bytes that hold text_usd() of any double, its terminator included. */
enum { TEXT_USD_MAX = 448 };

/* Dollars and cents, "$191.36", below cents_below; whole dollars as
 * text_usd() from there. The one dollar format of a sentence or a label. */
void text_usd_cents(double usd, double cents_below, char *buf, size_t size);

/* Read all of f into a new buffer (caller frees; *len bytes, not
 * terminated). An input of up to max_bytes is read whole; after
 * max_bytes + 1 bytes it stops and sets *too_big (memory: at most
 * max_bytes + 1 bytes, whatever the input). Read errors are left in
 * ferror(f). Out of memory exits, as every xalloc does. */
char *text_read_stream(FILE *f, size_t max_bytes, size_t *len, bool *too_big);

/* What text_read_line() found. */
enum text_line {
	TEXT_LINE_OK,        /* a line: through its '\n', or the input's last bytes without one */
	TEXT_LINE_END,       /* no more input */
	TEXT_LINE_TOO_LONG,  /* max_bytes read without a '\n': the rest of the line is left unread */
	TEXT_LINE_ERROR      /* a read error: ferror(f) is set and errno says why */
};

/*
 * Read one line of f into *buf (grown as needed, never past max_bytes + 1
 * bytes; the caller frees it): *len bytes, NUL bytes kept, a NUL added
 * after them. Unlike getline(), memory stays bounded whatever f holds
 * (/dev/zero, a file without a newline): a line longer than max_bytes is
 * TEXT_LINE_TOO_LONG as soon as max_bytes of it are read. Out of memory
 * exits, as every xalloc does (never a silent end of input).
 */
enum text_line text_read_line(FILE *f, char **buf, size_t *cap, size_t max_bytes, size_t *len);

#endif
