/*
 * tracefile: what the trace readers of scenarios share: opening the file a
 * scenario names, feeding its lines to libcsv (a byte order mark skipped,
 * NUL bytes refused, quoted CSV or sacct's unquoted '|' fields), and the
 * one-line message naming the file and the line of the first defect.
 *
 * The readers (serve_trace: requests; fleet_trace: jobs) embed a struct
 * tracefile in their parse state and give libcsv their field and row
 * callbacks. A line may be at most TRACEFILE_LINE_MAX bytes, and so may a
 * field that a quote carries over lines: reading stops there, so memory
 * stays bounded whatever the file holds (/dev/zero, no newline). Never
 * prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_TRACEFILE_H
#define CLUSTERSIM_MODELS_SCENARIO_TRACEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The longest line (and quoted field) of a trace: 1 MiB, where a real
 * trace's lines are under a hundred bytes. */
#define TRACEFILE_LINE_MAX ((size_t)1 << 20)

/* The state of one read: what names the file, the line being parsed (from
 * 1), and the first failure's message. */
struct tracefile {
	const char *shown;
	size_t line;
	char *msg;
	size_t msg_size;
	bool failed;
};

void tracefile_init(struct tracefile *tf, const char *shown, char *msg, size_t msg_size);

/* Fail once: "trace 'FILE': line N: REASON" into the message; later
 * failures are ignored (the first defect is the one reported). */
void tracefile_fail(struct tracefile *tf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* How the fields of a line are separated: quoted CSV (strict, spaces
 * around fields trimmed) or unquoted fields at `delim`. */
struct tracefile_syntax {
	char delim;
	bool quoted;
};

/*
 * Feed every line of f to libcsv, calling on_field and on_row with data
 * (they may call tracefile_fail; reading stops at the first failure). A
 * line or a field over TRACEFILE_LINE_MAX bytes is a failure, found after
 * reading that many bytes of it. Returns true when the whole file was read
 * without a failure.
 */
bool tracefile_parse(struct tracefile *tf, FILE *f, const struct tracefile_syntax *syntax,
		     void (*on_field)(void *field, size_t len, void *data), void (*on_row)(int c, void *data),
		     void *data);

/* Open the file at path for a reader; NULL with a message ("trace 'x':
 * cannot open: ...", "is a directory") when it cannot be read. */
FILE *tracefile_open(const char *path, char *msg, size_t msg_size);

#endif
