#include "fleet.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/cost/billing.h"
#include "models/fleet/fleet_load.h"
#include "models/fleet/fleet_sim.h"
#include "util/text.h"
#include "util/xalloc.h"

const char *const fleet_policy_names[] = { "fifo", "sjf", "priority", "backfill", NULL };
const char *const fleet_duration_dist_names[] = { "fixed", "exponential", "lognormal", "uniform", NULL };
const char *const fleet_arrival_names[] = { "poisson", "trace", NULL };
const char *const fleet_trace_format_names[] = { "sacct", "csv", NULL };

/* The sizing search looks no further than this many times the candidate's
 * nodes (and never past this many nodes). */
enum { SIZING_GROWTH_MAX = 64, SIZING_NODES_MAX = 1000000 };

int fleet_team_index(const struct fleet_spec *f, const char *name)
{
	for (int t = 0; t < f->n_teams; t++)
		if (strcmp(f->team_names[t], name) == 0)
			return t;
	return -1;
}

/* Everything one fleet_run works with. */
struct fleet_ctx {
	const struct fleet_spec *f;
	const struct cluster_spec *c;
	uint64_t seed, row_id;
	struct fleet_class_eval ce[FLEET_CLASSES_MAX];
	double class_duration_s[FLEET_CLASSES_MAX];
	double class_ckpt_s[FLEET_CLASSES_MAX];
	double class_restart_s[FLEET_CLASSES_MAX];
	struct fleet_job *jobs;       /* the batch jobs, by submission */
	size_t n_jobs;
	long rounded;                 /* trace jobs of more than a node, rounded up to whole nodes */
	int service_nodes[FLEET_TEAMS_MAX];  /* per team: whole nodes its services hold */
	int service_gpus[FLEET_TEAMS_MAX];
	int class_service_gpus[FLEET_CLASSES_MAX];  /* per class: whole nodes' GPUs its service holds */
	int max_job_gpus;
	struct fleet_series *series;  /* the candidate's, when asked (simulate fills it when set) */
};

/*
 * The jobs: drawn from the classes (fleet_load: Poisson arrivals over the
 * window, durations stated, modelled or drawn) or replayed from their
 * traces, with streams of the scenario seed only (row 0), so every
 * candidate and node count sees the same submissions (common random
 * numbers). A trace job of more than a node that is not whole nodes holds
 * its nodes whole. Returns -1 after failing r.
 */
static int load_jobs(struct fleet_ctx *x, struct fleet_result *r)
{
	const struct fleet_spec *f = x->f;
	int gpn = x->c->gpus_per_node;
	char reason[256];
	struct fleet_sim_config cfg = {
		.spec = f, .nodes = x->c->nodes, .gpus_per_node = gpn,
		.class_duration_s = x->class_duration_s, .class_checkpoint_interval_s = x->class_ckpt_s,
		.class_restart_s = x->class_restart_s, .n_teams = f->n_teams, .team_names = f->team_names,
		.seed = x->seed, .row_id = 0,
	};
	char (*teams)[FLEET_NAME_MAX] = xcalloc(FLEET_TEAMS_MAX, sizeof *teams);
	int n_teams = 0;
	int rc = fleet_load_jobs(&cfg, &x->jobs, &x->n_jobs, teams, &n_teams, reason, sizeof reason);
	free(teams);
	if (rc != 0) {
		outcome_set(&r->outcome, OUTCOME_INVALID, "%s", reason);
		return -1;
	}
	for (size_t i = 0; i < x->n_jobs; i++) {
		struct fleet_job *j = &x->jobs[i];
		if (f->classes[j->cls].arrival == FLEET_ARRIVAL_TRACE && j->gpus > gpn && j->gpus % gpn != 0) {
			j->gpus = (j->gpus + gpn - 1) / gpn * gpn;
			x->rounded++;
		}
		if (j->gpus > x->max_job_gpus)
			x->max_job_gpus = j->gpus;
	}
	return 0;
}

/* Each class that names a workload, through the evaluate call; services
 * are set aside. Returns -1 after failing r. */
