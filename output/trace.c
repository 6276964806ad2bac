#include "trace.h"

#include <assert.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/xalloc.h"

/* A span as written: whole nanoseconds, its thread. */
struct placed {
	size_t k;              /* index in the timeline */
	int track, stream;
	long flow_out;
	long long start_ns, end_ns;
	int lane;
};

/* One thread's open slices (their ends), innermost last. */
struct lane {
	long long *ends;
	size_t n, cap;
};

static int by_thread_then_time(const void *pa, const void *pb)
{
	const struct placed *a = pa, *b = pb;
	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (a->stream != b->stream)
		return a->stream < b->stream ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	if (a->end_ns != b->end_ns)
		return a->end_ns > b->end_ns ? -1 : 1;  /* parents before their children */
	return a->k < b->k ? -1 : a->k > b->k;
}

/* Put each span of one (track, stream), sorted by start, on the first lane
 * where it nests in or follows what is open; returns the lanes used. */
static int assign_lanes(struct placed *v, size_t n)
{
	struct lane *lanes = NULL;
	int nl = 0;
	for (size_t i = 0; i < n; i++) {
		int l;
		for (l = 0; l < nl; l++) {
			struct lane *ln = &lanes[l];
			while (ln->n > 0 && ln->ends[ln->n - 1] <= v[i].start_ns)
				ln->n--;
			if (ln->n == 0 || ln->ends[ln->n - 1] >= v[i].end_ns)
				break;
		}
		if (l == nl) {
			lanes = xreallocarray(lanes, (size_t)nl + 1, sizeof *lanes);
			lanes[nl++] = (struct lane){ 0 };
		}
		struct lane *ln = &lanes[l];
		if (ln->n == ln->cap) {
			ln->cap = ln->cap ? 2 * ln->cap : 16;
			ln->ends = xreallocarray(ln->ends, ln->cap, sizeof *ln->ends);
		}
		ln->ends[ln->n++] = v[i].end_ns;
		v[i].lane = l;
	}
	for (int l = 0; l < nl; l++)
		free(lanes[l].ends);
	free(lanes);
	return nl;
}

/* Microseconds of whole nanoseconds. */
static json_t *us(long long ns)
{
	return json_real((double)ns / 1e3);
}

