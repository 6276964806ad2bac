/* The fleet workload's reader (wl_fleet) and the job trace reader
 * (fleet_trace): every key of `fleet` arrives in struct fleet_spec, sacct
 * and CSV traces give the jobs and waits their rows say, and every bad
 * value is refused with its path and value (a trace's with its line). */
#include "testutil.h"

#include <string.h>

#include "models/fleet/fleet.h"
#include "models/scenario/fleet_trace.h"
#include "models/scenario/limits.h"
#include "models/scenario/wl.h"

#include "catalog_fixture.h"

static void write_file(const char *name, const char *text, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", test_dir(), name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A scenario around a `fleet` object written by the test, read as if the
 * scenario file were in the test's directory (traces resolve there). */
static int fleet_of(const char *fleet, const char *extra, struct scenario *s, struct cs_error *err)
{
	char text[8192], file[256];
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"fleet\", \"fleet\": %s%s},"
		 " \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 4}]}", fleet, extra);
	snprintf(file, sizeof file, "%s/test.json", test_dir());
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL)
		print_error("bad test JSON: %s: %s\n", jerr.text, text);
	assert_non_null(root);
	error_clear(err);
	int rc = scenario_from_json(root, file, cat, s, err);
	json_decref(root);
	return rc;
}

static void assert_refused(const char *fleet, const char *extra, const char *want)
{
	struct scenario s;
	struct cs_error err;
	assert_int_equal(fleet_of(fleet, extra, &s, &err), -1);
	if (strstr(err.msg, want) == NULL) {
		print_error("message \"%s\" lacks \"%s\"\n", err.msg, want);
		fail();
	}
	assert_int_equal(err.kind, ERROR_INPUT);
}

/* Seconds since the epoch of sacct's timestamps: a closed form (2024-03-01
 * is day 19783 after 1970-01-01; 2024 is a leap year). */
static void test_parse_time(void **state)
{
	(void)state;
	double t;
	assert_int_equal(fleet_trace_parse_time("1970-01-01T00:00:00", &t), 0);
	assert_close(t, 0, 0);
	assert_int_equal(fleet_trace_parse_time("2024-03-01T12:00:00", &t), 0);
	assert_close(t, 19783.0 * 86400 + 12 * 3600, 0);
	assert_int_equal(fleet_trace_parse_time("2024-02-29T00:00:01", &t), 0);
	assert_close(t, 19782.0 * 86400 + 1, 0);
	assert_int_equal(fleet_trace_parse_time("2024-03-01 12:00:00", &t), -1);
	assert_int_equal(fleet_trace_parse_time("2024-13-01T12:00:00", &t), -1);
	assert_int_equal(fleet_trace_parse_time("Unknown", &t), -1);
	assert_int_equal(fleet_trace_parse_time("2024-03-01T12:00:00Z", &t), -1);
	/* times that do not exist: no such day of the month (February 29 only
	 * in leap years: 2000 was one, 1900 and 2023 were not), hour 24,
	 * minute or second 60, a sign or a space where a digit goes */
	static const char *const none[] = {
		"2024-02-30T00:00:00", "2024-02-31T00:00:00", "2023-02-29T00:00:00", "2100-02-29T00:00:00",
		"2024-04-31T00:00:00", "2024-06-31T12:00:00", "2024-09-31T12:00:00", "2024-11-31T12:00:00",
		"2024-01-32T00:00:00", "2024-00-10T00:00:00", "2024-03-00T00:00:00", "2024-03-01T24:00:00",
		"2024-03-01T12:60:00", "2024-03-01T12:00:60", "2024-03-01T-1:00:00", "2024-03-01T 1:00:00",
		"+024-03-01T01:00:00", "1969-12-31T23:59:59",
	};
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
		if (fleet_trace_parse_time(none[i], &t) != -1) {
			print_error("%s was read as %.0f s\n", none[i], t);
			fail();
		}
	}
	assert_int_equal(fleet_trace_parse_time("2000-02-29T23:59:59", &t), 0);
	assert_close(t, 11017.0 * 86400 - 1, 0);
	assert_int_equal(fleet_trace_parse_time("2023-12-31T23:59:59", &t), 0);
	assert_close(t, 19723.0 * 86400 - 1, 0);
	assert_int_equal(fleet_trace_parse_time("9999-12-31T23:59:59", &t), 0);
	assert_close(t, 253402300799.0, 0);
}

/* An sacct --parsable2 export: steps, jobs without GPUs and jobs that never
 * ran are skipped and counted; GPUs from gres/gpu (or the typed counts),
 * duration End - Start, the trace's wait Start - Submit, team the
 * Partition (the QOS when it is empty), submissions from the first, sorted. */
