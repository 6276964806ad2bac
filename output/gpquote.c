#include "gpquote.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* A quote inside a single-quoted string: end it, concatenate a double-
 * quoted string holding the quote as an octal escape, start another. */
static const char quote_piece[] = "'.\"\\047\".'";

/* s as gpquote_string() writes it, after prefix (its bytes kept as they are). */
static char *string_new(const char *prefix, const char *s)
{
	size_t np = strlen(prefix), n = 0, quotes = 0;
	char *out;

	for (const char *p = s; *p; p++)
		quotes += *p == '\'';
	out = xmalloc(np + strlen(s) + quotes * (sizeof quote_piece - 2) + 3);
	out[n++] = '\'';
	memcpy(out + n, prefix, np);
	n += np;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\'') {
			memcpy(out + n, quote_piece, sizeof quote_piece - 1);
			n += sizeof quote_piece - 1;
		} else {
			out[n++] = is_control(c) ? ' ' : (char)c;
		}
	}
	out[n++] = '\'';
	out[n] = '\0';
	return out;
}

char *gpquote_string_new(const char *s)
{
	return string_new("", s);
}

void gpquote_string(FILE *f, const char *s)
{
	char *q = string_new("", s);
	fputs(q, f);
	free(q);
}

char *gpquote_file_new(const char *path)
{
	bool shield = path[0] == '|' || (path[0] == '~' && path[1] == '/');
	return string_new(shield ? "./" : "", path);
}

void gpquote_file(FILE *f, const char *path)
{
	char *q = gpquote_file_new(path);
	fputs(q, f);
	free(q);
}

void gpquote_data(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"')
			fputs("\\0042", f);
		else if (c == '\\')
			fputs("\\\\", f);
		else
			fputc(is_control(c) ? ' ' : c, f);
	}
	fputc('"', f);
}

void gpquote_comment(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c < 0x7f && c != '\\')
			fputc(c, f);
		else
			fprintf(f, "\\x%02x", c);
	}
}

bool gpquote_has_control(const char *s, size_t *at)
{
	for (const char *p = s; *p; p++)
		if (is_control((unsigned char)*p)) {
			if (at != NULL)
				*at = (size_t)(p - s);
			return true;
		}
	return false;
}
