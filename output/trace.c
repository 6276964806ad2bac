#include "trace.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/time.h"
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
		ln->ends = xgrow(ln->ends, &ln->cap, ln->n + 1, sizeof *ln->ends, 16);
		ln->ends[ln->n++] = v[i].end_ns;
		v[i].lane = l;
	}
	for (int l = 0; l < nl; l++)
		free(lanes[l].ends);
	free(lanes);
	return nl;
}

/*
 * The JSON is written as it goes, event by event, never built as a tree:
 * its bytes are what jansson's json_dumpf gave with JSON_COMPACT and
 * JSON_REAL_PRECISION(15) (strings escaped as jansson does, reals as
 * "%.15g" with ".0" added to a whole number and the exponent's '+' and
 * leading zeros dropped), so the trace is the same file it was, in memory
 * of the order of the spans instead of about 12 times its size.
 */

/* A string in quotes, escaped as jansson dumps it ('"', '\\', control
 * characters; UTF-8 as it is; a byte that is not UTF-8 as U+FFFD). */
static void put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', f);
	while (*p) {
		unsigned char c = *p;
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
			p++;
		} else if (c < 0x20) {
			switch (c) {
			case '\b': fputs("\\b", f); break;
			case '\f': fputs("\\f", f); break;
			case '\n': fputs("\\n", f); break;
			case '\r': fputs("\\r", f); break;
			case '\t': fputs("\\t", f); break;
			default: fprintf(f, "\\u%04X", c); break;
			}
			p++;
		} else if (c < 0x80) {
			fputc(c, f);
			p++;
		} else {
			/* a whole UTF-8 sequence as it is, else U+FFFD for the byte */
			int len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
			int k = 1;
			while (len > 0 && k < len && (p[k] & 0xC0) == 0x80)
				k++;
			if (len > 0 && k == len) {
				fwrite(p, 1, (size_t)len, f);
				p += len;
			} else {
				fputs("\xEF\xBF\xBD", f);
				p++;
			}
		}
	}
	fputc('"', f);
}

/* A real as jansson's jsonp_dtostr writes it with precision 15. */
static void put_real(FILE *f, double v)
{
	char buf[64];
	int n = snprintf(buf, sizeof buf - 3, "%.15g", v);
	if (n < 0 || (size_t)n >= sizeof buf - 3) {
		fputs("0.0", f);
		return;
	}
	if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL)
		strcat(buf, ".0");
	char *e = strchr(buf, 'e');
	if (e != NULL) {
		char *start = e + 1, *end = start + 1;
		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start)
			memmove(start, end, strlen(end) + 1);
	}
	fputs(buf, f);
}

/* Microseconds of whole nanoseconds. */
static void put_us(FILE *f, long long ns)
{
	put_real(f, (double)ns / 1e3);
}

/* An arg's value: a whole number as an integer, else a real (json_real
 * refuses what is not finite: false, and the arg is left out). */
static bool put_number(FILE *f, double v)
{
	if (!isfinite(v))
		return false;
	if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%lld", (long long)v);
	else
		put_real(f, v);
	return true;
}

struct trace_ctx {
	FILE *f;
	const struct trace_track *tracks;
	int nstreams, lanes;   /* lanes: the most any stream needed */
	size_t events;         /* written so far */
};

static long long tid_of(const struct trace_ctx *c, int track, int stream, int lane)
{
	return ((long long)c->tracks[track].gpu * c->nstreams + stream) * c->lanes + lane;
}

/* The separator before an event of traceEvents. */
static void next_event(struct trace_ctx *c)
{
	if (c->events++ > 0)
		fputc(',', c->f);
}

/* A metadata event {"name":NAME,"ph":"M","pid":PID[,"tid":TID],"args":{KEY:...}}:
 * the value a string (s) or an integer (v). */
static void put_meta(struct trace_ctx *c, const char *name, long long pid, bool has_tid, long long tid,
		     const char *key, const char *s, long long v)
{
	FILE *f = c->f;
	next_event(c);
	fputs("{\"name\":", f);
	put_string(f, name);
	fprintf(f, ",\"ph\":\"M\",\"pid\":%lld", pid);
	if (has_tid)
		fprintf(f, ",\"tid\":%lld", tid);
	fputs(",\"args\":{", f);
	put_string(f, key);
	fputc(':', f);
	if (s != NULL)
		put_string(f, s);
	else
		fprintf(f, "%lld", v);
	fputs("}}", f);
}

