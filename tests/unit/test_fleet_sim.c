/* The fleet's scheduler simulation against closed forms and conservation
 * laws: Erlang C on c GPUs, Little's law, GPU-hours conserved, gangs never
 * short of GPUs, placement inside scale-up domains, EASY backfill never
 * delaying the head, the queueing-theory order of FIFO, SJF and backfill,
 * preemption's lost work, node failures at their renewal rate, seeds. */
#include "testutil.h"

#include <string.h>

#include "models/fleet/fleet_load.h"
#include "models/fleet/fleet_place.h"
#include "models/fleet/fleet_sim.h"
#include "sim/time.h"

static struct fleet_spec *spec_new(enum fleet_policy policy, double duration_h, double warmup_h)
{
	struct fleet_spec *sp = calloc(1, sizeof *sp);
	sp->policy = policy;
	sp->duration_h = duration_h;
	sp->warmup_h = warmup_h;
	return sp;
}

static struct fleet_class *add_class(struct fleet_spec *sp, const char *team, int gpus, double rate_per_h,
				     struct fleet_duration d)
{
	struct fleet_class *c = &sp->classes[sp->n_classes++];
	memset(c, 0, sizeof *c);
	snprintf(c->name, sizeof c->name, "c%d", sp->n_classes - 1);
	snprintf(c->team, sizeof c->team, "%s", team);
	c->arrival = FLEET_ARRIVAL_POISSON;
	c->rate_per_h = rate_per_h;
	c->gpus = gpus;
	c->duration = d;
	c->estimate_factor = 1;
	return c;
}

static struct fleet_duration expo(double mean_s)
{
	return (struct fleet_duration){ .dist = FLEET_DUR_EXPONENTIAL, .mean_s = mean_s };
}

static struct fleet_sim_config config(const struct fleet_spec *sp, int nodes, int gpn, uint64_t seed)
{
	return (struct fleet_sim_config){ .spec = sp, .nodes = nodes, .gpus_per_node = gpn, .domain_gpus = gpn,
					  .seed = seed, .row_id = 0 };
}

static void run_ok(const struct fleet_sim_config *cfg, struct fleet_metrics *m)
{
	char reason[256] = "";
	int rc = fleet_sim_run(cfg, m, reason, sizeof reason);
	if (rc != 0)
		print_error("fleet_sim_run: %s\n", reason);
	assert_int_equal(rc, 0);
}

/* Erlang C by its textbook sum (small c only), to check the recursion. */
static double erlang_c_sum(int c, double a)
{
	double term = 1, sum = 0;
	for (int k = 0; k < c; k++) {
		sum += term;
		term *= a / (k + 1);
	}
	double last = term * c / (c - a);
	return last / (sum + last);
}

static void test_erlang_c(void **state)
{
	(void)state;
	/* M/M/1: an arrival waits with probability rho */
	assert_close(fleet_erlang_c(1, 0.7), 0.7, 1e-12);
	assert_close(fleet_erlang_c(8, 6), erlang_c_sum(8, 6), 1e-12);
	assert_close(fleet_erlang_c(20, 15.5), erlang_c_sum(20, 15.5), 1e-12);
	/* c = 2000: the sum would overflow a double; the recursion stays in (0, 1) */
	double c = fleet_erlang_c(2000, 1950);
	assert_true(c > 0 && c < 1);
	assert_close(fleet_erlang_c(4, 0), 0, 1e-12);
}

/* M/M/8: 1-GPU jobs (the gang rule never binds) on one node of 8 GPUs,
 * Poisson arrivals at 6/h, exponential durations of mean 1 h, FIFO. The
 * mean wait is W = C(8, 6) / (8 mu - lambda) = C(8, 6) / 2 h. Eight
 * independent seeds of 4,000 h (about 24,000 jobs each): their mean must lie
 * within 4 standard errors of W, and that error must be under 5% of W, so
 * the test can fail. Little's law on the same runs: the time-mean number of
 * jobs in the system over the window equals the counted arrival rate times
 * the mean JCT, to within the jobs that straddle the window's edges (1%). */
