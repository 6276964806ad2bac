/* Text helpers: edit distance, suggestions, quoting, number formatting,
 * bounded text that marks its cut,
 * bounded reading of a whole stream and of a line. */
#include "testutil.h"

#include <stdbool.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"

static void test_edit_distance(void **state)
{
	(void)state;
	assert_int_equal(text_edit_distance("kitten", "sitting"), 3);
	assert_int_equal(text_edit_distance("", "abc"), 3);
	assert_int_equal(text_edit_distance("H100-SXM", "h100-sxm"), 0);
	assert_int_equal(text_edit_distance("flaw", "lawn"), 2);
}

static void test_suggest(void **state)
{
	(void)state;
	struct text_suggest s;
	char buf[256];
	const char *names[] = { "H100-SXM", "H100-PCIe", "H200-SXM", "MI300X", "L4" };
	text_suggest_init(&s, "H1OO-SXM");
	for (int i = 0; i < 5; i++)
		text_suggest_add(&s, names[i]);
	text_suggest_format(&s, buf, sizeof buf);
	assert_string_equal(buf, ", did you mean \"H100-SXM\", \"H200-SXM\"?");
	text_suggest_init(&s, "zzzzzzzzzzzz");
	for (int i = 0; i < 5; i++)
		text_suggest_add(&s, names[i]);
	text_suggest_format(&s, buf, sizeof buf);
	assert_string_equal(buf, "");
}

static void test_quote(void **state)
{
	(void)state;
	char buf[128];
	text_quote("a\"b\\c\n\xff", buf, sizeof buf);
	assert_string_equal(buf, "\"a\\\"b\\\\c\\x0a\\xff\"");
	text_quote("0123456789012345678901234567890123456789012345678901234567890123456789", buf, sizeof buf);
	assert_int_equal(strlen(buf), 1 + 60 + 3 + 1);
}

