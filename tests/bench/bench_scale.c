/*
 * bench_scale: how one shape's cost grows with its GPUs. Llama 3 70B
 * pre-training on H100 nodes (8 GPUs, 8 x 400G RoCE rails, leaves of 32
 * nodes oversubscribed 2:1 above) with "parallelism": "auto" and the whole
 * run (1T tokens, checkpoints at the Daly interval, failures at the Llama 3
 * rate, 20 Monte Carlo trials), at 1K to 64K GPUs with the global batch at
 * 1,024 tokens a GPU (Llama 3 405B's 16M on 16K). Prints each size's time
 * (best of a few runs) and the log-log least-squares slope of time over GPUs
 * from 1K to 64K: target at most 1.1 (docs/history/performance.md).
 * Figures only. Run from anywhere (the scenario is inline).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"
#include "models/eval/evaluate.h"
#include "models/hw/catalog.h"
#include "models/scenario/jobs.h"
#include "models/scenario/scenario.h"

static const char scenario_fmt[] =
	"{\"name\": \"scale\", \"seed\": 42,"
	" \"workload\": {\"kind\": \"training\", \"model\": \"%s\", \"precision\": \"bf16\","
	" \"seq_len\": 8192, \"global_batch_tokens\": %ld, \"tokens\": 1e12, \"parallelism\": \"auto\","
	" \"checkpoint\": {\"interval_s\": \"auto\", \"tier\": \"pfs\", \"async\": true}, \"failures\": \"llama3\"},"
	" \"candidates\": [{\"name\": \"h100\", \"gpu\": \"H100-SXM\", \"nodes\": %d, \"gpus_per_node\": 8,"
	" \"scale_up\": \"nvlink4\", \"nic\": \"roce-400\", \"nics_per_node\": 8,"
	" \"topology\": {\"kind\": \"rail\", \"oversubscription\": 2, \"nodes_per_leaf\": 32},"
	" \"storage\": [{\"tier\": \"pfs\", \"kind\": \"parallel-fs\", \"aggregate_GBps\": 1000}],"
	" \"price\": {\"usd_per_gpu_hour\": 2.5, \"billing_s\": 3600}}],"
	" \"monte_carlo\": {\"trials\": 20}}";

/* CPU seconds of this process (less moved than wall time by other
 * processes on a shared machine). */
static double cpu_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Wall seconds of one evaluation of the shape of `nodes` nodes (best of
 * reps), its CPU seconds (best of reps) into *cpu_s, the plans tried into
 * *plans; -1 when the scenario does not load. */
static double time_shape(catalog *cat, const char *model, int nodes, int reps, double *cpu_s, int *plans,
			 double *step_s)
{
	char text[2048];
	struct scenario s;
	int len = snprintf(text, sizeof text, scenario_fmt, model, 1024L * 8 * nodes, nodes);
	if (len < 0 || (size_t)len >= sizeof text) {
		fprintf(stderr, "bench_scale: the scenario for model \"%s\" is longer than %zu bytes\n", model,
			sizeof text - 1);
		return -1;
	}
	if (bench_load(cat, text, &s) != 0)
		return -1;
	size_t n;
	struct job *jobs = jobs_from_scenario(&s, false, -1, &n);
	double best = 1e30;
	*cpu_s = 1e30;
	for (int i = 0; i < reps; i++) {
		struct result r;
		double t0 = bench_now_s(), c0 = cpu_now_s();
		evaluate(&jobs[0], &r);
		double dt = bench_now_s() - t0, dc = cpu_now_s() - c0;
		if (dt < best)
			best = dt;
		if (dc < *cpu_s)
			*cpu_s = dc;
		*plans = r.train.plans_tried;
		*step_s = r.train.step_time_s;
	}
	free(jobs);
	scenario_release(&s);
	return best;
}

/* Least-squares slope of y over x. */
static double slope(const double *x, const double *y, int k)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	for (int i = 0; i < k; i++)
		sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i];
	return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

/* bench_scale [REPS [MODEL]]: REPS runs of each size (3), MODEL a catalog
 * model (llama3-70b). */
int main(int argc, char **argv)
{
	struct cs_error err;
	catalog *cat = catalog_new_builtin(&err);
	int reps = argc > 1 ? atoi(argv[1]) : 3;
	const char *model = argc > 2 ? argv[2] : "llama3-70b";
	double lx[8], lwall[8], lcpu[8];
	int k = 0;
	if (cat == NULL || reps < 1)
		return 1;
	printf("%s, \"parallelism\": \"auto\", whole run with 20 trials, best of %d\n", model, reps);
	for (int nodes = 128; nodes <= 8192; nodes *= 2) {
		int plans = 0;
		double step_s = 0, cpu_s = 0;
		double t = time_shape(cat, model, nodes, reps, &cpu_s, &plans, &step_s);
		if (t < 0) {
			catalog_free(cat);
			return 1;
		}
		printf("%6d GPUs: %8.3f s wall, %8.3f s CPU  (%d plans tried, step %.3f s)\n", nodes * 8, t, cpu_s, plans,
		       step_s);
		lx[k] = log((double)nodes * 8), lwall[k] = log(t), lcpu[k] = log(cpu_s);
		k++;
	}
	printf("one shape's time grows like GPUs^%.2f (wall), GPUs^%.2f (CPU) from 1K to 64K GPUs (target: at most 1.1)\n",
	       slope(lx, lwall, k), slope(lx, lcpu, k));
	catalog_free(cat);
	return 0;
}
