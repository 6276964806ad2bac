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
enum search_field { F_TP, F_PP, F_VPP, F_SPLIT, F_CP, F_EP, F_ZERO, F_CACHE, F_MB, F_RECOMPUTE, F_COUNT };

/* A recompute setting: what F_RECOMPUTE's values index. The rungs are in
 * order of work: each recomputes what the one before does and more, so it
 * needs no more memory and no less time. */
struct recompute_rung {
	int recompute;  /* enum recompute_kind */
	int modules;    /* under selective: enum recompute_module's mask (0: the request's) */
};
#define RUNGS_MAX 8

/* At most this many values a field: every divisor of a degree that can
 * divide the GPUs or the layers (131,072 GPUs have 18 divisors that are
 * powers of two, and no count below 2^20 has more than 240 divisors). */
#define SEARCH_CHOICES_MAX 256

/* The candidate values of every searched field. vpp's and micro_batch's
 * depend on the degrees above them and are filled for each (field_for). */
struct search_space {
	int n[F_COUNT];
	int v[F_COUNT][SEARCH_CHOICES_MAX];
	struct recompute_rung rungs[RUNGS_MAX];  /* F_RECOMPUTE's values index these */
};

/* The recompute ladder: none, selective (with the request's modules, or,
 * when they are a searched lever, core_attn and then each module the model
 * has added in turn: layernorm, the MLP's or the MoE's activation, the
 * whole MoE, MLA's up-projections), full; only the stated kind when
 * recompute is given. */
static int recompute_ladder(const struct train_spec *w, struct recompute_rung *out)
{
	const struct parallel_plan *q = &w->plan;
	const struct model_spec *m = &w->model->arch;
	int n = 0;
	if (q->recompute == PLAN_AUTO || q->recompute == RECOMPUTE_NONE)
		out[n++] = (struct recompute_rung){ RECOMPUTE_NONE, 0 };
	if (q->recompute == PLAN_AUTO || q->recompute == RECOMPUTE_SELECTIVE) {
		if ((q->search_levers & LEVER_RECOMPUTE_MODULES) && q->recompute_modules == 0) {
			int mods = RECMOD_CORE_ATTN;
			out[n++] = (struct recompute_rung){ RECOMPUTE_SELECTIVE, mods };
			mods |= RECMOD_LAYERNORM;
			out[n++] = (struct recompute_rung){ RECOMPUTE_SELECTIVE, mods };
			if (m->experts > 0) {
				out[n++] = (struct recompute_rung){ RECOMPUTE_SELECTIVE, mods | RECMOD_MOE_ACT };
				mods |= RECMOD_MOE;
			} else {
				mods |= RECMOD_MLP;
			}
			out[n++] = (struct recompute_rung){ RECOMPUTE_SELECTIVE, mods };
			if (transformer_is_mla(m))
				out[n++] = (struct recompute_rung){ RECOMPUTE_SELECTIVE, mods | RECMOD_MLA_UP_PROJ };
		} else {
			out[n++] = (struct recompute_rung){ RECOMPUTE_SELECTIVE, q->recompute_modules };
		}
	}
	if (q->recompute == PLAN_AUTO || q->recompute == RECOMPUTE_FULL)
		out[n++] = (struct recompute_rung){ RECOMPUTE_FULL, 0 };
	return n;
}

/* The values a search tries by habit (what frameworks' recipes use), to
 * which every divisor that can apply is added: a degree that is not a
 * power of two (BLOOM's pp 12, MT-NLG's pp 35) is as much a plan as one
 * that is. */
static const int habit_tp[] = { 1, 2, 4, 8 };
static const int habit_pp[] = { 1, 2, 4, 8, 16, 32, 64, 128 };
static const int habit_vpp[] = { 1, 2, 4, 8 };
static const int habit_cp[] = { 1, 2, 4, 8, 16 };
static const int habit_ep[] = { 1, 2, 4, 8, 16, 32, 64 };
static const int habit_mb[] = { 1, 2, 4, 8 };
#define HABIT_N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int int_ascending(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Add v to list (n values) unless present or the list is full. */
static void list_add(int *list, int *n, int v)
{
	for (int i = 0; i < *n; i++)
		if (list[i] == v)
			return;
	if (*n < SEARCH_CHOICES_MAX)
		list[(*n)++] = v;
}

