#include "models/eval/eval_kind.h"

/* One shape of a gemm workload on the candidate's GPU (one GPU: a GEMM
 * benchmark runs on one). */
void eval_gemm(const struct job *j, struct result *out)
{
	const struct gemm_spec *g = &j->workload->gemm;
	size_t i = j->gemm_shape;
	gemm_bench_point(&j->cluster->gpu, j->workload->model.precision, g->m[i], g->n[i], g->k[i], &out->gemm);
	out->outcome = out->gemm.outcome;
	if (out->outcome.status == OUTCOME_OK) {
		evaluate_note_assumed_rates(j, out);
		evaluate_note_calibration(j, out, false);  /* one GPU: no fabric */
	}
}
