#include "run.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/cost/billing.h"
#include "models/cost/price_band.h"
#include "models/run/failure.h"
#include "models/run/run_storage.h"
#include "sim/engine.h"
#include "sim/rng.h"
#include "sim/time.h"
#include "util/container.h"
#include "util/heap.h"
#include "util/text.h"
#include "util/xalloc.h"

const char *const failure_dist_names[] = { "exponential", "weibull", NULL };

/* A trial that runs past this many times its failure-free length never finishes. */
static const double NEVER_FINISHES = 1000;

/* Just under 2^63 ns, where the engine's clock saturates. */
static const double CLOCK_RANGE_S = 9e9;

/* PH_SAVE: the checkpoint taken in a spot preemption's notice, durable at
 * the preemption. */
enum phase { PH_COMPUTE, PH_STALL, PH_RECOVER, PH_SAVE };

/* A GPU or node with Weibull failure times: when it next fails, its group. */
struct unit {
	double at;
	int group;
};

/* One trial: the clock is kept in double seconds beside the engine's
 * nanoseconds so that a run without failures adds up exactly. */
struct trial {
	struct engine_handler on_phase, on_fail, on_write, on_preempt, on_save;
	engine *e;
	const struct run_model *m;
	gsl_rng *rng, *rng_preempt;
	double preempt_at, save_at;   /* the next preemption; its notice's checkpoint's start */
	queue_id preempt_ev, save_ev;
	long saves;                   /* preemptions whose notice a checkpoint fitted in */
	double wait_start, wait_end;  /* the last capacity wait: no instance held */
	double t_unheld;
	long preemptions;
	double now, limit_s;
	double work, durable, since_ckpt, snapshot, seg;
	bool has_ckpt;
	enum phase phase;
	double phase_start, phase_end_at, fail_at, write_at;
	queue_id phase_ev, fail_ev, write_ev;
	bool write_pending;
	double *repairs;             /* FIFO of repair completion times */
	size_t rep_head, rep_len, rep_cap;
	struct unit *units;          /* Weibull: a min-heap of each GPU's and node's next failure */
	size_t n_units;
	/* where the time went */
	double t_compute, t_ckpt, t_recover, lost_work;
	long failures;
	bool finished, overran;
};

static queue_id at(struct trial *t, double when, struct engine_handler *h)
{
	return engine_at(t->e, sim_time_from_s(when), ENGINE_CLASS_WORK, h, 0);
}

/* The part of a recovery from phase_start to now spent waiting for capacity. */
static void add_unheld(struct trial *t)
{
	double a = fmax(t->phase_start, t->wait_start), b = fmin(t->now, t->wait_end);
	if (b > a)
		t->t_unheld += b - a;
}

/* Close the phase that is running: its elapsed time into its bucket. */
static void close_phase(struct trial *t)
{
	double dt = t->now - t->phase_start;
	if (t->phase == PH_COMPUTE) {
		t->t_compute += dt;
		t->work += dt;
		t->since_ckpt += dt;
	} else if (t->phase == PH_STALL || t->phase == PH_SAVE) {
		t->t_ckpt += dt;
	} else {
		t->t_recover += dt;
		add_unheld(t);
	}
}

static void begin(struct trial *t, enum phase p, double len)
{
	t->phase = p;
	t->phase_start = t->now;
	t->phase_end_at = t->now + len;
	t->seg = len;
	t->phase_ev = at(t, t->phase_end_at, &t->on_phase);
}

static void compute(struct trial *t)
{
	double total = t->m->steps * t->m->step_s;
	double len = total - t->work;
	if (t->m->interval_s > 0 && t->m->interval_s - t->since_ckpt < len)
		len = t->m->interval_s - t->since_ckpt;
	begin(t, PH_COMPUTE, len > 0 ? len : 0);
}

