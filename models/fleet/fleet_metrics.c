#include "fleet_metrics.h"

#include <stdio.h>
#include <stdlib.h>

#include "sim/stats.h"
#include "util/xalloc.h"

static void pct(struct stats_sample *v, struct fleet_pct *out)
{
	out->p50 = stats_sample_percentile(v, 50);
	out->p90 = stats_sample_percentile(v, 90);
	out->p99 = stats_sample_percentile(v, 99);
	out->mean = stats_sample_mean(v);
}

/* A class's team cell: its jobs' team, or their teams joined by '+' in the
 * team table's order (a trace's partitions); its own team when it has no jobs. */
static void class_team(const struct fleet_sched *s, int c, uint64_t mask, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	if (mask == 0) {
		snprintf(out, size, "%s", s->sp->classes[c].team);
		return;
	}
	for (int t = 0; t < s->n_teams && used + 1 < size; t++)
		if (mask & ((uint64_t)1 << t))
			used += (size_t)snprintf(out + used, size - used, "%s%s", used ? "+" : "", s->teams[t]);
}

/* Hours between two instants of the engine's clock, in whole nanoseconds. */
static double ns_hours(int64_t a_ns, int64_t b_ns)
{
	return (double)(b_ns - a_ns) / 3.6e12;
}

void fleet_metrics_collect(struct fleet_sched *s, struct fleet_metrics *m)
{
	int nt = s->n_teams, nc = s->sp->n_classes < FLEET_CLASSES_MAX ? s->sp->n_classes : FLEET_CLASSES_MAX;
	/* groups: the teams [0, nt), the fleet nt, the classes nt + 1 + c */
	enum { NG = FLEET_TEAMS_MAX + 1 + FLEET_CLASSES_MAX };
	struct stats_sample *wait = xcalloc(NG, sizeof *wait), *jct = xcalloc(NG, sizeof *jct),
			    *tw = xcalloc(NG, sizeof *tw);
	uint64_t class_teams[FLEET_CLASSES_MAX] = { 0 };
	long class_sub[FLEET_CLASSES_MAX] = { 0 }, class_done[FLEET_CLASSES_MAX] = { 0 };
	int ng = nt + 1 + nc;
	for (int t = 0; t < ng; t++) {
		stats_sample_init(&wait[t]);
		stats_sample_init(&jct[t]);
		stats_sample_init(&tw[t]);
	}
	double first = s->n_jobs > 0 ? s->jobs[0].j.submit_s : 0, last = first;
	for (size_t i = 0; i < s->n_jobs; i++) {
		const struct fleet_sched_job *jb = &s->jobs[i];
		int t = jb->j.team, k = jb->j.cls >= 0 && jb->j.cls < nc ? nt + 1 + jb->j.cls : -1;
		if (jb->state == J_DONE && jb->end_s > last)
			last = jb->end_s;
		if (k >= 0)
			class_teams[jb->j.cls] |= (uint64_t)1 << t;
		if (!jb->counted)
			continue;
		m->teams[t].jobs_submitted++;
		m->fleet.jobs_submitted++;
		if (k >= 0)
			class_sub[jb->j.cls]++;
		if (jb->j.trace_wait_s >= 0) {
			stats_sample_add(&tw[t], jb->j.trace_wait_s / 3600);
			stats_sample_add(&tw[nt], jb->j.trace_wait_s / 3600);
			if (k >= 0)
				stats_sample_add(&tw[k], jb->j.trace_wait_s / 3600);
		}
		if (jb->state != J_DONE)
			continue;
		m->teams[t].jobs_done++;
		m->fleet.jobs_done++;
		if (k >= 0)
			class_done[jb->j.cls]++;
		/* on the engine's clock: the submission event fired at sim_time_from_s(submit_s) */
		int64_t sub_ns = sim_time_from_s(jb->j.submit_s);
		double w = ns_hours(sub_ns, jb->first_start_ns), c = ns_hours(sub_ns, jb->end_ns);
		stats_sample_add(&wait[t], w);
		stats_sample_add(&wait[nt], w);
		stats_sample_add(&jct[t], c);
		stats_sample_add(&jct[nt], c);
		if (k >= 0) {
			stats_sample_add(&wait[k], w);
			stats_sample_add(&jct[k], c);
		}
	}
	double held = (double)s->total_gpus * fleet_sched_clip(s, s->w0_s, s->w1_s) / 3600;
	double alloc = s->alloc_gpu_s / 3600, idle = held - alloc;
	if (idle < 0)
		idle = 0;
	double price = s->cfg->usd_per_gpu_hour > 0 ? s->cfg->usd_per_gpu_hour : 0;
	m->n_teams = nt;
	m->n_classes = nc;
	snprintf(m->fleet.team, sizeof m->fleet.team, "%s", "");
	for (int t = 0; t < ng; t++) {
		bool cls = t > nt;
		int c = t - nt - 1;
		struct fleet_group *g = t < nt ? &m->teams[t] : t == nt ? &m->fleet : &m->classes[c];
		if (t < nt)
			snprintf(g->team, sizeof g->team, "%s", s->teams[t]);
		if (cls) {
			class_team(s, c, class_teams[c], g->team, sizeof g->team);
			snprintf(g->cls, sizeof g->cls, "%s", s->sp->classes[c].name);
			g->jobs_submitted = class_sub[c];
			g->jobs_done = class_done[c];
		}
		pct(&wait[t], &g->wait_h);
		pct(&jct[t], &g->jct_h);
		g->trace_wait_p50_h = tw[t].n > 0 ? stats_sample_percentile(&tw[t], 50) : -1;
		g->gpu_hours = t < nt ? s->team_gpu_s[t] / 3600 : t == nt ? alloc : s->class_gpu_s[c] / 3600;
		/* the idle GPU-hours are billed too: split by use (evenly when none) */
		double share = alloc > 0 ? g->gpu_hours / alloc : 1.0 / (t < nt ? nt : nc > 0 ? nc : 1);
		g->usd = t != nt ? price * (g->gpu_hours + idle * share) : price * held;
		g->idle_usd = t != nt ? price * idle * share : price * idle;
		stats_sample_release(&wait[t]);
		stats_sample_release(&jct[t]);
		stats_sample_release(&tw[t]);
	}
	free(wait);
	free(jct);
	free(tw);
	m->held_gpu_hours = held;
	m->allocated_gpu_hours = alloc;
	m->busy_gpu_hours = s->busy_gpu_s / 3600;
	m->utilization = held > 0 ? alloc / held : 0;
	m->busy_utilization = held > 0 ? m->busy_gpu_hours / held : 0;
	m->idle_gpu_hours = idle;
	double span = fleet_sched_clip(s, s->w0_s, s->w1_s);
	m->fragmentation = span > 0 && s->total_gpus > 0 ? s->frag_area / span / (double)s->total_gpus : 0;
	m->makespan_h = (last - first) / 3600;
	m->preemptions = s->preemptions;
	m->failures = s->failures;
}