static void test_mmc_erlang_and_little(void **state)
{
	(void)state;
	enum { REPS = 8 };
	const double lambda = 6, hours = 4000, warm = 100;
	double w_theory = fleet_erlang_c(8, 6) / (8 * 1.0 - lambda);
	double sum = 0, sum2 = 0;
	size_t cap = 40000;
	struct fleet_job_record *rec = calloc(cap, sizeof *rec);
	for (int r = 0; r < REPS; r++) {
		struct fleet_spec *sp = spec_new(FLEET_FIFO, hours, warm);
		add_class(sp, "a", 1, lambda, expo(3600));
		struct fleet_sim_config cfg = config(sp, 1, 8, 1000 + (uint64_t)r);
		cfg.records = rec;
		cfg.n_records = cap;
		struct fleet_metrics m;
		run_ok(&cfg, &m);
		assert_true(m.fleet.jobs_done == m.fleet.jobs_submitted);
		assert_true((size_t)m.fleet.jobs_submitted < cap);
		double w = m.fleet.wait_h.mean;
		sum += w;
		sum2 += w * w;
		/* Little's law on the window [warm, hours] */
		double area_h = 0;
		long counted = 0;
		for (size_t i = 0; i < cap && rec[i].gpus > 0; i++) {
			double a = fmax(rec[i].submit_s / 3600, warm), b = fmin(rec[i].end_s / 3600, hours);
			if (b > a)
				area_h += b - a;
			counted += rec[i].submit_s >= warm * 3600;
		}
		double l_mean = area_h / (hours - warm);
		double lambda_hat = (double)counted / (hours - warm);
		assert_close(l_mean, lambda_hat * m.fleet.jct_h.mean, 0.01);
		/* and the measured rate is the offered one within 4 Poisson sd */
		assert_close_abs(lambda_hat, lambda, 4 * sqrt(lambda / (hours - warm)));
		/* utilization: offered load / c, within 3% */
		assert_close(m.utilization, lambda / 8, 0.03);
		memset(rec, 0, cap * sizeof *rec);
		free(sp);
	}
	double mean = sum / REPS, var = (sum2 - REPS * mean * mean) / (REPS - 1);
	double se = sqrt(var / REPS);
	print_message("M/M/8 mean wait %.4f h (se %.4f), Erlang C %.4f h\n", mean, se, w_theory);
	assert_true(se < 0.05 * w_theory);
	assert_true(fabs(mean - w_theory) <= 4 * se);
	free(rec);
}

/* GPU-hours are conserved: the sum over jobs of GPUs x their run time
 * inside the window is the allocated GPU-hours; busy <= allocated <= held;
 * the teams' GPU-hours add up to the fleet's and their dollars to the
 * held GPU-hours' price; every gang got all its GPUs, whole nodes when it
 * spans nodes, one NVL72 domain when it fits one; the utilization series
 * averages to the utilization over the window. */