static void phase_end(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	(void)arg;
	struct trial *t = container_of(h, struct trial, on_phase);
	t->now = t->phase_end_at;
	enum phase p = t->phase;
	if (p == PH_COMPUTE) {
		/* exactly the planned segment, so that the sums are exact */
		t->t_compute += t->seg;
		t->work += t->seg;
		t->since_ckpt += t->seg;
		t->phase_start = t->now;
		if (t->work >= t->m->steps * t->m->step_s) {
			t->finished = true;
			engine_stop(t->e);
			return;
		}
		t->snapshot = t->work;
		t->since_ckpt = 0;
		begin(t, PH_STALL, t->m->stall_s + t->m->slow_s);
		return;
	}
	if (p == PH_SAVE) {
		/* the notice's checkpoint ends at the preemption, which handles it */
		return;
	}
	if (p == PH_RECOVER)
		add_unheld(t);
	t->phase_start = t->now;
	if (p == PH_STALL) {
		t->t_ckpt += t->seg;
		if (t->m->write_s > 0) {
			/* the write began after the device-to-host copy; the
			 * contention stall (slow_s) was part of its time */
			t->write_pending = true;
			t->write_at = t->now + t->m->write_s - t->m->slow_s;
			t->write_ev = at(t, t->write_at, &t->on_write);
		} else {
			t->durable = t->snapshot;
			t->has_ckpt = true;
		}
	} else {
		t->t_recover += t->seg;
	}
	compute(t);
}

static void write_end(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	(void)arg;
	struct trial *t = container_of(h, struct trial, on_write);
	t->write_pending = false;
	t->durable = t->snapshot;
	t->has_ckpt = true;
}

static bool weibull(const struct run_model *m)
{
	return m->shape > 0 && m->shape != 1.0;
}

static bool unit_before(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return ((const struct unit *)a)->at < ((const struct unit *)b)->at;
}

static const struct heap_ops unit_heap = { .size = sizeof(struct unit), .arity = 2, .before = unit_before };

/* Every GPU and node new at time 0, each with its first failure drawn. */
static void units_init(struct trial *t)
{
	const struct run_model *m = t->m;
	size_t n = (size_t)(m->units[0] + m->units[1]), k = 0;
	t->units = malloc(n * sizeof *t->units);
	for (int g = 0; g < 2; g++)
		for (long i = 0; i < m->units[g]; i++, k++) {
			t->units[k].at = gsl_ran_weibull(t->rng, m->scale_s[g], m->shape);
			t->units[k].group = g;
		}
	t->n_units = n;
	heap_make(&unit_heap, t->units, n, NULL);
}

/* The next failure: the job's Poisson process, or the earliest unit's. */
static void schedule_failure(struct trial *t)
{
	if (weibull(t->m))
		t->fail_at = t->units[0].at;
	else
		t->fail_at = t->now + gsl_ran_exponential(t->rng, t->m->job_mtbf_s);
	t->fail_ev = at(t, t->fail_at, &t->on_fail);
}

/* The unit that failed now is renewed: its next failure a fresh Weibull time on. */
static void renew_unit(struct trial *t)
{
	struct unit *u = &t->units[0];
	u->at += gsl_ran_weibull(t->rng, t->m->scale_s[u->group], t->m->shape);
	heap_sift_down(&unit_heap, t->units, t->n_units, 0, NULL);
}

/* Seconds until a healthy node is there for the one that failed now. */
static double repair_wait(struct trial *t)
{
	const struct run_model *m = t->m;
	if (m->spare_nodes < 0)
		return 0;
	while (t->rep_len > 0 && t->repairs[t->rep_head % t->rep_cap] <= t->now) {
		t->rep_head++;
		t->rep_len--;
	}
	if (t->rep_len == t->rep_cap) {
		size_t cap = xgrow_cap(t->rep_cap, t->rep_len + 1, 64);
		double *r = xreallocarray(NULL, cap, sizeof *r);
		for (size_t i = 0; i < t->rep_len; i++)
			r[i] = t->repairs[(t->rep_head + i) % t->rep_cap];
		free(t->repairs);
		t->repairs = r;
		t->rep_cap = cap;
		t->rep_head = 0;
	}
	t->repairs[(t->rep_head + t->rep_len) % t->rep_cap] = t->now + m->repair_s;
	t->rep_len++;
	/* rep_len nodes are out; spare_nodes cover that many */
	if ((long)t->rep_len <= m->spare_nodes)
		return 0;
	size_t k = t->rep_len - (size_t)m->spare_nodes - 1;
	return t->repairs[(t->rep_head + k) % t->rep_cap] - t->now;
}

