#include "fleet_sim.h"

#include <assert.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/fleet/fleet_load.h"
#include "models/fleet/fleet_metrics.h"
#include "models/fleet/fleet_place.h"
#include "models/fleet/fleet_sched.h"
#include "models/run/failure.h"
#include "sim/engine.h"
#include "sim/rng.h"
#include "sim/time.h"
#include "util/container.h"
#include "util/heap.h"
#include "util/text.h"
#include "util/xalloc.h"

/* Jobs a scheduling pass looks at past the first one that cannot start
 * (backfill candidates; jobs a quota holds back): Slurm's backfill default
 * (slurm.conf bf_max_job_test = 500), so a queue of 10^5 costs no more per
 * pass than one of 500. */
#define FLEET_QUEUE_DEPTH 500

/* The run stops at the latest this long after the window's end (10 times
 * the window, at least 30 days), and never past the engine's clock's end
 * (2^63 ns, 292 years), so a cluster far too small for its load, or a job
 * that fails faster than it checkpoints, still ends; jobs not done then show
 * as jobs_done < jobs_submitted. */
#define FLEET_CAP_WINDOWS 10.0
#define FLEET_CAP_MIN_S (30 * 86400.0)

double fleet_sim_cap_s(double window_end_s)
{
	double cap = window_end_s + fmax(FLEET_CAP_WINDOWS * window_end_s, FLEET_CAP_MIN_S);
	return cap < SIM_TIME_MAX_S ? cap : SIM_TIME_MAX_S;
}

/* ---- preemption ---- */

struct victim {
	int prio;
	double start_s;
	int job;
};

/* Lowest priority first; among equals the most recently started first. */
static int cmp_victim(const void *pa, const void *pb)
{
	const struct victim *x = pa, *y = pb;
	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	if (x->start_s != y->start_s)
		return x->start_s > y->start_s ? -1 : 1;
	return (x->job < y->job) - (x->job > y->job);
}

/* Waiting job w cannot start: free its GPUs by preempting running jobs of
 * lower priority, the lowest and most recently started first: the shortest
 * prefix of that order that makes it fit, and of those only the ones on
 * the nodes it would then take. True when it now fits. */
static bool try_preempt(struct fleet_sched *s, int w)
{
	int pw = s->jobs[w].j.priority, n = 0;
	long below = 0;
	for (int r = s->jobs[w].prank + 1; r < s->n_prio; r++)
		below += s->run_by_prank[r];
	if (below == 0)
		return false;
	for (size_t k = 0; k < s->n_run; k++)
		if (s->jobs[s->run[k]].j.priority < pw)
			n++;
	if (n == 0)
		return false;
	struct victim *vs = xmalloc((size_t)n * sizeof *vs);
	n = 0;
	for (size_t k = 0; k < s->n_run; k++) {
		const struct fleet_sched_job *v = &s->jobs[s->run[k]];
		if (v->j.priority < pw)
			vs[n++] = (struct victim){ v->j.priority, v->seg_start_s, s->run[k] };
	}
	qsort(vs, (size_t)n, sizeof *vs, cmp_victim);
	fleet_place_copy(&s->scratch, &s->place);
	int need = -1;
	for (int k = 0; k < n; k++) {
		const struct fleet_sched_job *v = &s->jobs[vs[k].job];
		fleet_place_give(&s->scratch, s->alloc_nodes + v->alloc_off, &v->alloc);
		if (fleet_place_fits(&s->scratch, s->jobs[w].j.gpus)) {
			need = k + 1;
			break;
		}
	}
	if (need > 0) {
		/* of those, only the ones on the nodes w would take matter */
		struct fleet_alloc a;
		fleet_place_take(&s->scratch, s->jobs[w].j.gpus, s->tmp, &a);
		for (int k = 0; k < need; k++) {
			int v = vs[k].job;
			const int *vn = s->alloc_nodes + s->jobs[v].alloc_off;
			bool hit = false;
			for (int x = 0; x < s->jobs[v].alloc.n && !hit; x++)
				for (int y = 0; y < a.n && !hit; y++)
					hit = vn[x] == s->tmp[y];
			if (!hit)
				continue;
			s->jobs[v].preemptions++;
			s->preemptions++;
			fleet_sched_interrupt(s, v);
		}
	}
	free(vs);
	if (need < 0)
		return false;
	assert(fleet_place_fits(&s->place, s->jobs[w].j.gpus));
	return true;
}