static int evaluate_classes(struct fleet_ctx *x, fleet_eval_fn *eval, void *ctx, struct fleet_result *r)
{
	const struct fleet_spec *f = x->f;
	int gpn = x->c->gpus_per_node;
	for (int i = 0; i < f->n_classes; i++) {
		const struct fleet_class *k = &f->classes[i];
		struct fleet_class_eval *e = &x->ce[i];
		memset(e, 0, sizeof *e);
		x->class_duration_s[i] = -1;
		x->class_ckpt_s[i] = 0;
		x->class_restart_s[i] = f->failures.restart_s;
		if (k->workload == NULL)
			continue;
		eval(k, x->c, ctx, e);
		if (e->outcome.status != OUTCOME_OK) {
			outcome_set(&r->outcome, OUTCOME_INVALID, "jobs[%d] \"%s\": %s", i, k->name, e->outcome.reason);
			return -1;
		}
		x->class_ckpt_s[i] = e->checkpoint_interval_s;
		x->class_restart_s[i] = e->restart_s;
		if (e->service) {
			int team = fleet_team_index(f, k->team);
			int nodes = (e->gpus + gpn - 1) / gpn;
			x->service_nodes[team] += nodes;
			x->service_gpus[team] += nodes * gpn;
			x->class_service_gpus[i] = nodes * gpn;
			continue;
		}
		x->class_duration_s[i] = e->duration_s;
	}
	return 0;
}

static int sum_services(const struct fleet_ctx *x, const bool *teams)
{
	int n = 0;
	for (int t = 0; t < x->f->n_teams; t++)
		if (teams == NULL || teams[t])
			n += x->service_nodes[t];
	return n;
}

/* Dollars of holding n nodes of the candidate's type for window_s. */
static double nodes_usd(const struct fleet_ctx *x, int n, double window_s)
{
	struct cluster_spec c = *x->c;
	c.nodes = n;
	return billing_cost_usd(&c, window_s);
}

double fleet_series_step_h(double duration_h)
{
	static const double steps[] = { 0.25, 0.5, 1, 2, 3, 4, 6, 12, 24, 48, 168, 336, 720 };
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (duration_h / steps[i] <= 1000)
			return steps[i];
	double step = 720;
	while (duration_h / step > 1000)
		step *= 2;
	return step;
}

void fleet_series_release(struct fleet_series *s)
{
	free(s->allocated_frac);
	free(s->busy_frac);
	free(s->queued_jobs);
	s->allocated_frac = s->busy_frac = s->queued_jobs = NULL;
	s->n = 0;
}

/* The batch series of a run of batch_gpus GPUs beside svc_gpus of
 * services, as fractions of all of them; buckets up to end_s. */
static void series_finish(struct fleet_series *out, size_t n_alloc, double end_s, long batch_gpus, long svc_gpus)
{
	double step_s = out->step_h * 3600, all = (double)(batch_gpus + svc_gpus);
	size_t n = (size_t)ceil(end_s / step_s);
	if (n < 1)
		n = 1;
	if (n > n_alloc)
		n = n_alloc;
	out->n = n;
	for (size_t k = 0; k < n; k++) {
		out->allocated_frac[k] = all > 0 ? (out->allocated_frac[k] * (double)batch_gpus + (double)svc_gpus) / all : 0;
		out->busy_frac[k] = all > 0 ? (out->busy_frac[k] * (double)batch_gpus + (double)svc_gpus) / all : 0;
	}
}

/*
 * Simulate `jobs` on n nodes, services of the teams in `teams` (NULL: all)
 * held beside them for the whole window, into *m; *usd the dollars of the
 * n nodes over the window; when series is not NULL, the run's utilization
 * over time into it. Returns -1 with reason set when it cannot run.
 */
