/* gnuplot quoting: each form's exact bytes for quotes, backslashes,
 * control characters, '@', backquotes and pipes, and a round trip through
 * a copy of gnuplot 5.4's own scanner (scanner.c) and string reader
 * (util.c parse_sq, parse_esc) for every string of up to four characters
 * over the alphabet that matters: what gnuplot reads back is the text. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "output/gpquote.h"

/* What fn writes for s (caller frees). */
static char *written(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void expect(void (*fn)(FILE *, const char *), const char *s, const char *want)
{
	char *got = written(fn, s);
	assert_string_equal(got, want);
	free(got);
}

static void test_string(void **state)
{
	(void)state;
	expect(gpquote_string, "", "''");
	expect(gpquote_string, "H100 x 8", "'H100 x 8'");
	/* a quote: the string ends, "\047" (an octal escape) is joined on */
	expect(gpquote_string, "it's", "'it'.\"\\047\".'s'");
	/* at the start and doubled: where gnuplot's scanner would end '' early */
	expect(gpquote_string, "'a", "''.\"\\047\".'a'");
	expect(gpquote_string, "a''b", "'a'.\"\\047\".''.\"\\047\".'b'");
	/* nothing is special inside single quotes: kept as they are */
	expect(gpquote_string, "@x `touch y` \"q\" \\ # ; $1", "'@x `touch y` \"q\" \\ # ; $1'");
	/* control characters (a newline would end the command) become spaces */
	expect(gpquote_string, "a\nb\r\tc\x7f" "d", "'a b  c d'");
	expect(gpquote_string, "Z\xc3\xbcrich", "'Z\xc3\xbcrich'");
	{
		char *s = gpquote_string_new("it's");
		assert_string_equal(s, "'it'.\"\\047\".'s'");
		free(s);
	}
}

static void test_file(void **state)
{
	(void)state;
	/* gnuplot's `set output '|cmd'` runs cmd: a name is never read so */
	expect(gpquote_file, "|touch x.png", "'./|touch x.png'");
	/* `~/` is the home directory to gnuplot, a folder named ~ to us */
	expect(gpquote_file, "~/x.png", "'./~/x.png'");
	expect(gpquote_file, "~x.png", "'~x.png'");
	expect(gpquote_file, "out/a|b.png", "'out/a|b.png'");
	expect(gpquote_file, "a'b.png", "'a'.\"\\047\".'b.png'");
	{
		char *s = gpquote_file_new("|x.svg");
		assert_string_equal(s, "'./|x.svg'");
		free(s);
	}
}

static void test_data(void **state)
{
	(void)state;
	expect(gpquote_data, "16 x p5", "\"16 x p5\"");
	/* a double quote would end the field: the escape \0042 (four digits,
	 * so the 1 after it stays a 1); a backslash doubled (escapes are read) */
	expect(gpquote_data, "a\"1\\n", "\"a\\00421\\\\n\"");
	/* a newline would end the line and could start one with EOD */
	expect(gpquote_data, "x\nEOD\nplot", "\"x EOD plot\"");
	expect(gpquote_data, "EOD", "\"EOD\"");
}

static void test_comment(void **state)
{
	(void)state;
	expect(gpquote_comment, "frac_compute", "frac_compute");
	expect(gpquote_comment, "a 'b' \"c\" @`d`", "a 'b' \"c\" @`d`");
	/* a newline ends a comment; a '\' at the end carries it to the next line */
	expect(gpquote_comment, "x\nsystem('y')", "x\\x0asystem('y')");
	expect(gpquote_comment, "x\\", "x\\x5c");
	expect(gpquote_comment, "\r\x7f\xc3\xbc", "\\x0d\\x7f\\xc3\\xbc");
}

static void test_has_control(void **state)
{
	(void)state;
	size_t at = 99;
	assert_false(gpquote_has_control("plain 'text' \xc3\xbc", &at));
	assert_int_equal(at, 99);
	assert_true(gpquote_has_control("ab\ncd", &at));
	assert_int_equal(at, 2);
	assert_true(gpquote_has_control("\x7f", NULL));
	assert_true(gpquote_has_control("\t", NULL));
}

/*
 * gnuplot 5.4 reading a string expression (the only form gpquote_string
 * writes: 'a' . "\047" . 'b' ...): scanner.c's rule for a single-quoted
 * token (a quote ends it unless the character before it is followed by
 * two quotes), parse_sq() ('' is one quote), parse_esc() for the double-
 * quoted pieces. Returns the value (caller frees), or NULL where gnuplot
 * would read something else (an unterminated string, a token after one).
 */
static char *gnuplot_reads(const char *e)
{
	size_t n = strlen(e), i = 0, o = 0;
	char *out = calloc(n + 1, 1);
	assert_non_null(out);
	for (;;) {
		if (e[i] == '\'') {
			size_t j = i + 1;
			for (;; j++) {
				if (e[j] == '\0')
					goto bad;
				if (e[j] == '\'')
					break;
				if (e[j + 1] == '\'' && e[j + 2] == '\'')
					j += 2;
			}
			for (size_t k = i + 1; k < j; k++) {
				if (e[k] == '\'' && e[k + 1] == '\'')
					k++;
				out[o++] = e[k];
			}
			i = j + 1;
		} else if (strncmp(e + i, "\"\\047\"", 6) == 0) {
			out[o++] = '\'';
			i += 6;
		} else {
			goto bad;
		}
		if (e[i] == '\0')
			return out;
		if (e[i] != '.')
			goto bad;
		i++;
	}
bad:
	free(out);
	return NULL;
}

static void test_round_trip(void **state)
{
	(void)state;
	static const char alphabet[] = "a'\"\\@`#";
	enum { K = sizeof alphabet - 1 };
	char s[5];
	size_t count = 0;

	/* every string of length 0 to 4 over the alphabet (2801 of them); the
	 * reader takes nothing outside the single-quoted pieces but "\047",
	 * so no backquote or '@' of s is ever outside one */
	for (int len = 0; len <= 4; len++) {
		int total = 1;
		for (int k = 0; k < len; k++)
			total *= K;
		for (int code = 0; code < total; code++) {
			char *q, *back;
			int c = code;
			for (int k = 0; k < len; k++, c /= K)
				s[k] = alphabet[c % K];
			s[len] = '\0';
			q = gpquote_string_new(s);
			back = gnuplot_reads(q);
			if (back == NULL || strcmp(back, s) != 0)
				fail_msg("'%s' quoted as %s reads back as %s", s, q, back ? back : "(not a string)");
			free(back);
			free(q);
			count++;
		}
	}
	assert_int_equal(count, 1 + 7 + 49 + 343 + 2401);
	/* and the old form, quotes doubled, fails the same reader: it is a
	 * real test of the scanner's rule */
	assert_null(gnuplot_reads("''''a'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_string),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_data),
		cmocka_unit_test(test_comment),
		cmocka_unit_test(test_has_control),
		cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
