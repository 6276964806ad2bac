#include "fleet_sim.h"

#include <assert.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/fleet/fleet_load.h"
#include "models/fleet/fleet_place.h"
#include "models/run/failure.h"
#include "sim/engine.h"
#include "sim/rng.h"
#include "sim/stats.h"
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

enum jstate { J_FUTURE, J_WAITING, J_RUNNING, J_DONE };

struct sjob {
	struct fleet_job j;
	enum jstate state;
	bool counted;                /* submitted at or after the warm-up */
	bool restarting;             /* its next start pays restart_s */
	int level;                   /* queue level (priority policy: by priority) */
	int prank;                   /* rank of its priority among the jobs', 0 = highest */
	int prev, next;              /* waiting list links */
	int qfront;                  /* SJF: 0 = requeued after a stop (goes first), 1 = new */
	size_t heap_pos;
	uint64_t qseq;
	double saved_s;              /* work done up to its last checkpoint */
	double seg_start_s, seg_restart_s, est_end_s;
	queue_id finish_ev;
	size_t alloc_off;
	struct fleet_alloc alloc;
	/* what the record reports */
	double first_start_s, end_s, lost_s, reservation_s;
	/* the engine's clock at its first start and at its end: waits and
	 * completion times are taken in whole nanoseconds, so a job that starts
	 * at its submission waits exactly 0 */
	int64_t first_start_ns, end_ns;
	int gpus_placed, nodes_spanned, leaves_spanned, domains_spanned;
	long preemptions, failures;
};

struct wcount {
	int gpus;
	long n;
};

struct unit {
	double at_s;
	int node, group;             /* group 0: a GPU, 1: a node */
};

struct sim {
	const struct fleet_sim_config *cfg;
	const struct fleet_spec *sp;
	engine *e;
	struct engine_handler on_submit, on_finish, on_fail, on_repair, on_pass;
	struct fleet_place place, scratch;
	long total_gpus;

	struct sjob *jobs;
	size_t n_jobs, next_submit, done;
	int *alloc_nodes;

	/* the queue: FIFO lists per level, or a heap (SJF) */
	int n_levels;
	int *head, *tail;
	int *heap;
	size_t heap_n;
	uint64_t qseq;
	long waiting;
	long team_waiting[FLEET_TEAMS_MAX];
	long team_held_gpus[FLEET_TEAMS_MAX];
	struct wcount *wc;           /* waiting jobs by GPU count, ascending */
	int n_wc;

	/* running jobs sorted by (estimated end, index) */
	int *run;
	size_t n_run;
	int n_prio;
	long *run_by_prank;          /* running jobs per priority rank */

	/* nodes */
	unsigned char *up;
	double *repair_at_s;
	double repair_s;
	bool fail_on;
	struct failure_rates fr;
	gsl_rng *fail_rng;
	struct unit *units;
	size_t n_units;

	bool pass_pending;
	/* backfill: the head's reservation, kept while nothing but finishes,
	 * submissions and reservation-respecting starts happened */
	uint64_t gen, res_gen;
	int res_head, res_n;
	double res_shadow_s;
	int *res_nodes;
	double w0_s, w1_s;           /* the window */

	/* sums over the window, GPU-seconds */
	double alloc_gpu_s, busy_gpu_s, team_gpu_s[FLEET_TEAMS_MAX], class_gpu_s[FLEET_CLASSES_MAX];
	double frag_area, frag_level, frag_t_s;
	long preemptions, failures;

	uint64_t handled;            /* events run (FLEET_SIM_MAX_EVENTS) */
	bool too_long;

	/* the series: jobs waiting integrated since queue_t_s */
	double queue_t_s;

	/* scratch for passes */
	int *tmp;
	struct rel *rel;             /* reservation: nodes coming back */

	int n_teams;
	char teams[FLEET_TEAMS_MAX][FLEET_NAME_MAX];
};

static double now_s(const struct sim *s)
{
	return (double)engine_now(s->e) * 1e-9;
}

static int nodes_of(const struct sim *s, int gpus)
{
	return gpus < s->place.gpn ? 1 : gpus / s->place.gpn;
}