static int simulate(const struct fleet_ctx *x, const struct fleet_spec *spec, const struct fleet_job *jobs,
		    size_t n_jobs, const bool *teams, int nodes, struct fleet_metrics *m, double *usd,
		    struct fleet_series *series, char *reason, size_t reason_len)
{
	const struct cluster_spec *c = x->c;
	int svc = sum_services(x, teams);
	int batch_nodes = nodes - svc;
	double price = c->price.known ? c->price.usd_per_gpu_hour : 0;
	struct fleet_sim_config cfg = {
		.spec = spec, .nodes = batch_nodes, .gpus_per_node = c->gpus_per_node,
		.domain_gpus = c->scale_up.domain_gpus > 0 ? c->scale_up.domain_gpus : c->gpus_per_node,
		.nodes_per_leaf = c->topology.nodes_per_leaf, .jobs = jobs, .n_jobs = n_jobs,
		.class_duration_s = x->class_duration_s, .class_checkpoint_interval_s = x->class_ckpt_s,
		.class_restart_s = x->class_restart_s, .n_teams = spec->n_teams,
		.team_names = spec->team_names, .usd_per_gpu_hour = price, .seed = x->seed, .row_id = x->row_id,
	};

	memset(m, 0, sizeof *m);
	*usd = 0;
	if (batch_nodes < 1 && n_jobs > 0) {
		text_setf(reason, reason_len, "%d nodes leave none beside the %d the services hold", nodes, svc);
		return -1;
	}
	/* the series: buckets up to the run's cap (10 windows past the window,
	 * at least 30 days, at most the clock's end: fleet_sim_cap_s), cut at the
	 * run's end afterwards */
	size_t n_alloc = 0;
	double end_s = 0;
	if (series != NULL) {
		double w1_h = spec->duration_h;
		for (size_t i = 0; i < n_jobs; i++)
			if (jobs[i].submit_s / 3600 > w1_h)
				w1_h = jobs[i].submit_s / 3600;
		series->step_h = fleet_series_step_h(spec->duration_h);
		n_alloc = (size_t)ceil(fleet_sim_cap_s(w1_h * 3600) / 3600 / series->step_h) + 2;
		series->allocated_frac = xcalloc(n_alloc, sizeof *series->allocated_frac);
		series->busy_frac = xcalloc(n_alloc, sizeof *series->busy_frac);
		series->queued_jobs = xcalloc(n_alloc, sizeof *series->queued_jobs);
		cfg.util_series = series->allocated_frac;
		cfg.busy_series = series->busy_frac;
		cfg.queued_series = series->queued_jobs;
		cfg.n_series = n_alloc;
		cfg.series_step_h = series->step_h;
		cfg.end_s = &end_s;
	}
	if (n_jobs > 0 && fleet_sim_run(&cfg, m, reason, reason_len) < 0) {
		if (series != NULL)
			fleet_series_release(series);
		return -1;
	}
	/* the window the sim held its GPUs for; without batch jobs, the stated
	 * one (warmup_h to duration_h, as fleet_sim counts it) */
	long batch_gpus = (long)batch_nodes * c->gpus_per_node;
	double window_h = batch_gpus > 0 && m->held_gpu_hours > 0 ? m->held_gpu_hours / (double)batch_gpus
								   : spec->duration_h - spec->warmup_h;
	if (n_jobs == 0) {
		m->n_teams = spec->n_teams;
		for (int t = 0; t < spec->n_teams; t++)
			snprintf(m->teams[t].team, sizeof m->teams[t].team, "%s", spec->team_names[t]);
		m->n_classes = spec->n_classes;
		for (int k = 0; k < spec->n_classes; k++) {
			snprintf(m->classes[k].team, sizeof m->classes[k].team, "%s", spec->classes[k].team);
			snprintf(m->classes[k].cls, sizeof m->classes[k].cls, "%s", spec->classes[k].name);
		}
		snprintf(m->fleet.team, sizeof m->fleet.team, "%s", "");
		m->held_gpu_hours = (double)batch_gpus * window_h;
		m->idle_gpu_hours = m->held_gpu_hours;
	}
	/* the services: whole nodes held, allocated and busy for the window */
	for (int t = 0; t < spec->n_teams; t++) {
		if ((teams != NULL && !teams[t]) || x->service_gpus[t] == 0)
			continue;
		double h = x->service_gpus[t] * window_h;
		m->teams[t].gpu_hours += h;
		m->fleet.gpu_hours += h;
		m->held_gpu_hours += h;
		m->allocated_gpu_hours += h;
		m->busy_gpu_hours += h;
	}
	for (int k = 0; k < m->n_classes; k++) {
		int t = fleet_team_index(spec, spec->classes[k].team);
		if (x->class_service_gpus[k] > 0 && (teams == NULL || (t >= 0 && teams[t])))
			m->classes[k].gpu_hours += x->class_service_gpus[k] * window_h;
	}
	if (series != NULL)
		series_finish(series, n_alloc, fmax(end_s, window_h * 3600 + spec->warmup_h * 3600),
			      batch_gpus, (long)svc * c->gpus_per_node);
	if (m->held_gpu_hours > 0) {
		m->utilization = m->allocated_gpu_hours / m->held_gpu_hours;
		m->busy_utilization = m->busy_gpu_hours / m->held_gpu_hours;
	}
	/* the billed dollars (billing granularity and minimum): each team pays
	 * for its GPU-hours and a share of the idle ones in proportion to them */
	*usd = nodes_usd(x, nodes, window_h * 3600);
	double used = 0;
	for (int t = 0; t < m->n_teams; t++)
		used += m->teams[t].gpu_hours;
	for (int t = 0; t < m->n_teams; t++)  /* evenly when nothing ran, as fleet_sim does */
		m->teams[t].usd = used > 0 ? *usd * m->teams[t].gpu_hours / used : *usd / m->n_teams;
	for (int k = 0; k < m->n_classes; k++)
		m->classes[k].usd = used > 0 ? *usd * m->classes[k].gpu_hours / used : *usd / m->n_classes;
	m->fleet.usd = *usd;
	/* of each group's dollars, the idle GPU-hours' share: all but its own
	 * GPU-hours' dollars at the held hours' rate */
	double own_rate = m->held_gpu_hours > 0 ? *usd / m->held_gpu_hours : 0;
	m->fleet.idle_usd = *usd - own_rate * m->fleet.gpu_hours;
	for (int t = 0; t < m->n_teams; t++)
		m->teams[t].idle_usd = m->teams[t].usd - own_rate * m->teams[t].gpu_hours;
	for (int k = 0; k < m->n_classes; k++)
		m->classes[k].idle_usd = m->classes[k].usd - own_rate * m->classes[k].gpu_hours;
	return 0;
}

