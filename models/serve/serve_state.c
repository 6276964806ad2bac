#include "serve_state.h"

#include <assert.h>
#include <stdarg.h>
#include <string.h>

#include "util/text.h"

void serve_state_fail(struct serve_state *s, int failure, const char *fmt, ...)
{
	va_list ap;
	if (s->failed)
		return;
	s->failed = true;
	s->failure = failure;
	va_start(ap, fmt);
	text_vsetf(s->reason, s->reason_len, fmt, ap);
	va_end(ap);
	engine_stop(s->e);
}

bool serve_state_tick(struct serve_state *s)
{
	if (s->failed)
		return false;
	if (++s->calls > SERVE_SIM_MAX_EVENTS) {
		serve_state_fail(s, SERVE_SIM_TOO_LONG, "the serving simulation passed %llu events", (unsigned long long)SERVE_SIM_MAX_EVENTS);
		return false;
	}
	return true;
}

void serve_state_push_tail(struct serve_state *s, int *head, int *tail, int si)
{
	s->seqs[si].next = -1;
	if (*tail < 0)
		*head = si;
	else
		s->seqs[*tail].next = si;
	*tail = si;
}

void serve_state_push_head(struct serve_state *s, int *head, int *tail, int si)
{
	s->seqs[si].next = *head;
	*head = si;
	if (*tail < 0)
		*tail = si;
}

int serve_state_pop_head(struct serve_state *s, int *head, int *tail)
{
	int si = *head;
	assert(si >= 0);
	*head = s->seqs[si].next;
	if (*head < 0)
		*tail = -1;
	return si;
}

void serve_state_running_insert(struct serve_state *s, struct serve_replica *r, int si)
{
	int i = r->n_running;
	long id = s->seqs[si].id;
	while (i > 0 && s->seqs[r->running[i - 1]].id > id) {
		r->running[i] = r->running[i - 1];
		i--;
	}
	r->running[i] = si;
	r->n_running++;
}

void serve_state_running_remove(struct serve_replica *r, int si)
{
	int i = r->n_running - 1;
	while (i >= 0 && r->running[i] != si)
		i--;
	assert(i >= 0);
	memmove(&r->running[i], &r->running[i + 1], (size_t)(r->n_running - i - 1) * sizeof r->running[0]);
	r->n_running--;
}

bool serve_state_is_decode(const struct serve_seq *q)
{
	return q->generated >= 1 && q->computed == q->prompt + q->generated - 1;
}
