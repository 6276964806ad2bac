#include "jobs.h"

#include "util/xalloc.h"

static size_t jobs_per_candidate(const struct scenario *s, bool shape_only)
{
	if (!shape_only && s->workload.kind == WORKLOAD_COLLECTIVE)
		return s->workload.collective.n_bytes;
	if (!shape_only && s->workload.kind == WORKLOAD_GEMM)
		return s->workload.gemm.n_shapes;
	return 1;
}

size_t jobs_rows_per_job(const struct scenario *s, bool shape_only)
{
	if (!shape_only && s->workload.kind == WORKLOAD_FLEET)
		return 1 + (size_t)s->workload.fleet->n_teams + (size_t)s->workload.fleet->n_classes;
	return 1;
}

struct job *jobs_from_scenario(const struct scenario *s, bool shape_only, int64_t fixed_row_id,
			       size_t *n)
{
	size_t per = jobs_per_candidate(s, shape_only);
	struct job *jobs = xcalloc(s->n_candidates * per + 1, sizeof *jobs);
	size_t k = 0;

	for (size_t i = 0; i < s->n_candidates; i++) {
		for (size_t b = 0; b < per; b++, k++) {
			struct job *j = &jobs[k];
			j->kind = s->workload.kind;
			j->workload = &s->workload;
			j->cluster = &s->candidates[i];
			j->monte_carlo = &s->monte_carlo;
			j->objective = &s->objective;
			j->scenario = s->name;
			j->seed = s->seed;
			j->row_id = fixed_row_id >= 0 ? (uint64_t)fixed_row_id : (uint64_t)k;
			j->shape_only = shape_only;
			if (!shape_only && s->workload.kind == WORKLOAD_COLLECTIVE)
				j->collective_bytes = s->workload.collective.bytes[b];
			if (!shape_only && s->workload.kind == WORKLOAD_GEMM)
				j->gemm_shape = b;
		}
	}
	*n = k;
	return jobs;
}
