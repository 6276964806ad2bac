/* clustersim plan: which cluster shape to rent for the scenario's job. */
#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/plan_disagg_out.h"
#include "cli/price_notes.h"
#include "models/cost/billing.h"
#include "models/eval/evaluate.h"
#include "models/plan/plan.h"
#include "models/plan/plan_mix.h"
#include "models/plan/plan_band.h"
#include "models/plan/plan_own.h"
#include "models/plan/plan_spot.h"
#include "models/scenario/space.h"
#include "output/results.h"
#include "util/xalloc.h"
#include "util/text.h"

static const char usage_text[] =
	"usage: clustersim plan SCENARIO.json [--deadline-h H] [--budget-usd D] [--top K] [--no-prune]\n"
	"                       [--show front|all] [--tie F] [--format table|csv|json|jsonl]\n"
	"                       [--set PATH=VALUE]... [--seed N] [--catalog FILE]... [--columns LIST]\n"
	"                       [-o FILE]\n\n"
	"Searches the scenario's cluster shapes (its `search` block: presets, GPUs, providers,\n"
	"price types, node counts and spot preemptions; without one, its candidates) for the best\n"
	"plan on each and prints the answer first: the cheapest and the fastest shape that meet the\n"
	"objective, for each of the top choices one line of why, and, when spot shapes were\n"
	"searched, what spot saves against on-demand at P50 and P90; then the time/cost Pareto front.\n"
	"  --deadline-h H    the run must finish within H hours (over objective.deadline_h)\n"
	"  --budget-usd D    the run must cost at most D dollars (over objective.budget_usd)\n"
	"  --top K           why lines for the K cheapest choices on the front (default 3)\n"
	"  --no-prune        evaluate every priced shape (no lower-bound pruning)\n"
	"  --show all        rows for every shape, the front's first: its fate and, off the front,\n"
	"                    fate_reason says why (default: front, the front's rows only)\n"
	"  --tie F           P50 times within the fraction F of each other are a tie, and a tie goes\n"
	"                    to the cheaper shape (over search.tie_tolerance; default 0.01; 0: only\n"
	"                    the Monte Carlo noise)\n"
	"  --format F        table (on a terminal), csv (otherwise), json or jsonl: the rows\n"
	"  --columns a,b,c   the rows' columns (all: every column; help: the list)\n"
	"  -o, --output FILE write the rows to FILE (atomically); the answer stays on standard output\n"
	"  -h, --help        print this help\n\n"
	"The rows have run's columns plus front, plan_rank, why, price_type,\n"
	"fate, fate_reason and candidate_json (`clustersim run SCENARIO --set\n"
	"'candidates=[candidate_json]'` evaluates that shape alone; docs/explanation/planning.md). How many\n"
	"shapes were evaluated and skipped, and why, goes to standard error.\n"
	"Serving (an inference workload): each shape gets serving.replicas (\"auto\": the fewest\n"
	"that meet serving.slo at the offered rate), compared on dollars per hour and TTFT P99.\n"
	"Exit status: 0 when some shape is ok, 1 when none is, 2 for bad usage or bad input.\n";

/* A positive number option, or a usage error. */
static int read_positive(const char *cmd, const char *name, const char *arg, double max, double *out,
			 struct cs_error *err)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (end == arg || *end != '\0' || errno != 0 || !(v > 0) || v > max)
		return cli_usage_error(err, cmd, "--%s expects a positive number up to %g, got '%.40s'", name, max, arg);
	*out = v;
	return 0;
}

static int check_deadline(const char *cmd, const char *arg, struct cs_error *err)
{
	double v;
	return read_positive(cmd, "deadline-h", arg, 1e7, &v, err);
}

static int check_budget(const char *cmd, const char *arg, struct cs_error *err)
{
	double v;
	return read_positive(cmd, "budget-usd", arg, 1e13, &v, err);
}

/* --show front|all */
static int check_show(const char *cmd, const char *arg, struct cs_error *err)
{
	if (strcmp(arg, "front") != 0 && strcmp(arg, "all") != 0)
		return cli_usage_error(err, cmd, "--show expects front or all, got '%s'", arg);
	return 0;
}