bool fleet_group_meets(const struct fleet_spec *f, const struct fleet_group *g)
{
	return f->objective_wait_p90_h <= 0 ||
	       (g->jobs_done == g->jobs_submitted && g->wait_h.p90 <= f->objective_wait_p90_h);
}

/* The objective holds for every group it applies to: by default the fleet,
 * every team and every job class. A P90 over all jobs alone would let a
 * team of a few large jobs wait any time behind many small ones, and a
 * team's P90 would let its few pre-training runs wait behind its many
 * fine-tunes. */
static bool meets(const struct fleet_spec *f, const struct fleet_metrics *m)
{
	if (f->objective_wait_p90_h <= 0)
		return true;
	if (!f->objective_exempt_fleet && !fleet_group_meets(f, &m->fleet))
		return false;
	for (int t = 0; t < m->n_teams; t++)
		if (!f->objective_exempt_team[t] && !fleet_group_meets(f, &m->teams[t]))
			return false;
	for (int k = 0; k < m->n_classes; k++)
		if (!f->objective_exempt_class[k] && !fleet_group_meets(f, &m->classes[k]))
			return false;
	return true;
}

/* objective.applies_to leaves some group out. */
static bool exempts_any(const struct fleet_spec *f)
{
	bool any = f->objective_exempt_fleet;
	for (int t = 0; t < f->n_teams; t++)
		any = any || f->objective_exempt_team[t];
	for (int k = 0; k < f->n_classes; k++)
		any = any || f->objective_exempt_class[k];
	return any;
}

/* Append one group that misses the objective to buf: its P90 wait, or the
 * jobs it left not done ("all jobs" when name is ""). */
