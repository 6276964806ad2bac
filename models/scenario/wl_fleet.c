#include "wl_fleet.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/fleet_trace.h"
#include "models/scenario/limits.h"
#include "models/scenario/keys.h"
#include "models/scenario/reader.h"
#include "models/scenario/wl_serve.h"
#include "models/scenario/wl_train.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The longest window and job: a run to its cap (the window's end and 10
 * windows more: fleet_sim_cap_s) would pass the engine's clock's end (2^63
 * ns, 292 years) from a window of 2.3e5 h; it stops there instead, which
 * leaves a 1e6 h window 180 years to drain. */
#define FLEET_HOURS_MAX KEY_FLEET_HOURS_MAX
#define FLEET_SECONDS_MAX FLEET_TRACE_SECONDS_MAX
#define FLEET_GPUS_MAX KEY_FLEET_GPUS_MAX

static inline unsigned dist_bit(enum fleet_duration_dist d)
{
	return 1u << d;
}

/*
 * The keys of a duration object and the distributions that take each (and
 * those that need it): a key given to a distribution that does not take it
 * is an error, never silently ignored.
 */
static const struct duration_key {
	const char *key;
	unsigned takes, needs;
} duration_keys[] = {
	{ "mean", 1u << FLEET_DUR_FIXED | 1u << FLEET_DUR_EXPONENTIAL | 1u << FLEET_DUR_LOGNORMAL,
	  1u << FLEET_DUR_FIXED | 1u << FLEET_DUR_EXPONENTIAL | 1u << FLEET_DUR_LOGNORMAL },
	{ "sd", 1u << FLEET_DUR_LOGNORMAL, 1u << FLEET_DUR_LOGNORMAL },
	{ "min", 1u << FLEET_DUR_EXPONENTIAL | 1u << FLEET_DUR_LOGNORMAL | 1u << FLEET_DUR_UNIFORM,
	  1u << FLEET_DUR_UNIFORM },
	{ "max", 1u << FLEET_DUR_EXPONENTIAL | 1u << FLEET_DUR_LOGNORMAL | 1u << FLEET_DUR_UNIFORM,
	  1u << FLEET_DUR_UNIFORM },
};

/* duration_s: seconds, or {dist, mean, sd, min, max} (clamped to [min, max]). */
static int read_duration(struct jread *r, const json_t *v, struct fleet_duration *d)
{
	int dist = FLEET_DUR_FIXED;
	double *field[] = { &d->mean_s, &d->sd_s, &d->min_s, &d->max_s };

	memset(d, 0, sizeof *d);
	if (json_is_number(v)) {
		if (jread_value_real(r, v, 1, FLEET_SECONDS_MAX, &d->mean_s) < 0)
			return -1;
		d->min_s = d->max_s = d->mean_s;
		return 0;
	}
	if (!json_is_object(v))
		return jread_fail_value(r, v, "a number of seconds or a {dist, mean, ...} object");
	if (key_object(r, v, KS_JOB_DURATION) < 0 ||
	    key_enum(r, v, KS_JOB_DURATION, "dist", &dist) < 0)
		return -1;
	d->dist = (enum fleet_duration_dist)dist;
	for (size_t i = 0; i < sizeof duration_keys / sizeof duration_keys[0]; i++) {
		const struct duration_key *k = &duration_keys[i];
		bool given = json_object_get(v, k->key) != NULL;
		char msg[160];
		if (given && !(k->takes & dist_bit(d->dist))) {
			snprintf(msg, sizeof msg, "not used by dist \"%s\"", fleet_duration_dist_names[d->dist]);
			return reader_fail_at(r, k->key, msg);
		}
		if (!given && (k->needs & dist_bit(d->dist))) {
			snprintf(msg, sizeof msg, "missing required key (dist \"%s\" needs it)",
				 fleet_duration_dist_names[d->dist]);
			return reader_fail_at(r, k->key, msg);
		}
		if (key_real(r, v, KS_JOB_DURATION, k->key, field[i]) < 0)
			return -1;
	}
	if (d->max_s > 0 && d->min_s > d->max_s) {
		char msg[160];
		snprintf(msg, sizeof msg, "%g is above max %g", d->min_s, d->max_s);
		return reader_fail_at(r, "min", msg);
	}
	if (d->dist == FLEET_DUR_UNIFORM)
		d->mean_s = (d->min_s + d->max_s) / 2;
	return 0;
}