/* --tie F: a fraction from 0 to 0.5, as search.tie_tolerance */
static int read_tie(const char *cmd, const char *arg, double *out, struct cs_error *err)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (end == arg || *end != '\0' || errno != 0 || !(v >= 0) || v > 0.5)
		return cli_usage_error(err, cmd, "--tie expects a fraction from 0 to 0.5 (0.01: 1%%), got '%s'", arg);
	*out = v;
	return 0;
}

static int check_tie(const char *cmd, const char *arg, struct cs_error *err)
{
	double v;
	return read_tie(cmd, arg, &v, err);
}

static int check_top(const char *cmd, const char *arg, struct cs_error *err)
{
	double v;
	if (read_positive(cmd, "top", arg, 1000, &v, err) != 0)
		return EXIT_USAGE;
	if (v != (double)(int)v)
		return cli_usage_error(err, cmd, "--top expects a whole number, got '%.40s'", arg);
	return 0;
}

/* The space's shapes, for plan_search. */
struct shape_ctx {
	const struct space *space;
	const catalog *cat;
};

static bool get_shape(void *ctx, size_t i, struct cluster_spec *c)
{
	const struct shape_ctx *s = ctx;
	return space_shape(s->space, s->cat, i, c, NULL, 0);
}

/* Why shape i cannot be made, its name and the price type it asks for. */
static void unresolved_shape(void *ctx, size_t i, char *name, size_t name_size, char *why, size_t why_size,
			     enum price_type *type)
{
	const struct shape_ctx *s = ctx;
	struct cluster_spec *c = xmalloc(sizeof *c);
	space_shape_name(s->space, i, name, name_size);
	bool resolved = space_shape(s->space, s->cat, i, c, why, why_size);
	assert(!resolved);  /* it failed once, and the catalog does not change */
	(void)resolved;
	*type = space_shape_price_type(s->space, i);
	free(c);
}

/* ---- progress and interruption ---- */

/* Set by SIGINT or SIGTERM: the search stops after the shape it is on (the
 * handler is reset, so a second signal ends the process at once). */
static volatile sig_atomic_t plan_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	plan_interrupted = 1;
}

/* A progress line on standard error while the search runs, when that is a
 * terminal: from one second on, at most four times a second. */
struct progress {
	bool show, shown;
	struct timespec t0, last;
};

static double seconds_since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static bool on_progress(void *ctx, const struct plan_progress *pr)
{
	struct progress *g = ctx;
	struct timespec now;
	if (plan_interrupted)
		return false;
	if (!g->show)
		return true;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (seconds_since(&g->t0, &now) < 1 || (g->shown && seconds_since(&g->last, &now) < 0.25))
		return true;
	fprintf(stderr, "\rplan: %zu of %zu shapes decided, %zu of at most %zu evaluated, %.1f%% of the work bound; %.0f s ",
		pr->decided, pr->total, pr->evaluated, pr->to_evaluate, 100 * pr->work / PLAN_WORK_MAX,
		seconds_since(&g->t0, &now));
	fflush(stderr);
	g->shown = true;
	g->last = now;
	return true;
}

/* Clear the progress line (when one was shown). */
static void progress_end(struct progress *g)
{
	if (g->shown)
		fprintf(stderr, "\r%*s\r", 110, "");
	g->shown = false;
}

/* The plan columns after the result kind's. */
static const char *const plan_columns[] = { "front", "plan_rank", "why",
					    /* additions: every shape's fate (--show all), and how to run it alone */
					    "price_type", "fate", "fate_reason", "candidate_json" };

/* Whether name is one of plan's columns. */
static bool plan_column(const char *name)
{
	for (size_t i = 0; i < sizeof plan_columns / sizeof plan_columns[0]; i++)
		if (strcmp(plan_columns[i], name) == 0)
			return true;
	return false;
}

/* The result kind's columns, then plan's (a column of both, price_type,
 * stays where plan has always had it), then the disaggregated split's. */
