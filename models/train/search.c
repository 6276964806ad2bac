#include "search.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/train/memory.h"
#include "models/train/parallel.h"
#include "models/train/step.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The searched fields, in enumeration order (the last varies fastest). */
enum search_field { F_TP, F_PP, F_VPP, F_CP, F_EP, F_ZERO, F_MB, F_RECOMPUTE, F_COUNT };

#define SEARCH_CHOICES_MAX 8

/* The candidate values of every searched field. */
struct search_space {
	int n[F_COUNT];
	int v[F_COUNT][SEARCH_CHOICES_MAX];
};

/* A plan that fits, with a lower bound on its step time. Plans are
 * compared per token (step time / batch tokens): with a rounded batch two
 * plans run different batches, and what the user pays for is the time of
 * the tokens asked, not of one step. */
struct candidate_plan {
	struct train_plan plan;
	double batch_tokens;  /* the global batch it runs with (rounded with round_batch) */
	double bound_s;
	double bound_s_per_token;  /* bound_s / batch_tokens: the sort key */
	int index;  /* enumeration order, for ties */
};

/* Pass 1's findings besides the candidates. */
struct search_pass1 {
	struct candidate_plan *cands;
	size_t ncands, cap;
	int tried;                   /* plans that divide the cluster */
	int oom;                     /* of those, plans that do not fit in memory */
	char last_reason[PARALLEL_WHY_MAX]; /* why the plan that got furthest through the checks failed (the first such) */
	enum parallel_failure furthest;
	double nearest_seqs;         /* of the plans failing only on the batch, the nearest batch that divides */
	double nearest_dp;           /* and that plan's dp x micro_batch */
	struct train_plan best_oom;  /* the smallest plan that does not fit (simulated only if no plan fits) */
	double best_oom_bytes;       /* its memory per GPU */
	double best_oom_batch_tokens;/* and the batch it runs with */
	bool have_oom;
};

/* Candidate values of one field: the given one, or a list. */
static int choices(int given, const int *list, int n, int *out)
{
	if (given != PLAN_AUTO) {
		out[0] = given;
		return 1;
	}
	memcpy(out, list, (size_t)n * sizeof *out);
	return n;
}

static void search_space_init(struct search_space *sp, const struct train_spec *w, const struct cluster_spec *c)
{
	static const int tps[] = { 1, 2, 4, 8, 16, 32, 64, 72 };
	static const int pps[] = { 1, 2, 4, 8, 16, 32, 64, 128 };
	static const int vpps[] = { 1, 2, 4, 8 };
	static const int cps[] = { 1, 2, 4, 8, 16 };
	static const int eps[] = { 1, 2, 4, 8, 16, 32, 64 };
	static const int zeros[] = { 1, 3 };
	static const int mbs[] = { 1, 2, 4, 8 };
	static const int recs[] = { RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };
	const struct parallel_plan *q = &w->plan;

	sp->n[F_TP] = choices(q->tp, tps, 8, sp->v[F_TP]);
	sp->n[F_PP] = choices(q->pp, pps, 8, sp->v[F_PP]);
	sp->n[F_VPP] = choices(q->vpp, vpps, 4, sp->v[F_VPP]);
	sp->n[F_CP] = choices(q->cp, cps, 5, sp->v[F_CP]);
	sp->n[F_EP] = choices(q->ep, eps, c->gpus_per_node > 0 && w->model.experts > 0 ? 7 : 1, sp->v[F_EP]);
	sp->n[F_ZERO] = choices(q->zero, zeros, 2, sp->v[F_ZERO]);
	sp->n[F_MB] = choices(q->micro_batch, mbs, 4, sp->v[F_MB]);
	sp->n[F_RECOMPUTE] = choices(q->recompute, recs, 2, sp->v[F_RECOMPUTE]);
	if (q->cp == PLAN_AUTO && w->seq_len < 32768)
		sp->n[F_CP] = 1;  /* context parallelism pays off only for long sequences */
}

/* The requested plan with the fields of combination `digits`; false when
 * the combination is not worth trying (tp beyond a node, vpp without pp,
 * a searched vpp the stated schedule cannot run). */
