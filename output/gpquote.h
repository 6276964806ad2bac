/*
 * gpquote: text from an input (a CSV header or cell, a file name, an
 * option) written into a gnuplot script so that gnuplot reads it back as
 * text, never as a command.
 *
 * gnuplot 5.4 reads a script a line at a time: a line ending in '\' goes
 * on to the next (comments included), '#' outside quotes starts a comment
 * to the end of the line, `@name` outside single quotes expands a string
 * variable, a backquote outside single quotes (inside double quotes too)
 * runs a shell command, and `'...'` is a string in which nothing is
 * expanded and `''` stands for one quote, except that its scanner reads a
 * `''` at the start of a string, or right after another, as the string's
 * end. Inline data (`$name << EOD` ... a line starting with EOD) is read
 * raw; its double-quoted fields end at the next '"' and their backslash
 * escapes are processed. Hence the forms below; what they write never
 * holds a newline, a carriage return or any other control character.
 *
 * The _new functions return a string the caller frees; the others write
 * to f. Out of memory exits (util/xalloc.h).
 */
#ifndef CLUSTERSIM_OUTPUT_GPQUOTE_H
#define CLUSTERSIM_OUTPUT_GPQUOTE_H

#include <stdbool.h>
#include <stdio.h>

/*
 * s as a gnuplot string expression for a command: single-quoted, each
 * quote of s written as the concatenation `'."\047".'` (the octal escape
 * of a double-quoted string holds no quote, no backquote and no '@'), so
 * `it's` becomes `'it'."\047".'s'`. Control characters (bytes below 0x20
 * and 0x7f) become spaces: the callers refuse them where a name must come
 * through exactly (gpquote_has_control()).
 */
void gpquote_string(FILE *f, const char *s);

/* gpquote_string() as a new string (caller frees): for `gnuplot -e`. */
char *gpquote_string_new(const char *s);

/*
 * A file name gnuplot opens (`set output`), as gpquote_string() writes
 * it, with "./" put before a name that starts with '|' (gnuplot would
 * run the rest as a shell command and write into its pipe) or "~/" (it
 * would write into the home directory). gpquote_file_new() returns a new
 * string (caller frees).
 */
void gpquote_file(FILE *f, const char *path);
char *gpquote_file_new(const char *path);

/*
 * s as a double-quoted field of a line of inline data: '"' written as the
 * escape \0042 (four octal digits: a digit after it is not read into it),
 * '\' as \\, control characters as spaces. The field starts with '"', so
 * its line can never start with the block's terminator.
 */
void gpquote_data(FILE *f, const char *s);

/*
 * s in a comment: printable ASCII but '\' as it is, every other byte
 * (control characters, '\', bytes from 0x7f) as \xNN, so that the comment
 * neither ends early nor carries on to the next line.
 */
void gpquote_comment(FILE *f, const char *s);

/* Whether s holds a control character (a byte below 0x20, or 0x7f); its
 * first one's offset into *at when it does (at may be NULL). */
bool gpquote_has_control(const char *s, size_t *at);

#endif
