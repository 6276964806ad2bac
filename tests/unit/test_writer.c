/* The writers: table cells by unit (dollars with separators, percents,
 * hours as days, counts, no scientific notation), JSON types (booleans,
 * exact integers) and JSONL one object a line; rowset units through select;
 * long text cells written whole (CSV) or with the cut mark (a table cell). */
#include "testutil.h"

#include <string.h>

#include "output/results.h"
#include "output/writer.h"
#include "util/xalloc.h"

/* The table cell of a one-cell rowset: column name, unit, value. */
static void cell_real(const char *name, enum cell_unit unit, double v, char *out, size_t size)
{
	const char *cols[] = { name, NULL };
	rowset *rs = rowset_new(cols);
	rowset_set_unit(rs, 0, unit);
	rowset_add_row(rs);
	rowset_real(rs, name, v);
	writer_table_cell(rs, 0, 0, out, size);
	rowset_free(rs);
}

static void assert_cell(const char *name, enum cell_unit unit, double v, const char *want)
{
	char buf[WRITER_CELL_MAX];
	cell_real(name, unit, v, buf, sizeof buf);
	if (strcmp(buf, want) != 0)
		print_error("%s = %.17g: got '%s', wanted '%s'\n", name, v, buf, want);
	assert_string_equal(buf, want);
}

static void test_table_units(void **state)
{
	(void)state;
	assert_cell("cost_usd_p50", UNIT_USD, 2191913.0, "$2,191,913");
	assert_cell("usd_per_hour", UNIT_USD, 880.64, "$880.64");
	assert_cell("usd_per_mtok", UNIT_USD, 0.01234, "$0.0123");
	assert_cell("usd_per_hour", UNIT_USD, 0, "$0");
	assert_cell("mfu", UNIT_FRACTION, 0.42445, "42.4%");
	assert_cell("frac_bubble", UNIT_FRACTION, 0.0317927, "3.18%");
	assert_cell("frac_idle", UNIT_FRACTION, 0.00003, "<0.01%");
	assert_cell("frac_checkpoint", UNIT_FRACTION, 0, "0%");
	assert_cell("ettr", UNIT_FRACTION, 1, "100.0%");
	assert_cell("wall_time_p50_h", UNIT_HOURS, 2488.89, "103.7 d");
	assert_cell("wall_time_p50_h", UNIT_HOURS, 12.44, "12.4 h");
	assert_cell("wall_time_p50_h", UNIT_HOURS, 0.5, "30.0 min");
	assert_cell("wall_time_p50_h", UNIT_HOURS, 24 * 12345.6, "12,346 d");
	assert_cell("gpu_hours", UNIT_COUNT, 318577.4, "318,577");
	assert_cell("step_time_s", UNIT_NUMBER, 150.323, "150.3");
	assert_cell("step_time_s", UNIT_NUMBER, 75.2964, "75.30");
	assert_cell("t_optimizer_s", UNIT_NUMBER, 0.00621016, "0.006210");
	assert_cell("tokens_per_s", UNIT_NUMBER, 111608, "111,608");
	/* no scientific notation in a table, whatever the unit */
	assert_cell("x", UNIT_NONE, 2.5e16, "25,000,000,000,000,000");
	assert_cell("x", UNIT_NONE, -0.00001234, "-0.000012");
}

static void test_table_ints_and_text(void **state)
{
	const char *cols[] = { "row_id", "bytes", "candidate", NULL };
	rowset *rs = rowset_new(cols);
	char buf[WRITER_CELL_MAX];
	(void)state;
	results_set_units(rs);
	assert_int_equal(rowset_unit(rs, 0), UNIT_ID);
	assert_int_equal(rowset_unit(rs, 1), UNIT_COUNT);
	rowset_add_row(rs);
	rowset_int(rs, "row_id", 123456);
	rowset_int(rs, "bytes", 8589934592);
	rowset_text(rs, "candidate", "a\x1b[31m");
	writer_table_cell(rs, 0, 0, buf, sizeof buf);
	assert_string_equal(buf, "123456");       /* an id: no separators */
	writer_table_cell(rs, 0, 1, buf, sizeof buf);
	assert_string_equal(buf, "8,589,934,592");
	writer_table_cell(rs, 0, 2, buf, sizeof buf);
	assert_string_equal(buf, "a\\x1b[31m");
	rowset_free(rs);
}

/* What a writer writes for rs, as a new string. */
static char *written(int (*w)(FILE *, const rowset *), const rowset *rs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(w(f, rs), 0);
	fclose(f);
	return buf;
}

static rowset *typed_rows(void)
{
	const char *cols[] = { "seed", "sequence_parallel", "steps", "mfu", "reason", NULL };
	rowset *rs = rowset_new(cols);
	results_set_units(rs);
	rowset_add_row(rs);
	rowset_int(rs, "seed", INT64_C(9007199254740993));  /* 2^53 + 1: not a double */
	rowset_text(rs, "sequence_parallel", "true");
	rowset_int(rs, "steps", 59605);
	rowset_real(rs, "mfu", 0.42445);
	rowset_text(rs, "reason", "a, \"b\"\nc");
	rowset_add_row(rs);
	rowset_int(rs, "seed", 1);
	rowset_text(rs, "sequence_parallel", "false");
	return rs;
}

