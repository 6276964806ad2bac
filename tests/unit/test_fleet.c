/* fleet_run (fleet.c) against closed forms: a replayed trace's GPU-hours,
 * a service's whole nodes held for the window, dollars = price x held
 * GPU-hours split across teams so they add up, the peak of the GPUs asked
 * at once, the sizing answer meeting the objective one node above where it
 * fails, a class's duration from the evaluate callback, and a class that
 * cannot be evaluated making the row invalid; the objective held for every
 * class (not only over all jobs or per team), and the sizing answer on a
 * candidate too small for the jobs. */
#include "testutil.h"

#include <string.h>

#include "models/cost/billing.h"
#include "models/eval/job.h"
#include "models/fleet/fleet.h"

static struct cluster_spec cluster(int nodes, double usd_per_gpu_hour)
{
	struct cluster_spec c;
	memset(&c, 0, sizeof c);
	snprintf(c.name, sizeof c.name, "test");
	c.nodes = nodes;
	c.gpus_per_node = 8;
	c.scale_up.domain_gpus = 8;
	c.price.known = usd_per_gpu_hour > 0;
	c.price.usd_per_gpu_hour = usd_per_gpu_hour;
	c.price.billing_s = 1;
	return c;
}

static void add_team(struct fleet_spec *f, const char *name)
{
	snprintf(f->team_names[f->n_teams++], FLEET_NAME_MAX, "%s", name);
}

/* A trace class of team 0 holding `jobs`. */
static struct fleet_class *trace_class(struct fleet_spec *f, struct fleet_trace *t)
{
	struct fleet_class *k = &f->classes[f->n_classes++];
	memset(k, 0, sizeof *k);
	snprintf(k->name, sizeof k->name, "trace");
	snprintf(k->team, sizeof k->team, "%s", f->team_names[0]);
	k->arrival = FLEET_ARRIVAL_TRACE;
	k->trace_jobs = t;
	k->estimate_factor = 1;
	return k;
}

struct eval_ctx {
	int calls;
	bool service;
	int gpus;
	double duration_s;
	bool fail;
};

static void fake_eval(const struct fleet_class *k, const struct cluster_spec *c, void *ctx, struct fleet_class_eval *out)
{
	struct eval_ctx *e = ctx;
	(void)c;
	e->calls++;
	memset(out, 0, sizeof *out);
	if (e->fail)
		outcome_set(&out->outcome, OUTCOME_OOM, "out of memory");
	out->service = e->service;
	out->gpus = e->service ? e->gpus : k->gpus;
	out->duration_s = e->duration_s;
}

/*
 * Three jobs (8 GPUs for 10 h at 0, 16 for 1 h at 1 h, 8 for 1 h at 5 h)
 * on 4 nodes of 8 GPUs for a 24 h window: nothing waits, 8 x 10 + 16 + 8 =
 * 104 GPU-hours, held 32 x 24 = 768, dollars 768 x $2 split 104 : 0 over
 * the one team; the peak is 24 GPUs at once (1 h to 2 h): 3 nodes.
 */
static void test_trace_closed_form(void **state)
{
	(void)state;
	struct fleet_trace_job tj[] = {
		{ .submit_s = 0, .gpus = 8, .duration_s = 36000, .trace_wait_s = 60 },
		{ .submit_s = 3600, .gpus = 16, .duration_s = 3600, .trace_wait_s = 120 },
		{ .submit_s = 18000, .gpus = 8, .duration_s = 3600, .trace_wait_s = 180 },
	};
	struct fleet_trace t = { .jobs = tj, .n = 3 };
	struct fleet_spec *f = calloc(1, sizeof *f);
	struct fleet_result *r = calloc(1, sizeof *r);
	struct cluster_spec c = cluster(4, 2.0);
	struct eval_ctx e = { 0 };
	f->duration_h = 24;
	f->objective_wait_p90_h = 1;
	add_team(f, "a");
	trace_class(f, &t);
	fleet_run(f, &c, 1, 0, fake_eval, &e, r);
	if (r->outcome.status != OUTCOME_OK)
		print_error("%s\n", r->outcome.reason);
	assert_int_equal(r->outcome.status, OUTCOME_OK);
	assert_int_equal(e.calls, 0);  /* no workload class: never evaluated */
	assert_int_equal(r->m.fleet.jobs_done, 3);
	assert_close_abs(r->m.fleet.wait_h.p90, 0, 1e-9);
	assert_close(r->m.fleet.gpu_hours, 104, 1e-9);
	assert_close(r->m.held_gpu_hours, 768, 1e-9);
	assert_close(r->m.idle_gpu_hours, 768 - 104, 1e-9);
	assert_close(r->usd_total, 768 * 2.0, 1e-9);
	assert_close(r->usd_total, billing_cost_usd(&c, 24 * 3600), 1e-12);
	assert_close(r->m.teams[0].usd, r->usd_total, 1e-9);
	assert_close(r->usd_per_job, 768 * 2.0 / 3, 1e-9);
	assert_close(r->m.fleet.trace_wait_p50_h, 120.0 / 3600, 1e-9);
	assert_true(r->meets_objective);
	assert_int_equal(r->peak_nodes, 3);
	assert_close(r->peak_usd, 3 * 8 * 24 * 2.0, 1e-9);
	/* the 16-GPU job needs 2 nodes; on 2 nodes it waits for the 10 h job
	 * (8 + 16 > 16), so 3 is the fewest that meets 1 h */
	assert_int_equal(r->sized_nodes, 3);
	assert_close(r->sized_usd, 3 * 8 * 24 * 2.0, 1e-9);
	assert_int_equal(r->per_team_nodes, 3);
	free(f);
	free(r);
}