static void test_conservation_and_gangs(void **state)
{
	(void)state;
	struct fleet_spec *sp = spec_new(FLEET_BACKFILL, 500, 50);
	add_class(sp, "research", 64, 0.1, expo(6 * 3600));
	add_class(sp, "research", 8, 2, expo(2 * 3600));
	add_class(sp, "product", 2, 6, expo(3600));
	add_class(sp, "product", 144, 0.05, expo(3 * 3600));
	/* 36 NVL72-like nodes: 4 GPUs each, domains of 18 nodes, leaves of 9 */
	struct fleet_sim_config cfg = config(sp, 36, 4, 7);
	cfg.domain_gpus = 72;
	cfg.nodes_per_leaf = 9;
	cfg.usd_per_gpu_hour = 2.5;
	size_t cap = 20000;
	struct fleet_job_record *rec = calloc(cap, sizeof *rec);
	cfg.records = rec;
	cfg.n_records = cap;
	double series[12], busy[12], queued[12], end_s = -1;
	cfg.util_series = series;
	cfg.busy_series = busy;
	cfg.queued_series = queued;
	cfg.n_series = 12;
	cfg.series_step_h = 50;
	cfg.end_s = &end_s;
	struct fleet_metrics m;
	run_ok(&cfg, &m);
	/* the series' buckets 1..9 are the window [50 h, 500 h]: their mean is the utilization */
	double su = 0;
	for (int k = 1; k <= 9; k++) {
		assert_true(series[k] >= 0 && series[k] <= 1 + 1e-12);
		su += series[k] / 9;
	}
	assert_close(su, m.utilization, 1e-9);
	/* no failures, no preemptions: busy is allocated in every bucket */
	for (int k = 0; k < 12; k++)
		assert_close_abs(busy[k], series[k], 1e-12);
	assert_true(end_s >= 500 * 3600.0);
	double sum = 0, w0 = 50 * 3600.0, w1 = 500 * 3600.0, queued_h = 0, waits_h = 0;
	for (int k = 0; k < 12; k++)
		queued_h += queued[k] * 50;
	long short_gangs = 0, n = 0, out_of_domain = 0;
	for (size_t i = 0; i < cap && rec[i].gpus > 0; i++, n++) {
		assert_true(rec[i].end_s >= 0);
		assert_int_equal(rec[i].preemptions + rec[i].failures, 0);
		double a = fmax(rec[i].start_s, w0), b = fmin(rec[i].end_s, w1);
		if (b > a)
			sum += rec[i].gpus * (b - a) / 3600;
		short_gangs += rec[i].gpus_placed != rec[i].gpus;
		/* the time it waited inside the series' 600 h */
		waits_h += fmax(0, fmin(rec[i].first_start_s, 600 * 3600.0) - fmin(rec[i].submit_s, 600 * 3600.0)) / 3600;
		if (rec[i].gpus >= 4)
			short_gangs += rec[i].nodes_spanned * 4 != rec[i].gpus;
		if (rec[i].gpus <= 72)
			out_of_domain += rec[i].domains_spanned != 1;
	}
	assert_true(n > 3000 && (size_t)n < cap);
	assert_int_equal(short_gangs, 0);
	assert_int_equal(out_of_domain, 0);
	assert_close(sum, m.allocated_gpu_hours, 1e-9);
	/* the queue series integrates the jobs waiting: the sum of the waits inside it */
	assert_true(waits_h > 1);
	assert_close(queued_h, waits_h, 1e-9);
	/* the classes' GPU-hours (and dollars) add up to the fleet's too */
	assert_int_equal(m.n_classes, 4);
	double cgh = 0, cusd = 0;
	long cdone = 0;
	for (int k = 0; k < 4; k++) {
		cgh += m.classes[k].gpu_hours;
		cusd += m.classes[k].usd;
		cdone += m.classes[k].jobs_done;
	}
	assert_close(cgh, m.allocated_gpu_hours, 1e-12);
	assert_close(cusd, 2.5 * m.held_gpu_hours, 1e-12);
	assert_int_equal(cdone, m.fleet.jobs_done);
	assert_string_equal(m.classes[2].cls, "c2");
	assert_string_equal(m.classes[2].team, "product");
	assert_close(m.held_gpu_hours, 36 * 4 * 450.0, 1e-12);
	assert_true(m.busy_gpu_hours <= m.allocated_gpu_hours * (1 + 1e-12));
	assert_true(m.allocated_gpu_hours <= m.held_gpu_hours);
	assert_true(m.utilization <= 1 && m.utilization > 0.3);
	assert_close(m.busy_gpu_hours, m.allocated_gpu_hours, 1e-12); /* no failures: nothing lost */
	assert_close(m.idle_gpu_hours, m.held_gpu_hours - m.allocated_gpu_hours, 1e-12);
	assert_int_equal(m.n_teams, 2);
	assert_close(m.teams[0].gpu_hours + m.teams[1].gpu_hours, m.allocated_gpu_hours, 1e-12);
	assert_close(m.teams[0].usd + m.teams[1].usd, 2.5 * m.held_gpu_hours, 1e-12);
	assert_close(m.fleet.usd, 2.5 * m.held_gpu_hours, 1e-12);
	assert_true(m.fragmentation >= 0 && m.fragmentation <= 1);
	free(rec);
	free(sp);
}

/* The same fleet with node failures: the fleet never holds more than it
 * has, busy time is allocated time minus what failures threw away, and
 * the failures come at each node's renewal rate, 1 / (MTBF + repair):
 * 40 nodes of MTBF 200 h out 4 h each time over the run's length, within 4
 * Poisson standard deviations. */
static void test_failures(void **state)
{
	(void)state;
	struct fleet_spec *sp = spec_new(FLEET_FIFO, 2000, 0);
	add_class(sp, "a", 8, 3, expo(3 * 3600));
	sp->failures.enabled = true;
	sp->failures.node_mtbf_h = 200;
	sp->failures.restart_s = 600;
	sp->failures.spare_nodes = 0;
	struct fleet_sim_config cfg = config(sp, 40, 8, 3);
	double ck = 1800;
	cfg.class_checkpoint_interval_s = &ck;
	size_t cap = 10000;
	struct fleet_job_record *rec = calloc(cap, sizeof *rec);
	cfg.records = rec;
	cfg.n_records = cap;
	struct fleet_metrics m;
	run_ok(&cfg, &m);
	double expect = 40 * m.makespan_h / (200 + 4);
	assert_close_abs((double)m.failures, expect, 4 * sqrt(expect));
	assert_true(m.busy_gpu_hours < m.allocated_gpu_hours);
	assert_true(m.allocated_gpu_hours <= m.held_gpu_hours);
	assert_int_equal(m.fleet.jobs_done, m.fleet.jobs_submitted);
	/* lost work: under one checkpoint interval per stop, and the busy GPU
	 * time is what the jobs needed */
	double lost = 0;
	long stops = 0;
	for (size_t i = 0; i < cap && rec[i].gpus > 0; i++) {
		stops += rec[i].failures;
		lost += rec[i].lost_s;
		assert_true(rec[i].lost_s <= ck * (double)rec[i].failures + 1e-6);
		assert_int_equal(rec[i].gpus_placed, 8);
	}
	assert_true(stops > 0 && stops <= m.failures);
	assert_true(lost > 0);
	free(rec);
	free(sp);
}