static bool search_request(const struct search_space *sp, const int digits[F_COUNT], const struct train_spec *w,
			   const struct cluster_spec *c, struct parallel_plan *t)
{
	const struct parallel_plan *q = &w->plan;
	*t = *q;
	t->tp = sp->v[F_TP][digits[F_TP]];
	t->pp = sp->v[F_PP][digits[F_PP]];
	t->vpp = sp->v[F_VPP][digits[F_VPP]];
	t->cp = sp->v[F_CP][digits[F_CP]];
	t->ep = sp->v[F_EP][digits[F_EP]];
	t->zero = sp->v[F_ZERO][digits[F_ZERO]];
	t->micro_batch = sp->v[F_MB][digits[F_MB]];
	t->recompute = sp->v[F_RECOMPUTE][digits[F_RECOMPUTE]];
	t->dp = q->dp;
	if (t->tp > c->gpus_per_node)
		return false;
	if (t->vpp > 1 && t->pp == 1 && (q->vpp == PLAN_AUTO || q->pp == PLAN_AUTO))
		return false;
	if (q->schedule == PLAN_AUTO)
		t->schedule = t->vpp > 1 ? SCHED_INTERLEAVED : SCHED_1F1B;
	else if (q->vpp != PLAN_AUTO)
		return true;  /* a stated vpp the schedule cannot run: the plan check says why */
	else if (q->schedule == SCHED_DUALPIPEV && t->vpp != 2)
		return false;  /* two chunks a stage */
	else if (t->vpp > 1 && q->schedule != SCHED_INTERLEAVED && q->schedule != SCHED_DUALPIPEV)
		return false;
	return true;
}

enum considered { CONSIDERED_FITS, CONSIDERED_OOM, CONSIDERED_INVALID };

/* Pass 1 on one concrete plan: a candidate with its lower bound when it
 * fits, else possibly the smallest plan that does not. */
static enum considered consider(struct search_pass1 *s1, const struct train_spec *w, const struct cluster_spec *c,
		     const struct train_plan *p)
{
	/* w is the plan's own copy when the batch is rounded */
	struct train_memory mem;
	struct train_result cur;

	/* cheap memory check before simulating */
	memory_per_gpu(w, p, &mem);
	s1->tried++;
	if (mem.total > c->gpu.memory_bytes) {
		s1->oom++;
		if (!s1->have_oom || mem.total < s1->best_oom_bytes) {
			s1->best_oom = *p;
			s1->best_oom_bytes = mem.total;
			s1->best_oom_batch_tokens = w->global_batch_tokens;
			s1->have_oom = true;
		}
		return CONSIDERED_OOM;
	}
	if (step_simulate_bounded(w, c, p, &cur, NULL, -1.0))
		return CONSIDERED_INVALID;  /* not simulated because invalid (placement) */
	if (s1->ncands == s1->cap) {
		s1->cap = s1->cap ? 2 * s1->cap : 64;
		s1->cands = xreallocarray(s1->cands, s1->cap, sizeof *s1->cands);
	}
	s1->cands[s1->ncands].plan = *p;
	s1->cands[s1->ncands].batch_tokens = w->global_batch_tokens;
	s1->cands[s1->ncands].bound_s = cur.step_time_s;
	s1->cands[s1->ncands].bound_s_per_token = cur.step_time_s / w->global_batch_tokens;
	s1->cands[s1->ncands].index = s1->tried;
	s1->ncands++;
	return CONSIDERED_FITS;
}

/* A plan that fails only because its dp x micro_batch does not divide the
 * batch: keep the nearest batch that some plan divides (ties to the
 * smaller, then the first plan). */
static void note_nearest_batch(struct search_pass1 *s1, const struct train_spec *w, const struct cluster_spec *c,
			       const struct parallel_plan *t)
{
	double d = parallel_batch_divisor(c, t), below, above, seqs = w->global_batch_tokens / w->seq_len;
	if (d <= 0)
		return;
	parallel_nearest_batch(seqs, d, &below, &above);
	double best = below > 0 && seqs - below <= above - seqs ? below : above;
	double cur = s1->nearest_seqs > 0 ? fabs(s1->nearest_seqs - seqs) : INFINITY;
	if (fabs(best - seqs) < cur || (fabs(best - seqs) == cur && best < s1->nearest_seqs)) {
		s1->nearest_seqs = best;
		s1->nearest_dp = d;
	}
}