/*
 * Text cells are written whole, however long: a CSV cell of 3000 bytes
 * (past the 1024-byte buffer numbers are formatted into, where text was
 * once cut at 1023 bytes) is all there. A table cell is held in the
 * buffer it is given; past it, it ends with the cut mark: 5000 bytes in
 * 4096 keep the first 4095 - 25 (the mark) = 4070 and count the 930 others.
 */
static void test_long_text_cells(void **state)
{
	const char *cols[] = { "row_id", "reason", NULL };
	rowset *rs = rowset_new(cols);
	char *text = xmalloc(5001), *csv, *want = xmalloc(5100);
	static char cell[4 * WRITER_CELL_MAX];
	(void)state;
	results_set_units(rs);
	for (int i = 0; i < 5000; i++)
		text[i] = (char)('a' + i % 26);
	text[3000] = '\0';
	rowset_add_row(rs);
	rowset_int(rs, "row_id", 7);
	rowset_text(rs, "reason", text);
	csv = written(writer_csv, rs);
	snprintf(want, 5100, "row_id,reason\n7,%s\n", text);
	assert_string_equal(csv, want);
	free(csv);
	text[3000] = 'a' + 3000 % 26;
	text[5000] = '\0';
	rowset_text(rs, "reason", text);
	writer_table_cell(rs, 0, 1, cell, sizeof cell);
	snprintf(want, 5100, "%.4070s... [cut: 930 more bytes]", text);
	assert_int_equal(strlen(cell), sizeof cell - 1);
	assert_string_equal(cell, want);
	free(text);
	free(want);
	rowset_free(rs);
}

static void test_json_types(void **state)
{
	rowset *rs = typed_rows();
	char *j = written(writer_json, rs);
	(void)state;
	assert_non_null(strstr(j, "\"seed\": 9007199254740993,"));
	assert_non_null(strstr(j, "\"sequence_parallel\": true,"));
	assert_non_null(strstr(j, "\"sequence_parallel\": false,"));
	assert_non_null(strstr(j, "\"steps\": 59605,"));
	assert_non_null(strstr(j, "\"mfu\": 0.42445,"));
	assert_non_null(strstr(j, "\"steps\": null,"));
	free(j);
	/* CSV keeps the text */
	j = written(writer_csv, rs);
	assert_string_equal(j, "seed,sequence_parallel,steps,mfu,reason\n"
			       "9007199254740993,true,59605,0.42445,\"a, \"\"b\"\"\nc\"\n"
			       "1,false,,,\n");
	free(j);
	rowset_free(rs);
}

static void test_jsonl_lines(void **state)
{
	rowset *rs = typed_rows();
	char *j = written(writer_jsonl, rs);
	(void)state;
	assert_string_equal(j, "{\"seed\":9007199254740993,\"sequence_parallel\":true,\"steps\":59605,"
			       "\"mfu\":0.42445,\"reason\":\"a, \\\"b\\\"\\nc\"}\n"
			       "{\"seed\":1,\"sequence_parallel\":false,\"steps\":null,\"mfu\":null,\"reason\":null}\n");
	free(j);
	rowset_free(rs);
}

static void test_select_keeps_units(void **state)
{
	rowset *rs = typed_rows(), *sel;
	const char *names[] = { "mfu", "sequence_parallel" };
	const char *bad = NULL;
	(void)state;
	sel = rowset_select(rs, names, 2, &bad);
	assert_non_null(sel);
	assert_int_equal(rowset_unit(sel, 0), UNIT_FRACTION);
	assert_int_equal(rowset_unit(sel, 1), UNIT_BOOL);
	rowset_free(sel);
	rowset_free(rs);
}

/* Every column of every result kind has an entry with a unit and a meaning,
 * and each kind's default table columns are among its columns. */
static void test_every_column_described(void **state)
{
	(void)state;
	for (int k = 0; k < RESULT_KIND_COUNT; k++) {
		rowset *rs = results_new((enum result_kind)k);
		const char *brief = results_brief(rs);
		char *copy, *save = NULL;
		for (size_t c = 0; c < rowset_ncols(rs); c++) {
			const struct results_column *info = results_column_info(rowset_column(rs, c));
			if (info == NULL)
				print_error("column %s has no entry\n", rowset_column(rs, c));
			assert_non_null(info);
			assert_true(info->unit_text[0] != '\0' && info->meaning[0] != '\0');
		}
		assert_non_null(brief);
		copy = strdup(brief);
		for (char *t = strtok_r(copy, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save))
			assert_true(rowset_find(rs, t) >= 0);
		assert_true(strstr(brief, "status") != NULL || k == RESULT_SHAPE);
		free(copy);
		rowset_free(rs);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_units),
		cmocka_unit_test(test_table_ints_and_text),
		cmocka_unit_test(test_json_types),
		cmocka_unit_test(test_jsonl_lines),
		cmocka_unit_test(test_long_text_cells),
		cmocka_unit_test(test_select_keeps_units),
		cmocka_unit_test(test_every_column_described),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
