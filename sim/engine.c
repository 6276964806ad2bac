#include "engine.h"

#include <assert.h>
#include <stdlib.h>

#include "util/xalloc.h"

struct engine {
	queue *q;
	int64_t now_ns;
	bool stop;
};

engine *engine_new(void)
{
	engine *e = xcalloc(1, sizeof *e);
	e->q = queue_new();
	return e;
}

void engine_free(engine *e)
{
	if (e == NULL)
		return;
	queue_free(e->q);
	free(e);
}

int64_t engine_now(const engine *e)
{
	return e->now_ns;
}

queue_id engine_at(engine *e, int64_t time_ns, enum engine_class cls, struct engine_handler *h, uint64_t arg)
{
	assert(time_ns >= e->now_ns);
	assert(h != NULL && h->fn != NULL);
	return queue_push(e->q, time_ns, cls, h, arg);
}

queue_id engine_after(engine *e, int64_t delay_ns, enum engine_class cls, struct engine_handler *h, uint64_t arg)
{
	assert(delay_ns >= 0);
	int64_t t = delay_ns > INT64_MAX - e->now_ns ? INT64_MAX : e->now_ns + delay_ns;
	return engine_at(e, t, cls, h, arg);
}

void engine_move(engine *e, queue_id id, int64_t time_ns)
{
	assert(time_ns >= e->now_ns);
	queue_move(e->q, id, time_ns);
}

void engine_cancel(engine *e, queue_id id)
{
	queue_cancel(e->q, id);
}

bool engine_pending(const engine *e, queue_id id)
{
	return queue_contains(e->q, id);
}

uint64_t engine_pending_count(const engine *e)
{
	return queue_size(e->q);
}

void engine_stop(engine *e)
{
	e->stop = true;
}

uint64_t engine_run(engine *e, int64_t until_ns)
{
	uint64_t count = 0;
	struct queue_item item;
	int64_t next;

	e->stop = false;
	while (!e->stop && queue_peek_time(e->q, &next) && next <= until_ns) {
		queue_pop(e->q, &item);
		assert(item.time_ns >= e->now_ns); /* the clock never goes back */
		e->now_ns = item.time_ns;
		struct engine_handler *h = item.data;
		h->fn(e, h, item.arg);
		count++;
	}
	return count;
}
