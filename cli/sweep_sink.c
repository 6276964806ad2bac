#include "sweep_sink.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/results.h"
#include "util/xalloc.h"

/* The header line writer_csv() writes for rs, into a new buffer. */
static int header_of(const rowset *rs, char **buf, size_t *len)
{
	FILE *mem = open_memstream(buf, len);
	int rc = 0;

	if (mem == NULL || writer_csv(mem, rs) < 0)
		rc = -1;
	if (mem != NULL && fclose(mem) != 0)
		rc = -1;
	if (rc < 0) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

int sweep_sink_header(const struct sweep_run *run, char **buf, size_t *len)
{
	rowset *empty = sweep_run_rowset(run);
	int rc = header_of(empty, buf, len);
	rowset_free(empty);
	return rc;
}

/* chunk in the sink's columns, with their units (the JSON types, the
 * table's formats): a new rowset. The columns were checked at open. */
static rowset *narrowed(const struct sweep_sink *k, const rowset *chunk)
{
	const char *list = k->columns != NULL && strcmp(k->columns, "all") != 0 ? k->columns : NULL;
	rowset *out = NULL;
	size_t n = rowset_ncols(chunk);
	const char **all = xcalloc(n ? n : 1, sizeof *all);
	const char *bad = NULL;
	struct cs_error err;

	if (list != NULL) {
		cli_select_columns(list, chunk, &out, &err);
	} else {
		for (size_t c = 0; c < n; c++)
			all[c] = rowset_column(chunk, c);
		out = rowset_select(chunk, all, n, &bad);
	}
	free(all);
	if (out != NULL)
		results_set_units(out);
	return out;
}

bool sweep_sink_to_file(const struct sweep_sink *k)
{
	return k->path != NULL && strcmp(k->path, "-") != 0;
}

/* Tables and JSON: the chunk's rows kept for the end. */
static void keep_rows(struct sweep_sink *k, const rowset *chunk)
{
	for (size_t r = 0; r < rowset_nrows(chunk); r++) {
		size_t row = rowset_add_row(k->all);
		for (size_t c = 0; c < rowset_ncols(chunk); c++)
			rowset_copy_cell(k->all, row, c, chunk, r, c);
	}
}

int sweep_sink_put(struct sweep_sink *k, const rowset *chunk)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *mem;
	rowset *sel = NULL;
	int rc;

	if (k->format != FORMAT_CSV || k->columns != NULL) {
		sel = narrowed(k, chunk);
		if (sel == NULL) {  /* a chunk of other columns: a bug upstream */
			errno = EINVAL;
			return -1;
		}
		chunk = sel;
	}
	if (k->format == FORMAT_JSONL) {  /* streamed, like CSV */
		rc = writer_jsonl(k->out.f, chunk);
		rowset_free(sel);
		return rc;
	}
	if (k->format != FORMAT_CSV) {
		keep_rows(k, chunk);
		rowset_free(sel);
		return 0;
	}
	mem = open_memstream(&buf, &size);
	if (mem == NULL) {
		rowset_free(sel);
		return -1;
	}
	rc = writer_csv(mem, chunk);
	rowset_free(sel);
	if (fclose(mem) != 0)
		rc = -1;
	if (rc == 0 && size >= k->header_len &&
	    fwrite(buf + k->header_len, 1, size - k->header_len, k->out.f) != size - k->header_len)
		rc = -1;
	free(buf);
	return rc < 0 || ferror(k->out.f) ? -1 : 0;
}

int sweep_sink_write_error(const struct sweep_sink *k, int e, struct cs_error *err)
{
	if (sweep_sink_to_file(k))
		error_runtime(err, "cannot write '%s': %s", k->path, strerror(e ? e : EIO));
	else
		error_runtime(err, "cannot write standard output: %s", strerror(e ? e : EIO));
	return EXIT_RUNTIME;
}

int sweep_sink_open(struct sweep_sink *k, const struct sweep_run *run, const char *path,
		    enum output_format format, const char *columns, struct cs_error *err)
{
	struct stat st;
	char *header = NULL;
	size_t size = 0;
	rowset *empty = sweep_run_rowset(run), *sel = NULL;

	/* the columns first: a misspelt one is bad input, before any output */
	if (cli_select_columns(columns, empty, &sel, err) < 0) {
		rowset_free(empty);
		return -1;
	}
	if (sel != NULL) {
		rowset_free(empty);
		empty = sel;
	}
	results_set_units(empty);
	k->columns = columns;
	k->path = path;
	k->format = format;
	k->width = path == NULL || strcmp(path, "-") == 0 ? cli_table_width() : 0;
	k->existed = sweep_sink_to_file(k) && stat(path, &st) == 0 && S_ISREG(st.st_mode);
	if (outfile_open(&k->out, path, err) < 0) {
		rowset_free(empty);
		return -1;
	}
	if (format != FORMAT_CSV) {
		if (format == FORMAT_JSONL)
			rowset_free(empty);
		else
			k->all = empty;
		return 0;
	}
	/* The header as writer_csv() writes it, measured so that
	 * sweep_sink_put() can skip it in each chunk's output. */
	if (header_of(empty, &header, &size) < 0 || fwrite(header, 1, size, k->out.f) != size) {
		int e = errno;
		rowset_free(empty);
		free(header);
		outfile_abort(&k->out);
		sweep_sink_write_error(k, e, err);
		return -1;
	}
	k->header_len = size;
	rowset_free(empty);
	free(header);
	return 0;
}

int sweep_sink_finish(struct sweep_sink *k, struct cs_error *err)
{
	if ((k->format == FORMAT_TABLE || k->format == FORMAT_JSON) && writer_write(k->out.f, k->all, k->format, k->width) < 0) {
		int e = errno;
		outfile_abort(&k->out);
		sweep_sink_write_error(k, e, err);
		return -1;
	}
	return outfile_commit(&k->out, err);
}

void sweep_sink_abort(struct sweep_sink *k)
{
	outfile_abort(&k->out);
}

/* Copy the stream in to part; 0, or -1 on a read or write error. */
static int copy_stream(FILE *in, struct outfile *part)
{
	char buf[65536];
	size_t n;
	int rc = 0;

	while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, part->f) != n)
			rc = -1;
	if (ferror(in))
		rc = -1;
	return rc;
}

int sweep_sink_commit_partial(struct sweep_sink *k, char **partial, struct cs_error *err)
{
	struct outfile part;
	FILE *in;
	int rc;

	*partial = xasprintf("%s.partial", k->path);
	if (fflush(k->out.f) != 0 || (in = fopen(k->out.tmp_path, "r")) == NULL) {
		int e = errno;
		outfile_abort(&k->out);
		sweep_sink_write_error(k, e, err);
		return -1;
	}
	if (outfile_open(&part, *partial, err) < 0) {
		fclose(in);
		outfile_abort(&k->out);
		return -1;
	}
	rc = copy_stream(in, &part);
	fclose(in);
	outfile_abort(&k->out);
	if (rc < 0) {
		int e = errno;
		outfile_abort(&part);
		return error_runtime(err, "cannot write '%s': %s", *partial, strerror(e ? e : EIO));
	}
	return outfile_commit(&part, err);
}

void sweep_sink_release(struct sweep_sink *k)
{
	rowset_free(k->all);
	k->all = NULL;
}