static rowset *front_rowset(enum result_kind kind, bool disagg)
{
	rowset *base = results_new(kind);
	size_t nb = rowset_ncols(base), n = 0, extra = sizeof plan_columns / sizeof plan_columns[0], more = 0;
	while (disagg && plan_disagg_out_columns[more] != NULL)
		more++;
	const char **cols = xcalloc(nb + extra + more, sizeof *cols);
	for (size_t i = 0; i < nb; i++)
		if (!plan_column(rowset_column(base, i)))
			cols[n++] = rowset_column(base, i);
	for (size_t i = 0; i < extra; i++)
		cols[n + i] = plan_columns[i];
	for (size_t i = 0; i < more; i++)
		cols[n + extra + i] = plan_disagg_out_columns[i];
	rowset *rs = rowset_new_n(cols, n + extra + more);
	results_set_units(rs);
	free(cols);
	rowset_free(base);
	return rs;
}

/* "$1,234,567" */
static void say_usd(double usd, char *buf, size_t size)
{
	text_usd(usd, buf, size);
}

static void say_point(FILE *f, const char *label, const struct plan_point *p)
{
	char usd[PLAN_BAND_COST_MAX];
	if (p->result.kind == RESULT_INFERENCE) {
		const struct serve_result *sv = &p->result.serve;
		plan_band_serving_cost(&p->result.serve_usd, usd, sizeof usd);
		fprintf(f, "%s: %s: %s, %d replica%s x tp %d (%ld GPUs), TTFT P99 %.0f ms, TPOT P99 %.0f ms\n", label,
			p->name, usd, sv->replicas, sv->replicas == 1 ? "" : "s", sv->tp, sv->gpus_used, sv->m.ttft_ms.p99,
			sv->m.tpot_ms.p99);
		return;
	}
	const struct train_plan *tp = &p->result.train.plan;
	double h50 = p->result.run.wall_time_p50_s / 3600, h90 = p->result.run.wall_time_p90_s / 3600;
	char banded[PLAN_BAND_COST_MAX];
	plan_band_cost(&p->result.run, banded, sizeof banded);
	fprintf(f, "%s: %s: %.*f h, %s", label, p->name, h50 < 100 ? 1 : 0, h50, banded);
	if (h90 > h50 * (1 + 1e-6)) {
		say_usd(p->result.run.cost_usd_p90, usd, sizeof usd);
		fprintf(f, "; %.*f h, %s (P90)", h90 < 100 ? 1 : 0, h90, usd);
	}
	if (tp->tp > 0) {
		/* cp and ep when they split the GPUs too, so the degrees multiply to them */
		fprintf(f, "; %ld GPUs, tp %d pp %d", p->gpus, tp->tp, tp->pp);
		if (tp->cp > 1)
			fprintf(f, " cp %d", tp->cp);
		fprintf(f, " dp %d", tp->dp);
		if (tp->ep > 1)
			fprintf(f, " ep %d", tp->ep);
	}
	fputc('\n', f);
}

/* What spot saves against on-demand, when spot shapes were searched. */
static void print_spot(FILE *f, const struct plan_outcome *o)
{
	char line[1024];
	if (plan_spot(o, line, sizeof line))
		fprintf(f, "%s\n", line);
}

/* Whether the cheapest keeps its place inside the price bands. */
static void print_band_swap(FILE *f, const struct plan_outcome *o)
{
	char line[PLAN_BAND_SWAP_MAX];
	if (plan_band_swap(o, line, sizeof line))
		fprintf(f, "%s\n", line);
}