static void add_metadata(struct trace_ctx *c, const char *title, int ntracks, const char *const *stream_names,
			 const int *lanes_used)
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
		put_meta(c, "process_name", node, false, 0, "name", name, 0);
		put_meta(c, "process_labels", node, false, 0, "labels", title, 0);
		put_meta(c, "process_sort_index", node, false, 0, "sort_index", NULL, node);
	}
	for (int i = 0; i < ntracks; i++)
		for (int s = 0; s < c->nstreams; s++) {
			int nl = lanes_used[i * c->nstreams + s];
			for (int l = 0; l < (nl > 0 ? nl : 1); l++) {
				char name[96];
				long long tid = tid_of(c, i, s, l);
				if (l == 0)
					snprintf(name, sizeof name, "GPU %ld %s", c->tracks[i].gpu, stream_names[s]);
				else
					snprintf(name, sizeof name, "GPU %ld %s (%d)", c->tracks[i].gpu, stream_names[s], l + 1);
				put_meta(c, "thread_name", c->tracks[i].node, true, tid, "name", name, 0);
				put_meta(c, "thread_sort_index", c->tracks[i].node, true, tid, "sort_index", NULL, tid);
			}
		}
}

/* The metadata events add_metadata writes. */
static size_t count_metadata(const struct trace_ctx *c, int ntracks, const int *lanes_used)
{
	size_t n = 0;
	for (int i = 0; i < ntracks; i++) {
		bool seen = false;
		for (int j = 0; j < i; j++)
			seen |= c->tracks[j].node == c->tracks[i].node;
		n += seen ? 0 : 3;
		for (int s = 0; s < c->nstreams; s++) {
			int nl = lanes_used[i * c->nstreams + s];
			n += 2 * (size_t)(nl > 0 ? nl : 1);
		}
	}
	return n;
}

static void slice(struct trace_ctx *c, const struct timeline_span *s, const struct placed *p)
{
	FILE *f = c->f;
	next_event(c);
	fputs("{\"name\":", f);
	put_string(f, s->name);
	fputs(",\"cat\":", f);
	put_string(f, s->cat ? s->cat : "other");
	fputs(",\"ph\":\"X\",\"ts\":", f);
	put_us(f, p->start_ns);
	fputs(",\"dur\":", f);
	put_us(f, p->end_ns - p->start_ns);
	fprintf(f, ",\"pid\":%lld,\"tid\":%lld", (long long)c->tracks[s->track].node,
		tid_of(c, s->track, s->stream, p->lane));
	if (s->nargs > 0) {
		/* an object's keys in the order first set, each with its last value */
		bool first = true;
		fputs(",\"args\":{", f);
		for (int a = 0; a < s->nargs; a++) {
			int last = a;
			bool earlier = false;
			if (!isfinite(s->args[a].value))
				continue;  /* json_real refused it: never set */
			for (int b = 0; b < s->nargs; b++) {
				if (b == a || strcmp(s->args[b].key, s->args[a].key) != 0 || !isfinite(s->args[b].value))
					continue;
				earlier |= b < a;
				if (b > a)
					last = b;
			}
			if (earlier)
				continue;
			if (!first)
				fputc(',', f);
			first = false;
			put_string(f, s->args[a].key);
			fputc(':', f);
			put_number(f, s->args[last].value);
		}
		fputc('}', f);
	}
	fputc('}', f);
}

static int by_flow_out(const void *pa, const void *pb)
{
	const struct placed *a = pa, *b = pb;
	if (a->flow_out != b->flow_out)
		return a->flow_out < b->flow_out ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

/* For each consumer v[i], the producer of its flow id when the id has
 * exactly one producer: its index in out[] (sorted by flow_out), or -1. */
static long flow_source(const struct timeline *log, const struct placed *out, size_t no, const struct placed *v)
{
	const struct timeline_span *in = &log->spans[v->k];
	if (in->flow_in <= 0)
		return -1;
	size_t lo = 0, hi = no;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (out[mid].flow_out < in->flow_in)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= no || out[lo].flow_out != in->flow_in || (lo + 1 < no && out[lo + 1].flow_out == in->flow_in))
		return -1;
	return (long)lo;
}

