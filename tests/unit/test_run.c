/* The whole run: checkpoint cost on the fabric, Young/Daly, failures,
 * lost work, ETTR and the Monte Carlo trials. */
#include "testutil.h"

#include <string.h>

#include "models/cost/billing.h"
#include "models/hw/topology.h"
#include "models/run/ckpt.h"
#include "models/run/failure.h"
#include "models/run/run.h"
#include "sim/engine.h"
#include "sim/flow.h"

#include "catalog_fixture.h"

/* A run of `steps` steps of step_s, all compute. */
static struct run_model model(double step_s, double steps)
{
	struct run_model m;
	memset(&m, 0, sizeof m);
	m.step_s = step_s;
	m.steps = steps;
	m.br.compute = step_s;
	m.spare_nodes = -1;
	return m;
}

/* Young's and Daly's intervals are the formulas. */
static void test_young_daly(void **state)
{
	(void)state;
	double d = 60, M = 3 * 3600.0;
	assert_close(ckpt_young_s(d, M), sqrt(2 * d * M), 1e-12);
	double x = d / (2 * M);
	assert_close(ckpt_daly_s(d, M), sqrt(2 * d * M) * (1 + sqrt(x) / 3 + x / 9) - d, 1e-12);
	assert_close(ckpt_daly_s(3 * M, M), M, 1e-12);  /* delta >= 2M: M */
}

/* Checkpoint time = size / min(sum of client limits, tier aggregate) for a
 * symmetric write; doubling the writers on a saturated tier doubles it. */
static void test_ckpt_write_time(void **state)
{
	(void)state;
	struct cluster_spec c;
	cluster_of("{\"name\": \"x\", \"gpu\": \"H100-SXM\", \"nodes\": 32, \"gpus_per_node\": 8, \"scale_up\": \"nvlink4\","
		   " \"nic\": \"ib-ndr\", \"nics_per_node\": 8,"
		   " \"storage\": [ { \"tier\": \"pfs\", \"kind\": \"parallel-fs\", \"aggregate_GBps\": 20,"
		   " \"read_GBps_per_node\": 4, \"write_GBps_per_node\": 2 } ] }", &c);
	int tier = ckpt_tier_index(&c, "pfs");
	assert_int_equal(tier, 0);
	double lat = c.storage[0].spec.latency_s;
	double bytes = 1e12;
	/* one node: its client limit */
	assert_close(ckpt_transfer_s(&c, tier, 1, bytes, true) - lat, bytes / 2e9, 1e-6);
	/* 4 nodes: 4 x 2 = 8 GB/s < 20 */
	assert_close(ckpt_transfer_s(&c, tier, 4, bytes, true) - lat, bytes / 8e9, 1e-6);
	/* 16 and 32 nodes: the tier's 20 GB/s; twice the writers of the same
	 * bytes each take twice as long */
	double t16 = ckpt_transfer_s(&c, tier, 16, bytes, true) - lat;
	assert_close(t16, bytes / 20e9, 1e-6);
	double t32 = ckpt_transfer_s(&c, tier, 32, 2 * bytes, true) - lat;
	assert_close(t32, 2 * t16, 1e-6);
	/* 16 nodes writing a node's share each take 16x one node at its limit x 2/20 */
	double one = ckpt_transfer_s(&c, tier, 1, bytes / 16, true) - lat;
	double all = ckpt_transfer_s(&c, tier, 16, bytes, true) - lat;
	assert_close(all / one, 16 * 2.0 / 20, 1e-6);
	/* a read at the read rates */
	assert_close(ckpt_transfer_s(&c, tier, 2, bytes, false) - lat, bytes / 8e9, 1e-6);
	assert_int_equal(ckpt_tier_index(&c, "s3"), -1);
}

/* The write as ckpt_transfer_s simulated it before it made only the storage
 * links: every writer's flow on the whole topology_net. */
struct ref_transfer {
	struct engine_handler done;
	int64_t last_ns;
};

static void ref_done(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)arg;
	((struct ref_transfer *)h)->last_ns = engine_now(e);
}

static double write_on_topology_s(const struct cluster_spec *c, int tier, int writers, double bytes)
{
	struct topology topo;
	struct topology_net tn;
	topology_init(&topo, c);
	engine *e = engine_new();
	flow_net *fn = flow_new(e);
	topology_net_build(&tn, &topo, fn);
	struct ref_transfer t = { .done = { ref_done }, .last_ns = 0 };
	flow_batch_begin(fn);
	for (int n = 0; n < writers; n++) {
		flow_link path[FLOW_PATH_MAX];
		int len = topology_net_storage_path(&tn, n, tier, path);
		flow_start(fn, path, len, bytes / writers, 1, 0, &t.done, (uint64_t)n);
	}
	flow_batch_end(fn);
	engine_run(e, INT64_MAX);
	topology_net_release(&tn);
	flow_free(fn);
	engine_free(e);
	return t.last_ns * 1e-9 + c->storage[tier].spec.latency_s;
}

/* A checkpoint write on the storage links alone takes, to the bit, what it
 * took on the whole topology: node rates stated or spread from the
 * aggregate (equal shares, where the solver's order decides the last bit),
 * two tiers, one node, fewer writers than nodes, bytes that do not divide. */
