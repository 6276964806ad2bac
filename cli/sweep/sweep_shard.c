/*
 * sweep_shard: --shard I/N and its default from a scheduler's array-task
 * variables. One table holds the schedulers; the code walks it.
 */
#include "cli/sweep/sweep_shard.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"

/*
 * The array-task variables of each scheduler, from its documentation:
 *
 * - Slurm job arrays: SLURM_ARRAY_TASK_ID (the task's array index) and
 *   SLURM_ARRAY_TASK_COUNT (the number of tasks in the array),
 *   https://slurm.schedmd.com/job_array.html ("Job Array Environment
 *   Variables"). Indexes are the ones given to --array, so only
 *   --array=0-(N-1) numbers the tasks as shards.
 * - Kubernetes Indexed Jobs (completionMode: Indexed): the control plane
 *   sets JOB_COMPLETION_INDEX, 0 to spec.completions - 1,
 *   https://kubernetes.io/docs/tasks/job/indexed-parallel-processing-static/
 *   and https://kubernetes.io/docs/concepts/workloads/controllers/job/#completion-mode.
 *   Kubernetes sets no count variable and the downward API cannot read
 *   the Job's spec (https://github.com/kubernetes/kubernetes/issues/106009,
 *   where the maintainers advise copying spec.completions into an
 *   environment variable). Our rule: the manifest sets JOB_COMPLETIONS to
 *   its spec.completions (docs/howto/kubernetes-indexed-job.md); it is
 *   clustersim's name, not one Kubernetes sets.
 * - AWS Batch array jobs: AWS_BATCH_JOB_ARRAY_INDEX (from 0, set only in
 *   child jobs) and AWS_BATCH_JOB_ARRAY_SIZE (the parent array's size),
 *   https://docs.aws.amazon.com/batch/latest/userguide/job_env_vars.html.
 * - Google Cloud Batch: BATCH_TASK_INDEX (0 to BATCH_TASK_COUNT - 1) and
 *   BATCH_TASK_COUNT (the tasks in the task group),
 *   https://cloud.google.com/batch/docs/create-run-basic-job and
 *   https://cloud.google.com/batch/docs/reference/rest/v1/projects.locations.jobs
 *   (TaskGroup.taskEnvironments).
 * - Cloud Run jobs: CLOUD_RUN_TASK_INDEX (from 0) and CLOUD_RUN_TASK_COUNT
 *   (the job's --tasks), https://cloud.google.com/run/docs/container-contract
 *   ("Environment variables for jobs").
 */
struct shard_source {
	const char *index_var, *count_var;
	const char *fix;  /* what to do when the index is out of range */
	bool fix_range;   /* fix ends with "0-", and the last index follows */
	const char *no_count;  /* what to do when the index comes without a count */
	const char *no_index;  /* what to do when the count comes without an index */
};

static const struct shard_source sources[] = {
	{ .index_var = "SLURM_ARRAY_TASK_ID", .count_var = "SLURM_ARRAY_TASK_COUNT",
	  .fix = "submit the array as --array=0-", .fix_range = true },
	{ .index_var = "JOB_COMPLETION_INDEX", .count_var = "JOB_COMPLETIONS",
	  .fix = "JOB_COMPLETIONS must be the Job's spec.completions",
	  .no_count = "Kubernetes sets no count: set JOB_COMPLETIONS to the Job's spec.completions in its manifest",
	  .no_index = "run it in an Indexed Job, completionMode: Indexed" },
	{ .index_var = "AWS_BATCH_JOB_ARRAY_INDEX", .count_var = "AWS_BATCH_JOB_ARRAY_SIZE" },
	{ .index_var = "BATCH_TASK_INDEX", .count_var = "BATCH_TASK_COUNT" },
	{ .index_var = "CLOUD_RUN_TASK_INDEX", .count_var = "CLOUD_RUN_TASK_COUNT" },
};
enum { NSOURCES = sizeof sources / sizeof sources[0] };

