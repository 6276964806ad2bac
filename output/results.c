#include "results.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"
#include "util/xalloc.h"

void results_head_row(rowset *rs, const char *scenario, const char *candidate, uint64_t row_id,
		      uint64_t seed, const char *status, const char *reason)
{
	rowset_add_row(rs);
	rowset_text(rs, "scenario", scenario);
	rowset_text(rs, "candidate", candidate);
	rowset_int(rs, "row_id", (int64_t)row_id);
	rowset_int(rs, "seed", (int64_t)seed);
	rowset_text(rs, "status", status);
	rowset_text(rs, "reason", reason);
}

/* The six leading columns every result row has. */
static void row_head(rowset *rs, const struct job *j, const struct result *r)
{
	results_head_row(rs, j->scenario, j->cluster->name, j->row_id, j->seed, outcome_names[r->outcome.status],
			 r->outcome.reason);
}

/* The price row the cost used: its provider (empty for a price the
 * scenario gives without one) and its type; both empty without a price. */
static void price_cells(rowset *rs, const struct cluster_spec *c, bool priced)
{
	char type[PRICE_TYPE_LABEL_MAX];
	if (!priced || !c->price.known)
		return;
	rowset_text(rs, "provider", c->price.provider);
	price_type_label(c->price.type, c->price.term, type, sizeof type);
	rowset_text(rs, "price_type", type);
}

static const char *const shape_columns[] = {
	"scenario", "candidate", "row_id", "seed", "status", "reason",
	"gpu", "nodes", "gpus_per_node", "gpus", "scale_up", "nic", "nics_per_node",
	"precision", "peak_pflops", "hbm_total_gb", "scale_up_GBps_per_gpu",
	"scale_out_GBps_per_gpu", "usd_per_gpu_hour", "usd_per_hour", "price_basis",
	/* additions: the price row the cost used */
	"provider", "price_type", NULL
};

static void shape_row(rowset *rs, const struct job *j, const struct result *r)
{
	const struct cluster_spec *c = j->cluster;
	const struct cluster_figures *f = &r->cluster;
	row_head(rs, j, r);
	rowset_text(rs, "gpu", c->gpu.id.name);
	rowset_int(rs, "nodes", c->nodes);
	rowset_int(rs, "gpus_per_node", c->gpus_per_node);
	rowset_int(rs, "gpus", f->gpus);
	rowset_text(rs, "scale_up", c->scale_up.id.name);
	rowset_text(rs, "nic", c->has_nic ? c->nic.id.name : "");
	rowset_int(rs, "nics_per_node", c->has_nic ? c->nics_per_node : 0);
	rowset_text(rs, "precision", precision_names[j->workload->model.precision]);
	rowset_real(rs, "peak_pflops", f->peak_flops / 1e15);
	rowset_real(rs, "hbm_total_gb", f->memory_bytes / 1e9);
	rowset_real(rs, "scale_up_GBps_per_gpu", f->scale_up_bytes_per_s_per_gpu / 1e9);
	rowset_real(rs, "scale_out_GBps_per_gpu", f->scale_out_bytes_per_s_per_gpu / 1e9);
	if (f->priced) {
		rowset_real(rs, "usd_per_gpu_hour", c->price.usd_per_gpu_hour);
		rowset_real(rs, "usd_per_hour", f->usd_per_hour);
		rowset_text(rs, "price_basis", c->price.basis);
	}
	price_cells(rs, c, f->priced);
}

static const char *const collective_columns[] = {
	"scenario", "candidate", "row_id", "seed", "status", "reason",
	"op", "algorithm", "gpus", "bytes", "time_us", "algbw_GBps", "busbw_GBps",
	"fidelity", "protocol", "gpu", "nodes", NULL
};

static void collective_row(rowset *rs, const struct job *j, const struct result *r)
{
	const struct nccl_point *p = &r->collective;
	row_head(rs, j, r);
	rowset_text(rs, "op", collective_op_names[p->op]);
	rowset_text(rs, "algorithm", p->algorithm);
	rowset_int(rs, "gpus", p->gpus);
	rowset_int(rs, "bytes", (int64_t)p->bytes);
	if (r->outcome.status == OUTCOME_OK) {
		rowset_real(rs, "time_us", p->time_s * 1e6);
		rowset_real(rs, "algbw_GBps", p->algbw_bytes_per_s / 1e9);
		rowset_real(rs, "busbw_GBps", p->busbw_bytes_per_s / 1e9);
		rowset_text(rs, "protocol", p->protocol);
	}
	rowset_text(rs, "fidelity", collective_fidelity_names[p->fidelity]);
	rowset_text(rs, "gpu", j->cluster->gpu.id.name);
	rowset_int(rs, "nodes", j->cluster->nodes);
}

static const char *const gemm_columns[] = {
	"scenario", "candidate", "row_id", "seed", "status", "reason",
	"gpu", "precision", "m", "n", "k", "time_us", "gemm_tflops", "peak_tflops", "mamf",
	"shape_efficiency", "bound", NULL
};

