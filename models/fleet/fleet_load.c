#include "fleet_load.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/rng.h"
#include "util/text.h"
#include "util/xalloc.h"

double fleet_load_duration(const struct fleet_duration *d, gsl_rng *r)
{
	double x = d->mean_s;
	switch (d->dist) {
	case FLEET_DUR_FIXED:
		break;
	case FLEET_DUR_EXPONENTIAL:
		x = d->mean_s > 0 ? gsl_ran_exponential(r, d->mean_s) : 0;
		break;
	case FLEET_DUR_LOGNORMAL:
		/* mean m and sd s of the durations themselves: sigma^2 = ln(1 + s^2/m^2),
		 * mu = ln m - sigma^2 / 2 (as serve_load draws token lengths) */
		if (d->sd_s > 0 && d->mean_s > 0) {
			double s2 = log(1 + d->sd_s * d->sd_s / (d->mean_s * d->mean_s));
			x = gsl_ran_lognormal(r, log(d->mean_s) - s2 / 2, sqrt(s2));
		}
		break;
	case FLEET_DUR_UNIFORM:
		x = d->max_s > d->min_s ? d->min_s + (d->max_s - d->min_s) * gsl_rng_uniform(r) : d->min_s;
		break;
	}
	if (d->max_s > 0 && x > d->max_s)
		x = d->max_s;
	if (x < d->min_s)
		x = d->min_s;
	return x > 0 ? x : 0;
}

static int cmp_job(const void *a, const void *b)
{
	const struct fleet_job *x = a, *y = b;
	if (x->submit_s != y->submit_s)
		return x->submit_s < y->submit_s ? -1 : 1;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->team != y->team)
		return x->team < y->team ? -1 : 1;
	if (x->gpus != y->gpus)
		return x->gpus < y->gpus ? -1 : 1;
	if (x->duration_s != y->duration_s)
		return x->duration_s < y->duration_s ? -1 : 1;
	if (x->trace_wait_s != y->trace_wait_s)
		return x->trace_wait_s < y->trace_wait_s ? -1 : 1;
	return 0;
}

static int team_index(char (*teams)[FLEET_NAME_MAX], int *n_teams, const char *name)
{
	for (int i = 0; i < *n_teams; i++)
		if (strcmp(teams[i], name) == 0)
			return i;
	if (*n_teams >= FLEET_TEAMS_MAX)
		return -1;
	snprintf(teams[*n_teams], FLEET_NAME_MAX, "%s", name);
	return (*n_teams)++;
}

struct buf {
	struct fleet_job *v;
	size_t n, cap;
};

static int push(struct buf *b, const struct fleet_job *j)
{
	if (b->n >= FLEET_LOAD_MAX_JOBS)
		return -1;
	b->v = xgrow(b->v, &b->cap, b->n + 1, sizeof *b->v, 1024);
	b->v[b->n++] = *j;
	return 0;
}

/* The class's value from a per-class array, or the fallback when the array
 * is absent or the value negative. */
static double per_class(const double *v, int cls, double fallback)
{
	return v != NULL && v[cls] >= 0 ? v[cls] : fallback;
}

