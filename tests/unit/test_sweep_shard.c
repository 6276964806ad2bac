/* sweep_shard: --shard I/N, and its default from each scheduler's
 * array-task variables read through a fake environment: the shard each
 * pair gives, the variables said, and every refusal with its message. */
#include "testutil.h"

#include <string.h>

#include "cli/sweep/sweep_shard.h"

/* A fake environment: NAME=VALUE strings, NULL-terminated. */
static const char *fake_get(const char *name, void *ctx)
{
	const char *const *vars = ctx;
	size_t len = strlen(name);
	for (; *vars != NULL; vars++)
		if (strncmp(*vars, name, len) == 0 && (*vars)[len] == '=')
			return *vars + len + 1;
	return NULL;
}

/* The result of sweep_shard_from_env on vars, its shard in *sh, the
 * variables said in said[256] and the message in err. */
static int from_env(const char *const *vars, struct sweep_shard *sh, char *said, struct cs_error *err)
{
	error_clear(err);
	return sweep_shard_from_env(fake_get, (void *)vars, sh, said, 256, err);
}

static void assert_refused(const char *const *vars, const char *msg)
{
	struct sweep_shard sh = { 77, 78 };
	char said[256];
	struct cs_error err;
	assert_int_equal(from_env(vars, &sh, said, &err), -1);
	assert_int_equal(err.kind, ERROR_INPUT);
	assert_string_equal(err.msg, msg);
	assert_true(sh.index == 77 && sh.count == 78);
}