/* The `arrival` object: poisson {rate_per_h} or trace {trace, format}. */
static int read_arrival(struct jread *r, const json_t *v, const char *file, struct fleet_class *k)
{
	int process = FLEET_ARRIVAL_POISSON, format = FLEET_TRACE_CSV;
	char trace[512] = "";

	if (key_object(r, v, KS_JOB_ARRIVAL) < 0 ||
	    key_enum(r, v, KS_JOB_ARRIVAL, "process", &process) < 0)
		return -1;
	k->arrival = (enum fleet_arrival)process;
	if (k->arrival == FLEET_ARRIVAL_POISSON) {
		if (json_object_get(v, "trace") != NULL)
			return reader_fail_at(r, "trace", "not used by process \"poisson\"");
		if (json_object_get(v, "format") != NULL)
			return reader_fail_at(r, "format", "not used by process \"poisson\"");
		if (key_need(r, v, "rate_per_h") < 0)
			return -1;
		return key_real(r, v, KS_JOB_ARRIVAL, "rate_per_h", &k->rate_per_h);
	}
	if (json_object_get(v, "rate_per_h") != NULL)
		return reader_fail_at(r, "rate_per_h", "not used by process \"trace\" (the trace's rows are the jobs)");
	if (jread_string(r, v, "trace", true, trace, sizeof trace) < 0 ||
	    key_enum(r, v, KS_JOB_ARRIVAL, "format", &format) < 0)
		return -1;
	if (trace[0] == '\0')
		return reader_fail_at(r, "trace", "expected a file name, got \"\"");
	reader_resolve_relative(file, trace, k->trace, sizeof k->trace);
	k->trace_format = (enum fleet_trace_format)format;
	char msg[ERROR_MSG_MAX / 2];
	struct fleet_trace *t = fleet_trace_load(k->trace, k->trace_format, msg, sizeof msg);
	if (t == NULL) {
		size_t mark = jread_enter_key(r, "trace");
		jread_fail(r, "%s", msg);
		jread_leave(r, mark);
		return -1;
	}
	k->trace_jobs = t;
	return 0;
}

/* Add `name` to the team table (failing at `key` when it is full). */
static int add_team(struct jread *r, struct fleet_spec *f, const char *name, const char *key)
{
	if (fleet_team_index(f, name) >= 0)
		return 0;
	if (f->n_teams == FLEET_TEAMS_MAX) {
		char msg[160], q[96];
		text_quote(name, q, sizeof q);
		snprintf(msg, sizeof msg, "team %s is one more than the %d teams a fleet may have", q, FLEET_TEAMS_MAX);
		return reader_fail_at(r, key, msg);
	}
	text_copy(f->team_names[f->n_teams++], FLEET_NAME_MAX, name);
	return 0;
}

/*
 * The teams of a trace class's jobs. sacct: a job whose Partition
 * partition_teams names is that team; else, when the class states `team`,
 * the class's team (a stated team is never overridden by a Partition or a
 * QOS, which are Slurm's queues and not teams by name); else the
 * Partition, else the QOS, else the class's team. Each partition the map
 * names must be some replayed job's. CSV: its team column names a job's
 * team outright and wins; the class's team is its rows' without one. At
 * r's jobs[i] path.
 */
