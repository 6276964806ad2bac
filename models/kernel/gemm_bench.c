#include "gemm_bench.h"

#include <string.h>

#include "models/kernel/roofline.h"

void gemm_bench_point(const struct gpu_spec *g, enum precision pr, double m, double n, double k,
		      struct gemm_point *p)
{
	memset(p, 0, sizeof *p);
	p->outcome.status = OUTCOME_OK;
	p->m = m;
	p->n = n;
	p->k = k;
	p->precision = pr;
	p->flops = 2 * m * n * k;
	if (!(g->peak_flops[pr] > 0)) {
		outcome_set(&p->outcome, OUTCOME_UNSUPPORTED, "%s has no %s tensor rate in the catalog",
			    g->id.name, precision_names[pr]);
		return;
	}
	/* A benchmark GEMM is the MAMF measurement itself: its large-shape
	 * rate is peak x mamf, without training's in-step GEMM factor
	 * (roofline_default_gemm_factor). HBM efficiency and the launch are the
	 * roofline's global ones. */
	struct kernel_calibration cal = { .gemm_efficiency = g->mamf[pr], .launch_s = -1 };
	struct roofline r;
	roofline_init(&r, g, pr, &cal);
	p->peak_flops_per_s = r.peak_flops_per_s;
	p->mamf = r.gemm_efficiency;
	p->shape_efficiency = roofline_gemm_shape_efficiency(&r, m, n, k);
	p->time_s = roofline_gemm_tiled_s(&r, m, n, k);
	p->flops_per_s = p->flops / p->time_s;
	double compute_s = p->flops / (r.peak_flops_per_s * r.gemm_efficiency * p->shape_efficiency);
	p->hbm_bound = p->time_s - r.launch_s > compute_s * (1 + 1e-12);
}
