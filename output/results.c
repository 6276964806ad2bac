#include "results.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void id_cells(rowset *rs, const struct catalog_id *id)
{
	char aliases[CAT_ALIASES_MAX * (CAT_NAME_MAX + 1)] = "";
	size_t used = 0;
	for (int i = 0; i < id->n_aliases; i++)
		used += (size_t)snprintf(aliases + used, sizeof aliases - used, "%s%s", i ? ";" : "", id->aliases[i]);
	rowset_text(rs, "name", id->name);
	rowset_text(rs, "aliases", aliases);
	rowset_text(rs, "description", id->description);
}

static void provenance_cells(rowset *rs, const struct catalog_id *id)
{
	rowset_text(rs, "confidence", id->confidence);
	rowset_text(rs, "source", id->source);
}

rowset *results_catalog_gpus(const catalog *c)
{
	static const char *const cols[] = {
		"name", "aliases", "description", "vendor", "memory_gib", "mem_bw_GBps", "tflops_fp64",
		"tflops_tf32", "tflops_bf16", "tflops_fp8", "tflops_fp4", "mamf_bf16", "mamf_fp8",
		"scale_up", "scale_up_GBps", "tdp_w", "year", "confidence", "source",
		/* additions */
		"sms", NULL
	};
	rowset *rs = rowset_new(cols);
	for (size_t i = 0; i < catalog_gpu_count(c); i++) {
		const struct gpu_spec *g = catalog_gpu_at(c, i);
		rowset_add_row(rs);
		id_cells(rs, &g->id);
		rowset_text(rs, "vendor", g->vendor);
		rowset_real(rs, "memory_gib", g->memory_gib);
		rowset_real(rs, "mem_bw_GBps", g->mem_bw_bytes_per_s / 1e9);
		rowset_real(rs, "tflops_fp64", g->peak_flops[PREC_FP64] / 1e12);
		rowset_real(rs, "tflops_tf32", g->peak_flops[PREC_TF32] / 1e12);
		rowset_real(rs, "tflops_bf16", g->peak_flops[PREC_BF16] / 1e12);
		rowset_real(rs, "tflops_fp8", g->peak_flops[PREC_FP8] / 1e12);
		rowset_real(rs, "tflops_fp4", g->peak_flops[PREC_FP4] / 1e12);
		rowset_real(rs, "mamf_bf16", g->mamf[PREC_BF16]);
		rowset_real(rs, "mamf_fp8", g->mamf[PREC_FP8]);
		rowset_text(rs, "scale_up", g->scale_up);
		rowset_real(rs, "scale_up_GBps", g->scale_up_bytes_per_s / 1e9);
		rowset_real(rs, "tdp_w", g->tdp_w);
		rowset_int(rs, "year", g->year);
		if (g->sms > 0)
			rowset_int(rs, "sms", g->sms);
		provenance_cells(rs, &g->id);
	}
	return rs;
}

rowset *results_catalog_fabrics(const catalog *c)
{
	static const char *const cols[] = {
		"name", "aliases", "description", "kind", "topology", "domain_gpus", "bw_GBps",
		"pair_GBps", "line_rate_gbps", "latency_us", "efficiency", "nvls_algbw_efficiency",
		"confidence", "source", NULL
	};
	rowset *rs = rowset_new(cols);
	for (size_t i = 0; i < catalog_fabric_count(c); i++) {
		const struct fabric_spec *f = catalog_fabric_at(c, i);
		rowset_add_row(rs);
		id_cells(rs, &f->id);
		rowset_text(rs, "kind", fabric_kind_names[f->kind]);
		rowset_text(rs, "topology", fabric_topology_names[f->topology]);
		rowset_int(rs, "domain_gpus", f->domain_gpus);
		rowset_real(rs, "bw_GBps", f->bw_bytes_per_s / 1e9);
		rowset_real(rs, "pair_GBps", f->pair_bytes_per_s / 1e9);
		rowset_real(rs, "line_rate_gbps", f->line_rate_gbps);
		rowset_real(rs, "latency_us", f->latency_s * 1e6);
		rowset_real(rs, "efficiency", f->efficiency);
		rowset_real(rs, "nvls_algbw_efficiency", f->nvls_algbw_efficiency);
		provenance_cells(rs, &f->id);
	}
	return rs;
}

rowset *results_catalog_storage(const catalog *c)
{
	static const char *const cols[] = {
		"name", "aliases", "description", "kind", "read_GBps_per_node", "write_GBps_per_node",
		"aggregate_GBps", "latency_ms", "confidence", "source", NULL
	};
	rowset *rs = rowset_new(cols);
	for (size_t i = 0; i < catalog_storage_count(c); i++) {
		const struct storage_spec *s = catalog_storage_at(c, i);
		rowset_add_row(rs);
		id_cells(rs, &s->id);
		rowset_text(rs, "kind", storage_kind_names[s->kind]);
		rowset_real(rs, "read_GBps_per_node", s->read_bytes_per_s_per_node / 1e9);
		rowset_real(rs, "write_GBps_per_node", s->write_bytes_per_s_per_node / 1e9);
		rowset_real(rs, "aggregate_GBps", s->aggregate_bytes_per_s / 1e9);
		rowset_real(rs, "latency_ms", s->latency_s * 1e3);
		provenance_cells(rs, &s->id);
	}
	return rs;
}