/* The answer: the verdict lines, then a why line for each top choice. */
static void print_answer(FILE *f, const struct plan_outcome *o, const struct objective_spec *obj, int top)
{
	char what[160] = "", usd[48];
	size_t used = 0;
	if (obj->deadline_h > 0)
		used += (size_t)snprintf(what + used, sizeof what - used, "the deadline of %g h", obj->deadline_h);
	if (obj->budget_usd > 0) {
		say_usd(obj->budget_usd, usd, sizeof usd);
		snprintf(what + used, sizeof what - used, "%sthe budget of %s", used ? " and " : "", usd);
	}
	if (o->n_front_p50 == 0) {
		fprintf(f, "no shape gives an ok, priced run%s: --show all gives each shape's fate and reason, and the "
			"candidate that clustersim run --set 'candidates=[...]' evaluates alone\n",
			o->serving ? " that meets the SLO" : "");
		print_spot(f, o);
		return;
	}
	if (o->objective_given && !o->objective_met)
		fprintf(f, "no shape meets %s; the front of all shapes follows\n", what);
	if (o->n_front_p50 > 0 && o->points[o->cheapest].result.kind == RESULT_INFERENCE) {
		say_point(f, "cheapest that meets the SLO", &o->points[o->cheapest]);
		say_point(f, "fastest (TTFT P99) that meets the SLO", &o->points[o->fastest]);
	} else {
		char label[200];
		const char *meets = o->objective_given && o->objective_met ? " that meets " : "";
		const char *bounds = o->objective_given && o->objective_met ? what : "";
		if (o->cheapest == o->fastest) {
			snprintf(label, sizeof label, "cheapest and fastest%s%s", meets, bounds);
			say_point(f, label, &o->points[o->cheapest]);
		} else {
			snprintf(label, sizeof label, "cheapest%s%s", meets, bounds);
			say_point(f, label, &o->points[o->cheapest]);
			snprintf(label, sizeof label, "fastest%s%s", meets, bounds);
			say_point(f, label, &o->points[o->fastest]);
		}
	}
	char line[1024];
	if (plan_fastest_tie(o, line, sizeof line))
		fprintf(f, "  (%s)\n", line);
	for (size_t k = 0; k < o->n_front_p50 && k < (size_t)top; k++) {
		char why[1024];
		plan_why(o, k, why, sizeof why);
		fprintf(f, "  %zu. %s\n", k + 1, why);
	}
	print_band_swap(f, o);
	print_spot(f, o);
}

/* Buy vs rent: a line for each owned shape evaluated beside rented ones
 * (plan_own.h); c is scratch for the owned shape's price. */
static void print_own(FILE *f, const struct plan_outcome *o, struct shape_ctx *ctx, struct cluster_spec *c)
{
	char line[2048];
	for (size_t i = 0; i < o->n; i++)
		if (o->points[i].price_type == PRICE_OWNED && o->points[i].fate == PLAN_EVALUATED &&
		    get_shape(ctx, i, c) && plan_own(o, i, &c->price, line, sizeof line))
			fprintf(f, "%s\n", line);
}

/* A commitment named in the answer (the cheapest, the fastest): how it is
 * billed and what its whole term costs (billing_commit_note), so a short
 * run on a committed price never reads as if the commitment cost only its
 * hours; c is scratch for the shape's price. */
static void print_commit(FILE *f, const struct plan_outcome *o, struct shape_ctx *ctx, struct cluster_spec *c)
{
	if (o->n_front_p50 == 0)
		return;
	size_t named[2] = { o->cheapest, o->fastest };
	for (size_t k = 0; k < 2; k++) {
		const struct plan_point *p = &o->points[named[k]];
		char note[1024];
		if ((k == 1 && named[1] == named[0]) || p->price_type != PRICE_RESERVED || !get_shape(ctx, named[k], c))
			continue;
		if (p->result.kind == RESULT_INFERENCE)
			billing_commit_note(&c->price, p->result.serve_usd.instances * c->gpus_per_node, 0, note,
					    sizeof note);
		else
			billing_commit_note(&c->price, p->gpus, p->result.run.held_p50_s, note, sizeof note);
		if (note[0] != '\0')
			fprintf(f, "%s: %s\n", p->name, note);
	}
}

/* Serving with "mix": the cheapest mix of two GPU types, or why there is none. */
static void print_mix(FILE *f, const struct plan_problem *p, const struct plan_outcome *o)
{
	struct plan_mix m;
	char usd[48], single[48];
	plan_mix_search(p, o, &m);
	if (!m.searched) {
		fprintf(f, "mixes of GPU types: not searched: %s\n", m.why_not);
		return;
	}
	say_usd(m.single_usd_per_hour, single, sizeof single);
	if (!m.found) {
		fprintf(f, "mixes of GPU types: none of the %d mixes simulated (of %d types that meet the SLO alone) "
			"is cheaper than %s/h\n", m.simulated, m.types, single);
		return;
	}
	say_usd(m.usd_per_hour[0] + m.usd_per_hour[1], usd, sizeof usd);
	fprintf(f, "cheaper as a mix: %s/h, %.0f%% less than %s/h: ", usd,
		(1 - (m.usd_per_hour[0] + m.usd_per_hour[1]) / m.single_usd_per_hour) * 100, single);
	for (int k = 0; k < 2; k++) {
		char part[48];
		const struct plan_point *pt = &o->points[m.shape[k]];
		say_usd(m.usd_per_hour[k], part, sizeof part);
		fprintf(f, "%s%d replica%s of %s (as in %s, %s/h) for %.0f%% of the requests (TTFT P99 %.0f ms, TPOT P99 %.0f ms)",
			k ? " + " : "", m.replicas[k], m.replicas[k] == 1 ? "" : "s", pt->gpu, pt->name, part,
			m.share[k] * 100, m.ttft_p99_ms[k], m.tpot_p99_ms[k]);
	}
	fprintf(f, "; %d mixes simulated\n", m.simulated);
}

