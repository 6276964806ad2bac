/*
 * measure_nccl: the text nccl-tests prints (all_reduce_perf, all_gather_perf,
 * reduce_scatter_perf, alltoall_perf, broadcast_perf, sendrecv_perf), as
 * written by NVIDIA/nccl-tests src/util.cu (writeDeviceReport,
 * writeResultHeader, writeBenchmarkLineBody, writeResultFooter; v2.19.6,
 * and the older layout without the root column): a "# nThread T nGpus G
 * ..." line, one "#  Rank R Group G Pid P on HOST device D ..." line per
 * GPU, the column header "size count type redop [root] time algbw busbw
 * #wrong time algbw busbw #wrong" (out-of-place, then in-place), one row per
 * size and "# Avg bus bandwidth : X". Several tests may follow each other in
 * one file; mpirun's "[1,0]<stdout>:" prefixes are skipped. Each row becomes
 * a collective document (op, bytes, algorithm auto) on the --on scenario's
 * first candidate whose figure is the out-of-place busbw; the in-place
 * columns are read and checked but not compared (the model has one busbw).
 */
#define _GNU_SOURCE  /* memmem */
#include "models/measure/measure.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"

/* The nccl-tests programs clustersim models, by the name they print. */
static const struct {
	const char *test, *op;
} nccl_ops[] = {
	{ "all_reduce", "all_reduce" }, { "all_gather", "all_gather" }, { "reduce_scatter", "reduce_scatter" },
	{ "alltoall", "all_to_all" }, { "broadcast", "broadcast" }, { "sendrecv", "send_recv" },
};

/* The busbw below which a row's figure is its time (read_row). */
#define NCCL_BUSBW_FLOOR_GBPS 1.0

/* One test's output as it is read. */
struct nccl_test {
	char test[64];      /* "all_reduce" (from "Collective test starting" or the command line) */
	int threads, gpus;  /* nThread, nGpus */
	int ranks;          /* device lines */
	long header_line;   /* 0: no column header yet */
	bool has_root;
	long rows, last_row_line;
	bool done;          /* "# Avg bus bandwidth" seen */
};

/* What the reader carries over the whole file. */
struct nccl_read {
	const char *file;
	const json_t *on;
	struct measure_set *set;
	struct cs_error *err;
	char last_test[64];  /* the last "NAME_perf" seen on any line */
	char stem[128];
	struct nccl_test t;
	bool any;
};

static const char *shown(const char *file)
{
	return strcmp(file, "-") == 0 ? "<stdin>" : file;
}

static bool detect_nccl(const char *file, const char *text, size_t len)
{
	(void)file;
	size_t i = 0;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i < len && (text[i] == '{' || text[i] == '['))
		return false;  /* JSON: a scenario that talks about nccl-tests */
	return (memmem(text, len, "out-of-place", 12) != NULL && memmem(text, len, "busbw", 5) != NULL) ||
	       (memmem(text, len, "nThread ", 8) != NULL && memmem(text, len, " nGpus ", 7) != NULL);
}

/* The NAME of the last "NAME_perf" in s (letters and '_'), into buf. */
static void find_test_name(const char *s, char *buf, size_t size)
{
	const char *p = s, *hit;
	while ((hit = strstr(p, "_perf")) != NULL) {
		const char *b = hit;
		while (b > s && (isalpha((unsigned char)b[-1]) || b[-1] == '_'))
			b--;
		if (hit > b)
			text_setf(buf, size, "%.*s", (int)(hit - b), b);  /* a cut name is no known test */
		p = hit + 5;
	}
}

/* The clustersim op of nccl-tests' test name, or NULL. */
static const char *op_of(const char *test)
{
	for (size_t i = 0; i < sizeof nccl_ops / sizeof nccl_ops[0]; i++)
		if (strcmp(test, nccl_ops[i].test) == 0)
			return nccl_ops[i].op;
	return NULL;
}