/*
 * A service of 12 GPUs holds 2 whole nodes for the window; the batch jobs
 * run on the rest. Its team's GPU-hours are 16 x the window, and the
 * teams' dollars add up to the fleet's.
 */
static void test_service(void **state)
{
	(void)state;
	struct fleet_trace_job tj[] = { { .submit_s = 0, .gpus = 16, .duration_s = 7200, .trace_wait_s = -1 } };
	struct fleet_trace t = { .jobs = tj, .n = 1 };
	struct fleet_spec *f = calloc(1, sizeof *f);
	struct fleet_result *r = calloc(1, sizeof *r);
	struct cluster_spec c = cluster(4, 3.0);
	struct eval_ctx e = { .service = true, .gpus = 12 };
	static struct workload_spec w;  /* what fake_eval answers for, never read */
	f->duration_h = 10;
	add_team(f, "batch");
	add_team(f, "serve");
	trace_class(f, &t);
	struct fleet_class *s = &f->classes[f->n_classes++];
	snprintf(s->name, sizeof s->name, "svc");
	snprintf(s->team, sizeof s->team, "serve");
	s->workload = &w;
	fleet_run(f, &c, 1, 0, fake_eval, &e, r);
	if (r->outcome.status != OUTCOME_OK)
		print_error("%s\n", r->outcome.reason);
	assert_int_equal(r->outcome.status, OUTCOME_OK);
	assert_int_equal(e.calls, 1);
	assert_close(r->m.teams[1].gpu_hours, 16 * 10, 1e-9);
	assert_close(r->m.teams[0].gpu_hours, 16 * 2, 1e-9);
	assert_close(r->m.fleet.gpu_hours, 16 * 10 + 32, 1e-9);
	assert_close(r->m.held_gpu_hours, 32 * 10, 1e-9);
	assert_close(r->m.teams[0].usd + r->m.teams[1].usd, r->usd_total, 1e-9);
	assert_close(r->usd_total, 32 * 10 * 3.0, 1e-9);
	/* the used GPU-hours pay the idle ones in proportion: 32 : 160 */
	assert_close(r->m.teams[0].usd / r->m.teams[1].usd, 32.0 / 160, 1e-9);
	/* per class too: the trace's 32 GPU-hours, the service's 160; of the $960,
	 * the idle 128 GPU-hours' $384 split 32 : 160 (idle_usd) */
	assert_int_equal(r->m.n_classes, 2);
	assert_string_equal(r->m.classes[1].cls, "svc");
	assert_string_equal(r->m.classes[1].team, "serve");
	assert_close(r->m.classes[0].gpu_hours, 32, 1e-9);
	assert_close(r->m.classes[1].gpu_hours, 160, 1e-9);
	assert_close(r->m.classes[0].usd, 960.0 * 32 / 192, 1e-9);
	assert_close(r->m.classes[1].usd, 960.0 * 160 / 192, 1e-9);
	assert_close(r->m.classes[1].idle_usd, 384.0 * 160 / 192, 1e-9);
	assert_close(r->m.classes[0].idle_usd, 384.0 * 32 / 192, 1e-9);
	assert_close(r->m.fleet.idle_usd, 384, 1e-9);
	/* the series: 10 h in 0.25 h buckets; the service's 16 of 32 GPUs in
	 * every one, the 16-GPU job's in the first 2 h; nothing ever waits; the
	 * buckets' mean is the utilization */
	struct fleet_series ser;
	fleet_run_series(f, &c, 1, 0, fake_eval, &e, &ser, r);
	assert_int_equal(r->outcome.status, OUTCOME_OK);
	assert_close(ser.step_h, 0.25, 1e-12);
	assert_int_equal(ser.n, 40);
	double mean = 0;
	for (size_t k = 0; k < ser.n; k++) {
		assert_close(ser.allocated_frac[k], k < 8 ? 1.0 : 0.5, 1e-12);
		assert_close(ser.busy_frac[k], ser.allocated_frac[k], 1e-12);
		assert_close_abs(ser.queued_jobs[k], 0, 1e-12);
		mean += ser.allocated_frac[k] / (double)ser.n;
	}
	assert_close(mean, r->m.utilization, 1e-12);
	fleet_series_release(&ser);
	assert_close(fleet_series_step_h(720), 1, 1e-12);
	assert_close(fleet_series_step_h(100000), 168, 1e-12);
	assert_close(fleet_series_step_h(1e6), 1440, 1e-12);
	/* one node fewer leaves 1 node for a 16-GPU job: invalid */
	c.nodes = 3;
	fleet_run(f, &c, 1, 0, fake_eval, &e, r);
	assert_int_equal(r->outcome.status, OUTCOME_INVALID);
	assert_non_null(strstr(r->outcome.reason, "needs at least 4 nodes"));
	free(f);
	free(r);
}