/* One shape of a gemm workload (models/kernel/gemm_bench.h). */
static void gemm_row(rowset *rs, const struct job *j, const struct result *r)
{
	const struct gemm_point *p = &r->gemm;
	row_head(rs, j, r);
	rowset_text(rs, "gpu", j->cluster->gpu.id.name);
	rowset_text(rs, "precision", precision_names[p->precision]);
	rowset_int(rs, "m", (int64_t)p->m);
	rowset_int(rs, "n", (int64_t)p->n);
	rowset_int(rs, "k", (int64_t)p->k);
	if (r->outcome.status == OUTCOME_OK) {
		rowset_real(rs, "time_us", p->time_s * 1e6);
		rowset_real(rs, "gemm_tflops", p->flops_per_s / 1e12);
		rowset_real(rs, "peak_tflops", p->peak_flops_per_s / 1e12);
		rowset_real(rs, "mamf", p->mamf);
		rowset_real(rs, "shape_efficiency", p->shape_efficiency);
		rowset_text(rs, "bound", p->hbm_bound ? "hbm" : "compute");
	}
}

static const char *const training_columns[] = {
	"scenario", "candidate", "row_id", "seed", "status", "reason",
	"gpu", "nodes", "gpus_per_node", "gpus", "tp", "pp", "vpp", "dp", "cp", "ep", "zero",
	"schedule", "recompute", "micro_batch", "mem_per_gpu_gb", "step_time_s", "tokens_per_s",
	"tflops_per_gpu", "mfu", "hfu", "steps", "wall_time_p50_h", "wall_time_p90_h", "ettr",
	"gpu_hours", "cost_usd_p50", "cost_usd_p90", "usd_per_mtok", "frac_compute",
	"frac_comm_exposed", "frac_bubble", "frac_checkpoint", "frac_lost_to_failures", "frac_idle",
	/* additions: the step's breakdown in seconds, and the plan search */
	"t_compute_s", "t_optimizer_s", "t_comm_tp_s", "t_comm_ep_s", "t_comm_cp_s", "t_comm_dp_s",
	"t_bubble_s", "t_wait_s", "micro_batches", "sequence_parallel", "plans_tried", "precision",
	"usd_per_hour",
	/* additions: memory in GiB, the unit of the catalog's memory_gib */
	"mem_per_gpu_gib", "gpu_memory_gib",
	/* additions: what each instance is billed for */
	"billed_h",
	/* additions: the objective's verdicts */
	"meets_deadline_p50", "meets_deadline_p90", "meets_budget_p50", "meets_budget_p90",
	/* additions: the step's wait for its data */
	"t_data_stall_s", "frac_data_stall",
	/* additions: costs that grow with scale */
	"t_straggler_s",
	/* additions: MoE parallel folding */
	"expert_tp",
	/* additions: selective recompute's modules */
	"recompute_modules",
	/* additions: the batch the plan runs with, and the search's levers */
	"global_batch_tokens", "pipeline_split", "free_stage_input", "numerics",
	/* additions: the price row the cost used */
	"provider", "price_type",
	/* additions: storage and data dollars, and with the rental cost */
	"storage_usd_p50", "storage_usd_p90", "storage_tb", "total_usd_p50", "total_usd_p90",
	/* additions: the price's band the costs hold */
	"usd_per_gpu_hour_p10", "usd_per_gpu_hour_p90", NULL
};

enum { GIB = 1073741824 };

static void plan_cells(rowset *rs, const struct train_result *t)
{
	const struct train_plan *p = &t->plan;
	rowset_int(rs, "tp", p->tp);
	rowset_int(rs, "pp", p->pp);
	rowset_int(rs, "vpp", p->vpp);
	rowset_int(rs, "dp", p->dp);
	rowset_int(rs, "cp", p->cp);
	rowset_int(rs, "ep", p->ep);
	if (p->ep > 1 || p->etp != p->tp)  /* the experts' TP: a MoE plan's */
		rowset_int(rs, "expert_tp", p->etp);
	rowset_int(rs, "zero", p->zero);
	rowset_text(rs, "schedule", schedule_names[p->schedule]);
	rowset_text(rs, "recompute", recompute_names[p->recompute]);
	if (p->recompute == RECOMPUTE_SELECTIVE) {
		char mods[96] = "";
		size_t n = 0;
		for (int i = 0; recompute_module_names[i] != NULL; i++) {
			if (p->recompute_modules & (1 << i))
				n += (size_t)snprintf(mods + n, sizeof mods - n, "%s%s", n ? "+" : "",
						      recompute_module_names[i]);
		}
		rowset_text(rs, "recompute_modules", mods);
	}
	rowset_int(rs, "micro_batch", p->micro_batch);
	rowset_int(rs, "micro_batches", p->microbatches);
	rowset_text(rs, "sequence_parallel", p->sp ? "true" : "false");
	rowset_int(rs, "plans_tried", t->plans_tried);
	if (t->tokens_per_step > 0)
		rowset_int(rs, "global_batch_tokens", (int64_t)t->tokens_per_step);
	if (p->pp > 1 && p->layout == NULL)
		rowset_text(rs, "pipeline_split", pipeline_split_names[p->split]);
	rowset_text(rs, "free_stage_input", p->free_stage_input ? "true" : "false");
	/* a non-finite total reaches results_row's guard (emptied in a row that
	 * is not ok, an error row in one that is) */
	rowset_real(rs, "mem_per_gpu_gb", t->mem.total / 1e9);
	rowset_real(rs, "mem_per_gpu_gib", t->mem.total / GIB);
}