/* Seconds of [a, b] inside the window. */
static double clip(const struct sim *s, double a, double b)
{
	double lo = a > s->w0_s ? a : s->w0_s, hi = b < s->w1_s ? b : s->w1_s;
	return hi > lo ? hi - lo : 0;
}

/* Add `level` over [a, b] to the series v's buckets (each bucket holds the
 * mean of its level over the bucket). */
static void series_add(const struct fleet_sim_config *cfg, double *v, double a, double b, double level)
{
	if (v == NULL || !(cfg->series_step_h > 0) || level == 0 || !(b > a))
		return;
	double step = cfg->series_step_h * 3600;
	for (size_t k = (size_t)(a / step); k < cfg->n_series && (double)k * step < b; k++) {
		double lo = fmax(a, (double)k * step), hi = fmin(b, (double)(k + 1) * step);
		if (hi > lo)
			v[k] += level * (hi - lo) / step;
	}
}

/* The waiting jobs since the last change of their number, up to now. */
static void queue_advance_to(struct sim *s, double t)
{
	series_add(s->cfg, s->cfg->queued_series, s->queue_t_s, t, (double)s->waiting);
	s->queue_t_s = t;
}

static void queue_advance(struct sim *s)
{
	queue_advance_to(s, now_s(s));
}

/* Count an event; at FLEET_SIM_MAX_EVENTS the run stops (the handler
 * finishes, nothing after it runs) and fleet_sim_run fails with the count. */
static void tick(struct sim *s)
{
	if (++s->handled == FLEET_SIM_MAX_EVENTS) {
		s->too_long = true;
		engine_stop(s->e);
	}
}

static void request_pass(struct sim *s)
{
	if (!s->pass_pending) {
		s->pass_pending = true;
		engine_at(s->e, engine_now(s->e), ENGINE_CLASS_DECIDE, &s->on_pass, 0);
	}
}

/* ---- waiting jobs by GPU count (the smallest is what fragmentation asks about) ---- */

static void wc_add(struct sim *s, int gpus, long d)
{
	int i = 0;
	while (i < s->n_wc && s->wc[i].gpus < gpus)
		i++;
	if (i == s->n_wc || s->wc[i].gpus != gpus) {
		assert(d > 0);
		s->wc = xreallocarray(s->wc, (size_t)s->n_wc + 1, sizeof *s->wc);
		memmove(&s->wc[i + 1], &s->wc[i], (size_t)(s->n_wc - i) * sizeof *s->wc);
		s->wc[i] = (struct wcount){ gpus, 0 };
		s->n_wc++;
	}
	s->wc[i].n += d;
	assert(s->wc[i].n >= 0);
}

static int wc_min(const struct sim *s)
{
	for (int i = 0; i < s->n_wc; i++)
		if (s->wc[i].n > 0)
			return s->wc[i].gpus;
	return 0;
}

/* ---- the queue ---- */

static bool sjf(const struct sim *s)
{
	return s->sp->policy == FLEET_SJF;
}

/* SJF order: requeued jobs first, then the shortest estimate, then the
 * earliest enqueued. */
static bool sjf_before(const void *pa, const void *pb, void *ctx)
{
	const struct sim *s = ctx;
	const struct sjob *x = &s->jobs[*(const int *)pa], *y = &s->jobs[*(const int *)pb];
	if (x->qfront != y->qfront)
		return x->qfront < y->qfront;
	if (x->j.estimate_s != y->j.estimate_s)
		return x->j.estimate_s < y->j.estimate_s;
	return x->qseq < y->qseq;
}

static void sjf_placed(const void *elem, size_t k, void *ctx)
{
	struct sim *s = ctx;
	s->jobs[*(const int *)elem].heap_pos = k;
}

static const struct heap_ops sjf_heap = { .size = sizeof(int), .arity = 2, .before = sjf_before, .placed = sjf_placed };

static void heap_remove_job(struct sim *s, int i)
{
	size_t k = s->jobs[i].heap_pos;
	assert(k < s->heap_n && s->heap[k] == i);
	heap_remove(&sjf_heap, s->heap, &s->heap_n, k, s);
}