/* ---- the scheduling pass ---- */

/* Priority policy: team quota (max fraction of the GPUs while another
 * team's job waits) holds this job back. */
static bool quota_holds(const struct fleet_sched *s, int i)
{
	const struct fleet_sched_job *jb = &s->jobs[i];
	int t = jb->j.team;
	if (s->sp->policy != FLEET_PRIORITY || t >= FLEET_TEAMS_MAX || !(s->sp->team_quota[t] > 0))
		return false;
	if (s->waiting - s->team_waiting[t] <= 0)
		return false;
	return (double)(s->team_held_gpus[t] + jb->j.gpus) > s->sp->team_quota[t] * (double)s->total_gpus + 1e-9;
}

/* FIFO, SJF, priority: jobs in the policy's order start while they fit;
 * the first that fits nowhere (and cannot preempt) blocks the rest. */
static void pass_strict(struct fleet_sched *s)
{
	bool pre = s->sp->preemption;
	if (fleet_sched_sjf(s)) {
		while (s->heap_n > 0) {
			int i = s->heap[0];
			if (fleet_place_fits(&s->place, s->jobs[i].j.gpus) || (pre && try_preempt(s, i)))
				fleet_sched_start(s, i);
			else
				break;
		}
		return;
	}
	int looked = 0;
	for (int l = 0; l < s->n_levels; l++)
		for (int i = s->head[l], nx; i >= 0; i = nx) {
			nx = s->jobs[i].next;
			if (quota_holds(s, i)) {
				if (++looked > FLEET_QUEUE_DEPTH)
					return;
				continue;
			}
			if (fleet_place_fits(&s->place, s->jobs[i].j.gpus) || (pre && try_preempt(s, i))) {
				fleet_sched_start(s, i);
				continue;
			}
			return;
		}
}

struct rel {
	double t_s;
	int what;
};

static int cmp_rel(const void *pa, const void *pb)
{
	const struct rel *a = pa, *b = pb;
	if (a->t_s != b->t_s)
		return (a->t_s > b->t_s) - (a->t_s < b->t_s);
	return (a->what > b->what) - (a->what < b->what);
}

/* The head job h's reservation: the earliest time it fits if running jobs
 * end at their estimated ends and failed nodes come back at their repair
 * times, and the nodes it would take then (into s->tmp, count returned).
 * *shadow_s = INFINITY when it never fits that way. */
static int reserve(struct fleet_sched *s, int h, double *shadow_s)
{
	fleet_place_copy(&s->scratch, &s->place);
	size_t nr = 0;
	for (int n = 0; n < s->place.nodes; n++)
		if (!s->up[n]) {
			s->rel[nr].t_s = s->repair_at_s[n];
			s->rel[nr].what = -1 - n;
			nr++;
		}
	if (nr > 1)
		qsort(s->rel, nr, sizeof *s->rel, cmp_rel);
	size_t ri = 0, ji = 0;
	int g = s->jobs[h].j.gpus;
	*shadow_s = INFINITY;
	double t = fleet_sched_now_s(s);
	while (ri < nr || ji < s->n_run) {
		double tr = ri < nr ? s->rel[ri].t_s : INFINITY;
		double tj = ji < s->n_run ? s->jobs[s->run[ji]].est_end_s : INFINITY;
		double at;
		if (tr < tj) {
			fleet_place_set_usable(&s->scratch, -1 - s->rel[ri].what, true);
			at = tr;
			ri++;
		} else {
			const struct fleet_sched_job *v = &s->jobs[s->run[ji]];
			fleet_place_give(&s->scratch, s->alloc_nodes + v->alloc_off, &v->alloc);
			at = tj;
			ji++;
		}
		if (fleet_place_fits(&s->scratch, g)) {
			*shadow_s = at > t ? at : t;
			struct fleet_alloc a;
			fleet_place_take(&s->scratch, g, s->tmp, &a);
			return a.n;
		}
	}
	return 0;
}

static void block(struct fleet_sched *s, const int *nodes, int n, bool on)
{
	for (int k = 0; k < n; k++)
		if (s->up[nodes[k]])
			fleet_place_set_usable(&s->place, nodes[k], !on);
}

/* EASY backfill (Lifka 1995; Mu'alem and Feitelson 2001): FIFO starts
 * while the head fits; then the head gets a reservation (reserve()), and a
 * later job starts now when it fits on nodes the head does not need at the
 * reservation, or anywhere when its estimate ends it before then. So no
 * backfilled job delays the head, as long as estimates are not shorter
 * than the jobs. */
