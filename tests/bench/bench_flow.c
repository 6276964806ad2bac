/*
 * bench_flow: one full max-min re-solve of many concurrent flows.
 *
 * Flows take 2-6 random links (like GPU -> NIC -> leaf -> spine -> leaf ->
 * NIC paths) over 2e3 links. Prints the time of flow_resolve_all() for
 * 1e3, 1e4 and 1e5 flows (target: <= 1 ms for 1e4 flows on 2e3 links), and
 * the cost of one incremental start (a flow joining a busy network).
 */
#include <stdio.h>
#include <time.h>

#include "benchutil.h"
#include "sim/engine.h"
#include "sim/flow.h"
#include "sim/rng.h"

static void random_path(uint64_t *s, int nlinks, flow_link *p, int *len)
{
	*len = 2 + (int)(rng_splitmix64(s) % 5);
	for (int k = 0; k < *len; k++) {
		int dup;
		do {
			p[k] = (flow_link)(rng_splitmix64(s) % (uint64_t)nlinks);
			dup = 0;
			for (int j = 0; j < k; j++)
				dup |= p[j] == p[k];
		} while (dup);
	}
}

static void bench(int nflows, int nlinks)
{
	engine *e = engine_new();
	flow_net *n = flow_new(e);
	uint64_t s = 99;
	flow_link p[8];
	int len;
	for (int i = 0; i < nlinks; i++)
		flow_add_link(n, 1e9 * (double)(1 + rng_splitmix64(&s) % 8));
	flow_batch_begin(n);
	for (int f = 0; f < nflows; f++) {
		random_path(&s, nlinks, p, &len);
		flow_start(n, p, len, 1e9, 1.0, 0, NULL, 0);
	}
	flow_batch_end(n);
	double best = 1e9;
	for (int rep = 0; rep < 7; rep++) {
		double t0 = bench_now_s();
		flow_resolve_all(n);
		double dt = bench_now_s() - t0;
		if (dt < best)
			best = dt;
	}
	/* incremental: one more flow joins the (single, connected) component */
	double t0 = bench_now_s();
	int joins = 20;
	for (int i = 0; i < joins; i++) {
		random_path(&s, nlinks, p, &len);
		flow_start(n, p, len, 1e9, 1.0, 0, NULL, 0);
	}
	double inc = (bench_now_s() - t0) / joins;
	printf("%-26s %8d %8d %14.3f %16.3f\n", "full re-solve", nflows, nlinks, best * 1e3, inc * 1e3);
	flow_free(n);
	engine_free(e);
}

int main(void)
{
	printf("%-26s %8s %8s %14s %16s\n", "benchmark", "flows", "links", "resolve_ms", "one_start_ms");
	bench(1000, 2000);
	bench(10000, 2000);
	bench(100000, 2000);
	bench(100000, 20000);
	return 0;
}
