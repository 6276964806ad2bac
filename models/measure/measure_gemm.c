/*
 * measure_gemm: a GEMM sweep as measurements: a CSV with a header naming
 * the shape (m, n, k), the number format (dtype, precision, a_type or
 * d_type) and a rate (TFLOP/s, or GFLOP/s as hipblaslt-bench, hipblas-bench
 * and rocblas-bench print it), one row per shape; or mamf-finder.py's text
 * report, one shape per progress record. Each shape becomes a `gemm`
 * workload on the --on scenario's first candidate whose validation block
 * holds the measured rate (metric gemm_tflops). The columns and names the
 * real tools write are in docs/reference/gemm-sweeps.md.
 *
 * Reads only the text it is given; never prints.
 */
#include "models/measure/measure.h"

#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/hw/hw.h"
#include "models/kernel/gemm_bench.h"
#include "util/text.h"
#include "util/xalloc.h"

/*
 * The header names the real tools write (docs/reference/gemm-sweeps.md has
 * an example of each, tests/fixtures/gemm/ the files):
 * - hipblaslt-bench (ROCm/hipBLASLt clients/benchmarks): transA, transB,
 *   [grouped_gemm, batch_count,] M or m, N or n, K or k, ..., a_type, b_type,
 *   c_type, d_type, compute_type, ..., hipblaslt-Gflops, [efficiency,]
 *   [hipblaslt-GB/s,] us; older versions have only d_type and add CPU-Gflops.
 * - hipblas-bench and rocblas-bench: transA, transB, M, N, K, ...,
 *   hipblas-Gflops or rocblas-Gflops, us; no type column (the type is the
 *   command's -r).
 * - a script's own sweep: m, n, k, dtype, tflops.
 * mamf-finder.py's text report is read by load_mamf below.
 * Names compare without case and surrounding spaces.
 */

/* A rate column and what it is multiplied by to give TFLOP/s; the first of
 * this table the header has is read (so CPU-Gflops, hipblaslt-bench's
 * reference run on the host, is never taken for the GPU's). */
static const struct {
	const char *name;
	double to_tflops;
} rate_columns[] = {
	{ "tflops", 1 },           { "tflop/s", 1 },         { "tflops_per_s", 1 },
	{ "hipblaslt-gflops", 1e-3 }, { "hipblas-gflops", 1e-3 }, { "rocblas-gflops", 1e-3 },
	{ "gflops", 1e-3 },        { "gflop/s", 1e-3 },
};

/* The number-format columns, best first: the inputs' type (a_type) over the
 * output's (d_type). compute_type is never read: it is the accumulator
 * (f32_r for BF16 and FP8 inputs alike). */
static const char *const dtype_columns[] = { "dtype", "precision", "a_type", "d_type", NULL };

/* The tools' type names and clustersim's precision for each: hipBLASLt's
 * hipDataType names (f16_r, bf16_r, f8_r = E4M3, bf8_r = E5M2, their _fnuz
 * MI300 variants, f4_r), torch's dtype names (mamf-finder.py's --dtype), and
 * the plain ones; "torch." before any of them is dropped. FP8 E4M3 and E5M2
 * share the FP8 tensor rate. */
static const struct {
	const char *name;
	enum precision precision;
} dtype_names[] = {
	{ "bf16", PREC_BF16 },         { "bf16_r", PREC_BF16 },        { "bfloat16", PREC_BF16 },
	{ "fp16", PREC_FP16 },         { "f16_r", PREC_FP16 },         { "float16", PREC_FP16 },
	{ "half", PREC_FP16 },         { "fp32", PREC_FP32 },          { "f32_r", PREC_FP32 },
	{ "float32", PREC_FP32 },      { "float", PREC_FP32 },         { "tf32", PREC_TF32 },
	{ "xf32_r", PREC_TF32 },       { "fp64", PREC_FP64 },          { "f64_r", PREC_FP64 },
	{ "float64", PREC_FP64 },      { "double", PREC_FP64 },        { "fp8", PREC_FP8 },
	{ "f8_r", PREC_FP8 },          { "bf8_r", PREC_FP8 },          { "f8_fnuz_r", PREC_FP8 },
	{ "bf8_fnuz_r", PREC_FP8 },    { "float8_e4m3fn", PREC_FP8 },  { "float8_e4m3fnuz", PREC_FP8 },
	{ "float8_e5m2", PREC_FP8 },   { "float8_e5m2fnuz", PREC_FP8 }, { "e4m3", PREC_FP8 },
	{ "e5m2", PREC_FP8 },          { "mxfp8", PREC_FP8 },          { "fp4", PREC_FP4 },
	{ "f4_r", PREC_FP4 },          { "mxfp4", PREC_FP4 },          { "nvfp4", PREC_FP4 },
};