static void pass_backfill(struct fleet_sched *s)
{
	int h;
	while ((h = s->head[0]) >= 0) {
		if (fleet_place_fits(&s->place, s->jobs[h].j.gpus) || (s->sp->preemption && try_preempt(s, h)))
			fleet_sched_start(s, h);
		else
			break;
	}
	if (h < 0)
		return;
	double t = fleet_sched_now_s(s);
	int looked = 0;
	bool have = false;
	int *res = s->res_nodes;
	long free_all = s->place.free_gpus;   /* free GPUs, reserved nodes included */
	for (int i = s->jobs[h].next, nx; i >= 0 && looked < FLEET_QUEUE_DEPTH && free_all > 0; i = nx, looked++) {
		nx = s->jobs[i].next;
		int g = s->jobs[i].j.gpus;
		if (g > free_all)
			continue;
		if (!have) {
			if (!fleet_place_fits(&s->place, g))
				continue;
			/* the reservation stands while the head is the same, nothing
			 * stopped, failed or came back, and its time is not past */
			if (s->res_head != h || s->res_gen != s->gen || s->res_shadow_s < t) {
				s->res_n = reserve(s, h, &s->res_shadow_s);
				memcpy(res, s->tmp, (size_t)s->res_n * sizeof *res);
				s->res_head = h;
				s->res_gen = s->gen;
				s->jobs[h].reservation_s = s->res_shadow_s;
			}
			have = true;
			block(s, res, s->res_n, true);
		}
		double shadow = s->res_shadow_s;
		int n_res = s->res_n;
		if (fleet_place_fits(&s->place, g)) {
			fleet_sched_start(s, i);
			free_all -= g;
			continue;
		}
		if (t + fleet_sched_remaining_est_s(&s->jobs[i]) <= shadow) {
			block(s, res, n_res, false);
			if (fleet_place_fits(&s->place, g)) {
				fleet_sched_start(s, i);
				free_all -= g;
			}
			block(s, res, n_res, true);
		}
	}
	if (have)
		block(s, res, s->res_n, false);
}

/* Free GPUs (on nodes in service) that no waiting job can use: all of them
 * when the smallest waiting job fits nowhere, else none. */
static void frag_update(struct fleet_sched *s)
{
	double t = fleet_sched_now_s(s);
	s->frag_area += s->frag_level * fleet_sched_clip(s, s->frag_t_s, t);
	s->frag_t_s = t;
	s->frag_level = 0;
	if (s->waiting > 0 && !fleet_place_fits(&s->place, fleet_sched_wc_min(s)))
		s->frag_level = (double)s->place.free_gpus;
}

static void on_pass(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	(void)arg;
	struct fleet_sched *s = container_of(h, struct fleet_sched, on_pass);
	fleet_sched_tick(s);
	s->pass_pending = false;
	if (s->sp->policy == FLEET_BACKFILL)
		pass_backfill(s);
	else
		pass_strict(s);
	frag_update(s);
}

static void on_submit(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct fleet_sched *s = container_of(h, struct fleet_sched, on_submit);
	fleet_sched_tick(s);
	size_t i = (size_t)arg;
	fleet_sched_enqueue(s, (int)i, false);
	s->next_submit = i + 1;
	if (i + 1 < s->n_jobs) {
		int64_t at = sim_time_from_s(s->jobs[i + 1].j.submit_s);
		engine_at(e, at > engine_now(e) ? at : engine_now(e), ENGINE_CLASS_WORK, &s->on_submit, i + 1);
	}
	fleet_sched_request_pass(s);
}

/* ---- failures ---- */

struct unit {
	double at_s;
	int node, group;             /* group 0: a GPU, 1: a node */
};

/* Weibull failures: the earliest first, the lower node on a tie. */
static bool unit_before(const void *pa, const void *pb, void *ctx)
{
	const struct unit *a = pa, *b = pb;
	(void)ctx;
	return a->at_s < b->at_s || (a->at_s == b->at_s && a->node < b->node);
}

static const struct heap_ops unit_heap = { .size = sizeof(struct unit), .arity = 2, .before = unit_before };

