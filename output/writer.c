#include "writer.h"

#include <csv.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

const char *const output_format_names[] = { "table", "csv", "json", NULL };

#define CELL_MAX 1024

int writer_write(FILE *f, const rowset *rs, enum output_format format, int width)
{
	switch (format) {
	case FORMAT_TABLE: return writer_table(f, rs, width);
	case FORMAT_CSV: return writer_csv(f, rs);
	case FORMAT_JSON: return writer_json(f, rs);
	}
	return -1;
}

static int csv_field(FILE *f, const char *s)
{
	size_t n = strlen(s);
	/* Quote only where CSV needs it; libcsv does the quoting and escaping. */
	if (n > 0 && (strpbrk(s, ",\"\r\n") != NULL || s[0] == ' ' || s[n - 1] == ' '))
		return csv_fwrite(f, s, n) == 0 ? 0 : -1;
	return fputs(s, f) < 0 ? -1 : 0;
}

int writer_csv(FILE *f, const rowset *rs)
{
	char buf[CELL_MAX];
	size_t nc = rowset_ncols(rs);

	for (size_t c = 0; c < nc; c++) {
		if ((c && fputc(',', f) == EOF) || csv_field(f, rowset_column(rs, c)) < 0)
			return -1;
	}
	fputc('\n', f);
	for (size_t r = 0; r < rowset_nrows(rs); r++) {
		for (size_t c = 0; c < nc; c++) {
			rowset_format(rs, r, c, buf, sizeof buf);
			if ((c && fputc(',', f) == EOF) || csv_field(f, buf) < 0)
				return -1;
		}
		if (fputc('\n', f) == EOF)
			return -1;
	}
	return ferror(f) ? -1 : 0;
}

int writer_json(FILE *f, const rowset *rs)
{
	json_t *arr = json_array();
	char buf[CELL_MAX];
	int rc;

	for (size_t r = 0; r < rowset_nrows(rs); r++) {
		json_t *obj = json_object();
		for (size_t c = 0; c < rowset_ncols(rs); c++) {
			json_t *v;
			switch (rowset_type(rs, r, c)) {
			case CELL_TEXT:
				v = json_string(rowset_get_text(rs, r, c));
				if (v == NULL) /* not UTF-8: keep the row, lose the text */
					v = json_string("?");
				break;
			case CELL_INT:
				v = json_integer((json_int_t)rowset_number(rs, r, c));
				break;
			case CELL_REAL:
				/* Round through the printed form so JSON and CSV agree. */
				rowset_format(rs, r, c, buf, sizeof buf);
				v = json_real(strtod(buf, NULL));
				break;
			case CELL_EMPTY:
			default:
				v = json_null();
				break;
			}
			json_object_set_new(obj, rowset_column(rs, c), v);
		}
		json_array_append_new(arr, obj);
	}
	rc = json_dumpf(arr, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(arr);
	if (rc != 0 || fputc('\n', f) == EOF)
		return -1;
	return ferror(f) ? -1 : 0;
}

static int is_numeric(enum cell_type t)
{
	return t == CELL_INT || t == CELL_REAL;
}

int writer_table(FILE *f, const rowset *rs, int width)
{
	size_t nc = rowset_ncols(rs), nr = rowset_nrows(rs);
	size_t *w = xcalloc(nc ? nc : 1, sizeof *w);
	char buf[CELL_MAX];
	size_t total = 0;

	for (size_t c = 0; c < nc; c++) {
		w[c] = strlen(rowset_column(rs, c));
		for (size_t r = 0; r < nr; r++) {
			rowset_format(rs, r, c, buf, sizeof buf);
			if (strlen(buf) > w[c])
				w[c] = strlen(buf);
		}
		total += w[c] + 2;
	}
	if (width > 0 && total > (size_t)width && nr > 0) {
		/* Too wide: one block per row. */
		size_t kw = 0;
		for (size_t c = 0; c < nc; c++)
			if (strlen(rowset_column(rs, c)) > kw)
				kw = strlen(rowset_column(rs, c));
		for (size_t r = 0; r < nr; r++) {
			if (r)
				fputc('\n', f);
			for (size_t c = 0; c < nc; c++) {
				rowset_format(rs, r, c, buf, sizeof buf);
				fprintf(f, "%-*s  %s\n", (int)kw, rowset_column(rs, c), buf);
			}
		}
	} else {
		for (size_t c = 0; c < nc; c++) {
			bool num = nr > 0 && is_numeric(rowset_type(rs, 0, c));
			if (num)
				fprintf(f, "%*s", (int)w[c], rowset_column(rs, c));
			else if (c + 1 < nc)
				fprintf(f, "%-*s", (int)w[c], rowset_column(rs, c));
			else
				fputs(rowset_column(rs, c), f);
			if (c + 1 < nc)
				fputs("  ", f);
		}
		fputc('\n', f);
		for (size_t r = 0; r < nr; r++) {
			for (size_t c = 0; c < nc; c++) {
				rowset_format(rs, r, c, buf, sizeof buf);
				if (is_numeric(rowset_type(rs, r, c)))
					fprintf(f, "%*s", (int)w[c], buf);
				else if (c + 1 < nc)
					fprintf(f, "%-*s", (int)w[c], buf);
				else
					fputs(buf, f);
				if (c + 1 < nc)
					fputs("  ", f);
			}
			fputc('\n', f);
		}
	}
	free(w);
	return ferror(f) ? -1 : 0;
}
