#include "models/run/run.h"

void run_fold_data_stall(const struct run_result *out, struct train_result *r)
{
	if (!(out->data_stall_s > 0))
		return;
	double f = r->step_time_s / (r->step_time_s + out->data_stall_s);
	r->step_time_s += out->data_stall_s;
	r->tokens_per_s *= f;
	r->tflops_per_gpu *= f;
	r->mfu *= f;
	r->hfu *= f;
}
