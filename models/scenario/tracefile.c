#include "tracefile.h"

#include <csv.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "util/text.h"
#include "util/xalloc.h"

void tracefile_init(struct tracefile *tf, const char *shown, char *msg, size_t msg_size)
{
	tf->shown = shown;
	tf->line = 1;
	tf->msg = msg;
	tf->msg_size = msg_size;
	tf->failed = false;
}

void tracefile_fail(struct tracefile *tf, const char *fmt, ...)
{
	char reason[512];
	va_list ap;
	if (tf->failed)
		return;
	va_start(ap, fmt);
	text_vsetf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	text_setf(tf->msg, tf->msg_size, "trace '%s': line %zu: %s", tf->shown, tf->line, reason);
	tf->failed = true;
}

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t';
}

static void *csv_xrealloc(void *q, size_t n)
{
	return xreallocarray(q, n ? n : 1, 1);
}

bool tracefile_parse(struct tracefile *tf, FILE *f, const struct tracefile_syntax *syntax,
		     void (*on_field)(void *field, size_t len, void *data), void (*on_row)(int c, void *data),
		     void *data)
{
	struct csv_parser parser;
	char *line = NULL;
	size_t linecap = 0, n;
	enum text_line got = TEXT_LINE_OK;

	if (csv_init(&parser, CSV_APPEND_NULL | (syntax->quoted ? CSV_STRICT | CSV_STRICT_FINI : 0)) != 0) {
		tracefile_fail(tf, "cannot start the CSV parser");
		return false;
	}
	csv_set_delim(&parser, (unsigned char)syntax->delim);
	if (syntax->quoted)
		csv_set_space_func(&parser, is_space);
	else
		csv_set_quote(&parser, '\0');  /* no quoting: a NUL byte, refused below, is the only "quote" */
	csv_set_realloc_func(&parser, csv_xrealloc);
	csv_set_free_func(&parser, free);
	errno = 0;
	while (!tf->failed && (got = text_read_line(f, &line, &linecap, TRACEFILE_LINE_MAX, &n)) == TEXT_LINE_OK) {
		size_t skip = 0;
		/* a UTF-8 byte order mark (as spreadsheets write) is not part of the header */
		if (tf->line == 1 && n >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
			skip = 3;
		if (memchr(line, '\0', n) != NULL)
			tracefile_fail(tf, "contains a NUL byte, not text");
		else if (csv_parse(&parser, line + skip, n - skip, on_field, on_row, data) != n - skip)
			tracefile_fail(tf, "malformed CSV: %s", csv_strerror(csv_error(&parser)));
		/* libcsv's public entry_pos: the field being parsed, which a quote
		 * may carry over lines */
		else if (parser.entry_pos > TRACEFILE_LINE_MAX)
			tracefile_fail(tf, "a quoted field longer than %zu bytes, the bound on a trace's field "
				       "(a quote not closed?)", TRACEFILE_LINE_MAX);
		if (n > 0 && line[n - 1] == '\n')
			tf->line++;
	}
	if (!tf->failed && got == TEXT_LINE_TOO_LONG)
		tracefile_fail(tf, "a line longer than %zu bytes, the bound on a trace's line", TRACEFILE_LINE_MAX);
	if (!tf->failed && got == TEXT_LINE_ERROR)
		tracefile_fail(tf, "cannot read: %s", strerror(errno ? errno : EIO));
	if (!tf->failed && csv_fini(&parser, on_field, on_row, data) != 0)
		tracefile_fail(tf, "a quoted field is not closed at the end of the file");
	csv_free(&parser);
	free(line);
	return !tf->failed;
}

FILE *tracefile_open(const char *path, char *msg, size_t msg_size)
{
	struct stat st;
	FILE *f = fopen(path, "rb");

	if (f == NULL) {
		text_setf(msg, msg_size, "trace '%s': cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		text_setf(msg, msg_size, "trace '%s': is a directory", path);
		return NULL;
	}
	return f;
}