/* A workload class's jobs take the duration evaluate gives (asked once);
 * one that cannot be evaluated makes the row invalid with the class named. */
static void test_workload_class(void **state)
{
	(void)state;
	struct fleet_spec *f = calloc(1, sizeof *f);
	struct fleet_result *r = calloc(1, sizeof *r);
	struct cluster_spec c = cluster(2, 0);
	struct eval_ctx e = { .duration_s = 1800 };
	f->duration_h = 100;
	add_team(f, "t");
	struct fleet_class *k = &f->classes[f->n_classes++];
	snprintf(k->name, sizeof k->name, "ft");
	snprintf(k->team, sizeof k->team, "t");
	k->arrival = FLEET_ARRIVAL_POISSON;
	k->rate_per_h = 0.5;
	k->gpus = 8;
	k->estimate_factor = 1;
	static struct workload_spec w;  /* what fake_eval answers for, never read */
	k->workload = &w;
	fleet_run(f, &c, 3, 0, fake_eval, &e, r);
	assert_int_equal(r->outcome.status, OUTCOME_OK);
	assert_int_equal(e.calls, 1);
	assert_true(r->m.fleet.jobs_done > 20);
	/* every job 8 GPUs x 0.5 h */
	assert_close(r->m.fleet.gpu_hours, r->m.fleet.jobs_done * 4.0, 1e-9);
	assert_false(r->priced);
	assert_close(r->usd_total, 0, 0);
	e.fail = true;
	fleet_run(f, &c, 3, 0, fake_eval, &e, r);
	assert_int_equal(r->outcome.status, OUTCOME_INVALID);
	assert_string_equal(r->outcome.reason, "jobs[0] \"ft\": out of memory");
	/* 12 GPUs span nodes of 8 but are not whole nodes */
	e.fail = false;
	k->gpus = 12;
	fleet_run(f, &c, 3, 0, fake_eval, &e, r);
	assert_int_equal(r->outcome.status, OUTCOME_INVALID);
	assert_non_null(strstr(r->outcome.reason, "12 GPUs span nodes but are not a whole number of 8-GPU nodes"));
	free(f);
	free(r);
}

/* Only a service: nothing is queued; its 2 nodes are held, allocated and
 * billed for the window (warmup_h to duration_h). */
static void test_service_only(void **state)
{
	(void)state;
	static struct workload_spec w;
	struct fleet_spec *f = calloc(1, sizeof *f);
	struct fleet_result *r = calloc(1, sizeof *r);
	struct cluster_spec c = cluster(3, 1.0);
	struct eval_ctx e = { .service = true, .gpus = 16 };
	f->duration_h = 30;
	f->warmup_h = 6;
	f->objective_wait_p90_h = 1;
	add_team(f, "serve");
	struct fleet_class *s = &f->classes[f->n_classes++];
	snprintf(s->name, sizeof s->name, "svc");
	snprintf(s->team, sizeof s->team, "serve");
	s->workload = &w;
	fleet_run(f, &c, 1, 0, fake_eval, &e, r);
	assert_int_equal(r->outcome.status, OUTCOME_OK);
	assert_close(r->m.held_gpu_hours, 24 * 24, 1e-9);
	assert_close(r->m.fleet.gpu_hours, 16 * 24, 1e-9);
	assert_close(r->m.utilization, 16.0 / 24, 1e-9);
	assert_close(r->usd_total, 24 * 24 * 1.0, 1e-9);
	assert_close(r->m.teams[0].usd, r->usd_total, 1e-9);
	assert_int_equal(r->sized_nodes, 2);
	assert_int_equal(r->peak_nodes, 2);
	free(f);
	free(r);
}