rowset *results_catalog_presets(const catalog *c)
{
	static const char *const cols[] = {
		"name", "aliases", "description", "gpu", "gpus_per_node", "scale_up", "nic",
		"nics_per_node", "topology", "oversubscription", "nodes_per_leaf", "storage",
		"provider", "offering", "node_power_kw", "confidence", "source", NULL
	};
	rowset *rs = rowset_new(cols);
	for (size_t i = 0; i < catalog_preset_count(c); i++) {
		const struct preset_spec *p = catalog_preset_at(c, i);
		char storage[CAT_STORAGE_MAX * (CAT_NAME_MAX + 1)] = "";
		size_t used = 0;
		for (int k = 0; k < p->n_storage; k++)
			used += (size_t)snprintf(storage + used, sizeof storage - used, "%s%s", k ? ";" : "", p->storage[k]);
		rowset_add_row(rs);
		id_cells(rs, &p->id);
		rowset_text(rs, "gpu", p->gpu);
		rowset_int(rs, "gpus_per_node", p->gpus_per_node);
		rowset_text(rs, "scale_up", p->scale_up);
		rowset_text(rs, "nic", p->nic);
		rowset_int(rs, "nics_per_node", p->nics_per_node);
		rowset_text(rs, "topology", topology_kind_names[p->topology.kind]);
		rowset_real(rs, "oversubscription", p->topology.oversubscription);
		rowset_int(rs, "nodes_per_leaf", p->topology.nodes_per_leaf);
		rowset_text(rs, "storage", storage);
		rowset_text(rs, "provider", p->provider);
		rowset_text(rs, "offering", p->offering);
		rowset_real(rs, "node_power_kw", p->node_power_w / 1e3);
		provenance_cells(rs, &p->id);
	}
	return rs;
}

rowset *results_catalog_prices(const catalog *c)
{
	static const char *const cols[] = {
		"provider", "offering", "gpu", "gpus_per_instance", "type", "term", "region",
		"usd_per_gpu_hour", "usd_per_gpu_hour_low", "usd_per_gpu_hour_high", "billing_s",
		"observed", "confidence", "source", "minimum_s", "billing_confidence",
		"billing_source", "spot_notice_s", "spot_notice_source", NULL
	};
	rowset *rs = rowset_new(cols);
	for (size_t i = 0; i < catalog_price_count(c); i++) {
		const struct price_spec *p = catalog_price_at(c, i);
		const struct billing_spec *b;
		double granularity_s, minimum_s;
		catalog_price_billing(c, p, &granularity_s, &minimum_s, &b);
		rowset_add_row(rs);
		rowset_text(rs, "provider", p->provider);
		rowset_text(rs, "offering", p->offering);
		rowset_text(rs, "gpu", p->gpu);
		rowset_int(rs, "gpus_per_instance", p->gpus_per_instance);
		rowset_text(rs, "type", price_type_names[p->type]);
		rowset_text(rs, "term", p->term);
		rowset_text(rs, "region", p->region);
		rowset_real(rs, "usd_per_gpu_hour", p->usd_per_gpu_hour);
		rowset_real(rs, "usd_per_gpu_hour_low", p->usd_per_gpu_hour_low);
		rowset_real(rs, "usd_per_gpu_hour_high", p->usd_per_gpu_hour_high);
		rowset_real(rs, "billing_s", granularity_s);
		rowset_text(rs, "observed", p->observed);
		rowset_text(rs, "confidence", p->confidence);
		rowset_text(rs, "source", p->source);
		rowset_real(rs, "minimum_s", minimum_s);
		rowset_text(rs, "billing_confidence", b != NULL ? b->confidence : p->confidence);
		rowset_text(rs, "billing_source", b != NULL ? b->source : p->source);
		if (p->type == PRICE_SPOT) {
			/* the preemption notice a spot price's instances get, when known */
			const struct billing_spec *n = catalog_billing_find(c, p->provider, p->type, p->term);
			if (n->spot_notice_s >= 0) {
				rowset_real(rs, "spot_notice_s", n->spot_notice_s);
				rowset_text(rs, "spot_notice_source", n->spot_notice_source);
			}
		}
	}
	return rs;
}

rowset *results_catalog_models(const catalog *c)
{
	static const char *const cols[] = {
		"name", "aliases", "description", "layers", "hidden", "heads", "kv_heads", "head_dim",
		"ffn", "mlp", "vocab", "experts", "experts_active", "expert_ffn", "shared_experts",
		"dense_layers", "params_b", "active_params_b", "max_seq_len", "confidence", "source",
		"q_lora_rank", "kv_lora_rank", "qk_rope_dim", "mtp_layers", NULL  /* added later: at the end */
	};
	rowset *rs = rowset_new(cols);
	for (size_t i = 0; i < catalog_model_count(c); i++) {
		const struct model_spec *m = catalog_model_at(c, i);
		rowset_add_row(rs);
		id_cells(rs, &m->id);
		rowset_int(rs, "layers", m->layers);
		rowset_int(rs, "hidden", m->hidden);
		rowset_int(rs, "heads", m->heads);
		rowset_int(rs, "kv_heads", m->kv_heads);
		rowset_int(rs, "head_dim", m->head_dim ? m->head_dim : m->hidden / m->heads);
		rowset_int(rs, "ffn", m->ffn);
		rowset_text(rs, "mlp", mlp_kind_names[m->mlp]);
		rowset_int(rs, "vocab", m->vocab);
		rowset_int(rs, "experts", m->experts);
		rowset_int(rs, "experts_active", m->experts_active);
		rowset_int(rs, "expert_ffn", m->expert_ffn);
		rowset_int(rs, "shared_experts", m->shared_experts);
		rowset_int(rs, "dense_layers", m->dense_layers);
		rowset_real(rs, "params_b", m->params_b);
		rowset_real(rs, "active_params_b", m->active_params_b);
		rowset_int(rs, "max_seq_len", m->max_seq_len);
		provenance_cells(rs, &m->id);
		rowset_int(rs, "q_lora_rank", m->q_lora_rank);
		rowset_int(rs, "kv_lora_rank", m->kv_lora_rank);
		rowset_int(rs, "mtp_layers", m->mtp_layers);
		rowset_int(rs, "qk_rope_dim", m->qk_rope_dim);
	}
	return rs;
}