static struct fleet_job job(double submit_s, int gpus, double duration_s)
{
	return (struct fleet_job){ .cls = 0, .team = 0, .submit_s = submit_s, .gpus = gpus, .duration_s = duration_s,
				   .estimate_s = duration_s, .trace_wait_s = -1 };
}

/* EASY backfill never delays the head. Four nodes of 8 GPUs: A (3 nodes,
 * 10 h) runs; H (4 nodes) waits for A: its reservation is 10 h. B (1 node,
 * 20 h) fits now on the free node, and a greedy backfill would start it and
 * push H to 20 h; C (1 node, 5 h) ends before the reservation. So C starts
 * at once, B does not, and H starts exactly at its reservation. With five
 * nodes H needs only four at the reservation, so B may take the fifth. */
/* A job that starts at its submission waits exactly 0, whatever its
 * submission time (waits are taken on the engine's nanosecond clock, not
 * as the difference of two doubles, which left ~1e-15 h); one that waits
 * behind another waits exactly the other's remaining time. */
static void test_zero_wait_exact(void **state)
{
	(void)state;
	struct fleet_spec *sp = spec_new(FLEET_FIFO, 100, 0);
	add_class(sp, "a", 8, 0, expo(1));
	add_class(sp, "b", 16, 0, expo(1));
	/* A (one node) at an instant no double holds exactly; B (both nodes)
	 * waits for A's end; D (one node) comes after B's end and waits 0 */
	struct fleet_job jobs[] = { job(1234.567891234, 8, 3600.123456789), job(2000.5, 16, 100),
				    job(7777.7777777, 8, 50) };
	jobs[1].cls = 1;
	jobs[1].team = 1;
	struct fleet_sim_config cfg = config(sp, 2, 8, 1);
	cfg.jobs = jobs;
	cfg.n_jobs = 3;
	struct fleet_metrics m;
	run_ok(&cfg, &m);
	assert_int_equal(m.classes[0].jobs_done, 2);
	assert_true(m.teams[0].wait_h.p50 == 0.0 && m.teams[0].wait_h.p99 == 0.0);
	assert_true(m.classes[0].wait_h.mean == 0.0 && m.classes[0].wait_h.p99 == 0.0);
	/* B waits from 2000.5 s to A's end, 1234.567891234 + 3600.123456789 s */
	assert_close(m.classes[1].wait_h.p50, (1234.567891234 + 3600.123456789 - 2000.5) / 3600, 1e-12);
	assert_close(m.classes[1].jct_h.p50, (1234.567891234 + 3600.123456789 + 100 - 2000.5) / 3600, 1e-12);
	assert_string_equal(m.classes[1].team, "b");
	assert_string_equal(m.classes[1].cls, "c1");
	free(sp);
}

static void test_backfill_never_delays_head(void **state)
{
	(void)state;
	struct fleet_spec *sp = spec_new(FLEET_BACKFILL, 100, 0);
	add_class(sp, "a", 8, 0, expo(1));
	struct fleet_job jobs[] = { job(0, 24, 36000), job(60, 32, 3600), job(120, 8, 72000), job(180, 8, 18000) };
	struct fleet_job_record rec[4];
	struct fleet_sim_config cfg = config(sp, 4, 8, 1);
	cfg.jobs = jobs;
	cfg.n_jobs = 4;
	cfg.records = rec;
	cfg.n_records = 4;
	struct fleet_metrics m;
	run_ok(&cfg, &m);
	assert_close(rec[1].reservation_s, 36000, 1e-12);
	assert_close(rec[1].first_start_s, 36000, 1e-12);
	assert_close(rec[3].first_start_s, 180, 1e-12);      /* C backfilled */
	assert_close(rec[2].first_start_s, 39600, 1e-12);    /* B after H */

	/* FIFO: C waits behind H too */
	sp->policy = FLEET_FIFO;
	run_ok(&cfg, &m);
	assert_close(rec[1].first_start_s, 36000, 1e-12);
	assert_close(rec[3].first_start_s, 39600, 1e-12);

	/* five nodes: B on the node H will not need */
	sp->policy = FLEET_BACKFILL;
	cfg.nodes = 5;
	run_ok(&cfg, &m);
	assert_close(rec[2].first_start_s, 120, 1e-12);
	assert_close(rec[1].first_start_s, 36000, 1e-12);
	assert_close(rec[1].reservation_s, 36000, 1e-12);
	assert_close(rec[3].first_start_s, 180, 1e-12);
	free(sp);
}

