/*
 * arrival: the serving arrival processes, one table entry each (Poisson,
 * gamma, trace, offline, closed-loop): what each needs of a spec, how many
 * requests it offers, the rate it is reported at, and how it sends its
 * requests on the engine.
 *
 * Every place that used to switch on enum arrival_process asks the entry
 * (arrival_of) instead: the simulation's check, first and next arrivals
 * (serve_sim), the offered rate (serve_run), the tokens of a request
 * (serve_cost) and the reader's work check (models/scenario/wl_serve.c).
 * A process knows nothing of replicas: it sends requests through the
 * callbacks of struct arrival_run, which serve_sim fills. It never reads
 * files (a trace is read by the scenario reader).
 */
#ifndef CLUSTERSIM_MODELS_SERVE_ARRIVAL_H
#define CLUSTERSIM_MODELS_SERVE_ARRIVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "models/serve/serve_types.h"
#include "sim/engine.h"

struct serve_load;

/*
 * One simulation's arrivals: the spec, the engine and the event that
 * delivers them, and the streams of the load; the process's own state
 * (next_s, the trace's order). The simulation fills the callbacks:
 * send (a request of these lengths from this client, -1 for none, arrives
 * now), sent (requests sent so far) and stopped (the run failed).
 */
struct arrival_run {
	const struct serving_spec *sv;
	const struct arrival_ops *ops;
	engine *e;
	struct engine_handler *event;   /* the arrival event (argument 0) */
	struct serve_load *load;        /* RNG_ARRIVALS gaps, RNG_LENGTHS lengths */
	long limit;                     /* requests to send; 0: until end_ns */
	int64_t end_ns;
	double next_s;                  /* Poisson, gamma: the next arrival's time */
	size_t *order, n, next;         /* trace: rows by arrival, rows to send, next to send */
	void (*send)(struct arrival_run *a, int prompt, int output, int client);
	long (*sent)(const struct arrival_run *a);
	bool (*stopped)(const struct arrival_run *a);
};

struct arrival_ops {
	const char *name;             /* arrival.process in a scenario (arrival_process_names) */
	bool lengths_given;           /* the requests' lengths are the trace's, not drawn */
	/* Whether the spec gives what the process needs: 0, or -1 with reason. */
	int (*check)(const struct serving_spec *sv, char *reason, size_t len);
	/* The requests the load offers, known before it runs (0: known only
	 * as it runs, a closed loop for a duration). */
	double (*requests)(const struct serving_spec *sv);
	/* The rate reported for a load that ran: the spec's or measured. */
	double (*offered_rate)(const struct serving_spec *sv, const struct serve_metrics *m);
	/* Seconds to the next arrival (Poisson, gamma; else NULL). */
	double (*gap_s)(struct arrival_run *a);
	/* Schedule the first arrival event. */
	void (*start)(struct arrival_run *a);
	/* The arrival event: send what arrives now and schedule the next. */
	void (*next)(struct arrival_run *a);
	/* A request of client (>= 0) finished (closed loop: the client sends
	 * its next one); NULL where no request has a client. */
	void (*finished)(struct arrival_run *a, int client);
};

/* The entries, indexed by enum arrival_process. */
extern const struct arrival_ops arrival_ops[];

/* The entry of process p. */
const struct arrival_ops *arrival_of(enum arrival_process p);

/* Set up a's process state for sv (the callbacks, engine, event and load
 * are the caller's to fill); release frees what start allocated. */
void arrival_run_init(struct arrival_run *a, const struct serving_spec *sv);
void arrival_run_release(struct arrival_run *a);

#endif