/* True while the job waits for capacity after a preemption: it holds no
 * instance, so nothing it does not hold fails or is preempted. */
static bool waiting_for_capacity(const struct trial *t)
{
	return t->phase == PH_RECOVER && t->now < t->wait_end;
}

/* A failure or a preemption now: the work since the last durable
 * checkpoint is lost, a background write cancelled, and recovery of
 * `wait_s` + restart + reload begins. */
static void interrupt(struct trial *t, double wait_s)
{
	close_phase(t);
	engine_cancel(t->e, t->phase_ev);
	if (t->write_pending) {
		engine_cancel(t->e, t->write_ev);
		t->write_pending = false;
	}
	t->lost_work += t->work - t->durable;
	t->work = t->durable;
	t->since_ckpt = 0;
	begin(t, PH_RECOVER, wait_s + t->m->restart_s + (t->has_ckpt ? t->m->read_s : 0));
	if (t->now > t->limit_s) {
		t->overran = true;
		engine_stop(t->e);
	}
}

static void failure(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	(void)arg;
	struct trial *t = container_of(h, struct trial, on_fail);
	t->now = t->fail_at;
	if (!waiting_for_capacity(t)) {
		t->failures++;
		interrupt(t, repair_wait(t));
		if (t->overran)
			return;
	}
	if (weibull(t->m))
		renew_unit(t);
	schedule_failure(t);
}

/* The next preemption (the instance is gone then; its notice came
 * notice_s before) and, when a whole checkpoint fits in the notice, the
 * start of that checkpoint save_s before the preemption. */
static void schedule_preemption(struct trial *t)
{
	const struct run_model *m = t->m;
	t->preempt_at = t->now + gsl_ran_exponential(t->rng_preempt, m->preempt_mean_s);
	t->preempt_ev = at(t, t->preempt_at, &t->on_preempt);
	if (m->save_s > 0 && m->save_s <= m->notice_s && t->preempt_at - t->now >= m->save_s) {
		t->save_at = t->preempt_at - m->save_s;
		t->save_ev = at(t, t->save_at, &t->on_save);
	}
}

/* The notice's checkpoint starts: training (or a checkpoint stall, or a
 * background write, which this one supersedes) stops and the work so far
 * is written whole; nothing to save while recovering. */
static void save_start(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	(void)arg;
	struct trial *t = container_of(h, struct trial, on_save);
	t->now = t->save_at;
	if (t->phase == PH_RECOVER)
		return;
	close_phase(t);
	engine_cancel(t->e, t->phase_ev);
	if (t->write_pending) {
		engine_cancel(t->e, t->write_ev);
		t->write_pending = false;
	}
	t->snapshot = t->work;
	t->phase = PH_SAVE;
	t->phase_start = t->now;
	t->phase_end_at = t->preempt_at;
	t->seg = t->preempt_at - t->now;
	t->phase_ev = at(t, t->phase_end_at, &t->on_phase);
}