static void test_sacct(void **state)
{
	(void)state;
	char path[256], msg[512];
	write_file("a.sacct",
		   "JobID|JobName|Partition|QOS|Submit|Start|End|NNodes|AllocTRES|State\n"
		   "7|b|research|normal|2024-03-01T01:00:00|2024-03-01T03:00:00|2024-03-01T04:30:00|2|billing=256,cpu=256,gres/gpu=16,mem=2T,node=2|COMPLETED\n"
		   "7.batch|batch|||2024-03-01T03:00:00|2024-03-01T03:00:00|2024-03-01T04:30:00|1|cpu=16,gres/gpu=8,node=1|COMPLETED\n"
		   "7.0|python|||2024-03-01T03:00:00|2024-03-01T03:00:00|2024-03-01T04:30:00|2|cpu=256,gres/gpu=16,node=2|COMPLETED\n"
		   "5|a||high|2024-03-01T00:00:00|2024-03-01T00:00:10|2024-03-01T00:10:10|1|cpu=8,gres/gpu:h100=2,gres/gpu:a100=1,node=1|COMPLETED\n"
		   "9|cpu|cpu|normal|2024-03-01T00:30:00|2024-03-01T00:30:00|2024-03-01T01:00:00|1|cpu=32,mem=64G,node=1|COMPLETED\n"
		   "10|p|research|normal|2024-03-01T02:00:00|Unknown|Unknown|1|gres/gpu=8|PENDING\n"
		   "11|c|research|normal|2024-03-01T02:00:00|None|2024-03-01T02:05:00|1|gres/gpu=8|CANCELLED by 0\n"
		   "12|r|prod|normal|2024-03-01T02:00:00|2024-03-01T02:00:00|Unknown|1|gres/gpu=8|RUNNING\n",
		   path, sizeof path);
	struct fleet_trace *t = fleet_trace_load(path, FLEET_TRACE_SACCT, msg, sizeof msg);
	if (t == NULL)
		print_error("%s\n", msg);
	assert_non_null(t);
	assert_int_equal(t->n, 2);
	assert_int_equal(t->skipped_steps, 2);
	assert_int_equal(t->skipped_no_gpus, 1);
	assert_int_equal(t->skipped_not_run, 3);
	assert_close(t->jobs[0].submit_s, 0, 0);
	assert_int_equal(t->jobs[0].gpus, 3);
	assert_close(t->jobs[0].duration_s, 600, 0);
	assert_close(t->jobs[0].trace_wait_s, 10, 0);
	assert_string_equal(t->jobs[0].team, "high");
	assert_close(t->jobs[1].submit_s, 3600, 0);
	assert_int_equal(t->jobs[1].gpus, 16);
	assert_close(t->jobs[1].duration_s, 5400, 0);
	assert_close(t->jobs[1].trace_wait_s, 7200, 0);
	assert_string_equal(t->jobs[1].team, "research");
	fleet_trace_free(t);
}

/* The plain CSV: columns in any order, team optional, sorted by submission. */
static void test_csv(void **state)
{
	(void)state;
	char path[256], msg[512];
	write_file("a.csv", "gpus,submit_s,duration_s,team\n8,100,3600,nlp\n1,40,60,\"vision\"\n", path, sizeof path);
	struct fleet_trace *t = fleet_trace_load(path, FLEET_TRACE_CSV, msg, sizeof msg);
	assert_non_null(t);
	assert_int_equal(t->n, 2);
	assert_close(t->jobs[0].submit_s, 0, 0);
	assert_int_equal(t->jobs[0].gpus, 1);
	assert_string_equal(t->jobs[0].team, "vision");
	assert_close(t->jobs[1].submit_s, 60, 0);
	assert_close(t->jobs[1].duration_s, 3600, 0);
	assert_true(t->jobs[1].trace_wait_s < 0);
	fleet_trace_free(t);
	write_file("b.csv", "submit_s,gpus,duration_s\n0,4,10\n", path, sizeof path);
	t = fleet_trace_load(path, FLEET_TRACE_CSV, msg, sizeof msg);
	assert_non_null(t);
	assert_string_equal(t->jobs[0].team, "");
	fleet_trace_free(t);
}

