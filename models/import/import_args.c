/* import: the notes of an import and argument lists, from argv or from a
 * launch script's argument file. */
#include "models/import/import.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"
#include "util/xalloc.h"

enum { ARGS_FILE_MAX_BYTES = 1 << 20 };

void import_note(struct import_notes *notes, const char *fmt, ...)
{
	va_list ap;
	char line[1024];

	va_start(ap, fmt);
	if (!text_vsetf(line, sizeof line, fmt, ap))
		strcpy(line + sizeof line - 5, "...");  /* a note, never an input: marked cut */
	va_end(ap);
	notes->lines = xgrow(notes->lines, &notes->cap, notes->n + 1, sizeof *notes->lines, 8);
	notes->lines[notes->n++] = xstrdup(line);
}

void import_notes_release(struct import_notes *notes)
{
	for (size_t i = 0; i < notes->n; i++)
		free(notes->lines[i]);
	free(notes->lines);
	*notes = (struct import_notes){ 0 };
}

void import_args_add(struct import_args *a, const char *arg, long line)
{
	size_t cap = a->cap;
	a->argv = xgrow(a->argv, &a->cap, a->n + 1, sizeof *a->argv, 16);
	a->line = xgrow(a->line, &cap, a->n + 1, sizeof *a->line, 16);
	a->argv[a->n] = xstrdup(arg);
	a->line[a->n++] = line;
}

void import_args_release(struct import_args *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->argv[i]);
	free(a->argv);
	free(a->line);
	*a = (struct import_args){ 0 };
}

void import_args_where(const struct import_args *a, size_t i, char *buf, size_t size)
{
	if (a->file != NULL && i < a->n && a->line[i] > 0)
		text_setf(buf, size, "'%s' line %ld", a->file, a->line[i]);
	else
		text_setf(buf, size, "argument %zu", i + 1);
}

/* A word being built. */
struct word {
	char *s;
	size_t n, cap;
	bool any;   /* a word started (quotes make an empty one) */
};

static void word_put(struct word *w, char c)
{
	w->s = xgrow(w->s, &w->cap, w->n + 2, 1, 64);
	w->s[w->n++] = c;
	w->s[w->n] = '\0';
	w->any = true;
}

/* True when the word (as read, before its quotes were removed) names an
 * unexpanded shell variable or command substitution. */
static bool has_shell_variable(const char *raw, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (raw[i] == '$' && (raw[i + 1] == '{' || raw[i + 1] == '(' || raw[i + 1] == '_' ||
				      (raw[i + 1] >= 'A' && raw[i + 1] <= 'Z') || (raw[i + 1] >= 'a' && raw[i + 1] <= 'z')))
			return true;
	return false;
}

/* Split text (len bytes of file) into words as a POSIX shell would for a
 * command's arguments, without expansions (see import.h). */
static int split_words(struct import_args *a, const char *file, const char *text, size_t len,
		       struct cs_error *err)
{
	struct word w = { 0 };
	long line = 1, word_line = 1;
	size_t raw_start = 0;
	int rc = 0;

	for (size_t i = 0; i <= len && rc == 0; i++) {
		char c = i < len ? text[i] : '\n';
		if (i < len && (unsigned char)c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
			rc = error_set(err, "arguments '%s' line %ld: control byte 0x%02x: not a text file", file, line,
				       (unsigned)(unsigned char)c);
		} else if (c == '\\' && i + 1 < len && text[i + 1] == '\n') {
			i++;
			line++;
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			if (w.any) {
				if (has_shell_variable(text + raw_start, i - raw_start))
					rc = error_set(err, "arguments '%s' line %ld: '%.*s' holds a shell variable: "
							    "expand it first (the values the script runs with)",
						       file, word_line, (int)(i - raw_start > 80 ? 80 : i - raw_start),
						       text + raw_start);
				else
					import_args_add(a, w.s, word_line);
				w.n = 0;
				w.any = false;
			}
			if (c == '\n')
				line++;
		} else if (c == '#' && !w.any) {
			while (i + 1 < len && text[i + 1] != '\n')
				i++;
		} else if (c == '\'' || c == '"') {
			char q = c;
			long open_line = line;
			if (!w.any) {
				raw_start = i;
				word_line = line;
			}
			w.any = true;
			for (i++; i < len && text[i] != q; i++) {
				if (text[i] == '\n')
					line++;
				if (q == '"' && text[i] == '\\' && i + 1 < len &&
				    strchr("\"\\$`\n", text[i + 1]) != NULL) {
					if (text[++i] == '\n') {
						line++;
						continue;
					}
				}
				word_put(&w, text[i]);
			}
			if (i >= len)
				rc = error_set(err, "arguments '%s' line %ld: unterminated %c quote", file, open_line, q);
		} else {
			if (!w.any) {
				raw_start = i;
				word_line = line;
			}
			if (c == '\\' && i + 1 < len)
				c = text[++i];
			word_put(&w, c);
		}
	}
	free(w.s);
	return rc;
}

int import_args_read_file(struct import_args *a, const char *file, struct cs_error *err)
{
	FILE *f = strcmp(file, "-") == 0 ? stdin : fopen(file, "rb");
	size_t len = 0;
	bool too_big = false;
	char *text;
	int rc;

	if (f == NULL)
		return error_set(err, "arguments '%s': %s", file, strerror(errno));
	text = text_read_stream(f, ARGS_FILE_MAX_BYTES, &len, &too_big);
	rc = ferror(f) ? -1 : 0;
	if (f != stdin)
		fclose(f);
	if (too_big || rc < 0) {
		free(text);
		return too_big ? error_set(err, "arguments '%s': larger than 1 MiB", file)
			       : error_set(err, "arguments '%s': cannot read", file);
	}
	a->file = file;
	rc = split_words(a, file, text, len, err);
	free(text);
	return rc < 0 ? -1 : 0;
}