static void test_ckpt_write_matches_topology(void **state)
{
	(void)state;
	static const char *const clusters[] = {
		"{\"preset\": \"dgx-h100\", \"nodes\": 37, \"storage\": [{\"tier\": \"pfs\", \"kind\": \"parallel-fs\","
		" \"aggregate_GBps\": 100}]}",
		"{\"preset\": \"dgx-h100\", \"nodes\": 1, \"storage\": [{\"tier\": \"pfs\", \"kind\": \"parallel-fs\","
		" \"aggregate_GBps\": 100}]}",
		"{\"preset\": \"aws-p5.48xlarge\", \"nodes\": 70, \"storage\": [{\"tier\": \"nvme\", \"kind\": \"local-nvme\","
		" \"write_GBps_per_node\": 6, \"read_GBps_per_node\": 7}, {\"tier\": \"pfs\", \"kind\": \"parallel-fs\", \"aggregate_GBps\": 33,"
		" \"write_GBps_per_node\": 3}]}",
	};
	for (size_t k = 0; k < sizeof clusters / sizeof *clusters; k++) {
		struct cluster_spec c;
		cluster_of(clusters[k], &c);
		for (int tier = 0; tier < c.n_storage; tier++)
			for (int writers = 1; writers <= c.nodes; writers += 1 + writers / 3) {
				double bytes = 7.77e11 + 13.0 * writers;
				double want = write_on_topology_s(&c, tier, writers, bytes);
				assert_true(ckpt_transfer_s(&c, tier, writers, bytes, true) == want);
			}
	}
}

/* Without failures, one trial: wall time = steps x step time + stalls exactly. */
static void test_no_failures_exact(void **state)
{
	(void)state;
	struct run_model m = model(7.3, 1000);
	m.interval_s = 73 * 10;   /* 10 intervals: 9 checkpoints, none after the last step */
	m.stall_s = 41.5;
	struct run_trials t = { 1, 2, 1 };
	struct run_result r;
	memset(&r, 0, sizeof r);
	run_simulate(&m, &t, 8, &r);
	assert_false(r.failed);
	assert_close(r.wall_time_p50_s, 1000 * 7.3 + 9 * 41.5, 1e-12);
	assert_close(r.wall_time_p90_s, r.wall_time_p50_s, 0);
	assert_close(r.frac_compute + r.frac_checkpoint + r.frac_lost_to_failures, 1, 1e-12);
	assert_close(r.ettr, 7300 / r.wall_time_p50_s, 1e-12);
}

/* The lost-work fraction against the first-order model delta/tau +
 * (tau/2 + R)/M (synchronous checkpoints). */
static void test_lost_fraction_first_order(void **state)
{
	(void)state;
	double M = 4 * 3600.0, tau = 600, delta = 30, R = 300;
	struct run_model m = model(1, 2e6);
	m.interval_s = tau;
	m.stall_s = delta;
	m.job_mtbf_s = M;
	m.restart_s = R;
	struct run_trials t = { 7, 0, 50 };
	struct run_result r;
	run_simulate(&m, &t, 8, &r);
	double waste = 1 - r.ettr;
	double model1 = delta / tau + (tau / 2 + R) / M;
	/* first order in 1/M; per trial ~ 150 failures: MC error about 0.3% of waste */
	print_message("lost fraction %.4f, first-order model %.4f\n", waste, model1);
	assert_close(waste, model1, 0.08);
}

/* The Monte Carlo optimum interval lies within 5% of Daly's. */
static void test_daly_optimum(void **state)
{
	(void)state;
	double M = 2 * 3600.0, delta = 60, R = 120;
	double daly = ckpt_daly_s(delta, M);
	double best = 0, best_ettr = 0;
	for (double f = 0.70; f <= 1.301; f += 0.02) {
		struct run_model m = model(0.01, 5e8);
		m.interval_s = f * daly;
		m.stall_s = delta;
		m.job_mtbf_s = M;
		m.restart_s = R;
		struct run_trials t = { 11, 3, 4 };   /* the same failures for every interval */
		struct run_result r;
		run_simulate(&m, &t, 8, &r);
		if (r.ettr > best_ettr) {
			best_ettr = r.ettr;
			best = m.interval_s;
		}
	}
	print_message("Daly %.1f s, best simulated %.1f s (ETTR %.4f)\n", daly, best, best_ettr);
	assert_close(best, daly, 0.05);
}

/* Sampler check of the llama3 preset, not a validation: the preset's MTBF is
 * derived from Meta's 419 interruptions in 54 days on 16,384 GPUs (checked
 * as an identity first), so the failures drawn over 54 days on 16,384 GPUs
 * must average 419 within 3 standard errors of 20 Poisson counts: this
 * checks the random draws give back the rate the calibration put in. */
static void test_llama3_count(void **state)
{
	(void)state;
	struct cluster_spec c;
	cluster_of("{\"preset\": \"aws-p5.48xlarge\", \"nodes\": 2048}", &c);
	struct failure_spec f;
	memset(&f, 0, sizeof f);
	f.enabled = true;
	strcpy(f.preset, "llama3");
	f.restart_s = 0;
	struct failure_rates fr;
	assert_true(failure_resolve(&f, &c, &fr));
	assert_close(fr.gpu_mtbf_h, 16384.0 * 54 * 24 / 419, 1e-12);
	/* 54 days of training with free restarts and no checkpoints lost: count
	 * (steps of a minute, each checkpointed: at most a minute lost at each
	 * failure, 0.03% of the run, against a standard error of 1.1%) */
	struct run_model m = model(60, 54 * 1440.0);
	m.interval_s = 60;  /* a checkpoint every step, at no cost */
	m.job_mtbf_s = fr.job_mtbf_s;
	struct run_trials t = { 42, 0, 20 };
	struct run_result r;
	run_simulate(&m, &t, 16384, &r);
	double sd = sqrt(419.0 / 20);  /* of a mean of 20 Poisson counts */
	print_message("failures per 54-day run %.1f (419 +- %.1f)\n", r.failures_mean, sd);
	assert_true(fabs(r.failures_mean - 419) < 3 * sd);
}

