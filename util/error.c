#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

void error_clear(struct cs_error *err)
{
	err->kind = ERROR_NONE;
	err->msg[0] = '\0';
}

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static int utf8_length(const unsigned char *s)
{
	int n;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2)
		n = 2;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3;
	else if ((s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Keep messages on one printable line whatever the input contained:
 * control characters become spaces, bytes that are not UTF-8 become '?'. */
static void error_flatten(char *str)
{
	unsigned char *s = (unsigned char *)str;
	while (*s) {
		int n = utf8_length(s);
		if (n == 0) {
			*s++ = '?';
			continue;
		}
		if (n == 1 && (*s < 0x20 || *s == 0x7f))
			*s = ' ';
		s += n;
	}
}

static int error_vset(struct cs_error *err, enum error_kind kind, const char *fmt, va_list ap)
{
	err->kind = kind;
	text_vsetf(err->msg, sizeof err->msg, fmt, ap);
	error_flatten(err->msg);
	return -1;
}

int error_set(struct cs_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_vset(err, ERROR_INPUT, fmt, ap);
	va_end(ap);
	return -1;
}

int error_runtime(struct cs_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_vset(err, ERROR_RUNTIME, fmt, ap);
	va_end(ap);
	return -1;
}

/* The prefix takes at most half the room, so the message keeps its start;
 * either cut ends with util/text.h's mark. */
void error_prefix(struct cs_error *err, const char *fmt, ...)
{
	char head[ERROR_MSG_MAX / 2], msg[ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	text_vsetf(head, sizeof head, fmt, ap);
	va_end(ap);
	memcpy(msg, err->msg, sizeof msg);
	text_setf(err->msg, sizeof err->msg, "%s: %s", head, msg);
	error_flatten(err->msg);
}