/* list := habit values <= max, and every divisor of each `of` (of[i] > 0)
 * that is <= max, ascending. A field's candidates. */
static int degree_choices(int *list, const int *habit, int nhabit, const long *of, int nof, long max)
{
	int n = 0;
	for (int i = 0; i < nhabit; i++)
		if (habit[i] <= max)
			list_add(list, &n, habit[i]);
	for (int k = 0; k < nof; k++)
		for (long d = 1; of[k] > 0 && d <= max && d <= of[k]; d++)
			if (of[k] % d == 0)
				list_add(list, &n, (int)d);
	if (n == 0)
		list[n++] = 1;
	qsort(list, (size_t)n, sizeof *list, int_ascending);
	return n;
}

/* Candidate values of one field: the given one, or the computed list. */
static int given_or(int given, int *out, int n_computed)
{
	if (given != PLAN_AUTO) {
		out[0] = given;
		return 1;
	}
	return n_computed;
}

static void search_space_init(struct search_space *sp, const struct train_spec *w, const struct cluster_spec *c)
{
	const struct parallel_plan *q = &w->plan;
	long gpus = cluster_gpus(c), slots = w->model->arch.layers + 2;  /* the embedding and loss may take a stage */
	long per_node = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
	long experts = w->model->arch.experts;
	static const int zeros[] = { 0, 1, 2, 3 };
	int n;

	n = degree_choices(sp->v[F_TP], habit_tp, HABIT_N(habit_tp), &per_node, 1, per_node);
	sp->n[F_TP] = given_or(q->tp, sp->v[F_TP], n);
	n = degree_choices(sp->v[F_PP], habit_pp, HABIT_N(habit_pp), &gpus, 1, slots < gpus ? slots : gpus);
	sp->n[F_PP] = given_or(q->pp, sp->v[F_PP], n);
	sp->n[F_VPP] = 1;  /* per pp: field_for */
	sp->v[F_VPP][0] = q->vpp != PLAN_AUTO ? q->vpp : 1;
	long seq = w->seq_len;
	/* cp 2 always; beyond it while each rank keeps at least 1,024 tokens
	 * (MLPerf v5.0's GB200 LoRA runs, tp 1 cp 8 at 8K, are validated within
	 * 3%), up to 16 (docs/explanation/training.md, "The plan search") */
	long cp_max = seq / 1024 < 2 ? 2 : seq / 1024;
	n = degree_choices(sp->v[F_CP], habit_cp, HABIT_N(habit_cp), &seq, 0, cp_max < 16 ? cp_max : 16);
	sp->n[F_CP] = given_or(q->cp, sp->v[F_CP], n);
	if (experts > 0 && c->gpus_per_node > 0) {
		long of[2] = { experts, gpus };
		n = degree_choices(sp->v[F_EP], habit_ep, HABIT_N(habit_ep), of, 1, experts < gpus ? experts : gpus);
	} else {
		sp->v[F_EP][0] = 1;
		n = 1;
	}
	sp->n[F_EP] = given_or(q->ep, sp->v[F_EP], n);
	memcpy(sp->v[F_ZERO], zeros, sizeof zeros);
	sp->n[F_ZERO] = given_or(q->zero, sp->v[F_ZERO], HABIT_N(zeros));
	sp->n[F_MB] = 1;  /* per tp, pp, cp: field_for */
	sp->v[F_MB][0] = q->micro_batch != PLAN_AUTO ? q->micro_batch : 1;
	sp->n[F_RECOMPUTE] = recompute_ladder(w, sp->rungs);
	for (int i = 0; i < sp->n[F_RECOMPUTE]; i++)
		sp->v[F_RECOMPUTE][i] = i;
	/* the embedding and the loss in the split, when the search may choose
	 * it and no layout places the layers */
	sp->v[F_SPLIT][0] = q->pipeline_split;
	sp->n[F_SPLIT] = 1;
	if ((q->search_levers & LEVER_PIPELINE_SPLIT) && q->layout.stages == 0 && q->pp != 1) {
		sp->v[F_SPLIT][0] = SPLIT_LAYERS;
		sp->v[F_SPLIT][1] = SPLIT_EMBEDDING_LOSS;
		sp->n[F_SPLIT] = 2;
	}
	/* fp8 activation caching: only an FP8 (or FP4) run of a MoE model has
	 * what it caches (parallel.c's check) */
	sp->v[F_CACHE][0] = q->fp8_activation_cache;
	sp->n[F_CACHE] = 1;
	if ((q->search_levers & LEVER_FP8_ACT_CACHE) && w->model->arch.experts > 0 &&
	    (w->model->precision == PREC_FP8 || w->model->precision == PREC_FP4)) {
		sp->v[F_CACHE][0] = 0;
		sp->v[F_CACHE][1] = 1;
		sp->n[F_CACHE] = 2;
	}
}