/* Into the queue: at the back of its level, or (requeued after a
 * preemption or failure) at the front. */
static void enqueue(struct sim *s, int i, bool front)
{
	struct sjob *jb = &s->jobs[i];
	queue_advance(s);
	jb->state = J_WAITING;
	s->waiting++;
	s->team_waiting[jb->j.team]++;
	wc_add(s, jb->j.gpus, 1);
	if (sjf(s)) {
		jb->qfront = front ? 0 : 1;
		jb->qseq = s->qseq++;
		heap_push(&sjf_heap, s->heap, &s->heap_n, &i, s);
		return;
	}
	int l = jb->level;
	if (front) {
		jb->prev = -1;
		jb->next = s->head[l];
		if (s->head[l] >= 0)
			s->jobs[s->head[l]].prev = i;
		else
			s->tail[l] = i;
		s->head[l] = i;
	} else {
		jb->next = -1;
		jb->prev = s->tail[l];
		if (s->tail[l] >= 0)
			s->jobs[s->tail[l]].next = i;
		else
			s->head[l] = i;
		s->tail[l] = i;
	}
}

static void dequeue(struct sim *s, int i)
{
	struct sjob *jb = &s->jobs[i];
	assert(jb->state == J_WAITING);
	queue_advance(s);
	s->waiting--;
	s->team_waiting[jb->j.team]--;
	wc_add(s, jb->j.gpus, -1);
	if (sjf(s)) {
		heap_remove_job(s, i);
		return;
	}
	int l = jb->level;
	if (jb->prev >= 0)
		s->jobs[jb->prev].next = jb->next;
	else
		s->head[l] = jb->next;
	if (jb->next >= 0)
		s->jobs[jb->next].prev = jb->prev;
	else
		s->tail[l] = jb->prev;
	jb->prev = jb->next = -1;
}

/* ---- running jobs, by estimated end ---- */

static bool run_before(const struct sim *s, int a, int b)
{
	double x = s->jobs[a].est_end_s, y = s->jobs[b].est_end_s;
	return x < y || (x == y && a < b);
}