/* The shapes evaluated that are not ok, by status, on standard error (the
 * line before gives the others by fate): with them, every shape counted. */
static void print_not_ok(const struct plan_outcome *o)
{
	size_t by[OUTCOME_ERROR + 1] = { 0 }, slo = 0, n = 0;
	for (size_t i = 0; i < o->n; i++) {
		const struct plan_point *pt = &o->points[i];
		if (pt->fate != PLAN_EVALUATED)
			continue;
		if (pt->result.outcome.status != OUTCOME_OK)
			by[pt->result.outcome.status]++, n++;
		else if (pt->result.kind == RESULT_INFERENCE && !pt->result.serve.slo_met)
			slo++, n++;
	}
	if (n == 0)
		return;
	fprintf(stderr, "plan: %zu of the %zu evaluated %s not ok:", n, o->fate_count[PLAN_EVALUATED],
		n == 1 ? "is" : "are");
	const char *sep = " ";
	for (int k = OUTCOME_OK + 1; k <= OUTCOME_ERROR; k++)
		if (by[k] > 0) {
			fprintf(stderr, "%s%zu %s", sep, by[k], outcome_names[k]);
			sep = ", ";
		}
	if (slo > 0)
		fprintf(stderr, "%s%zu miss the SLO", sep, slo);
	fprintf(stderr, "; --show all gives each shape's reason\n");
}

/*
 * Why shapes are not in the catalog, once per distinct reason with the
 * shapes it drops (a price type or term the base's provider does not
 * publish: "price: the catalog has no 1y reserved price for H100-SXM from
 * aws; ..."), on standard error; at most PLAN_PRICE_REASONS_MAX reasons,
 * then how many more. The shapes the search block's gpus or providers
 * leave out are its choice, not said. O(shapes x reasons).
 */
#define PLAN_PRICE_REASONS_MAX 8
static void print_unresolved(const struct plan_outcome *o)
{
	size_t first[PLAN_PRICE_REASONS_MAX], count[PLAN_PRICE_REASONS_MAX], n = 0, more = 0;
	for (size_t i = 0; i < o->n; i++) {
		const struct plan_point *pt = &o->points[i];
		if (pt->fate != PLAN_UNRESOLVED || strncmp(pt->note, "price: ", 7) != 0)
			continue;
		size_t k = 0;
		while (k < n && strcmp(o->points[first[k]].note, pt->note) != 0)
			k++;
		if (k < n)
			count[k]++;
		else if (n < PLAN_PRICE_REASONS_MAX)
			first[n] = i, count[n++] = 1;
		else
			more++;
	}
	for (size_t k = 0; k < n; k++) {
		const struct plan_point *pt = &o->points[first[k]];
		fprintf(stderr, "plan: not in the catalog: %s (shape '%s'", pt->note + 7, pt->name);
		if (count[k] > 1)
			fprintf(stderr, " and %zu more", count[k] - 1);
		fputs(")\n", stderr);
	}
	if (more > 0)
		fprintf(stderr, "plan: %zu more shapes not in the catalog for other reasons; --show all gives each\n", more);
}

/* What a row needs besides the point. */
struct row_ctx {
	const struct plan_outcome *o;
	const struct scenario *s;
	struct shape_ctx *ctx;
	const struct objective_spec *obj;
	struct cluster_spec *c;            /* scratch */
	const struct plan_disagg *d;       /* serving with search.disaggregated; else NULL */
};

/* One shape's row: run's columns when it was evaluated (else the shape's
 * name, its size when it resolved, and no status), then plan's. */
