#include "runner.h"

#include "models/comm/nccl_tests.h"
#include "models/train/train.h"
#include "output/results.h"

rowset *runner_columns(const struct scenario *s, const struct runner_options *o)
{
	if (o->dry_run)
		return results_shapes_new();
	switch (s->workload.kind) {
	case WORKLOAD_COLLECTIVE:
		return results_collective_new();
	case WORKLOAD_TRAINING:
	case WORKLOAD_FINETUNE:
		return results_training_new();
	default:
		return results_shapes_new();
	}
}

static uint64_t next_row(const struct runner_options *o, uint64_t *counter)
{
	uint64_t r = o->row_id >= 0 ? (uint64_t)o->row_id : *counter;
	(*counter)++;
	return r;
}

int runner_run(const struct scenario *s, const struct runner_options *o, rowset *rs,
	       struct cs_error *err)
{
	uint64_t counter = 0;
	(void)err;
	if (o->dry_run) {
		for (size_t i = 0; i < s->n_candidates; i++)
			results_shape_row(rs, s, i, next_row(o, &counter));
		return 0;
	}
	switch (s->workload.kind) {
	case WORKLOAD_COLLECTIVE:
		for (size_t i = 0; i < s->n_candidates; i++) {
			for (size_t k = 0; k < s->workload.collective.n_bytes; k++) {
				struct nccl_point p;
				nccl_tests_point(&s->candidates[i], &s->workload.collective,
						 s->workload.collective.bytes[k], &p);
				results_collective_row(rs, s, i, next_row(o, &counter), &p);
			}
		}
		return 0;
	case WORKLOAD_TRAINING:
	case WORKLOAD_FINETUNE:
		for (size_t i = 0; i < s->n_candidates; i++) {
			struct train_result r;
			train_evaluate(&s->workload.train, &s->candidates[i], NULL, &r);
			results_training_row(rs, s, i, next_row(o, &counter), &r);
		}
		return 0;
	default:
		for (size_t i = 0; i < s->n_candidates; i++)
			results_shape_row(rs, s, i, next_row(o, &counter));
		return 0;
	}
}
