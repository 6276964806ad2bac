/*
 * writer: a rowset as an aligned table, CSV (libcsv) or JSON (jansson).
 *
 * CSV: a header line of column names, then one line per row; a field is
 * quoted by libcsv when it holds a comma, quote, newline or edge space.
 * JSON: an array of objects, one per row, keys in column order, empty
 * cells as null. Table: columns padded, numbers right-aligned; when wider
 * than `width` characters each row is printed as a block of "name  value"
 * lines instead. Writers return -1 when the stream reports an error.
 */
#ifndef CLUSTERSIM_OUTPUT_WRITER_H
#define CLUSTERSIM_OUTPUT_WRITER_H

#include <stdio.h>

#include "output/rowset.h"

enum output_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

/* The buffer the writers format one cell into, NUL included: a cell is
 * written cut to WRITER_CELL_MAX - 1 bytes (writer_csv_cells() writes whole
 * cells). */
enum { WRITER_CELL_MAX = 1024 };
extern const char *const output_format_names[];

int writer_write(FILE *f, const rowset *rs, enum output_format format, int width);
int writer_table(FILE *f, const rowset *rs, int width);
int writer_csv(FILE *f, const rowset *rs);

/* One CSV line of text cells, quoted as writer_csv() quotes (whole cells,
 * however long). -1 on a write error. */
int writer_csv_cells(FILE *f, char *const *cells, size_t n);
int writer_json(FILE *f, const rowset *rs);

#endif
