/*
 * serve_request: a request's life in a serving simulation: it arrives
 * (checked against the replicas' KV caches and the batch budget, counted in
 * the system, routed to a replica by the spec's router), takes its tokens
 * from the steps, with disaggregation is handed to a decode replica and
 * its KV cache moved there as flows on the topology, and finishes with its
 * TTFT, TPOT, inter-token gaps and end-to-end time tallied. Which tokens a
 * step computes is serve_sched's; when requests arrive, arrival.h's.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_REQUEST_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_REQUEST_H

#include "models/serve/serve_state.h"

/* Have replica r form a step now (s->on_kick) unless it is running one or
 * already asked. */
void serve_request_kick(struct serve_state *s, struct serve_replica *r);

/* A request of prompt and output tokens from client (-1: none) arrives
 * now: checked against the replicas' limits (the run fails when it can
 * never be served, or past the most requests), counted and routed. May
 * move s->seqs. */
void serve_request_new(struct serve_state *s, int prompt, int output, int client);

/* The step just ended on replica r gave sequence si its next token: its
 * first (handed to a decode replica when r prefills), a gap, or its last
 * (it finishes). May move s->seqs. */
void serve_request_emit(struct serve_state *s, struct serve_replica *r, int si);

/* Start moving the requests waiting for decode replica d while it has
 * blocks and sequence slots for them. */
void serve_request_start_moves(struct serve_state *s, struct serve_replica *d);

#endif