static json_t *number(double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

struct trace_ctx {
	const struct trace_track *tracks;
	int nstreams, lanes;   /* lanes: the most any stream needed */
};

static json_int_t tid_of(const struct trace_ctx *c, int track, int stream, int lane)
{
	return ((json_int_t)c->tracks[track].gpu * c->nstreams + stream) * c->lanes + lane;
}

static void add_metadata(json_t *events, const struct trace_ctx *c, const char *title, int ntracks,
			 const char *const *stream_names, const int *lanes_used)
{
	for (int i = 0; i < ntracks; i++) {
		long node = c->tracks[i].node;
		bool seen = false;
		for (int j = 0; j < i; j++)
			seen |= c->tracks[j].node == node;
		if (seen)
			continue;
		char name[48];
		snprintf(name, sizeof name, "node %ld", node);
		json_array_append_new(events, json_pack("{s:s, s:s, s:I, s:{s:s}}", "name", "process_name", "ph", "M",
							"pid", (json_int_t)node, "args", "name", name));
		json_array_append_new(events, json_pack("{s:s, s:s, s:I, s:{s:s}}", "name", "process_labels", "ph", "M",
							"pid", (json_int_t)node, "args", "labels", title));
		json_array_append_new(events, json_pack("{s:s, s:s, s:I, s:{s:I}}", "name", "process_sort_index", "ph", "M",
							"pid", (json_int_t)node, "args", "sort_index", (json_int_t)node));
	}
	for (int i = 0; i < ntracks; i++)
		for (int s = 0; s < c->nstreams; s++) {
			int nl = lanes_used[i * c->nstreams + s];
			for (int l = 0; l < (nl > 0 ? nl : 1); l++) {
				char name[96];
				json_int_t tid = tid_of(c, i, s, l);
				if (l == 0)
					snprintf(name, sizeof name, "GPU %ld %s", c->tracks[i].gpu, stream_names[s]);
				else
					snprintf(name, sizeof name, "GPU %ld %s (%d)", c->tracks[i].gpu, stream_names[s], l + 1);
				json_array_append_new(events, json_pack("{s:s, s:s, s:I, s:I, s:{s:s}}", "name", "thread_name",
									"ph", "M", "pid", (json_int_t)c->tracks[i].node, "tid", tid,
									"args", "name", name));
				json_array_append_new(events, json_pack("{s:s, s:s, s:I, s:I, s:{s:I}}", "name", "thread_sort_index",
									"ph", "M", "pid", (json_int_t)c->tracks[i].node, "tid", tid,
									"args", "sort_index", tid));
			}
		}
}

static json_t *slice(const struct trace_ctx *c, const struct timeline_span *s, const struct placed *p)
{
	json_t *e = json_pack("{s:s, s:s, s:s, s:o, s:o, s:I, s:I}", "name", s->name, "cat", s->cat ? s->cat : "other",
			      "ph", "X", "ts", us(p->start_ns), "dur", us(p->end_ns - p->start_ns),
			      "pid", (json_int_t)c->tracks[s->track].node, "tid", tid_of(c, s->track, s->stream, p->lane));
	if (s->nargs > 0) {
		json_t *args = json_object();
		for (int a = 0; a < s->nargs; a++)
			json_object_set_new(args, s->args[a].key, number(s->args[a].value));
		json_object_set_new(e, "args", args);
	}
	return e;
}

static int by_flow_out(const void *pa, const void *pb)
{
	const struct placed *a = pa, *b = pb;
	if (a->flow_out != b->flow_out)
		return a->flow_out < b->flow_out ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

/* One "s" at each producer's start and one "f" (bound to the enclosing
 * slice) at its consumer's start, for ids with exactly one of each. */
static void add_flows(json_t *events, const struct trace_ctx *c, const struct timeline *log, const struct placed *v,
		      size_t n)
{
	struct placed *out = xcalloc(n ? n : 1, sizeof *out);
	size_t no = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].flow_out > 0)
			out[no++] = v[i];
	qsort(out, no, sizeof *out, by_flow_out);
	for (size_t i = 0; i < n; i++) {
		const struct timeline_span *in = &log->spans[v[i].k];
		if (in->flow_in <= 0)
			continue;
		size_t lo = 0, hi = no;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (out[mid].flow_out < in->flow_in)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo >= no || out[lo].flow_out != in->flow_in || (lo + 1 < no && out[lo + 1].flow_out == in->flow_in))
			continue;
		const struct timeline_span *src = &log->spans[out[lo].k];
		json_int_t id = (json_int_t)in->flow_in;
		json_array_append_new(events, json_pack("{s:s, s:s, s:s, s:I, s:o, s:I, s:I}", "name", "transfer", "cat", "flow",
							"ph", "s", "id", id, "ts", us(out[lo].start_ns),
							"pid", (json_int_t)c->tracks[src->track].node,
							"tid", tid_of(c, src->track, src->stream, out[lo].lane)));
		json_array_append_new(events, json_pack("{s:s, s:s, s:s, s:s, s:I, s:o, s:I, s:I}", "name", "transfer", "cat",
							"flow", "ph", "f", "bp", "e", "id", id, "ts", us(v[i].start_ns),
							"pid", (json_int_t)c->tracks[in->track].node,
							"tid", tid_of(c, in->track, in->stream, v[i].lane)));
	}
	free(out);
}

int trace_write(FILE *f, const char *title, const struct timeline *log, const struct trace_track *tracks, int ntracks,
		const char *const *stream_names, int nstreams)
{
	json_t *events = json_array();
	json_t *root = json_object();
	size_t n = log->n;
	struct placed *v = xcalloc(n ? n : 1, sizeof *v);
	int *lanes_used = xcalloc((size_t)ntracks * nstreams, sizeof *lanes_used);
	struct trace_ctx c = { .tracks = tracks, .nstreams = nstreams, .lanes = 1 };
	int rc;

	for (size_t k = 0; k < n; k++) {
		const struct timeline_span *s = &log->spans[k];
		assert(s->track >= 0 && s->track < ntracks && s->stream >= 0 && s->stream < nstreams);
		v[k].k = k;
		v[k].track = s->track;
		v[k].stream = s->stream;
		v[k].flow_out = s->flow_out;
		v[k].start_ns = llround(s->start_s * 1e9);
		v[k].end_ns = llround(s->end_s * 1e9);
		if (v[k].end_ns < v[k].start_ns)
			v[k].end_ns = v[k].start_ns;
	}
	qsort(v, n, sizeof *v, by_thread_then_time);
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && v[b].track == v[a].track && v[b].stream == v[a].stream; b++)
			;
		int nl = assign_lanes(v + a, b - a);
		lanes_used[v[a].track * nstreams + v[a].stream] = nl;
		if (nl > c.lanes)
			c.lanes = nl;
	}
	add_metadata(events, &c, title, ntracks, stream_names, lanes_used);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(events, slice(&c, &log->spans[v[i].k], &v[i]));
	add_flows(events, &c, log, v, n);
	json_object_set_new(root, "traceEvents", events);
	json_object_set_new(root, "displayTimeUnit", json_string("ms"));
	json_object_set_new(root, "otherData", json_pack("{s:s}", "title", title));
	rc = json_dumpf(root, f, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(root);
	free(v);
	free(lanes_used);
	if (rc != 0 || fputc('\n', f) == EOF)
		return -1;
	return ferror(f) ? -1 : 0;
}