/* A trace class `name` of team `team` holding t's jobs. */
static void named_trace_class(struct fleet_spec *f, const char *name, const char *team, struct fleet_trace *t)
{
	struct fleet_class *k = trace_class(f, t);
	snprintf(k->name, sizeof k->name, "%s", name);
	snprintf(k->team, sizeof k->team, "%s", team);
}

/*
 * Two classes of one team on 2 nodes of 8 GPUs, FIFO, a 40 h window, an
 * objective of 1 h: "big" is two 16-GPU jobs of 10 h both submitted at 0
 * (the second waits the first's 10 h), "small" twenty 1-GPU jobs of 1 h
 * submitted hourly from 20 h (none waits). Over all 22 jobs, and so for
 * the team, the P90 wait is 0 (GSL's quantile: the order statistic at
 * 0.9 x 21 = 18.9 is a 0), but big's is 0.9 x 10 = 9 h: the objective is
 * not met, and the reason names big and its 9 h. Sizing meets it for
 * every class: on 4 nodes both big jobs start at 0 (every wait 0), on 3
 * the second still waits 10 h.
 */
static void test_objective_every_class(void **state)
{
	(void)state;
	struct fleet_trace_job big[2] = {
		{ .submit_s = 0, .gpus = 16, .duration_s = 36000, .trace_wait_s = -1 },
		{ .submit_s = 0, .gpus = 16, .duration_s = 36000, .trace_wait_s = -1 },
	};
	struct fleet_trace_job small[20];
	for (int i = 0; i < 20; i++)
		small[i] = (struct fleet_trace_job){ .submit_s = 72000 + 3600.0 * i, .gpus = 1, .duration_s = 3600,
						     .trace_wait_s = -1 };
	struct fleet_trace tb = { .jobs = big, .n = 2 }, ts = { .jobs = small, .n = 20 };
	struct fleet_spec *f = calloc(1, sizeof *f);
	struct fleet_result *r = calloc(1, sizeof *r);
	struct cluster_spec c = cluster(2, 2.0);
	struct eval_ctx e = { 0 };
	f->duration_h = 40;
	f->objective_wait_p90_h = 1;
	add_team(f, "a");
	named_trace_class(f, "big", "a", &tb);
	named_trace_class(f, "small", "a", &ts);

	fleet_run(f, &c, 1, 0, fake_eval, &e, r);
	assert_int_equal(r->outcome.status, OUTCOME_OK);
	assert_int_equal(r->m.fleet.jobs_done, 22);
	assert_close_abs(r->m.fleet.wait_h.p90, 0, 1e-12);
	assert_close_abs(r->m.teams[0].wait_h.p90, 0, 1e-12);
	assert_close(r->m.classes[0].wait_h.p90, 9, 1e-12);
	assert_close_abs(r->m.classes[1].wait_h.p90, 0, 1e-12);
	assert_true(fleet_group_meets(f, &r->m.fleet));
	assert_true(fleet_group_meets(f, &r->m.teams[0]));
	assert_false(fleet_group_meets(f, &r->m.classes[0]));
	assert_false(r->meets_objective);
	if (strstr(r->outcome.reason, "the P90 wait objective of 1 h is not met: class \"big\" waits 9 h at P90; "
		   "4 nodes of this type meet the P90 wait objective of 1 h for every class and team (sized_nodes)") == NULL) {
		print_error("reason: %s\n", r->outcome.reason);
		fail();
	}
	assert_null(strstr(r->outcome.reason, "small"));
	assert_int_equal(r->sized_nodes, 4);
	assert_int_equal(r->per_team_nodes, 4);
	assert_int_equal(r->peak_nodes, 4);
	assert_close(r->sized_usd, 4 * 8 * 40 * 2.0, 1e-9);

	/* the answer meets it for every class, one node fewer does not */
	c.nodes = 4;
	fleet_run(f, &c, 1, 0, fake_eval, &e, r);
	assert_true(r->meets_objective);
	assert_close_abs(r->m.classes[0].wait_h.p90, 0, 1e-12);
	assert_null(strstr(r->outcome.reason, "not met"));
	c.nodes = 3;
	fleet_run(f, &c, 1, 0, fake_eval, &e, r);
	assert_false(r->meets_objective);
	assert_close(r->m.classes[0].wait_h.p90, 9, 1e-12);

	/* applies_to "fleet": only the P90 over all jobs, which 2 nodes meet */
	c.nodes = 2;
	f->objective_exempt_team[0] = f->objective_exempt_class[0] = f->objective_exempt_class[1] = true;
	fleet_run(f, &c, 1, 0, fake_eval, &e, r);
	assert_true(r->meets_objective);
	assert_int_equal(r->sized_nodes, 2);
	/* applies_to ["big"]: big's alone */
	f->objective_exempt_fleet = true;
	f->objective_exempt_class[0] = false;
	fleet_run(f, &c, 1, 0, fake_eval, &e, r);
	assert_false(r->meets_objective);
	assert_int_equal(r->sized_nodes, 4);
	assert_non_null(strstr(r->outcome.reason, "4 nodes of this type meet the P90 wait objective of 1 h for each group it "
				       "applies to (sized_nodes)"));
	free(f);
	free(r);
}

