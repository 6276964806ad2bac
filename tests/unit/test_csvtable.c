/* Reading result CSV back: quoting kept, cut-short files, strict errors,
 * the bounds on a line, a row and a file read whole, and merging parts by
 * row_id with duplicates across parts dropped. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/csvtable.h"
#include "output/writer.h"

static int parse(const char *text, enum csvtable_mode mode, struct csvtable *t, struct cs_error *err)
{
	error_clear(err);
	return csvtable_parse(t, text, strlen(text), mode, "part", "p.csv", err);
}

/* writer_csv() output of rs, as a new string. */
static char *csv_of(const rowset *rs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(writer_csv(f, rs), 0);
	fclose(f);
	return buf;
}

static void test_quoting_round_trip(void **state)
{
	(void)state;
	/* Fields with commas, quotes, newlines, edge spaces and tabs. */
	const char *text = "row_id,reason,x\n"
			   "0,\"a, \"\"b\"\"\",\" edge \"\n"
			   "1,\"two\nlines\",\ttab\t\n"
			   "2,,\n";
	struct csvtable t;
	struct cs_error err;
	assert_int_equal(parse(text, CSVTABLE_STRICT, &t, &err), 0);
	assert_int_equal(t.ncols, 3);
	assert_int_equal(t.nrows, 3);
	assert_string_equal(t.rows[0].cells[1], "a, \"b\"");
	assert_string_equal(t.rows[0].cells[2], " edge ");
	assert_string_equal(t.rows[1].cells[1], "two\nlines");
	assert_string_equal(t.rows[1].cells[2], "\ttab\t");
	assert_string_equal(t.rows[2].cells[2], "");
	/* The row with the embedded newline ends on line 4. */
	assert_int_equal(t.rows[1].line, 4);

	const char *names[] = { "p.csv" };
	rowset *rs = csvtable_merge(&t, names, 1, &err);
	assert_non_null(rs);
	char *out = csv_of(rs);
	assert_string_equal(out, text);  /* read then written: the same bytes */
	free(out);
	rowset_free(rs);
	csvtable_release(&t);
}

static void test_strict_errors(void **state)
{
	(void)state;
	struct csvtable t;
	struct cs_error err;
	assert_int_equal(parse("a,b\n1,2\n3\n", CSVTABLE_STRICT, &t, &err), -1);
	assert_string_equal(err.msg, "part 'p.csv': line 3: 1 fields, but the header has 2");
	assert_int_equal(parse("a,b\n1,2\n3,4", CSVTABLE_STRICT, &t, &err), -1);
	assert_string_equal(err.msg, "part 'p.csv': line 3: the last row has no newline at the end: the file may be cut short");
	assert_int_equal(parse("a,b\n1,\"2\n", CSVTABLE_STRICT, &t, &err), -1);
	assert_string_equal(err.msg, "part 'p.csv': line 3: a quoted field is not closed at the end of the file");
	assert_int_equal(parse("a,b\n1,x\"y\n", CSVTABLE_STRICT, &t, &err), -1);
	assert_non_null(strstr(err.msg, "part 'p.csv': line 2: malformed CSV"));
	assert_int_equal(parse("", CSVTABLE_STRICT, &t, &err), -1);
	assert_string_equal(err.msg, "part 'p.csv': no header line (an empty file)");
	assert_int_equal(csvtable_parse(&t, "a\n\0\n", 4, CSVTABLE_STRICT, "part", "p.csv", &err), -1);
	assert_string_equal(err.msg, "part 'p.csv': line 2: contains a NUL byte, not CSV text");
}

static void test_salvage(void **state)
{
	(void)state;
	struct csvtable t;
	struct cs_error err;
	/* Cut inside a row: the rows before are whole, the last is marked. */
	assert_int_equal(parse("a,b\n1,2\n3,4\n5", CSVTABLE_SALVAGE, &t, &err), 0);
	assert_int_equal(t.nrows, 3);
	assert_true(t.rows[1].terminated);
	assert_false(t.rows[2].terminated);
	assert_int_equal(t.rows[2].ncells, 1);
	csvtable_release(&t);
	/* Cut inside a quoted field, and a defect in the middle: kept up to it. */
	assert_int_equal(parse("a,b\n1,2\n3,\"4", CSVTABLE_SALVAGE, &t, &err), 0);
	assert_int_equal(t.nrows, 1);
	csvtable_release(&t);
	assert_int_equal(parse("a,b\n1,2\n3,x\"y\n5,6\n", CSVTABLE_SALVAGE, &t, &err), 0);
	assert_int_equal(t.nrows, 1);
	csvtable_release(&t);
	/* A header without its newline is no header. */
	assert_int_equal(parse("a,b", CSVTABLE_SALVAGE, &t, &err), 0);
	assert_null(t.header);
	assert_int_equal(t.nrows, 0);
}