static void schedule_failure(struct fleet_sched *s)
{
	double at;
	if (s->n_units > 0)
		at = s->units[0].at_s;
	else
		at = fleet_sched_now_s(s) + gsl_ran_exponential(s->fail_rng, s->fr.job_mtbf_s);
	engine_at(s->e, sim_time_from_s(at) > engine_now(s->e) ? sim_time_from_s(at) : engine_now(s->e), ENGINE_CLASS_WORK,
		  &s->on_fail, 0);
}

/* A node fails: every job on it stops (back to the queue's front from its
 * last checkpoint, paying restart_s), and the node is out for the repair
 * time. A failure drawn for a node already out is dropped. */
static void on_fail(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	(void)arg;
	struct fleet_sched *s = container_of(h, struct fleet_sched, on_fail);
	fleet_sched_tick(s);
	int node;
	if (s->n_units > 0) {
		/* Weibull: each GPU and node its own renewal process */
		struct unit *u = &s->units[0];
		node = u->node;
		u->at_s += gsl_ran_weibull(s->fail_rng, s->fr.scale_s[u->group], s->fr.shape);
		heap_sift_down(&unit_heap, s->units, s->n_units, 0, NULL);
	} else {
		/* exponential: the cluster's Poisson process, every node alike */
		node = (int)gsl_rng_uniform_int(s->fail_rng, (unsigned long)s->place.nodes);
	}
	schedule_failure(s);
	if (!s->up[node])
		return;
	s->failures++;
	s->gen++;
	int n = 0;
	for (size_t k = 0; k < s->n_run; k++) {
		const struct fleet_sched_job *jb = &s->jobs[s->run[k]];
		const int *nodes = s->alloc_nodes + jb->alloc_off;
		for (int m = 0; m < jb->alloc.n; m++)
			if (nodes[m] == node) {
				s->tmp[n++] = s->run[k];
				break;
			}
	}
	for (int k = 0; k < n; k++) {
		s->jobs[s->tmp[k]].failures++;
		fleet_sched_interrupt(s, s->tmp[k]);
	}
	if (s->repair_s > 0) {
		s->up[node] = 0;
		s->repair_at_s[node] = fleet_sched_now_s(s) + s->repair_s;
		fleet_place_set_usable(&s->place, node, false);
		engine_after(s->e, sim_time_from_s(s->repair_s), ENGINE_CLASS_WORK, &s->on_repair, (uint64_t)node);
	}
	fleet_sched_request_pass(s);
}

static void on_repair(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	struct fleet_sched *s = container_of(h, struct fleet_sched, on_repair);
	fleet_sched_tick(s);
	int node = (int)arg;
	s->gen++;
	s->up[node] = 1;
	fleet_place_set_usable(&s->place, node, true);
	fleet_sched_request_pass(s);
}

/* The fleet's failure processes from the whole-run model's resolution on
 * a cluster of this shape. */
static void failures_init(struct fleet_sched *s)
{
	const struct fleet_spec *sp = s->sp;
	struct cluster_spec *c = xcalloc(1, sizeof *c);
	c->nodes = s->place.nodes;
	c->gpus_per_node = s->place.gpn;
	s->fail_on = failure_resolve(&sp->failures, c, &s->fr);
	free(c);
	if (!s->fail_on)
		return;
	/* A failed node is out for the whole-run model's repair time; when spares
	 * are always there (spare_nodes < 0, as the llama3 preset) it is replaced
	 * at once. */
	s->repair_s = s->fr.spare_nodes < 0 ? 0 : s->fr.repair_s;
	s->fail_rng = rng_stream_new(s->cfg->seed, s->cfg->row_id, RNG_FAILURES);
	if (s->fr.shape > 0) {
		size_t n = (size_t)(s->fr.units[0] + s->fr.units[1]), k = 0;
		s->units = xmalloc(n * sizeof *s->units);
		for (long g = 0; g < s->fr.units[0]; g++, k++) {
			s->units[k].at_s = gsl_ran_weibull(s->fail_rng, s->fr.scale_s[0], s->fr.shape);
			s->units[k].node = (int)(g / s->place.gpn);
			s->units[k].group = 0;
		}
		for (long m = 0; m < s->fr.units[1]; m++, k++) {
			s->units[k].at_s = gsl_ran_weibull(s->fail_rng, s->fr.scale_s[1], s->fr.shape);
			s->units[k].node = (int)m;
			s->units[k].group = 1;
		}
		s->n_units = n;
		heap_make(&unit_heap, s->units, n, NULL);
	}
	schedule_failure(s);
}

/* ---- the run ---- */

