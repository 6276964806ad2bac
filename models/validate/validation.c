#include "validation.h"

#include <stdio.h>
#include <string.h>

#include "models/comm/nccl_tests.h"
#include "models/train/train.h"

bool validation_predict(const struct scenario *s, double *out, char *why, size_t size)
{
	const struct validation_spec *v = &s->validation;
	const struct cluster_spec *c = &s->candidates[0];
	if (s->workload.kind == WORKLOAD_COLLECTIVE) {
		struct nccl_point p;
		nccl_tests_point(c, &s->workload.collective, s->workload.collective.bytes[0], &p);
		if (!p.ok) {
			snprintf(why, size, "%s", p.reason);
			return false;
		}
		if (strcmp(v->metric, "busbw_GBps") == 0)
			*out = p.busbw_bytes_per_s / 1e9;
		else if (strcmp(v->metric, "busbw_per_nic_GBps") == 0)
			*out = p.busbw_bytes_per_s / 1e9 / (c->nics_per_node > 0 ? c->nics_per_node : 1);
		else if (strcmp(v->metric, "algbw_GBps") == 0)
			*out = p.algbw_bytes_per_s / 1e9;
		else if (strcmp(v->metric, "time_us") == 0)
			*out = p.time_s * 1e6;
		else {
			snprintf(why, size, "metric %s does not apply to a collective", v->metric);
			return false;
		}
		return true;
	}
	if (s->workload.kind == WORKLOAD_TRAINING || s->workload.kind == WORKLOAD_FINETUNE) {
		struct train_result r;
		train_evaluate(&s->workload.train, c, NULL, &r);
		if (r.status != TRAIN_OK) {
			snprintf(why, size, "%s: %s", train_status_names[r.status], r.reason);
			return false;
		}
		if (strcmp(v->metric, "tflops_per_gpu") == 0)
			*out = r.tflops_per_gpu;
		else if (strcmp(v->metric, "mfu") == 0)
			*out = r.mfu;
		else if (strcmp(v->metric, "hfu") == 0)
			*out = r.hfu;
		else if (strcmp(v->metric, "step_time_s") == 0)
			*out = r.step_time_s;
		else if (strcmp(v->metric, "tokens_per_s") == 0)
			*out = r.tokens_per_s;
		else if (strcmp(v->metric, "samples_per_s") == 0)
			*out = r.tokens_per_s / s->workload.train.seq_len;
		else {
			snprintf(why, size, "metric %s does not apply to training", v->metric);
			return false;
		}
		return true;
	}
	snprintf(why, size, "workload kind %s is not validated yet", workload_kind_names[s->workload.kind]);
	return false;
}