static void test_row_id(void **state)
{
	(void)state;
	uint64_t v;
	assert_true(csvtable_row_id("0", &v));
	assert_int_equal(v, 0);
	assert_true(csvtable_row_id("123456789012345678", &v));
	assert_int_equal(v, 123456789012345678ULL);
	assert_false(csvtable_row_id("", &v));
	assert_false(csvtable_row_id("-1", &v));
	assert_false(csvtable_row_id("01", &v));
	assert_false(csvtable_row_id("1.0", &v));
	assert_false(csvtable_row_id(" 1", &v));
	assert_false(csvtable_row_id("1234567890123456789", &v));
}

static void test_merge(void **state)
{
	(void)state;
	struct csvtable p[3];
	struct cs_error err;
	const char *names[] = { "a.csv", "b.csv", "c.csv" };
	/* Shards interleave; b repeats a's row 0 and has 2 copies of row 3
	 * where c has 1; a's row 5 appears twice within a and is kept twice. */
	assert_int_equal(parse("row_id,v\n0,p\n5,q\n5,q\n", CSVTABLE_STRICT, &p[0], &err), 0);
	assert_int_equal(parse("row_id,v\n3,r\n0,p\n3,r\n1,s\n", CSVTABLE_STRICT, &p[1], &err), 0);
	assert_int_equal(parse("row_id,v\n3,r\n3,t\n", CSVTABLE_STRICT, &p[2], &err), 0);
	rowset *rs = csvtable_merge(p, names, 3, &err);
	assert_non_null(rs);
	char *out = csv_of(rs);
	assert_string_equal(out, "row_id,v\n0,p\n1,s\n3,r\n3,r\n3,t\n5,q\n5,q\n");
	free(out);
	rowset_free(rs);
	for (int i = 0; i < 3; i++)
		csvtable_release(&p[i]);

	/* Headers must agree, and row_id must be there and be a count. */
	assert_int_equal(parse("row_id,v\n", CSVTABLE_STRICT, &p[0], &err), 0);
	assert_int_equal(parse("row_id,w\n", CSVTABLE_STRICT, &p[1], &err), 0);
	assert_null(csvtable_merge(p, names, 2, &err));
	assert_string_equal(err.msg, "merge: 'b.csv': the header differs from that of 'a.csv': column 2 is \"w\", not \"v\"");
	csvtable_release(&p[1]);
	assert_int_equal(parse("row_id\n", CSVTABLE_STRICT, &p[1], &err), 0);
	assert_null(csvtable_merge(p, names, 2, &err));
	assert_string_equal(err.msg, "merge: 'b.csv': the header has 1 columns, that of 'a.csv' has 2");
	csvtable_release(&p[0]);
	csvtable_release(&p[1]);
	assert_int_equal(parse("id,v\n1,2\n", CSVTABLE_STRICT, &p[0], &err), 0);
	assert_null(csvtable_merge(p, names, 1, &err));
	assert_string_equal(err.msg, "merge: 'a.csv': no row_id column in the header");
	csvtable_release(&p[0]);
	assert_int_equal(parse("v,row_id\n1,2\n1,x\n", CSVTABLE_STRICT, &p[0], &err), 0);
	assert_null(csvtable_merge(p, names, 1, &err));
	assert_string_equal(err.msg, "merge: 'a.csv': line 3: row_id \"x\" is not a non-negative integer");
	csvtable_release(&p[0]);
}

/* n bytes: `head`, then `fill` repeated, then `tail` (caller frees). */
static char *text_of(const char *head, const char *fill, size_t times, const char *tail, size_t *len)
{
	size_t lh = strlen(head), lf = strlen(fill), lt = strlen(tail);
	char *buf = malloc(lh + lf * times + lt + 1);
	assert_non_null(buf);
	memcpy(buf, head, lh);
	for (size_t i = 0; i < times; i++)
		memcpy(buf + lh + i * lf, fill, lf);
	memcpy(buf + lh + lf * times, tail, lt + 1);
	*len = lh + lf * times + lt;
	return buf;
}