static void preemption(engine *e, struct engine_handler *h, uint64_t arg)
{
	(void)e;
	(void)arg;
	struct trial *t = container_of(h, struct trial, on_preempt);
	t->now = t->preempt_at;
	if (t->phase == PH_SAVE) {
		/* the notice's checkpoint is durable as the instance goes */
		close_phase(t);
		t->phase = PH_COMPUTE;  /* nothing more to close; interrupt() cancels its end */
		t->phase_start = t->now;
		t->durable = t->snapshot;
		t->has_ckpt = true;
		t->saves++;
	}
	if (t->m->local_ckpt && !waiting_for_capacity(t)) {
		/* the instance goes with its disks: no checkpoint is left */
		t->durable = 0;
		t->has_ckpt = false;
	}
	if (!waiting_for_capacity(t)) {
		t->preemptions++;
		t->wait_start = t->now;
		t->wait_end = t->now + t->m->capacity_wait_s;
		interrupt(t, t->m->capacity_wait_s);
		if (t->overran)
			return;
	}
	schedule_preemption(t);
}

struct trial_out {
	double wall, held, productive, frac_ckpt, frac_lost, failures, preemptions, lost_work, saves;
	bool overran;
};

static void run_trial(const struct run_model *m, gsl_rng *rng, gsl_rng *rng_preempt, struct trial_out *o)
{
	struct trial t;
	memset(&t, 0, sizeof t);
	t.on_phase.fn = phase_end;
	t.on_fail.fn = failure;
	t.on_write.fn = write_end;
	t.on_preempt.fn = preemption;
	t.on_save.fn = save_start;
	t.m = m;
	t.rng = rng;
	t.rng_preempt = rng_preempt;
	t.e = engine_new();
	double total = m->steps * m->step_s;
	t.limit_s = fmin(NEVER_FINISHES * (total + 1), CLOCK_RANGE_S);
	compute(&t);
	if (weibull(m) && m->units[0] + m->units[1] > 0) {
		units_init(&t);
		schedule_failure(&t);
	} else if (!weibull(m) && m->job_mtbf_s > 0) {
		schedule_failure(&t);
	}
	if (m->preempt_mean_s > 0)
		schedule_preemption(&t);
	engine_run(t.e, INT64_MAX);
	engine_free(t.e);
	free(t.repairs);
	free(t.units);
	o->overran = !t.finished;
	o->wall = t.t_compute + t.t_ckpt + t.t_recover;
	o->productive = total;
	o->failures = (double)t.failures;
	o->preemptions = (double)t.preemptions;
	o->saves = (double)t.saves;
	o->lost_work = t.lost_work;
	o->held = o->wall - t.t_unheld;
	o->frac_ckpt = o->wall > 0 ? t.t_ckpt / o->wall : 0;
	o->frac_lost = o->wall > 0 ? (t.lost_work + t.t_recover) / o->wall : 0;
}

/* run_simulate's trials; with held_keep, the trials' held times, sorted,
 * go there (n of them, the caller frees; NULL when the run failed). */