static void miss_text(char *buf, size_t size, const char *kind, const char *name, const struct fleet_group *g)
{
	size_t used = strlen(buf);
	if (used + 1 >= size)
		return;
	if (g->jobs_done < g->jobs_submitted)
		snprintf(buf + used, size - used, "%s%s%s%s%s: %ld of %ld jobs not done", used > 0 ? ", " : "", kind,
			 name[0] ? " \"" : "", name, name[0] ? "\"" : "", g->jobs_submitted - g->jobs_done,
			 g->jobs_submitted);
	else
		snprintf(buf + used, size - used, "%s%s%s%s%s %s %.3g h at P90", used > 0 ? ", " : "", kind,
			 name[0] ? " \"" : "", name, name[0] ? "\"" : "", name[0] ? "waits" : "wait", g->wait_h.p90);
}

/* Say which groups miss the objective, classes first (the finest), then
 * teams, then the fleet's P90 over all jobs; at most MISSES_LISTED named. */
static void note_misses(struct fleet_result *r, const struct fleet_spec *f, const struct fleet_metrics *m)
{
	enum { MISSES_LISTED = 3 };
	char buf[320] = "";
	int n = 0;
	for (int k = 0; k < m->n_classes; k++)
		if (!f->objective_exempt_class[k] && !fleet_group_meets(f, &m->classes[k]) && n++ < MISSES_LISTED)
			miss_text(buf, sizeof buf, "class", f->classes[k].name, &m->classes[k]);
	for (int t = 0; t < m->n_teams; t++)
		if (!f->objective_exempt_team[t] && !fleet_group_meets(f, &m->teams[t]) && n++ < MISSES_LISTED)
			miss_text(buf, sizeof buf, "team", m->teams[t].team, &m->teams[t]);
	if (!f->objective_exempt_fleet && !fleet_group_meets(f, &m->fleet) && n++ < MISSES_LISTED)
		miss_text(buf, sizeof buf, "all jobs", "", &m->fleet);
	if (n == 0)
		return;
	if (n > MISSES_LISTED)
		outcome_add(&r->outcome, "the P90 wait objective of %g h is not met: %s and %d more", f->objective_wait_p90_h, buf,
		     n - MISSES_LISTED);
	else
		outcome_add(&r->outcome, "the P90 wait objective of %g h is not met: %s", f->objective_wait_p90_h, buf);
}

/*
 * The fewest nodes in [lo, ...] on which `jobs` meet the objective, by
 * bisection (a node more never lengthens the P90 wait: assumed, see
 * docs/explanation/fleet.md), starting from `start` (lo when below it), looking no
 * further than SIZING_GROWTH_MAX times that start (*cap_out); 0 when no
 * count up to there does.
 */
static int size_nodes(const struct fleet_ctx *x, const struct fleet_spec *spec, const struct fleet_job *jobs,
		      size_t n_jobs, const bool *teams, int lo, int start, int *cap_out)
{
	struct fleet_metrics *m = xmalloc(sizeof *m);
	char reason[256];
	double u = 0;
	int hi = start < lo ? lo : start, fail_at = lo - 1, found = 0;
	int cap = hi < SIZING_NODES_MAX / SIZING_GROWTH_MAX ? hi * SIZING_GROWTH_MAX : SIZING_NODES_MAX;

	if (cap < hi)
		cap = hi;
	*cap_out = cap;
	/* grow until a count meets the objective */
	for (;;) {
		if (simulate(x, spec, jobs, n_jobs, teams, hi, m, &u, NULL, reason, sizeof reason) == 0 && meets(spec, m)) {
			found = hi;
			break;
		}
		fail_at = hi;
		if (hi >= cap)
			goto out;
		hi = hi * 2 < cap ? hi * 2 : cap;
	}
	/* fail_at fails (or is below the fewest that hold the largest job), found meets */
	if (fail_at < lo - 1)
		fail_at = lo - 1;
	while (found - fail_at > 1) {
		int mid = fail_at + (found - fail_at) / 2;
		if (simulate(x, spec, jobs, n_jobs, teams, mid, m, &u, NULL, reason, sizeof reason) == 0 && meets(spec, m)) {
			found = mid;
		} else {
			fail_at = mid;
		}
	}
out:
	free(m);
	return found;
}

struct edge {
	double t;
	int d;    /* + GPUs at a start, - at an end */
};

/* By time, an end before a start at the same instant. */
static int edge_order(const void *a, const void *b)
{
	const struct edge *p = a, *q = b;
	if (p->t != q->t)
		return p->t < q->t ? -1 : 1;
	return (p->d > q->d) - (p->d < q->d);
}

