/*
 * fleet_sched: the shared cluster scheduler's state, private to the fleet
 * simulation (fleet_sim.c runs it, fleet_metrics.c sums it up).
 *
 * It holds the jobs, the queue (FIFO lists per level, or a heap for SJF),
 * the waiting jobs by GPU count, the running jobs by estimated end, the
 * nodes, the reservation of backfill and the window's sums, and the moves
 * every policy shares: enqueue a job, start one on the GPUs it is placed
 * on, stop one (its GPUs go back, the sums grow), finish one, interrupt
 * one (back to the queue's front with the work of its last checkpoint).
 * The scheduling passes, preemption and failures that decide the moves
 * are fleet_sim.c's. Times are seconds, the engine's clock nanoseconds.
 * Nothing here prints or reads files.
 */
#ifndef CLUSTERSIM_MODELS_FLEET_FLEET_SCHED_H
#define CLUSTERSIM_MODELS_FLEET_FLEET_SCHED_H

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/fleet/fleet_place.h"
#include "models/fleet/fleet_types.h"
#include "models/run/failure.h"
#include "sim/engine.h"
#include "sim/time.h"

enum fleet_sched_state { J_FUTURE, J_WAITING, J_RUNNING, J_DONE };

struct fleet_sched_job {
	struct fleet_job j;
	enum fleet_sched_state state;
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

struct fleet_sched {
	const struct fleet_sim_config *cfg;
	const struct fleet_spec *sp;
	engine *e;
	struct engine_handler on_submit, on_finish, on_fail, on_repair, on_pass;
	struct fleet_place place, scratch;
	long total_gpus;

	struct fleet_sched_job *jobs;
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

/* The engine's clock now, in seconds. */
double fleet_sched_now_s(const struct fleet_sched *s);


/* The nodes a job of `gpus` GPUs spans (1 for a job inside one node). */
int fleet_sched_nodes_of(const struct fleet_sched *s, int gpus);

/* Seconds of [a, b] inside the window. */
double fleet_sched_clip(const struct fleet_sched *s, double a, double b);

/* The waiting jobs since the last change of their number, up to t. */
void fleet_sched_queue_advance_to(struct fleet_sched *s, double t);

/* Count an event; at FLEET_SIM_MAX_EVENTS the run stops (the handler
 * finishes, nothing after it runs) and fleet_sim_run fails with the count. */
void fleet_sched_tick(struct fleet_sched *s);

/* Schedule one scheduling pass (the on_pass handler) now, unless one is due. */
void fleet_sched_request_pass(struct fleet_sched *s);

/* The fewest GPUs a waiting job asks for; 0 when none waits. */
int fleet_sched_wc_min(const struct fleet_sched *s);

/* True under SJF (the queue is a heap on the user's estimate). */
bool fleet_sched_sjf(const struct fleet_sched *s);

/* Put job i in the queue: at the front of its level (a stopped job goes
 * back first) or at the back. */
void fleet_sched_enqueue(struct fleet_sched *s, int i, bool front);

/* The job's estimated time left: its estimate less the work saved, plus
 * the restart it pays when it starts again. */
double fleet_sched_remaining_est_s(const struct fleet_sched_job *jb);

/* Start waiting job i now on the GPUs placement gives it (it must fit). */
void fleet_sched_start(struct fleet_sched *s, int i);

/* The running job i's run [seg_start, t] ends, `lost_s` of its work at the
 * end thrown away: its GPUs go back and the window's sums grow. */
void fleet_sched_stop(struct fleet_sched *s, int i, double t, double lost_s);

/* The handler of a job's finish (the on_finish member's). */
void fleet_sched_on_finish(engine *e, struct engine_handler *h, uint64_t arg);

/* Stop running job i now and send it back to the queue's front: it keeps
 * the work up to its last checkpoint (every checkpoint_interval_s of work;
 * none when that is 0) and pays restart_s when it starts again. */
void fleet_sched_interrupt(struct fleet_sched *s, int i);

/* Queue levels: one (FIFO order) but under "priority", where each distinct
 * priority is a level, highest first; sets each job's level and prank. */
void fleet_sched_levels_init(struct fleet_sched *s);

/* Free everything s holds (s itself is the caller's). */
void fleet_sched_release(struct fleet_sched *s);

#endif