static void write_row(rowset *rs, const struct row_ctx *x, size_t i)
{
	const struct plan_point *pt = &x->o->points[i];
	const struct scenario *s = x->s;
	char text[1024], type[PRICE_TYPE_LABEL_MAX];
	space_shape_price_label(s->space, i, type, sizeof type);
	if (pt->fate == PLAN_EVALUATED && get_shape(x->ctx, i, x->c)) {
		/* the term of the row that priced it, when the shape asked for none */
		price_type_label(x->c->price.type, x->c->price.term, type, sizeof type);
		struct job job = { .kind = s->workload.kind, .workload = &s->workload, .cluster = x->c,
				   .monte_carlo = &s->monte_carlo, .objective = x->obj, .scenario = s->name,
				   .seed = s->seed, .row_id = i };
		results_row(rs, &job, &pt->result);
	} else {
		/* never evaluated: no status, no reason of run's (fate and fate_reason say why) */
		rowset_add_row(rs);
		rowset_text(rs, "scenario", s->name);
		rowset_text(rs, "candidate", pt->name);
		rowset_int(rs, "row_id", (int64_t)i);
		rowset_int(rs, "seed", (int64_t)s->seed);
		if (pt->fate != PLAN_UNRESOLVED) {
			rowset_text(rs, "gpu", pt->gpu);
			rowset_int(rs, "gpus", pt->gpus);
			if (rowset_find(rs, "nodes") >= 0)
				rowset_int(rs, "nodes", pt->nodes);
		}
	}
	if (pt->front_p50 || pt->front_p90) {
		if (pt->result.kind == RESULT_INFERENCE)
			rowset_text(rs, "front", "yes");  /* one figure each: one front */
		else
			rowset_text(rs, "front", pt->front_p50 && pt->front_p90 ? "p50+p90" : pt->front_p50 ? "p50" : "p90");
	}
	if (pt->rank > 0) {
		rowset_int(rs, "plan_rank", pt->rank);
		plan_why(x->o, (size_t)pt->rank - 1, text, sizeof text);
		rowset_text(rs, "why", text);
	}
	rowset_text(rs, "price_type", type);
	rowset_text(rs, "fate", plan_fate_ids[pt->fate]);
	plan_reason(x->o, i, text, sizeof text);
	rowset_text(rs, "fate_reason", text);
	char *json = space_shape_json(s->space, i);
	if (json == NULL) {
		fputs("clustersim: out of memory writing a candidate\n", stderr);
		exit(EXIT_RUNTIME);
	}
	rowset_text(rs, "candidate_json", json);
	free(json);
	if (x->d != NULL)
		plan_disagg_out_row(rs, x->d, x->o, i);
}

/*
 * Search p's shapes into *o with progress on a terminal, SIGINT and SIGTERM
 * stopping the search, then say on standard error how much was searched.
 * Returns EXIT_OK, or the exit status of a search that stopped (o
 * released, err set: past a bound is bad input, an interrupt a runtime
 * error; nothing was written either way).
 */
static int timed_search(const char *file, struct plan_problem *p, struct plan_outcome *o, struct cs_error *err)
{
	struct timespec t0, t1;
	struct progress g = { .show = isatty(STDERR_FILENO) };
	struct sigaction sa, old_int, old_term;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	plan_interrupted = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	p->progress = on_progress;
	p->progress_ctx = &g;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	g.t0 = t0;
	plan_search(p, o);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	progress_end(&g);
	double elapsed = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (o->stop != PLAN_STOP_DONE) {
		int rc = o->stop == PLAN_STOP_INTERRUPTED ? EXIT_RUNTIME : EXIT_USAGE;
		if (o->stop == PLAN_STOP_INTERRUPTED)
			error_runtime(err, "plan: %s; nothing written", o->stop_reason);
		else
			error_set(err, "plan: '%s': %s", file, o->stop_reason);
		plan_outcome_release(o);
		return rc;
	}
	/* how much was searched, on standard error */
	fprintf(stderr, "plan: %zu shapes, %zu evaluated (%zu ok)", o->n, o->fate_count[PLAN_EVALUATED], o->ok);
	for (int f = PLAN_UNRESOLVED; f < PLAN_FATE_COUNT; f++)
		if (o->fate_count[f] > 0)
			fprintf(stderr, ", %zu %s", o->fate_count[f], plan_fate_names[f]);
	fprintf(stderr, "; %zu on the front; %.2f s\n", o->n_front, elapsed);
	print_unresolved(o);
	print_not_ok(o);
	return EXIT_OK;
}

