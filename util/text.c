#include "text.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "xalloc.h"

static inline int text_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

bool text_equal_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (text_lower((unsigned char)*a) != text_lower((unsigned char)*b))
			return false;
	return *a == *b;
}

int text_edit_distance(const char *a, const char *b)
{
	enum { MAXLEN = 127 };
	int prev[MAXLEN + 1], cur[MAXLEN + 1];
	size_t la = strlen(a), lb = strlen(b);

	if (la > MAXLEN)
		la = MAXLEN;
	if (lb > MAXLEN)
		lb = MAXLEN;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int cost = text_lower((unsigned char)a[i - 1]) != text_lower((unsigned char)b[j - 1]);
			int best = prev[j - 1] + cost;
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			cur[j] = best;
		}
		memcpy(prev, cur, sizeof(int) * (lb + 1));
	}
	return prev[lb];
}

void text_suggest_init(struct text_suggest *s, const char *wanted)
{
	s->wanted = wanted;
	for (int i = 0; i < 3; i++) {
		s->best[i] = NULL;
		s->dist[i] = 1 << 30;
	}
}

/* A name counts as close when it is within about a third of its length, or
 * when one contains the other (a prefix such as "h100" for "H100-SXM"). */
static int text_closeness(const char *wanted, const char *name)
{
	int d = text_edit_distance(wanted, name);
	size_t lw = strlen(wanted), ln = strlen(name);
	size_t longer = lw > ln ? lw : ln;
	if (lw >= 2 && ln >= lw) {
		for (size_t i = 0; i + lw <= ln; i++) {
			size_t k = 0;
			while (k < lw && text_lower((unsigned char)name[i + k]) == text_lower((unsigned char)wanted[k]))
				k++;
			if (k == lw)
				return 1 + (int)(ln - lw) / 4; /* contained: rank by how much is extra */
		}
	}
	if ((size_t)d * 3 <= longer + 2)
		return d + 1;
	/* A misspelt prefix ("H1OO" for "H100-SXM"): compare with the name's
	 * first characters. */
	if (lw >= 3 && ln > lw) {
		char head[128];
		size_t n = lw < sizeof head - 1 ? lw : sizeof head - 1;
		memcpy(head, name, n);
		head[n] = '\0';
		int dp = text_edit_distance(wanted, head);
		if ((size_t)dp * 3 <= lw + 2)
			return dp + 2 + (int)(ln - lw) / 4;
	}
	return -1;
}

void text_suggest_add(struct text_suggest *s, const char *name)
{
	int d = text_closeness(s->wanted, name);
	if (d < 0)
		return;
	for (int i = 0; i < 3; i++) {
		if (s->best[i] != NULL && text_equal_nocase(s->best[i], name))
			return;
	}
	for (int i = 0; i < 3; i++) {
		if (d < s->dist[i]) {
			for (int k = 2; k > i; k--) {
				s->best[k] = s->best[k - 1];
				s->dist[k] = s->dist[k - 1];
			}
			s->best[i] = name;
			s->dist[i] = d;
			return;
		}
	}
}

void text_suggest_format(const struct text_suggest *s, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	if (s->best[0] == NULL)
		return;
	used += (size_t)snprintf(buf, size, ", did you mean ");
	for (int i = 0; i < 3 && s->best[i] != NULL && used < size; i++) {
		char q[96];
		text_quote(s->best[i], q, sizeof q);
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", q);
	}
	if (used < size)
		snprintf(buf + used, size - used, "?");
}

