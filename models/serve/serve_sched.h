/*
 * serve_sched: a replica's iteration-level scheduler (the policy of the
 * scenario's engine, serve_engine.h):
 * which sequences the next step computes and how many tokens each,
 * continuous batching under the token budget and the sequence limit,
 * chunked or whole prefill, KV blocks allocated on admission and as
 * decodes cross a block, preemption by recompute when none is free; the
 * step's time from the pool's step model, its end scheduled on the engine.
 * What a finished step means for a request is serve_request's.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_SCHED_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_SCHED_H

#include <stdbool.h>

#include "models/serve/serve_state.h"

/* Form replica r's next batch and schedule the end of its step (s->on_step,
 * argument r's index); false when it has nothing to run (and the run
 * fails when a waiting request can never be scheduled). */
bool serve_sched_step(struct serve_state *s, struct serve_replica *r);

#endif