/* A model of `gpus` GPUs on one node failing with Weibull(shape) times of
 * per-GPU MTBF mtbf_h, over a long run with free restarts and a free
 * checkpoint every step (nothing lost): the failures counted. */
static double weibull_count(double shape, long gpus, double mtbf_h, double run_h, int trials, uint64_t seed)
{
	struct cluster_spec c;
	cluster_of("{\"name\": \"x\", \"gpu\": \"H100-SXM\", \"nodes\": 1, \"gpus_per_node\": 8,"
		   " \"scale_up\": \"nvlink4\", \"nic\": \"ib-ndr\", \"nics_per_node\": 8}", &c);
	c.gpus_per_node = (int)gpus;
	struct failure_spec f;
	memset(&f, 0, sizeof f);
	f.enabled = true;
	f.gpu_mtbf_h = mtbf_h;
	f.distribution = FAIL_WEIBULL;
	f.shape = shape;
	struct failure_rates fr;
	assert_true(failure_resolve(&f, &c, &fr));
	struct run_model m = model(60, run_h * 60);
	m.interval_s = 60;
	m.job_mtbf_s = fr.job_mtbf_s;
	m.shape = fr.shape;
	memcpy(m.units, fr.units, sizeof m.units);
	memcpy(m.scale_s, fr.scale_s, sizeof m.scale_s);
	struct run_trials t = { seed, 0, trials };
	struct run_result r;
	run_simulate(&m, &t, gpus, &r);
	assert_false(r.failed);
	return r.failures_mean;
}

/* Weibull renewal: over a run much longer than the MTBF the mean count is
 * T / MTBF per GPU (the renewal theorem) for k = 0.7 and 1.5; the scale
 * keeps the mean: MTBF / Gamma(1 + 1/k). */
static void test_weibull_count(void **state)
{
	(void)state;
	const long gpus = 8;
	const double mtbf_h = 10, run_h = 5000;
	double expect = gpus * run_h / mtbf_h;   /* 4000 */
	double ks[] = { 0.7, 1.5 };
	for (size_t i = 0; i < 2; i++) {
		double k = ks[i];
		/* a renewal count's variance ~ T cv^2 / mu: cv^2 = G(1+2/k)/G(1+1/k)^2 - 1 */
		double g1 = tgamma(1 + 1 / k), cv2 = tgamma(1 + 2 / k) / (g1 * g1) - 1;
		int trials = 20;
		double sd = sqrt(expect * cv2 / trials);
		/* the renewal function's offset (cv^2 - 1) / 2 per GPU, well within */
		double mean = weibull_count(k, gpus, mtbf_h, run_h, trials, 5);
		print_message("Weibull k=%.1f: %.1f failures per run (T/MTBF %.0f +- %.1f)\n", k, mean, expect, sd);
		assert_true(fabs(mean - expect) < 4 * sd + gpus * fabs(cv2 - 1) / 2);
	}
	/* k = 1: the same distribution as exponential; means agree within error */
	double w1 = weibull_count(1.0 + 1e-12, gpus, mtbf_h, run_h, 20, 9);
	struct run_model m = model(60, run_h * 60);
	m.interval_s = 60;
	m.job_mtbf_s = mtbf_h * 3600 / gpus;
	struct run_trials t = { 9, 0, 20 };
	struct run_result r;
	run_simulate(&m, &t, gpus, &r);
	double sd = sqrt(expect / 20);
	print_message("k=1: Weibull %.1f, exponential %.1f (+- %.1f each)\n", w1, r.failures_mean, sd);
	assert_true(fabs(w1 - r.failures_mean) < 4 * sqrt(2.0) * sd);
	assert_true(fabs(r.failures_mean - expect) < 4 * sd);
}

/* checkpoint.interval_steps N gives the same run as interval_s = N x the step time. */
static void test_interval_steps(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	assert_int_equal(scenario_of_text(
		"{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\","
		" \"seq_len\": 4096, \"global_batch_tokens\": 4194304, \"tokens\": 2e11,"
		" \"parallelism\": {\"tp\": 1, \"pp\": 1, \"dp\": \"auto\"},"
		" \"checkpoint\": {\"interval_steps\": 50},"
		" \"failures\": {\"gpu_mtbf_h\": 200}},"
		" \"candidates\": [{\"name\": \"a\", \"preset\": \"dgx-h100\", \"nodes\": 2}]}", &s, &err), 0);
	assert_int_equal(s.workload.run.checkpoint.interval_steps, 50);
	struct train_result tr;
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &tr);
	assert_int_equal(tr.outcome.status, OUTCOME_OK);
	struct run_trials t = { 3, 1, 20 };
	struct run_result by_steps, by_s;
	run_training(&s.workload.run, &s.workload.train, &s.candidates[0], &tr, &t, &by_steps);
	struct run_spec run = s.workload.run;
	run.checkpoint.interval_steps = 0;
	run.checkpoint.interval_s = 50 * tr.step_time_s;
	run_training(&run, &s.workload.train, &s.candidates[0], &tr, &t, &by_s);
	assert_false(by_steps.failed);
	assert_false(by_s.failed);
	print_message("interval_steps 50: interval %.3f s, P50 %.4f h; interval_s %.3f: %.3f s, P50 %.4f h\n",
		      by_steps.ckpt_interval_s, by_steps.wall_time_p50_s / 3600, run.checkpoint.interval_s,
		      by_s.ckpt_interval_s, by_s.wall_time_p50_s / 3600);
	assert_close(by_steps.ckpt_interval_s, 50 * tr.step_time_s, 1e-12);
	assert_close(by_steps.wall_time_p50_s, by_s.wall_time_p50_s, 1e-12);
	assert_close(by_steps.wall_time_p90_s, by_s.wall_time_p90_s, 1e-12);
	assert_true(by_steps.failures_mean > 0);
	scenario_release(&s);
}