static int resolve_trace_teams(struct jread *r, const json_t *v, struct fleet_class *k, bool team_stated)
{
	struct fleet_trace *t = (struct fleet_trace *)k->trace_jobs;
	const json_t *map = json_object_get(v, "partition_teams");

	if (map != NULL) {
		size_t mark = jread_enter_key(r, "partition_teams");
		const char *part;
		json_t *x;
		if (!json_is_object(map) || json_object_size(map) == 0)
			return jread_fail_value(r, map, "an object of {partition: team}");
		json_object_foreach((json_t *)map, part, x) {
			char team[FLEET_NAME_MAX], msg[640], q[96];
			bool seen = false;
			if (jread_string(r, map, part, true, team, sizeof team) < 0)
				return -1;
			if (team[0] == '\0')
				return reader_fail_at(r, part, "expected a team name, got \"\"");
			for (size_t n = 0; n < t->n && !seen; n++)
				seen = t->jobs[n].team_source == FLEET_TEAM_PARTITION && strcmp(t->jobs[n].team, part) == 0;
			if (!seen) {
				/* name (the first few of) the partitions there are, so a typo shows */
				enum { PARTS_LISTED = 6 };
				const char *seen_parts[PARTS_LISTED];
				int n_parts = 0;
				bool more = false;
				for (size_t n = 0; n < t->n && !more; n++) {
					const struct fleet_trace_job *j = &t->jobs[n];
					bool listed = j->team_source != FLEET_TEAM_PARTITION;
					for (int e = 0; e < n_parts && !listed; e++)
						listed = strcmp(seen_parts[e], j->team) == 0;
					if (!listed && n_parts == PARTS_LISTED)
						more = true;
					else if (!listed)
						seen_parts[n_parts++] = j->team;
				}
				char parts[PARTS_LISTED * (FLEET_NAME_MAX + 2) + 8] = "none";
				size_t used = 0;
				for (int e = 0; e < n_parts; e++)
					used += (size_t)snprintf(parts + used, sizeof parts - used, "%s%s", e > 0 ? ", " : "",
								 seen_parts[e]);
				if (more)
					snprintf(parts + used, sizeof parts - used, ", ...");
				text_quote(part, q, sizeof q);
				snprintf(msg, sizeof msg, "no job the trace replays is in partition %s (its partitions: %s)", q,
					 parts);
				return reader_fail_at(r, part, msg);
			}
		}
		jread_leave(r, mark);
	}
	for (size_t n = 0; n < t->n; n++) {
		struct fleet_trace_job *j = &t->jobs[n];
		const json_t *to = map != NULL && j->team_source == FLEET_TEAM_PARTITION ? json_object_get(map, j->team)
											 : NULL;
		if (to != NULL)
			text_copy(j->team, sizeof j->team, json_string_value(to));
		else if (team_stated && (j->team_source == FLEET_TEAM_PARTITION || j->team_source == FLEET_TEAM_QOS))
			j->team[0] = '\0';  /* the class's team */
	}
	return 0;
}

/* A class's nested `workload`: training, finetune, inference or collective,
 * read by `nested` (the reader of every kind, wl_read) into a heap workload
 * the class owns. */
static int read_class_workload(struct jread *r, const json_t *v, const char *file, const catalog *cat,
			       wl_read_fn *nested, struct fleet_class *k)
{
	const json_t *x = json_object_get(v, "workload");
	size_t mark = jread_enter_key(r, "workload");
	struct workload_spec *w = xcalloc(1, sizeof *w);

	k->workload = w;  /* owned from here on, failure or not (wl_fleet_release) */
	if (!json_is_object(x))
		return jread_fail_value(r, x, "a training, finetune, inference or collective workload object");
	const json_t *kind = json_object_get(x, "kind");
	if (json_is_string(kind) && (strcmp(json_string_value(kind), "fleet") == 0 ||
				     strcmp(json_string_value(kind), "gemm") == 0)) {
		char msg[128];
		snprintf(msg, sizeof msg, "\"%s\": a job class's workload is training, finetune, inference or collective",
			 json_string_value(kind));
		return reader_fail_at(r, "kind", msg);
	}
	if (json_object_get(x, "failures") != NULL)
		return reader_fail_at(r, "failures", "not used in a job class (the fleet's nodes fail: "
				      "workload.failures of the fleet)");
	if (nested(r, x, file, cat, w) < 0)
		return -1;
	jread_leave(r, mark);
	return 0;
}