/* The most GPUs the batch jobs ask at once if none waited (each from its
 * submission for its duration), in whole nodes. */
static int peak_nodes(const struct fleet_ctx *x, const struct fleet_job *jobs, size_t n)
{
	struct edge *e = xcalloc(2 * n + 1, sizeof *e);
	int gpn = x->c->gpus_per_node;
	long cur = 0, peak = 0;
	for (size_t i = 0; i < n; i++) {
		e[2 * i] = (struct edge){ jobs[i].submit_s, jobs[i].gpus };
		e[2 * i + 1] = (struct edge){ jobs[i].submit_s + jobs[i].duration_s, -jobs[i].gpus };
	}
	qsort(e, 2 * n, sizeof *e, edge_order);
	for (size_t i = 0; i < 2 * n; i++) {
		cur += e[i].d;
		if (cur > peak)
			peak = cur;
	}
	free(e);
	return (int)((peak + gpn - 1) / gpn);
}

/* The fewest nodes that hold the largest job beside the services. */
static int fewest_nodes(const struct fleet_ctx *x, const bool *teams, int max_gpus)
{
	int gpn = x->c->gpus_per_node;
	int batch = max_gpus > 0 ? (max_gpus + gpn - 1) / gpn : 0;
	int n = sum_services(x, teams) + batch;
	return n > 0 ? n : 1;
}

/* The sizing answer: on one shared cluster, one cluster per team, and
 * rented for the peak, each priced over the candidate's window window_s
 * (so that the three compare). The shared cluster's search starts at the
 * candidate's nodes, or at the fewest that hold the jobs when it has fewer. */
static void sizing(struct fleet_ctx *x, double window_s, struct fleet_result *r)
{
	const struct fleet_spec *f = x->f;
	int cap;

	r->sized_nodes = size_nodes(x, f, x->jobs, x->n_jobs, NULL, fewest_nodes(x, NULL, x->max_job_gpus),
				    x->c->nodes, &cap);
	r->sized_usd = nodes_usd(x, r->sized_nodes, window_s);
	if (r->sized_nodes == 0)
		outcome_add(&r->outcome, "no cluster of up to %d nodes meets the P90 wait objective of %g h", cap, f->objective_wait_p90_h);
	else if (r->outcome.status != OUTCOME_OK || !r->meets_objective)
		outcome_add(&r->outcome, "%d nodes of this type meet the P90 wait objective of %g h for %s (sized_nodes)", r->sized_nodes,
		     f->objective_wait_p90_h, exempts_any(f) ? "each group it applies to" : "every class and team");

	/* each team alone: its jobs and services, no quotas */
	struct fleet_spec *alone = xmalloc(sizeof *alone);
	struct fleet_job *mine = xcalloc(x->n_jobs + 1, sizeof *mine);
	*alone = *f;
	memset(alone->team_quota, 0, sizeof alone->team_quota);
	r->per_team_nodes = 0;
	r->per_team_usd = 0;
	for (int t = 0; t < f->n_teams; t++) {
		bool teams[FLEET_TEAMS_MAX] = { false };
		size_t n = 0;
		int max_gpus = 0;
		teams[t] = true;
		for (size_t i = 0; i < x->n_jobs; i++) {
			if (x->jobs[i].team != t)
				continue;
			mine[n++] = x->jobs[i];
			if (x->jobs[i].gpus > max_gpus)
				max_gpus = x->jobs[i].gpus;
		}
		if (n == 0 && x->service_nodes[t] == 0)
			continue;
		int lo = fewest_nodes(x, teams, max_gpus);
		int got = size_nodes(x, alone, mine, n, teams, lo, lo, &cap);
		if (got == 0) {
			outcome_add(&r->outcome, "team \"%s\" alone meets the objective on no cluster of up to %d nodes", f->team_names[t],
			     cap);
			r->per_team_nodes = 0;
			r->per_team_usd = 0;
			break;
		}
		r->per_team_nodes += got;
		r->per_team_usd += nodes_usd(x, got, window_s);
	}
	free(mine);
	free(alone);
	int pn = sum_services(x, NULL) + peak_nodes(x, x->jobs, x->n_jobs);
	r->peak_nodes = pn > 0 ? pn : 1;
	r->peak_usd = nodes_usd(x, r->peak_nodes, window_s);
	if (!r->priced)
		r->sized_usd = r->per_team_usd = r->peak_usd = 0;
}