/* Sampler check: spot preemptions are drawn at the stated rate: 4 instances at 0.5 per
 * instance-hour over a run of about 2000 h give about 4000 (Poisson). */
static void test_preemption_rate(void **state)
{
	(void)state;
	struct run_model m = model(60, 2000 * 60);
	m.interval_s = 60;                  /* a free checkpoint every step */
	m.preempt_mean_s = 3600 / (4 * 0.5);
	m.capacity_wait_s = 0;
	struct run_trials t = { 13, 2, 20 };
	struct run_result r;
	run_simulate(&m, &t, 32, &r);
	assert_false(r.failed);
	double expect = r.wall_time_p50_s / 3600 * 4 * 0.5;
	double sd = sqrt(expect / 20);
	print_message("preemptions per run %.1f (wall x rate %.1f +- %.1f)\n", r.preemptions_mean, expect, sd);
	assert_true(fabs(r.preemptions_mean - expect) < 4 * sd);
	assert_close(r.held_p50_s, r.wall_time_p50_s, 1e-12);  /* no capacity wait: all held */
}

/* A spot row: preemptions cost time; the capacity waits are not billed;
 * with rate 0 it is the on-demand row at the same price. */
static void test_spot_rows(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *price = "\"usd_per_gpu_hour\": 2, \"billing_s\": 1, \"minimum_s\": 0";
	char text[2048];
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\","
		 " \"seq_len\": 4096, \"global_batch_tokens\": 4194304, \"tokens\": 2e11,"
		 " \"parallelism\": {\"tp\": 1, \"pp\": 1, \"dp\": \"auto\"},"
		 " \"checkpoint\": {\"interval_s\": 1800}, \"failures\": {\"gpu_mtbf_h\": 2000}},"
		 " \"candidates\": ["
		 "{\"name\": \"spot\", \"preset\": \"dgx-h100\", \"nodes\": 2, \"price\": {\"type\": \"spot\", %s,"
		 " \"preemptions_per_instance_h\": 0.02, \"capacity_wait_s\": 3600}},"
		 "{\"name\": \"spot0\", \"preset\": \"dgx-h100\", \"nodes\": 2, \"price\": {\"type\": \"spot\", %s,"
		 " \"preemptions_per_instance_h\": 0, \"capacity_wait_s\": 3600}},"
		 "{\"name\": \"od\", \"preset\": \"dgx-h100\", \"nodes\": 2, \"price\": {\"type\": \"on-demand\", %s}}]}",
		 price, price, price);
	assert_int_equal(scenario_of_text(text, &s, &err), 0);
	assert_true(s.candidates[0].price.preemption_notice_s < 0);  /* no provider: no sourced notice */
	struct train_result tr;
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &tr);
	assert_int_equal(tr.outcome.status, OUTCOME_OK);
	struct run_trials t = { 5, 4, 30 };
	struct run_result r[3];
	for (int i = 0; i < 3; i++) {
		run_training(&s.workload.run, &s.workload.train, &s.candidates[i], &tr, &t, &r[i]);
		assert_false(r[i].failed);
	}
	print_message("spot 0.02/instance-h: P50 %.2f h (held %.2f h, %.2f preemptions), $%.0f; rate 0: %.2f h, $%.0f; "
		      "on-demand: %.2f h, $%.0f\n", r[0].wall_time_p50_s / 3600, r[0].held_p50_s / 3600,
		      r[0].preemptions_mean, r[0].cost_usd_p50, r[1].wall_time_p50_s / 3600, r[1].cost_usd_p50,
		      r[2].wall_time_p50_s / 3600, r[2].cost_usd_p50);
	assert_true(r[0].preemptions_mean > 1);
	assert_true(r[0].wall_time_p50_s > r[1].wall_time_p50_s);
	assert_true(r[0].held_p50_s < r[0].wall_time_p50_s);  /* capacity waits not held */
	assert_close(r[0].cost_usd_p50, 16 * 2.0 * billing_billed_s(&s.candidates[0].price, r[0].held_p50_s) / 3600, 1e-12);
	assert_true(r[1].preemptions_mean == 0);
	assert_close(r[1].wall_time_p50_s, r[2].wall_time_p50_s, 1e-12);
	assert_close(r[1].wall_time_p90_s, r[2].wall_time_p90_s, 1e-12);
	assert_close(r[1].cost_usd_p50, r[2].cost_usd_p50, 1e-12);
	assert_close(r[1].cost_usd_p90, r[2].cost_usd_p90, 1e-12);
	assert_close(r[1].ettr, r[2].ettr, 1e-12);
	scenario_release(&s);
}

/* 405B on 16,384 H100, llama3 failures. */
static double ettr_405b(double stall_s, double write_s, double interval_s, double restart_s, double read_s)
{
	struct run_model m = model(10, 54 * 86400.0 / 10);
	m.job_mtbf_s = 3600 * 16384.0 * 54 * 24 / 419 / 16384;
	double delta = stall_s;
	m.interval_s = interval_s > 0 ? interval_s : fmax(ckpt_daly_s(delta, m.job_mtbf_s), write_s);
	m.stall_s = stall_s;
	m.write_s = write_s;
	m.restart_s = restart_s;
	m.read_s = read_s;
	struct run_trials t = { 1, 1, 20 };
	struct run_result r;
	run_simulate(&m, &t, 16384, &r);
	return r.ettr;
}

