/*
 * bench_run: 100 Monte Carlo trials of a 54-day run on 16,384 GPUs with
 * the llama3 failure rate (about 419 failures a trial), a 10 s
 * asynchronous checkpoint at the Daly interval (about 10,000 a trial) and
 * a 3 min restart. Target: under 1 s (docs/history/performance.md).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"
#include "models/run/ckpt.h"
#include "models/run/run.h"

int main(void)
{
	struct run_model m;
	memset(&m, 0, sizeof m);
	m.step_s = 10;
	m.steps = 54 * 86400.0 / 10;
	m.br.compute = 10;
	m.job_mtbf_s = 3600 * (16384.0 * 54 * 24 / 419) / 16384;
	m.stall_s = 10;
	m.write_s = 60;
	m.interval_s = fmax(ckpt_daly_s(m.stall_s, m.job_mtbf_s), m.write_s);
	m.restart_s = 180;
	m.read_s = 60;
	m.spare_nodes = -1;
	struct run_trials t = { 42, 0, 100 };
	struct run_result r;
	memset(&r, 0, sizeof r);
	double t0 = bench_now_s();
	run_simulate(&m, &t, 16384, &r);
	double dt = bench_now_s() - t0;
	printf("100 trials, 54 days, 16384 GPUs, llama3: %.3f s (%.1f failures a trial, ETTR %.4f, P50 %.2f d, P90 %.2f d)\n",
	       dt, r.failures_mean, r.ettr, r.wall_time_p50_s / 86400, r.wall_time_p90_s / 86400);
	return 0;
}