/* A heavy-tailed mix (lognormal durations, sd three times the mean) of
 * 1-node and 8-node jobs on 16 nodes at about 55% load: queueing theory
 * orders the mean waits SJF < FIFO (shortest first minimises the mean wait
 * of a non-preemptive queue) and EASY backfill < FIFO (it only adds
 * starts that delay no reservation). */
static void test_policy_order(void **state)
{
	(void)state;
	double wait[4];
	for (int p = 0; p < 4; p++) {
		struct fleet_spec *sp = spec_new((enum fleet_policy)p, 3000, 100);
		struct fleet_duration ln1 = { .dist = FLEET_DUR_LOGNORMAL, .mean_s = 2 * 3600, .sd_s = 6 * 3600,
					      .min_s = 60, .max_s = 100 * 3600 };
		struct fleet_duration ln8 = ln1;
		ln8.mean_s = 4 * 3600;
		ln8.sd_s = 12 * 3600;
		add_class(sp, "a", 8, 2.2, ln1);
		add_class(sp, "b", 64, 0.14, ln8);
		struct fleet_sim_config cfg = config(sp, 16, 8, 11);
		struct fleet_metrics m;
		run_ok(&cfg, &m);
		assert_int_equal(m.fleet.jobs_done, m.fleet.jobs_submitted);
		wait[p] = m.fleet.wait_h.mean;
		free(sp);
	}
	print_message("mean wait h: fifo %.3f sjf %.3f priority %.3f backfill %.3f\n", wait[FLEET_FIFO],
		      wait[FLEET_SJF], wait[FLEET_PRIORITY], wait[FLEET_BACKFILL]);
	assert_true(wait[FLEET_SJF] < wait[FLEET_FIFO]);
	assert_true(wait[FLEET_BACKFILL] < wait[FLEET_FIFO]);
	/* one priority for all: the priority policy is FIFO */
	assert_close(wait[FLEET_PRIORITY], wait[FLEET_FIFO], 1e-12);
}

/* Preemption: L (priority 0, the whole node, 10 h, checkpoints every hour,
 * restart 10 min) runs; H (priority 1, the whole node, 2 h) arrives at
 * 2.5 h and starts at once by preempting L, which loses the half hour since
 * its checkpoint at 2 h, restarts when H ends, pays the restart, and does
 * its last 8 h. Without checkpoints it loses all 2.5 h. */
static void test_preemption(void **state)
{
	(void)state;
	struct fleet_spec *sp = spec_new(FLEET_PRIORITY, 100, 0);
	sp->preemption = true;
	add_class(sp, "a", 8, 0, expo(1));
	struct fleet_job jobs[] = { job(0, 8, 36000), job(9000, 8, 7200) };
	jobs[0].checkpoint_interval_s = 3600;
	jobs[0].restart_s = 600;
	jobs[1].priority = 1;
	struct fleet_job_record rec[2];
	struct fleet_sim_config cfg = config(sp, 1, 8, 1);
	cfg.jobs = jobs;
	cfg.n_jobs = 2;
	cfg.records = rec;
	cfg.n_records = 2;
	struct fleet_metrics m;
	run_ok(&cfg, &m);
	assert_int_equal(m.preemptions, 1);
	assert_close(rec[1].first_start_s, 9000, 1e-12);
	assert_int_equal(rec[0].preemptions, 1);
	assert_close(rec[0].lost_s, 1800, 1e-9);
	assert_close(rec[0].start_s, 16200, 1e-12);
	assert_close(rec[0].end_s, 16200 + 600 + 28800, 1e-12);
	assert_close(m.busy_gpu_hours, 8 * (36000 + 7200) / 3600.0, 1e-12);
	assert_close(m.allocated_gpu_hours - m.busy_gpu_hours, 8 * (1800 + 600) / 3600.0, 1e-9);

	jobs[0].checkpoint_interval_s = 0;
	run_ok(&cfg, &m);
	assert_close(rec[0].lost_s, 9000, 1e-9);
	assert_close(rec[0].end_s, 16200 + 600 + 36000, 1e-12);

	/* no preemption: H waits for L */
	sp->preemption = false;
	run_ok(&cfg, &m);
	assert_close(rec[1].first_start_s, 36000, 1e-12);
	assert_int_equal(m.preemptions, 0);
	free(sp);
}

/* Per-team quota under priority: team a may hold at most half the GPUs
 * while team b waits. */