/* Lines read before a header must be found, and the bytes detect() looks at. */
enum { DETECT_LINES_MAX = 256 };
#define DETECT_BYTES_MAX ((size_t)1 << 16)

/* The fields of one line (libcsv's parse of it, unquoted fields trimmed). */
struct fields {
	char **cells; /* owned, each NUL-terminated */
	size_t n, cap;
};

static void on_field(void *s, size_t len, void *data)
{
	struct fields *f = data;
	f->cells = xgrow(f->cells, &f->cap, f->n + 1, sizeof *f->cells, 32);
	f->cells[f->n++] = xstrndup(s != NULL ? s : "", s != NULL ? len : 0);
}

static void on_row(int c, void *data)
{
	(void)c;
	(void)data;
}

static void fields_release(struct fields *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->cells[i]);
	free(f->cells);
	memset(f, 0, sizeof *f);
}

/* Split one line (len bytes, no newline) into f. */
static void split_line(const char *line, size_t len, struct fields *f)
{
	struct csv_parser p;
	fields_release(f);
	if (len == 0 || csv_init(&p, 0) != 0)
		return;
	csv_parse(&p, line, len, on_field, on_row, f);
	csv_fini(&p, on_field, on_row, f);
	csv_free(&p);
}

/* A cell's text without surrounding blanks (libcsv trims unquoted fields;
 * a quoted one keeps them) into buf. */
static const char *trimmed(const char *cell, char *buf, size_t size)
{
	while (*cell == ' ' || *cell == '\t')
		cell++;
	size_t len = strlen(cell);
	while (len > 0 && (cell[len - 1] == ' ' || cell[len - 1] == '\t' || cell[len - 1] == '\r'))
		len--;
	/* A cell longer than buf ends in text_setf's cut mark, so that it is
	 * never read as a number, a type or a column name it is not. */
	text_setf(buf, size, "%.*s", (int)len, cell);
	return buf;
}

/* Where the header's columns are; -1 for none. */
struct columns {
	long m, n, k, dtype, rate;
	double to_tflops;
	size_t ncols;
	long line; /* the header's line */
};

static long column_of(const struct fields *f, const char *name)
{
	char buf[64];
	for (size_t i = 0; i < f->n; i++)
		if (text_equal_nocase(trimmed(f->cells[i], buf, sizeof buf), name))
			return (long)i;
	return -1;
}

/* Read f as a header into c; the number of the four needed columns (m, n,
 * k and a rate) it has. */
static int header_of(const struct fields *f, struct columns *c)
{
	c->m = column_of(f, "m");
	c->n = column_of(f, "n");
	c->k = column_of(f, "k");
	c->rate = -1;
	c->to_tflops = 0;
	for (size_t i = 0; i < sizeof rate_columns / sizeof rate_columns[0] && c->rate < 0; i++) {
		c->rate = column_of(f, rate_columns[i].name);
		c->to_tflops = rate_columns[i].to_tflops;
	}
	c->dtype = -1;
	for (size_t i = 0; dtype_columns[i] != NULL && c->dtype < 0; i++)
		c->dtype = column_of(f, dtype_columns[i]);
	c->ncols = f->n;
	return (c->m >= 0) + (c->n >= 0) + (c->k >= 0) + (c->rate >= 0);
}

/* The next line of text from *pos: its start and length (no newline);
 * false at the end. */
static bool next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *line_len)
{
	if (*pos >= len)
		return false;
	const char *s = text + *pos;
	const char *nl = memchr(s, '\n', len - *pos);
	size_t l = nl != NULL ? (size_t)(nl - s) : len - *pos;
	*line = s;
	*line_len = l > 0 && s[l - 1] == '\r' ? l - 1 : l;
	*pos += l + (nl != NULL);
	return true;
}

static bool is_mamf_report(const char *text, size_t len);