static void step_cells(rowset *rs, const struct train_result *t)
{
	const struct train_breakdown *b = &t->br;
	rowset_real(rs, "step_time_s", t->step_time_s);
	rowset_real(rs, "tokens_per_s", t->tokens_per_s);
	rowset_real(rs, "tflops_per_gpu", t->tflops_per_gpu);
	rowset_real(rs, "mfu", t->mfu);
	rowset_real(rs, "hfu", t->hfu);
	rowset_real(rs, "t_compute_s", b->compute);
	rowset_real(rs, "t_optimizer_s", b->optimizer);
	rowset_real(rs, "t_comm_tp_s", b->comm_tp);
	rowset_real(rs, "t_comm_ep_s", b->comm_ep);
	rowset_real(rs, "t_comm_cp_s", b->comm_cp);
	rowset_real(rs, "t_comm_dp_s", b->comm_dp);
	rowset_real(rs, "t_bubble_s", b->bubble);
	rowset_real(rs, "t_wait_s", b->other);
	rowset_real(rs, "t_straggler_s", b->straggler);
}

/* The whole run's columns, shared by every kind that has a run. */
static void run_cells(rowset *rs, const struct run_result *u)
{
	if (u->steps >= 0 && u->steps < 9.2e18)  /* a count: an integer in JSON */
		rowset_int(rs, "steps", (int64_t)u->steps);
	else
		rowset_real(rs, "steps", u->steps);
	rowset_real(rs, "wall_time_p50_h", u->wall_time_p50_s / 3600);
	rowset_real(rs, "wall_time_p90_h", u->wall_time_p90_s / 3600);
	rowset_real(rs, "ettr", u->ettr);
	rowset_real(rs, "gpu_hours", u->gpu_hours);
	if (u->priced) {
		rowset_real(rs, "cost_usd_p50", u->cost_usd_p50);
		rowset_real(rs, "cost_usd_p90", u->cost_usd_p90);
		rowset_real(rs, "usd_per_mtok", u->usd_per_mtok);
		rowset_real(rs, "billed_h", u->billed_s / 3600);
		if (rowset_find(rs, "usd_per_gpu_hour_p10") >= 0) {
			rowset_real(rs, "usd_per_gpu_hour_p10", u->price_usd_per_gpu_hour_p10);
			rowset_real(rs, "usd_per_gpu_hour_p90", u->price_usd_per_gpu_hour_p90);
		}
	}
	if (u->has_split) {
		rowset_real(rs, "frac_compute", u->frac_compute);
		rowset_real(rs, "frac_comm_exposed", u->frac_comm_exposed);
		rowset_real(rs, "frac_bubble", u->frac_bubble);
		rowset_real(rs, "frac_checkpoint", u->frac_checkpoint);
		rowset_real(rs, "frac_lost_to_failures", u->frac_lost_to_failures);
		rowset_real(rs, "frac_idle", u->frac_idle);
		if (u->data_modelled)
			rowset_real(rs, "frac_data_stall", u->frac_data_stall);
	}
	if (u->data_modelled)
		rowset_real(rs, "t_data_stall_s", u->data_stall_s);
	if (u->storage_priced && rowset_find(rs, "storage_usd_p50") >= 0) {
		rowset_real(rs, "storage_usd_p50", u->storage_usd_p50);
		rowset_real(rs, "storage_usd_p90", u->storage_usd_p90);
		rowset_real(rs, "storage_tb", u->storage_footprint_bytes / 1e12);
		if (u->priced) {
			rowset_real(rs, "total_usd_p50", u->cost_usd_p50 + u->storage_usd_p50);
			rowset_real(rs, "total_usd_p90", u->cost_usd_p90 + u->storage_usd_p90);
		}
	}
}

/* The objective's verdicts: empty for a bound it does not give or cannot check. */
static void objective_cells(rowset *rs, const struct objective_verdict *v)
{
	if (v->deadline_checked) {
		rowset_text(rs, "meets_deadline_p50", v->meets_deadline_p50 ? "true" : "false");
		rowset_text(rs, "meets_deadline_p90", v->meets_deadline_p90 ? "true" : "false");
	}
	if (v->budget_checked) {
		rowset_text(rs, "meets_budget_p50", v->meets_budget_p50 ? "true" : "false");
		rowset_text(rs, "meets_budget_p90", v->meets_budget_p90 ? "true" : "false");
	}
}

