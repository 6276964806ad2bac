#include "writer.h"

#include <csv.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"
#include "util/xalloc.h"

const char *const output_format_names[] = { "table", "csv", "json", "jsonl", NULL };

int writer_write(FILE *f, const rowset *rs, enum output_format format, int width)
{
	switch (format) {
	case FORMAT_TABLE: return writer_table(f, rs, width);
	case FORMAT_CSV: return writer_csv(f, rs);
	case FORMAT_JSON: return writer_json(f, rs);
	case FORMAT_JSONL: return writer_jsonl(f, rs);
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

int writer_csv_cells(FILE *f, char *const *cells, size_t n)
{
	for (size_t c = 0; c < n; c++)
		if ((c && fputc(',', f) == EOF) || csv_field(f, cells[c]) < 0)
			return -1;
	return fputc('\n', f) == EOF ? -1 : 0;
}

const char *writer_csv_cell(const rowset *rs, size_t r, size_t c, char *buf, size_t size)
{
	const char *text = rowset_get_text(rs, r, c);
	if (text != NULL)
		return text;
	rowset_format(rs, r, c, buf, size);
	return buf;
}

int writer_csv(FILE *f, const rowset *rs)
{
	char buf[WRITER_CELL_MAX];
	size_t nc = rowset_ncols(rs);

	for (size_t c = 0; c < nc; c++) {
		if ((c && fputc(',', f) == EOF) || csv_field(f, rowset_column(rs, c)) < 0)
			return -1;
	}
	fputc('\n', f);
	for (size_t r = 0; r < rowset_nrows(rs); r++) {
		for (size_t c = 0; c < nc; c++) {
			if ((c && fputc(',', f) == EOF) || csv_field(f, writer_csv_cell(rs, r, c, buf, sizeof buf)) < 0)
				return -1;
		}
		if (fputc('\n', f) == EOF)
			return -1;
	}
	return ferror(f) ? -1 : 0;
}

/* Row r as a JSON object, keys in column order. */
static json_t *row_object(const rowset *rs, size_t r)
{
	json_t *obj = json_object();
	char buf[WRITER_CELL_MAX];

	for (size_t c = 0; c < rowset_ncols(rs); c++) {
		json_t *v;
		const char *text;
		switch (rowset_type(rs, r, c)) {
		case CELL_TEXT:
			text = rowset_get_text(rs, r, c);
			if (rowset_unit(rs, c) == UNIT_BOOL && (strcmp(text, "true") == 0 || strcmp(text, "false") == 0)) {
				v = json_boolean(text[0] == 't');
				break;
			}
			v = json_string(text);
			if (v == NULL) /* not UTF-8: keep the row, lose the text */
				v = json_string("?");
			break;
		case CELL_INT:
			/* exact: through a double a seed above 2^53 would change */
			v = json_integer((json_int_t)rowset_get_int(rs, r, c));
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
	return obj;
}

int writer_json(FILE *f, const rowset *rs)
{
	json_t *arr = json_array();
	int rc;

	for (size_t r = 0; r < rowset_nrows(rs); r++)
		json_array_append_new(arr, row_object(rs, r));
	rc = json_dumpf(arr, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(arr);
	if (rc != 0 || fputc('\n', f) == EOF)
		return -1;
	return ferror(f) ? -1 : 0;
}

int writer_jsonl(FILE *f, const rowset *rs)
{
	for (size_t r = 0; r < rowset_nrows(rs); r++) {
		json_t *obj = row_object(rs, r);
		int rc = json_dumpf(obj, f, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
		json_decref(obj);
		if (rc != 0 || fputc('\n', f) == EOF)
			return -1;
	}
	return ferror(f) ? -1 : 0;
}

static int is_numeric(enum cell_type t)
{
	return t == CELL_INT || t == CELL_REAL;
}

/* Text for a terminal: control characters (an escape sequence in a
 * candidate's name, a newline) are shown as \xNN, never sent raw; text
 * longer than size ends with util/text.h's cut mark. */
static void escape_controls(const char *in, char *out, size_t size)
{
	char *esc = xmalloc(4 * strlen(in) + 1);
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)in; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			snprintf(esc + o, 5, "\\x%02x", *p);
			o += 4;
		} else {
			esc[o++] = (char)*p;
		}
	}
	esc[o] = '\0';
	text_setf(out, size, "%s", esc);
	free(esc);
}

/* The integer nearest |x|, digits grouped by three with commas. */
static void grouped(double x, char *out, size_t size)
{
	char digits[400];
	size_t n, o = 0;

	snprintf(digits, sizeof digits, "%.0f", fabs(x));
	n = strlen(digits);
	for (size_t i = 0; i < n && o + 2 < size; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
}

/* |x| with `sig` significant digits in fixed notation (at most 6 decimals),
 * from 1000 up as a grouped integer. */
static void fixed_sig(double x, int sig, char *out, size_t size)
{
	double ax = fabs(x);
	int decimals;

	if (ax == 0) {
		snprintf(out, size, "0");
		return;
	}
	decimals = sig - ((int)floor(log10(ax)) + 1);
	if (decimals > 6)
		decimals = 6;
	if (decimals <= 0 || ax >= 999.5) {
		grouped(ax, out, size);
		return;
	}
	snprintf(out, size, "%.*f", decimals, ax);
}

/* x formatted as unit u says, for a table. */
static void unit_text(double x, enum cell_unit u, char *out, size_t size)
{
	char mag[448];
	const char *sign = x < 0 ? "-" : "";
	double ax = fabs(x), pct;

	switch (u) {
	case UNIT_COUNT:
		grouped(ax, mag, sizeof mag);
		snprintf(out, size, "%s%s", sign, mag);
		return;
	case UNIT_USD:
		if (ax >= 1000)
			grouped(ax, mag, sizeof mag);
		else if (ax >= 1 || ax == 0)
			snprintf(mag, sizeof mag, "%.2f", ax);
		else
			fixed_sig(ax, 3, mag, sizeof mag);
		snprintf(out, size, "%s$%s", sign, strcmp(mag, "0.00") == 0 ? "0" : mag);
		return;
	case UNIT_HOURS:
		if (ax < 1)
			snprintf(out, size, "%s%.1f min", sign, ax * 60);
		else if (ax < 48)
			snprintf(out, size, "%s%.1f h", sign, ax);
		else if (ax / 24 < 1000)
			snprintf(out, size, "%s%.1f d", sign, ax / 24);
		else {
			grouped(ax / 24, mag, sizeof mag);
			snprintf(out, size, "%s%s d", sign, mag);
		}
		return;
	case UNIT_FRACTION:
		pct = ax * 100;
		if (pct == 0)
			snprintf(out, size, "0%%");
		else if (pct < 0.005)
			snprintf(out, size, "%s<0.01%%", sign);
		else if (pct < 9.995)
			snprintf(out, size, "%s%.2f%%", sign, pct);
		else
			snprintf(out, size, "%s%.1f%%", sign, pct);
		return;
	default:
		fixed_sig(ax, 4, mag, sizeof mag);
		snprintf(out, size, "%s%s", strcmp(mag, "0") == 0 ? "" : sign, mag);
		return;
	}
}

void writer_table_cell(const rowset *rs, size_t r, size_t c, char *out, size_t size)
{
	char raw[WRITER_CELL_MAX];
	enum cell_type t = rowset_type(rs, r, c);
	enum cell_unit u = rowset_unit(rs, c);

	if (t == CELL_TEXT) {
		escape_controls(rowset_get_text(rs, r, c), out, size);  /* whole, not cut at raw's size */
		return;
	}

	if (t == CELL_REAL && (u == UNIT_NONE || u == UNIT_TEXT || u == UNIT_ID || u == UNIT_BOOL))
		u = UNIT_NUMBER;  /* no scientific notation in a table */
	if ((t == CELL_INT || t == CELL_REAL) && u != UNIT_NONE && u != UNIT_ID && u != UNIT_TEXT &&
	    u != UNIT_BOOL)
		unit_text(rowset_number(rs, r, c), u, raw, sizeof raw);
	else
		rowset_format(rs, r, c, raw, sizeof raw);
	escape_controls(raw, out, size);
}

/* Column c's name for the table. */
static void table_column(const rowset *rs, size_t c, char *out, size_t size)
{
	escape_controls(rowset_column(rs, c), out, size);
}

int writer_table(FILE *f, const rowset *rs, int width)
{
	size_t nc = rowset_ncols(rs), nr = rowset_nrows(rs);
	size_t *w = xcalloc(nc ? nc : 1, sizeof *w);
	char buf[4 * WRITER_CELL_MAX], name[4 * WRITER_CELL_MAX];
	size_t total = 0;

	for (size_t c = 0; c < nc; c++) {
		table_column(rs, c, name, sizeof name);
		w[c] = strlen(name);
		for (size_t r = 0; r < nr; r++) {
			writer_table_cell(rs, r, c, buf, sizeof buf);
			if (strlen(buf) > w[c])
				w[c] = strlen(buf);
		}
		total += w[c] + 2;
	}
	/* a text column last (the reason) may run past the width: it is read
	 * last and wraps without breaking the columns before it */
	if (nc > 0 && nr > 0 && !is_numeric(rowset_type(rs, 0, nc - 1)))
		total -= w[nc - 1];
	if (width > 0 && total > (size_t)width && nr > 0) {
		/* Too wide: one block per row. */
		size_t kw = 0;
		for (size_t c = 0; c < nc; c++) {
			table_column(rs, c, name, sizeof name);
			if (strlen(name) > kw)
				kw = strlen(name);
		}
		for (size_t r = 0; r < nr; r++) {
			if (r)
				fputc('\n', f);
			for (size_t c = 0; c < nc; c++) {
				writer_table_cell(rs, r, c, buf, sizeof buf);
				table_column(rs, c, name, sizeof name);
				fprintf(f, "%-*s  %s\n", (int)kw, name, buf);
			}
		}
	} else {
		for (size_t c = 0; c < nc; c++) {
			bool num = nr > 0 && is_numeric(rowset_type(rs, 0, c));
			table_column(rs, c, name, sizeof name);
			if (num)
				fprintf(f, "%*s", (int)w[c], name);
			else if (c + 1 < nc)
				fprintf(f, "%-*s", (int)w[c], name);
			else
				fputs(name, f);
			if (c + 1 < nc)
				fputs("  ", f);
		}
		fputc('\n', f);
		for (size_t r = 0; r < nr; r++) {
			for (size_t c = 0; c < nc; c++) {
				writer_table_cell(rs, r, c, buf, sizeof buf);
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
