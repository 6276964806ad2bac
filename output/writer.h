/*
 * writer: a rowset as an aligned table, CSV (libcsv) or JSON (jansson).
 *
 * CSV: a header line of column names, then one line per row; a field is
 * quoted by libcsv when it holds a comma, quote, newline or edge space.
 * CSV and JSON carry every figure at full precision (rowset_format()), the
 * same bytes whatever the columns' units.
 * JSON: an array of objects, one per row, keys in column order, empty
 * cells as null, integers as JSON integers, UNIT_BOOL cells as true/false.
 * JSONL: the same objects, one per line, compact, no array around them, so
 * rows can be written (and read) one at a time.
 * Table (for a person): columns padded, numbers right-aligned, each cell as
 * its column's unit says (writer_table_cell()); when wider than `width`
 * characters each row is printed as a block of "name  value" lines instead.
 * Writers return -1 when the stream reports an error; they never choose
 * which columns are written (the caller narrows the rowset).
 */
#ifndef CLUSTERSIM_OUTPUT_WRITER_H
#define CLUSTERSIM_OUTPUT_WRITER_H

#include <stdio.h>

#include "output/rowset.h"

enum output_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON, FORMAT_JSONL };

/* The buffer the writers format one number into, NUL included. Text
 * cells are written whole (a table's, past its cell buffer, ends with
 * util/text.h's cut mark). */
enum { WRITER_CELL_MAX = 1024 };
extern const char *const output_format_names[];

int writer_write(FILE *f, const rowset *rs, enum output_format format, int width);
int writer_table(FILE *f, const rowset *rs, int width);
int writer_csv(FILE *f, const rowset *rs);

/* Cell (r, c) as writer_csv() writes it, before quoting: a text cell's own
 * text (borrowed from rs), whole; a number formatted into buf. */
const char *writer_csv_cell(const rowset *rs, size_t r, size_t c, char *buf, size_t size);

/* One CSV line of text cells, quoted as writer_csv() quotes (whole cells,
 * however long). -1 on a write error. */
int writer_csv_cells(FILE *f, char *const *cells, size_t n);
int writer_json(FILE *f, const rowset *rs);

/* One compact JSON object per row, one a line. */
int writer_jsonl(FILE *f, const rowset *rs);

/*
 * Cell (r, c) as a table shows it, by its column's unit: UNIT_COUNT with
 * thousands separators ("318,577"); UNIT_NUMBER (and a real of UNIT_NONE)
 * with 4 significant digits, never in scientific notation ("150.3",
 * "0.006210", "111,608"); UNIT_USD as "$2,191,913" from $1,000 up, "$880.64"
 * below, "$0.0123" under a dollar; UNIT_HOURS as "42.0 min" under an hour,
 * "12.4 h" under 48 hours, else days "103.7 d"; UNIT_FRACTION as a percent
 * ("42.4%", "3.18%", "<0.01%", "0%"); anything else as rowset_format().
 * Control characters are shown as \xNN. Cut to size - 1 bytes.
 */
void writer_table_cell(const rowset *rs, size_t r, size_t c, char *out, size_t size);

#endif