/* One job class: jobs[i]. */
static int read_class(struct jread *r, const json_t *v, size_t i, const char *file, const catalog *cat,
		      wl_read_fn *nested, struct fleet_spec *f)
{
	struct fleet_class *k = &f->classes[i];
	const json_t *x;
	size_t mark;

	snprintf(k->name, sizeof k->name, "jobs[%zu]", i);
	k->estimate_factor = 1;
	if (key_object(r, v, KS_JOBS) < 0 ||
	    jread_string(r, v, "name", false, k->name, sizeof k->name) < 0)
		return -1;
	text_copy(k->team, sizeof k->team, k->name);
	if (jread_string(r, v, "team", false, k->team, sizeof k->team) < 0 ||
	    key_int32(r, v, KS_JOBS, "priority", &k->priority) < 0 ||
	    key_real(r, v, KS_JOBS, "estimate_factor", &k->estimate_factor) < 0)
		return -1;
	if (k->team[0] == '\0')
		return reader_fail_at(r, "team", "expected a team name, got \"\"");
	for (size_t e = 0; e < i; e++) {
		if (strcmp(f->classes[e].name, k->name) == 0) {
			char msg[160], q[96];
			text_quote(k->name, q, sizeof q);
			snprintf(msg, sizeof msg, "%s is also the name of jobs[%zu]", q, e);
			return reader_fail_at(r, "name", msg);
		}
	}
	bool team_stated = json_object_get(v, "team") != NULL;
	/* an inference class is a service: held for the whole window, no arrivals */
	const json_t *wk = json_object_get(json_object_get(v, "workload"), "kind");
	bool service = json_is_string(wk) && strcmp(json_string_value(wk), "inference") == 0;
	if (service && json_object_get(v, "arrival") != NULL)
		return reader_fail_at(r, "arrival", "not used by an inference class (a service is held for the "
				      "whole window; its requests are workload.serving.arrival)");
	if (service && json_object_get(v, "partition_teams") != NULL)
		return reader_fail_at(r, "partition_teams", "used only by an sacct trace (arrival process \"trace\", "
				      "format \"sacct\")");
	if (service && json_object_get(v, "estimate_factor") != NULL)
		return reader_fail_at(r, "estimate_factor", "not used by an inference class (a service is never queued)");
	if (service) {
		if (add_team(r, f, k->team, "team") < 0)
			return -1;
		if (json_object_get(v, "duration_s") != NULL)
			return reader_fail_at(r, "duration_s", "not used by an inference class (a service is held for "
					      "the whole window)");
		if (json_object_get(v, "gpus") != NULL)
			return reader_fail_at(r, "gpus", "not used by an inference class (its replicas, sized by "
					      "workload.serving, set its GPUs)");
		return read_class_workload(r, v, file, cat, nested, k);
	}
	if ((x = reader_enter_required(r, v, "arrival", &mark)) == NULL || read_arrival(r, x, file, k) < 0)
		return -1;
	jread_leave(r, mark);

	bool trace = k->arrival == FLEET_ARRIVAL_TRACE;
	if (json_object_get(v, "partition_teams") != NULL && !(trace && k->trace_format == FLEET_TRACE_SACCT))
		return reader_fail_at(r, "partition_teams", "used only by an sacct trace (arrival process \"trace\", "
				      "format \"sacct\")");
	if (trace && resolve_trace_teams(r, v, k, team_stated) < 0)
		return -1;
	/* a trace's jobs that name no team are the class's */
	bool class_team = !trace;
	for (size_t n = 0; trace && n < k->trace_jobs->n && !class_team; n++)
		class_team = k->trace_jobs->jobs[n].team[0] == '\0';
	if (class_team && add_team(r, f, k->team, "team") < 0)
		return -1;
	bool has_w = json_object_get(v, "workload") != NULL, has_d = json_object_get(v, "duration_s") != NULL;
	if (trace) {
		if (has_w || has_d)
			return reader_fail_at(r, has_w ? "workload" : "duration_s",
					      "not used by arrival process \"trace\" (each row gives its duration)");
		if (json_object_get(v, "gpus") != NULL)
			return reader_fail_at(r, "gpus", "not used by arrival process \"trace\" (each row gives its GPUs)");
		for (size_t n = 0; n < k->trace_jobs->n; n++) {
			if (k->trace_jobs->jobs[n].team[0] == '\0')
				continue;
			mark = jread_enter_key(r, "arrival");
			if (add_team(r, f, k->trace_jobs->jobs[n].team, "trace") < 0)
				return -1;
			jread_leave(r, mark);
		}
		return 0;
	}
	if (has_w == has_d)
		return reader_fail_at(r, "duration_s", has_w ? "give duration_s or workload, not both"
							     : "missing: give duration_s or workload");
	if (has_d) {
		mark = jread_enter_key(r, "duration_s");
		if (read_duration(r, json_object_get(v, "duration_s"), &k->duration) < 0)
			return -1;
		jread_leave(r, mark);
	} else if (read_class_workload(r, v, file, cat, nested, k) < 0) {
		return -1;
	}
	if (key_need(r, v, "gpus") < 0)
		return -1;
	return key_int32(r, v, KS_JOBS, "gpus", &k->gpus);
}

