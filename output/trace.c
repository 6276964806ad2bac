#include "trace.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>

int trace_write(FILE *f, const char *title, const struct timeline *log, int stages, const long *stage_gpu)
{
	json_t *events = json_array();
	json_t *root = json_object();
	int rc;

	json_array_append_new(events, json_pack("{s:s, s:s, s:i, s:{s:s}}", "name", "process_name", "ph", "M",
						"pid", 0, "args", "name", title));
	for (int i = 0; i < stages; i++) {
		for (int stream = 0; stream < 2; stream++) {
			char name[96];
			snprintf(name, sizeof name, "GPU %ld (stage %d) %s", stage_gpu[i], i,
				 stream == 0 ? "compute" : "communication");
			json_array_append_new(events, json_pack("{s:s, s:s, s:i, s:i, s:{s:s}}", "name", "thread_name",
								"ph", "M", "pid", 0, "tid", 2 * i + stream, "args", "name", name));
			json_array_append_new(events, json_pack("{s:s, s:s, s:i, s:i, s:{s:i}}", "name", "thread_sort_index",
								"ph", "M", "pid", 0, "tid", 2 * i + stream, "args", "sort_index", 2 * i + stream));
		}
	}
	for (size_t k = 0; k < log->n; k++) {
		const struct timeline_span *s = &log->spans[k];
		/* whole nanoseconds, as microseconds with three decimals */
		double ts = round(s->start_s * 1e9) / 1e3, dur = round((s->end_s - s->start_s) * 1e9) / 1e3;
		json_array_append_new(events, json_pack("{s:s, s:s, s:s, s:f, s:f, s:i, s:i}", "name", s->name,
							"cat", s->stream == 0 ? "compute" : "communication", "ph", "X",
							"ts", ts, "dur", dur, "pid", 0, "tid", 2 * s->stage + s->stream));
	}
	json_object_set_new(root, "traceEvents", events);
	json_object_set_new(root, "displayTimeUnit", json_string("ms"));
	rc = json_dumpf(root, f, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(root);
	if (rc != 0 || fputc('\n', f) == EOF)
		return -1;
	return ferror(f) ? -1 : 0;
}