static bool gemm_detect(const char *file, const char *text, size_t len)
{
	struct fields f = { 0 };
	struct columns c;
	const char *line;
	size_t pos = 0, line_len;
	bool found = false;
	(void)file;
	if (is_mamf_report(text, len))
		return true;
	if (len > DETECT_BYTES_MAX)
		len = DETECT_BYTES_MAX;
	for (int n = 0; !found && n < DETECT_LINES_MAX && next_line(text, len, &pos, &line, &line_len); n++) {
		split_line(line, line_len, &f);
		found = f.n >= 4 && header_of(&f, &c) == 4;
	}
	fields_release(&f);
	return found;
}

/* The names of the columns a header lacks, for the message. */
static void missing_columns(const struct columns *c, char *buf, size_t size)
{
	buf[0] = '\0';
	if (c->m < 0)
		text_append_itemf(buf, size, ", ", "m");
	if (c->n < 0)
		text_append_itemf(buf, size, ", ", "n");
	if (c->k < 0)
		text_append_itemf(buf, size, ", ", "k");
	if (c->rate < 0)
		text_append_itemf(buf, size, ", ", "a rate (tflops, gflops, hipblaslt-Gflops...)");
}

/* The column's name as the header wrote it, for messages. */
static const char *column_name(const struct fields *header, long col, char *buf, size_t size)
{
	return trimmed(header->cells[col], buf, size);
}

/* What one data line is read against. */
struct sweep {
	const char *file;
	struct fields header;
	struct columns c;
	const char *default_dtype; /* the --on scenario's workload.precision, or NULL */
	struct cs_error *err;
};

static int cell_error(struct sweep *sw, long line, long col, const char *cell, const char *expected)
{
	char name[64], val[96];
	text_quote(cell, val, sizeof val);
	return error_set(sw->err, "gemm sweep '%s': line %ld, column %s: expected %s, got %s", sw->file, line,
			 column_name(&sw->header, col, name, sizeof name), expected, val);
}

/* A whole number from 1 to GEMM_DIM_MAX in cell (col) into *out. */
static int read_dim(struct sweep *sw, const struct fields *f, long line, long col, double *out)
{
	char buf[64], *end;
	const char *s = trimmed(f->cells[col], buf, sizeof buf);
	double x = strtod(s, &end);
	if (s[0] == '\0' || *end != '\0' || !(x >= 1 && x <= GEMM_DIM_MAX) || x != floor(x))
		return cell_error(sw, line, col, f->cells[col], "a whole number from 1 to 16777216");
	*out = x;
	return 0;
}

/* The rate in cell (col) as TFLOP/s into *out: positive and finite. */
static int read_rate(struct sweep *sw, const struct fields *f, long line, double *out)
{
	char buf[64], *end;
	long col = sw->c.rate;
	const char *s = trimmed(f->cells[col], buf, sizeof buf);
	double x = strtod(s, &end);
	if (s[0] == '\0' || *end != '\0' || !isfinite(x) || !(x > 0) || !(x * sw->c.to_tflops <= 1e6))
		return cell_error(sw, line, col, f->cells[col], "a positive rate (at most 1e6 TFLOP/s)");
	*out = x * sw->c.to_tflops;
	return 0;
}

/* The precision a type name stands for; -1 when clustersim has none. */
static int precision_of_name(const char *name)
{
	if (strncmp(name, "torch.", 6) == 0) /* torch's dtype as mamf-finder.py prints it */
		name += 6;
	for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++)
		if (text_equal_nocase(name, dtype_names[i].name))
			return (int)dtype_names[i].precision;
	return -1;
}

/* The row's precision: its dtype column's, or the --on scenario's. */
static int read_precision(struct sweep *sw, const struct fields *f, long line, enum precision *out)
{
	char buf[64];
	if (sw->c.dtype < 0) {
		if (sw->default_dtype == NULL || precision_of_name(sw->default_dtype) < 0)
			return error_set(sw->err,
					 "gemm sweep '%s': line %ld: no type column (dtype, precision, a_type or d_type), "
					 "and the --on scenario states no workload.precision",
					 sw->file, sw->c.line);
		*out = (enum precision)precision_of_name(sw->default_dtype);
		return 0;
	}
	int p = precision_of_name(trimmed(f->cells[sw->c.dtype], buf, sizeof buf));
	if (p < 0)
		return cell_error(sw, line, sw->c.dtype, f->cells[sw->c.dtype],
				  "a type clustersim models (bf16, fp16, fp32, tf32, fp64, fp8, fp4, or the tools' names "
				  "bf16_r, f8_r, float8_e4m3fn...)");
	*out = (enum precision)p;
	return 0;
}

