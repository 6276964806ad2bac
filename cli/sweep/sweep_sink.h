/*
 * sweep_sink: where a sweep's rows go, point by point: -o FILE (committed
 * atomically) or standard output, in the columns --columns names (all by
 * default). CSV and JSONL are written as the points arrive (CSV with one
 * header for the whole sweep), so memory does not grow with the sweep;
 * tables and JSON are kept and written at the end.
 *
 * CSV of every column to a file goes to FILE's journal, FILE.partial
 * (output/outfile.h): each point's rows reach the kernel as the point is
 * written, so they survive any kill of the process, and the disk at most a
 * second later; the journal becomes FILE at the end, or stays for
 * `sweep --resume` to read (sweep_resume) after an interrupt or a kill.
 * A FILE.partial in the way that is not a sweep's results is never replaced.
 *
 * It writes bytes exactly as writer_csv() (writer_jsonl()) would for the
 * whole sweep; it never computes a point, never chooses which points are
 * kept, and never prints anything but the results.
 */
#ifndef CLUSTERSIM_CLI_SWEEP_SWEEP_SINK_H
#define CLUSTERSIM_CLI_SWEEP_SWEEP_SINK_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/sweep/sweep_run.h"
#include "output/outfile.h"
#include "output/rowset.h"
#include "output/writer.h"
#include "util/error.h"

struct sweep_sink {
	struct outfile out;
	const char *path;        /* -o as given, NULL for standard output */
	enum output_format format;
	const char *columns;     /* --columns as given, or NULL: every column */
	int width;
	rowset *all;             /* table and JSON: everything, written at the end */
	size_t header_len;       /* CSV: bytes of the header line writer_csv() writes */
	bool existed;            /* -o named a regular file before the sweep began */
	bool journal;            /* written to FILE.partial as the points finish */
};

/* The header line writer_csv() writes for the sweep's columns, into a new
 * buffer *buf of *len bytes. 0, or -1 (errno set). */
int sweep_sink_header(const struct sweep_run *run, char **buf, size_t *len);

/* Open the output (path NULL or "-": standard output) in the columns
 * `columns` ("a,b,c", "all" or NULL: every column) and, for CSV, write its
 * header. 0, or -1 with err set (a column that is not the sweep's is bad
 * input; nothing left open). */
int sweep_sink_open(struct sweep_sink *k, const struct sweep_run *run, const char *path,
		    enum output_format format, const char *columns, struct cs_error *err);

/* Does the sink write to a file (-o FILE other than "-")? */
bool sweep_sink_to_file(const struct sweep_sink *k);

/* Does it replace FILE at the end (a temporary or the journal), rather than
 * write through (standard output, a device, a fifo)? */
bool sweep_sink_replaces(const struct sweep_sink *k);

/* One point's rows: CSV written at once as writer_csv() writes them (without
 * the header; to the journal, handed to the kernel at once), JSONL at once,
 * else kept for the end. 0, or -1 (errno set) on a write error. */
int sweep_sink_put(struct sweep_sink *k, const rowset *chunk);

/* The failure (errno e) to write the output, as a runtime error; returns
 * EXIT_RUNTIME. */
int sweep_sink_write_error(const struct sweep_sink *k, int e, struct cs_error *err);

/* Write what was kept for the end (tables, JSON) and commit the output.
 * 0, or -1 with err set and the output given up. */
int sweep_sink_finish(struct sweep_sink *k, struct cs_error *err);

/* Give the output up: an existing FILE is left as it was, the journal and
 * temporaries are removed. */
void sweep_sink_abort(struct sweep_sink *k);

/* Leave what the output holds so far in FILE.partial (its name into
 * *partial, which the caller frees): the journal is kept as it is; other
 * output (CSV of some columns) is copied there atomically and given up.
 * FILE itself is left as it was. 0, or -1 with err set. */
int sweep_sink_commit_partial(struct sweep_sink *k, char **partial, struct cs_error *err);

/* Free what the sink keeps after it was committed or given up. */
void sweep_sink_release(struct sweep_sink *k);

#endif