static void training_row(rowset *rs, const struct job *j, const struct result *r)
{
	const struct cluster_spec *c = j->cluster;
	row_head(rs, j, r);
	rowset_text(rs, "gpu", c->gpu.id.name);
	rowset_int(rs, "nodes", c->nodes);
	rowset_int(rs, "gpus_per_node", c->gpus_per_node);
	rowset_int(rs, "gpus", r->cluster.gpus);
	rowset_text(rs, "precision", precision_names[j->workload->model.precision]);
	rowset_real(rs, "gpu_memory_gib", c->gpu.memory_gib);
	if (r->cluster.priced)
		rowset_real(rs, "usd_per_hour", r->cluster.usd_per_hour);
	price_cells(rs, c, r->cluster.priced);
	if (r->train.plan.tp == 0)
		return;  /* no plan at all */
	plan_cells(rs, &r->train);
	char numerics[128];
	train_plan_numerics(&j->workload->train, &r->train.plan, numerics, sizeof numerics);
	rowset_text(rs, "numerics", numerics);
	/* an unsupported job's step is still what the step model says */
	if (r->outcome.status != OUTCOME_OK && r->outcome.status != OUTCOME_UNSUPPORTED)
		return;
	step_cells(rs, &r->train);
	if (r->has_run) {
		run_cells(rs, &r->run);
		objective_cells(rs, &r->objective);
	}
}

static const char *const inference_columns[] = {
	"scenario", "candidate", "row_id", "seed", "status", "reason",
	"gpu", "gpus", "replicas", "tp", "pp", "rate_per_s", "throughput_tok_s", "output_tok_s",
	"ttft_p50_ms", "ttft_p99_ms", "tpot_p50_ms", "tpot_p99_ms", "e2e_p50_s", "e2e_p99_s",
	"slo_attainment", "kv_util", "usd_per_hour", "usd_per_mtok",
	/* additions: the layout, the load, more percentiles, utilization, memory, dollars */
	"precision", "ep", "prefill_replicas", "decode_replicas", "requests", "request_per_s",
	"goodput_req_s", "ttft_p90_ms", "tpot_p90_ms", "itl_p50_ms", "itl_p90_ms", "itl_p99_ms",
	"e2e_p90_s", "mean_in_system", "gpu_busy", "flops_util", "hbm_util", "kv_util_peak",
	"kv_capacity_tokens", "weights_gb_per_gpu", "preemptions", "kv_transfer_p50_ms",
	"kv_transfer_p99_ms", "usd_per_mtok_total", "slo_met", "gpus_used",
	/* additions: the per-token cost named for the tokens it counts (usd_per_mtok is the same figure) */
	"usd_per_mtok_output",
	/* additions: the price row the cost used */
	"provider", "price_type",
	/* additions: the price's band, and the output tokens' cost in it */
	"usd_per_gpu_hour_p10", "usd_per_gpu_hour_p90", "usd_per_mtok_output_p10", "usd_per_mtok_output_p90", NULL
};

/* The serving layout: what serve_run chose (also for an oom or invalid
 * row, when it got that far). */
static void serve_layout_cells(rowset *rs, const struct serve_result *s)
{
	if (s->replicas > 0)
		rowset_int(rs, "replicas", s->replicas);
	rowset_int(rs, "tp", s->tp);
	rowset_int(rs, "pp", s->pp);
	rowset_int(rs, "ep", s->ep);
	if (s->prefill_replicas > 0 || s->decode_replicas > 0) {
		rowset_int(rs, "prefill_replicas", s->prefill_replicas);
		rowset_int(rs, "decode_replicas", s->decode_replicas);
	}
	if (s->gpus_used > 0)
		rowset_int(rs, "gpus_used", s->gpus_used);
	if (!(s->weights_gb_per_gpu <= 0))  /* a NaN too: results_row's guard finds it */
		rowset_real(rs, "weights_gb_per_gpu", s->weights_gb_per_gpu);
}