/* One "s" at each producer's start and one "f" (bound to the enclosing
 * slice) at its consumer's start, for ids with exactly one of each. */
static void add_flows(struct trace_ctx *c, const struct timeline *log, const struct placed *v, size_t n,
		      const struct placed *out, size_t no)
{
	FILE *f = c->f;
	for (size_t i = 0; i < n; i++) {
		long lo = flow_source(log, out, no, &v[i]);
		if (lo < 0)
			continue;
		const struct timeline_span *in = &log->spans[v[i].k];
		const struct timeline_span *src = &log->spans[out[lo].k];
		long long id = in->flow_in;
		next_event(c);
		fprintf(f, "{\"name\":\"transfer\",\"cat\":\"flow\",\"ph\":\"s\",\"id\":%lld,\"ts\":", id);
		put_us(f, out[lo].start_ns);
		fprintf(f, ",\"pid\":%lld,\"tid\":%lld}", (long long)c->tracks[src->track].node,
			tid_of(c, src->track, src->stream, out[lo].lane));
		next_event(c);
		fprintf(f, "{\"name\":\"transfer\",\"cat\":\"flow\",\"ph\":\"f\",\"bp\":\"e\",\"id\":%lld,\"ts\":", id);
		put_us(f, v[i].start_ns);
		fprintf(f, ",\"pid\":%lld,\"tid\":%lld}", (long long)c->tracks[in->track].node,
			tid_of(c, in->track, in->stream, v[i].lane));
	}
}

int trace_write(FILE *f, const char *title, const struct timeline *log, const struct trace_track *tracks, int ntracks,
		const char *const *stream_names, int nstreams, size_t max_events, size_t *n_events)
{
	size_t n = log->n;
	struct placed *v = xcalloc(n ? n : 1, sizeof *v);
	struct placed *out = xcalloc(n ? n : 1, sizeof *out);
	int *lanes_used = xcalloc((size_t)ntracks * nstreams, sizeof *lanes_used);
	struct trace_ctx c = { .f = f, .tracks = tracks, .nstreams = nstreams, .lanes = 1 };
	size_t no = 0, events;
	int rc = 0;

	for (size_t k = 0; k < n; k++) {
		const struct timeline_span *s = &log->spans[k];
		assert(s->track >= 0 && s->track < ntracks && s->stream >= 0 && s->stream < nstreams);
		v[k].k = k;
		v[k].track = s->track;
		v[k].stream = s->stream;
		v[k].flow_out = s->flow_out;
		v[k].start_ns = sim_time_round_s(s->start_s);  /* saturating: never past the clock's end */
		v[k].end_ns = sim_time_round_s(s->end_s);
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
	for (size_t i = 0; i < n; i++)
		if (v[i].flow_out > 0)
			out[no++] = v[i];
	qsort(out, no, sizeof *out, by_flow_out);

	/* the events, counted before anything is written */
	events = count_metadata(&c, ntracks, lanes_used) + n;
	for (size_t i = 0; i < n; i++)
		events += flow_source(log, out, no, &v[i]) >= 0 ? 2 : 0;
	if (n_events != NULL)
		*n_events = events;
	if (max_events > 0 && events > max_events) {
		rc = -2;
		goto out_free;
	}

	fputs("{\"traceEvents\":[", f);
	add_metadata(&c, title, ntracks, stream_names, lanes_used);
	for (size_t i = 0; i < n; i++)
		slice(&c, &log->spans[v[i].k], &v[i]);
	add_flows(&c, log, v, n, out, no);
	assert(c.events == events);
	fputs("],\"displayTimeUnit\":\"ms\",\"otherData\":{\"title\":", f);
	put_string(f, title);
	fputs("}}\n", f);
	rc = ferror(f) ? -1 : 0;
out_free:
	free(v);
	free(out);
	free(lanes_used);
	return rc;
}