static void test_quota(void **state)
{
	(void)state;
	struct fleet_spec *sp = spec_new(FLEET_PRIORITY, 100, 0);
	add_class(sp, "a", 8, 0, expo(1));
	add_class(sp, "b", 8, 0, expo(1));
	sp->team_quota[0] = 0.5;
	/* on 4 nodes, all at time 0: team a's four 1-node jobs (priority 1)
	 * and team b's 2-node job (priority 0) */
	struct fleet_job jobs[] = { job(0, 8, 3600), job(0, 8, 3600), job(0, 8, 3600), job(0, 8, 3600),
				    job(0, 16, 3600) };
	for (int i = 0; i < 4; i++)
		jobs[i].priority = 1;
	jobs[4].cls = 1;
	jobs[4].team = 1;
	struct fleet_job_record rec[5];
	struct fleet_sim_config cfg = config(sp, 4, 8, 1);
	cfg.jobs = jobs;
	cfg.n_jobs = 5;
	cfg.records = rec;
	cfg.n_records = 5;
	struct fleet_metrics m;
	run_ok(&cfg, &m);
	/* a's first two start; the other two are held by the quota, so b's
	 * 2-node job takes the rest; a's last two start when a's first end */
	int at0 = 0, at1h = 0;
	for (int i = 0; i < 5; i++) {
		if (rec[i].team == 0) {
			at0 += rec[i].first_start_s == 0;
			at1h += rec[i].first_start_s == 3600;
		}
	}
	assert_int_equal(at0, 2);
	assert_int_equal(at1h, 2);
	for (int i = 0; i < 5; i++)
		if (rec[i].team == 1)
			assert_close_abs(rec[i].first_start_s, 0, 1e-12);
	sp->team_quota[0] = 0;
	run_ok(&cfg, &m);
	for (int i = 0; i < 5; i++)
		if (rec[i].team == 1)
			assert_close(rec[i].first_start_s, 3600, 1e-12);
	free(sp);
}

/* Same seed, same bytes; another seed, other numbers. */
static void test_seeds(void **state)
{
	(void)state;
	struct fleet_spec *sp = spec_new(FLEET_BACKFILL, 300, 20);
	add_class(sp, "a", 8, 2, expo(3 * 3600));
	add_class(sp, "b", 32, 0.3, (struct fleet_duration){ .dist = FLEET_DUR_UNIFORM, .min_s = 600, .max_s = 8 * 3600 });
	sp->failures.enabled = true;
	sp->failures.node_mtbf_h = 500;
	sp->failures.distribution = FAIL_WEIBULL;
	sp->failures.shape = 0.7;
	struct fleet_sim_config cfg = config(sp, 16, 8, 5);
	struct fleet_metrics a, b, c;
	run_ok(&cfg, &a);
	run_ok(&cfg, &b);
	assert_memory_equal(&a, &b, sizeof a);
	cfg.seed = 6;
	run_ok(&cfg, &c);
	assert_true(memcmp(&a, &c, sizeof a) != 0);
	assert_true(a.fleet.wait_h.mean != c.fleet.wait_h.mean);
	assert_true(a.failures > 0);
	free(sp);
}

/* Fragmentation: two nodes of 8 GPUs, two 6-GPU jobs of 10 h (one per
 * node: best fit) and an 8-GPU job waiting behind them. For those 10 h the
 * 4 free GPUs are of no use to the waiting job: fragmentation over the
 * 100 h window = 4/16 x 10/100. A 2-GPU job that arrives 1 s later and
 * waits too could use them, so from then on it is 0 (what FIFO's order
 * keeps idle is not fragmentation). The
 * trace's own waits come back as their median. */
static void test_fragmentation(void **state)
{
	(void)state;
	struct fleet_spec *sp = spec_new(FLEET_FIFO, 100, 0);
	add_class(sp, "a", 8, 0, expo(1));
	struct fleet_job jobs[] = { job(0, 6, 36000), job(0, 6, 36000), job(0, 8, 3600), job(1, 2, 60) };
	jobs[0].trace_wait_s = 3600;
	jobs[1].trace_wait_s = 7200;
	jobs[2].trace_wait_s = 10800;
	struct fleet_job_record rec[4];
	struct fleet_sim_config cfg = config(sp, 2, 8, 1);
	cfg.jobs = jobs;
	cfg.n_jobs = 3;
	cfg.records = rec;
	cfg.n_records = 3;
	struct fleet_metrics m;
	run_ok(&cfg, &m);
	assert_int_not_equal(rec[0].nodes_spanned, 0);
	assert_close(rec[2].first_start_s, 36000, 1e-12);
	assert_close(m.fragmentation, 4.0 / 16 * 10 / 100, 1e-12);
	assert_close(m.fleet.trace_wait_p50_h, 2, 1e-12);
	assert_close(m.teams[0].trace_wait_p50_h, 2, 1e-12);
	cfg.n_jobs = 4;
	run_ok(&cfg, &m);
	assert_close(m.fragmentation, 4.0 / 16 * 1 / 360000, 1e-9);  /* only the first second */
	free(sp);
}

