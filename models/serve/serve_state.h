/*
 * serve_state: the records of one serving simulation (serve_sim): each
 * request's sequence, each replica's KV blocks, running set, waiting and
 * hand-off queues and batch, and the run's tallies; with the helpers every
 * part of the simulation shares: stopping the run with a reason, counting
 * handler calls, the FIFO lists through serve_seq.next and the running set
 * (kept sorted by arrival). Only the requests in flight have a record: a
 * finished one's goes to a free list for the next arrival, so memory
 * follows the requests in flight, not the run's length.
 *
 * Internal to models/serve: the simulation's modules (serve_kv,
 * serve_sched, serve_request, serve_metrics, serve_sim) include it; nothing
 * outside the folder does.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_STATE_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/hw/topology.h"
#include "models/serve/arrival.h"
#include "models/serve/serve_load.h"
#include "models/serve/serve_types.h"
#include "models/serve/serve_wsample.h"
#include "sim/engine.h"
#include "sim/flow.h"
#include "sim/quantile.h"
#include "sim/stats.h"

enum serve_seq_state { SEQ_WAITING, SEQ_RUNNING, SEQ_HANDOFF, SEQ_MOVING, SEQ_DONE };
enum serve_rep_kind { REP_COLOCATED, REP_PREFILL, REP_DECODE };

/* A request (a sequence) and where it stands; its record is recycled
 * when it finishes. */
struct serve_seq {
	int64_t arrival_ns, first_ns, last_ns, move_ns;
	long id;                  /* the order it arrived in (from 0) */
	int prompt, output, hit;  /* tokens: prompt, output, prompt tokens found in the prefix cache */
	int computed;             /* tokens whose KV is computed (hits included) */
	int generated;            /* output tokens emitted */
	int blocks;               /* KV blocks held on replica rep */
	int move_blocks;          /* disaggregated: blocks reserved on replica dest */
	int rep, dest;
	int client;               /* closed loop: the client, else -1 */
	int next;                 /* waiting or hand-off list, or the free list */
	int moves_left;           /* flows of its KV transfer still running */
	int spec_steps;           /* speculative verify steps it decoded in (serve_spec_advance) */
	unsigned char state;
};

/* A sequence in a step's batch and the tokens it computes there. */
struct serve_item {
	int seq, tokens;
};

/* A replica: its KV blocks, running set, queues and current batch. */
struct serve_replica {
	const struct serve_pool *pool;
	enum serve_rep_kind kind;
	int index;                /* within its pool */
	long blocks_total, blocks_free;
	int *running, n_running;  /* sorted by arrival (serve_seq.id) */
	int wait_head, wait_tail;
	long n_waiting;
	int hand_head, hand_tail; /* decode: requests waiting to move here */
	long n_handoff;
	int n_moving;             /* decode: KV transfers under way into it */
	long outstanding;         /* requests routed here, not finished or handed on */
	bool busy, kick_pending;
	struct serve_item *batch;
	int n_batch;
	double peak_frac;
};

/* One simulation run: its engine, replicas, requests and tallies. */
struct serve_state {
	struct engine_handler on_step, on_kick, on_arrival, on_flow;
	const struct serve_sim_config *cfg;
	const struct serving_spec *sv;
	engine *e;
	flow_net *fn;
	struct topology_net tn;
	bool have_net;
	struct serve_load load;
	struct serve_replica *reps;
	int n_reps;
	int entry_base, entry_n, dec_base, dec_n;  /* the pools' replicas in reps[] */
	long rr_entry, rr_dec;
	struct serve_seq *seqs;   /* the requests in flight, and free records */
	size_t n_seqs, cap_seqs;  /* records made (the most in flight at once) */
	int free_head;            /* finished records, linked through next (-1: none) */
	long sent;                /* requests sent */
	int block_tokens;
	struct arrival_run arrivals;  /* the arrival process's state (arrival.h) */
	bool started;
	int64_t t0_ns, t_end_ns;
	struct stats_level in_system, kv_used;
	long blocks_all;
	struct quantile ttft_ms, tpot_ms, e2e_s, move_ms;
	struct serve_wsample itl;
	double busy_s, flops, hbm_bytes;
	long prompt_done, output_done, emitted, slo_ok, done, preemptions;
	uint64_t calls;
	bool failed;
	int failure;              /* enum serve_sim_failure */
	char *reason;
	size_t reason_len;
};

/* Stop the run with failure (enum serve_sim_failure) and the reason; the
 * first failure wins. */
void serve_state_fail(struct serve_state *s, int failure, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Count a handler call; false once the run must stop (failed, or past
 * SERVE_SIM_MAX_EVENTS). */
bool serve_state_tick(struct serve_state *s);

/* Singly linked FIFO lists through serve_seq.next (the waiting queue and
 * the hand-off queue): push sequence si at the tail or the head, pop the
 * head (the list must not be empty). */
void serve_state_push_tail(struct serve_state *s, int *head, int *tail, int si);
void serve_state_push_head(struct serve_state *s, int *head, int *tail, int si);
int serve_state_pop_head(struct serve_state *s, int *head, int *tail);

/* Replica r's running set, sorted by arrival (serve_seq.id): insert si,
 * remove si (it must be there). */
void serve_state_running_insert(struct serve_state *s, struct serve_replica *r, int si);
void serve_state_running_remove(struct serve_replica *r, int si);

/* Whether q decodes next (its prompt and every token but the last
 * generated one are computed). */
bool serve_state_is_decode(const struct serve_seq *q);

#endif