/* The window the jobs are counted and billed over, as fleet_sim sets it:
 * warmup_h to duration_h, or to the last submission when later. */
static double window_s_of(const struct fleet_ctx *x)
{
	double w0 = x->f->warmup_h * 3600, w1 = x->f->duration_h * 3600;
	if (x->n_jobs > 0 && x->jobs[x->n_jobs - 1].submit_s > w1)
		w1 = x->jobs[x->n_jobs - 1].submit_s;
	return w1 > w0 ? w1 - w0 : 0;
}

/*
 * A commitment against on-demand for this job mix: the candidate's reserved
 * price (its term paid every hour whatever the use) beats the same
 * offering's on-demand price, paid only for the GPU-hours the jobs hold,
 * above break-even = committed / on-demand of its hours used
 * (billing_commit_breakeven). The jobs' use is the allocated share of the
 * held GPU-hours over the window, taken as the year's. Says nothing unless
 * the price is a reserved one with a catalog on-demand price to weigh.
 */
static void note_commitment(struct fleet_result *r, const struct cluster_spec *c)
{
	const struct price_quote *q = &c->price;
	if (!r->priced || q->type != PRICE_RESERVED || !(q->on_demand_usd_per_gpu_hour > 0) ||
	    !(r->m.held_gpu_hours > 0))
		return;
	int gpus = (int)cluster_gpus(c);
	double window_h = r->m.held_gpu_hours / gpus;
	double even = billing_commit_breakeven(q->usd_per_gpu_hour, q->on_demand_usd_per_gpu_hour);
	double use = billing_year_use(r->m.allocated_gpu_hours, gpus, window_h);
	/* a year of each: the commitment for every GPU-hour, on-demand for the used ones */
	double commit_year = q->usd_per_gpu_hour * gpus * BILLING_YEAR_H;
	double od_year = q->on_demand_usd_per_gpu_hour * gpus * BILLING_YEAR_H * use;
	outcome_add(&r->outcome, "a %s%scommitment at $%.4g/GPU-h beats on-demand at $%.4g/GPU-h above %.1f%% use of its "
		    "hours; this job mix uses %.1f%% of the %d GPUs' hours (allocated over the window, taken as a "
		    "year's): a year of it costs $%.0f, on-demand for the used hours $%.0f, the commitment %s",
		    q->term, q->term[0] ? " " : "", q->usd_per_gpu_hour, q->on_demand_usd_per_gpu_hour, 100 * even,
		    100 * use, gpus, commit_year, od_year, use > even ? "the cheaper" : "the dearer");
}

void fleet_run(const struct fleet_spec *f, const struct cluster_spec *c, uint64_t seed, uint64_t row_id,
	       fleet_eval_fn *eval, void *ctx, struct fleet_result *r)
{
	fleet_run_series(f, c, seed, row_id, eval, ctx, NULL, r);
}