static void test_405b_ettr(void **state)
{
	(void)state;
	/* a 10 s asynchronous checkpoint (D2H stall 10 s, written in 60 s
	 * behind), 3 min restart, 60 s reload */
	double fast = ettr_405b(10, 60, 0, 180, 60);
	/* a 60 s synchronous checkpoint, 10 min restart, 60 s reload */
	double slow = ettr_405b(60, 0, 0, 600, 60);
	double M = 3600 * 54 * 24 / 419.0, tau = ckpt_daly_s(60, M);
	double first = 1 - (60 / tau + (tau / 2 + 600 + 60) / M);
	print_message("ETTR async 10 s: %.4f; sync 60 s + 10 min restart: %.4f (first order %.4f)\n", fast, slow, first);
	assert_true(fast > 0.90);
	assert_close(slow, first, 0.02);
	assert_true(slow > 0.80 && slow < 0.88);
}

/* Same seed, same numbers; another seed, another P90. */
static void test_seeds(void **state)
{
	(void)state;
	struct run_model m = model(10, 1e5);
	m.interval_s = 600;
	m.stall_s = 20;
	m.job_mtbf_s = 3 * 3600.0;
	m.restart_s = 300;
	struct run_trials a = { 5, 1, 30 }, b = { 6, 1, 30 };
	struct run_result r1, r2, r3;
	memset(&r1, 0, sizeof r1);
	memset(&r2, 0, sizeof r2);
	memset(&r3, 0, sizeof r3);
	run_simulate(&m, &a, 8, &r1);
	run_simulate(&m, &a, 8, &r2);
	run_simulate(&m, &b, 8, &r3);
	assert_memory_equal(&r1, &r2, sizeof r1);
	assert_true(r1.wall_time_p90_s != r3.wall_time_p90_s);
	assert_true(r1.wall_time_p90_s >= r1.wall_time_p50_s);
	assert_close(r1.frac_compute + r1.frac_checkpoint + r1.frac_lost_to_failures, 1, 1e-9);
}

/* Without spare nodes a failure waits for the repair. */
static void test_repair_wait(void **state)
{
	(void)state;
	struct run_model m = model(10, 1e5);  /* 1e6 s of work in steps of 10 s, each checkpointed */
	m.interval_s = 10;
	m.job_mtbf_s = 1e5;
	m.repair_s = 3600;
	struct run_trials t = { 9, 0, 10 };
	struct run_result spare, none;
	run_simulate(&m, &t, 8, &spare);
	m.spare_nodes = 0;
	run_simulate(&m, &t, 8, &none);
	/* each failure adds about the repair time (a failure during a wait adds less) */
	assert_true(none.wall_time_p50_s > spare.wall_time_p50_s + 0.8 * 3600 * spare.failures_mean);
}

/* A spot notice that fits a whole checkpoint saves the work at every
 * preemption: nothing is lost and, with no other checkpoint, no restart and
 * no reload, wall time = work + preemptions x (save + capacity wait)
 * exactly (a preemption during a wait, when nothing is held, is dropped). */
static void test_notice_saves(void **state)
{
	(void)state;
	struct run_model m = model(1, 2e5);
	m.save_s = 10;                      /* e.g. a 10 s synchronous write */
	m.notice_s = 30;
	m.preempt_mean_s = 2e4;
	m.capacity_wait_s = 100;
	struct run_trials t = { 21, 3, 1 };
	struct run_result r;
	run_simulate(&m, &t, 8, &r);
	assert_false(r.failed);
	print_message("notice 30 s, save 10 s: %.0f preemptions, %.0f saved, lost %.1f s\n", r.preemptions_mean,
		      r.notice_saves_mean, r.lost_work_mean_s);
	assert_true(r.preemptions_mean > 5);
	assert_close(r.notice_saves_mean, r.preemptions_mean, 0);
	assert_close(r.lost_work_mean_s, 0, 0);
	assert_close(r.wall_time_p50_s, 2e5 + r.preemptions_mean * (10 + 100), 1e-12);
}

/* A notice shorter than a checkpoint saves nothing: each preemption loses
 * the work since the last periodic checkpoint, tau / 2 on average (the
 * preemption falls uniformly in the interval; Poisson, memoryless). */
static void test_notice_too_short(void **state)
{
	(void)state;
	double tau = 1000;
	struct run_model m = model(1, 1e5);
	m.interval_s = tau;
	m.stall_s = 10;                      /* synchronous: the save is the 10 s write */
	m.save_s = 10;
	m.notice_s = 5;
	m.preempt_mean_s = 2e4;
	m.capacity_wait_s = 100;
	struct run_trials t = { 22, 3, 200 };
	struct run_result r;
	run_simulate(&m, &t, 8, &r);
	assert_false(r.failed);
	double per = r.lost_work_mean_s / r.preemptions_mean;
	/* about 1000 preemptions in all: the mean of a uniform on [0, tau] to
	 * tau / sqrt(12) / sqrt(1000) = 0.9% of tau */
	print_message("notice 5 s < save 10 s: %.2f preemptions per run, %.0f saved, %.1f s lost each (tau/2 = %.0f)\n",
		      r.preemptions_mean, r.notice_saves_mean, per, tau / 2);
	assert_close(r.notice_saves_mean, 0, 0);
	assert_close(per, tau / 2, 0.05 * tau / 2);
}