/* True when an id is already among set's documents from first on. */
static bool id_taken(const struct measure_set *set, size_t first, const char *id)
{
	for (size_t i = first; i < set->n; i++) {
		const json_t *v = json_object_get(json_object_get(set->docs[i].scenario, "validation"), "id");
		if (json_is_string(v) && strcmp(json_string_value(v), id) == 0)
			return true;
	}
	return false;
}

/* The document of one measured shape: the --on scenario with its first
 * candidate only, a gemm workload of the shape, and the rate as the
 * validation figure. The blocks a gemm workload refuses (monte_carlo,
 * objective) and the plan search are dropped. */
static json_t *shape_doc(const json_t *on, enum precision pr, const double dims[3], double tflops,
			 const char *id, const char *source)
{
	json_t *d = json_deep_copy(on);
	json_object_del(d, "monte_carlo");
	json_object_del(d, "objective");
	json_object_del(d, "search");
	json_t *first = json_array_get(json_object_get(d, "candidates"), 0);
	json_object_set_new(d, "candidates", json_pack("[O]", first));
	json_object_set_new(d, "workload",
			    json_pack("{s:s, s:s, s:{s:I, s:I, s:I}}", "kind", "gemm", "precision", precision_names[pr],
				      "gemm", "m", (json_int_t)dims[0], "n", (json_int_t)dims[1], "k",
				      (json_int_t)dims[2]));
	json_object_set_new(d, "validation",
			    json_pack("{s:s, s:s, s:f, s:s}", "id", id, "metric", "gemm_tflops", "published", tflops,
				      "source", source));
	return d;
}

/* The document of one measured shape into set; its id unique among the
 * file's documents (those from first on). */
static int add_shape(const char *file, long line, const json_t *on, enum precision pr, const double dims[3],
		     double tflops, struct measure_set *set, size_t first, struct cs_error *err)
{
	char id[128], source[1024];
	text_setf(id, sizeof id, "gemm_%s_%.0fx%.0fx%.0f", precision_names[pr], dims[0], dims[1], dims[2]);
	if (id_taken(set, first, id))
		text_appendf(id, sizeof id, "_line%ld", line);
	if (!text_setf(source, sizeof source, "%s:%ld", file, line))
		return error_set(err, "gemm sweep '%s': the file's name is too long for a source", file);
	measure_set_add(set, shape_doc(on, pr, dims, tflops, id, source), file, line);
	return 0;
}

/* One data line into a document of set. */
static int read_row(struct sweep *sw, const struct fields *f, long line, const json_t *on, struct measure_set *set,
		    size_t first)
{
	double dims[3] = { 0, 0, 0 }, tflops = 0;
	enum precision pr = PREC_BF16;
	if (read_dim(sw, f, line, sw->c.m, &dims[0]) < 0 || read_dim(sw, f, line, sw->c.n, &dims[1]) < 0 ||
	    read_dim(sw, f, line, sw->c.k, &dims[2]) < 0 || read_precision(sw, f, line, &pr) < 0 ||
	    read_rate(sw, f, line, &tflops) < 0)
		return -1;
	return add_shape(sw->file, line, on, pr, dims, tflops, set, first, sw->err);
}

/* True when a line whose field count is not the header's still has the
 * header's m, n and k as numbers: a row cut short or run on, not text
 * between tables (a tool's banner, a shell prompt). */
static bool looks_like_row(const struct sweep *sw, const struct fields *f)
{
	long cols[3] = { sw->c.m, sw->c.n, sw->c.k };
	for (int i = 0; i < 3; i++) {
		char *end;
		if (cols[i] >= (long)f->n)
			return false;
		const char *s = f->cells[cols[i]];
		(void)strtod(s, &end);
		if (end == s)
			return false;
	}
	return true;
}

/* Check the --on scenario has a first candidate, and note its precision. */
static int check_on(struct sweep *sw, const json_t *on)
{
	if (on == NULL)
		return error_set(sw->err, "gemm sweep '%s': needs --on SCENARIO (the GPU the sweep ran on is its first "
				 "candidate)", sw->file);
	const json_t *c = json_array_get(json_object_get(on, "candidates"), 0);
	if (!json_is_object(c))
		return error_set(sw->err, "gemm sweep '%s': the --on scenario has no candidates[0] (the GPU the sweep "
				 "ran on)", sw->file);
	sw->default_dtype = json_string_value(json_object_get(json_object_get(on, "workload"), "precision"));
	return 0;
}