/* What serving the load measured. */
static void serve_metric_cells(rowset *rs, const struct serving_spec *sv, const struct serve_result *s)
{
	const struct serve_metrics *m = &s->m;
	rowset_real(rs, "rate_per_s", s->rate_per_s);
	rowset_real(rs, "throughput_tok_s", m->throughput_tok_s);
	rowset_real(rs, "output_tok_s", m->output_tok_s);
	rowset_real(rs, "ttft_p50_ms", m->ttft_ms.p50);
	rowset_real(rs, "ttft_p90_ms", m->ttft_ms.p90);
	rowset_real(rs, "ttft_p99_ms", m->ttft_ms.p99);
	rowset_real(rs, "tpot_p50_ms", m->tpot_ms.p50);
	rowset_real(rs, "tpot_p90_ms", m->tpot_ms.p90);
	rowset_real(rs, "tpot_p99_ms", m->tpot_ms.p99);
	rowset_real(rs, "itl_p50_ms", m->itl_ms.p50);
	rowset_real(rs, "itl_p90_ms", m->itl_ms.p90);
	rowset_real(rs, "itl_p99_ms", m->itl_ms.p99);
	rowset_real(rs, "e2e_p50_s", m->e2e_s.p50);
	rowset_real(rs, "e2e_p90_s", m->e2e_s.p90);
	rowset_real(rs, "e2e_p99_s", m->e2e_s.p99);
	rowset_real(rs, "slo_attainment", m->slo_attainment);
	rowset_real(rs, "kv_util", m->kv_util);
	rowset_real(rs, "kv_util_peak", m->kv_util_peak);
	rowset_int(rs, "requests", m->requests_done);
	rowset_real(rs, "request_per_s", m->request_per_s);
	rowset_real(rs, "goodput_req_s", m->goodput_req_s);
	rowset_real(rs, "mean_in_system", m->mean_in_system);
	rowset_real(rs, "gpu_busy", m->busy_frac);
	rowset_real(rs, "flops_util", m->flops_frac);
	rowset_real(rs, "hbm_util", m->hbm_frac);
	rowset_real(rs, "kv_capacity_tokens", s->kv_capacity_tokens);
	rowset_int(rs, "preemptions", m->preemptions);
	if (s->prefill_replicas > 0 || s->decode_replicas > 0) {
		rowset_real(rs, "kv_transfer_p50_ms", m->kv_transfer_ms.p50);
		rowset_real(rs, "kv_transfer_p99_ms", m->kv_transfer_ms.p99);
	}
	if (sv->slo_ttft_p99_ms > 0 || sv->slo_tpot_p99_ms > 0)
		rowset_text(rs, "slo_met", s->slo_met ? "true" : "false");
}

static void inference_row(rowset *rs, const struct job *j, const struct result *r)
{
	const struct serve_result *s = &r->serve;
	const struct inference_dollars *d = &r->serve_usd;
	row_head(rs, j, r);
	rowset_text(rs, "gpu", j->cluster->gpu.id.name);
	rowset_int(rs, "gpus", r->cluster.gpus);
	rowset_text(rs, "precision", precision_names[j->workload->model.precision]);
	price_cells(rs, j->cluster, r->cluster.priced);
	if (r->outcome.status == OUTCOME_UNSUPPORTED) {
		/* nothing was simulated: what the candidate costs, nothing more */
		if (r->cluster.priced)
			rowset_real(rs, "usd_per_hour", r->cluster.usd_per_hour);
		return;
	}
	if (s->tp > 0)
		serve_layout_cells(rs, s);
	if (r->outcome.status != OUTCOME_OK)
		return;
	serve_metric_cells(rs, &j->workload->serving, s);
	if (d->instances > 0) {
		rowset_real(rs, "usd_per_hour", d->usd_per_hour);
		rowset_real(rs, "usd_per_gpu_hour_p10", d->usd_per_gpu_hour_p10);
		rowset_real(rs, "usd_per_gpu_hour_p90", d->usd_per_gpu_hour_p90);
	}
	if (d->priced) {
		rowset_real(rs, "usd_per_mtok", d->usd_per_mtok);
		rowset_real(rs, "usd_per_mtok_output", d->usd_per_mtok);
		rowset_real(rs, "usd_per_mtok_total", d->usd_per_mtok_total);
		rowset_real(rs, "usd_per_mtok_output_p10", d->usd_per_mtok_output_p10);
		rowset_real(rs, "usd_per_mtok_output_p90", d->usd_per_mtok_output_p90);
	}
}

static const char *const fleet_columns[] = {
	"scenario", "candidate", "row_id", "seed", "status", "reason",
	"jobs_done", "queue_wait_p50_h", "queue_wait_p90_h", "queue_wait_p99_h", "jct_p50_h", "utilization",
	"idle_gpu_hours", "fragmentation", "usd_per_job", "meets_objective",
	/* additions: the cluster, the team of a team's row, more of the queue, GPU-hours and dollars */
	"gpu", "nodes", "gpus_per_node", "gpus", "team", "jobs_submitted", "queue_wait_mean_h", "jct_p90_h",
	"gpu_hours", "held_gpu_hours", "busy_gpu_hours", "busy_utilization", "makespan_h", "usd_per_gpu_hour",
	"usd_total", "preemptions", "failures", "objective_wait_p90_h",
	/* additions: the sizing answer */
	"sized_nodes", "sized_usd", "per_team_nodes", "per_team_usd", "peak_nodes", "peak_usd",
	/* additions: the trace's own waits */
	"trace_wait_p50_h",
	/* additions: the job class of a class's row, the idle GPU-hours' share of the dollars */
	"class", "idle_usd",
	/* additions: the price row the cost used */
	"provider", "price_type", NULL
};

/* What a group of jobs (the fleet, one team or one class) got; its
 * verdict when the objective applies to it. */