/* The fields whose candidates depend on the degrees above them, filled when
 * those change: vpp (habit values, and every vpp that splits the layers,
 * or the layers and the embedding and loss, evenly over pp) and the
 * micro-batch (habit values, and every divisor of the sequences a replica
 * takes per step up to 32). */
static void field_for(struct search_space *sp, enum search_field f, const int digits[F_COUNT],
		      const struct train_spec *w, const struct cluster_spec *c)
{
	const struct parallel_plan *q = &w->plan;
	if (f == F_VPP && q->vpp == PLAN_AUTO) {
		long pp = sp->v[F_PP][digits[F_PP]], layers = w->model->arch.layers;
		long of[2] = { layers % pp == 0 ? layers / pp : 0, (layers + 2) % pp == 0 ? (layers + 2) / pp : 0 };
		sp->n[F_VPP] = pp == 1 ? 1 : degree_choices(sp->v[F_VPP], habit_vpp, HABIT_N(habit_vpp), of, 2,
							     (layers + 2) / pp);
		if (pp == 1)
			sp->v[F_VPP][0] = 1;
	} else if (f == F_MB && q->micro_batch == PLAN_AUTO) {
		long model_par = (long)sp->v[F_TP][digits[F_TP]] * sp->v[F_PP][digits[F_PP]] * sp->v[F_CP][digits[F_CP]];
		long gpus = cluster_gpus(c), per_replica = 0;
		double seqs = w->global_batch_tokens / w->seq_len;
		if (model_par > 0 && gpus % model_par == 0) {
			double dp = q->dp != PLAN_AUTO ? q->dp : (double)(gpus / model_par);
			double r = seqs / dp;
			if (r >= 1 && r == floor(r) && r < 1e9)
				per_replica = (long)r;
		}
		sp->n[F_MB] = degree_choices(sp->v[F_MB], habit_mb, HABIT_N(habit_mb), &per_replica, 1, 32);
	}
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
	const struct recompute_rung *rung = &sp->rungs[sp->v[F_RECOMPUTE][digits[F_RECOMPUTE]]];
	t->recompute = rung->recompute;
	t->recompute_modules = rung->recompute == RECOMPUTE_SELECTIVE ? rung->modules : q->recompute_modules;
	t->pipeline_split = sp->v[F_SPLIT][digits[F_SPLIT]];
	t->fp8_activation_cache = sp->v[F_CACHE][digits[F_CACHE]] != 0;
	t->dp = q->dp;
	/* the levers that only save memory or time in the model (train.h):
	 * taken whenever the search may */
	if (q->search_levers & LEVER_FREE_STAGE_INPUT)
		t->free_stage_input = true;  /* frees memory, adds no work */
	if (q->search_levers & LEVER_GRAD_REDUCE_BF16)
		t->grad_reduce = GRAD_REDUCE_BF16;  /* half the gradient bytes held and reduced */
	if (q->search_levers & LEVER_MOMENTS_BF16)
		t->optimizer_moments = MOMENTS_BF16;  /* 4 bytes a parameter fewer, read and written */
	if ((q->search_levers & LEVER_DISPATCH_FP8) && w->model->arch.experts > 0)
		t->moe_dispatch = MOE_DISPATCH_FP8;  /* about half the dispatch bytes */
	if (t->tp > c->gpus_per_node)
		return false;
	if (t->pipeline_split != q->pipeline_split && t->pp == 1)
		return false;  /* one stage: nothing to split */
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

/* A plan that fits, with a lower bound on its step time. Plans are
 * compared per token (step time / batch tokens): with a rounded batch two
 * plans run different batches, and what the user pays for is the time of
 * the tokens asked, not of one step. */
struct candidate_plan {
	struct train_plan plan;
	double batch_tokens;  /* the global batch it runs with (rounded with round_batch) */
	double floor_s_per_token;  /* a lower bound on bound_s / batch_tokens: the sort key */
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
	/* the floors of the current degrees, by micro-batch (floor_of) */
	double floor[SEARCH_CHOICES_MAX];
	bool floor_known[SEARCH_CHOICES_MAX];
};

/*
 * A lower bound on the bound per token of every plan of the current
 * degrees (tp, pp, vpp, split, cp, ep) and micro-batch: the bound of that
 * plan with ZeRO 2, no recompute and no FP8 cache. Recompute and the cache
 * only add work to a layer (more of it hides more of a collective, never
 * more than it adds: roofline_overlap_s); ZeRO 0 and 1 add the gradient
 * accumulation to the weight-gradient GEMMs, and ZeRO 3 the per-layer
 * gathers. 0 (no pruning) when that plan cannot be made.
 */
static double floor_of(struct search_pass1 *s1, int mb_digit, const struct train_spec *wp,
		       const struct cluster_spec *c, const struct parallel_plan *t)
{
	if (!s1->floor_known[mb_digit]) {
		struct parallel_plan f = *t;
		struct train_plan fp;
		char why[PARALLEL_WHY_MAX];
		enum parallel_failure failed;
		double b = 0;
		f.zero = 2;
		f.recompute = RECOMPUTE_NONE;
		f.recompute_modules = 0;
		f.fp8_activation_cache = false;
		if (!parallel_fill_check(wp, c, &f, &fp, why, sizeof why, &failed) || !step_lower_bound(wp, c, &fp, &b))
			b = 0;
		s1->floor[mb_digit] = b / wp->global_batch_tokens;
		s1->floor_known[mb_digit] = true;
	}
	return s1->floor[mb_digit];
}

enum considered { CONSIDERED_FITS, CONSIDERED_OOM, CONSIDERED_INVALID };

/* Pass 1 on one concrete plan: a candidate with the floor of its degrees
 * and micro-batch when it fits, else possibly the smallest plan that does
 * not. */
static enum considered consider(struct search_pass1 *s1, const struct train_spec *w, const struct cluster_spec *c,
				const struct train_plan *p, int mb_digit, const struct parallel_plan *t)
{
	/* w is the plan's own copy when the batch is rounded */
	struct train_memory mem;

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
	double floor = floor_of(s1, mb_digit, w, c, t);
	s1->cands = xgrow(s1->cands, &s1->cap, s1->ncands + 1, sizeof *s1->cands, 64);
	s1->cands[s1->ncands].plan = *p;
	s1->cands[s1->ncands].batch_tokens = w->global_batch_tokens;
	s1->cands[s1->ncands].floor_s_per_token = floor;
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
static void pass1(struct search_pass1 *s1, struct search_space *sp, const struct train_spec *w,
		  const struct cluster_spec *c, struct train_spec *wr)
{
	int digits[F_COUNT] = { 0 };
	/* Memory grows with the micro-batch (activations in flight scale with
	 * it, or stay level once a stage holds every micro-batch), and
	 * shrinks with recompute: once every recompute of a micro-batch is out
	 * of memory, so is every larger micro-batch of the same degrees. They
	 * still count as tried and out of memory, as an exhaustive search
	 * would count them; their memory is not computed. */
	bool mb_all_oom = true, mb_any_oom = false;
	int oom_above_mb = 0;  /* 0: none known */
	memset(s1, 0, sizeof *s1);
	text_setf(s1->last_reason, sizeof s1->last_reason, "%s", "no plan divides the cluster");
	field_for(sp, F_VPP, digits, w, c);
	field_for(sp, F_MB, digits, w, c);
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
			} else {
				enum considered got = consider(s1, wp, c, &p, digits[F_MB], &t);
				mb_any_oom |= got == CONSIDERED_OOM;
				mb_all_oom &= got == CONSIDERED_OOM;
				if (got == CONSIDERED_FITS && sp->n[F_RECOMPUTE] > 1)
					/* Recompute only adds work: the same plan
					 * recomputing less never takes longer, so once
					 * one fits, the ones after it (selective, full)
					 * cannot win. */
					digits[F_RECOMPUTE] = sp->n[F_RECOMPUTE] - 1;
			}
		}
		int f = F_COUNT - 1;
		while (f >= 0 && ++digits[f] == sp->n[f])
			digits[f--] = 0;
		if (f < 0)
			return;
		if (f <= F_MB) {
			/* a new micro-batch: the one before was out of memory throughout? */
			if (f == F_MB && mb_all_oom && mb_any_oom && oom_above_mb == 0)
				oom_above_mb = sp->v[F_MB][digits[F_MB] - 1];
			mb_all_oom = true;
			mb_any_oom = false;
		}
		if (f < F_MB)
			oom_above_mb = 0;  /* other degrees */
		if (f < F_ZERO)
			memset(s1->floor_known, 0, sizeof s1->floor_known);  /* other degrees: other floors */
		/* a degree above vpp or the micro-batch changed: their lists follow */
		if (f < F_VPP)
			field_for(sp, F_VPP, digits, w, c);
		if (f < F_MB)
			field_for(sp, F_MB, digits, w, c);
	}
}