/* The stale or undated prices of the evaluated shapes, once per price
 * (cli/price_notes.h), leaving out those cli_invoke said for the
 * scenario's candidates: a search's shapes are not among them. */
static void warn_shape_prices(const struct scenario *s, const struct plan_outcome *o, struct shape_ctx *ctx)
{
	struct price_notes ns = { 0 };
	struct cluster_spec *c = xmalloc(sizeof *c);
	for (size_t i = 0; i < s->n_candidates; i++)
		price_notes_add(&ns, s->candidates[i].name, s->candidates[i].price.stale);
	price_notes_mark_said(&ns);
	for (size_t i = 0; i < o->n; i++)
		if (o->points[i].fate == PLAN_EVALUATED && get_shape(ctx, i, c))
			price_notes_add(&ns, o->points[i].name, c->price.stale);
	price_notes_say(&ns, stderr, "shape");
	price_notes_release(&ns);
	free(c);
}

/* The columns a table on a terminal shows when --columns is not given
 * (NULL: every column). */
static const char *table_columns(const struct cli_call *call, enum workload_kind kind, bool show_all)
{
	enum output_format fmt = cli_format(&call->o);
	bool to_stdout = call->o.output == NULL || strcmp(call->o.output, "-") == 0;
	if (call->o.columns != NULL || fmt != FORMAT_TABLE || !to_stdout)
		return call->o.columns;
	if (kind == WORKLOAD_INFERENCE)
		return show_all ? "plan_rank,candidate,status,gpus,replicas,tp,ttft_p99_ms,tpot_p99_ms,usd_per_hour,"
				  "front,fate,fate_reason"
				: "plan_rank,candidate,gpu,gpus,replicas,tp,ttft_p99_ms,tpot_p99_ms,usd_per_hour,front";
	return show_all ? "plan_rank,candidate,status,gpus,tp,pp,dp,wall_time_p50_h,wall_time_p90_h,"
			  "cost_usd_p50,cost_usd_p90,front,fate,fate_reason"
			: "plan_rank,candidate,gpu,gpus,tp,pp,dp,wall_time_p50_h,cost_usd_p50,front";
}

