/* rowcodec: rows survive the trip between processes bit for bit, and a
 * damaged record is refused, never half-read. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "output/rowcodec.h"

static const char *const cols[] = { "name", "count", "value", "note" };

static rowset *sample(void)
{
	rowset *rs = rowset_new_n(cols, 4);
	size_t r = rowset_add_row(rs);
	rowset_set_text(rs, r, 0, "a, \"quoted\"\nline");
	rowset_set_int(rs, r, 1, INT64_MIN);
	rowset_set_real(rs, r, 2, 0.1 + 0.2);  /* not representable in 6 digits */
	r = rowset_add_row(rs);
	rowset_set_text(rs, r, 0, "");
	rowset_set_int(rs, r, 1, INT64_MAX);
	rowset_set_real(rs, r, 2, -5e-324);    /* the smallest subnormal */
	rowset_set_text(rs, r, 3, "x");
	return rs;
}

static void test_round_trip(void **state)
{
	(void)state;
	rowset *rs = sample();
	struct rowcodec_buf b = { 0 };
	uint64_t key, body;

	rowcodec_encode(&b, 42, rs);
	memcpy(&body, b.p, sizeof body);
	assert_int_equal(body, b.n - sizeof body);
	rowset *back = rowcodec_decode(b.p + 8, b.n - 8, cols, 4, &key);
	assert_non_null(back);
	assert_int_equal(key, 42);
	assert_int_equal(rowset_nrows(back), 2);
	for (size_t r = 0; r < 2; r++) {
		for (size_t c = 0; c < 4; c++) {
			assert_int_equal(rowset_type(back, r, c), rowset_type(rs, r, c));
			switch (rowset_type(rs, r, c)) {
			case CELL_TEXT:
				assert_string_equal(rowset_get_text(back, r, c), rowset_get_text(rs, r, c));
				break;
			case CELL_INT:
				assert_true(rowset_get_int(back, r, c) == rowset_get_int(rs, r, c));
				break;
			case CELL_REAL: {
				double x = rowset_number(back, r, c), y = rowset_number(rs, r, c);
				assert_memory_equal(&x, &y, sizeof x);
				break;
			}
			case CELL_EMPTY:
				break;
			}
		}
	}
	rowset_free(back);
	rowset_free(rs);
	free(b.p);
}

/* Every truncation of a record, and the record with a byte too many, is
 * refused. */
static void test_truncated_and_extra(void **state)
{
	(void)state;
	rowset *rs = sample();
	struct rowcodec_buf b = { 0 };
	uint64_t key;

	rowcodec_encode(&b, 7, rs);
	size_t body = b.n - 8;
	for (size_t n = 0; n < body; n++)
		assert_null(rowcodec_decode(b.p + 8, n, cols, 4, &key));
	unsigned char *more = malloc(body + 1);
	memcpy(more, b.p + 8, body);
	more[body] = 0;
	assert_null(rowcodec_decode(more, body + 1, cols, 4, &key));
	free(more);
	rowset_free(rs);
	free(b.p);
}

/* A bad tag, a non-finite real and an absurd row count are refused. */
static void test_damage(void **state)
{
	(void)state;
	rowset *rs = rowset_new_n(cols, 4);
	size_t r = rowset_add_row(rs);
	rowset_set_real(rs, r, 2, 1.5);
	struct rowcodec_buf b = { 0 };
	uint64_t key, huge = UINT64_MAX / 2;
	double inf = 1.0 / 0.0;

	rowcodec_encode(&b, 1, rs);
	/* body: key (8), rows (8), then tags: empty, empty, real + 8 bytes, empty */
	unsigned char *body = b.p + 8;
	size_t n = b.n - 8;
	assert_int_equal(n, 8 + 8 + 1 + 1 + 1 + 8 + 1);
	rowset *ok = rowcodec_decode(body, n, cols, 4, &key);
	assert_non_null(ok);
	rowset_free(ok);

	body[16] = 9;  /* no such cell type */
	assert_null(rowcodec_decode(body, n, cols, 4, &key));
	body[16] = CELL_EMPTY;

	memcpy(body + 19, &inf, sizeof inf);
	assert_null(rowcodec_decode(body, n, cols, 4, &key));

	memcpy(body + 8, &huge, sizeof huge);
	assert_null(rowcodec_decode(body, n, cols, 4, &key));
	rowset_free(rs);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_truncated_and_extra),
		cmocka_unit_test(test_damage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
