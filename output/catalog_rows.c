#include "catalog_rows.h"

#include <stdio.h>

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

rowset *catalog_rows_gpus(const catalog *c)
{
	static const char *const cols[] = {
		"name", "aliases", "description", "vendor", "memory_gib", "mem_bw_GBps", "tflops_fp64",
		"tflops_tf32", "tflops_bf16", "tflops_fp8", "tflops_fp4", "mamf_bf16", "mamf_fp8",
		"scale_up", "scale_up_GBps", "tdp_w", "year", "confidence", "source",
		/* additions */
		"sms", "mamf_fp4", "mamf_fp4_basis", NULL
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
		if (g->peak_flops[PREC_FP4] > 0) {
			/* the FP4 GEMM fraction used: measured (catalog mamf_fp4) or assumed */
			rowset_real(rs, "mamf_fp4", g->mamf[PREC_FP4]);
			rowset_text(rs, "mamf_fp4_basis", g->mamf_fp4_assumed ? "assumed" : "measured");
		}
		provenance_cells(rs, &g->id);
	}
	return rs;
}

rowset *catalog_rows_fabrics(const catalog *c)
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

rowset *catalog_rows_storage(const catalog *c)
{
	static const char *const cols[] = {
		"name", "aliases", "description", "kind", "read_GBps_per_node", "write_GBps_per_node",
		"aggregate_GBps", "latency_ms", "confidence", "source",
		/* additions: what holding data there and moving it out cost (empty: no price) */
		"usd_per_tb_month", "egress_usd_per_gb", "price_source", NULL
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
		if (s->usd_per_tb_month >= 0)
			rowset_real(rs, "usd_per_tb_month", s->usd_per_tb_month);
		if (s->egress_usd_per_gb >= 0)
			rowset_real(rs, "egress_usd_per_gb", s->egress_usd_per_gb);
		rowset_text(rs, "price_source", s->price_source);
	}
	return rs;
}

rowset *catalog_rows_presets(const catalog *c)
{
	static const char *const cols[] = {
		"name", "aliases", "description", "gpu", "gpus_per_node", "scale_up", "nic",
		"nics_per_node", "topology", "oversubscription", "nodes_per_leaf", "storage",
		"provider", "offering", "node_power_kw", "confidence", "source",
		/* additions: a node's list price for the owned basis (empty: none) */
		"purchase_usd", "purchase_source", NULL
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
		if (p->purchase_usd > 0)
			rowset_real(rs, "purchase_usd", p->purchase_usd);
		rowset_text(rs, "purchase_source", p->purchase_source);
	}
	return rs;
}

rowset *catalog_rows_prices(const catalog *c)
{
	static const char *const cols[] = {
		"provider", "offering", "gpu", "gpus_per_instance", "type", "term", "region",
		"usd_per_gpu_hour", "usd_per_gpu_hour_low", "usd_per_gpu_hour_high", "billing_s",
		"observed", "confidence", "source", "minimum_s", "billing_confidence",
		"billing_source", "spot_notice_s", "spot_notice_source",
		"status", NULL  /* added later: at the end */
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
		rowset_text(rs, "status", catalog_price_status(c, p));
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

rowset *catalog_rows_models(const catalog *c)
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

rowset *catalog_rows_sources(const catalog *c)
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

rowset *catalog_rows_engines(const catalog *c)
{
	static const char *const cols[] = {
		"name", "aliases", "description", "kind", "step_overhead_ms", "seq_overhead_us", "kernel_us",
		"gemm_over_mamf", "hbm_efficiency", "overlap_slowdown", "ep_overlap_slowdown", "straggler_sigma",
		"confidence", "source", "calibration", NULL
	};
	rowset *rs = rowset_new(cols);
	for (size_t i = 0; i < catalog_engine_count(c); i++) {
		const struct engine_spec *e = catalog_engine_at(c, i);
		rowset_add_row(rs);
		id_cells(rs, &e->id);
		if (e->kind == ENGINE_SERVING) {
			rowset_text(rs, "kind", "serving");
			rowset_real(rs, "step_overhead_ms", e->step_overhead_s * 1e3);
			rowset_real(rs, "seq_overhead_us", e->seq_overhead_s * 1e6);
			rowset_real(rs, "kernel_us", e->kernel_s * 1e6);
			rowset_real(rs, "gemm_over_mamf", e->gemm_over_mamf);
			rowset_real(rs, "hbm_efficiency", e->hbm_efficiency);
		} else {
			rowset_text(rs, "kind", "training");
			rowset_real(rs, "overlap_slowdown", e->overlap_slowdown);
			rowset_real(rs, "ep_overlap_slowdown", e->ep_overlap_slowdown);
			rowset_real(rs, "straggler_sigma", e->straggler_sigma);
		}
		provenance_cells(rs, &e->id);
		rowset_text(rs, "calibration", e->calibration);
	}
	return rs;
}
