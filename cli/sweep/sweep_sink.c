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

bool sweep_sink_replaces(const struct sweep_sink *k)
{
	return sweep_sink_to_file(k) && outfile_replaces(&k->out);
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
	if (rc == 0 && k->journal && outfile_checkpoint(&k->out) < 0)
		rc = -1;
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

/*
 * May FILE.partial, `journal`, be replaced? When it is absent, empty, a
 * sweep's CSV (its first line ends with the sweep_fingerprint column), or
 * the beginning of this sweep's header (a run killed while writing it).
 * Anything else is someone's file: a runtime error. 0, or -1 with err set.
 */
static int check_journal_replaceable(const char *path, const char *journal, const char *header,
				     size_t header_len, struct cs_error *err)
{
	static const char tail[] = "sweep_fingerprint";
	char buf[65536];
	size_t n = 0, line;
	const char *nl;
	FILE *f;
	struct stat st;

	if (lstat(journal, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;  /* absent, or what outfile refuses itself */
	if ((f = fopen(journal, "r")) != NULL) {
		n = fread(buf, 1, sizeof buf, f);
		fclose(f);
	}
	nl = memchr(buf, '\n', n);
	line = nl != NULL ? (size_t)(nl - buf) : n;
	if (n > 0 && line < n && line >= sizeof tail - 1 && memcmp(buf + line - (sizeof tail - 1), tail, sizeof tail - 1) == 0)
		return 0;
	if (n > 0 && line == n && n <= header_len && memcmp(buf, header, n) == 0)
		return 0;
	return error_runtime(err, "cannot write '%s': '%s' is in the way and is not a sweep's results "
			     "(move it away)", path, journal);
}

int sweep_sink_open(struct sweep_sink *k, const struct sweep_run *run, const char *path,
		    enum output_format format, const char *columns, struct cs_error *err)
{
	struct stat st;
	char *header = NULL, *journal;
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
	/* The header as writer_csv() writes it, measured so that
	 * sweep_sink_put() can skip it in each chunk's output. */
	if (format == FORMAT_CSV && header_of(empty, &header, &size) < 0) {
		rowset_free(empty);
		return error_runtime(err, "sweep: out of memory");
	}
	journal = format == FORMAT_CSV && columns == NULL ? outfile_journal_name(path) : NULL;
	if (journal != NULL && check_journal_replaceable(path, journal, header, size, err) < 0) {
		free(journal);
		rowset_free(empty);
		free(header);
		return -1;
	}
	k->journal = journal != NULL;
	free(journal);
	if ((k->journal ? outfile_open_journal(&k->out, path, err) : outfile_open(&k->out, path, err)) < 0) {
		rowset_free(empty);
		free(header);
		return -1;
	}
	k->journal = k->out.journal;
	if (format != FORMAT_CSV) {
		if (format == FORMAT_JSONL)
			rowset_free(empty);
		else
			k->all = empty;
		return 0;
	}
	if (fwrite(header, 1, size, k->out.f) != size || (k->journal && outfile_checkpoint(&k->out) < 0)) {
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

	if (k->journal)
		return outfile_keep(&k->out, partial, err);
	*partial = outfile_journal_name(k->path);
	if (*partial == NULL)
		*partial = xasprintf("%s.partial", k->path);
	if (check_journal_replaceable(k->path, *partial, "", 0, err) < 0) {
		outfile_abort(&k->out);
		return -1;
	}
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