static void fleet_group_cells(rowset *rs, const struct job *j, const struct fleet_result *f,
			      const struct fleet_group *g, bool verdict)
{
	rowset_int(rs, "jobs_submitted", g->jobs_submitted);
	rowset_int(rs, "jobs_done", g->jobs_done);
	if (g->jobs_done > 0) {
		rowset_real(rs, "queue_wait_p50_h", g->wait_h.p50);
		rowset_real(rs, "queue_wait_p90_h", g->wait_h.p90);
		rowset_real(rs, "queue_wait_p99_h", g->wait_h.p99);
		rowset_real(rs, "queue_wait_mean_h", g->wait_h.mean);
		rowset_real(rs, "jct_p50_h", g->jct_h.p50);
		rowset_real(rs, "jct_p90_h", g->jct_h.p90);
		if (verdict)
			rowset_text(rs, "meets_objective",
				    fleet_group_meets(j->workload->fleet, g) ? "true" : "false");
	}
	rowset_real(rs, "gpu_hours", g->gpu_hours);
	if (f->priced) {
		rowset_real(rs, "usd_total", g->usd);
		rowset_real(rs, "idle_usd", g->idle_usd);
		if (g->jobs_done > 0)
			rowset_real(rs, "usd_per_job", g->usd / (double)g->jobs_done);
	}
	if (g->trace_wait_p50_h >= 0)
		rowset_real(rs, "trace_wait_p50_h", g->trace_wait_p50_h);
}

/* The sizing answer (with an objective; a candidate too small for the
 * jobs has it too). */
static void fleet_sizing_cells(rowset *rs, const struct job *j, const struct fleet_result *f)
{
	if (j->workload->fleet->objective_wait_p90_h <= 0)
		return;
	if (f->sized_nodes > 0)
		rowset_int(rs, "sized_nodes", f->sized_nodes);
	if (f->per_team_nodes > 0)
		rowset_int(rs, "per_team_nodes", f->per_team_nodes);
	if (f->peak_nodes > 0)
		rowset_int(rs, "peak_nodes", f->peak_nodes);
	if (f->priced) {
		if (f->sized_nodes > 0)
			rowset_real(rs, "sized_usd", f->sized_usd);
		if (f->per_team_nodes > 0)
			rowset_real(rs, "per_team_usd", f->per_team_usd);
		if (f->peak_nodes > 0)
			rowset_real(rs, "peak_usd", f->peak_usd);
	}
}

/* The fleet row's own figures: its group, utilization, the sizing answer. */
static void fleet_totals_cells(rowset *rs, const struct job *j, const struct result *r)
{
	const struct fleet_result *f = &r->fleet;
	const struct fleet_metrics *m = &f->m;
	const struct fleet_spec *spec = j->workload->fleet;
	fleet_group_cells(rs, j, f, &m->fleet, !spec->objective_exempt_fleet);
	if (spec->objective_wait_p90_h > 0)
		rowset_text(rs, "meets_objective", f->meets_objective ? "true" : "false");
	rowset_real(rs, "utilization", m->utilization);
	rowset_real(rs, "busy_utilization", m->busy_utilization);
	rowset_real(rs, "idle_gpu_hours", m->idle_gpu_hours);
	rowset_real(rs, "held_gpu_hours", m->held_gpu_hours);
	rowset_real(rs, "busy_gpu_hours", m->busy_gpu_hours);
	rowset_real(rs, "fragmentation", m->fragmentation);
	rowset_real(rs, "makespan_h", m->makespan_h);
	rowset_int(rs, "preemptions", m->preemptions);
	rowset_int(rs, "failures", m->failures);
	fleet_sizing_cells(rs, j, f);
}

/* The fleet's row, then one row per team (its `team` cell set), then one
 * per job class (`class` and its jobs' `team` set). */
static void fleet_row(rowset *rs, const struct job *j, const struct result *r)
{
	const struct cluster_spec *c = j->cluster;
	const struct fleet_result *f = &r->fleet;
	const struct fleet_metrics *m = &f->m;
	const struct fleet_spec *spec = j->workload->fleet;

	row_head(rs, j, r);
	rowset_text(rs, "gpu", c->gpu.id.name);
	rowset_int(rs, "nodes", c->nodes);
	rowset_int(rs, "gpus_per_node", c->gpus_per_node);
	rowset_int(rs, "gpus", r->cluster.gpus);
	if (spec->objective_wait_p90_h > 0)
		rowset_real(rs, "objective_wait_p90_h", spec->objective_wait_p90_h);
	if (r->cluster.priced)
		rowset_real(rs, "usd_per_gpu_hour", c->price.usd_per_gpu_hour);
	price_cells(rs, c, r->cluster.priced);
	if (r->outcome.status == OUTCOME_OK)
		fleet_totals_cells(rs, j, r);
	else if (r->outcome.status == OUTCOME_INVALID)
		fleet_sizing_cells(rs, j, f);
	/* a team's row follows whatever the status, so a fleet always gives
	 * 1 + teams rows (jobs_rows_per_job) */
	for (int t = 0; t < spec->n_teams; t++) {
		row_head(rs, j, r);
		rowset_text(rs, "gpu", c->gpu.id.name);
		rowset_int(rs, "nodes", c->nodes);
		rowset_int(rs, "gpus_per_node", c->gpus_per_node);
		rowset_int(rs, "gpus", r->cluster.gpus);
		rowset_text(rs, "team", spec->team_names[t]);
		if (r->outcome.status == OUTCOME_OK && t < m->n_teams)
			fleet_group_cells(rs, j, f, &m->teams[t], !spec->objective_exempt_team[t]);
	}
	/* and a class's row, whatever the status: 1 + teams + classes rows */
	for (int k = 0; k < spec->n_classes; k++) {
		bool have = r->outcome.status == OUTCOME_OK && k < m->n_classes;
		row_head(rs, j, r);
		rowset_text(rs, "gpu", c->gpu.id.name);
		rowset_int(rs, "nodes", c->nodes);
		rowset_int(rs, "gpus_per_node", c->gpus_per_node);
		rowset_int(rs, "gpus", r->cluster.gpus);
		rowset_text(rs, "class", spec->classes[k].name);
		rowset_text(rs, "team", have ? m->classes[k].team : spec->classes[k].team);
		/* the objective holds for each class too, unless applies_to leaves it out */
		if (have)
			fleet_group_cells(rs, j, f, &m->classes[k], !spec->objective_exempt_class[k]);
	}
}

