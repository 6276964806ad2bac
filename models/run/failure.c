#include "failure.h"

#include <gsl/gsl_sf_gamma.h>
#include <string.h>

/* Hours a failed node takes to come back when no spare takes its place:
 * an assumption (drain, diagnose, swap a GPU or board and burn it in within
 * one staffed shift); no published figure was found. */
static const double REPAIR_S = 4 * 3600.0;

static const struct failure_preset presets[] = {
	/* 419 unexpected interruptions in 54 days of pre-training on 16,384
	 * H100 GPUs (Llama Team, "The Llama 3 Herd of Models",
	 * arXiv:2407.21783, sec. 3.3.4, Table 5): per-GPU MTBF
	 * 16,384 x 54 x 24 / 419 = 50,676 h. Meta's job ran with automated
	 * recovery and held capacity, so a failed node is replaced at once
	 * (spares always there). */
	{ "llama3", 16384.0 * 54 * 24 / 419, -1,
	  "Llama 3 (arXiv:2407.21783 sec. 3.3.4, Table 5): 419 interruptions in 54 days on 16,384 H100" },
};

const struct failure_preset *failure_preset(const char *name)
{
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	return NULL;
}

bool failure_resolve(const struct failure_spec *f, const struct cluster_spec *c, struct failure_rates *out)
{
	memset(out, 0, sizeof *out);
	if (!f->enabled)
		return false;
	out->gpu_mtbf_h = f->gpu_mtbf_h;
	out->node_mtbf_h = f->node_mtbf_h;
	out->restart_s = f->restart_s;
	out->spare_nodes = f->spare_nodes;
	out->repair_s = REPAIR_S;
	out->source = "given";
	const struct failure_preset *p = failure_preset(f->preset);
	if (p != NULL) {
		out->gpu_mtbf_h = p->gpu_mtbf_h;
		out->node_mtbf_h = 0;
		out->spare_nodes = p->spare_nodes;
		out->source = p->source;
	}
	double rate_per_h = 0;
	if (out->gpu_mtbf_h > 0)
		rate_per_h += (double)cluster_gpus(c) / out->gpu_mtbf_h;
	if (out->node_mtbf_h > 0)
		rate_per_h += (double)c->nodes / out->node_mtbf_h;
	if (!(rate_per_h > 0))
		return false;
	out->job_mtbf_s = 3600 / rate_per_h;
	if (f->distribution == FAIL_WEIBULL && f->shape > 0 && f->shape != 1.0) {
		double g = gsl_sf_gamma(1 + 1 / f->shape);
		out->shape = f->shape;
		if (out->gpu_mtbf_h > 0) {
			out->units[0] = cluster_gpus(c);
			out->scale_s[0] = out->gpu_mtbf_h * 3600 / g;
		}
		if (out->node_mtbf_h > 0) {
			out->units[1] = c->nodes;
			out->scale_s[1] = out->node_mtbf_h * 3600 / g;
		}
	}
	return true;
}