/* Each defect names the file and the line. */
static void test_trace_bad(void **state)
{
	(void)state;
	char path[256], msg[512], want[512];
	static const char head[] = "JobID|Partition|Submit|Start|End|AllocTRES\n";
	static const struct {
		enum fleet_trace_format format;
		const char *text;
		const char *want;   /* after "trace 'PATH': " */
	} cases[] = {
		{ FLEET_TRACE_SACCT, "", "no header line (an empty file)" },
		{ FLEET_TRACE_SACCT, "JobID|Submit|Start|End\n", "line 1: no column \"AllocTRES\"" },
		{ FLEET_TRACE_SACCT, "JobID|Submit|Start|End|AllocTRES|Submit\n", "line 1: column \"Submit\" is given twice" },
		{ FLEET_TRACE_SACCT, "%s1.batch|a|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T00:00:00|gres/gpu=1\n",
		  "no job to replay (1 job steps, 0 jobs without GPUs, 0 never started or not ended)" },
		{ FLEET_TRACE_SACCT, "%s1|a|2024-03-01|2024-03-01T00:00:00|2024-03-01T00:00:00|gres/gpu=1\n",
		  "line 2: Submit: expected a time such as 2024-03-01T12:00:00, got \"2024-03-01\"" },
		{ FLEET_TRACE_SACCT, "%s1|a|2024-03-01T00:00:00|2024-03-01T01:00:00|2024-03-01T00:30:00|gres/gpu=1\n",
		  "line 2: End 2024-03-01T00:30:00 is before Start 2024-03-01T01:00:00" },
		{ FLEET_TRACE_SACCT, "%s1|a|2024-03-01T02:00:00|2024-03-01T01:00:00|2024-03-01T03:00:00|gres/gpu=1\n",
		  "line 2: Start 2024-03-01T01:00:00 is before Submit 2024-03-01T02:00:00" },
		{ FLEET_TRACE_SACCT, "%s1|a|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T00:00:00|gres/gpu=eight\n",
		  "line 2: AllocTRES: expected gres/gpu=N with N a whole number up to 1000000, got \"gres/gpu=eight\"" },
		{ FLEET_TRACE_SACCT, "%s1|a|2024-03-01T00:00:00\n", "line 2: 3 fields, the header names a column at field 6" },
		{ FLEET_TRACE_CSV, "submit_s,gpus\n", "line 1: no column \"duration_s\"" },
		{ FLEET_TRACE_CSV, "submit_s,gpus,duration_s,nodes\n", "line 1: unknown column \"nodes\"" },
		{ FLEET_TRACE_CSV, "submit_s,gpus,duration_s\n0,0,5\n", "line 2: gpus: expected a number from 1 to 1e+06, got \"0\"" },
		{ FLEET_TRACE_CSV, "submit_s,gpus,duration_s\n0,1.5,5\n", "line 2: gpus: expected a whole number, got 1.5" },
		{ FLEET_TRACE_CSV, "submit_s,gpus,duration_s\n0,1,5\n-3,1,5\n",
		  "line 3: submit_s: expected a number from 0 to 1e+09, got \"-3\"" },
		/* dates that do not exist, with their line */
		{ FLEET_TRACE_SACCT, "%s1|a|2024-02-01T00:00:00|2024-02-01T00:00:00|2024-02-01T01:00:00|gres/gpu=1\n"
		  "2|a|2024-02-31T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=1\n",
		  "line 3: Submit: \"2024-02-31T00:00:00\" is not a valid time: February 2024 has 29 days" },
		{ FLEET_TRACE_SACCT, "%s1|a|2023-02-28T00:00:00|2023-02-29T00:00:00|2023-03-01T01:00:00|gres/gpu=1\n",
		  "line 2: Start: \"2023-02-29T00:00:00\" is not a valid time: February 2023 has 28 days" },
		{ FLEET_TRACE_SACCT, "%s1|a|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T24:00:00|gres/gpu=1\n",
		  "line 2: End: \"2024-03-01T24:00:00\" is not a valid time: the hour runs from 00 to 23" },
		{ FLEET_TRACE_SACCT, "%s1|a|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T12:60:00|gres/gpu=1\n",
		  "line 2: End: \"2024-03-01T12:60:00\" is not a valid time: a minute runs from 00 to 59" },
		{ FLEET_TRACE_SACCT, "%s1|a|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T12:00:60|gres/gpu=1\n",
		  "line 2: End: \"2024-03-01T12:00:60\" is not a valid time: a second runs from 00 to 59" },
		/* a job longer than 1e9 s, a span of submissions over 1e9 s (the
		 * later one's line; the first: 1990-01-01 = 631152000 s) */
		{ FLEET_TRACE_SACCT, "%s1|a|1990-01-01T00:00:00|1990-01-01T00:00:00|2021-09-09T01:46:41|gres/gpu=1\n",
		  "line 2: End 2021-09-09T01:46:41 is 1000000001 s after Start 1990-01-01T00:00:00, more than the "
		  "1000000000 s (31.7 years) a job may run" },
		{ FLEET_TRACE_SACCT, "%s2|a|2021-09-09T01:46:41|2021-09-09T01:46:41|2021-09-09T02:00:00|gres/gpu=1\n"
		  "1|a|1990-01-01T00:00:00|1990-01-01T00:00:00|1990-01-01T01:00:00|gres/gpu=1\n",
		  "line 2: Submit 2021-09-09T01:46:41 is 1000000001 s (31.7 years) after the first, 1990-01-01T00:00:00 at "
		  "line 3: a trace may span at most 1000000000 s (31.7 years)" },
		{ FLEET_TRACE_CSV, "submit_s,gpus,duration_s\n0,1,1000000001\n",
		  "line 2: duration_s: expected a number from 0 to 1e+09, got \"1000000001\"" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[1024];
		snprintf(text, sizeof text, cases[i].text, head);
		write_file("bad.txt", text, path, sizeof path);
		assert_null(fleet_trace_load(path, cases[i].format, msg, sizeof msg));
		snprintf(want, sizeof want, "trace '%s': %s", path, cases[i].want);
		if (strncmp(msg, want, strlen(want)) != 0) {
			print_error("case %zu: \"%s\" does not start with \"%s\"\n", i, msg, want);
			fail();
		}
	}
	snprintf(path, sizeof path, "%s/absent.txt", test_dir());
	assert_null(fleet_trace_load(path, FLEET_TRACE_SACCT, msg, sizeof msg));
	assert_non_null(strstr(msg, "cannot open"));
}

/* The top of a trace's ranges is read: a job of exactly 1e9 s and
 * submissions spanning exactly 1e9 s (1990-01-01 to 2021-09-09T01:46:40),
 * a CSV job at submit_s 1e9. Rows and jobs are bounded: past the jobs a
 * trace may replay or the rows it may have (here 3 and 5; in the program
 * FLEET_TRACE_MAX_JOBS and FLEET_TRACE_MAX_ROWS) it is refused at the row
 * that passes, skipped job steps counted among the rows. */
static void test_trace_bounds(void **state)
{
	(void)state;
	char path[256], msg[512], want[512];
	write_file("top.sacct", "JobID|Submit|Start|End|AllocTRES\n"
		   "1|1990-01-01T00:00:00|1990-01-01T00:00:00|2021-09-09T01:46:40|gres/gpu=8\n"
		   "2|2021-09-09T01:46:40|2021-09-09T01:46:40|2021-09-09T02:46:40|gres/gpu=8\n", path, sizeof path);
	struct fleet_trace *t = fleet_trace_load(path, FLEET_TRACE_SACCT, msg, sizeof msg);
	if (t == NULL)
		print_error("%s\n", msg);
	assert_non_null(t);
	assert_int_equal(t->n, 2);
	assert_close(t->jobs[0].duration_s, 1e9, 0);
	assert_close(t->jobs[1].submit_s, 1e9, 0);
	fleet_trace_free(t);
	write_file("top.csv", "submit_s,gpus,duration_s\n0,8,1000000000\n1000000000,8,1\n", path, sizeof path);
	t = fleet_trace_load(path, FLEET_TRACE_CSV, msg, sizeof msg);
	assert_non_null(t);
	assert_close(t->jobs[1].submit_s, 1e9, 0);
	assert_close(t->jobs[0].duration_s, 1e9, 0);
	fleet_trace_free(t);

	const struct fleet_trace_limits lim = { .jobs = 3, .rows = 5 };
	write_file("rows.sacct", "JobID|Submit|Start|End|AllocTRES\n"
		   "1|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=8\n"
		   "1.0|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=8\n"
		   "2|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=8\n"
		   "2.0|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=8\n"
		   "\n"
		   "3|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=8\n", path, sizeof path);
	FILE *f = fopen(path, "r");
	t = fleet_trace_read_limited(f, path, FLEET_TRACE_SACCT, &lim, msg, sizeof msg);
	fclose(f);
	assert_non_null(t);  /* 5 rows (the blank line is none), 3 jobs: at both bounds */
	assert_int_equal(t->n, 3);
	fleet_trace_free(t);
	write_file("rows2.sacct", "JobID|Submit|Start|End|AllocTRES\n"
		   "1|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=8\n"
		   "1.0|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=8\n"
		   "1.1|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=8\n"
		   "2|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=8\n"
		   "2.0|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=8\n"
		   "3|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=8\n", path, sizeof path);
	f = fopen(path, "r");
	assert_null(fleet_trace_read_limited(f, path, FLEET_TRACE_SACCT, &lim, msg, sizeof msg));
	fclose(f);
	snprintf(want, sizeof want, "trace '%s': line 7: more than 5 rows (job steps and jobs not replayed included), "
		 "the most a trace may have; give part of it", path);
	assert_string_equal(msg, want);
	write_file("jobs.csv", "submit_s,gpus,duration_s\n0,1,1\n1,1,1\n2,1,1\n3,1,1\n", path, sizeof path);
	f = fopen(path, "r");
	assert_null(fleet_trace_read_limited(f, path, FLEET_TRACE_CSV, &lim, msg, sizeof msg));
	fclose(f);
	snprintf(want, sizeof want, "trace '%s': line 5: more than 3 jobs to replay, the most a trace may hold", path);
	assert_int_equal(strncmp(msg, want, strlen(want)), 0);
}

/*
 * The jobs a fleet asks for are bounded when it is read: its Poisson
 * classes' expected counts (rate_per_h x duration_h) and its traces' jobs,
 * at most FLEET_JOBS_MAX (10,000,000) together, refused at the class that
 * asks for the most (1e6 jobs/h over 1e6 h asked for 1e12 jobs: memory
 * ran out before 20 million were drawn). At the bound the fleet is read.
 */
static void test_job_bounds(void **state)
{
	(void)state;
	char path[256];
	struct scenario s;
	struct cs_error err;
	assert_refused("{\"duration_h\": 1000000, \"jobs\": [{\"name\": \"x\", \"arrival\": {\"process\": \"poisson\","
		       " \"rate_per_h\": 1000000}, \"gpus\": 8, \"duration_s\": 30}]}", "",
		       "workload.fleet.jobs[0].arrival.rate_per_h: 1e+06 jobs/h over duration_h 1e+06 h is 1e+12 jobs "
		       "(1e+12 with the other classes), more than the 10000000 a fleet may simulate; lower rate_per_h or "
		       "duration_h");
	/* two classes of 6e6 each: the first of the largest is named */
	write_file("two.csv", "submit_s,gpus,duration_s\n0,8,60\n", path, sizeof path);
	assert_refused("{\"duration_h\": 1000, \"jobs\": [{\"name\": \"t\", \"arrival\": {\"process\": \"trace\","
		       " \"trace\": \"two.csv\"}}, {\"name\": \"a\", \"arrival\": {\"process\": \"poisson\","
		       " \"rate_per_h\": 6000}, \"gpus\": 8, \"duration_s\": 30}, {\"name\": \"b\", \"arrival\":"
		       " {\"process\": \"poisson\", \"rate_per_h\": 6000}, \"gpus\": 8, \"duration_s\": 30}]}", "",
		       "workload.fleet.jobs[1].arrival.rate_per_h: 6000 jobs/h over duration_h 1000 h is 6e+06 jobs "
		       "(1.2e+07 with the other classes), more than the 10000000");
	/* at the bound: 1e7 jobs over the documented maximum window (the
	 * memory, 10 GB at 1 KB a job, is this machine's: read, or refused with
	 * its figure) */
	struct limits_memory mem;
	limits_memory_available(&mem);
	const char *at = "{\"duration_h\": 1000000, \"jobs\": [{\"name\": \"x\", \"arrival\": {\"process\": \"poisson\","
			 " \"rate_per_h\": 10}, \"gpus\": 8, \"duration_s\": 30}]}";
	if (mem.bytes == 0 || 1e7 * FLEET_BYTES_PER_JOB <= (double)mem.bytes) {
		assert_int_equal(fleet_of(at, "", &s, &err), 0);
		scenario_release(&s);
	} else {
		assert_refused(at, "", "workload.fleet.jobs: 1e+07 jobs would need about 10.2 GB (1024 bytes each)");
	}
}

/* Every key arrives; teams are numbered in order of first appearance, the
 * traces' own teams after the classes'; nested workloads are their kind's. */
static void test_every_key(void **state)
{
	(void)state;
	char path[256];
	struct scenario s;
	struct cs_error err;
	write_file("jobs.csv", "submit_s,gpus,duration_s,team\n0,8,60,vision\n5,8,60,\n", path, sizeof path);
	int rc = fleet_of(
		"{\"duration_h\": 100, \"warmup_h\": 10,"
		" \"scheduler\": {\"policy\": \"priority\", \"preemption\": true, \"quotas\": {\"nlp\": 0.5}},"
		" \"objective\": {\"wait_p90_h\": 2},"
		" \"jobs\": [{\"name\": \"a\", \"team\": \"nlp\", \"priority\": 3,"
		"            \"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 0.5}, \"gpus\": 16,"
		"            \"duration_s\": {\"dist\": \"lognormal\", \"mean\": 3600, \"sd\": 1800, \"min\": 60, \"max\": 7200},"
		"            \"estimate_factor\": 2},"
		"           {\"name\": \"b\", \"team\": \"ops\", \"arrival\": {\"process\": \"trace\", \"trace\": \"jobs.csv\", \"format\": \"csv\"}},"
		"           {\"name\": \"c\", \"team\": \"nlp\", \"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 8,"
		"            \"workload\": {\"kind\": \"finetune\", \"model\": \"llama3-8b\", \"seq_len\": 4096,"
		"                           \"global_batch_tokens\": 65536, \"tokens\": 1e8}}]}",
		", \"failures\": {\"node_mtbf_h\": 1000, \"restart_s\": 120}", &s, &err);
	if (rc != 0)
		print_error("%s\n", err.msg);
	assert_int_equal(rc, 0);
	const struct fleet_spec *f = s.workload.fleet;
	assert_non_null(f);
	assert_int_equal(s.workload.kind, WORKLOAD_FLEET);
	assert_close(f->duration_h, 100, 0);
	assert_close(f->warmup_h, 10, 0);
	assert_int_equal(f->policy, FLEET_PRIORITY);
	assert_true(f->preemption);
	assert_close(f->objective_wait_p90_h, 2, 0);
	assert_true(f->failures.enabled);
	assert_close(f->failures.node_mtbf_h, 1000, 0);
	assert_close(f->failures.restart_s, 120, 0);
	assert_int_equal(f->n_classes, 3);
	assert_int_equal(f->n_teams, 3);
	assert_string_equal(f->team_names[0], "nlp");
	assert_string_equal(f->team_names[1], "ops");    /* the trace's job without a team */
	assert_string_equal(f->team_names[2], "vision");
	assert_close(f->team_quota[0], 0.5, 0);
	assert_close(f->team_quota[1], 0, 0);
	const struct fleet_class *a = &f->classes[0], *b = &f->classes[1], *c = &f->classes[2];
	assert_int_equal(a->priority, 3);
	assert_int_equal(a->arrival, FLEET_ARRIVAL_POISSON);
	assert_close(a->rate_per_h, 0.5, 0);
	assert_int_equal(a->gpus, 16);
	assert_int_equal(a->duration.dist, FLEET_DUR_LOGNORMAL);
	assert_close(a->duration.mean_s, 3600, 0);
	assert_close(a->duration.sd_s, 1800, 0);
	assert_close(a->duration.min_s, 60, 0);
	assert_close(a->duration.max_s, 7200, 0);
	assert_close(a->estimate_factor, 2, 0);
	assert_null(a->workload);
	assert_int_equal(b->arrival, FLEET_ARRIVAL_TRACE);
	assert_int_equal(b->trace_format, FLEET_TRACE_CSV);
	assert_string_equal(b->trace, path);
	assert_non_null(b->trace_jobs);
	assert_int_equal(b->trace_jobs->n, 2);
	assert_close(c->estimate_factor, 1, 0);
	assert_non_null(c->workload);
	assert_int_equal(c->workload->kind, WORKLOAD_FINETUNE);
	assert_int_equal(c->workload->train.seq_len, 4096);
	assert_close(c->workload->run.tokens, 1e8, 0);
	scenario_release(&s);
	assert_null(s.workload.fleet);
}

/* Left out: fifo, no preemption, no objective, no failures, team = name. */
static void test_defaults(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	assert_int_equal(fleet_of("{\"duration_h\": 5, \"jobs\": [{\"name\": \"x\", \"arrival\": {\"process\": \"poisson\","
				  " \"rate_per_h\": 2}, \"gpus\": 1, \"duration_s\": 30}]}", "", &s, &err), 0);
	const struct fleet_spec *f = s.workload.fleet;
	assert_int_equal(f->policy, FLEET_FIFO);
	assert_false(f->preemption);
	assert_close(f->objective_wait_p90_h, 0, 0);
	assert_close(f->warmup_h, 0, 0);
	assert_false(f->failures.enabled);
	assert_string_equal(f->classes[0].team, "x");
	assert_int_equal(f->classes[0].duration.dist, FLEET_DUR_FIXED);
	assert_close(f->classes[0].duration.mean_s, 30, 0);
	scenario_release(&s);
}

static void test_bad_values(void **state)
{
	(void)state;
	static const char job[] = "{\"name\": \"x\", \"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 2}, \"gpus\": 8, \"duration_s\": 30}";
	char fleet[2048];
	static const struct {
		const char *fleet;   /* %s: one good job class */
		const char *extra;
		const char *want;
	} cases[] = {
		{ "{\"jobs\": [%s]}", "", "workload.fleet.duration_h: missing required key" },
		{ "{\"duration_h\": 0, \"jobs\": [%s]}", "", "workload.fleet.duration_h: expected a number from 0.001 to 1e+06, got 0" },
		{ "{\"duration_h\": 5, \"warmup_h\": 5, \"jobs\": [%s]}", "", "workload.fleet.warmup_h: 5 h is not shorter than duration_h 5 h" },
		{ "{\"duration_h\": 5, \"jobs\": []}", "", "workload.fleet.jobs: expected an array of 1 to 64 job classes, got an array" },
		{ "{\"duration_h\": 5, \"jobs\": [%s], \"scheduler\": {\"policy\": \"lifo\"}}", "", "workload.fleet.scheduler.policy: expected one of" },
		{ "{\"duration_h\": 5, \"jobs\": [%s], \"scheduler\": {\"quotas\": {\"x\": 0.5}}}", "", "workload.fleet.scheduler.quotas: used only by policy \"priority\"" },
		{ "{\"duration_h\": 5, \"jobs\": [%s], \"scheduler\": {\"policy\": \"priority\", \"quotas\": {\"y\": 0.5}}}", "", "workload.fleet.scheduler.quotas.y: no job class has team \"y\"" },
		{ "{\"duration_h\": 5, \"jobs\": [%s], \"scheduler\": {\"policy\": \"priority\", \"quotas\": {\"x\": 1.5}}}", "", "workload.fleet.scheduler.quotas.x: expected a number from 0.001 to 1, got 1.5" },
		{ "{\"duration_h\": 5, \"jobs\": [%s], \"objective\": {\"wait_p90_h\": -1}}", "", "workload.fleet.objective.wait_p90_h: expected a number from 1e-06" },
		{ "{\"duration_h\": 5, \"jobs\": [%s, %s]}", "", "workload.fleet.jobs[1].name: \"x\" is also the name of jobs[0]" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"name\": \"x\", \"gpus\": 1, \"duration_s\": 3}]}", "", "workload.fleet.jobs[0].arrival: missing required key" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"arrival\": {\"process\": \"poisson\"}, \"gpus\": 1, \"duration_s\": 3}]}", "", "workload.fleet.jobs[0].arrival.rate_per_h: missing required key" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"duration_s\": 3}]}", "", "workload.fleet.jobs[0].gpus: missing required key" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 1}]}", "", "workload.fleet.jobs[0].duration_s: missing: give duration_s or workload" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 1, \"duration_s\": {\"dist\": \"uniform\", \"min\": 5}}]}", "", "workload.fleet.jobs[0].duration_s.max: missing required key (dist \"uniform\" needs it)" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 1, \"duration_s\": {\"dist\": \"exponential\", \"mean\": 5, \"sd\": 1}}]}", "", "workload.fleet.jobs[0].duration_s.sd: not used by dist \"exponential\"" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"arrival\": {\"process\": \"trace\", \"trace\": \"none.csv\"}}]}", "", "workload.fleet.jobs[0].arrival.trace: trace '" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 1, \"workload\": {\"kind\": \"fleet\"}}]}", "", "workload.fleet.jobs[0].workload.kind: \"fleet\": a job class's workload is training" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 1, \"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"failures\": \"llama3\"}}]}", "", "workload.fleet.jobs[0].workload.failures: not used in a job class" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 1, \"workload\": {\"kind\": \"training\", \"model\": \"llama-9\"}}]}", "", "workload.fleet.jobs[0].workload.model: unknown model \"llama-9\"" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\", \"serving\": {\"arrival\": {\"rate_per_s\": 1}, \"prompt_tokens\": 10, \"output_tokens\": 10}}, \"gpus\": 8}]}", "", "workload.fleet.jobs[0].gpus: not used by an inference class" },
		{ "{\"duration_h\": 5, \"jobs\": [{\"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\", \"serving\": {\"arrival\": {\"rate_per_s\": 1}, \"prompt_tokens\": 10, \"output_tokens\": 10}}}]}", "", "workload.fleet.jobs[0].arrival: not used by an inference class" },
		{ "{\"duration_h\": 5, \"jobs\": [%s]}", ", \"seq_len\": 4096", "workload.seq_len: not used by fleet workloads" },
		{ "{\"duration_h\": 5, \"jobs\": [%s]}", ", \"model\": \"llama3-8b\"", "workload.model: not used by fleet workloads" },
		{ "{\"duration_h\": 5, \"jobs\": [%s], \"window\": 3}", "", "workload.fleet: unknown key \"window\"" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(fleet, sizeof fleet, cases[i].fleet, job, job);
		assert_refused(fleet, cases[i].extra, cases[i].want);
	}
}