/*
 * A candidate too small for the largest job (1 node of 8 GPUs, a 16-GPU
 * job) stays invalid, and still gets the sizing answer. Two 16-GPU jobs of
 * 10 h at 0 and a 1-GPU job at 1 h: on 4 nodes the small one waits 9 h
 * behind the two, on 5 nothing waits, so 5 nodes meet the objective for
 * every class, at 5 x 8 GPUs x 40 h x $2; the peak is 33 GPUs at once (5
 * nodes); each team alone needs 4 + 1. The reason says both answers.
 */
static void test_undersized(void **state)
{
	(void)state;
	struct fleet_trace_job big[2] = {
		{ .submit_s = 0, .gpus = 16, .duration_s = 36000, .trace_wait_s = -1 },
		{ .submit_s = 0, .gpus = 16, .duration_s = 36000, .trace_wait_s = -1 },
	};
	struct fleet_trace_job small[1] = { { .submit_s = 3600, .gpus = 1, .duration_s = 3600, .trace_wait_s = -1 } };
	struct fleet_trace tb = { .jobs = big, .n = 2 }, ts = { .jobs = small, .n = 1 };
	struct fleet_spec *f = calloc(1, sizeof *f);
	struct fleet_result *r = calloc(1, sizeof *r);
	struct cluster_spec c = cluster(1, 2.0);
	struct eval_ctx e = { 0 };
	f->duration_h = 40;
	f->objective_wait_p90_h = 1;
	add_team(f, "a");
	add_team(f, "b");
	named_trace_class(f, "big", "a", &tb);
	named_trace_class(f, "small", "b", &ts);
	fleet_run(f, &c, 1, 0, fake_eval, &e, r);
	assert_int_equal(r->outcome.status, OUTCOME_INVALID);
	assert_string_equal(r->outcome.reason, "needs at least 2 nodes (the largest job asks for 16 GPUs), the candidate has 1; "
			    "5 nodes of this type meet the P90 wait objective of 1 h for every class and team (sized_nodes)");
	assert_int_equal(r->sized_nodes, 5);
	assert_true(r->priced);
	assert_close(r->sized_usd, 5 * 8 * 40 * 2.0, 1e-9);
	assert_int_equal(r->peak_nodes, 5);
	/* one cluster per team: a's 4 nodes, b's 1 */
	assert_int_equal(r->per_team_nodes, 5);
	/* without an objective: the nodes it needs, no sizing */
	f->objective_wait_p90_h = 0;
	fleet_run(f, &c, 1, 0, fake_eval, &e, r);
	assert_int_equal(r->outcome.status, OUTCOME_INVALID);
	assert_string_equal(r->outcome.reason, "needs at least 2 nodes (the largest job asks for 16 GPUs), the candidate has 1");
	assert_int_equal(r->sized_nodes, 0);
	free(f);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_closed_form),
		cmocka_unit_test(test_service),
		cmocka_unit_test(test_workload_class),
		cmocka_unit_test(test_service_only),
		cmocka_unit_test(test_objective_every_class),
		cmocka_unit_test(test_undersized),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