static size_t run_find(const struct sim *s, int i)
{
	size_t lo = 0, hi = s->n_run;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (run_before(s, s->run[mid], i))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void run_insert(struct sim *s, int i)
{
	size_t k = run_find(s, i);
	memmove(&s->run[k + 1], &s->run[k], (s->n_run - k) * sizeof *s->run);
	s->run[k] = i;
	s->n_run++;
}

static void run_remove(struct sim *s, int i)
{
	size_t k = run_find(s, i);
	assert(k < s->n_run && s->run[k] == i);
	memmove(&s->run[k], &s->run[k + 1], (s->n_run - k - 1) * sizeof *s->run);
	s->n_run--;
}

/* ---- starting, finishing, stopping jobs ---- */

static double remaining_est_s(const struct sjob *jb)
{
	double r = jb->j.estimate_s - jb->saved_s;
	return (jb->restarting ? jb->j.restart_s : 0) + (r > 0 ? r : 0);
}

static void start(struct sim *s, int i)
{
	struct sjob *jb = &s->jobs[i];
	double t = now_s(s);
	int *nodes = s->alloc_nodes + jb->alloc_off;
	dequeue(s, i);
	fleet_place_take(&s->place, jb->j.gpus, nodes, &jb->alloc);
	/* gang: every GPU it asked for, at once */
	assert(jb->alloc.n * jb->alloc.gpus_each == jb->j.gpus);
	int placed = jb->alloc.n * jb->alloc.gpus_each;
	if (jb->gpus_placed < 0 || placed < jb->gpus_placed)
		jb->gpus_placed = placed;
	if (s->cfg->records != NULL && (size_t)i < s->cfg->n_records) {
		jb->nodes_spanned = jb->alloc.n;
		jb->leaves_spanned = fleet_place_leaves(&s->place, nodes, jb->alloc.n);
		jb->domains_spanned = fleet_place_domains(&s->place, nodes, jb->alloc.n);
	}
	jb->state = J_RUNNING;
	jb->seg_start_s = t;
	jb->seg_restart_s = jb->restarting ? jb->j.restart_s : 0;
	jb->est_end_s = t + remaining_est_s(jb);
	jb->restarting = false;
	if (jb->first_start_s < 0) {
		jb->first_start_s = t;
		jb->first_start_ns = engine_now(s->e);
	}
	double left = jb->j.duration_s - jb->saved_s;
	jb->finish_ev = engine_at(s->e, sim_time_add(engine_now(s->e), sim_time_from_s(jb->seg_restart_s + (left > 0 ? left : 0))),
				  ENGINE_CLASS_WORK, &s->on_finish, (uint64_t)i);
	s->team_held_gpus[jb->j.team] += jb->j.gpus;
	s->run_by_prank[jb->prank]++;
	run_insert(s, i);
}

/* The running job i's run [seg_start, t] ends, `lost_s` of its work at the
 * end thrown away: its GPUs go back and the window's sums grow. */
static void stop(struct sim *s, int i, double t, double lost_s)
{
	struct sjob *jb = &s->jobs[i];
	double g = jb->j.gpus, a = jb->seg_start_s;
	double held = clip(s, a, t);
	double restart = clip(s, a, fmin(t, a + jb->seg_restart_s));
	double lost = clip(s, t - lost_s, t);
	s->alloc_gpu_s += g * held;
	s->busy_gpu_s += g * (held - restart - lost);
	s->team_gpu_s[jb->j.team] += g * held;
	if (jb->j.cls >= 0 && jb->j.cls < FLEET_CLASSES_MAX)
		s->class_gpu_s[jb->j.cls] += g * held;
	/* the series: allocated over the whole run [a, t], busy but for the
	 * restart at its start and the work thrown away at its end (lost_s is
	 * at most the time worked since the restart, so the two never overlap) */
	series_add(s->cfg, s->cfg->util_series, a, t, g / (double)s->total_gpus);
	series_add(s->cfg, s->cfg->busy_series, a + jb->seg_restart_s, t - lost_s, g / (double)s->total_gpus);
	s->team_held_gpus[jb->j.team] -= jb->j.gpus;
	s->run_by_prank[jb->prank]--;
	run_remove(s, i);
	fleet_place_give(&s->place, s->alloc_nodes + jb->alloc_off, &jb->alloc);
}

static void on_finish(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct sim *s = container_of(h, struct sim, on_finish);
	tick(s);
	int i = (int)arg;
	struct sjob *jb = &s->jobs[i];
	double t = now_s(s);
	stop(s, i, t, 0);
	jb->saved_s = jb->j.duration_s;
	jb->state = J_DONE;
	jb->end_s = t;
	jb->end_ns = engine_now(s->e);
	s->done++;
	if (s->done == s->n_jobs)
		engine_stop(e);
	else
		request_pass(s);
}

/* Stop running job i now and send it back to the queue's front: it keeps
 * the work up to its last checkpoint (every checkpoint_interval_s of work;
 * none when that is 0) and pays restart_s when it starts again. */
static void interrupt(struct sim *s, int i)
{
	struct sjob *jb = &s->jobs[i];
	double t = now_s(s);
	double worked = t - jb->seg_start_s - jb->seg_restart_s;
	double progressed = jb->saved_s + (worked > 0 ? worked : 0);
	double ck = jb->j.checkpoint_interval_s, saved = 0;
	if (ck > 0) {
		saved = floor(progressed / ck) * ck;
		if (saved < jb->saved_s)
			saved = jb->saved_s;
		if (saved > progressed)
			saved = progressed;
	}
	double lost = progressed - saved;
	engine_cancel(s->e, jb->finish_ev);
	stop(s, i, t, lost);
	s->gen++;
	jb->lost_s += lost;
	jb->saved_s = saved;
	jb->restarting = true;
	enqueue(s, i, true);
	request_pass(s);
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
static bool try_preempt(struct sim *s, int w)
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
		const struct sjob *v = &s->jobs[s->run[k]];
		if (v->j.priority < pw)
			vs[n++] = (struct victim){ v->j.priority, v->seg_start_s, s->run[k] };
	}
	qsort(vs, (size_t)n, sizeof *vs, cmp_victim);
	fleet_place_copy(&s->scratch, &s->place);
	int need = -1;
	for (int k = 0; k < n; k++) {
		const struct sjob *v = &s->jobs[vs[k].job];
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
			interrupt(s, v);
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
static bool quota_holds(const struct sim *s, int i)
{
	const struct sjob *jb = &s->jobs[i];
	int t = jb->j.team;
	if (s->sp->policy != FLEET_PRIORITY || t >= FLEET_TEAMS_MAX || !(s->sp->team_quota[t] > 0))
		return false;
	if (s->waiting - s->team_waiting[t] <= 0)
		return false;
	return (double)(s->team_held_gpus[t] + jb->j.gpus) > s->sp->team_quota[t] * (double)s->total_gpus + 1e-9;
}

/* FIFO, SJF, priority: jobs in the policy's order start while they fit;
 * the first that fits nowhere (and cannot preempt) blocks the rest. */
static void pass_strict(struct sim *s)
{
	bool pre = s->sp->preemption;
	if (sjf(s)) {
		while (s->heap_n > 0) {
			int i = s->heap[0];
			if (fleet_place_fits(&s->place, s->jobs[i].j.gpus) || (pre && try_preempt(s, i)))
				start(s, i);
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
				start(s, i);
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
static int reserve(struct sim *s, int h, double *shadow_s)
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
	double t = now_s(s);
	while (ri < nr || ji < s->n_run) {
		double tr = ri < nr ? s->rel[ri].t_s : INFINITY;
		double tj = ji < s->n_run ? s->jobs[s->run[ji]].est_end_s : INFINITY;
		double at;
		if (tr < tj) {
			fleet_place_set_usable(&s->scratch, -1 - s->rel[ri].what, true);
			at = tr;
			ri++;
		} else {
			const struct sjob *v = &s->jobs[s->run[ji]];
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

static void block(struct sim *s, const int *nodes, int n, bool on)
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
static void pass_backfill(struct sim *s)
{
	int h;
	while ((h = s->head[0]) >= 0) {
		if (fleet_place_fits(&s->place, s->jobs[h].j.gpus) || (s->sp->preemption && try_preempt(s, h)))
			start(s, h);
		else
			break;
	}
	if (h < 0)
		return;
	double t = now_s(s);
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
			start(s, i);
			free_all -= g;
			continue;
		}
		if (t + remaining_est_s(&s->jobs[i]) <= shadow) {
			block(s, res, n_res, false);
			if (fleet_place_fits(&s->place, g)) {
				start(s, i);
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
static void frag_update(struct sim *s)
{
	double t = now_s(s);
	s->frag_area += s->frag_level * clip(s, s->frag_t_s, t);
	s->frag_t_s = t;
	s->frag_level = 0;
	if (s->waiting > 0 && !fleet_place_fits(&s->place, wc_min(s)))
		s->frag_level = (double)s->place.free_gpus;
}

static void on_pass(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	(void)arg;
	struct sim *s = container_of(h, struct sim, on_pass);
	tick(s);
	s->pass_pending = false;
	if (s->sp->policy == FLEET_BACKFILL)
		pass_backfill(s);
	else
		pass_strict(s);
	frag_update(s);
}

static void on_submit(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct sim *s = container_of(h, struct sim, on_submit);
	tick(s);
	size_t i = (size_t)arg;
	enqueue(s, (int)i, false);
	s->next_submit = i + 1;
	if (i + 1 < s->n_jobs) {
		int64_t at = sim_time_from_s(s->jobs[i + 1].j.submit_s);
		engine_at(e, at > engine_now(e) ? at : engine_now(e), ENGINE_CLASS_WORK, &s->on_submit, i + 1);
	}
	request_pass(s);
}

/* ---- failures ---- */

/* Weibull failures: the earliest first, the lower node on a tie. */
static bool unit_before(const void *pa, const void *pb, void *ctx)
{
	const struct unit *a = pa, *b = pb;
	(void)ctx;
	return a->at_s < b->at_s || (a->at_s == b->at_s && a->node < b->node);
}

static const struct heap_ops unit_heap = { .size = sizeof(struct unit), .arity = 2, .before = unit_before };

static void schedule_failure(struct sim *s)
{
	double at;
	if (s->n_units > 0)
		at = s->units[0].at_s;
	else
		at = now_s(s) + gsl_ran_exponential(s->fail_rng, s->fr.job_mtbf_s);
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
	struct sim *s = container_of(h, struct sim, on_fail);
	tick(s);
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
		const struct sjob *jb = &s->jobs[s->run[k]];
		const int *nodes = s->alloc_nodes + jb->alloc_off;
		for (int m = 0; m < jb->alloc.n; m++)
			if (nodes[m] == node) {
				s->tmp[n++] = s->run[k];
				break;
			}
	}
	for (int k = 0; k < n; k++) {
		s->jobs[s->tmp[k]].failures++;
		interrupt(s, s->tmp[k]);
	}
	if (s->repair_s > 0) {
		s->up[node] = 0;
		s->repair_at_s[node] = now_s(s) + s->repair_s;
		fleet_place_set_usable(&s->place, node, false);
		engine_after(s->e, sim_time_from_s(s->repair_s), ENGINE_CLASS_WORK, &s->on_repair, (uint64_t)node);
	}
	request_pass(s);
}

static void on_repair(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	struct sim *s = container_of(h, struct sim, on_repair);
	tick(s);
	int node = (int)arg;
	s->gen++;
	s->up[node] = 1;
	fleet_place_set_usable(&s->place, node, true);
	request_pass(s);
}

/* The fleet's failure processes from the whole-run model's resolution on
 * a cluster of this shape. */
static void failures_init(struct sim *s)
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

/* ---- results ---- */

static void pct(struct stats_sample *v, struct fleet_pct *out)
{
	out->p50 = stats_sample_percentile(v, 50);
	out->p90 = stats_sample_percentile(v, 90);
	out->p99 = stats_sample_percentile(v, 99);
	out->mean = stats_sample_mean(v);
}

/* A class's team cell: its jobs' team, or their teams joined by '+' in the
 * team table's order (a trace's partitions); its own team when it has no jobs. */
static void class_team(const struct sim *s, int c, uint64_t mask, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	if (mask == 0) {
		snprintf(out, size, "%s", s->sp->classes[c].team);
		return;
	}
	for (int t = 0; t < s->n_teams && used + 1 < size; t++)
		if (mask & ((uint64_t)1 << t))
			used += (size_t)snprintf(out + used, size - used, "%s%s", used ? "+" : "", s->teams[t]);
}

/* Hours between two instants of the engine's clock, in whole nanoseconds. */
static double ns_hours(int64_t a_ns, int64_t b_ns)
{
	return (double)(b_ns - a_ns) / 3.6e12;
}

static void results(struct sim *s, struct fleet_metrics *m)
{
	int nt = s->n_teams, nc = s->sp->n_classes < FLEET_CLASSES_MAX ? s->sp->n_classes : FLEET_CLASSES_MAX;
	/* groups: the teams [0, nt), the fleet nt, the classes nt + 1 + c */
	enum { NG = FLEET_TEAMS_MAX + 1 + FLEET_CLASSES_MAX };
	struct stats_sample *wait = xcalloc(NG, sizeof *wait), *jct = xcalloc(NG, sizeof *jct),
			    *tw = xcalloc(NG, sizeof *tw);
	uint64_t class_teams[FLEET_CLASSES_MAX] = { 0 };
	long class_sub[FLEET_CLASSES_MAX] = { 0 }, class_done[FLEET_CLASSES_MAX] = { 0 };
	int ng = nt + 1 + nc;
	for (int t = 0; t < ng; t++) {
		stats_sample_init(&wait[t]);
		stats_sample_init(&jct[t]);
		stats_sample_init(&tw[t]);
	}
	double first = s->n_jobs > 0 ? s->jobs[0].j.submit_s : 0, last = first;
	for (size_t i = 0; i < s->n_jobs; i++) {
		const struct sjob *jb = &s->jobs[i];
		int t = jb->j.team, k = jb->j.cls >= 0 && jb->j.cls < nc ? nt + 1 + jb->j.cls : -1;
		if (jb->state == J_DONE && jb->end_s > last)
			last = jb->end_s;
		if (k >= 0)
			class_teams[jb->j.cls] |= (uint64_t)1 << t;
		if (!jb->counted)
			continue;
		m->teams[t].jobs_submitted++;
		m->fleet.jobs_submitted++;
		if (k >= 0)
			class_sub[jb->j.cls]++;
		if (jb->j.trace_wait_s >= 0) {
			stats_sample_add(&tw[t], jb->j.trace_wait_s / 3600);
			stats_sample_add(&tw[nt], jb->j.trace_wait_s / 3600);
			if (k >= 0)
				stats_sample_add(&tw[k], jb->j.trace_wait_s / 3600);
		}
		if (jb->state != J_DONE)
			continue;
		m->teams[t].jobs_done++;
		m->fleet.jobs_done++;
		if (k >= 0)
			class_done[jb->j.cls]++;
		/* on the engine's clock: the submission event fired at sim_time_from_s(submit_s) */
		int64_t sub_ns = sim_time_from_s(jb->j.submit_s);
		double w = ns_hours(sub_ns, jb->first_start_ns), c = ns_hours(sub_ns, jb->end_ns);
		stats_sample_add(&wait[t], w);
		stats_sample_add(&wait[nt], w);
		stats_sample_add(&jct[t], c);
		stats_sample_add(&jct[nt], c);
		if (k >= 0) {
			stats_sample_add(&wait[k], w);
			stats_sample_add(&jct[k], c);
		}
	}
	double held = (double)s->total_gpus * clip(s, s->w0_s, s->w1_s) / 3600;
	double alloc = s->alloc_gpu_s / 3600, idle = held - alloc;
	if (idle < 0)
		idle = 0;
	double price = s->cfg->usd_per_gpu_hour > 0 ? s->cfg->usd_per_gpu_hour : 0;
	m->n_teams = nt;
	m->n_classes = nc;
	snprintf(m->fleet.team, sizeof m->fleet.team, "%s", "");
	for (int t = 0; t < ng; t++) {
		bool cls = t > nt;
		int c = t - nt - 1;
		struct fleet_group *g = t < nt ? &m->teams[t] : t == nt ? &m->fleet : &m->classes[c];
		if (t < nt)
			snprintf(g->team, sizeof g->team, "%s", s->teams[t]);
		if (cls) {
			class_team(s, c, class_teams[c], g->team, sizeof g->team);
			snprintf(g->cls, sizeof g->cls, "%s", s->sp->classes[c].name);
			g->jobs_submitted = class_sub[c];
			g->jobs_done = class_done[c];
		}
		pct(&wait[t], &g->wait_h);
		pct(&jct[t], &g->jct_h);
		g->trace_wait_p50_h = tw[t].n > 0 ? stats_sample_percentile(&tw[t], 50) : -1;
		g->gpu_hours = t < nt ? s->team_gpu_s[t] / 3600 : t == nt ? alloc : s->class_gpu_s[c] / 3600;
		/* the idle GPU-hours are billed too: split by use (evenly when none) */
		double share = alloc > 0 ? g->gpu_hours / alloc : 1.0 / (t < nt ? nt : nc > 0 ? nc : 1);
		g->usd = t != nt ? price * (g->gpu_hours + idle * share) : price * held;
		g->idle_usd = t != nt ? price * idle * share : price * idle;
		stats_sample_release(&wait[t]);
		stats_sample_release(&jct[t]);
		stats_sample_release(&tw[t]);
	}
	free(wait);
	free(jct);
	free(tw);
	m->held_gpu_hours = held;
	m->allocated_gpu_hours = alloc;
	m->busy_gpu_hours = s->busy_gpu_s / 3600;
	m->utilization = held > 0 ? alloc / held : 0;
	m->busy_utilization = held > 0 ? m->busy_gpu_hours / held : 0;
	m->idle_gpu_hours = idle;
	double span = clip(s, s->w0_s, s->w1_s);
	m->fragmentation = span > 0 && s->total_gpus > 0 ? s->frag_area / span / (double)s->total_gpus : 0;
	m->makespan_h = (last - first) / 3600;
	m->preemptions = s->preemptions;
	m->failures = s->failures;
}

/* ---- the run ---- */

static int check_jobs(struct sim *s, char *reason, size_t reason_len)
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

static int cmp_prio_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x < y) - (x > y);
}

/* Queue levels: one (FIFO order) but under "priority", where each distinct
 * priority is a level, highest first. */
static void levels_init(struct sim *s)
{
	s->n_levels = 1;
	int *pr = xmalloc((s->n_jobs ? s->n_jobs : 1) * sizeof *pr);
	size_t np = 0;
	for (size_t i = 0; i < s->n_jobs; i++)
		pr[i] = s->jobs[i].j.priority;
	qsort(pr, s->n_jobs, sizeof *pr, cmp_prio_desc);
	for (size_t i = 0; i < s->n_jobs; i++)
		if (np == 0 || pr[np - 1] != pr[i])
			pr[np++] = pr[i];
	s->n_prio = (int)np;
	s->run_by_prank = xcalloc(np ? np : 1, sizeof *s->run_by_prank);
	if (s->sp->policy == FLEET_PRIORITY && np > 0)
		s->n_levels = (int)np;
	s->head = xmalloc((size_t)s->n_levels * sizeof *s->head);
	s->tail = xmalloc((size_t)s->n_levels * sizeof *s->tail);
	for (int l = 0; l < s->n_levels; l++)
		s->head[l] = s->tail[l] = -1;
	for (size_t i = 0; i < s->n_jobs; i++) {
		int l = 0;
		{
			size_t lo = 0, hi = np;
			while (hi - lo > 1) {
				size_t mid = (lo + hi) / 2;
				if (pr[mid] >= s->jobs[i].j.priority)
					lo = mid;
				else
					hi = mid;
			}
			l = (int)lo;
			assert(pr[l] == s->jobs[i].j.priority);
		}
		s->jobs[i].prank = l;
		s->jobs[i].level = s->n_levels > 1 ? l : 0;
	}
	free(pr);
}

static void sim_release(struct sim *s)
{
	if (s->e != NULL)
		engine_free(s->e);
	fleet_place_release(&s->place);
	fleet_place_release(&s->scratch);
	free(s->jobs);
	free(s->alloc_nodes);
	free(s->head);
	free(s->tail);
	free(s->heap);
	free(s->wc);
	free(s->run);
	free(s->up);
	free(s->repair_at_s);
	if (s->fail_rng != NULL)
		gsl_rng_free(s->fail_rng);
	free(s->units);
	free(s->tmp);
	free(s->rel);
	free(s->res_nodes);
	free(s->run_by_prank);
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
	struct sim *s = xcalloc(1, sizeof *s);
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
		struct sjob *jb = &s->jobs[i];
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
		off += (size_t)nodes_of(s, s->jobs[i].j.gpus);
	}
	s->alloc_nodes = xmalloc((off ? off : 1) * sizeof *s->alloc_nodes);
	levels_init(s);
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
	s->on_finish.fn = on_finish;
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
			 s->n_jobs, now_s(s) / 3600);
		memset(out, 0, sizeof *out);
		goto out;
	}
	/* jobs still running at the cap: their runs so far count. A run that
	 * stopped at its cap (jobs were left) ends there, not at its last
	 * event: a job that runs past it held its GPUs all the way. */
	double t_end = capped ? fmax(now_s(s), fleet_sim_cap_s(s->w1_s)) : now_s(s);
	while (s->n_run > 0)
		stop(s, s->run[s->n_run - 1], t_end, 0);
	if (s->e != NULL)
		queue_advance_to(s, t_end);
	if (cfg->end_s != NULL)
		*cfg->end_s = t_end;
	s->frag_area += s->frag_level * clip(s, s->frag_t_s, s->w1_s > t_end ? s->w1_s : t_end);
	results(s, out);
	for (size_t i = 0; cfg->records != NULL && i < cfg->n_records && i < s->n_jobs; i++) {
		const struct sjob *jb = &s->jobs[i];
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
	sim_release(s);
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