void text_quote(const char *s, char *buf, size_t size)
{
	enum { MAXSHOW = 60 };
	size_t o = 0, shown = 0;

	assert(size >= 8);
	buf[o++] = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char tmp[8];
		size_t n;
		if (shown >= MAXSHOW) {
			if (o + 5 < size) {
				memcpy(buf + o, "...", 3);
				o += 3;
			}
			break;
		}
		if (c == '"' || c == '\\')
			n = (size_t)snprintf(tmp, sizeof tmp, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			n = (size_t)snprintf(tmp, sizeof tmp, "\\x%02x", c);
		else
			n = (size_t)snprintf(tmp, sizeof tmp, "%c", c);
		if (o + n + 2 > size)
			break;
		memcpy(buf + o, tmp, n);
		o += n;
		shown++;
	}
	buf[o++] = '"';
	buf[o] = '\0';
}

/* Bytes the mark takes for a count of n. */
static size_t cut_mark_len(size_t n)
{
	return (size_t)snprintf(NULL, 0, TEXT_CUT_MARK, n);
}

/* A byte that continues a UTF-8 character (10xxxxxx). */
static bool utf8_continues(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/*
 * buf holds the first `shown` bytes (shown < size) of a text of `total`
 * bytes that does not fit in size: keep the longest start of at most
 * shown bytes that leaves room for the mark of the bytes not kept, ending
 * before a character, never inside one, and write the mark after it.
 */
static void cut_mark(char *buf, size_t size, size_t shown, size_t total)
{
	size_t keep = shown;
	assert(size >= TEXT_CUT_MIN && shown < size && shown < total);
	for (;;) {
		while (keep > 0 && keep + cut_mark_len(total - keep) > size - 1)
			keep--;
		if (keep == 0 || !utf8_continues(buf[keep]))
			break;
		keep--;
	}
	snprintf(buf + keep, size - keep, TEXT_CUT_MARK, total - keep);
}

/*
 * When buf's text ends with the mark and fills its size (within the few
 * bytes a cut before a character leaves), it was cut: the length of the
 * start it shows and the count of bytes not shown.
 */
static bool cut_count(const char *buf, size_t size, size_t *shown, size_t *not_shown)
{
	static const char head[] = "... [cut: ";
	size_t len = strlen(buf);
	const char *mark = NULL, *p, *end;

	if (len + 8 < size)
		return false;
	for (p = strstr(buf, head); p != NULL; p = strstr(p + 1, head))
		mark = p;
	if (mark == NULL)
		return false;
	p = mark + sizeof head - 1;
	*not_shown = 0;
	for (end = p; *end >= '0' && *end <= '9'; end++)
		*not_shown = *not_shown * 10 + (size_t)(*end - '0');
	if (end == p || strcmp(end, " more bytes]") != 0)
		return false;
	*shown = (size_t)(mark - buf);
	return true;
}

bool text_vsetf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n;
	assert(size >= TEXT_CUT_MIN);
	n = vsnprintf(buf, size, fmt, ap);
	assert(n >= 0);
	if ((size_t)n < size)
		return true;
	cut_mark(buf, size, size - 1, (size_t)n);
	return false;
}

bool text_setf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	bool whole;
	va_start(ap, fmt);
	whole = text_vsetf(buf, size, fmt, ap);
	va_end(ap);
	return whole;
}

bool text_vappendf(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t used = strlen(buf), shown, not_shown;
	int n;

	assert(size >= TEXT_CUT_MIN && used < size);
	if (cut_count(buf, size, &shown, &not_shown)) {
		n = vsnprintf(NULL, 0, fmt, ap);
		assert(n >= 0);
		if (n > 0)
			cut_mark(buf, size, shown, shown + not_shown + (size_t)n);
		return false;
	}
	n = vsnprintf(buf + used, size - used, fmt, ap);
	assert(n >= 0);
	if (used + (size_t)n < size)
		return true;
	cut_mark(buf, size, size - 1, used + (size_t)n);
	return false;
}

bool text_appendf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	bool whole;
	va_start(ap, fmt);
	whole = text_vappendf(buf, size, fmt, ap);
	va_end(ap);
	return whole;
}

bool text_copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n >= size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return false;
	}
	memcpy(dst, src, n + 1);
	return true;
}

