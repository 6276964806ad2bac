#include "fleet_sched.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/time.h"
#include "util/container.h"
#include "util/heap.h"
#include "util/xalloc.h"

struct wcount {
	int gpus;
	long n;
};

double fleet_sched_now_s(const struct fleet_sched *s)
{
	return (double)engine_now(s->e) * 1e-9;
}

int fleet_sched_nodes_of(const struct fleet_sched *s, int gpus)
{
	return gpus < s->place.gpn ? 1 : gpus / s->place.gpn;
}

/* Seconds of [a, b] inside the window. */
double fleet_sched_clip(const struct fleet_sched *s, double a, double b)
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
void fleet_sched_queue_advance_to(struct fleet_sched *s, double t)
{
	series_add(s->cfg, s->cfg->queued_series, s->queue_t_s, t, (double)s->waiting);
	s->queue_t_s = t;
}

static void queue_advance(struct fleet_sched *s)
{
	fleet_sched_queue_advance_to(s, fleet_sched_now_s(s));
}

/* Count an event; at FLEET_SIM_MAX_EVENTS the run stops (the handler
 * finishes, nothing after it runs) and fleet_sim_run fails with the count. */
void fleet_sched_tick(struct fleet_sched *s)
{
	if (++s->handled == FLEET_SIM_MAX_EVENTS) {
		s->too_long = true;
		engine_stop(s->e);
	}
}

void fleet_sched_request_pass(struct fleet_sched *s)
{
	if (!s->pass_pending) {
		s->pass_pending = true;
		engine_at(s->e, engine_now(s->e), ENGINE_CLASS_DECIDE, &s->on_pass, 0);
	}
}

/* ---- waiting jobs by GPU count (the smallest is what fragmentation asks about) ---- */

static void wc_add(struct fleet_sched *s, int gpus, long d)
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

int fleet_sched_wc_min(const struct fleet_sched *s)
{
	for (int i = 0; i < s->n_wc; i++)
		if (s->wc[i].n > 0)
			return s->wc[i].gpus;
	return 0;
}

/* ---- the queue ---- */

bool fleet_sched_sjf(const struct fleet_sched *s)
{
	return s->sp->policy == FLEET_SJF;
}

/* SJF order: requeued jobs first, then the shortest estimate, then the
 * earliest enqueued. */
static bool sjf_before(const void *pa, const void *pb, void *ctx)
{
	const struct fleet_sched *s = ctx;
	const struct fleet_sched_job *x = &s->jobs[*(const int *)pa], *y = &s->jobs[*(const int *)pb];
	if (x->qfront != y->qfront)
		return x->qfront < y->qfront;
	if (x->j.estimate_s != y->j.estimate_s)
		return x->j.estimate_s < y->j.estimate_s;
	return x->qseq < y->qseq;
}

static void sjf_placed(const void *elem, size_t k, void *ctx)
{
	struct fleet_sched *s = ctx;
	s->jobs[*(const int *)elem].heap_pos = k;
}

static const struct heap_ops sjf_heap = { .size = sizeof(int), .arity = 2, .before = sjf_before, .placed = sjf_placed };

static void heap_remove_job(struct fleet_sched *s, int i)
{
	size_t k = s->jobs[i].heap_pos;
	assert(k < s->heap_n && s->heap[k] == i);
	heap_remove(&sjf_heap, s->heap, &s->heap_n, k, s);
}

/* Into the queue: at the back of its level, or (requeued after a
 * preemption or failure) at the front. */