/* Pass 1: every plan of the space that divides the cluster, in
 * enumeration order (an odometer over the fields, the last fastest). */
static void pass1(struct search_pass1 *s1, const struct search_space *sp, const struct train_spec *w,
		  const struct cluster_spec *c, struct train_spec *wr)
{
	int digits[F_COUNT] = { 0 };
	/* Memory grows with the micro-batch (activations in flight scale with
	 * it, or stay level once a stage holds every micro-batch), and
	 * shrinks with recompute: once every recompute of a micro-batch is out
	 * of memory, so is every larger micro-batch of the same degrees. They
	 * still count as tried and out of memory, as an exhaustive search
	 * would count them; their memory is not computed. */
	bool mb_all_oom = true, mb_any_oom = false, fits_with_less_recompute = false;
	int oom_above_mb = 0;  /* 0: none known */
	memset(s1, 0, sizeof *s1);
	text_setf(s1->last_reason, sizeof s1->last_reason, "%s", "no plan divides the cluster");
	for (;;) {
		struct parallel_plan t;
		struct train_plan p;
		if (search_request(sp, digits, w, c, &t)) {
			char why[PARALLEL_WHY_MAX];
			enum parallel_failure failed;
			const struct train_spec *wp = w;
			if (w->round_batch) {
				*wr = *w;
				wr->global_batch_tokens = parallel_batch_tokens(w, c, &t);
				wp = wr;
			}
			if (!parallel_fill_check(wp, c, &t, &p, why, sizeof why, &failed)) {
				mb_all_oom = false;
				if (failed > s1->furthest) {
					s1->furthest = failed;
					text_setf(s1->last_reason, sizeof s1->last_reason, "%s", why);
				}
				if (failed == PARALLEL_FAIL_BATCH)
					note_nearest_batch(s1, w, c, &t);
			} else if (oom_above_mb > 0 && t.micro_batch > oom_above_mb) {
				s1->tried++;
				s1->oom++;
			} else if (fits_with_less_recompute) {
				/* Recompute only adds work and frees memory: the
				 * same plan recomputing less fits and is never
				 * slower, so this one cannot win (it fits: counted
				 * as tried, not simulated). */
				s1->tried++;
				mb_all_oom = false;
			} else {
				enum considered got = consider(s1, wp, c, &p);
				mb_any_oom |= got == CONSIDERED_OOM;
				mb_all_oom &= got == CONSIDERED_OOM;
				fits_with_less_recompute = got == CONSIDERED_FITS;
			}
		}
		int f = F_COUNT - 1;
		while (f >= 0 && ++digits[f] == sp->n[f])
			digits[f--] = 0;
		if (f < 0)
			return;
		if (f < F_RECOMPUTE)
			fits_with_less_recompute = false;  /* another plan */
		if (f <= F_MB) {
			/* a new micro-batch: the one before was out of memory throughout? */
			if (f == F_MB && mb_all_oom && mb_any_oom && oom_above_mb == 0)
				oom_above_mb = sp->v[F_MB][digits[F_MB] - 1];
			mb_all_oom = true;
			mb_any_oom = false;
		}
		if (f < F_MB)
			oom_above_mb = 0;  /* other degrees */
	}
}

/* Ascending bound per token, then enumeration order (a total order: qsort
 * is not stable). */
