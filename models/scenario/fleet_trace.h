/*
 * fleet_trace: a job trace for a fleet job class, read with libcsv into
 * struct fleet_trace (fleet/fleet.h), in one of two formats:
 *
 * - sacct: Slurm's `sacct --parsable2` output (fields separated by `|`,
 *   no quoting), a header line then one row per job or job step, with at
 *   least the columns JobID, Submit, Start, End and AllocTRES (any order;
 *   other columns such as NNodes, Partition, QOS, JobName are allowed).
 *   Timestamps are sacct's ISO form 2024-03-01T12:00:00 (read as they are:
 *   one clock, no time zone). A job's GPUs are AllocTRES's gres/gpu=N (or
 *   the sum of its gres/gpu:TYPE=N when only typed counts are given); its
 *   duration End - Start, its wait in the trace Start - Submit; its team
 *   the Partition, or the QOS when there is no Partition column or it is
 *   empty (team_source says which: the scenario reader may replace it
 *   with a team the scenario states or maps the partition to). Job steps (a JobID with a dot), jobs without GPUs and jobs whose
 *   Start or End is Unknown or None are skipped and counted in the trace.
 * - csv: the header `submit_s,gpus,duration_s` and an optional `team`
 *   column (any order, no others), one job per row.
 *
 * Submissions are counted from the trace's first one and the jobs sorted
 * by submission. A job runs at most FLEET_TRACE_SECONDS_MAX and the
 * submissions span at most as much; a timestamp must exist (2024-02-30 does
 * not). Every defect is one message naming the file and the line.
 * Never prints.
 */
#ifndef CLUSTERSIM_MODELS_SCENARIO_FLEET_TRACE_H
#define CLUSTERSIM_MODELS_SCENARIO_FLEET_TRACE_H

#include <stddef.h>
#include <stdio.h>

#include "models/fleet/fleet.h"

/* The most jobs a trace may replay (the fleet's own bound, FLEET_JOBS_MAX,
 * counts them with the other classes' jobs), and the most rows it may have,
 * job steps and skipped jobs included (reading them takes time, not
 * memory). */
#define FLEET_TRACE_MAX_JOBS FLEET_JOBS_MAX
#define FLEET_TRACE_MAX_ROWS 100000000

/* The longest job (End - Start, duration_s) and the longest span of
 * submissions (the last Submit - the first; submit_s's range), in seconds:
 * 31.7 years, so that a run to the fleet's cap stays on the engine's clock
 * (2^63 ns, 292 years). */
#define FLEET_TRACE_SECONDS_MAX 1e9

/* Bounds of one read (fleet_trace_read_limited): the jobs replayed and the
 * rows read. */
struct fleet_trace_limits {
	size_t jobs, rows;
};

/*
 * Read the trace at `path` in `format`. Returns a new trace of at least one
 * job (the caller frees it with fleet_trace_free), or NULL with a one-line
 * message in msg ("trace 'jobs.txt': line 7: AllocTRES: ...").
 */
struct fleet_trace *fleet_trace_load(const char *path, enum fleet_trace_format format, char *msg,
				     size_t msg_size);

/* The same from an open stream (borrowed); `path` only names it. */
struct fleet_trace *fleet_trace_read(FILE *f, const char *path, enum fleet_trace_format format, char *msg,
				     size_t msg_size);

/* fleet_trace_read with other bounds than FLEET_TRACE_MAX_JOBS and
 * FLEET_TRACE_MAX_ROWS (the tests'). */
struct fleet_trace *fleet_trace_read_limited(FILE *f, const char *path, enum fleet_trace_format format,
					     const struct fleet_trace_limits *lim, char *msg, size_t msg_size);

/* Seconds since 1970-01-01T00:00:00 of an sacct timestamp
 * YYYY-MM-DDTHH:MM:SS that exists (a day of its month, 00:00:00 to
 * 23:59:59, years 1970 to 9999); returns 0, or -1 when s is not one. */
int fleet_trace_parse_time(const char *s, double *out_s);

/* Free a trace and its jobs; NULL is allowed. */
void fleet_trace_free(struct fleet_trace *t);

#endif
