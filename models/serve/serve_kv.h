/*
 * serve_kv: a replica's paged KV cache, as vLLM's block manager counts it:
 * whole blocks of block_tokens tokens, taken and given back, the run's
 * blocks in use tallied over time (kv_util) and each replica's peak. It
 * never decides what to evict: the scheduler (serve_sched) preempts.
 */
#ifndef CLUSTERSIM_MODELS_SERVE_SERVE_KV_H
#define CLUSTERSIM_MODELS_SERVE_SERVE_KV_H

#include "models/serve/serve_state.h"

/* Blocks that hold tokens tokens (rounded up). */
int serve_kv_blocks(const struct serve_state *s, long tokens);

/* Take n free blocks of replica r (n <= its free blocks). */
void serve_kv_take(struct serve_state *s, struct serve_replica *r, int n);

/* Give n blocks back to replica r. */
void serve_kv_give(struct serve_state *s, struct serve_replica *r, int n);

#endif
