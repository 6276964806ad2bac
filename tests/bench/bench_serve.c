/*
 * bench_serve: the speed of the serving simulation. One hour of Poisson
 * traffic at 100 requests/s (about 360,000 requests of 1000 prompt and 200
 * output tokens) on one 8-GPU replica of Llama 3 70B (bf16, tp 8) on a DGX
 * H100, step times from serve_cost: target under 2 s. Also a load the
 * replica sustains (5 requests/s), to show the figures in steady state.
 */
#define _DEFAULT_SOURCE 1  /* wait4 */

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchutil.h"
#include "models/hw/catalog.h"
#include "models/scenario/scenario.h"
#include "models/serve/serve.h"

/* One tp-8 replica under vLLM's defaults (8,192-token budget, 256
 * sequences, chunked prefill, 16-token blocks), Poisson arrivals at rate
 * for duration_s, fixed prompt and output lengths. */
static void spec_fill(struct serving_spec *sv, double rate, double duration_s, double prompt, double output)
{
	memset(sv, 0, sizeof *sv);
	sv->process = ARRIVAL_POISSON;
	sv->rate_per_s = rate;
	sv->duration_s = duration_s;
	sv->prompt_tokens = (struct length_spec){ .dist = LEN_FIXED, .mean = prompt, .min = 1, .max = 1 << 20 };
	sv->output_tokens = (struct length_spec){ .dist = LEN_FIXED, .mean = output, .min = 1, .max = 1 << 20 };
	sv->max_batch_tokens = 8192;
	sv->max_seqs = 256;
	sv->chunked_prefill = true;
	sv->block_tokens = 16;
	sv->step_overhead_s = -1;
	sv->router = ROUTER_ROUND_ROBIN;
	sv->replicas = 1;
	sv->tp = 8;
	sv->pp = 1;
	sv->ep = 1;
}

static void bench(const struct cluster_spec *c, const struct model_spec *m, double rate, int reps)
{
	static const struct kernel_calibration cal = { .launch_s = -1, .flash_attention = true };
	struct serving_spec sv;
	static struct serve_result r;
	double best = 1e9;

	spec_fill(&sv, rate, 3600, 1000, 200);
	for (int i = 0; i < reps; i++) {
		double t0 = bench_now_s();
		serve_run(&sv, &(struct workload_model){ .arch = *m, .precision = PREC_BF16, .kernels = cal }, c, 42, 0, &r);
		double dt = bench_now_s() - t0;
		if (dt < best)
			best = dt;
	}
	if (r.outcome.status != OUTCOME_OK) {
		printf("serve %g/s: status %d: %s\n", rate, r.outcome.status, r.outcome.reason);
		return;
	}
	printf("1 h at %g req/s, Llama 3 70B, 8x H100 (tp 8): %.3f s, %ld requests, %llu events, %.2f M events/s\n",
	       rate, best, r.m.requests_done, (unsigned long long)r.m.events, r.m.events / best / 1e6);
	printf("    span %.0f s, %.0f output tok/s, TTFT P50/P99 %.0f/%.0f ms, TPOT P50/P99 %.1f/%.1f ms, "
	       "ITL P99 %.1f ms, KV util %.2f, preemptions %ld\n",
	       r.m.span_s, r.m.output_tok_s, r.m.ttft_ms.p50, r.m.ttft_ms.p99, r.m.tpot_ms.p50, r.m.tpot_ms.p99,
	       r.m.itl_ms.p99, r.m.kv_util, r.m.preemptions);
}

/* One run of duration_s at 100 requests/s in a child process: its
 * figures through a pipe, its peak RSS from wait4. */
static void horizon(const struct cluster_spec *c, const struct model_spec *m, double duration_s, const char *name)
{
	static const struct kernel_calibration cal = { .launch_s = -1, .flash_attention = true };
	struct { double t_s; long requests; double ttft_p99, tpot_p99, itl_p99; int status; } out;
	int fd[2];
	if (pipe(fd) != 0)
		return;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct serving_spec sv;
		static struct serve_result r;
		spec_fill(&sv, 100, duration_s, 200, 10);
		double t0 = bench_now_s();
		serve_run(&sv, &(struct workload_model){ .arch = *m, .precision = PREC_BF16, .kernels = cal }, c, 42, 0, &r);
		out.t_s = bench_now_s() - t0;
		out.requests = r.m.requests_done;
		out.ttft_p99 = r.m.ttft_ms.p99;
		out.tpot_p99 = r.m.tpot_ms.p99;
		out.itl_p99 = r.m.itl_ms.p99;
		out.status = (int)r.outcome.status;
		_exit(write(fd[1], &out, sizeof out) == (ssize_t)sizeof out ? 0 : 1);
	}
	close(fd[1]);
	struct rusage ru;
	int st;
	ssize_t got = read(fd[0], &out, sizeof out);
	close(fd[0]);
	if (pid < 0 || wait4(pid, &st, 0, &ru) != pid || got != (ssize_t)sizeof out || out.status != OUTCOME_OK) {
		printf("%s at 100 req/s: the run failed\n", name);
		return;
	}
	printf("%-6s at 100 req/s, 1 replica: %9ld requests, %7.1f s (%.2f us a request), peak RSS %6.1f MB; "
	       "TTFT/TPOT/ITL P99 %.0f/%.1f/%.1f ms\n", name, out.requests, out.t_s, out.t_s / out.requests * 1e6,
	       ru.ru_maxrss / 1024.0, out.ttft_p99, out.tpot_p99, out.itl_p99);
}

int main(void)
{
	struct cs_error err;
	struct scenario s;
	catalog *cat = catalog_new_builtin(&err);
	if (cat == NULL) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	if (bench_load(cat, "{\"workload\": {\"kind\": \"collective\", \"collective\": {\"op\": \"all_reduce\", \"bytes\": 1}},"
		      " \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 1}]}", &s) != 0)
		return 1;
	const struct model_spec *m = catalog_model(cat, "llama3-70b");
	if (m == NULL)
		return 1;
	bench(&s.candidates[0], m, 100, 3);
	bench(&s.candidates[0], m, 5, 3);
	struct rusage self;
	getrusage(RUSAGE_SELF, &self);
	printf("memory against a run's length (the process before: %.1f MB):\n", self.ru_maxrss / 1024.0);
	horizon(&s.candidates[0], m, 3600, "1 h");
	horizon(&s.candidates[0], m, 86400, "1 day");
	horizon(&s.candidates[0], m, 604800, "1 week");
	scenario_release(&s);
	catalog_free(cat);
	return 0;
}
