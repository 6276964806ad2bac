#include "serve_kv.h"

#include <assert.h>

int serve_kv_blocks(const struct serve_state *s, long tokens)
{
	return (int)((tokens + s->block_tokens - 1) / s->block_tokens);
}

void serve_kv_take(struct serve_state *s, struct serve_replica *r, int n)
{
	assert(n >= 0 && n <= r->blocks_free);
	if (n == 0)
		return;
	r->blocks_free -= n;
	stats_level_add(&s->kv_used, engine_now(s->e), n);
	double frac = (double)(r->blocks_total - r->blocks_free) / (double)r->blocks_total;
	if (frac > r->peak_frac)
		r->peak_frac = frac;
}

void serve_kv_give(struct serve_state *s, struct serve_replica *r, int n)
{
	if (n == 0)
		return;
	r->blocks_free += n;
	assert(r->blocks_free <= r->blocks_total);
	stats_level_add(&s->kv_used, engine_now(s->e), -n);
}