static const char *const fleet_series_columns[] = {
	"time_h", "candidate", "allocated_frac", "busy_frac", "queued_jobs", NULL
};

rowset *results_fleet_series_new(void)
{
	rowset *rs = rowset_new(fleet_series_columns);
	results_set_units(rs);
	return rs;
}

void results_fleet_series_rows(rowset *rs, const struct job *j, const struct fleet_series *s)
{
	for (size_t k = 0; k < s->n; k++) {
		rowset_add_row(rs);
		rowset_real(rs, "time_h", (double)k * s->step_h);
		rowset_text(rs, "candidate", j->cluster->name);
		rowset_real(rs, "allocated_frac", s->allocated_frac[k]);
		rowset_real(rs, "busy_frac", s->busy_frac[k]);
		rowset_real(rs, "queued_jobs", s->queued_jobs[k]);
	}
}

/* One entry per result kind: its columns (the contract with users'
 * scripts: add at the end, never rename or reorder), its row, and the few
 * columns a table shows a person by default (status and reason always, so
 * that a row that is not ok says so). */
static const struct result_format {
	const char *const *columns;
	void (*row)(rowset *rs, const struct job *j, const struct result *r);
	const char *brief;
} formats[RESULT_KIND_COUNT] = {
	[RESULT_SHAPE] = { .columns = shape_columns, .row = shape_row,
			   .brief = "candidate,gpu,gpus,peak_pflops,hbm_total_gb,scale_up_GBps_per_gpu,"
				    "scale_out_GBps_per_gpu,usd_per_hour,price_basis" },
	[RESULT_TRAINING] = { .columns = training_columns, .row = training_row,
			      .brief = "candidate,status,gpus,tp,pp,dp,step_time_s,tokens_per_s,mfu,"
				       "wall_time_p50_h,cost_usd_p50,reason" },
	[RESULT_INFERENCE] = { .columns = inference_columns, .row = inference_row,
			       /* the P99s the SLO is written on beside the medians */
			       .brief = "candidate,status,gpus,replicas,throughput_tok_s,ttft_p50_ms,ttft_p99_ms,"
					"tpot_p50_ms,tpot_p99_ms,slo_attainment,usd_per_mtok_output,reason" },
	[RESULT_COLLECTIVE] = { .columns = collective_columns, .row = collective_row,
				.brief = "candidate,status,op,algorithm,gpus,bytes,time_us,busbw_GBps,reason" },
	[RESULT_GEMM] = { .columns = gemm_columns, .row = gemm_row,
			  .brief = "candidate,status,gpu,precision,m,n,k,time_us,gemm_tflops,shape_efficiency,reason" },
	[RESULT_FLEET] = { .columns = fleet_columns, .row = fleet_row,
			   .brief = "candidate,team,class,status,nodes,jobs_done,queue_wait_p50_h,queue_wait_p90_h,"
				    "utilization,usd_total,sized_nodes,reason" },
};

void results_set_units(rowset *rs)
{
	for (size_t c = 0; c < rowset_ncols(rs); c++) {
		const struct results_column *info = results_column_info(rowset_column(rs, c));
		rowset_set_unit(rs, c, info != NULL ? info->unit : UNIT_NONE);
	}
}

/* Does rs have exactly these columns first, in order (a sweep adds its own after)? */
static bool starts_with_columns(const rowset *rs, const char *const *cols)
{
	size_t n = 0;
	for (; cols[n] != NULL; n++)
		if (n >= rowset_ncols(rs) || strcmp(rowset_column(rs, n), cols[n]) != 0)
			return false;
	return n == rowset_ncols(rs) || strncmp(rowset_column(rs, n), "set:", 4) == 0 ||
	       strcmp(rowset_column(rs, n), "sweep_fingerprint") == 0;
}

const char *results_brief(const rowset *rs)
{
	for (size_t k = 0; k < RESULT_KIND_COUNT; k++)
		if (formats[k].columns != NULL && starts_with_columns(rs, formats[k].columns))
			return formats[k].brief;
	return NULL;
}

