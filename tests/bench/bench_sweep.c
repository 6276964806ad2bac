/*
 * bench_sweep: what one configuration of a training sweep costs. Two grids
 * of stated plans, each evaluated as a sweep point is (evaluate(): the
 * step, then the whole run), with the scenario loaded once and the plan
 * varied in memory:
 * - the 70B grid: Llama 3 70B, seq 8192, 16M-token batches on 64 DGX H100
 *   (512 GPUs): tp {1,2,4,8} x pp {1,2,4,8} x micro_batch {1,2,4} x
 *   recompute {none, selective, full} x schedule {gpipe, 1f1b, zb-h1,
 *   interleaved vpp 2, interleaved vpp 4, dualpipev}: 864 plans, most of
 *   which do not fit;
 * - the 1T grid: Megatron SC21's GPT 1008B, seq 2048, 3,072 sequences a
 *   step on 384 DGX A100 (3,072 GPUs): tp 8 x pp {8,16,32,64} x the same
 *   micro-batches, recomputes and schedules: 216 plans.
 * Prints microseconds per configuration (the best of 5 passes, wall clock
 * and CPU time) and how many fit. `bench_sweep --dump FILE` also writes every result row
 * (CSV, every column) to FILE, to compare two builds byte for byte;
 * `--only K` runs grid K (0 or 1) alone, 20 passes (for a profile).
 */
#include <stdio.h>
#include <string.h>

#include "benchutil.h"
#include "models/eval/evaluate.h"
#include "models/scenario/jobs.h"
#include "models/scenario/scenario.h"
#include "output/results.h"
#include "output/writer.h"

struct grid {
	const char *label;
	const char *text;
	const int *pp;
	int npp;
	const int *tp;
	int ntp;
};

/* A schedule with its virtual stages per stage. */
struct sched_vpp {
	enum schedule_kind schedule;
	int vpp;
};

