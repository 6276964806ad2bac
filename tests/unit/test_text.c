/* Text helpers: edit distance, suggestions, quoting, number formatting. */
#include "testutil.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_format_real),
		cmocka_unit_test(test_error_one_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