void text_format_real(double x, char *buf, size_t size)
{
	double ax = fabs(x);
	assert(isfinite(x));
	if (ax == 0.0) {
		snprintf(buf, size, "0");
		return;
	}
	if (ax >= 1e15 || ax < 1e-4) {
		snprintf(buf, size, "%.5e", x);
		return;
	}
	int magnitude = (int)floor(log10(ax)) + 1; /* digits before the point */
	int decimals = 6 - magnitude;
	if (decimals < 0)
		decimals = 0;
	snprintf(buf, size, "%.*f", decimals, x);
	if (strchr(buf, '.') != NULL) {
		size_t n = strlen(buf);
		while (n > 0 && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n > 0 && buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	if (strcmp(buf, "-0") == 0)
		snprintf(buf, size, "0");
}

char *text_read_stream(FILE *f, size_t max_bytes, size_t *len, bool *too_big)
{
	/* One byte past the bound tells "exactly max_bytes" from "more". */
	size_t limit = max_bytes + 1, cap = limit < 65536 ? limit : 65536, n = 0;
	char *buf = xmalloc(cap);

	*too_big = false;
	for (;;) {
		size_t got;
		if (n == cap) {
			if (cap == limit) {
				*too_big = true;
				break;
			}
			cap = cap <= limit / 2 ? 2 * cap : limit;
			buf = xreallocarray(buf, cap, 1);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	*len = n;
	return buf;
}

enum text_line text_read_line(FILE *f, char **buf, size_t *cap, size_t max_bytes, size_t *len)
{
	enum text_line rc = TEXT_LINE_OK;
	size_t n = 0;
	int c;

	if (*buf == NULL || *cap == 0) {
		*cap = max_bytes + 1 < 256 ? max_bytes + 1 : 256;
		*buf = xreallocarray(*buf, *cap, 1);
	}
	/* getc_unlocked: a byte at a time from stdio's buffer, so nothing is
	 * read past the line and the stream stays usable by its owner. */
	flockfile(f);
	for (;;) {
		if (n == max_bytes) {
			rc = TEXT_LINE_TOO_LONG;
			break;
		}
		c = getc_unlocked(f);
		if (c == EOF) {
			if (ferror(f))
				rc = TEXT_LINE_ERROR;
			else if (n == 0)
				rc = TEXT_LINE_END;
			break;
		}
		if (n + 1 >= *cap) {
			size_t want = *cap <= (max_bytes + 1) / 2 ? 2 * *cap : max_bytes + 1;
			*buf = xreallocarray(*buf, want, 1);
			*cap = want;
		}
		(*buf)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	funlockfile(f);
	(*buf)[n] = '\0';
	*len = n;
	return rc;
}

void text_usd(double usd, char *buf, size_t size)
{
	char digits[320];  /* DBL_MAX has 309 digits */
	snprintf(digits, sizeof digits, "%.0f", usd);
	size_t len = strlen(digits), used = 0;
	if (size < 2) {
		if (size == 1)
			buf[0] = '\0';
		return;
	}
	buf[used++] = '$';
	for (size_t i = 0; i < len && used + 2 < size; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[used++] = ',';
		buf[used++] = digits[i];
	}
	buf[used] = '\0';
}

void text_usd_cents(double usd, double cents_below, char *buf, size_t size)
{
	if (usd < cents_below)
		snprintf(buf, size, "$%.2f", usd);
	else
		text_usd(usd, buf, size);
}

bool text_vappend_itemf(char *buf, size_t size, const char *sep, const char *fmt, va_list ap)
{
	if (buf[0] != '\0')
		text_appendf(buf, size, "%s", sep);
	return text_vappendf(buf, size, fmt, ap);
}

bool text_append_itemf(char *buf, size_t size, const char *sep, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool whole = text_vappend_itemf(buf, size, sep, fmt, ap);
	va_end(ap);
	return whole;
}