static void simulate(const struct run_model *m, const struct run_trials *tr, long gpus, struct run_result *out,
		     double **held_keep, int *n_kept)
{
	int n = tr->trials > 0 ? tr->trials : 1;
	if (!(m->job_mtbf_s > 0) && !(m->preempt_mean_s > 0))
		n = 1;  /* nothing random happens: every trial is the same */
	double *wall = malloc((size_t)n * sizeof *wall);
	double *held = malloc((size_t)n * sizeof *held);
	double ettr = 0, fck = 0, flost = 0, fails = 0, preempts = 0, lost = 0, saves = 0;
	const struct train_breakdown *b = &m->br;
	double comm = b->comm_tp + b->comm_ep + b->comm_cp + b->comm_dp;
	double step_sum = b->compute + b->optimizer + comm + b->bubble + b->other + b->straggler + m->data_stall_s;
	out->failed = false;
	for (int i = 0; i < n; i++) {
		gsl_rng *rng = rng_stream_new(tr->seed, tr->row_id, (unsigned)RNG_FAILURES + 256u * (unsigned)i);
		gsl_rng *rng_p = m->preempt_mean_s > 0
			? rng_stream_new(tr->seed, tr->row_id, (unsigned)RNG_PREEMPTION + 256u * (unsigned)i) : NULL;
		struct trial_out o;
		run_trial(m, rng, rng_p, &o);
		gsl_rng_free(rng);
		if (rng_p != NULL)
			gsl_rng_free(rng_p);
		if (o.overran) {
			out->failed = true;
			text_setf(out->note, sizeof out->note,
				 "the run never finishes: a trial ran past %.0f times its failure-free length "
				 "or the simulated clock's range, %.3g s (failures come faster than checkpoints "
				 "keep the work)", NEVER_FINISHES, CLOCK_RANGE_S);
			free(wall);
			free(held);
			if (held_keep != NULL)
				*held_keep = NULL;
			return;
		}
		wall[i] = o.wall;
		held[i] = o.held;
		preempts += o.preemptions;
		lost += o.lost_work;
		saves += o.saves;
		ettr += o.productive / o.wall;
		fck += o.frac_ckpt;
		flost += o.frac_lost;
		fails += o.failures;
	}
	gsl_sort(wall, 1, (size_t)n);
	out->wall_time_p50_s = gsl_stats_quantile_from_sorted_data(wall, 1, (size_t)n, 0.5);
	out->wall_time_p90_s = gsl_stats_quantile_from_sorted_data(wall, 1, (size_t)n, 0.9);
	free(wall);
	gsl_sort(held, 1, (size_t)n);
	out->held_p50_s = gsl_stats_quantile_from_sorted_data(held, 1, (size_t)n, 0.5);
	out->held_p90_s = gsl_stats_quantile_from_sorted_data(held, 1, (size_t)n, 0.9);
	if (held_keep != NULL) {
		*held_keep = held;
		*n_kept = n;
	} else {
		free(held);
	}
	out->ettr = ettr / n;
	out->failures_mean = fails / n;
	out->preemptions_mean = preempts / n;
	out->lost_work_mean_s = lost / n;
	out->notice_saves_mean = saves / n;
	out->gpu_hours = out->held_p50_s / 3600 * (double)gpus;
	double fprod = 1 - fck / n - flost / n;
	if (step_sum > 0) {
		out->has_split = true;
		out->frac_compute = fprod * (b->compute + b->optimizer) / step_sum;
		out->frac_comm_exposed = fprod * comm / step_sum;
		out->frac_bubble = fprod * b->bubble / step_sum;
		out->frac_idle = fprod * (b->other + b->straggler) / step_sum;  /* waits, for a stage or the slowest GPU */
		out->frac_data_stall = fprod * m->data_stall_s / step_sum;
		out->frac_checkpoint = fck / n;
		out->frac_lost_to_failures = flost / n;
	}
}

void run_simulate(const struct run_model *m, const struct run_trials *tr, long gpus, struct run_result *out)
{
	simulate(m, tr, gpus, out, NULL, NULL);
}

/*
 * The rental cost at P50 and P90, spare nodes included: at the catalog
 * price, of the P50 and P90 held time; with a price band
 * (cost/price_band.h), each trial's cost times the band's fixed quantiles,
 * the P50 and P90 of those products (the price is independent of the run).
 */
static void rental_cost(const struct cluster_spec *c, const struct run_model *m, const double *held, int n,
			struct run_result *out)
{
	struct price_band band;
	out->billed_s = billing_billed_s(&c->price, out->held_p50_s);
	out->cost_usd_p50 = billing_cost_usd(c, out->held_p50_s);
	out->cost_usd_p90 = billing_cost_usd(c, out->held_p90_s);
	/* spare nodes are held, idle, for the whole run */
	double per_node = c->price.usd_per_gpu_hour * c->gpus_per_node * m->spare_nodes;
	if (m->spare_nodes > 0) {
		out->spare_usd_p50 = per_node * billing_billed_s(&c->price, out->held_p50_s) / 3600;
		out->cost_usd_p50 += out->spare_usd_p50;
		out->cost_usd_p90 += per_node * billing_billed_s(&c->price, out->held_p90_s) / 3600;
	}
	price_band_of_quote(&c->price, &band);
	out->price_sigma_low = band.sigma_low;
	out->price_sigma_high = band.sigma_high;
	out->price_usd_per_gpu_hour_p10 = c->price.usd_per_gpu_hour * price_band_factor(&band, 0.1);
	out->price_usd_per_gpu_hour_p90 = c->price.usd_per_gpu_hour * price_band_factor(&band, 0.9);
	price_band_quote_id(&c->price, out->price_id, sizeof out->price_id);
	if (!price_band_spread(&band) || held == NULL)
		return;
	double *usd = xcalloc((size_t)n, sizeof *usd);
	for (int i = 0; i < n; i++) {
		usd[i] = billing_cost_usd(c, held[i]);
		if (m->spare_nodes > 0)
			usd[i] += per_node * billing_billed_s(&c->price, held[i]) / 3600;
	}
	price_band_cost_quantiles(usd, (size_t)n, &band, &out->cost_usd_p50, &out->cost_usd_p90);
	free(usd);
}