void fleet_sched_enqueue(struct fleet_sched *s, int i, bool front)
{
	struct fleet_sched_job *jb = &s->jobs[i];
	queue_advance(s);
	jb->state = J_WAITING;
	s->waiting++;
	s->team_waiting[jb->j.team]++;
	wc_add(s, jb->j.gpus, 1);
	if (fleet_sched_sjf(s)) {
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

static void dequeue(struct fleet_sched *s, int i)
{
	struct fleet_sched_job *jb = &s->jobs[i];
	assert(jb->state == J_WAITING);
	queue_advance(s);
	s->waiting--;
	s->team_waiting[jb->j.team]--;
	wc_add(s, jb->j.gpus, -1);
	if (fleet_sched_sjf(s)) {
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

static bool run_before(const struct fleet_sched *s, int a, int b)
{
	double x = s->jobs[a].est_end_s, y = s->jobs[b].est_end_s;
	return x < y || (x == y && a < b);
}

static size_t run_find(const struct fleet_sched *s, int i)
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

static void run_insert(struct fleet_sched *s, int i)
{
	size_t k = run_find(s, i);
	memmove(&s->run[k + 1], &s->run[k], (s->n_run - k) * sizeof *s->run);
	s->run[k] = i;
	s->n_run++;
}

static void run_remove(struct fleet_sched *s, int i)
{
	size_t k = run_find(s, i);
	assert(k < s->n_run && s->run[k] == i);
	memmove(&s->run[k], &s->run[k + 1], (s->n_run - k - 1) * sizeof *s->run);
	s->n_run--;
}

/* ---- starting, finishing, stopping jobs ---- */

double fleet_sched_remaining_est_s(const struct fleet_sched_job *jb)
{
	double r = jb->j.estimate_s - jb->saved_s;
	return (jb->restarting ? jb->j.restart_s : 0) + (r > 0 ? r : 0);
}

void fleet_sched_start(struct fleet_sched *s, int i)
{
	struct fleet_sched_job *jb = &s->jobs[i];
	double t = fleet_sched_now_s(s);
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
	jb->est_end_s = t + fleet_sched_remaining_est_s(jb);
	jb->restarting = false;
	if (jb->first_start_s < 0) {
		jb->first_start_s = t;
		jb->first_start_ns = engine_now(s->e);
	}
	double left = jb->j.duration_s - jb->saved_s;
	jb->finish_ev = engine_at(s->e,
				  sim_time_add(engine_now(s->e), sim_time_from_s(jb->seg_restart_s + (left > 0 ? left : 0))),
				  ENGINE_CLASS_WORK, &s->on_finish, (uint64_t)i);
	s->team_held_gpus[jb->j.team] += jb->j.gpus;
	s->run_by_prank[jb->prank]++;
	run_insert(s, i);
}

/* The running job i's run [seg_start, t] ends, `lost_s` of its work at the
 * end thrown away: its GPUs go back and the window's sums grow. */
void fleet_sched_stop(struct fleet_sched *s, int i, double t, double lost_s)
{
	struct fleet_sched_job *jb = &s->jobs[i];
	double g = jb->j.gpus, a = jb->seg_start_s;
	double held = fleet_sched_clip(s, a, t);
	double restart = fleet_sched_clip(s, a, fmin(t, a + jb->seg_restart_s));
	double lost = fleet_sched_clip(s, t - lost_s, t);
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

void fleet_sched_on_finish(engine *e, struct engine_handler *h, uint64_t arg)
{
	struct fleet_sched *s = container_of(h, struct fleet_sched, on_finish);
	fleet_sched_tick(s);
	int i = (int)arg;
	struct fleet_sched_job *jb = &s->jobs[i];
	double t = fleet_sched_now_s(s);
	fleet_sched_stop(s, i, t, 0);
	jb->saved_s = jb->j.duration_s;
	jb->state = J_DONE;
	jb->end_s = t;
	jb->end_ns = engine_now(s->e);
	s->done++;
	if (s->done == s->n_jobs)
		engine_stop(e);
	else
		fleet_sched_request_pass(s);
}

/* Stop running job i now and send it back to the queue's front: it keeps
 * the work up to its last checkpoint (every checkpoint_interval_s of work;
 * none when that is 0) and pays restart_s when it starts again. */
void fleet_sched_interrupt(struct fleet_sched *s, int i)
{
	struct fleet_sched_job *jb = &s->jobs[i];
	double t = fleet_sched_now_s(s);
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
	fleet_sched_stop(s, i, t, lost);
	s->gen++;
	jb->lost_s += lost;
	jb->saved_s = saved;
	jb->restarting = true;
	fleet_sched_enqueue(s, i, true);
	fleet_sched_request_pass(s);
}

static int cmp_prio_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x < y) - (x > y);
}

/* Queue levels: one (FIFO order) but under "priority", where each distinct
 * priority is a level, highest first. */
void fleet_sched_levels_init(struct fleet_sched *s)
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

void fleet_sched_release(struct fleet_sched *s)
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