static int compare_candidate_plans(const void *a, const void *b)
{
	const struct candidate_plan *x = a, *y = b;
	if (x->bound_s_per_token != y->bound_s_per_token)
		return x->bound_s_per_token < y->bound_s_per_token ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* Pass 2: simulate the candidates from the smallest bound per token up,
 * stopping a plan as soon as its bound cannot beat the best time per token
 * so far; ties go to the plan enumerated first. Returns whether any plan
 * ran. */
static bool pass2(struct candidate_plan *cands, size_t ncands, const struct train_spec *w,
		  const struct cluster_spec *c, struct train_result *best, struct train_spec *wr)
{
	struct train_result cur;
	bool found = false;
	int best_index = 0;
	double best_s_per_token = INFINITY;

	memset(best, 0, sizeof *best);
	if (ncands > 1)
		qsort(cands, ncands, sizeof *cands, compare_candidate_plans);
	for (size_t i = 0; i < ncands; i++) {
		double bound_per_token = found ? best_s_per_token * (1 + 1e-9) : INFINITY;
		if (cands[i].bound_s_per_token > bound_per_token)
			break;  /* sorted: no later plan can win either */
		double bound = found ? bound_per_token * cands[i].batch_tokens : INFINITY;
		const struct train_spec *wp = w;
		if (w->round_batch) {
			*wr = *w;
			wr->global_batch_tokens = cands[i].batch_tokens;
			wp = wr;
		}
		if (!step_simulate_bounded(wp, c, &cands[i].plan, &cur, NULL, bound))
			continue;
		if (cur.status != TRAIN_OK)
			continue;
		double s_per_token = cur.step_time_s / cands[i].batch_tokens;
		bool better = !found || s_per_token < best_s_per_token * (1 - 1e-12) ||
			      (s_per_token <= best_s_per_token * (1 + 1e-12) && cands[i].index < best_index);
		if (better) {
			*best = cur;
			best_s_per_token = s_per_token;
			best_index = cands[i].index;
			found = true;
		}
	}
	return found;
}

/* The fields the search varied (more than one value), for the reason. */
static void searched_fields(const struct search_space *sp, char *out, size_t size)
{
	static const char *const names[F_COUNT] = {
		[F_TP] = "tp", [F_PP] = "pp", [F_VPP] = "vpp", [F_CP] = "cp", [F_EP] = "ep",
		[F_ZERO] = "zero", [F_MB] = "micro-batch", [F_RECOMPUTE] = "recompute",
	};
	size_t used = 0;
	out[0] = '\0';
	for (int f = 0; f < F_COUNT; f++)
		if (sp->n[f] > 1 && used < size)
			used += (size_t)snprintf(out + used, size - used, "%s%s", used ? ", " : "", names[f]);
	if (out[0] == '\0')
		snprintf(out, size, "%s", "dp only");
}

void search_plans(const struct train_spec *w, const struct cluster_spec *c, struct train_result *r)
{
	struct search_space sp;
	struct search_pass1 s1;
	struct train_result best;

	struct train_spec *wr = w->round_batch ? xmalloc(sizeof *wr) : NULL;  /* a plan's rounded copy */
	search_space_init(&sp, w, c);
	pass1(&s1, &sp, w, c, wr);
	bool found = pass2(s1.cands, s1.ncands, w, c, &best, wr);
	free(s1.cands);
	free(wr);
	if (found) {
		*r = best;
	} else if (s1.have_oom) {
		struct train_spec *w_oom = xmalloc(sizeof *w_oom);
		*w_oom = *w;
		w_oom->global_batch_tokens = s1.best_oom_batch_tokens;
		step_simulate(w_oom, c, &s1.best_oom, r, NULL);
		free(w_oom);
		r->status = TRAIN_OOM;
		text_appendf(r->reason, sizeof r->reason, "%s", " (no plan fits; this is the smallest)");
	} else {
		memset(r, 0, sizeof *r);
		r->status = TRAIN_INVALID;
		if (s1.furthest == PARALLEL_FAIL_BATCH && s1.nearest_seqs > 0)
			/* every plan that divides the GPUs fails on the batch: say so, and what would divide */
			text_setf(r->reason, sizeof r->reason,
				 "%.0f sequences per step split over no plan's dp x micro_batch on %ld GPUs: the nearest "
				 "batch that divides is %.0f sequences (%.0f tokens, dp x micro_batch %.0f); "
				 "or give global_batch_tokens {\"target\": %.0f, \"round\": true}",
				 w->global_batch_tokens / w->seq_len, cluster_gpus(c), s1.nearest_seqs,
				 s1.nearest_seqs * w->seq_len, s1.nearest_dp, w->global_batch_tokens);
		else
			text_setf(r->reason, sizeof r->reason, "%s", s1.last_reason);
	}
	r->plan.layout = parallel_layout_of(w);  /* a plan filled from wr, now freed */
	r->searched = true;
	r->plans_tried = s1.tried;
	r->plans_oom = s1.oom;
	searched_fields(&sp, r->searched_fields, sizeof r->searched_fields);
}