/* The `scheduler` object: policy, preemption and quotas {team: fraction}. */
static int read_scheduler(struct jread *r, const json_t *v, struct fleet_spec *f)
{
	int policy = FLEET_FIFO;
	const json_t *q;

	if (key_object(r, v, KS_FLEET_SCHEDULER) < 0 ||
	    key_enum(r, v, KS_FLEET_SCHEDULER, "policy", &policy) < 0 ||
	    jread_bool(r, v, "preemption", false, &f->preemption) < 0)
		return -1;
	f->policy = (enum fleet_policy)policy;
	if ((q = json_object_get(v, "quotas")) == NULL)
		return 0;
	if (f->policy != FLEET_PRIORITY)
		return reader_fail_at(r, "quotas", "used only by policy \"priority\"");
	size_t mark = jread_enter_key(r, "quotas");
	if (!json_is_object(q))
		return jread_fail_value(r, q, "an object of {team: fraction of the GPUs}");
	const char *team;
	json_t *x;
	json_object_foreach((json_t *)q, team, x) {
		int t = fleet_team_index(f, team);
		if (t < 0) {
			char msg[200], name[96];
			text_quote(team, name, sizeof name);
			snprintf(msg, sizeof msg, "no job class has team %s", name);
			return reader_fail_at(r, team, msg);
		}
		if (jread_real(r, q, team, true, 0.001, 1, &f->team_quota[t]) < 0)
			return -1;
	}
	jread_leave(r, mark);
	return 0;
}

/*
 * The jobs the fleet asks for: each Poisson class's expected count
 * (rate_per_h x duration_h) and each trace's jobs, at most FLEET_JOBS_MAX
 * together (failing at the class that asks for the most) and within the
 * memory this process may have. At r's fleet path.
 */
static int check_jobs(struct jread *r, const struct fleet_spec *f)
{
	double total = 0, most = -1;
	int big = 0;
	for (int i = 0; i < f->n_classes; i++) {
		const struct fleet_class *k = &f->classes[i];
		/* a service (an inference class) has no arrivals: rate 0 */
		double n = k->arrival == FLEET_ARRIVAL_TRACE ? (k->trace_jobs != NULL ? (double)k->trace_jobs->n : 0)
							      : k->rate_per_h * f->duration_h;
		total += n;
		if (n > most) {
			most = n;
			big = i;
		}
	}
	if (total > FLEET_JOBS_MAX) {
		const struct fleet_class *k = &f->classes[big];
		bool trace = k->arrival == FLEET_ARRIVAL_TRACE;
		size_t m1 = jread_enter_key(r, "jobs"), m2 = jread_enter_index(r, (size_t)big),
		       m3 = jread_enter_key(r, "arrival"), m4 = jread_enter_key(r, trace ? "trace" : "rate_per_h");
		if (trace)
			jread_fail(r, "%zu jobs (%.4g with the other classes), more than the %d a fleet may "
				   "simulate; replay part of the trace", k->trace_jobs->n, total, FLEET_JOBS_MAX);
		else
			jread_fail(r, "%g jobs/h over duration_h %g h is %.4g jobs (%.4g with the other classes), "
				   "more than the %d a fleet may simulate; lower rate_per_h or duration_h", k->rate_per_h,
				   f->duration_h, most, total, FLEET_JOBS_MAX);
		jread_leave(r, m4);
		jread_leave(r, m3);
		jread_leave(r, m2);
		jread_leave(r, m1);
		return -1;
	}
	return limits_check_memory(r, "jobs", "jobs", total, FLEET_BYTES_PER_JOB);
}