/* An sacct export of three jobs: partition research, partition prod, and
 * one with no Partition whose QOS is high; their GPUs say which is which
 * (1, 2, 4), submitted in that order. */
static const char teams_sacct[] =
	"JobID|Partition|QOS|Submit|Start|End|AllocTRES\n"
	"1|research|normal|2024-03-01T00:00:00|2024-03-01T00:00:00|2024-03-01T01:00:00|gres/gpu=1\n"
	"2|prod|normal|2024-03-01T00:10:00|2024-03-01T00:10:00|2024-03-01T01:00:00|gres/gpu=2\n"
	"3||high|2024-03-01T00:20:00|2024-03-01T00:20:00|2024-03-01T01:00:00|gres/gpu=4\n";

/* The teams of teams_sacct's three jobs read with class keys `keys`
 * (after "name": "s", "arrival": ...), and the fleet's team table. */
static void sacct_teams(const char *keys, const char *want1, const char *want2, const char *want4,
			const char *want_table)
{
	char path[256], fleet[1024], table[512] = "";
	struct scenario s;
	struct cs_error err;
	write_file("teams.sacct", teams_sacct, path, sizeof path);
	snprintf(fleet, sizeof fleet,
		 "{\"duration_h\": 5, \"jobs\": [{\"name\": \"s\", \"arrival\": {\"process\": \"trace\","
		 " \"trace\": \"teams.sacct\", \"format\": \"sacct\"}%s}]}", keys);
	int rc = fleet_of(fleet, "", &s, &err);
	if (rc != 0)
		print_error("%s: %s\n", keys, err.msg);
	assert_int_equal(rc, 0);
	const struct fleet_spec *f = s.workload.fleet;
	const struct fleet_trace *t = f->classes[0].trace_jobs;
	const char *want[] = { want1, want2, want4 };
	assert_int_equal(t->n, 3);
	for (size_t n = 0; n < 3; n++) {
		/* "" is the class's team */
		const char *team = t->jobs[n].team[0] ? t->jobs[n].team : f->classes[0].team;
		assert_int_equal(t->jobs[n].gpus, 1 << n);
		if (strcmp(team, want[n]) != 0) {
			print_error("%s: job of %d GPUs: team \"%s\", want \"%s\"\n", keys, t->jobs[n].gpus, team, want[n]);
			fail();
		}
	}
	for (int i = 0; i < f->n_teams; i++)
		snprintf(table + strlen(table), sizeof table - strlen(table), "%s%s", i ? "," : "", f->team_names[i]);
	if (strcmp(table, want_table) != 0) {
		print_error("%s: teams %s, want %s\n", keys, table, want_table);
		fail();
	}
	scenario_release(&s);
}