/* End the test being read (at line, or the end of the file: line 0). */
static int end_test(struct nccl_read *rd, long line)
{
	struct nccl_test *t = &rd->t;
	if (t->header_line > 0 && t->rows == 0)
		return error_set(rd->err, "measurements '%s': line %ld: a column header with no rows after it: "
				 "is the output cut short?", shown(rd->file), t->header_line);
	if (t->rows > 0 && !t->done)
		return error_set(rd->err, "measurements '%s': %s%ld: the rows end without \"# Avg bus bandwidth\": is "
				 "the output cut short?", shown(rd->file), line > 0 ? "line " : "end of file after line ",
				 line > 0 ? line : t->header_line + t->rows);
	memset(t, 0, sizeof *t);
	return 0;
}

/* A number of a row: the whole token, finite. */
static int row_number(struct nccl_read *rd, long line, const char *tok, const char *col, double *out)
{
	char *end;
	*out = strtod(tok, &end);
	if (end == tok || *end != '\0' || !isfinite(*out) || *out < 0)
		return error_set(rd->err, "measurements '%s': line %ld: %s: expected a number, got \"%.40s\"",
				 shown(rd->file), line, col, tok);
	return 0;
}

/* The collective document of one row. */
static int add_row(struct nccl_read *rd, long line, double bytes, const char *metric, double value)
{
	const char *test = rd->t.test[0] != '\0' ? rd->t.test : rd->last_test;
	const char *op = op_of(test);
	char id[512], source[1024];
	if (test[0] == '\0')
		return error_set(rd->err, "measurements '%s': line %ld: which test is this (no \"Collective test "
				 "starting\" line or NAME_perf command before it)? put the command line above the output",
				 shown(rd->file), line);
	if (op == NULL)
		return error_set(rd->err, "measurements '%s': line %ld: %s_perf is not a collective clustersim "
				 "models (all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv)",
				 shown(rd->file), line, test);
	json_t *doc = json_deep_copy(rd->on), *cands = json_object_get(doc, "candidates");
	if (!json_is_array(cands) || json_array_size(cands) == 0) {
		json_decref(doc);
		return error_set(rd->err, "measurements '%s': the --on scenario has no candidates (its first is the "
				 "cluster the test ran on)", shown(rd->file));
	}
	json_t *cluster = json_incref(json_array_get(cands, 0));
	json_t *wl = json_pack("{s:s, s:{s:s, s:f, s:s}}", "kind", "collective", "collective", "op", op, "bytes", bytes,
			       "algorithm", "auto");
	json_object_set_new(doc, "candidates", json_pack("[o]", cluster));
	json_object_set_new(doc, "workload", wl);
	json_object_del(doc, "search");
	json_object_del(doc, "objective");
	json_object_del(doc, "monte_carlo");
	json_object_del(doc, "validation");
	text_setf(id, sizeof id, "%s_%s_%.0f", rd->stem, test, bytes);
	json_object_set_new(doc, "name", json_string(id));
	text_setf(source, sizeof source, "nccl-tests %s_perf, %.0f bytes, out-of-place %s; %s:%ld", test, bytes,
		 strcmp(metric, "time_us") == 0 ? "time (busbw below 1 GB/s)" : "busbw", shown(rd->file), line);
	struct measure_doc *d = measure_set_add_figure(rd->set, doc, rd->file, line, id, metric, value, source,
							rd->stem);
	d->gpus = rd->t.ranks > 0 ? rd->t.ranks : rd->t.threads * rd->t.gpus;
	return 0;
}

