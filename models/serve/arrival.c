/*
 * arrival: the five arrival processes as table entries.
 *
 * Poisson and gamma start one gap after t = 0 and stop at duration_s, or
 * after `requests` requests when that is given; offline sends `requests` at
 * t = 0; a closed-loop client sends its next request at the instant its
 * last one finishes (serve_sim asks arrival_may_send), while fewer than
 * `requests` were sent (or before duration_s); a trace sends its requests
 * (the first `requests` of them, by arrival) at their times, duration_s not
 * applied.
 */
#include "arrival.h"

#include <assert.h>
#include <gsl/gsl_randist.h>
#include <stdlib.h>

#include "models/serve/serve_load.h"
#include "sim/time.h"
#include "util/text.h"
#include "util/xalloc.h"

const char *const arrival_process_names[] = { "poisson", "gamma", "trace", "offline", "closed-loop", NULL };

/* A request of the load's drawn lengths (prompt drawn first). */
static void send_drawn(struct arrival_run *a, int client)
{
	int p, o;
	serve_load_lengths(a->load, &p, &o);
	a->send(a, p, o, client);
}

/* The requests given, or none known before the run. */
static double requests_given(const struct serving_spec *sv)
{
	return sv->requests > 0 ? (double)sv->requests : 0;
}

static double rate_measured(const struct serving_spec *sv, const struct serve_metrics *m)
{
	(void)sv;
	return m->request_per_s;
}

/* Poisson and gamma: a rate for a duration or a request count. */

static int rate_check(const struct serving_spec *sv, char *reason, size_t len)
{
	if (!(sv->rate_per_s > 0) || (sv->requests <= 0 && !(sv->duration_s > 0))) {
		text_setf(reason, len, "an arrival rate (%g) and a duration (%g s) or request count are needed",
			  sv->rate_per_s, sv->duration_s);
		return -1;
	}
	return 0;
}

static double rate_requests(const struct serving_spec *sv)
{
	return sv->requests > 0 ? (double)sv->requests : sv->rate_per_s * sv->duration_s;
}

static double rate_offered(const struct serving_spec *sv, const struct serve_metrics *m)
{
	(void)m;
	return sv->rate_per_s;
}

/* Exponential gaps of mean 1/rate. */
static double poisson_gap_s(struct arrival_run *a)
{
	return gsl_ran_exponential(a->load->arrivals, 1.0 / a->sv->rate_per_s);
}

/* Gamma gaps with mean 1/rate and coefficient of variation cv: shape
 * k = 1/cv^2, scale 1/(rate k); cv 1 is Poisson. */
static double gamma_gap_s(struct arrival_run *a)
{
	const struct serving_spec *sv = a->sv;
	double k = 1.0 / (sv->cv * sv->cv);
	return gsl_ran_gamma(a->load->arrivals, k, 1.0 / (sv->rate_per_s * k));
}

static void rate_start(struct arrival_run *a)
{
	a->next_s = a->ops->gap_s(a);
	if (a->limit > 0 || sim_time_from_s(a->next_s) < a->end_ns)
		engine_at(a->e, sim_time_from_s(a->next_s), ENGINE_CLASS_DELIVERY, a->event, 0);
}

static void rate_next(struct arrival_run *a)
{
	send_drawn(a, -1);
	if (a->limit > 0 ? a->sent(a) < a->limit : true) {
		a->next_s += a->ops->gap_s(a);
		int64_t t = sim_time_from_s(a->next_s);
		if (a->limit > 0 || t < a->end_ns)
			engine_at(a->e, t, ENGINE_CLASS_DELIVERY, a->event, 0);
	}
}

/* Offline and closed loop: one event at t = 0. */

static void at_zero_start(struct arrival_run *a)
{
	engine_at(a->e, 0, ENGINE_CLASS_DELIVERY, a->event, 0);
}

static int offline_check(const struct serving_spec *sv, char *reason, size_t len)
{
	if (sv->requests <= 0) {
		text_setf(reason, len, "offline arrivals need a request count");
		return -1;
	}
	return 0;
}

static void offline_next(struct arrival_run *a)
{
	for (long i = 0; i < a->limit && !a->stopped(a); i++)
		send_drawn(a, -1);
}

/* Closed loop: whether a client may send another request now (fewer than
 * `requests` sent, or before duration_s). */
static bool may_send(const struct arrival_run *a)
{
	if (a->limit > 0)
		return a->sent(a) < a->limit;
	return engine_now(a->e) < a->end_ns;
}

static int closed_loop_check(const struct serving_spec *sv, char *reason, size_t len)
{
	if (sv->concurrency < 1 || (sv->requests <= 0 && !(sv->duration_s > 0))) {
		text_setf(reason, len, "closed-loop arrivals need a concurrency (%d) and a request count or duration",
			  sv->concurrency);
		return -1;
	}
	return 0;
}