/* A line may be CSVREADER_LINE_MAX bytes, its newline included, and no
 * more: strict mode names the line and the bound, salvage mode keeps the
 * rows before it; so may a row whose quoted field runs on over lines. */
static void test_line_bound(void **state)
{
	(void)state;
	struct csvtable t;
	struct cs_error err;
	size_t len;
	char *text = text_of("a,b\n1,", "y", CSVREADER_LINE_MAX - 3, "\n", &len);
	error_clear(&err);
	assert_int_equal(csvtable_parse(&t, text, len, CSVTABLE_STRICT, "part", "p.csv", &err), 0);
	assert_int_equal(strlen(t.rows[0].cells[1]), CSVREADER_LINE_MAX - 3);
	csvtable_release(&t);
	free(text);
	text = text_of("a,b\n1,", "y", CSVREADER_LINE_MAX - 2, "\n", &len);
	assert_int_equal(csvtable_parse(&t, text, len, CSVTABLE_STRICT, "part", "p.csv", &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_string_equal(err.msg, "part 'p.csv': line 2: a line longer than 1048576 bytes, the bound on a CSV line");
	free(text);
	/* no newline at all: found after 1 MiB, not at the end of the input */
	text = text_of("", "x", 2 * CSVREADER_LINE_MAX, "", &len);
	assert_int_equal(csvtable_parse(&t, text, len, CSVTABLE_STRICT, "part", "p.csv", &err), -1);
	assert_string_equal(err.msg, "part 'p.csv': line 1: a line longer than 1048576 bytes, the bound on a CSV line");
	free(text);
	text = text_of("a,b\n1,2\n", "z", CSVREADER_LINE_MAX + 5, "\n3,4\n", &len);
	assert_int_equal(csvtable_parse(&t, text, len, CSVTABLE_SALVAGE, "results", "p.csv", &err), 0);
	assert_int_equal(t.nrows, 1);
	assert_string_equal(t.rows[0].cells[1], "2");
	csvtable_release(&t);
	free(text);
	/* a quoted field of 1,100 lines of 1,001 bytes: over the bound at line 1049 */
	char *lines = text_of("", "q", 1000, "\n", &len);
	text = text_of("a,b\n1,\"", lines, 1100, "\"\n", &len);
	assert_int_equal(csvtable_parse(&t, text, len, CSVTABLE_STRICT, "part", "p.csv", &err), -1);
	assert_string_equal(err.msg, "part 'p.csv': line 1049: a row longer than 1048576 bytes, the bound on a CSV "
			    "row (a quoted field runs on over its lines)");
	free(text);
	text = text_of("a,b\n0,0\n1,\"", lines, 1100, "\"\n", &len);
	assert_int_equal(csvtable_parse(&t, text, len, CSVTABLE_SALVAGE, "results", "p.csv", &err), 0);
	assert_int_equal(t.nrows, 1);
	csvtable_release(&t);
	free(text);
	free(lines);
}

/* A file read whole is bounded too: past the bound, strict mode fails
 * naming the line, salvage mode keeps the rows within it. */
static void test_whole_file_bound(void **state)
{
	(void)state;
	char path[] = "/tmp/test_csvtable.XXXXXX";
	struct csvtable t;
	struct cs_error err;
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a,b\n1,2\n3,4\n5,6\n", 16), 16);
	close(fd);
	error_clear(&err);
	assert_int_equal(csvtable_load_max(&t, path, CSVTABLE_STRICT, "results", 16, &err), 0);
	assert_int_equal(t.nrows, 3);
	csvtable_release(&t);
	assert_int_equal(csvtable_load_max(&t, path, CSVTABLE_STRICT, "results", 12, &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_non_null(strstr(err.msg, "': line 4: more than 12 bytes, the most a file read whole may hold"));
	assert_int_equal(csvtable_load_max(&t, path, CSVTABLE_SALVAGE, "results", 12, &err), 0);
	assert_int_equal(t.nrows, 2);
	csvtable_release(&t);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quoting_round_trip),
		cmocka_unit_test(test_strict_errors),
		cmocka_unit_test(test_salvage),
		cmocka_unit_test(test_row_id),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_line_bound),
		cmocka_unit_test(test_whole_file_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