/* A cell's text, "" when empty. */
static const char *text_or_empty(const rowset *rs, size_t row, long col)
{
	const char *t = col >= 0 ? rowset_get_text(rs, row, (size_t)col) : NULL;
	return t != NULL ? t : "";
}

/* Whether row repeats the reason of the fleet row at head (its team or
 * class set, the same candidate, row_id and a reason). */
static bool repeats_head(const rowset *rs, size_t row, size_t head, const long col[5])
{
	enum { TEAM, CLASS, REASON, CANDIDATE, ROW_ID };
	const char *reason = text_or_empty(rs, row, col[REASON]);
	return reason[0] != '\0' && strcmp(reason, text_or_empty(rs, head, col[REASON])) == 0 &&
	       strcmp(text_or_empty(rs, row, col[CANDIDATE]), text_or_empty(rs, head, col[CANDIDATE])) == 0 &&
	       (col[ROW_ID] < 0 || rowset_get_int(rs, row, (size_t)col[ROW_ID]) ==
				   rowset_get_int(rs, head, (size_t)col[ROW_ID]));
}

rowset *results_reasons_once(const rowset *rs)
{
	const long col[5] = { rowset_find(rs, "team"), rowset_find(rs, "class"), rowset_find(rs, "reason"),
			      rowset_find(rs, "candidate"), rowset_find(rs, "row_id") };
	rowset *once = NULL;
	size_t head = 0;
	bool have_head = false;
	if (col[0] < 0 || col[2] < 0)
		return NULL;
	for (size_t row = 0; row < rowset_nrows(rs); row++) {
		if (text_or_empty(rs, row, col[0])[0] == '\0' && text_or_empty(rs, row, col[1])[0] == '\0') {
			head = row;  /* a fleet's row */
			have_head = true;
			continue;
		}
		if (!have_head || !repeats_head(rs, row, head, col))
			continue;
		if (once == NULL) {
			const char **names = xcalloc(rowset_ncols(rs), sizeof *names);
			for (size_t c = 0; c < rowset_ncols(rs); c++)
				names[c] = rowset_column(rs, c);
			const char *bad;
			once = rowset_select(rs, names, rowset_ncols(rs), &bad);  /* its own columns: never NULL */
			free(names);
		}
		rowset_set_empty(once, row, (size_t)col[2]);
	}
	return once;
}

rowset *results_new(enum result_kind kind)
{
	rowset *rs = rowset_new(formats[kind].columns);
	results_set_units(rs);
	return rs;
}

/* The first non-finite cell of the rows from row first on: its column (NULL
 * when none), *more how many other non-finite cells they have. */
static const char *first_nonfinite(const rowset *rs, size_t first, size_t *more)
{
	const char *name = NULL;
	size_t total = 0;
	for (size_t row = first; row < rowset_nrows(rs); row++) {
		size_t n;
		long col = rowset_first_nonfinite(rs, row, &n);
		if (col >= 0 && name == NULL)
			name = rowset_column(rs, (size_t)col);
		total += n;
	}
	*more = total > 0 ? total - 1 : 0;
	return name;
}

/* Empty every non-finite cell of the rows from row first on. */
static void empty_nonfinite(rowset *rs, size_t first)
{
	for (size_t row = first; row < rowset_nrows(rs); row++) {
		size_t n;
		long col;
		while ((col = rowset_first_nonfinite(rs, row, &n)) >= 0)
			rowset_set_empty(rs, row, (size_t)col);
	}
}

/*
 * The one guard against NaN and infinity in output: every numeric cell of
 * a result's rows is checked once they are written. The rows of an ok (or
 * unsupported) result with a non-finite cell are written again as an
 * error: the rows any error has (the head with status error, the
 * candidate's and the plan's cells, no figures), with the reason
 * "non-finite value in column NAME" (the first such column, and how many
 * other cells were not finite). A non-finite cell left in a row that is
 * not ok (a figure of the plan that did not fit, an input such as
 * usd_per_hour) is emptied, its status and reason kept. So no writer,
 * CSV, JSON or table, ever meets one.
 */
void results_row(rowset *rs, const struct job *j, const struct result *r)
{
	size_t first = rowset_nrows(rs), more;
	const char *bad;
	struct result *e;

	formats[r->kind].row(rs, j, r);
	bad = first_nonfinite(rs, first, &more);
	if (bad == NULL)
		return;
	if (r->outcome.status != OUTCOME_OK && r->outcome.status != OUTCOME_UNSUPPORTED) {
		empty_nonfinite(rs, first);
		return;
	}
	e = xmalloc(sizeof *e);
	*e = *r;  /* shallow: the row functions only read */
	if (more > 0)
		outcome_set(&e->outcome, OUTCOME_ERROR, "non-finite value in column %s (and %zu other cell%s)", bad,
			    more, more == 1 ? "" : "s");
	else
		outcome_set(&e->outcome, OUTCOME_ERROR, "non-finite value in column %s", bad);
	rowset_truncate(rs, first);  /* bad names a column: it outlives the rows */
	formats[r->kind].row(rs, j, e);
	empty_nonfinite(rs, first);
	free(e);
}