int fleet_load_jobs(const struct fleet_sim_config *cfg, struct fleet_job **jobs, size_t *n,
		    char (*teams)[FLEET_NAME_MAX], int *n_teams, char *reason, size_t reason_len)
{
	const struct fleet_spec *sp = cfg->spec;
	struct buf b = { 0 };
	*jobs = NULL;
	*n = 0;
	*n_teams = 0;
	if (cfg->team_names != NULL && cfg->n_teams > 0) {
		if (cfg->n_teams > FLEET_TEAMS_MAX) {
			text_setf(reason, reason_len, "%d teams: at most %d", cfg->n_teams, FLEET_TEAMS_MAX);
			return -1;
		}
		for (int i = 0; i < cfg->n_teams; i++)
			snprintf(teams[i], FLEET_NAME_MAX, "%s", cfg->team_names[i]);
		*n_teams = cfg->n_teams;
	}
	if (cfg->jobs != NULL) {
		int nt = *n_teams;
		if (nt == 0)
			for (int c = 0; c < sp->n_classes; c++)
				if (team_index(teams, n_teams, sp->classes[c].team) < 0)
					goto too_many_teams;
		nt = *n_teams > 0 ? *n_teams : 1;
		for (size_t i = 0; i < cfg->n_jobs; i++) {
			const struct fleet_job *j = &cfg->jobs[i];
			if (j->team < 0 || j->team >= nt) {
				text_setf(reason, reason_len, "job %zu: team %d: the team table has %d", i, j->team, nt);
				free(b.v);
				return -1;
			}
			if (push(&b, j) != 0)
				goto too_many_jobs;
		}
		if (*n_teams == 0)
			team_index(teams, n_teams, "");
		goto sort;
	}
	double end_s = sp->duration_h * 3600;
	double restart_default = sp->failures.enabled && sp->failures.restart_s > 0 ? sp->failures.restart_s : 0;
	for (int c = 0; c < sp->n_classes; c++) {
		const struct fleet_class *fc = &sp->classes[c];
		int team = team_index(teams, n_teams, fc->team);
		if (team < 0)
			goto too_many_teams;
		struct fleet_job j = {
			.cls = c, .team = team, .gpus = fc->gpus, .priority = fc->priority,
			.checkpoint_interval_s = per_class(cfg->class_checkpoint_interval_s, c, 0),
			.restart_s = per_class(cfg->class_restart_s, c, restart_default),
			.trace_wait_s = -1,
		};
		double factor = fc->estimate_factor > 0 ? fc->estimate_factor : 1;
		if (fc->arrival == FLEET_ARRIVAL_TRACE) {
			if (fc->trace_jobs == NULL)
				continue;
			for (size_t i = 0; i < fc->trace_jobs->n; i++) {
				const struct fleet_trace_job *t = &fc->trace_jobs->jobs[i];
				j.team = t->team[0] ? team_index(teams, n_teams, t->team) : team;
				if (j.team < 0)
					goto too_many_teams;
				j.submit_s = t->submit_s;
				j.gpus = t->gpus;
				j.duration_s = t->duration_s > 0 ? t->duration_s : 0;
				j.estimate_s = j.duration_s * factor;
				j.trace_wait_s = t->trace_wait_s;
				if (push(&b, &j) != 0)
					goto too_many_jobs;
			}
			continue;
		}
		if (!(fc->rate_per_h > 0) || !(end_s > 0))
			continue;
		/* the class's own streams: the row's arrival (length) stream
		 * seed, with the class index mixed in through the same mixer */
		gsl_rng *arr = rng_stream_new(rng_stream_seed(cfg->seed, cfg->row_id, RNG_ARRIVALS), (uint64_t)c,
					      RNG_ARRIVALS);
		gsl_rng *len = rng_stream_new(rng_stream_seed(cfg->seed, cfg->row_id, RNG_LENGTHS), (uint64_t)c,
					      RNG_LENGTHS);
		double stated = per_class(cfg->class_duration_s, c, -1);
		double t = 0;
		int rc = 0;
		for (;;) {
			t += gsl_ran_exponential(arr, 3600 / fc->rate_per_h);
			if (t >= end_s)
				break;
			j.submit_s = t;
			j.duration_s = stated >= 0 ? stated : fleet_load_duration(&fc->duration, len);
			j.estimate_s = j.duration_s * factor;
			if ((rc = push(&b, &j)) != 0)
				break;
		}
		gsl_rng_free(arr);
		gsl_rng_free(len);
		if (rc != 0)
			goto too_many_jobs;
	}
	if (*n_teams == 0)
		team_index(teams, n_teams, "");
sort:
	if (b.n > 1)
		qsort(b.v, b.n, sizeof *b.v, cmp_job);
	*jobs = b.v;
	*n = b.n;
	return 0;
too_many_teams:
	text_setf(reason, reason_len, "more than %d teams", FLEET_TEAMS_MAX);
	free(b.v);
	return -1;
too_many_jobs:
	text_setf(reason, reason_len, "more than %d jobs in the fleet", FLEET_LOAD_MAX_JOBS);
	free(b.v);
	return -1;
}
