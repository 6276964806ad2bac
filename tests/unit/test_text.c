/* Text helpers: edit distance, suggestions, quoting, number formatting,
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_format_real),
		cmocka_unit_test(test_error_one_line),
		cmocka_unit_test(test_read_stream_bound),
		cmocka_unit_test(test_read_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