int sweep_shard_parse_count(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t len = strlen(s);
	if (len == 0 || len > 9 || strspn(s, "0123456789") != len)
		return -1;
	for (; *s; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

int sweep_shard_parse(const char *arg, struct sweep_shard *out)
{
	const char *slash = strchr(arg, '/');
	char head[16];
	struct sweep_shard sh;
	if (strcmp(arg, "none") == 0) {
		*out = (struct sweep_shard){ .index = 0, .count = 1 };
		return 0;
	}
	if (slash == NULL || (size_t)(slash - arg) >= sizeof head)
		return -1;
	memcpy(head, arg, (size_t)(slash - arg));
	head[slash - arg] = '\0';
	if (sweep_shard_parse_count(head, SWEEP_SHARDS_MAX, &sh.index) < 0 ||
	    sweep_shard_parse_count(slash + 1, SWEEP_SHARDS_MAX, &sh.count) < 0 || sh.count == 0 ||
	    sh.index >= sh.count)
		return -1;
	*out = sh;
	return 0;
}

const char *sweep_shard_getenv(const char *name, void *ctx)
{
	(void)ctx;
	return getenv(name);
}

/* One scheduler's pair into *sh: 1 when set and valid, 0 when wholly
 * unset, -1 with err set otherwise. */
static int source_shard(const struct shard_source *src, const char *index, const char *count,
			struct sweep_shard *sh, struct cs_error *err)
{
	char qi[256], qc[256];  /* text_quote shows 60 bytes, each at most 4 wide */
	if (index == NULL && count == NULL)
		return 0;
	text_quote(index != NULL ? index : "", qi, sizeof qi);
	text_quote(count != NULL ? count : "", qc, sizeof qc);
	if (count == NULL)
		return error_set(err, "sweep: %s=%s is set without %s (%s; or give --shard I/N, or --shard none)",
				 src->index_var, qi, src->count_var,
				 src->no_count != NULL ? src->no_count : "the scheduler sets both in an array task");
	if (index == NULL)
		return error_set(err, "sweep: %s=%s is set without %s (%s; or give --shard I/N, or --shard none)",
				 src->count_var, qc, src->index_var,
				 src->no_index != NULL ? src->no_index : "the scheduler sets both in an array task");
	if (sweep_shard_parse_count(count, SWEEP_SHARDS_MAX, &sh->count) < 0 || sh->count == 0)
		return error_set(err, "sweep: %s=%s is not a shard count from 1 to %d", src->count_var, qc,
				 SWEEP_SHARDS_MAX);
	if (sweep_shard_parse_count(index, SWEEP_SHARDS_MAX, &sh->index) < 0 || sh->index >= sh->count) {
		char fix[160] = "";
		if (src->fix != NULL && src->fix_range)
			text_setf(fix, sizeof fix, "%s%" PRIu64 ", or ", src->fix, sh->count - 1);
		else if (src->fix != NULL)
			text_setf(fix, sizeof fix, "%s, or ", src->fix);
		return error_set(err, "sweep: %s=%s is not a shard from 0 to %" PRIu64 " (%s=%s; %sgive --shard I/N)",
				 src->index_var, qi, sh->count - 1, src->count_var, qc, fix);
	}
	return 1;
}

int sweep_shard_from_env(sweep_shard_getenv_fn *get, void *ctx, struct sweep_shard *out,
			 char *said, size_t said_size, struct cs_error *err)
{
	const struct shard_source *first = NULL;
	struct sweep_shard shard = { 0 };
	char first_index[32] = "", first_count[32] = "";  /* valid: at most 9 digits */

	said[0] = '\0';
	for (size_t s = 0; s < NSOURCES; s++) {
		const struct shard_source *src = &sources[s];
		const char *index = get(src->index_var, ctx), *count = get(src->count_var, ctx);
		struct sweep_shard sh;
		int set = source_shard(src, index, count, &sh, err);
		if (set < 0)
			return -1;
		if (set == 0)
			continue;
		if (first != NULL && (sh.index != shard.index || sh.count != shard.count)) {
			char qi[32], qc[32];
			text_quote(index, qi, sizeof qi);
			text_quote(count, qc, sizeof qc);
			return error_set(err, "sweep: two schedulers name different shards: %s=%s and %s=%s (shard %"
					 PRIu64 "/%" PRIu64 ") but %s=%s and %s=%s (shard %" PRIu64 "/%" PRIu64
					 "); give --shard I/N, or --shard none",
					 first->index_var, first_index, first->count_var, first_count, shard.index,
					 shard.count, src->index_var, qi, src->count_var, qc, sh.index, sh.count);
		}
		if (first == NULL) {
			first = src;
			shard = sh;
			text_quote(index, first_index, sizeof first_index);
			text_quote(count, first_count, sizeof first_count);
		}
		text_append_itemf(said, said_size, "; ", "%s and %s", src->index_var, src->count_var);
	}
	if (first == NULL)
		return 0;
	*out = shard;
	return 1;
}