static const struct sched_vpp sched_grid[] = {
	{ SCHED_GPIPE, 1 }, { SCHED_1F1B, 1 }, { SCHED_ZB_H1, 1 },
	{ SCHED_INTERLEAVED, 2 }, { SCHED_INTERLEAVED, 4 }, { SCHED_DUALPIPEV, 2 },
};
static const int mb_grid[] = { 1, 2, 4 };
static const int rc_grid[] = { RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Write row `row` of rs to f as CSV-like text (every cell: text whole,
 * numbers as the CSV writer formats them). */
static void dump_row(FILE *f, const rowset *rs, size_t row)
{
	char buf[WRITER_CELL_MAX];
	for (size_t c = 0; c < rowset_ncols(rs); c++)
		fprintf(f, "%s%s", c ? "," : "", writer_csv_cell(rs, row, c, buf, sizeof buf));
	fputc('\n', f);
}

/* CPU seconds of this process (what a busy shared machine disturbs less
 * than the wall clock). */
static double cpu_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One pass over the grid: evaluate every plan; returns the seconds taken
 * (wall clock; CPU in *cpu_s), with the plans evaluated in *n, those that
 * fit in *fit. */
static double pass(const struct grid *g, struct scenario *s, FILE *dump, int *n, int *fit, double *cpu_s)
{
	size_t njobs;
	struct job *jobs = jobs_from_scenario(s, false, 0, &njobs);
	struct parallel_plan *q = &s->workload.train.plan;
	struct result r;
	rowset *rs = dump != NULL ? results_new(RESULT_TRAINING) : NULL;
	double t0 = bench_now_s(), c0 = cpu_now_s();

	*n = *fit = 0;
	for (int a = 0; a < g->ntp; a++)
		for (int b = 0; b < g->npp; b++)
			for (int c = 0; c < COUNT(mb_grid); c++)
				for (int d = 0; d < COUNT(rc_grid); d++)
					for (int e = 0; e < COUNT(sched_grid); e++) {
						q->tp = g->tp[a];
						q->pp = g->pp[b];
						q->micro_batch = mb_grid[c];
						q->recompute = rc_grid[d];
						q->schedule = sched_grid[e].schedule;
						q->vpp = sched_grid[e].vpp;
						q->sequence_parallel = q->tp > 1;
						evaluate(&jobs[0], &r);
						(*n)++;
						if (r.outcome.status == OUTCOME_OK)
							(*fit)++;
						if (rs != NULL) {
							results_row(rs, &jobs[0], &r);
							dump_row(dump, rs, rowset_nrows(rs) - 1);
						}
					}
	double dt = bench_now_s() - t0;
	*cpu_s = cpu_now_s() - c0;
	rowset_free(rs);
	free(jobs);
	return dt;
}

static int bench(catalog *cat, const struct grid *g, FILE *dump, int passes)
{
	struct scenario s;
	double best = 1e30, best_cpu = 1e30, cpu;
	int n = 0, fit = 0;

	if (bench_load(cat, g->text, &s) != 0)
		return 1;
	if (dump != NULL)
		pass(g, &s, dump, &n, &fit, &cpu);
	for (int i = 0; i < passes; i++) {
		double dt = pass(g, &s, NULL, &n, &fit, &cpu);
		if (dt < best)
			best = dt;
		if (cpu < best_cpu)
			best_cpu = cpu;
	}
	printf("%-46s %8.1f us per configuration (CPU %.1f us; %d plans, %d fit)\n", g->label,
	       best / n * 1e6, best_cpu / n * 1e6, n, fit);
	scenario_release(&s);
	return 0;
}

int main(int argc, char **argv)
{
	static const int tp70[] = { 1, 2, 4, 8 }, pp70[] = { 1, 2, 4, 8 };
	static const int tp1t[] = { 8 }, pp1t[] = { 8, 16, 32, 64 };
	const struct grid grids[] = {
		{ "70B grid: Llama 3 70B, 64 DGX H100, 864 plans",
		  "{\"name\": \"bench-70b\", \"workload\": {\"kind\": \"training\", \"model\": \"llama3-70b\","
		  " \"seq_len\": 8192, \"global_batch_tokens\": 16777216, \"tokens\": 1e12,"
		  " \"parallelism\": {\"tp\": 8, \"pp\": 4, \"vpp\": 1, \"dp\": \"auto\", \"cp\": 1, \"ep\": 1,"
		  " \"zero\": 1, \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"selective\","
		  " \"sequence_parallel\": true}}, \"candidates\": [{\"preset\": \"dgx-h100\", \"nodes\": 64}]}",
		  pp70, COUNT(pp70), tp70, COUNT(tp70) },
		{ "1T grid: GPT 1008B, 384 DGX A100, 216 plans",
		  "{\"name\": \"bench-1t\", \"workload\": {\"kind\": \"training\", \"model\": \"gpt-1008b\","
		  " \"seq_len\": 2048, \"global_batch_tokens\": 6291456, \"tokens\": 4.5e11,"
		  " \"parallelism\": {\"tp\": 8, \"pp\": 64, \"vpp\": 1, \"dp\": \"auto\", \"cp\": 1, \"ep\": 1,"
		  " \"zero\": 1, \"micro_batch\": 1, \"schedule\": \"1f1b\", \"recompute\": \"full\","
		  " \"sequence_parallel\": true}}, \"candidates\": [{\"preset\": \"dgx-a100\", \"nodes\": 384}]}",
		  pp1t, COUNT(pp1t), tp1t, COUNT(tp1t) },
	};
	struct cs_error err;
	FILE *dump = NULL;
	int rc = 0;

	int only = -1;  /* --only K: grid K alone (for a profile) */
	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--only") == 0)
			only = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--dump") == 0 && (dump = fopen(argv[i + 1], "w")) == NULL) {
			perror(argv[i + 1]);
			return 1;
		}
	}
	catalog *cat = catalog_new_builtin(&err);
	if (cat == NULL)
		return 1;
	for (int i = 0; i < COUNT(grids); i++)
		if (only < 0 || only == i)
			rc |= bench(cat, &grids[i], dump, only < 0 ? 5 : 20);
	catalog_free(cat);
	if (dump != NULL)
		fclose(dump);
	return rc;
}
