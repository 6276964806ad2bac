/*
 * bench_training: the speed of the training model.
 * - one step of Llama 3 405B on 16,384 H100s (tp 8, pp 16, cp 1, dp 128),
 *   default (representative) mode: target under 1 second;
 * - the plan search for a 70B model on 64 GPUs: target under 10 seconds;
 * - one step in full mode (every rank's traffic as flows) on 1,024 GPUs.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchutil.h"
#include "models/scenario/scenario.h"
#include "models/train/train.h"

static void bench(catalog *cat, const char *label, const char *text, int reps)
{
	struct scenario s;
	struct train_result r;
	double best = 1e9;
	if (bench_load(cat, text, &s) != 0)
		return;
	for (int i = 0; i < reps; i++) {
		double t0 = bench_now_s();
		train_evaluate(&s.workload.train, &s.candidates[0], NULL, &r);
		double dt = bench_now_s() - t0;
		if (dt < best)
			best = dt;
	}
	printf("%-44s %9.2f ms   status %s, plans %d, step %.3f s, %.0f TFLOP/s per GPU\n", label, best * 1e3,
	       outcome_names[r.status], r.plans_tried, r.step_time_s, r.tflops_per_gpu);
	scenario_release(&s);
}

int main(void)
{
	struct cs_error err;
	catalog *cat = catalog_new_builtin(&err);
	if (cat == NULL)
		return 1;
	printf("%-44s %12s\n", "benchmark", "time");
	bench(cat, "Llama 3 405B step, 16,384 H100, default mode",
	      "{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-405b\", \"seq_len\": 8192,"
	      " \"global_batch_tokens\": 16777216, \"parallelism\": {\"tp\": 8, \"pp\": 16, \"vpp\": 1, \"cp\": 1,"
	      " \"ep\": 1, \"zero\": 2, \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"none\","
	      " \"sequence_parallel\": true}}, \"candidates\": [{\"gpu\": \"H100-SXM\", \"nodes\": 2048,"
	      " \"nic\": \"roce-400\", \"topology\": {\"kind\": \"rail\", \"oversubscription\": 7, \"nodes_per_leaf\": 384}}]}", 3);
	bench(cat, "plan search, Llama 3 70B on 64 H100",
	      "{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-70b\", \"seq_len\": 8192,"
	      " \"global_batch_tokens\": 4194304, \"parallelism\": \"auto\"},"
	      " \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 8}]}", 1);
	bench(cat, "Llama 3 70B step, 1,024 H100, full mode",
	      "{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-70b\", \"seq_len\": 8192, \"mode\": \"full\","
	      " \"global_batch_tokens\": 16777216, \"parallelism\": {\"tp\": 8, \"pp\": 4, \"vpp\": 5, \"cp\": 1,"
	      " \"ep\": 1, \"zero\": 1, \"micro_batch\": 1, \"schedule\": \"interleaved\", \"recompute\": \"selective\","
	      " \"sequence_parallel\": true}}, \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 128}]}", 1);
	catalog_free(cat);
	return 0;
}