/* Drawn durations keep their stated means (4 standard errors over 10^5
 * draws) and their clamps. */
static void test_durations(void **state)
{
	(void)state;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 1);
	const struct fleet_duration ds[] = {
		{ .dist = FLEET_DUR_EXPONENTIAL, .mean_s = 3600 },
		{ .dist = FLEET_DUR_LOGNORMAL, .mean_s = 3600, .sd_s = 1800 },
		{ .dist = FLEET_DUR_UNIFORM, .min_s = 600, .max_s = 1800 },
	};
	const double mean[] = { 3600, 3600, 1200 }, sd[] = { 3600, 1800, 1200 / sqrt(12) };
	for (int k = 0; k < 3; k++) {
		double sum = 0;
		int n = 100000;
		for (int i = 0; i < n; i++) {
			double x = fleet_load_duration(&ds[k], r);
			assert_true(x >= ds[k].min_s && (ds[k].max_s <= 0 || x <= ds[k].max_s));
			sum += x;
		}
		assert_close_abs(sum / n, mean[k], 4 * sd[k] / sqrt(n));
	}
	struct fleet_duration clamp = { .dist = FLEET_DUR_EXPONENTIAL, .mean_s = 3600, .min_s = 100, .max_s = 200 };
	for (int i = 0; i < 1000; i++) {
		double x = fleet_load_duration(&clamp, r);
		assert_true(x >= 100 && x <= 200);
	}
	struct fleet_duration fixed = { .dist = FLEET_DUR_FIXED, .mean_s = 42 };
	assert_close(fleet_load_duration(&fixed, r), 42, 0);
	gsl_rng_free(r);
}

/* Bad shapes come back as -1 with a reason. */
static void test_invalid(void **state)
{
	(void)state;
	struct fleet_spec *sp = spec_new(FLEET_FIFO, 10, 0);
	add_class(sp, "a", 12, 1, expo(3600));
	struct fleet_sim_config cfg = config(sp, 4, 8, 1);
	struct fleet_metrics m;
	char reason[256] = "";
	assert_int_equal(fleet_sim_run(&cfg, &m, reason, sizeof reason), -1);
	assert_non_null(strstr(reason, "whole number of nodes"));
	sp->classes[0].gpus = 40;
	assert_int_equal(fleet_sim_run(&cfg, &m, reason, sizeof reason), -1);
	assert_non_null(strstr(reason, "more GPUs than the cluster"));
	/* a cluster past FLEET_SIM_MAX_GPUS (1e6 nodes of 16): refused before
	 * anything is allocated for it */
	sp->classes[0].gpus = 8;
	cfg = config(sp, 1000000, 16, 1);
	assert_int_equal(fleet_sim_run(&cfg, &m, reason, sizeof reason), -1);
	assert_non_null(strstr(reason, "a fleet of 1000000 nodes of 16 GPUs: at most 10000000 GPUs are simulated"));
	free(sp);
}

/* Placement: best fit inside a node, whole nodes inside a leaf. */
static void test_place(void **state)
{
	(void)state;
	struct fleet_place p;
	struct fleet_alloc a;
	int nodes[8];
	fleet_place_init(&p, 8, 8, 8, 4);
	fleet_place_take(&p, 6, nodes, &a);
	int n6 = nodes[0];
	fleet_place_take(&p, 4, nodes, &a);
	int n4 = nodes[0];
	assert_true(n4 != n6);
	/* a 2-GPU job goes to the fullest node with room: the one with 2 free */
	fleet_place_take(&p, 2, nodes, &a);
	assert_int_equal(nodes[0], n6);
	assert_int_equal(p.free_gpus, 64 - 12);
	/* 3 whole nodes: leaf 0 has 2 wholly free nodes left, leaf 1 has 4:
	 * they all come from leaf 1 */
	fleet_place_take(&p, 24, nodes, &a);
	assert_int_equal(a.n, 3);
	assert_int_equal(fleet_place_leaves(&p, nodes, 3), 1);
	assert_false(fleet_place_fits(&p, 32));
	assert_true(fleet_place_fits(&p, 24));
	fleet_place_set_usable(&p, n4, false);
	assert_int_equal(p.free_gpus, 64 - 12 - 24 - 4);
	fleet_place_give(&p, nodes, &a);
	assert_true(fleet_place_fits(&p, 24));
	fleet_place_release(&p);
}