/* One name of applies_to[i]: a job class's (not a service's) or a team's
 * (both when it names both); the groups named are no longer exempt. */
static int applies_to_name(struct jread *r, const json_t *e, struct fleet_spec *f, bool *named_class,
			   bool *named_team)
{
	char name[FLEET_NAME_MAX], msg[400], q[96];
	bool found = false;

	if (!json_is_string(e) || json_string_length(e) == 0)
		return jread_fail_value(r, e, "a job class's or a team's name");
	if (json_string_length(e) >= sizeof name)
		return jread_fail_value(r, e, "a job class's or a team's name (a shorter string)");
	text_copy(name, sizeof name, json_string_value(e));
	text_quote(name, q, sizeof q);
	int t = fleet_team_index(f, name);
	for (int k = 0; k < f->n_classes; k++) {
		if (strcmp(f->classes[k].name, name) != 0)
			continue;
		const struct workload_spec *w = f->classes[k].workload;
		if (w != NULL && w->kind == WORKLOAD_INFERENCE) {
			if (t >= 0)
				continue;  /* the team of that name */
			return jread_fail(r, "%s is a service (an inference class is never queued: it has no wait)", q);
		}
		if (named_class[k])
			return jread_fail(r, "%s is named twice", q);
		named_class[k] = true;
		f->objective_exempt_class[k] = false;
		found = true;
	}
	if (t >= 0) {
		if (named_team[t])
			return jread_fail(r, "%s is named twice", q);
		named_team[t] = true;
		f->objective_exempt_team[t] = false;
		found = true;
	}
	if (!found) {
		snprintf(msg, sizeof msg, "%s is no job class's or team's name (give \"all\", \"fleet\" or names "
			 "from jobs[].name and the teams)", q);
		return jread_fail(r, "%s", msg);
	}
	return 0;
}

/*
 * objective.applies_to: the groups whose P90 wait must be within the
 * objective. "all" (the default): the P90 over all jobs, every team's and
 * every class's; "fleet": the P90 over all jobs only; a list of job
 * class and team names: those groups only.
 */
static int read_applies_to(struct jread *r, const json_t *obj, struct fleet_spec *f)
{
	const json_t *v = json_object_get(obj, "applies_to");
	if (v == NULL)
		return 0;
	size_t mark = jread_enter_key(r, "applies_to");
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		if (strcmp(s, "all") != 0 && strcmp(s, "fleet") != 0)
			return jread_fail_value(r, v, "\"all\", \"fleet\" or a list of job class and team names");
		if (strcmp(s, "fleet") == 0) {
			for (int t = 0; t < f->n_teams; t++)
				f->objective_exempt_team[t] = true;
			for (int k = 0; k < f->n_classes; k++)
				f->objective_exempt_class[k] = true;
		}
		jread_leave(r, mark);
		return 0;
	}
	if (!json_is_array(v) || json_array_size(v) == 0)
		return jread_fail_value(r, v, "\"all\", \"fleet\" or a list of job class and team names");
	bool named_class[FLEET_CLASSES_MAX] = { false }, named_team[FLEET_TEAMS_MAX] = { false };
	f->objective_exempt_fleet = true;
	for (int t = 0; t < f->n_teams; t++)
		f->objective_exempt_team[t] = true;
	for (int k = 0; k < f->n_classes; k++)
		f->objective_exempt_class[k] = true;
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e) {
		size_t m2 = jread_enter_index(r, i);
		if (applies_to_name(r, e, f, named_class, named_team) < 0)
			return -1;
		jread_leave(r, m2);
	}
	jread_leave(r, mark);
	return 0;
}