static void test_format_real(void **state)
{
	(void)state;
	char b[64];
	struct { double x; const char *want; } cases[] = {
		{ 0.0, "0" }, { -0.0, "0" }, { 1.0, "1" }, { 1.5, "1.5" }, { 1234567.891, "1234568" },
		{ 0.0123456789, "0.0123457" }, { 989e12, "989000000000000" }, { 123.456, "123.456" },
		{ -2.25, "-2.25" }, { 1e15, "1.00000e+15" }, { 5e-5, "5.00000e-05" }, { 100, "100" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		text_format_real(cases[i].x, b, sizeof b);
		assert_string_equal(b, cases[i].want);
	}
}

/* n copies of c, for texts of a known length (one buffer: use each before the next call). */
static const char *repeat(char c, size_t n)
{
	static char b[256];
	assert_true(n < sizeof b);
	memset(b, c, n);
	b[n] = '\0';
	return b;
}

/*
 * A text that fits is written whole; one that does not keeps the longest
 * start that leaves room, in a 64-byte buffer, for the mark of what is
 * left out ("... [cut: N more bytes]", 22 bytes + N's digits): 63 bytes
 * in all, N counting every byte not shown.
 */
static void test_setf_marks_a_cut(void **state)
{
	(void)state;
	char b[64], want[320];

	assert_true(text_setf(b, sizeof b, "%s %d", "abc", 5));
	assert_string_equal(b, "abc 5");
	/* 63 bytes fit a 64-byte buffer exactly */
	assert_true(text_setf(b, sizeof b, "%s", repeat('a', 63)));
	assert_int_equal(strlen(b), 63);
	/* 64 bytes: 39 shown + the mark of 25 (2 digits) = 63 */
	assert_false(text_setf(b, sizeof b, "%s%s", "0123456789012345678901234567890123456789", "012345678901234567890123"));
	assert_string_equal(b, "012345678901234567890123456789012345678... [cut: 25 more bytes]");
	/* 38 'a', a 2-byte UTF-8 character across byte 39, 30 'b' (70 bytes): the
	 * cut goes before the character, so 38 are shown and 32 counted */
	snprintf(want, sizeof want, "%s\xc3\xa9", repeat('a', 38));
	strcat(want, repeat('b', 30));
	assert_false(text_setf(b, sizeof b, "%s", want));
	snprintf(want, sizeof want, "%s... [cut: 32 more bytes]", repeat('a', 38));
	assert_string_equal(b, want);
}

/* Appending: whole when it fits; cut with the mark when not; appended to a
 * cut text, the bytes join the count, and a count that gains a digit takes
 * one byte more from the start shown. */
static void test_appendf_marks_a_cut(void **state)
{
	(void)state;
	char b[64], want[320];

	text_setf(b, sizeof b, "first clause");
	assert_true(text_appendf(b, sizeof b, "; %s", "second"));
	assert_string_equal(b, "first clause; second");
	/* 12 + 2 + 60 = 74 bytes: 39 shown, 35 counted */
	text_setf(b, sizeof b, "first clause");
	assert_false(text_appendf(b, sizeof b, "; %s", repeat('x', 60)));
	snprintf(want, sizeof want, "first clause; %s... [cut: 35 more bytes]", repeat('x', 25));
	assert_string_equal(b, want);
	/* "; more" (6 bytes) after the cut: the same start, 41 counted */
	assert_false(text_appendf(b, sizeof b, "; more"));
	snprintf(want, sizeof want, "first clause; %s... [cut: 41 more bytes]", repeat('x', 25));
	assert_string_equal(b, want);
	/* 134 bytes: 39 shown, 95 counted; 10 more: 105 has 3 digits, so 38 shown and 106 counted */
	assert_false(text_setf(b, sizeof b, "%s", repeat('a', 134)));
	snprintf(want, sizeof want, "%s... [cut: 95 more bytes]", repeat('a', 39));
	assert_string_equal(b, want);
	assert_false(text_appendf(b, sizeof b, "0123456789"));
	snprintf(want, sizeof want, "%s... [cut: 106 more bytes]", repeat('a', 38));
	assert_string_equal(b, want);
	/* a short text that holds a cut reason (copied whole) is not itself cut: appending appends */
	text_setf(b, sizeof b, "inner... [cut: 5 more bytes]");
	assert_true(text_appendf(b, sizeof b, "; x"));
	assert_string_equal(b, "inner... [cut: 5 more bytes]; x");
}

static void test_error_one_line(void **state)
{
	(void)state;
	struct cs_error e;
	error_clear(&e);
	assert_int_equal(error_set(&e, "bad %s", "a\nb\tc\xff\xfe"), -1);
	assert_int_equal(e.kind, ERROR_INPUT);
	assert_string_equal(e.msg, "bad a b c??");
	error_prefix(&e, "file '%s'", "x.json");
	assert_string_equal(e.msg, "file 'x.json': bad a b c??");
	error_set(&e, "utf8 \xc3\xa9 ok");
	assert_string_equal(e.msg, "utf8 \xc3\xa9 ok");
}

/* A stream over len bytes of text (fmemopen; the bytes are borrowed). */
static FILE *stream_of(const char *text, size_t len)
{
	FILE *f = fmemopen((void *)text, len, "r");
	assert_non_null(f);
	return f;
}

/* The whole-file reader stops one byte past its bound: an input of exactly
 * max_bytes is read whole, one more byte is too big, and never more than
 * max_bytes + 1 bytes are read, however much the input holds. */
static void test_read_stream_bound(void **state)
{
	(void)state;
	static const char text[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	size_t len;
	bool too_big;
	FILE *f = stream_of(text, 10);
	char *buf = text_read_stream(f, 10, &len, &too_big);
	assert_false(too_big);
	assert_int_equal(len, 10);
	assert_memory_equal(buf, text, 10);
	free(buf);
	fclose(f);
	f = stream_of(text, 36);
	buf = text_read_stream(f, 10, &len, &too_big);
	assert_true(too_big);
	assert_int_equal(len, 11);
	free(buf);
	fclose(f);
	f = fopen("/dev/zero", "rb");
	assert_non_null(f);
	buf = text_read_stream(f, 100000, &len, &too_big);
	assert_true(too_big);
	assert_int_equal(len, 100001);
	free(buf);
	fclose(f);
}

/* Lines come whole (NUL bytes kept, the last one without a newline); a
 * line longer than the bound is TOO_LONG after max_bytes bytes, with the
 * buffer never past max_bytes + 1. */
static void test_read_line(void **state)
{
	(void)state;
	static const char text[] = "ab\n\n\0x\n0123456789\nlast";
	char *buf = NULL;
	size_t cap = 0, len;
	FILE *f = stream_of(text, sizeof text - 1);
	assert_int_equal(text_read_line(f, &buf, &cap, 11, &len), TEXT_LINE_OK);
	assert_int_equal(len, 3);
	assert_string_equal(buf, "ab\n");
	assert_int_equal(text_read_line(f, &buf, &cap, 11, &len), TEXT_LINE_OK);
	assert_int_equal(len, 1);
	assert_int_equal(text_read_line(f, &buf, &cap, 11, &len), TEXT_LINE_OK);
	assert_int_equal(len, 3);
	assert_memory_equal(buf, "\0x\n", 3);
	assert_int_equal(text_read_line(f, &buf, &cap, 11, &len), TEXT_LINE_OK);  /* 11 bytes: at the bound */
	assert_int_equal(len, 11);
	assert_int_equal(text_read_line(f, &buf, &cap, 11, &len), TEXT_LINE_OK);
	assert_string_equal(buf, "last");
	assert_int_equal(text_read_line(f, &buf, &cap, 11, &len), TEXT_LINE_END);
	fclose(f);
	f = stream_of(text, sizeof text - 1);
	assert_int_equal(text_read_line(f, &buf, &cap, 11, &len), TEXT_LINE_OK);
	assert_int_equal(text_read_line(f, &buf, &cap, 11, &len), TEXT_LINE_OK);
	assert_int_equal(text_read_line(f, &buf, &cap, 11, &len), TEXT_LINE_OK);
	assert_int_equal(text_read_line(f, &buf, &cap, 10, &len), TEXT_LINE_TOO_LONG);  /* 11 bytes: one too many */
	assert_int_equal(len, 10);
	fclose(f);
	free(buf);
	buf = NULL;
	cap = 0;
	f = fopen("/dev/zero", "rb");
	assert_non_null(f);
	assert_int_equal(text_read_line(f, &buf, &cap, 1 << 20, &len), TEXT_LINE_TOO_LONG);
	assert_int_equal(len, 1 << 20);
	assert_true(cap <= (1 << 20) + 1);
	fclose(f);
	free(buf);
}

/* Dollars with thousands separators; a buffer too small keeps what fits. */
static void test_usd(void **state)
{
	(void)state;
	char buf[32], small[5];
	text_usd(0, buf, sizeof buf);
	assert_string_equal(buf, "$0");
	text_usd(999.4, buf, sizeof buf);
	assert_string_equal(buf, "$999");
	text_usd(1234567, buf, sizeof buf);
	assert_string_equal(buf, "$1,234,567");
	text_usd(1000, buf, sizeof buf);
	assert_string_equal(buf, "$1,000");
	text_usd(1234567, small, sizeof small);
	assert_string_equal(small, "$1,2");
}

/* Cents below the threshold, whole dollars from it; 1e70 keeps all its
 * digits (the digits buffer once held 63). */
/* A list item joins with its separator only after another; a list past its
 * buffer ends with the cut mark counting what is left out, never cut silently. */
static void test_append_item(void **state)
{
	(void)state;
	char buf[64] = "";
	text_append_itemf(buf, sizeof buf, ", ", "%s", "training");
	text_append_itemf(buf, sizeof buf, ", ", "%s", "finetune");
	assert_string_equal(buf, "training, finetune");
	for (int i = 0; i < 10; i++)
		text_append_itemf(buf, sizeof buf, ", ", "%s", "inference");
	/* 18 + 10 x 11 = 128 bytes of text in a 64-byte buffer */
	assert_non_null(strstr(buf, "... [cut: "));
	assert_true(strlen(buf) < sizeof buf);
	assert_int_equal(strncmp(buf, "training, finetune, inference", 29), 0);
}

static void test_usd_cents(void **state)
{
	(void)state;
	char buf[TEXT_USD_MAX];
	text_usd_cents(99.999, 100, buf, sizeof buf);
	assert_string_equal(buf, "$100.00");
	text_usd_cents(191.364, 1000, buf, sizeof buf);
	assert_string_equal(buf, "$191.36");
	text_usd_cents(1000, 1000, buf, sizeof buf);
	assert_string_equal(buf, "$1,000");
	text_usd_cents(-1500, 100, buf, sizeof buf);
	assert_string_equal(buf, "$-1500.00");
	text_usd(1e70, buf, sizeof buf);
	assert_int_equal(strlen(buf), 1 + 71 + 23);  /* "$", 71 digits, 23 commas */
	text_usd(-1.7976931348623157e308, buf, sizeof buf);
	assert_true(strlen(buf) < TEXT_USD_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_format_real),
		cmocka_unit_test(test_setf_marks_a_cut),
		cmocka_unit_test(test_appendf_marks_a_cut),
		cmocka_unit_test(test_error_one_line),
		cmocka_unit_test(test_read_stream_bound),
		cmocka_unit_test(test_read_line),
		cmocka_unit_test(test_usd),
		cmocka_unit_test(test_usd_cents),
		cmocka_unit_test(test_append_item),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
