#include "models/eval/eval_kind.h"

/* One message size of an nccl-tests style sweep on the candidate. */
void eval_collective(const struct job *j, struct result *out)
{
	nccl_tests_point(j->cluster, &j->workload->collective, j->collective_bytes, &out->collective);
	out->outcome = out->collective.outcome;
	evaluate_note_calibration(j, out, true);
}