/* The notice is the provider's: AWS 2 min, GCP 30 s (billing.json); the
 * scenario's own overrides it; a provider without one has none. */
static void test_notice_catalog(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	assert_int_equal(scenario_of_text(
		"{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\","
		" \"seq_len\": 4096, \"global_batch_tokens\": 4194304},"
		" \"candidates\": ["
		"{\"name\": \"a\", \"preset\": \"aws-p5.48xlarge\", \"price\": {\"type\": \"spot\"}},"
		"{\"name\": \"g\", \"preset\": \"gcp-a3-highgpu-8g\", \"price\": {\"type\": \"spot\"}},"
		"{\"name\": \"n\", \"preset\": \"nebius-8x-h100\", \"price\": {\"type\": \"spot\"}},"
		"{\"name\": \"o\", \"preset\": \"aws-p5.48xlarge\", \"price\": {\"type\": \"spot\", \"preemption_notice_s\": 45}}]}",
		&s, &err), 0);
	assert_close(s.candidates[0].price.preemption_notice_s, 120, 0);
	assert_close(s.candidates[1].price.preemption_notice_s, 30, 0);
	assert_true(s.candidates[2].price.preemption_notice_s < 0);
	assert_close(s.candidates[3].price.preemption_notice_s, 45, 0);
	scenario_release(&s);
}

/* Two nodes, llama3-8b, one checkpoint tier or data tier given in JSON. */
static void two_nodes(const char *storage, const char *workload_extra, struct scenario *s, struct train_result *tr)
{
	struct cs_error err;
	char text[2048];
	snprintf(text, sizeof text,
		 "{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\","
		 " \"seq_len\": 4096, \"global_batch_tokens\": 4194304, \"tokens\": 4e10,"
		 " \"parallelism\": {\"tp\": 1, \"pp\": 1, \"dp\": 16, \"zero\": 1}%s},"
		 " \"candidates\": [{\"name\": \"x\", \"gpu\": \"H100-SXM\", \"nodes\": 2, \"gpus_per_node\": 8,"
		 " \"scale_up\": \"nvlink4\", \"nic\": \"ib-ndr\", \"nics_per_node\": 8, \"storage\": [%s]}]}",
		 workload_extra, storage);
	assert_int_equal(scenario_of_text(text, s, &err), 0);
	train_evaluate(&s->workload.train, &s->candidates[0], NULL, tr);
	assert_int_equal(tr->outcome.status, OUTCOME_OK);
}

/* An asynchronous write through the NICs: at a client rate of 20 GB/s a
 * node's 8 x 400G NICs (8 x 50 GB/s) lose s = 20 / 400 = 5% to it, the
 * exposed data-parallel time c grows to c / (1 - s), and over the write's
 * W s training loses W d / (step + d), d = c s / (1 - s); no failures, one
 * trial: wall = steps x step + checkpoints x (copy + that) exactly. To
 * node-local NVMe nothing is lost. */
static void test_ckpt_contention(void **state)
{
	(void)state;
	struct scenario s;
	struct train_result tr;
	two_nodes("{\"tier\": \"pfs\", \"kind\": \"parallel-fs\", \"write_GBps_per_node\": 20,"
		  " \"read_GBps_per_node\": 20, \"aggregate_GBps\": 1000},"
		  " {\"tier\": \"nvme\", \"kind\": \"local-nvme\", \"write_GBps_per_node\": 20, \"read_GBps_per_node\": 20}",
		  ", \"checkpoint\": {\"interval_s\": 600, \"tier\": \"pfs\", \"async\": true}", &s, &tr);
	struct run_trials t = { 1, 0, 1 };
	struct run_result r;
	run_training(&s.workload.run, &s.workload.train, &s.candidates[0], &tr, &t, &r);
	assert_false(r.failed);
	double c = tr.br.comm_dp, sh = 20.0 / 400.0, d = c * sh / (1 - sh);
	double W = r.ckpt_write_s;
	print_message("exposed dp %.4f s of a %.4f s step; write %.2f s at NIC share %.3f: +%.4f s per checkpoint\n",
		      c, tr.step_time_s, W, r.ckpt_nic_share, r.ckpt_contention_s);
	assert_true(c > 0);
	assert_close(r.ckpt_nic_share, sh, 1e-9);
	assert_close(r.ckpt_contention_s, W * d / (tr.step_time_s + d), 1e-9);
	double total = r.steps * tr.step_time_s;
	double n_ckpt = ceil(total / r.ckpt_interval_s - 1e-9) - 1;   /* none after the last step */
	assert_close(r.wall_time_p50_s, total + n_ckpt * (r.ckpt_stall_s + r.ckpt_contention_s), 1e-9);
	/* the slowdown is in frac_checkpoint */
	assert_close(r.frac_checkpoint, n_ckpt * (r.ckpt_stall_s + r.ckpt_contention_s) / r.wall_time_p50_s, 1e-9);
	struct run_spec nvme = s.workload.run;
	snprintf(nvme.checkpoint.tier, sizeof nvme.checkpoint.tier, "nvme");
	run_training(&nvme, &s.workload.train, &s.candidates[0], &tr, &t, &r);
	assert_close(r.ckpt_contention_s, 0, 0);
	scenario_release(&s);
}

/* A data tier half as fast as the step needs doubles the step: the read
 * of a step's tokens takes 2 steps, so the step waits one more; the wait
 * is frac_data_stall of the time. bytes_per_token defaults to 4 for
 * Llama 3's 128,256-entry vocabulary (more than uint16 ids hold). */
