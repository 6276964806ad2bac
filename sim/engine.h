/*
 * engine: the simulation clock and run loop.
 *
 * An engine owns a queue of events. Each event names a handler (a struct
 * embedded in its owner, recovered with a container_of-style cast) and a
 * 64-bit argument. engine_run() takes the earliest event, advances the clock
 * to its time (asserting the clock never goes back) and calls the handler.
 * Handlers schedule, move and cancel events; they never walk a structure
 * they may change. The engine knows nothing of GPUs, models or files.
 */
#ifndef CLUSTERSIM_SIM_ENGINE_H
#define CLUSTERSIM_SIM_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/queue.h"

typedef struct engine engine;

/*
 * Tie classes: events at the same instant run in class order, then in
 * insertion order. Work that finishes comes first, so that whatever decides
 * what to do next sees every completion and arrival of that instant.
 */
enum engine_class {
	ENGINE_CLASS_WORK = 0,      /* work ends: a compute op, a flow's last byte, the flow re-solve */
	ENGINE_CLASS_DELIVERY = 1,  /* a transfer's data has arrived (its latency elapsed) */
	ENGINE_CLASS_DECIDE = 2,    /* choose the next step: a pipeline stage's next op, a collective's next phase */
	ENGINE_CLASS_AFTER = 3      /* after the decisions: a gradient bucket becomes ready */
};
struct engine_handler;

typedef void (*engine_fn)(engine *e, struct engine_handler *h, uint64_t arg);

/* Embed one of these in whatever owns the events; borrowed by the engine. */
struct engine_handler {
	engine_fn fn;
};

/* New engine at time 0. Caller frees with engine_free(). */
engine *engine_new(void);
void engine_free(engine *e);

/* Current simulated time in nanoseconds. */
int64_t engine_now(const engine *e);

/* Schedule h at absolute time_ns (>= now) in tie class cls; returns the event id. */
queue_id engine_at(engine *e, int64_t time_ns, enum engine_class cls, struct engine_handler *h, uint64_t arg);

/* Schedule h delay_ns (>= 0) after now. */
queue_id engine_after(engine *e, int64_t delay_ns, enum engine_class cls, struct engine_handler *h, uint64_t arg);

/* Move a pending event to time_ns (>= now). */
void engine_move(engine *e, queue_id id, int64_t time_ns);

/* Cancel a pending event. */
void engine_cancel(engine *e, queue_id id);

/* True when id is still pending. */
bool engine_pending(const engine *e, queue_id id);

/* Number of pending events. */
uint64_t engine_pending_count(const engine *e);

/* Ask engine_run() to return after the current handler. */
void engine_stop(engine *e);

/*
 * Run events until the queue is empty, the next event is later than
 * until_ns, or engine_stop() is called. Returns the number of events run.
 */
uint64_t engine_run(engine *e, int64_t until_ns);

#endif