/* No header was found: name what the closest line lacks. */
static int no_header(struct sweep *sw, const struct columns *best)
{
	char missing[256];
	if (best->line == 0)
		return error_set(sw->err, "gemm sweep '%s': no header line with columns m, n, k and a rate (tflops, "
				 "gflops, hipblaslt-Gflops...)", sw->file);
	missing_columns(best, missing, sizeof missing);
	return error_set(sw->err, "gemm sweep '%s': line %ld: the header lacks %s", sw->file, best->line, missing);
}

/* The lines after the header: rows of its field count; blank lines and text
 * between tables skipped; a later header starts a new table. */
static int read_lines(struct sweep *sw, const char *text, size_t len, const json_t *on, struct measure_set *set)
{
	struct fields f = { 0 };
	struct columns best = { .line = 0 }, c;
	const char *line;
	size_t pos = 0, line_len, first = set->n;
	int best_count = 1, rc = 0;
	long no = 0, rows = 0;
	bool have = false;

	while (rc == 0 && next_line(text, len, &pos, &line, &line_len)) {
		no++;
		split_line(line, line_len, &f);
		if (f.n < 2)
			continue;
		int count = header_of(&f, &c);
		if (count == 4) {
			c.line = no;
			sw->c = c;
			fields_release(&sw->header);
			sw->header = f;
			memset(&f, 0, sizeof f);
			have = true;
			continue;
		}
		if (!have) {
			if (count > best_count) {
				best_count = count;
				best = c;
				best.line = no;
			}
			continue;
		}
		if (f.n == sw->c.ncols) {
			rc = read_row(sw, &f, no, on, set, first);
			rows++;
		} else if (looks_like_row(sw, &f)) {
			rc = error_set(sw->err, "gemm sweep '%s': line %ld: %zu fields where the header on line %ld has %zu",
				       sw->file, no, f.n, sw->c.line, sw->c.ncols);
		}
	}
	fields_release(&f);
	if (rc == 0 && !have)
		rc = no_header(sw, &best);
	else if (rc == 0 && rows == 0)
		rc = error_set(sw->err, "gemm sweep '%s': line %ld: a header and no rows", sw->file, sw->c.line);
	return rc;
}

/*
 * mamf-finder.py's report (stas00/ml-engineering
 * compute/accelerator/benchmarks/mamf-finder.py, at 744d01e): its header
 * has "** Dtype: torch.bfloat16"; each shape prints a progress record
 * "N | MEAN(mean) MEDIAN(median) MAX(max) @ MxNxK | best: ..." ended by a
 * carriage return (the --output_file copy too); the end has "median: X
 * TFLOPS @ MxNxK (MxNxK)" under "the best outcomes were:", and the 2024
 * versions "The best outcome was X TFLOPS @ MxNxK (MxNxK) (tried N shapes)".
 * Each progress record is a measurement at its median; a report without
 * them (a summary pasted alone) gives its best shape's.
 */
static const char mamf_dtype_mark[] = "** Dtype:";

/* The first place needle is in text's first len bytes, or NULL. */
static const char *find_text(const char *text, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++)
		if (text[i] == needle[0] && memcmp(text + i, needle, n) == 0)
			return text + i;
	return NULL;
}

static bool is_mamf_report(const char *text, size_t len)
{
	return find_text(text, len, mamf_dtype_mark) != NULL &&
	       (find_text(text, len, "(median)") != NULL || find_text(text, len, "The best outcome was") != NULL ||
		find_text(text, len, "the best outcomes were:") != NULL);
}

/* One record's shape and rate, checked, into dims and *tflops. */
static int mamf_values(const char *file, long line, const double v[4], double dims[3], double *tflops,
		       struct cs_error *err)
{
	for (int i = 0; i < 3; i++) {
		if (!(v[i] >= 1 && v[i] <= GEMM_DIM_MAX) || v[i] != floor(v[i]))
			return error_set(err, "mamf-finder report '%s': line %ld: shape dimension %g is not a whole number "
					 "from 1 to 16777216", file, line, v[i]);
		dims[i] = v[i];
	}
	if (!isfinite(v[3]) || !(v[3] > 0) || !(v[3] <= 1e6))
		return error_set(err, "mamf-finder report '%s': line %ld: rate %g TFLOP/s is not positive and at most 1e6",
				 file, line, v[3]);
	*tflops = v[3];
	return 0;
}

/* What one record of a report is: 'p' a progress record, 's' a summary
 * line, 0 neither; its shape and rate in v (m, n, k, TFLOP/s). */