rowset *results_catalog_sources(const catalog *c)
{
	static const char *const cols[] = { "id", "text", NULL };
	rowset *rs = rowset_new(cols);
	for (size_t i = 0; i < catalog_source_count(c); i++) {
		const struct catalog_source *s = catalog_source_at(c, i);
		rowset_add_row(rs);
		rowset_text(rs, "id", s->id);
		rowset_text(rs, "text", s->text);
	}
	return rs;
}

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
	results_head_row(rs, j->scenario, j->cluster->name, j->row_id, j->seed, outcome_names[r->outcome],
			 r->reason);
}

static const char *const shape_columns[] = {
	"scenario", "candidate", "row_id", "seed", "status", "reason",
	"gpu", "nodes", "gpus_per_node", "gpus", "scale_up", "nic", "nics_per_node",
	"precision", "peak_pflops", "hbm_total_gb", "scale_up_GBps_per_gpu",
	"scale_out_GBps_per_gpu", "usd_per_gpu_hour", "usd_per_hour", "price_basis", NULL
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
	rowset_text(rs, "precision", precision_names[j->workload->train.precision]);
	rowset_real(rs, "peak_pflops", f->peak_flops / 1e15);
	rowset_real(rs, "hbm_total_gb", f->memory_bytes / 1e9);
	rowset_real(rs, "scale_up_GBps_per_gpu", f->scale_up_bytes_per_s_per_gpu / 1e9);
	rowset_real(rs, "scale_out_GBps_per_gpu", f->scale_out_bytes_per_s_per_gpu / 1e9);
	if (f->priced) {
		rowset_real(rs, "usd_per_gpu_hour", c->price.usd_per_gpu_hour);
		rowset_real(rs, "usd_per_hour", f->usd_per_hour);
		rowset_text(rs, "price_basis", c->price.basis);
	}
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
	if (r->outcome == OUTCOME_OK) {
		rowset_real(rs, "time_us", p->time_s * 1e6);
		rowset_real(rs, "algbw_GBps", p->algbw_bytes_per_s / 1e9);
		rowset_real(rs, "busbw_GBps", p->busbw_bytes_per_s / 1e9);
		rowset_text(rs, "protocol", p->protocol);
	}
	rowset_text(rs, "fidelity", collective_fidelity_names[p->fidelity]);
	rowset_text(rs, "gpu", j->cluster->gpu.id.name);
	rowset_int(rs, "nodes", j->cluster->nodes);
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
	"global_batch_tokens", "pipeline_split", "free_stage_input", "numerics", NULL
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
	if (isfinite(t->mem.total)) {
		rowset_real(rs, "mem_per_gpu_gb", t->mem.total / 1e9);
		rowset_real(rs, "mem_per_gpu_gib", t->mem.total / GIB);
	}
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
	rowset_text(rs, "precision", precision_names[j->workload->train.precision]);
	rowset_real(rs, "gpu_memory_gib", c->gpu.memory_gib);
	if (r->cluster.priced)
		rowset_real(rs, "usd_per_hour", r->cluster.usd_per_hour);
	if (r->train.plan.tp == 0)
		return;  /* no plan at all */
	plan_cells(rs, &r->train);
	char numerics[128];
	train_plan_numerics(&j->workload->train, &r->train.plan, numerics, sizeof numerics);
	rowset_text(rs, "numerics", numerics);
	/* an unsupported job's step is still what the step model says */
	if (r->outcome != OUTCOME_OK && r->outcome != OUTCOME_UNSUPPORTED)
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
	"kv_transfer_p99_ms", "usd_per_mtok_total", "slo_met", "gpus_used", NULL
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
	if (s->weights_gb_per_gpu > 0)
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
	rowset_text(rs, "precision", precision_names[j->workload->train.precision]);
	if (r->outcome == OUTCOME_UNSUPPORTED) {
		/* nothing was simulated: what the candidate costs, nothing more */
		if (r->cluster.priced)
			rowset_real(rs, "usd_per_hour", r->cluster.usd_per_hour);
		return;
	}
	if (s->tp > 0)
		serve_layout_cells(rs, s);
	if (r->outcome != OUTCOME_OK)
		return;
	serve_metric_cells(rs, &j->workload->serving, s);
	if (d->instances > 0)
		rowset_real(rs, "usd_per_hour", d->usd_per_hour);
	if (d->priced) {
		rowset_real(rs, "usd_per_mtok", d->usd_per_mtok);
		rowset_real(rs, "usd_per_mtok_total", d->usd_per_mtok_total);
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
	"class", "idle_usd", NULL
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
	if (r->outcome == OUTCOME_OK)
		fleet_totals_cells(rs, j, r);
	else if (r->outcome == OUTCOME_INVALID)
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
		if (r->outcome == OUTCOME_OK && t < m->n_teams)
			fleet_group_cells(rs, j, f, &m->teams[t], !spec->objective_exempt_team[t]);
	}
	/* and a class's row, whatever the status: 1 + teams + classes rows */
	for (int k = 0; k < spec->n_classes; k++) {
		bool have = r->outcome == OUTCOME_OK && k < m->n_classes;
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
			       .brief = "candidate,status,gpus,replicas,throughput_tok_s,ttft_p50_ms,"
					"tpot_p50_ms,slo_attainment,usd_per_mtok,reason" },
	[RESULT_COLLECTIVE] = { .columns = collective_columns, .row = collective_row,
				.brief = "candidate,status,op,algorithm,gpus,bytes,time_us,busbw_GBps,reason" },
	[RESULT_FLEET] = { .columns = fleet_columns, .row = fleet_row,
			   .brief = "candidate,team,class,status,nodes,jobs_done,queue_wait_p50_h,queue_wait_p90_h,"
				    "utilization,usd_total,sized_nodes,reason" },
};