/*
 * The top of the documented ranges, on the engine's 2^63 ns clock (292
 * years): a window of duration_h 1e6 h (3.6e9 s) runs to its end and its
 * drain stops at the clock's end, not past it (a cap of 11 windows, 4e10
 * s, overflowed the nanoseconds and no job ran, utilization 0). One class
 * of 8-GPU jobs of 100 h at 0.001 jobs/h on 16 GPUs: every job is done,
 * the utilization is the jobs' GPU-hours over the held ones (within one
 * job's share: the last may run past the window) and within 4 standard
 * errors of the closed form lambda d g / G = 0.05.
 */
static void test_longest_window(void **state)
{
	(void)state;
	struct fleet_spec *sp = spec_new(FLEET_FIFO, 1e6, 0);
	add_class(sp, "a", 8, 0.001, (struct fleet_duration){ .dist = FLEET_DUR_FIXED, .mean_s = 360000,
							      .min_s = 360000, .max_s = 360000 });
	struct fleet_sim_config cfg = config(sp, 2, 8, 3);
	struct fleet_metrics m;
	run_ok(&cfg, &m);
	long n = m.fleet.jobs_submitted;
	assert_true(n > 800 && n < 1200);
	assert_int_equal(m.fleet.jobs_done, n);
	double share = 8 * 100.0 / (16 * 1e6);
	assert_close_abs(m.utilization, (double)n * share, share);
	assert_close_abs(m.utilization, 0.001 * 100 * 8 / 16, 4 * 0.05 / sqrt(1000));
	assert_close(m.held_gpu_hours, 16 * 1e6, 1e-12);
	assert_close(fleet_sim_cap_s(3.6e9), SIM_TIME_MAX_S, 1e-15);
	assert_close(fleet_sim_cap_s(3600), 3600 + 30 * 86400, 1e-15);
	assert_close(fleet_sim_cap_s(5e8), 5.5e9, 1e-15);
	free(sp);
}

/*
 * Jobs at the top of their ranges: one submitted at 1e9 s (a CSV trace's
 * largest submit_s) that runs 1e9 s (the longest job), done at 2e9 s, and
 * one whose duration (a workload's, computed, with no bound) ends past the
 * clock: its end saturates there, it holds its GPUs to the run's end and
 * is not done, and nothing wraps into the past.
 */
static void test_times_past_the_clock(void **state)
{
	(void)state;
	struct fleet_spec *sp = spec_new(FLEET_FIFO, 1, 0);
	add_class(sp, "a", 8, 0, expo(1));
	struct fleet_job jobs[] = { job(0, 8, 1e12), job(1e9, 8, 1e9) };
	struct fleet_job_record rec[2];
	struct fleet_sim_config cfg = config(sp, 2, 8, 1);
	double end_s = 0;
	cfg.jobs = jobs;
	cfg.n_jobs = 2;
	cfg.records = rec;
	cfg.n_records = 2;
	cfg.end_s = &end_s;
	struct fleet_metrics m;
	run_ok(&cfg, &m);
	assert_int_equal(m.fleet.jobs_submitted, 2);
	assert_int_equal(m.fleet.jobs_done, 1);
	assert_close(rec[1].first_start_s, 1e9, 1e-15);
	assert_close(rec[1].end_s, 2e9, 1e-15);
	assert_true(rec[0].end_s < 0);
	/* the window is [0, 1e9 s] (the last submission): the first job holds
	 * half the GPUs all of it, the second starts at its end */
	assert_close(m.utilization, 0.5, 1e-12);
	/* the run stopped at its cap, 11e9 s clipped to the clock's end */
	assert_close(end_s, SIM_TIME_MAX_S, 1e-15);

	/* a job that outlasts the run holds its GPUs to the cap, not to the
	 * last event: alone on a window of 1000 h, it keeps all 8 of 16 GPUs
	 * busy through the window (utilization 0.5, not 0) */
	struct fleet_job one[] = { job(0, 8, 1e12) };
	sp->duration_h = 1000;
	cfg.jobs = one;
	cfg.n_jobs = 1;
	cfg.n_records = 1;
	run_ok(&cfg, &m);
	assert_int_equal(m.fleet.jobs_done, 0);
	assert_close(m.utilization, 0.5, 1e-12);
	assert_close(end_s, 1000 * 3600 + 10 * 1000 * 3600, 1e-15);
	free(sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_erlang_c),
		cmocka_unit_test(test_mmc_erlang_and_little),
		cmocka_unit_test(test_conservation_and_gangs),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_zero_wait_exact),
		cmocka_unit_test(test_backfill_never_delays_head),
		cmocka_unit_test(test_policy_order),
		cmocka_unit_test(test_preemption),
		cmocka_unit_test(test_quota),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_fragmentation),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_place),
		cmocka_unit_test(test_longest_window),
		cmocka_unit_test(test_times_past_the_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