static void test_data_stall(void **state)
{
	(void)state;
	struct scenario s;
	struct train_result tr;
	two_nodes("{\"tier\": \"data\", \"kind\": \"parallel-fs\", \"read_GBps_per_node\": 1000, \"aggregate_GBps\": 1}",
		  ", \"data\": {\"tier\": \"data\"}", &s, &tr);
	assert_true(s.workload.run.data.enabled);
	double bytes = 4194304.0 * 4;
	/* the aggregate that reads a step's bytes in exactly two steps */
	s.candidates[0].storage[0].spec.aggregate_bytes_per_s = bytes / (2 * tr.step_time_s);
	struct run_trials t = { 1, 0, 1 };
	struct run_result r;
	run_training(&s.workload.run, &s.workload.train, &s.candidates[0], &tr, &t, &r);
	assert_false(r.failed);
	print_message("step %.4f s; a step's %.0f MB read in %.4f s: stall %.4f s, frac_data_stall %.4f\n",
		      tr.step_time_s, bytes / 1e6, r.data_read_s, r.data_stall_s, r.frac_data_stall);
	assert_true(r.data_modelled);
	assert_close(r.data_read_s, 2 * tr.step_time_s, 1e-6);
	assert_close(r.data_stall_s, tr.step_time_s, 1e-6);
	assert_close(r.wall_time_p50_s, r.steps * 2 * tr.step_time_s, 1e-6);
	assert_close(r.frac_data_stall, 0.5, 1e-6);
	assert_close(r.frac_compute + r.frac_comm_exposed + r.frac_bubble + r.frac_idle + r.frac_data_stall +
		     r.frac_checkpoint + r.frac_lost_to_failures, 1, 1e-12);
	/* a tier that keeps up: no stall; 2 bytes per token given */
	s.candidates[0].storage[0].spec.aggregate_bytes_per_s = 1e12;
	s.workload.run.data.bytes_per_token = 2;
	run_training(&s.workload.run, &s.workload.train, &s.candidates[0], &tr, &t, &r);
	assert_close_abs(r.data_read_s, 4194304.0 * 2 / 1e12, 1e-9);  /* the engine's clock: whole ns */
	assert_close(r.data_stall_s, 0, 0);
	assert_close(r.wall_time_p50_s, r.steps * tr.step_time_s, 1e-6);
	scenario_release(&s);
}

/* Spare nodes are billed, idle, for the whole held time: 2 spares beside 2
 * nodes double the cost of a run in which nothing fails. */
static void test_spare_billing(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	assert_int_equal(scenario_of_text(
		"{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\","
		" \"seq_len\": 4096, \"global_batch_tokens\": 4194304, \"tokens\": 4e10,"
		" \"parallelism\": {\"tp\": 1, \"pp\": 1, \"dp\": 16},"
		" \"failures\": {\"gpu_mtbf_h\": 1e9, \"spare_nodes\": 2}},"
		" \"candidates\": [{\"name\": \"a\", \"preset\": \"dgx-h100\", \"nodes\": 2,"
		" \"price\": {\"usd_per_gpu_hour\": 2, \"billing_s\": 1, \"minimum_s\": 0}}]}", &s, &err), 0);
	struct train_result tr;
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &tr);
	struct run_trials t = { 1, 0, 5 };
	struct run_result spare, none;
	run_training(&s.workload.run, &s.workload.train, &s.candidates[0], &tr, &t, &spare);
	struct run_spec run = s.workload.run;
	run.failures.spare_nodes = 0;
	run_training(&run, &s.workload.train, &s.candidates[0], &tr, &t, &none);
	assert_true(spare.failures_mean == 0 && none.failures_mean == 0);
	assert_close(none.cost_usd_p50, 16 * 2.0 * billing_billed_s(&s.candidates[0].price, none.held_p50_s) / 3600, 1e-12);
	assert_close(spare.spare_usd_p50, none.cost_usd_p50, 1e-9);
	assert_close(spare.cost_usd_p50, 2 * none.cost_usd_p50, 1e-9);
	assert_close(spare.cost_usd_p90, 2 * none.cost_usd_p90, 1e-9);
	scenario_release(&s);
}

/* Checkpoints on node-local disks leave with a preempted instance: every
 * preemption starts the run over, whatever the interval. Work T, preemptions
 * at rate lambda (none while waiting for capacity): the compute time is
 * (e^{lambda T} - 1) / lambda, so the work lost is that less T, over
 * e^{lambda T} - 1 preemptions (the restart-from-scratch renewal). */
static void test_local_ckpt_preempted(void **state)
{
	(void)state;
	double T = 1e4, lambda = 1 / 1e4;
	struct run_model m = model(1, T);
	m.interval_s = 100;                  /* free checkpoints, to local disks */
	m.local_ckpt = true;
	m.preempt_mean_s = 1 / lambda;
	m.capacity_wait_s = 1000;
	struct run_trials t = { 23, 3, 10000 };   /* SE of the count about 1% */
	struct run_result r;
	run_simulate(&m, &t, 8, &r);
	assert_false(r.failed);
	double n = exp(lambda * T) - 1, lost = n / lambda - T;
	print_message("local checkpoints, lambda T = 1: %.3f preemptions (e - 1 = %.3f), %.0f s lost (%.0f)\n",
		      r.preemptions_mean, n, r.lost_work_mean_s, lost);
	assert_close(r.preemptions_mean, n, 0.05);
	assert_close(r.lost_work_mean_s, lost, 0.05);
}