static int plan_exec(struct cli_call *call, struct cs_error *err)
{
	const struct scenario *s = &call->scenario;
	struct objective_spec obj = s->objective;
	const char *v;
	double top = 3;
	int status = EXIT_OK;

	if (s->workload.kind == WORKLOAD_COLLECTIVE)
		return cli_usage_error(err, "plan", "'%s' is a collective benchmark: plan needs a training, "
				       "finetune or inference workload", call->operands[0]);
	if ((v = cli_value(call, 'd')) != NULL)
		read_positive("plan", "deadline-h", v, 1e7, &obj.deadline_h, err);
	if ((v = cli_value(call, 'b')) != NULL)
		read_positive("plan", "budget-usd", v, 1e13, &obj.budget_usd, err);
	if ((v = cli_value(call, 'K')) != NULL)
		read_positive("plan", "top", v, 1000, &top, err);
	/* the tie tolerance: --tie, else search.tie_tolerance, else the default; 0 given: none */
	double tie = space_tie_tolerance(s->space);
	if ((v = cli_value(call, 'T')) != NULL)
		read_tie("plan", v, &tie, err);
	bool show_all = (v = cli_value(call, 'W')) != NULL && strcmp(v, "all") == 0;

	if (s->workload.kind == WORKLOAD_INFERENCE) {
		if (cli_value(call, 'd') != NULL || cli_value(call, 'b') != NULL)
			return cli_usage_error(err, "plan", "--deadline-h and --budget-usd are for training: a service's "
					       "objective is its serving.slo");
		memset(&obj, 0, sizeof obj);
	}
	/* serving with search.disaggregated: prefill/decode splits too (plan_disagg.h) */
	bool disagg = s->workload.kind == WORKLOAD_INFERENCE && space_disaggregated(s->space);
	if (cli_columns_help(&call->o)) {  /* the columns, without searching */
		rowset *cols = front_rowset(evaluate_result_kind(s->workload.kind, false), disagg);
		if (cli_write(&call->o, cols, err) < 0)
			status = cli_status(err);
		rowset_free(cols);
		return status;
	}
	struct shape_ctx ctx = { .space = s->space, .cat = call->cat };
	struct plan_problem p = {
		.workload = &s->workload, .monte_carlo = &s->monte_carlo, .objective = obj,
		.scenario = s->name, .seed = s->seed, .n_shapes = space_count(s->space),
		.shape = get_shape, .shape_ctx = &ctx, .no_prune = cli_value(call, 'P') != NULL,
		.unresolved = unresolved_shape, .tie_tolerance = tie < 0 ? 0 : tie == 0 ? -1 : tie,
	};
	struct plan_outcome o;
	int searched = timed_search(call->operands[0], &p, &o, err);
	if (searched != EXIT_OK)
		return searched;
	warn_shape_prices(s, &o, &ctx);

	struct plan_disagg d = { .searched = false };
	if (space_disaggregated(s->space))
		plan_disagg_search(&p, &o, &d);

	/* the rows: the front's, then with --show all every other shape's */
	rowset *rs = front_rowset(evaluate_result_kind(s->workload.kind, false), disagg);
	struct cluster_spec *c = xmalloc(sizeof *c);
	struct row_ctx rc = { .o = &o, .s = s, .ctx = &ctx, .obj = &obj, .c = c, .d = disagg ? &d : NULL };
	for (size_t k = 0; k < o.n_front; k++)
		write_row(rs, &rc, o.front[k]);
	for (size_t i = 0; show_all && i < o.n; i++)
		if (!o.points[i].front_p50 && !o.points[i].front_p90)
			write_row(rs, &rc, i);
	free(c);

	enum output_format fmt = cli_format(&call->o);
	bool to_stdout = call->o.output == NULL || strcmp(call->o.output, "-") == 0;
	/* the answer first: on standard output unless the rows go there for a script */
	FILE *af = fmt == FORMAT_TABLE || !to_stdout ? stdout : stderr;
	print_answer(af, &o, &obj, (int)top);
	c = xmalloc(sizeof *c);
	print_own(af, &o, &ctx, c);
	print_commit(af, &o, &ctx, c);
	free(c);
	if (space_mix(s->space))
		print_mix(af, &p, &o);
	if (space_disaggregated(s->space))
		plan_disagg_out_print(af, &d, &o);
	if (af == stdout && to_stdout)
		fputc('\n', stdout);
	struct cli_options wo = call->o;
	wo.columns = table_columns(call, s->workload.kind, show_all);
	if (cli_write(&wo, rs, err) < 0)
		status = cli_status(err);
	else if (o.n_front == 0) {
		error_runtime(err, "plan: no shape of '%s' gives an ok, priced %s", call->operands[0],
			      s->workload.kind == WORKLOAD_INFERENCE ? "service that meets the SLO" : "run");
		status = EXIT_RUNTIME;
	}
	rowset_free(rs);
	plan_disagg_release(&d);
	plan_outcome_release(&o);
	return status;
}

static const struct cli_option plan_options[] = {
	{ .name = "deadline-h", .key = 'd', .takes_value = true, .check = check_deadline },
	{ .name = "budget-usd", .key = 'b', .takes_value = true, .check = check_budget },
	{ .name = "top", .key = 'K', .takes_value = true, .check = check_top },
	{ .name = "no-prune", .key = 'P' },
	{ .name = "show", .key = 'W', .takes_value = true, .check = check_show },
	{ .name = "tie", .key = 'T', .takes_value = true, .check = check_tie },
	{ .name = NULL },
};

const struct cli_command cli_cmd_plan = {
	.name = "plan",
	.summary = "search cluster shapes for the cheapest and fastest that meet the objective",
	.usage = usage_text,
	.common = CLI_FORMAT | CLI_OUTPUT | CLI_SET | CLI_SEED | CLI_CATALOG | CLI_COLUMNS,
	.options = plan_options,
	.operands = { .min = 1, .max = 1, .name = "SCENARIO.json" },
	.load = CLI_LOAD_SCENARIO,
	.exec = plan_exec,
};