/*
 * Which team an sacct job is in: partition_teams for the partitions it
 * names, then the class's stated team (never overridden by a Partition or
 * a QOS), then the Partition, then the QOS, then the class's name.
 */
static void test_sacct_teams(void **state)
{
	(void)state;
	/* nothing stated: the Partition, else the QOS */
	sacct_teams("", "research", "prod", "high", "research,prod,high");
	/* a stated team wins over both */
	sacct_teams(", \"team\": \"ops\"", "ops", "ops", "ops", "ops");
	/* the map decides the partitions it names; the stated team the rest */
	sacct_teams(", \"team\": \"ops\", \"partition_teams\": {\"prod\": \"product\"}", "ops", "product", "ops",
		    "ops,product");
	/* without a stated team: the map, else the Partition, else the QOS (the
	 * map names partitions, not QOS) */
	sacct_teams(", \"partition_teams\": {\"prod\": \"product\", \"research\": \"product\"}", "product",
		    "product", "high", "product,high");

	/* a bad map is refused with its path and value */
	char path[256];
	write_file("teams.sacct", teams_sacct, path, sizeof path);
	write_file("teams.csv", "submit_s,gpus,duration_s,team\n0,8,60,vision\n", path, sizeof path);
	static const char sacct[] = "\"arrival\": {\"process\": \"trace\", \"trace\": \"teams.sacct\", \"format\": \"sacct\"}";
	static const struct {
		const char *cls;   /* %s: the sacct arrival */
		const char *want;
	} cases[] = {
		{ "{%s, \"partition_teams\": {\"prd\": \"product\"}}",
		  "workload.fleet.jobs[0].partition_teams.prd: no job the trace replays is in partition \"prd\" "
		  "(its partitions: research, prod)" },
		{ "{%s, \"partition_teams\": {\"high\": \"product\"}}",
		  "workload.fleet.jobs[0].partition_teams.high: no job the trace replays is in partition \"high\"" },
		{ "{%s, \"partition_teams\": {\"prod\": \"\"}}",
		  "workload.fleet.jobs[0].partition_teams.prod: expected a team name, got \"\"" },
		{ "{%s, \"partition_teams\": {\"prod\": 7}}", "workload.fleet.jobs[0].partition_teams.prod: expected a string, got 7" },
		{ "{%s, \"partition_teams\": {}}", "workload.fleet.jobs[0].partition_teams: expected an object of {partition: team}" },
		{ "{%s, \"partition_teams\": [\"prod\"]}", "workload.fleet.jobs[0].partition_teams: expected an object of {partition: team}, got an array" },
		{ "{\"arrival\": {\"process\": \"trace\", \"trace\": \"teams.csv\"}, \"partition_teams\": {\"prod\": \"p\"}}",
		  "workload.fleet.jobs[0].partition_teams: used only by an sacct trace" },
		{ "{\"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 1, \"duration_s\": 5, "
		  "\"partition_teams\": {\"prod\": \"p\"}}",
		  "workload.fleet.jobs[0].partition_teams: used only by an sacct trace" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char cls[512], fleet[1024];
		snprintf(cls, sizeof cls, cases[i].cls, sacct);
		snprintf(fleet, sizeof fleet, "{\"duration_h\": 5, \"jobs\": [%s]}", cls);
		assert_refused(fleet, "", cases[i].want);
	}
}

/*
 * objective.applies_to: by default (and "all") no group is exempt;
 * "fleet" exempts every team and class; a list exempts all but the
 * classes and teams it names (a name that is both: both).
 */
static void test_applies_to(void **state)
{
	(void)state;
	static const char jobs[] =
		"\"jobs\": [{\"name\": \"pre\", \"team\": \"research\", \"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1},"
		" \"gpus\": 8, \"duration_s\": 60},"
		" {\"name\": \"sweep\", \"team\": \"research\", \"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1},"
		" \"gpus\": 1, \"duration_s\": 60},"
		" {\"name\": \"eval\", \"arrival\": {\"process\": \"poisson\", \"rate_per_h\": 1}, \"gpus\": 1, \"duration_s\": 60},"
		" {\"name\": \"chat\", \"team\": \"product\", \"workload\": {\"kind\": \"inference\", \"model\": \"llama3-8b\","
		" \"serving\": {\"arrival\": {\"rate_per_s\": 1}, \"prompt_tokens\": 10, \"output_tokens\": 10}}}]";
	static const struct {
		const char *applies;   /* "" = the key left out */
		bool fleet, team[3], cls[4];   /* exempt; teams research, eval, product */
	} cases[] = {
		{ "", false, { false, false, false }, { false, false, false, false } },
		{ ", \"applies_to\": \"all\"", false, { false, false, false }, { false, false, false, false } },
		{ ", \"applies_to\": \"fleet\"", false, { true, true, true }, { true, true, true, true } },
		{ ", \"applies_to\": [\"pre\"]", true, { true, true, true }, { false, true, true, true } },
		{ ", \"applies_to\": [\"research\", \"sweep\"]", true, { false, true, true }, { true, false, true, true } },
		/* eval is a class and its team */
		{ ", \"applies_to\": [\"eval\"]", true, { true, false, true }, { true, true, false, true } },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char fleet[2048];
		struct scenario s;
		struct cs_error err;
		snprintf(fleet, sizeof fleet, "{\"duration_h\": 5, \"objective\": {\"wait_p90_h\": 1%s}, %s}",
			 cases[i].applies, jobs);
		int rc = fleet_of(fleet, "", &s, &err);
		if (rc != 0)
			print_error("case %zu: %s\n", i, err.msg);
		assert_int_equal(rc, 0);
		const struct fleet_spec *f = s.workload.fleet;
		assert_int_equal(f->n_teams, 3);
		assert_string_equal(f->team_names[1], "eval");
		assert_int_equal(f->objective_exempt_fleet, cases[i].fleet);
		for (int t = 0; t < 3; t++)
			assert_int_equal(f->objective_exempt_team[t], cases[i].team[t]);
		for (int k = 0; k < 4; k++)
			assert_int_equal(f->objective_exempt_class[k], cases[i].cls[k]);
		scenario_release(&s);
	}
	static const struct {
		const char *applies;
		const char *want;
	} bad[] = {
		{ "\"every\"", "workload.fleet.objective.applies_to: expected \"all\", \"fleet\" or a list of job class and team names, got \"every\"" },
		{ "[]", "workload.fleet.objective.applies_to: expected \"all\", \"fleet\" or a list" },
		{ "3", "workload.fleet.objective.applies_to: expected \"all\", \"fleet\" or a list" },
		{ "[\"pre\", \"prre\"]", "workload.fleet.objective.applies_to[1]: \"prre\" is no job class's or team's name" },
		{ "[\"pre\", \"pre\"]", "workload.fleet.objective.applies_to[1]: \"pre\" is named twice" },
		{ "[\"chat\"]", "workload.fleet.objective.applies_to[0]: \"chat\" is a service" },
		{ "[7]", "workload.fleet.objective.applies_to[0]: expected a job class's or a team's name, got 7" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char fleet[2048];
		snprintf(fleet, sizeof fleet, "{\"duration_h\": 5, \"objective\": {\"wait_p90_h\": 1, \"applies_to\": %s}, %s}",
			 bad[i].applies, jobs);
		assert_refused(fleet, "", bad[i].want);
	}
}

static int group_setup(void **state)
{
	return setup(state) || test_dir_make("test_wl_fleet");
}

static int group_teardown(void **state)
{
	return teardown(state) || test_dir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_time),
		cmocka_unit_test(test_sacct),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_trace_bad),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_trace_bounds),
		cmocka_unit_test(test_job_bounds),
		cmocka_unit_test(test_sacct_teams),
		cmocka_unit_test(test_applies_to),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