/*
 * Every column a result row, a sweep or validate can have: its kind (how a
 * table shows it, which JSON type it is), its unit as --columns help says
 * it, and what it means. One entry per column name; a name means the same
 * in every kind that has it.
 */
static const struct results_column columns[] = {
	/* the six leading columns */
	{ "scenario", UNIT_TEXT, "text", "the scenario's name (its file name without .json)" },
	{ "candidate", UNIT_TEXT, "text", "the candidate cluster's name" },
	{ "row_id", UNIT_ID, "id", "the row's number (in a sweep: the point's)" },
	{ "seed", UNIT_ID, "id", "the random seed the row was computed with" },
	{ "status", UNIT_TEXT, "text", "ok, oom, invalid, unsupported or error (docs/reference/results.md)" },
	{ "reason", UNIT_TEXT, "text", "why the status, or what is worth knowing about an ok row" },
	/* the cluster */
	{ "gpu", UNIT_TEXT, "text", "the GPU's catalog name" },
	{ "nodes", UNIT_COUNT, "count", "nodes in the candidate" },
	{ "gpus_per_node", UNIT_COUNT, "count", "GPUs in each node" },
	{ "gpus", UNIT_COUNT, "count", "GPUs in all" },
	{ "scale_up", UNIT_TEXT, "text", "the fabric inside a node (NVLink, NVSwitch, PCIe)" },
	{ "nic", UNIT_TEXT, "text", "the network card between nodes" },
	{ "nics_per_node", UNIT_COUNT, "count", "network cards in each node" },
	{ "precision", UNIT_TEXT, "text", "the workload's number format (bf16, fp8...)" },
	{ "peak_pflops", UNIT_NUMBER, "PFLOP/s", "dense peak of all GPUs in the workload's precision" },
	{ "hbm_total_gb", UNIT_NUMBER, "GB (1e9 bytes)", "GPU memory of all GPUs" },
	{ "scale_up_GBps_per_gpu", UNIT_NUMBER, "GB/s", "scale-up bandwidth of one GPU" },
	{ "scale_out_GBps_per_gpu", UNIT_NUMBER, "GB/s", "scale-out (between nodes) bandwidth of one GPU" },
	{ "usd_per_gpu_hour", UNIT_USD, "USD", "price of one GPU for an hour" },
	{ "usd_per_hour", UNIT_USD, "USD", "price of the whole candidate for an hour (serving: of the whole nodes the replicas occupy)" },
	{ "price_basis", UNIT_TEXT, "text", "where the price comes from (catalog entry and source, or the scenario)" },
	/* a collective */
	{ "op", UNIT_TEXT, "text", "the collective (all_reduce, all_gather...)" },
	{ "algorithm", UNIT_TEXT, "text", "ring, tree, hierarchical or nvls (auto: the fastest)" },
	{ "bytes", UNIT_COUNT, "bytes", "the message size" },
	{ "time_us", UNIT_NUMBER, "us", "time of one collective" },
	{ "algbw_GBps", UNIT_NUMBER, "GB/s", "algorithm bandwidth: size / time (nccl-tests)" },
	{ "busbw_GBps", UNIT_NUMBER, "GB/s", "bus bandwidth: algbw x the op's factor (nccl-tests)" },
	{ "fidelity", UNIT_TEXT, "text", "analytic (alpha-beta) or flows (through the simulated fabric)" },
	{ "protocol", UNIT_TEXT, "text", "NCCL's protocol (LL, LL128, Simple)" },
	/* training: the plan */
	{ "tp", UNIT_COUNT, "count", "tensor-parallel degree" },
	{ "pp", UNIT_COUNT, "count", "pipeline-parallel stages" },
	{ "vpp", UNIT_COUNT, "count", "virtual pipeline stages per GPU (interleaved schedule)" },
	{ "dp", UNIT_COUNT, "count", "data-parallel replicas" },
	{ "cp", UNIT_COUNT, "count", "context-parallel degree" },
	{ "ep", UNIT_COUNT, "count", "expert-parallel degree" },
	{ "zero", UNIT_COUNT, "stage", "ZeRO stage (0: none, 1: optimizer sharded, 3: everything)" },
	{ "schedule", UNIT_TEXT, "text", "pipeline schedule (gpipe, 1f1b, interleaved, zb-h1)" },
	{ "recompute", UNIT_TEXT, "text", "activation recomputation (none, selective, full)" },
	{ "micro_batch", UNIT_COUNT, "sequences", "sequences per micro-batch" },
	{ "mem_per_gpu_gb", UNIT_NUMBER, "GB (1e9 bytes)", "memory one GPU needs (the same as mem_per_gpu_gib, in 1e9 bytes)" },
	/* training: the step */
	{ "step_time_s", UNIT_NUMBER, "s", "time of one training step" },
	{ "tokens_per_s", UNIT_NUMBER, "tokens/s", "training throughput of the whole cluster" },
	{ "tflops_per_gpu", UNIT_NUMBER, "TFLOP/s", "model FLOP/s per GPU" },
	{ "mfu", UNIT_FRACTION, "fraction", "model FLOPs utilization: model FLOP/s / dense peak" },
	{ "hfu", UNIT_FRACTION, "fraction", "hardware FLOPs utilization (with recompute) / dense peak" },
	/* training: the whole run */
	{ "steps", UNIT_COUNT, "count", "steps of the whole run (tokens / global batch, rounded up)" },
	{ "wall_time_p50_h", UNIT_HOURS, "h", "wall-clock time of the whole run, median" },
	{ "wall_time_p90_h", UNIT_HOURS, "h", "wall-clock time of the whole run, 90th percentile" },
	{ "ettr", UNIT_FRACTION, "fraction", "effective training time ratio: productive time / wall time" },
	{ "gpu_hours", UNIT_COUNT, "GPU-hours", "GPUs x wall time" },
	{ "cost_usd_p50", UNIT_USD, "USD", "rental cost of the whole run, median: usd_per_hour x billed_h" },
	{ "cost_usd_p90", UNIT_USD, "USD", "rental cost of the whole run, 90th percentile" },
	{ "usd_per_mtok", UNIT_USD, "USD", "cost per million tokens (serving: per million output tokens)" },
	{ "frac_compute", UNIT_FRACTION, "fraction", "share of the GPUs' wall time spent computing" },
	{ "frac_comm_exposed", UNIT_FRACTION, "fraction", "share spent in communication not hidden behind compute" },
	{ "frac_bubble", UNIT_FRACTION, "fraction", "share spent idle in the pipeline's bubble" },
	{ "frac_checkpoint", UNIT_FRACTION, "fraction", "share spent writing checkpoints" },
	{ "frac_lost_to_failures", UNIT_FRACTION, "fraction", "share lost to failures and restarts" },
	{ "frac_idle", UNIT_FRACTION, "fraction", "share spent otherwise idle (the frac_ columns add up to 1)" },
	{ "t_compute_s", UNIT_NUMBER, "s", "the step's kernels, recompute included" },
	{ "t_optimizer_s", UNIT_NUMBER, "s", "the step's optimizer update" },
	{ "t_comm_tp_s", UNIT_NUMBER, "s", "the step's tensor-parallel collectives on the critical path" },
	{ "t_comm_ep_s", UNIT_NUMBER, "s", "the step's expert-parallel all-to-alls on the critical path" },
	{ "t_comm_cp_s", UNIT_NUMBER, "s", "the step's context-parallel transfers on the critical path" },
	{ "t_comm_dp_s", UNIT_NUMBER, "s", "the step's data-parallel reductions not hidden by the backward pass (with ZeRO-3, also the per-layer weight gathers and gradient reduce-scatters not hidden)" },
	{ "t_bubble_s", UNIT_NUMBER, "s", "the step's pipeline bubble" },
	{ "t_wait_s", UNIT_NUMBER, "s", "the rest of the step (waits)" },
	{ "t_straggler_s", UNIT_NUMBER, "s", "the step's wait for the slowest GPU of the job: sigma x E[max of N normal draws] x t_compute_s (docs/explanation/training.md)" },
	{ "recompute_modules", UNIT_TEXT, "text", "what a selective recompute recomputes, Megatron-Core's --recompute-modules joined by + (core_attn by default: docs/explanation/training.md); empty without a selective recompute" },
	{ "expert_tp", UNIT_COUNT, "count", "the experts' tensor-parallel degree (MoE parallel folding; = tp when not folded: docs/explanation/training.md); empty without expert parallelism" },
	{ "micro_batches", UNIT_COUNT, "count", "micro-batches per step on each pipeline" },
	{ "sequence_parallel", UNIT_BOOL, "boolean", "sequence parallelism with tensor parallelism" },
	{ "plans_tried", UNIT_COUNT, "count", "plans that divide the cluster, searched when a plan field is auto" },
	{ "mem_per_gpu_gib", UNIT_NUMBER, "GiB (2^30 bytes)", "memory one GPU needs, in the unit of gpu_memory_gib" },
	{ "gpu_memory_gib", UNIT_NUMBER, "GiB (2^30 bytes)", "memory of one GPU (the catalog's memory_gib)" },
	{ "billed_h", UNIT_HOURS, "h", "time each instance is billed for: wall time, median, rounded up to the provider's billing granularity, at least its minimum" },
	{ "meets_deadline_p50", UNIT_BOOL, "boolean", "the median wall time is at most objective.deadline_h (empty without a deadline or a wall time)" },
	{ "meets_deadline_p90", UNIT_BOOL, "boolean", "the 90th-percentile wall time is at most objective.deadline_h (empty without a deadline or a wall time)" },
	{ "meets_budget_p50", UNIT_BOOL, "boolean", "the median cost is at most objective.budget_usd (empty without a budget or a price)" },
	{ "meets_budget_p90", UNIT_BOOL, "boolean", "the 90th-percentile cost is at most objective.budget_usd (empty without a budget or a price)" },
	{ "t_data_stall_s", UNIT_NUMBER, "s", "the step's wait for its data from workload.data's tier (part of step_time_s; empty without a data block)" },
	{ "frac_data_stall", UNIT_FRACTION, "fraction", "share of the GPUs' wall time waiting for data (one of the frac_ columns that add up to 1; empty without a data block)" },
	{ "global_batch_tokens", UNIT_COUNT, "tokens", "the global batch the plan runs with (rounded with global_batch_tokens.round)" },
	{ "pipeline_split", UNIT_TEXT, "text", "how the layers are cut into pipeline stages: layers (evenly) or embedding+loss (each takes a layer's place); empty at pp 1 or with a pipeline_layout" },
	{ "free_stage_input", UNIT_BOOL, "boolean", "each pipeline chunk's input freed after its first layer (Llama 3's early deallocation)" },
	{ "numerics", UNIT_TEXT, "text", "the plan's settings that change numerics from Megatron's defaults, joined by + (grad_reduce_bf16, optimizer_moments_bf16, moe_dispatch_fp8, fp8_activation_cache; empty: none; docs/explanation/training.md)" },
	/* plan (docs/explanation/planning.md) */
	{ "front", UNIT_TEXT, "text", "on the time/cost Pareto front of the P50 figures (p50), the P90 ones (p90) or both (p50+p90); serving: yes (one front of TTFT P99 and USD per hour)" },
	{ "plan_rank", UNIT_COUNT, "rank", "place on the P50 front by cost, 1 the cheapest (empty off it)" },
	{ "why", UNIT_TEXT, "text", "why this shape is a choice, against its neighbour on the front" },
	{ "price_type", UNIT_TEXT, "text", "the shape's price type: on-demand, spot or reserved (the one it asks for when the catalog cannot make it)" },
	{ "fate", UNIT_TEXT, "text", "what the search did with the shape: evaluated, or why not: unresolved, unpriced, no_memory, past_deadline, over_budget, dominated" },
	{ "fate_reason", UNIT_TEXT, "text", "why the shape is not on the front, with the figures (empty on it)" },
	{ "candidate_json", UNIT_TEXT, "text", "the candidate object of the shape: clustersim run SCENARIO --set 'candidates=[candidate_json]' evaluates it alone" },
	/* plan, serving with search.disaggregated (docs/explanation/planning.md): the cheapest split of the row's instance type */
	{ "disagg_prefill_replicas", UNIT_COUNT, "count", "the cheapest prefill/decode split of the row's instance type that meets the SLO on fewer instances than its cheapest colocated deployment: its prefill replicas (empty: none)" },
	{ "disagg_decode_replicas", UNIT_COUNT, "count", "that split's decode replicas" },
	{ "disagg_prefill_tp", UNIT_COUNT, "count", "that split's tensor-parallel GPUs per prefill replica" },
	{ "disagg_decode_tp", UNIT_COUNT, "count", "that split's tensor-parallel GPUs per decode replica" },
	{ "disagg_gpus", UNIT_COUNT, "count", "GPUs that split's replicas occupy" },
	{ "disagg_usd_per_hour", UNIT_USD, "USD", "that split's whole instances for an hour" },
	{ "disagg_usd_per_mtok", UNIT_USD, "USD", "that split's cost per million output tokens" },
	{ "disagg_ttft_p99_ms", UNIT_NUMBER, "ms", "that split's time to first token (KV transfer included), 99th percentile" },
	{ "disagg_tpot_p99_ms", UNIT_NUMBER, "ms", "that split's time per output token, 99th percentile" },
	{ "disagg_kv_transfer_p99_ms", UNIT_NUMBER, "ms", "that split's KV cache move from prefill to decode, 99th percentile" },
	{ "disagg_colocated_replicas", UNIT_COUNT, "count", "the cheapest colocated deployment of the row's instance type at any tp (the row's, or fewer instances at another tp): its replicas" },
	{ "disagg_colocated_tp", UNIT_COUNT, "count", "that colocated deployment's tensor-parallel GPUs per replica" },
	{ "disagg_colocated_usd_per_hour", UNIT_USD, "USD", "that colocated deployment's whole instances for an hour" },
	{ "disagg_saving", UNIT_FRACTION, "fraction", "1 - the split's disagg_usd_per_hour / disagg_colocated_usd_per_hour" },
	/* inference */
	{ "replicas", UNIT_COUNT, "count", "model replicas serving requests" },
	{ "rate_per_s", UNIT_NUMBER, "requests/s", "request arrival rate" },
	{ "throughput_tok_s", UNIT_NUMBER, "tokens/s", "tokens processed per second, input and output" },
	{ "output_tok_s", UNIT_NUMBER, "tokens/s", "tokens generated per second" },
	{ "ttft_p50_ms", UNIT_NUMBER, "ms", "time to first token, median" },
	{ "ttft_p99_ms", UNIT_NUMBER, "ms", "time to first token, 99th percentile" },
	{ "tpot_p50_ms", UNIT_NUMBER, "ms", "time per output token, median" },
	{ "tpot_p99_ms", UNIT_NUMBER, "ms", "time per output token, 99th percentile" },
	{ "e2e_p50_s", UNIT_NUMBER, "s", "request latency end to end, median" },
	{ "e2e_p99_s", UNIT_NUMBER, "s", "request latency end to end, 99th percentile" },
	{ "slo_attainment", UNIT_FRACTION, "fraction", "share of requests that meet the latency objectives" },
	{ "kv_util", UNIT_FRACTION, "fraction", "share of the KV cache's blocks in use, time-averaged" },
	{ "prefill_replicas", UNIT_COUNT, "count", "disaggregated serving: replicas that compute prompts" },
	{ "decode_replicas", UNIT_COUNT, "count", "disaggregated serving: replicas that generate the output tokens" },
	{ "requests", UNIT_COUNT, "count", "requests served (all sent ones finish)" },
	{ "request_per_s", UNIT_NUMBER, "requests/s", "requests completed per second (completed / first arrival to last completion)" },
	{ "goodput_req_s", UNIT_NUMBER, "requests/s", "requests completed per second that meet every SLO" },
	{ "ttft_p90_ms", UNIT_NUMBER, "ms", "time to first token, 90th percentile" },
	{ "tpot_p90_ms", UNIT_NUMBER, "ms", "time per output token, 90th percentile" },
	{ "itl_p50_ms", UNIT_NUMBER, "ms", "inter-token latency (every gap between two output tokens), median" },
	{ "itl_p90_ms", UNIT_NUMBER, "ms", "inter-token latency, 90th percentile" },
	{ "itl_p99_ms", UNIT_NUMBER, "ms", "inter-token latency, 99th percentile" },
	{ "e2e_p90_s", UNIT_NUMBER, "s", "request latency end to end, 90th percentile" },
	{ "mean_in_system", UNIT_NUMBER, "requests", "requests waiting or running, time-averaged (Little's law: rate x mean latency)" },
	{ "gpu_busy", UNIT_FRACTION, "fraction", "share of the replicas' time spent in batch steps" },
	{ "flops_util", UNIT_FRACTION, "fraction", "achieved FLOP/s / the replicas' dense peak, over the run" },
	{ "hbm_util", UNIT_FRACTION, "fraction", "achieved HBM bytes/s / the replicas' HBM bandwidth, over the run" },
	{ "kv_util_peak", UNIT_FRACTION, "fraction", "share of the KV cache's blocks in use, at the most" },
	{ "kv_capacity_tokens", UNIT_NUMBER, "tokens", "tokens the KV cache of one replica holds" },
	{ "weights_gb_per_gpu", UNIT_NUMBER, "GB (1e9 bytes)", "model weights held by one GPU" },
	{ "preemptions", UNIT_COUNT, "count", "sequences evicted from the KV cache and recomputed" },
	{ "kv_transfer_p50_ms", UNIT_NUMBER, "ms", "disaggregated: moving a request's KV cache from prefill to decode, median" },
	{ "kv_transfer_p99_ms", UNIT_NUMBER, "ms", "disaggregated: moving a request's KV cache, 99th percentile" },
	{ "usd_per_mtok_total", UNIT_USD, "USD", "serving: cost per million prompt and output tokens" },
	{ "slo_met", UNIT_BOOL, "boolean", "serving: the p99 TTFT and TPOT are within workload.serving.slo (empty without an slo)" },
	{ "gpus_used", UNIT_COUNT, "count", "serving: GPUs the replicas occupy (the dollars are for the whole nodes they are on)" },
	/* fleet */
	{ "jobs_done", UNIT_COUNT, "count", "fleet: jobs (submitted after warmup_h) that completed; a team's row: that team's" },
	{ "queue_wait_p50_h", UNIT_HOURS, "h", "fleet: submission to start (all the job's GPUs at once), median" },
	{ "queue_wait_p90_h", UNIT_HOURS, "h", "fleet: submission to start, 90th percentile (what objective.wait_p90_h bounds)" },
	{ "queue_wait_p99_h", UNIT_HOURS, "h", "fleet: submission to start, 99th percentile" },
	{ "queue_wait_mean_h", UNIT_HOURS, "h", "fleet: submission to start, mean" },
	{ "jct_p50_h", UNIT_HOURS, "h", "fleet: job completion time (submission to completion), median" },
	{ "jct_p90_h", UNIT_HOURS, "h", "fleet: job completion time, 90th percentile" },
	{ "utilization", UNIT_FRACTION, "fraction", "fleet: allocated GPU-hours / held GPU-hours" },
	{ "busy_utilization", UNIT_FRACTION, "fraction", "fleet: busy GPU-hours (allocated minus time lost to failures and restarts) / held" },
	{ "idle_gpu_hours", UNIT_COUNT, "GPU-hours", "fleet: held minus allocated: billed, unused" },
	{ "held_gpu_hours", UNIT_COUNT, "GPU-hours", "fleet: the cluster's GPUs x the window it is held for" },
	{ "busy_gpu_hours", UNIT_COUNT, "GPU-hours", "fleet: allocated GPU-hours minus those lost to failures and restarts" },
	{ "fragmentation", UNIT_FRACTION, "fraction", "fleet: time-mean fraction of GPUs free while a waiting job could not start" },
	{ "makespan_h", UNIT_HOURS, "h", "fleet: first submission to last completion" },
	{ "usd_per_job", UNIT_USD, "USD", "fleet: usd_total / jobs_done" },
	{ "usd_total", UNIT_USD, "USD", "fleet: the held cluster's dollars over the window (billing rounding included); a team's row: its GPU-hours' dollars plus its share of the idle ones, by use (the teams' add up to the fleet's)" },
	{ "meets_objective", UNIT_BOOL, "boolean", "fleet: every job submitted finished and queue_wait_p90_h is at most workload.fleet.objective.wait_p90_h; a team's or class's row: its own (empty when objective.applies_to leaves it out); the fleet's row: for every group the objective applies to, by default the fleet, every team and every class (true without an objective)" },
	{ "objective_wait_p90_h", UNIT_HOURS, "h", "fleet: the objective's bound on the P90 queue wait" },
	{ "team", UNIT_TEXT, "text", "fleet: the team of a team's row (empty on the fleet's row)" },
	{ "jobs_submitted", UNIT_COUNT, "count", "fleet: jobs submitted after warmup_h" },
	{ "failures", UNIT_COUNT, "count", "fleet: node failures during the window" },
	{ "sized_nodes", UNIT_COUNT, "count", "fleet: the fewest nodes of the candidate's node type whose P90 queue wait meets the objective for every group it applies to (the same jobs); also on an invalid candidate too small for the jobs" },
	{ "sized_usd", UNIT_USD, "USD", "fleet: the dollars of sized_nodes over the window" },
	{ "per_team_nodes", UNIT_COUNT, "count", "fleet: one cluster per team: the sum of each team's fewest nodes meeting the objective alone" },
	{ "per_team_usd", UNIT_USD, "USD", "fleet: the dollars of those per-team clusters" },
	{ "peak_nodes", UNIT_COUNT, "count", "fleet: rent for the peak: the nodes of the most GPUs the jobs ever ask at once (as if none waited), services included" },
	{ "peak_usd", UNIT_USD, "USD", "fleet: the dollars of peak_nodes over the window" },
	{ "trace_wait_p50_h", UNIT_HOURS, "h", "fleet: the median wait the trace itself recorded (Start - Submit), beside the simulated one" },
	{ "class", UNIT_TEXT, "text", "fleet: the job class of a class's row (jobs[].name; empty on the fleet's and the teams' rows); its team cell is its jobs' team, several joined by '+'" },
	{ "idle_usd", UNIT_USD, "USD", "fleet: of usd_total, the idle GPU-hours' share (usd_total minus the group's own GPU-hours at the held hours' rate); the fleet's row: all the idle GPU-hours' dollars" },
	/* a fleet's utilization over time (run --series) */
	{ "time_h", UNIT_HOURS, "h", "fleet series: the start of the bucket, from the first submission's clock 0" },
	{ "allocated_frac", UNIT_FRACTION, "fraction", "fleet series: the mean fraction of the candidate's GPUs allocated to jobs and services in the bucket" },
	{ "busy_frac", UNIT_FRACTION, "fraction", "fleet series: the same, less restarts and work thrown away by preemptions and failures" },
	{ "queued_jobs", UNIT_NUMBER, "jobs", "fleet series: the mean number of jobs waiting in the bucket" },
	/* validate */
	{ "id", UNIT_TEXT, "text", "the published figure's id" },
	{ "metric", UNIT_TEXT, "text", "what the figure measures (its unit is in the name)" },
	{ "published", UNIT_NUMBER, "the metric's", "the published value" },
	{ "predicted", UNIT_NUMBER, "the metric's", "clustersim's value for it" },
	{ "error_pct", UNIT_NUMBER, "%", "(predicted - published) / published x 100" },
	{ "source", UNIT_TEXT, "text", "where the figure was published" },
	/* a sweep */
	{ "sweep_fingerprint", UNIT_TEXT, "hex", "what the sweep's rows were computed from (16 hex digits, FNV-1a 64)" },
};

/* set:PATH, one per varied path of a sweep, has its own entry. */
static const struct results_column set_column = {
	"set:PATH", UNIT_TEXT, "as given", "the sweep point's value of PATH (JSON, or a plain string)"
};

const struct results_column *results_column_info(const char *name)
{
	for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
		if (strcmp(columns[i].name, name) == 0)
			return &columns[i];
	if (strncmp(name, "set:", 4) == 0)
		return &set_column;
	return NULL;
}

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

rowset *results_new(enum result_kind kind)
{
	rowset *rs = rowset_new(formats[kind].columns);
	results_set_units(rs);
	return rs;
}

void results_row(rowset *rs, const struct job *j, const struct result *r)
{
	formats[r->kind].row(rs, j, r);
}