/* The spot notice: the scenario's, else the provider's (< 0: not known,
 * taken as none). */
static double notice_s(const struct price_quote *q)
{
	return q->preemption_notice_s > 0 ? q->preemption_notice_s : 0;
}

/* Append "; text" (or text when the note is empty) to the note. */
static void note_add(struct run_result *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_add(struct run_result *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	text_vappend_itemf(out->note, sizeof out->note, "; ", fmt, ap);
	va_end(ap);
}

/* What the run assumed, in words, into out->note. */
static void describe(const struct run_spec *run, const struct cluster_spec *c, const struct run_model *m,
		     struct run_result *out)
{
	const struct price_quote *pq = &c->price;
	out->note[0] = '\0';
	if (run->data.enabled)
		note_add(out, "data from \"%s\": %.3g s to read a step's tokens, stall %.3g s per step", run->data.tier,
			 out->data_read_s, out->data_stall_s);
	if (out->ckpt_assumed)
		note_add(out, "no workload.checkpoint: assumed synchronous checkpoints to \"%s\" at Daly's interval "
			 "(about sqrt(2 x write x MTBF), Daly 2006): give workload.checkpoint to choose", out->ckpt_tier);
	if (run->checkpoint.enabled || out->ckpt_assumed)
		note_add(out, "checkpoint %.3g GB every %.0f s: write %.1f s, stall %.2f s, read %.1f s",
			 out->ckpt_bytes / 1e9, out->ckpt_interval_s, out->ckpt_write_s, out->ckpt_stall_s,
			 out->ckpt_read_s);
	if (out->ckpt_contention_s > 0)
		note_add(out, "the write takes %.1f%% of the NICs: +%.2f s of training per checkpoint",
			 100 * out->ckpt_nic_share, out->ckpt_contention_s);
	if (m->job_mtbf_s > 0)
		note_add(out, "job MTBF %.2f h, %.1f failures per run (mean)", m->job_mtbf_s / 3600, out->failures_mean);
	if (out->spot) {
		note_add(out, "spot: %.2f preemptions per instance-hour, %.1f per run (mean), capacity wait %.0f s "
			 "(not billed)", pq->preemptions_per_instance_h, out->preemptions_mean, pq->capacity_wait_s);
		if (out->ckpt_local)
			note_add(out, "checkpoints on node-local disks are lost with a preempted instance: "
				 "each preemption restarts the run from its first step");
		else if (pq->preemption_notice_s < 0)
			note_add(out, "no sourced preemption notice for provider \"%s\": none assumed "
				 "(give price.preemption_notice_s)", pq->provider);
		else if (m->save_s > 0 && m->save_s <= m->notice_s)
			note_add(out, "a checkpoint (%.1f s) fits in the %.0f s notice: saved at each preemption",
				 m->save_s, m->notice_s);
		else if (m->save_s > 0)
			note_add(out, "a checkpoint (%.1f s) does not fit in the %.0f s notice: the work since the "
				 "last one is lost", m->save_s, m->notice_s);
	}
	if (out->spare_usd_p50 > 0)
		note_add(out, "%d spare nodes billed idle: $%.0f", m->spare_nodes, out->spare_usd_p50);
	if (!out->storage_priced)  /* why storage_usd_p50 is empty */
		note_add(out, "storage unpriced: %s", out->storage_note);
}

void run_training(const struct run_spec *run, const struct train_spec *w, const struct cluster_spec *c,
		  const struct train_result *r, const struct run_trials *t, struct run_result *out)
{
	memset(out, 0, sizeof *out);
	/* the step's batch: w's, or the plan's rounded one (round_batch) */
	double batch = r->tokens_per_step > 0 ? r->tokens_per_step : w->global_batch_tokens;
	out->steps = run->tokens > 0 ? ceil(run->tokens / batch) : 1;
	out->tokens = out->steps * batch;
	struct run_model m;
	memset(&m, 0, sizeof m);
	m.step_s = r->step_time_s;
	m.steps = out->steps;
	m.br = r->br;
	struct failure_rates fr;
	if (failure_resolve(&run->failures, c, &fr)) {
		m.job_mtbf_s = fr.job_mtbf_s;
		m.restart_s = fr.restart_s;
		m.repair_s = fr.repair_s;
		m.spare_nodes = fr.spare_nodes;
		m.shape = fr.shape;
		memcpy(m.units, fr.units, sizeof m.units);
		memcpy(m.scale_s, fr.scale_s, sizeof m.scale_s);
		out->job_mtbf_s = fr.job_mtbf_s;
	}
	const struct price_quote *pq = &c->price;
	if (pq->type == PRICE_SPOT && pq->preemptions_per_instance_h >= 0) {
		/* an instance is a node; the job's preemptions are the sum of the
		 * nodes' Poisson processes */
		out->spot = true;
		double per_h = pq->preemptions_per_instance_h * c->nodes;
		m.preempt_mean_s = per_h > 0 ? 3600 / per_h : 0;
		m.capacity_wait_s = pq->capacity_wait_s;
		m.notice_s = notice_s(pq);
		if (!(m.job_mtbf_s > 0))
			m.restart_s = run->failures.restart_s;
	}
	if (!run_storage_data(run, w, c, &m, out) || !run_storage_checkpoints(run, w, c, r, &m, out))
		return;
	if (m.steps * m.step_s >= CLOCK_RANGE_S) {
		/* the engine's clock saturates at 2^63 ns */
		out->failed = true;
		text_setf(out->note, sizeof out->note, "the run's %.3g s without a failure (%.0f years) is beyond "
			 "the simulated clock's range (%.3g s)", m.steps * m.step_s, m.steps * m.step_s / 3.15576e7,
			 CLOCK_RANGE_S);
		return;
	}
	double *held = NULL;
	int n_held = 0;
	simulate(&m, t, cluster_gpus(c), out, &held, &n_held);
	if (out->failed && !run->checkpoint.enabled && run->checkpoint.given) {
		/* "none" with failures: say what is missing and what to write */
		int k = run_storage_file_system_tier(c);
		snprintf(out->note, sizeof out->note, "the run never finishes: workload.checkpoint is \"none\", so every "
			 "failure or preemption restarts it from its first step (mean time between them %.2f h, "
			 "%.0f h of training): write \"checkpoint\": {\"tier\": \"%s\", \"interval_s\": \"auto\"}",
			 run_storage_interrupt_mtbf_s(&m) / 3600, m.steps * m.step_s / 3600,
			 k >= 0 ? c->storage[k].tier : c->n_storage > 0 ? c->storage[0].tier : "pfs");
	}
	if (out->failed) {
		free(held);
		return;
	}
	if (c->price.known) {
		out->priced = true;
		rental_cost(c, &m, held, n_held, out);
		out->usd_per_mtok = out->cost_usd_p50 / (out->tokens / 1e6);
	}
	free(held);
	run_storage_dollars(run, c, out);
	describe(run, c, &m, out);
}