/* A row: size count type redop [root] then 2 x (time algbw busbw #wrong). */
static int read_row(struct nccl_read *rd, long line, char *s)
{
	char *tok[24];
	int n = 0;
	for (char *p = strtok(s, " \t\r"); p != NULL && n < 24; p = strtok(NULL, " \t\r"))
		tok[n++] = p;
	int want = rd->t.has_root ? 13 : 12, at = rd->t.has_root ? 5 : 4;
	if (n < want)
		return error_set(rd->err, "measurements '%s': line %ld: a row of %d fields, %d expected (size count type "
				 "redop%s time algbw busbw #wrong, out-of-place then in-place): is it cut short?",
				 shown(rd->file), line, n, want, rd->t.has_root ? " root" : "");
	double bytes, v[6];
	static const char *const cols[6] = { "out-of-place time", "out-of-place algbw", "out-of-place busbw",
					     "in-place time", "in-place algbw", "in-place busbw" };
	if (row_number(rd, line, tok[0], "size", &bytes) < 0)
		return -1;
	for (int i = 0; i < 6; i++)
		if (row_number(rd, line, tok[at + i + (i >= 3)], cols[i], &v[i]) < 0)
			return -1;
	if (bytes < 1 || bytes > 1099511627776.0)
		return error_set(rd->err, "measurements '%s': line %ld: size %.0f bytes is outside 1 byte to 1 TiB",
				 shown(rd->file), line, bytes);
	rd->t.rows++;
	rd->t.last_row_line = line;
	/* Below 1 GB/s nccl-tests' two decimals leave fewer than three
	 * significant digits (0.00 at the smallest sizes, where latency
	 * dominates): such a size's figure is its out-of-place time. */
	if (v[2] < NCCL_BUSBW_FLOOR_GBPS)
		return add_row(rd, line, bytes, "time_us", v[0]);
	return add_row(rd, line, bytes, "busbw_GBps", v[2]);
}

/* One line of the file (NUL-terminated, changed in place). */
static int read_line(struct nccl_read *rd, long line, char *s)
{
	char *p = strstr(s, "<stdout>:");
	if (p != NULL)
		s = p + 9;
	while (*s == ' ' || *s == '\t')
		s++;
	bool comment = *s == '#';
	if (comment)
		s++;
	find_test_name(s, rd->last_test, sizeof rd->last_test);
	if ((p = strstr(s, "nThread ")) != NULL && strstr(s, "nGpus ") != NULL) {
		if (rd->t.header_line > 0 && end_test(rd, line) < 0)
			return -1;
		rd->t.threads = atoi(p + 8);
		rd->t.gpus = atoi(strstr(s, "nGpus ") + 6);
	} else if ((p = strstr(s, "Collective test starting:")) != NULL) {
		if (rd->t.header_line > 0 && end_test(rd, line) < 0)
			return -1;
		find_test_name(p, rd->t.test, sizeof rd->t.test);
	} else if (strstr(s, "Rank") != NULL && strstr(s, " Pid ") != NULL && strstr(s, " device ") != NULL) {
		rd->t.ranks++;
	} else if (strstr(s, "size") != NULL && strstr(s, "count") != NULL && strstr(s, "redop") != NULL &&
		   strstr(s, "busbw") != NULL) {
		if (rd->t.header_line > 0 && end_test(rd, line) < 0)
			return -1;
		rd->t.header_line = line;
		rd->t.has_root = strstr(s, " root") != NULL;
		rd->any = true;
	} else if (strstr(s, "Avg bus bandwidth") != NULL) {
		rd->t.done = true;
	} else if (!comment && isdigit((unsigned char)*s) && rd->t.header_line > 0 && !rd->t.done) {
		return read_row(rd, line, s);
	}
	return 0;
}

static int load_nccl(const char *file, const char *text, size_t len, const json_t *on, struct measure_set *set,
		     struct cs_error *err)
{
	struct nccl_read rd = { .file = file, .on = on, .set = set, .err = err };
	char buf[4096];
	long line = 0;
	measure_file_stem(file, rd.stem, sizeof rd.stem);
	if (memchr(text, '\0', len) != NULL)
		return error_set(err, "measurements '%s': a NUL byte: not nccl-tests' text output", shown(file));
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl != NULL ? (size_t)(nl - text) : len;
		line++;
		if (end - at >= sizeof buf)
			return error_set(err, "measurements '%s': line %ld: longer than %zu bytes, more than nccl-tests "
					 "prints on a line", shown(file), line, sizeof buf - 1);
		memcpy(buf, text + at, end - at);
		buf[end - at] = '\0';
		if (read_line(&rd, line, buf) < 0)
			return -1;
		at = end + 1;
	}
	if (end_test(&rd, 0) < 0)
		return -1;
	if (!rd.any)
		return error_set(err, "measurements '%s': no column header (size count type redop ... busbw): not "
				 "nccl-tests output, or cut before its rows", shown(file));
	return 0;
}

const struct measure_format measure_format_nccl = {
	.name = "nccl-tests",
	.needs_scenario = true,
	.detect = detect_nccl,
	.load = load_nccl,
};