/* Ascending bound per token, then enumeration order (a total order: qsort
 * is not stable). */
static int compare_candidate_plans(const void *a, const void *b)
{
	const struct candidate_plan *x = a, *y = b;
	if (x->floor_s_per_token != y->floor_s_per_token)
		return x->floor_s_per_token < y->floor_s_per_token ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* Pass 2: simulate the candidates from the smallest floor per token up,
 * stopping a plan as soon as its own bound (step_simulate_bounded) cannot
 * beat the best time per token so far, and the search once the next floor
 * cannot; ties go to the plan enumerated first. Returns whether any plan
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
		if (cands[i].floor_s_per_token > bound_per_token)
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
		if (cur.outcome.status != OUTCOME_OK)
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
static void searched_fields(const struct search_space *sp, const struct train_spec *w, char *out, size_t size)
{
	static const char *const names[F_COUNT] = {
		[F_TP] = "tp", [F_PP] = "pp", [F_VPP] = "vpp", [F_SPLIT] = "pipeline_split", [F_CP] = "cp",
		[F_EP] = "ep", [F_ZERO] = "zero", [F_CACHE] = "fp8_activation_cache", [F_MB] = "micro-batch",
		[F_RECOMPUTE] = "recompute",
	};
	int selective_rungs = 0;
	for (int i = 0; i < sp->n[F_RECOMPUTE]; i++)
		selective_rungs += sp->rungs[i].recompute == RECOMPUTE_SELECTIVE;
	size_t used = 0;
	out[0] = '\0';
	for (int f = 0; f < F_COUNT; f++)
		if ((sp->n[f] > 1 || (f == F_VPP && w->plan.vpp == PLAN_AUTO && w->plan.pp != 1) ||
		     (f == F_MB && w->plan.micro_batch == PLAN_AUTO)) && used < size)
			used += (size_t)snprintf(out + used, size - used, "%s%s%s", used ? ", " : "", names[f],
						 f == F_RECOMPUTE && selective_rungs > 1 ? " with its modules" : "");
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
		r->outcome.status = OUTCOME_OOM;
		text_appendf(r->outcome.reason, sizeof r->outcome.reason, "%s", " (no plan fits; this is the smallest)");
	} else {
		memset(r, 0, sizeof *r);
		r->outcome.status = OUTCOME_INVALID;
		if (s1.furthest == PARALLEL_FAIL_BATCH && s1.nearest_seqs > 0)
			/* every plan that divides the GPUs fails on the batch: say so, and what would divide */
			text_setf(r->outcome.reason, sizeof r->outcome.reason,
				 "%.0f sequences per step split over no plan's dp x micro_batch on %ld GPUs: the nearest "
				 "batch that divides is %.0f sequences (%.0f tokens, dp x micro_batch %.0f); "
				 "or give global_batch_tokens {\"target\": %.0f, \"round\": true}",
				 w->global_batch_tokens / w->seq_len, cluster_gpus(c), s1.nearest_seqs,
				 s1.nearest_seqs * w->seq_len, s1.nearest_dp, w->global_batch_tokens);
		else
			text_setf(r->outcome.reason, sizeof r->outcome.reason, "%s", s1.last_reason);
	}
	r->plan.layout = parallel_layout_of(w);  /* a plan filled from wr, now freed */
	r->searched = true;
	r->plans_tried = s1.tried;
	r->plans_oom = s1.oom;
	searched_fields(&sp, w, r->searched_fields, sizeof r->searched_fields);
}