static void closed_loop_next(struct arrival_run *a)
{
	for (int c = 0; c < a->sv->concurrency && may_send(a) && !a->stopped(a); c++)
		send_drawn(a, c);
}

static void closed_loop_finished(struct arrival_run *a, int client)
{
	if (may_send(a))
		send_drawn(a, client);
}

/* Trace: its rows at their times. */

static int trace_check(const struct serving_spec *sv, char *reason, size_t len)
{
	if (sv->trace_requests == NULL) {
		text_setf(reason, len, "trace arrivals need the trace's requests");
		return -1;
	}
	return 0;
}

static double trace_requests(const struct serving_spec *sv)
{
	return (double)sv->trace_requests->n;
}

struct trace_key {
	double t;
	size_t i;
};

/* By arrival, then by position in the trace. */
static int trace_cmp(const void *a, const void *b)
{
	const struct trace_key *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static void trace_start(struct arrival_run *a)
{
	const struct serve_trace *tr = a->sv->trace_requests;
	a->n = tr->n;
	if (a->limit > 0 && (size_t)a->limit < a->n)
		a->n = (size_t)a->limit;
	a->order = xcalloc(tr->n + 1, sizeof *a->order);
	struct trace_key *keys = xcalloc(tr->n + 1, sizeof *keys);
	for (size_t i = 0; i < tr->n; i++)
		keys[i] = (struct trace_key){ tr->requests[i].arrival_s, i };
	qsort(keys, tr->n, sizeof *keys, trace_cmp);
	for (size_t i = 0; i < tr->n; i++)
		a->order[i] = keys[i].i;
	free(keys);
	if (a->n > 0) {
		double t0 = tr->requests[a->order[0]].arrival_s;
		engine_at(a->e, sim_time_from_s(t0 > 0 ? t0 : 0), ENGINE_CLASS_DELIVERY, a->event, 0);
	}
}

static void trace_next(struct arrival_run *a)
{
	const struct serve_request *rq = a->sv->trace_requests->requests;
	int64_t t = engine_now(a->e);
	while (a->next < a->n && !a->stopped(a)) {
		const struct serve_request *x = &rq[a->order[a->next]];
		int64_t tx = sim_time_from_s(x->arrival_s);
		if (tx > t) {
			engine_at(a->e, tx, ENGINE_CLASS_DELIVERY, a->event, 0);
			break;
		}
		a->next++;
		a->send(a, x->prompt_tokens > 1 ? x->prompt_tokens : 1, x->output_tokens > 1 ? x->output_tokens : 1, -1);
	}
}

const struct arrival_ops arrival_ops[] = {
	[ARRIVAL_POISSON] = { .name = "poisson", .check = rate_check, .requests = rate_requests,
			      .offered_rate = rate_offered, .gap_s = poisson_gap_s, .start = rate_start,
			      .next = rate_next },
	[ARRIVAL_GAMMA] = { .name = "gamma", .check = rate_check, .requests = rate_requests,
			    .offered_rate = rate_offered, .gap_s = gamma_gap_s, .start = rate_start,
			    .next = rate_next },
	[ARRIVAL_TRACE] = { .name = "trace", .lengths_given = true, .check = trace_check,
			    .requests = trace_requests, .offered_rate = rate_measured, .start = trace_start,
			    .next = trace_next },
	[ARRIVAL_OFFLINE] = { .name = "offline", .check = offline_check, .requests = requests_given,
			      .offered_rate = rate_measured, .start = at_zero_start, .next = offline_next },
	[ARRIVAL_CLOSED_LOOP] = { .name = "closed-loop", .check = closed_loop_check, .requests = requests_given,
				  .offered_rate = rate_measured, .start = at_zero_start, .next = closed_loop_next,
				  .finished = closed_loop_finished },
};

_Static_assert(sizeof arrival_ops / sizeof arrival_ops[0] ==
		       sizeof arrival_process_names / sizeof arrival_process_names[0] - 1,
	       "one arrival_ops entry per arrival process name");

const struct arrival_ops *arrival_of(enum arrival_process p)
{
	assert((size_t)p < sizeof arrival_ops / sizeof arrival_ops[0]);
	return &arrival_ops[p];
}

void arrival_run_init(struct arrival_run *a, const struct serving_spec *sv)
{
	a->sv = sv;
	a->ops = arrival_of(sv->process);
	a->limit = sv->requests > 0 ? sv->requests : 0;
	a->end_ns = sim_time_from_s(sv->duration_s);
	a->next_s = 0;
	a->order = NULL;
	a->n = a->next = 0;
}

void arrival_run_release(struct arrival_run *a)
{
	free(a->order);
	a->order = NULL;
}