static void test_parse(void **state)
{
	struct sweep_shard sh = { 5, 5 };
	uint64_t v = 9;
	(void)state;
	assert_int_equal(sweep_shard_parse("2/7", &sh), 0);
	assert_true(sh.index == 2 && sh.count == 7);
	assert_int_equal(sweep_shard_parse("none", &sh), 0);
	assert_true(sh.index == 0 && sh.count == 1);
	assert_int_equal(sweep_shard_parse("999999/1000000", &sh), 0);
	assert_true(sh.index == 999999 && sh.count == 1000000);
	static const char *const bad[] = { "", "3/3", "1", "/2", "1/", "-1/2", "+1/2", "1/0", "1/1000001",
					   " 1/2", "1/2 ", "0x1/2", "1/2/3", "00000000000000001/2", "none/2" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		sh = (struct sweep_shard){ 5, 5 };
		assert_int_equal(sweep_shard_parse(bad[i], &sh), -1);
		assert_true(sh.index == 5 && sh.count == 5);  /* untouched */
	}
	assert_int_equal(sweep_shard_parse_count("007", 10, &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(sweep_shard_parse_count("11", 10, &v), -1);
	assert_int_equal(sweep_shard_parse_count("1234567890", UINT64_MAX, &v), -1);  /* 10 digits */
	assert_int_equal(v, 7);
}

/* Each scheduler's pair alone gives its shard and is said by name. */
static void test_each_scheduler(void **state)
{
	static const struct {
		const char *vars[3];
		const char *said;
	} cases[] = {
		{ { "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=5" }, "SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT" },
		{ { "JOB_COMPLETION_INDEX=2", "JOB_COMPLETIONS=5" }, "JOB_COMPLETION_INDEX and JOB_COMPLETIONS" },
		{ { "AWS_BATCH_JOB_ARRAY_INDEX=2", "AWS_BATCH_JOB_ARRAY_SIZE=5" },
		  "AWS_BATCH_JOB_ARRAY_INDEX and AWS_BATCH_JOB_ARRAY_SIZE" },
		{ { "BATCH_TASK_INDEX=2", "BATCH_TASK_COUNT=5" }, "BATCH_TASK_INDEX and BATCH_TASK_COUNT" },
		{ { "CLOUD_RUN_TASK_INDEX=2", "CLOUD_RUN_TASK_COUNT=5" }, "CLOUD_RUN_TASK_INDEX and CLOUD_RUN_TASK_COUNT" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sweep_shard sh = { 0 };
		char said[256];
		struct cs_error err;
		assert_int_equal(from_env(cases[i].vars, &sh, said, &err), 1);
		assert_true(sh.index == 2 && sh.count == 5);
		assert_string_equal(said, cases[i].said);
	}
}

/* Nothing set: 0, the shard untouched; unrelated variables are ignored. */
static void test_none_set(void **state)
{
	static const char *const vars[] = { "SLURM_JOB_ID=12", "BATCH_JOB_ID=x", "CLOUD_RUN_JOB=j", NULL };
	struct sweep_shard sh = { 3, 4 };
	char said[256];
	struct cs_error err;
	(void)state;
	assert_int_equal(from_env(vars, &sh, said, &err), 0);
	assert_true(sh.index == 3 && sh.count == 4);
	assert_string_equal(said, "");
}

/* Two schedulers that agree are both said; Cloud Run's single task (0/1)
 * is the whole sweep. */
static void test_agreeing(void **state)
{
	static const char *const vars[] = { "CLOUD_RUN_TASK_INDEX=0", "CLOUD_RUN_TASK_COUNT=1",
					    "JOB_COMPLETION_INDEX=0", "JOB_COMPLETIONS=1", NULL };
	struct sweep_shard sh = { 0 };
	char said[256];
	struct cs_error err;
	(void)state;
	assert_int_equal(from_env(vars, &sh, said, &err), 1);
	assert_true(sh.index == 0 && sh.count == 1);
	assert_string_equal(said, "JOB_COMPLETION_INDEX and JOB_COMPLETIONS; CLOUD_RUN_TASK_INDEX and CLOUD_RUN_TASK_COUNT");
}

static void test_refused(void **state)
{
	(void)state;
	assert_refused((const char *const[]){ "JOB_COMPLETION_INDEX=1", NULL },
		       "sweep: JOB_COMPLETION_INDEX=\"1\" is set without JOB_COMPLETIONS (Kubernetes sets no count: "
		       "set JOB_COMPLETIONS to the Job's spec.completions in its manifest; or give --shard I/N, or "
		       "--shard none)");
	assert_refused((const char *const[]){ "AWS_BATCH_JOB_ARRAY_SIZE=4", NULL },
		       "sweep: AWS_BATCH_JOB_ARRAY_SIZE=\"4\" is set without AWS_BATCH_JOB_ARRAY_INDEX (the scheduler "
		       "sets both in an array task; or give --shard I/N, or --shard none)");
	assert_refused((const char *const[]){ "SLURM_ARRAY_TASK_ID=4", "SLURM_ARRAY_TASK_COUNT=4", NULL },
		       "sweep: SLURM_ARRAY_TASK_ID=\"4\" is not a shard from 0 to 3 (SLURM_ARRAY_TASK_COUNT=\"4\"; "
		       "submit the array as --array=0-3, or give --shard I/N)");
	assert_refused((const char *const[]){ "JOB_COMPLETION_INDEX=5", "JOB_COMPLETIONS=5", NULL },
		       "sweep: JOB_COMPLETION_INDEX=\"5\" is not a shard from 0 to 4 (JOB_COMPLETIONS=\"5\"; "
		       "JOB_COMPLETIONS must be the Job's spec.completions, or give --shard I/N)");
	assert_refused((const char *const[]){ "BATCH_TASK_INDEX=-1", "BATCH_TASK_COUNT=3", NULL },
		       "sweep: BATCH_TASK_INDEX=\"-1\" is not a shard from 0 to 2 (BATCH_TASK_COUNT=\"3\"; give --shard I/N)");
	assert_refused((const char *const[]){ "CLOUD_RUN_TASK_INDEX=0", "CLOUD_RUN_TASK_COUNT=0", NULL },
		       "sweep: CLOUD_RUN_TASK_COUNT=\"0\" is not a shard count from 1 to 1000000");
	assert_refused((const char *const[]){ "CLOUD_RUN_TASK_INDEX=0", "CLOUD_RUN_TASK_COUNT=", NULL },
		       "sweep: CLOUD_RUN_TASK_COUNT=\"\" is not a shard count from 1 to 1000000");
	assert_refused((const char *const[]){ "BATCH_TASK_INDEX=0", "BATCH_TASK_COUNT=99999999999999999999", NULL },
		       "sweep: BATCH_TASK_COUNT=\"99999999999999999999\" is not a shard count from 1 to 1000000");
	assert_refused((const char *const[]){ "BATCH_TASK_INDEX=1.5", "BATCH_TASK_COUNT=3", NULL },
		       "sweep: BATCH_TASK_INDEX=\"1.5\" is not a shard from 0 to 2 (BATCH_TASK_COUNT=\"3\"; give --shard I/N)");
	/* control bytes are escaped, so the message stays one line */
	assert_refused((const char *const[]){ "BATCH_TASK_INDEX=1", "BATCH_TASK_COUNT=3\n", NULL },
		       "sweep: BATCH_TASK_COUNT=\"3\\x0a\" is not a shard count from 1 to 1000000");
	assert_refused((const char *const[]){ "SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=3",
					      "AWS_BATCH_JOB_ARRAY_INDEX=1", "AWS_BATCH_JOB_ARRAY_SIZE=4", NULL },
		       "sweep: two schedulers name different shards: SLURM_ARRAY_TASK_ID=\"1\" and "
		       "SLURM_ARRAY_TASK_COUNT=\"3\" (shard 1/3) but AWS_BATCH_JOB_ARRAY_INDEX=\"1\" and "
		       "AWS_BATCH_JOB_ARRAY_SIZE=\"4\" (shard 1/4); give --shard I/N, or --shard none");
	/* a bad pair is refused even when another scheduler's pair is good */
	assert_refused((const char *const[]){ "SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=3",
					      "CLOUD_RUN_TASK_INDEX=x", "CLOUD_RUN_TASK_COUNT=3", NULL },
		       "sweep: CLOUD_RUN_TASK_INDEX=\"x\" is not a shard from 0 to 2 (CLOUD_RUN_TASK_COUNT=\"3\"; "
		       "give --shard I/N)");
}

/* Every point k in 0..n-1 falls in exactly one of the N shards a
 * scheduler's tasks 0..N-1 get: the shards partition the sweep. */
static void test_partition(void **state)
{
	enum { POINTS = 23, TASKS = 5 };
	int seen[POINTS] = { 0 };
	(void)state;
	for (int t = 0; t < TASKS; t++) {
		char index[48], count[48];
		const char *vars[] = { index, count, NULL };
		struct sweep_shard sh;
		char said[256];
		struct cs_error err;
		snprintf(index, sizeof index, "AWS_BATCH_JOB_ARRAY_INDEX=%d", t);
		snprintf(count, sizeof count, "AWS_BATCH_JOB_ARRAY_SIZE=%d", TASKS);
		assert_int_equal(from_env(vars, &sh, said, &err), 1);
		for (uint64_t k = sh.index; k < POINTS; k += sh.count)
			seen[k]++;
	}
	for (int k = 0; k < POINTS; k++)
		assert_int_equal(seen[k], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_each_scheduler),
		cmocka_unit_test(test_none_set),
		cmocka_unit_test(test_agreeing),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_partition),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
