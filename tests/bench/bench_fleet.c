/*
 * bench_fleet: the speed of the fleet's scheduler simulation. 1,000 nodes
 * of 8 GPUs, 120 h of Poisson arrivals of three stated-duration classes
 * (1 GPU for 1 h at 1,600/h, 8 GPUs for 4 h at 75/h, 64 GPUs for 12 h at
 * 3.125/h: about 200,000 jobs, 80% of the GPUs offered), leaves of 32
 * nodes, under each policy; the same at 99% offered (queues form); then the same with exponential durations and
 * node failures. Target: at least 100,000 jobs simulated per second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"
#include "models/fleet/fleet_sim.h"

static void add(struct fleet_spec *sp, const char *team, int gpus, double rate, double mean_s, int prio)
{
	struct fleet_class *c = &sp->classes[sp->n_classes++];
	memset(c, 0, sizeof *c);
	snprintf(c->name, sizeof c->name, "%dgpu", gpus);
	snprintf(c->team, sizeof c->team, "%s", team);
	c->rate_per_h = rate;
	c->gpus = gpus;
	c->priority = prio;
	c->duration = (struct fleet_duration){ .dist = FLEET_DUR_EXPONENTIAL, .mean_s = mean_s };
	c->estimate_factor = 1;
}

static void bench(const char *what, struct fleet_spec *sp, const double *stated, int reps)
{
	struct fleet_sim_config cfg = { .spec = sp, .nodes = 1000, .gpus_per_node = 8, .domain_gpus = 8,
					.nodes_per_leaf = 32, .class_duration_s = stated, .usd_per_gpu_hour = 2,
					.seed = 42 };
	struct fleet_metrics m;
	char reason[256];
	double best = 1e9;
	for (int i = 0; i < reps; i++) {
		double t0 = bench_now_s();
		if (fleet_sim_run(&cfg, &m, reason, sizeof reason) != 0) {
			printf("%s: %s\n", what, reason);
			return;
		}
		double dt = bench_now_s() - t0;
		if (dt < best)
			best = dt;
	}
	double jobs = (double)m.fleet.jobs_submitted;
	printf("%-34s %7.0f jobs %5.3f s  %6.0f k jobs/s  %5.2f M events/s  util %.3f  wait P50/P90 %.2f/%.2f h  "
	       "frag %.3f  preempt %ld  fail %ld\n",
	       what, jobs, best, jobs / best / 1e3, (double)m.events / best / 1e6, m.utilization, m.fleet.wait_h.p50,
	       m.fleet.wait_h.p90, m.fragmentation, m.preemptions, m.failures);
}

int main(void)
{
	static struct fleet_spec sp;
	const double stated[] = { 3600, 4 * 3600, 12 * 3600 };
	sp.duration_h = 120;
	sp.warmup_h = 0;
	add(&sp, "inference", 1, 1600, 3600, 0);
	add(&sp, "finetune", 8, 75, 4 * 3600, 1);
	add(&sp, "pretrain", 64, 3.125, 12 * 3600, 2);
	static const char *names[] = { "fifo", "sjf", "priority", "backfill" };
	char what[64];
	for (int p = 0; p < 4; p++) {
		sp.policy = (enum fleet_policy)p;
		snprintf(what, sizeof what, "stated, %s", names[p]);
		bench(what, &sp, stated, 3);
	}
	sp.policy = FLEET_PRIORITY;
	sp.preemption = true;
	bench("stated, priority + preemption", &sp, stated, 3);
	sp.preemption = false;
	/* 99% offered: queues form, backfill and the reservations work */
	for (int c = 0; c < sp.n_classes; c++)
		sp.classes[c].rate_per_h *= 0.99 / 0.8;
	for (int p = 0; p < 4; p++) {
		sp.policy = (enum fleet_policy)p;
		snprintf(what, sizeof what, "stated, 99%% load, %s", names[p]);
		bench(what, &sp, stated, 3);
	}
	sp.policy = FLEET_PRIORITY;
	sp.preemption = true;
	bench("stated, 99% load, priority + preempt", &sp, stated, 3);
	sp.preemption = false;
	for (int c = 0; c < sp.n_classes; c++)
		sp.classes[c].rate_per_h *= 0.8 / 0.99;
	sp.policy = FLEET_BACKFILL;
	sp.failures.enabled = true;
	sp.failures.gpu_mtbf_h = 16384.0 * 54 * 24 / 419; /* the llama3 preset's per-GPU MTBF */
	sp.failures.restart_s = 600;
	bench("exponential + failures, backfill", &sp, NULL, 3);
	return 0;
}