/* The `fleet` block. */
static int read_fleet(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		      wl_read_fn *nested, struct fleet_spec *f)
{
	const json_t *x;
	size_t mark, i;
	json_t *e;

	if (key_object(r, v, KS_FLEET) < 0 ||
	    key_real(r, v, KS_FLEET, "duration_h", &f->duration_h) < 0 ||
	    key_real(r, v, KS_FLEET, "warmup_h", &f->warmup_h) < 0)
		return -1;
	if (f->warmup_h >= f->duration_h) {
		char msg[160];
		snprintf(msg, sizeof msg, "%g h is not shorter than duration_h %g h (no job would be counted)",
			 f->warmup_h, f->duration_h);
		return reader_fail_at(r, "warmup_h", msg);
	}
	if ((x = reader_enter_required(r, v, "jobs", &mark)) == NULL)
		return -1;
	if (!json_is_array(x) || json_array_size(x) == 0 || json_array_size(x) > FLEET_CLASSES_MAX) {
		char expected[96];
		snprintf(expected, sizeof expected, "an array of 1 to %d job classes", FLEET_CLASSES_MAX);
		return jread_fail_value(r, x, expected);
	}
	json_array_foreach(x, i, e) {
		size_t m2 = jread_enter_index(r, i);
		f->n_classes = (int)i + 1;
		if (read_class(r, e, i, file, cat, nested, f) < 0)
			return -1;
		jread_leave(r, m2);
	}
	jread_leave(r, mark);
	if ((x = json_object_get(v, "scheduler")) != NULL) {
		mark = jread_enter_key(r, "scheduler");
		if (read_scheduler(r, x, f) < 0)
			return -1;
		jread_leave(r, mark);
	}
	if ((x = json_object_get(v, "objective")) != NULL) {
		mark = jread_enter_key(r, "objective");
		if (key_object(r, x, KS_FLEET_OBJECTIVE) < 0 ||
		    key_real(r, x, KS_FLEET_OBJECTIVE, "wait_p90_h", &f->objective_wait_p90_h) < 0 ||
		    read_applies_to(r, x, f) < 0)
			return -1;
		jread_leave(r, mark);
	}
	return check_jobs(r, f);
}

int wl_fleet_read(struct jread *r, const json_t *v, const char *file, const catalog *cat,
		  struct workload_spec *w, wl_read_fn *nested)
{
	static const char *const refused[] = { "seq_len", "tokens", "kernels", "precision", NULL };
	size_t mark;
	const json_t *x;

	for (size_t i = 0; refused[i] != NULL; i++)
		if (json_object_get(v, refused[i]) != NULL)
			return reader_fail_at(r, refused[i], "not used by fleet workloads (each job class's "
					      "workload has its own)");
	w->fleet = xcalloc(1, sizeof *w->fleet);
	if (wl_train_read_failures(r, v, &w->fleet->failures) < 0)
		return -1;
	if ((x = reader_enter_required(r, v, "fleet", &mark)) == NULL ||
	    read_fleet(r, x, file, cat, nested, w->fleet) < 0)
		return -1;
	jread_leave(r, mark);
	return 0;
}

static void release_class_workload(struct workload_spec *w)
{
	if (w == NULL)
		return;
	free(w->collective.bytes);
	wl_serve_release(w);
	free(w);
}

void wl_fleet_release(struct workload_spec *w)
{
	struct fleet_spec *f = w->fleet;
	if (f == NULL)
		return;
	for (int i = 0; i < f->n_classes; i++) {
		release_class_workload((struct workload_spec *)f->classes[i].workload);
		fleet_trace_free((struct fleet_trace *)f->classes[i].trace_jobs);
	}
	free(f);
	w->fleet = NULL;
}