void fleet_run_series(const struct fleet_spec *f, const struct cluster_spec *c, uint64_t seed, uint64_t row_id,
		      fleet_eval_fn *eval, void *ctx, struct fleet_series *series, struct fleet_result *r)
{
	struct fleet_ctx *x = xcalloc(1, sizeof *x);
	char reason[256] = "";
	double usd = 0;

	if (series != NULL)
		memset(series, 0, sizeof *series);
	x->series = series;

	memset(r, 0, sizeof *r);
	r->outcome.status = OUTCOME_OK;
	x->f = f;
	x->c = c;
	x->seed = seed;
	x->row_id = row_id;
	for (int i = 0; i < f->n_classes; i++) {
		const struct fleet_class *k = &f->classes[i];
		if (k->arrival != FLEET_ARRIVAL_TRACE && k->gpus > c->gpus_per_node && k->gpus % c->gpus_per_node != 0) {
			outcome_set(&r->outcome, OUTCOME_INVALID, "jobs[%d] \"%s\": %d GPUs span nodes but are not a whole number of "
			     "%d-GPU nodes", i, k->name, k->gpus, c->gpus_per_node);
			goto out;
		}
	}
	if (evaluate_classes(x, eval, ctx, r) < 0)
		goto out;
	if (load_jobs(x, r) < 0)
		goto out;
	int need = fewest_nodes(x, NULL, x->max_job_gpus);
	if (need > c->nodes) {
		/* too small for the jobs as stated: not ok, but the answer the user
		 * acts on is how many nodes it needs */
		outcome_set(&r->outcome, OUTCOME_INVALID, "needs at least %d nodes (the largest job asks for %d GPUs%s), the candidate has %d",
		     need, x->max_job_gpus, sum_services(x, NULL) > 0 ? " beside the services' nodes" : "", c->nodes);
		r->priced = c->price.known;
		if (f->objective_wait_p90_h > 0)
			sizing(x, window_s_of(x), r);
		goto out;
	}
	if (simulate(x, f, x->jobs, x->n_jobs, NULL, c->nodes, &r->m, &usd, x->series, reason, sizeof reason) < 0) {
		outcome_set(&r->outcome, OUTCOME_INVALID, "%s", reason);
		goto out;
	}
	r->priced = c->price.known;
	r->usd_total = r->priced ? usd : 0;
	r->usd_per_job = r->priced && r->m.fleet.jobs_done > 0 ? usd / (double)r->m.fleet.jobs_done : 0;
	r->meets_objective = meets(f, &r->m);
	/* the verdict and the sizing answer first: what the user acts on */
	if (!r->meets_objective)
		note_misses(r, f, &r->m);
	note_commitment(r, c);
	if (r->m.fleet.jobs_done < r->m.fleet.jobs_submitted)
		outcome_add(&r->outcome, "%ld of the %ld jobs counted were not done by the run's end (the queue did not drain)",
		     r->m.fleet.jobs_submitted - r->m.fleet.jobs_done, r->m.fleet.jobs_submitted);
	if (f->objective_wait_p90_h > 0)
		sizing(x, r->m.held_gpu_hours / (double)cluster_gpus(c) * 3600, r);
	for (int i = 0; i < f->n_classes; i++) {
		const struct fleet_trace *t = f->classes[i].trace_jobs;
		if (t != NULL && t->skipped_steps + t->skipped_no_gpus + t->skipped_not_run > 0)
			outcome_add(&r->outcome, "jobs[%d] \"%s\": the trace's %ld job steps, %ld jobs without GPUs and %ld jobs never "
			     "started or not ended are not replayed", i, f->classes[i].name, t->skipped_steps,
			     t->skipped_no_gpus, t->skipped_not_run);
	}
	if (x->rounded > 0)
		outcome_add(&r->outcome, "%ld trace jobs of more than a node but not whole nodes hold their nodes whole", x->rounded);
	for (int i = 0; i < f->n_classes; i++) {
		const struct fleet_class_eval *e = &x->ce[i];
		if (f->classes[i].workload == NULL)
			continue;
		if (e->service)
			outcome_add(&r->outcome, "\"%s\": a service of %d GPUs", f->classes[i].name, e->gpus);
		else
			outcome_add(&r->outcome, "\"%s\": %.3g h a job on %d GPUs", f->classes[i].name, e->duration_s / 3600, e->gpus);
	}
	if (sum_services(x, NULL) > 0)
		outcome_add(&r->outcome, "services hold %d of the %d nodes for the whole window", sum_services(x, NULL), c->nodes);
	if (!r->priced)
		outcome_add(&r->outcome, "%s", c->price.missing[0] ? c->price.missing : "no price: give candidates[].price");
out:
	free(x->jobs);
	free(x);
}

void fleet_allocation(const struct cluster_spec *c, int gpus, struct cluster_spec *out)
{
	*out = *c;
	if (gpus >= c->gpus_per_node) {
		out->nodes = gpus / c->gpus_per_node;
		return;
	}
	out->nodes = 1;
	out->gpus_per_node = gpus;
	if (out->nics_per_node > gpus)
		out->nics_per_node = gpus;
}