/* Failures without workload.checkpoint: synchronous checkpoints to the
 * candidate's parallel file system at Daly's interval, said in the note.
 * 64 DGX H100 nodes write to the generic pfs at min(64 x 20 GB/s, 250 GB/s)
 * = 250 GB/s: write = bytes / 250 GB/s + 2.3 ms, and the interval is
 * Daly(write, M), M = 50,676 h / 512 GPUs, rounded up to whole steps. With
 * "none" the run never finishes and the note says what to write; a
 * candidate with no file system tier is invalid and the note names
 * workload.checkpoint and a tier it has. */
static void test_default_checkpoint(void **state)
{
	(void)state;
	struct scenario s;
	struct cs_error err;
	const char *fmt =
		"{\"workload\": {\"kind\": \"training\", \"model\": \"llama3-8b\", \"precision\": \"bf16\","
		" \"seq_len\": 4096, \"global_batch_tokens\": 4194304, \"tokens\": %s,"
		" \"parallelism\": {\"tp\": 1, \"pp\": 1, \"dp\": \"auto\"}%s, \"failures\": %s},"
		" \"candidates\": [{\"name\": \"dgx\", \"preset\": \"dgx-h100\", \"nodes\": %d},"
		" {\"name\": \"gcp\", \"preset\": \"gcp-a3-highgpu-8g\", \"nodes\": %d}]}";
	char text[2048];
	snprintf(text, sizeof text, fmt, "2e11", "", "\"llama3\"", 64, 64);
	assert_int_equal(scenario_of_text(text, &s, &err), 0);
	assert_false(s.workload.run.checkpoint.enabled);
	struct train_result tr;
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &tr);
	assert_int_equal(tr.outcome.status, OUTCOME_OK);
	struct run_trials t = { 3, 0, 10 };
	struct run_result r;
	run_training(&s.workload.run, &s.workload.train, &s.candidates[0], &tr, &t, &r);
	assert_false(r.failed);
	assert_true(r.ckpt_assumed);
	double bytes = ckpt_bytes(&s.workload.train, &tr.plan);
	double write_s = bytes / 250e9 + 2.3e-3;
	double M = 3600 * (16384.0 * 54 * 24 / 419) / 512;
	double daly = ckpt_daly_s(write_s, M);
	double interval = ceil(daly / tr.step_time_s) * tr.step_time_s;
	print_message("%.0f GB: write %.3f s (closed form %.3f); Daly %.1f s -> %.1f s in whole steps; simulated "
		      "interval %.1f s; P50 %.2f h; %s\n", bytes / 1e9, r.ckpt_write_s, write_s, daly, interval,
		      r.ckpt_interval_s, r.wall_time_p50_s / 3600, r.note);
	assert_close(r.ckpt_write_s, write_s, 1e-6);
	assert_close(r.ckpt_stall_s, write_s, 1e-6);
	assert_close(r.ckpt_interval_s, interval, 1e-9);
	assert_true(isfinite(r.wall_time_p50_s) && r.wall_time_p50_s > r.steps * tr.step_time_s);
	assert_non_null(strstr(r.note, "no workload.checkpoint: assumed synchronous checkpoints to \"pfs\" at "
				   "Daly's interval"));
	/* no file system on the candidate: nothing to assume */
	train_evaluate(&s.workload.train, &s.candidates[1], NULL, &tr);
	assert_int_equal(tr.outcome.status, OUTCOME_OK);
	run_training(&s.workload.run, &s.workload.train, &s.candidates[1], &tr, &t, &r);
	assert_true(r.failed);
	assert_non_null(strstr(r.note, "workload.checkpoint is not given"));
	assert_non_null(strstr(r.note, "write \"checkpoint\": {\"tier\": \"object\", \"interval_s\": \"auto\"}"));
	scenario_release(&s);
	/* "none" on 2 nodes failing every 0.625 h, over about 10 h of training:
	 * e^16 restarts from the first step, past 1000 x the failure-free time */
	snprintf(text, sizeof text, fmt, "5e9", ", \"checkpoint\": \"none\"", "{\"gpu_mtbf_h\": 10}", 2, 2);
	assert_int_equal(scenario_of_text(text, &s, &err), 0);
	train_evaluate(&s.workload.train, &s.candidates[0], NULL, &tr);
	run_training(&s.workload.run, &s.workload.train, &s.candidates[0], &tr, &t, &r);
	print_message("none: %s\n", r.note);
	assert_true(r.failed);
	assert_non_null(strstr(r.note, "the run never finishes: workload.checkpoint is \"none\""));
	assert_non_null(strstr(r.note, "write \"checkpoint\": {\"tier\": \"pfs\", \"interval_s\": \"auto\"}"));
	scenario_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_young_daly),
		cmocka_unit_test(test_ckpt_write_time),
		cmocka_unit_test(test_ckpt_write_matches_topology),
		cmocka_unit_test(test_no_failures_exact),
		cmocka_unit_test(test_lost_fraction_first_order),
		cmocka_unit_test(test_daly_optimum),
		cmocka_unit_test(test_llama3_count),
		cmocka_unit_test(test_405b_ettr),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_repair_wait),
		cmocka_unit_test(test_weibull_count),
		cmocka_unit_test(test_interval_steps),
		cmocka_unit_test(test_preemption_rate),
		cmocka_unit_test(test_spot_rows),
		cmocka_unit_test(test_notice_saves),
		cmocka_unit_test(test_notice_too_short),
		cmocka_unit_test(test_notice_catalog),
		cmocka_unit_test(test_ckpt_contention),
		cmocka_unit_test(test_data_stall),
		cmocka_unit_test(test_spare_billing),
		cmocka_unit_test(test_local_ckpt_preempted),
		cmocka_unit_test(test_default_checkpoint),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
