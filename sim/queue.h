/*
 * queue: the event queue, an array-backed 4-ary min-heap of 128-bit keys.
 *
 * Events are ordered by (time, class, sequence). The sequence number grows on
 * every insert, so events with the same time and class come out in insertion
 * order and a rerun gives byte-identical results. Each event has an id that
 * stays valid until the event is popped or cancelled; through it the event can
 * be moved to another time or cancelled in O(log n) amortized (lazily: the
 * old heap node is left stale and dropped later; see the layout note in
 * queue.c). Moving counts as a new insertion for tie breaking. The queue
 * knows nothing of what events mean: each carries an opaque pointer and a
 * 64-bit argument, both borrowed. At most 2^26 (67 million) events may be
 * pending at once.
 */
#ifndef CLUSTERSIM_SIM_QUEUE_H
#define CLUSTERSIM_SIM_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct queue queue;

/* An event id; QUEUE_ID_NONE is never returned by queue_push(). */
typedef uint64_t queue_id;
#define QUEUE_ID_NONE UINT64_C(0)

/* Classes order events that share a time: lower runs first (0..255). */
#define QUEUE_CLASS_MAX 255u

struct queue_item {
	int64_t time_ns;
	unsigned cls;
	uint64_t seq;
	queue_id id;
	void *data;
	uint64_t arg;
};

/* New empty queue. Caller frees with queue_free(). */
queue *queue_new(void);
void queue_free(queue *q);

/* Insert an event; returns its id. */
queue_id queue_push(queue *q, int64_t time_ns, unsigned cls, void *data, uint64_t arg);

/* Remove the earliest event into *out; false when empty. Its id becomes invalid. */
bool queue_pop(queue *q, struct queue_item *out);

/* Time of the earliest event; false when empty. */
bool queue_peek_time(const queue *q, int64_t *time_ns);

/* True when id names a pending event. */
bool queue_contains(const queue *q, queue_id id);

/* Move a pending event to time_ns (earlier or later). id must be pending. */
void queue_move(queue *q, queue_id id, int64_t time_ns);

/* Remove a pending event. id must be pending. */
void queue_cancel(queue *q, queue_id id);

/* Number of pending events. */
size_t queue_size(const queue *q);

#endif