static int check_jobs(struct fleet_sched *s, char *reason, size_t reason_len)
{
	const struct fleet_sim_config *cfg = s->cfg;
	for (size_t i = 0; i < s->n_jobs; i++) {
		const struct fleet_job *j = &s->jobs[i].j;
		const char *why = fleet_place_invalid(&s->place, j->gpus);
		const char *cls = j->cls >= 0 && j->cls < s->sp->n_classes ? s->sp->classes[j->cls].name : "?";
		if (why != NULL) {
			text_setf(reason, reason_len, "class '%s': a job of %d GPUs on %d nodes of %d GPUs: %s", cls,
				 j->gpus, cfg->nodes, cfg->gpus_per_node, why);
			return -1;
		}
		if (!isfinite(j->duration_s) || j->duration_s < 0 || !isfinite(j->submit_s) || j->submit_s < 0) {
			text_setf(reason, reason_len, "class '%s': a job with submission %g s and duration %g s", cls,
				 j->submit_s, j->duration_s);
			return -1;
		}
	}
	return 0;
}

int fleet_sim_run(const struct fleet_sim_config *cfg, struct fleet_metrics *out, char *reason, size_t reason_len)
{
	memset(out, 0, sizeof *out);
	if (cfg->nodes <= 0 || cfg->gpus_per_node <= 0) {
		text_setf(reason, reason_len, "a fleet of %d nodes of %d GPUs", cfg->nodes, cfg->gpus_per_node);
		return -1;
	}
	if ((double)cfg->nodes * cfg->gpus_per_node > FLEET_SIM_MAX_GPUS) {
		text_setf(reason, reason_len, "a fleet of %d nodes of %d GPUs: at most %.0f GPUs are simulated (a GPU's "
			 "failures and free slots are kept one by one)", cfg->nodes, cfg->gpus_per_node,
			 (double)FLEET_SIM_MAX_GPUS);
		return -1;
	}
	struct fleet_sched *s = xcalloc(1, sizeof *s);
	int rc = -1;
	bool capped = false;
	if (cfg->util_series != NULL)
		memset(cfg->util_series, 0, cfg->n_series * sizeof *cfg->util_series);
	if (cfg->busy_series != NULL)
		memset(cfg->busy_series, 0, cfg->n_series * sizeof *cfg->busy_series);
	if (cfg->queued_series != NULL)
		memset(cfg->queued_series, 0, cfg->n_series * sizeof *cfg->queued_series);
	s->cfg = cfg;
	s->sp = cfg->spec;
	fleet_place_init(&s->place, cfg->nodes, cfg->gpus_per_node, cfg->domain_gpus, cfg->nodes_per_leaf);
	fleet_place_init(&s->scratch, cfg->nodes, cfg->gpus_per_node, cfg->domain_gpus, cfg->nodes_per_leaf);
	s->total_gpus = (long)cfg->nodes * cfg->gpus_per_node;

	struct fleet_job *jobs;
	if (fleet_load_jobs(cfg, &jobs, &s->n_jobs, s->teams, &s->n_teams, reason, reason_len) != 0)
		goto out;
	s->jobs = xcalloc(s->n_jobs ? s->n_jobs : 1, sizeof *s->jobs);
	size_t off = 0;
	for (size_t i = 0; i < s->n_jobs; i++) {
		struct fleet_sched_job *jb = &s->jobs[i];
		jb->j = jobs[i];
		jb->state = J_FUTURE;
		jb->counted = jb->j.submit_s >= s->sp->warmup_h * 3600;
		jb->prev = jb->next = -1;
		jb->first_start_s = jb->end_s = jb->reservation_s = -1;
		jb->gpus_placed = -1;
	}
	free(jobs);
	if (check_jobs(s, reason, reason_len) != 0)
		goto out;
	for (size_t i = 0; i < s->n_jobs; i++) {
		s->jobs[i].alloc_off = off;
		off += (size_t)fleet_sched_nodes_of(s, s->jobs[i].j.gpus);
	}
	s->alloc_nodes = xmalloc((off ? off : 1) * sizeof *s->alloc_nodes);
	fleet_sched_levels_init(s);
	s->heap = xmalloc((s->n_jobs ? s->n_jobs : 1) * sizeof *s->heap);
	s->run = xmalloc((s->n_jobs ? s->n_jobs : 1) * sizeof *s->run);
	s->tmp = xmalloc(((size_t)s->total_gpus + (size_t)cfg->nodes + 1) * sizeof *s->tmp);
	s->rel = xmalloc(((size_t)cfg->nodes + 1) * sizeof *s->rel);
	s->res_nodes = xmalloc(((size_t)cfg->nodes + 1) * sizeof *s->res_nodes);
	s->res_head = -1;
	s->up = xmalloc((size_t)cfg->nodes);
	memset(s->up, 1, (size_t)cfg->nodes);
	s->repair_at_s = xcalloc((size_t)cfg->nodes, sizeof *s->repair_at_s);

	/* the window: from the warm-up to the end of arrivals (or the last
	 * submission when later) */
	s->w0_s = s->sp->warmup_h * 3600;
	s->w1_s = s->sp->duration_h * 3600;
	if (s->n_jobs > 0 && s->jobs[s->n_jobs - 1].j.submit_s > s->w1_s)
		s->w1_s = s->jobs[s->n_jobs - 1].j.submit_s;
	if (s->w1_s < s->w0_s)
		s->w1_s = s->w0_s;

	s->e = engine_new();
	s->on_submit.fn = on_submit;
	s->on_finish.fn = fleet_sched_on_finish;
	s->on_fail.fn = on_fail;
	s->on_repair.fn = on_repair;
	s->on_pass.fn = on_pass;
	if (s->n_jobs > 0) {
		engine_at(s->e, sim_time_from_s(s->jobs[0].j.submit_s), ENGINE_CLASS_WORK, &s->on_submit, 0);
		failures_init(s);
		out->events = engine_run(s->e, sim_time_from_s(fleet_sim_cap_s(s->w1_s)));
		capped = s->done < s->n_jobs;  /* else it stopped when the last job was done */
	}
	if (s->too_long) {
		text_setf(reason, reason_len, "the fleet simulation passed %llu events (%zu jobs) before its end at %.4g h; "
			 "a shorter duration_h, fewer jobs or fewer failures would end", (unsigned long long)s->handled,
			 s->n_jobs, fleet_sched_now_s(s) / 3600);
		memset(out, 0, sizeof *out);
		goto out;
	}
	/* jobs still running at the cap: their runs so far count. A run that
	 * stopped at its cap (jobs were left) ends there, not at its last
	 * event: a job that runs past it held its GPUs all the way. */
	double t_end = capped ? fmax(fleet_sched_now_s(s), fleet_sim_cap_s(s->w1_s)) : fleet_sched_now_s(s);
	while (s->n_run > 0)
		fleet_sched_stop(s, s->run[s->n_run - 1], t_end, 0);
	if (s->e != NULL)
		fleet_sched_queue_advance_to(s, t_end);
	if (cfg->end_s != NULL)
		*cfg->end_s = t_end;
	s->frag_area += s->frag_level * fleet_sched_clip(s, s->frag_t_s, s->w1_s > t_end ? s->w1_s : t_end);
	fleet_metrics_collect(s, out);
	for (size_t i = 0; cfg->records != NULL && i < cfg->n_records && i < s->n_jobs; i++) {
		const struct fleet_sched_job *jb = &s->jobs[i];
		cfg->records[i] = (struct fleet_job_record){
			.cls = jb->j.cls, .team = jb->j.team, .gpus = jb->j.gpus, .submit_s = jb->j.submit_s,
			.first_start_s = jb->first_start_s, .start_s = jb->state >= J_RUNNING ? jb->seg_start_s : -1,
			.end_s = jb->end_s, .gpus_placed = jb->gpus_placed, .nodes_spanned = jb->nodes_spanned,
			.leaves_spanned = jb->leaves_spanned, .domains_spanned = jb->domains_spanned,
			.preemptions = jb->preemptions, .failures = jb->failures, .lost_s = jb->lost_s,
			.reservation_s = jb->reservation_s,
		};
	}
	rc = 0;
out:
	fleet_sched_release(s);
	free(s);
	return rc;
}

/* Erlang C through the Erlang B recursion B(0) = 1, B(k) = a B(k-1) / (k +
 * a B(k-1)), which never overflows; then C = c B / (c - a (1 - B))
 * (Kleinrock, Queueing Systems vol. 1, sec. 3.5). */
double fleet_erlang_c(int c, double a)
{
	if (c <= 0 || !(a >= 0))
		return 1;
	if (a >= c)
		return 1;
	double b = 1;
	for (int k = 1; k <= c; k++)
		b = a * b / (k + a * b);
	return c * b / (c - a * (1 - b));
}