static int mamf_record(const char *rec, double v[4])
{
	double mean, max;
	char d[3][12]; /* the shape as digits: %lf would read "0x8" as hexadecimal */
	int kind = 0;
	if (sscanf(rec, " %*[0-9] | %lf(mean) %lf(median) %lf(max) @ %11[0-9]x%11[0-9]x%11[0-9]", &mean, &v[3], &max,
		   d[0], d[1], d[2]) == 6)
		kind = 'p';
	else if (sscanf(rec, " The best outcome was %lf TFLOPS @ %11[0-9]x%11[0-9]x%11[0-9]", &v[3], d[0], d[1], d[2]) ==
			 4 ||
		 sscanf(rec, " median: %lf TFLOPS @ %11[0-9]x%11[0-9]x%11[0-9]", &v[3], d[0], d[1], d[2]) == 4)
		kind = 's';
	for (int i = 0; kind != 0 && i < 3; i++)
		v[i] = strtod(d[i], NULL);
	return kind;
}

/* The report's dtype (the first "** Dtype:" line) as a precision. */
static int mamf_precision(const char *file, const char *text, size_t len, enum precision *out, struct cs_error *err)
{
	const char *at = find_text(text, len, mamf_dtype_mark);
	const char *end = text + len, *s = at + strlen(mamf_dtype_mark);
	long line = 1;
	for (const char *c = text; c < at; c++)
		line += *c == '\n';
	while (s < end && *s == ' ')
		s++;
	size_t n = 0;
	while (s + n < end && s[n] != '\n' && s[n] != '\r' && s[n] != ' ')
		n++;
	char name[64], shown[96];
	text_setf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), s);
	int p = precision_of_name(name);
	if (p < 0) {
		text_quote(name, shown, sizeof shown);
		return error_set(err, "mamf-finder report '%s': line %ld: dtype %s is not one clustersim models (bf16, "
				 "fp16, fp32, fp8, fp4 and their torch names)", file, line, shown);
	}
	*out = (enum precision)p;
	return 0;
}

/* A report's records (split at newlines and carriage returns) into set:
 * every progress record, or the summary's shapes when it has none. */
static int load_mamf(const char *file, const char *text, size_t len, const json_t *on, struct measure_set *set,
		     size_t first, struct cs_error *err)
{
	enum precision pr = PREC_BF16;
	if (mamf_precision(file, text, len, &pr, err) < 0)
		return -1;
	for (int pass = 'p'; pass != 0; pass = pass == 'p' && set->n == first ? 's' : 0) {
		long line = 1;
		size_t i = 0;
		while (i < len) {
			size_t j = i;
			while (j < len && text[j] != '\n' && text[j] != '\r')
				j++;
			char rec[512];
			double v[4] = { 0, 0, 0, 0 }, dims[3] = { 0, 0, 0 }, tflops = 0;
			text_setf(rec, sizeof rec, "%.*s", (int)(j - i < 511 ? j - i : 511), text + i);
			if (mamf_record(rec, v) == pass &&
			    (mamf_values(file, line, v, dims, &tflops, err) < 0 ||
			     add_shape(file, line, on, pr, dims, tflops, set, first, err) < 0))
				return -1;
			line += j < len && text[j] == '\n';
			i = j + 1;
		}
	}
	if (set->n == first)
		return error_set(err, "mamf-finder report '%s': no shape's rate (no \"N | ...(median) ... @ MxNxK\" "
				 "record nor a best outcome)", file);
	return 0;
}

static int gemm_load(const char *file, const char *text, size_t len, const json_t *on, struct measure_set *set,
		     struct cs_error *err)
{
	struct sweep sw = { .file = file, .err = err };
	size_t first = set->n;
	int rc = check_on(&sw, on);
	if (rc == 0 && is_mamf_report(text, len))
		rc = load_mamf(file, text, len, on, set, first, err);
	else if (rc == 0)
		rc = read_lines(&sw, text, len, on, set);
	fields_release(&sw.header);
	if (rc < 0) {
		/* nothing of a bad file is kept */
		for (size_t i = first; i < set->n; i++) {
			json_decref(set->docs[i].scenario);
			free(set->docs[i].file);
		}
		set->n = first;
	}
	return rc < 0 ? -1 : 0;
}

const struct measure_format measure_format_gemm_csv = {
	.name = "gemm-sweep",
	.needs_scenario = true,
	.detect = gemm_detect,
	.load = gemm_load,
};
