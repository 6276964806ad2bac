#include "run_storage.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/cost/storage_cost.h"
#include "models/run/ckpt.h"
#include "util/text.h"

/* Round an interval up to whole steps (a checkpoint is taken between steps). */
static double whole_steps(double s, double step_s)
{
	return step_s > 0 ? ceil(s / step_s - 1e-9) * step_s : s;
}

static bool fail_note(struct run_result *out, const char *msg)
{
	out->failed = true;
	text_setf(out->note, sizeof out->note, "%s", msg);
	return false;
}

/* The mean time between interruptions (failures and preemptions); 0 = none. */
double run_storage_interrupt_mtbf_s(const struct run_model *m)
{
	double rate = (m->job_mtbf_s > 0 ? 1 / m->job_mtbf_s : 0) + (m->preempt_mean_s > 0 ? 1 / m->preempt_mean_s : 0);
	if (m->preempt_mean_s > 0 && m->job_mtbf_s > 0)
		return 1 / rate;
	return m->preempt_mean_s > 0 ? m->preempt_mean_s : m->job_mtbf_s;
}

/*
 * An asynchronous write that leaves the node through its scale-out NICs
 * (every tier but node-local NVMe: a parallel file system, managed Lustre
 * or an object store is reached over the network) takes a share s of the
 * node's NIC bandwidth B for the write's duration: its mean rate per node
 * r = bytes / nodes / write time, s = r / B, at most 1/2 (max-min fair
 * sharing leaves the training's flows at least half). The step's exposed
 * scale-out communication (the data-parallel reduction, across nodes when
 * there are several) then runs at (1 - s) B: it grows from c to c / (1 - s),
 * so a step takes d = c s / (1 - s) more. Over a write of W s of wall time,
 * training keeps W step / (step + d) of its progress; the rest,
 * W d / (step + d), is taken as a stall after the device-to-host copy
 * (frac_checkpoint), the write's end staying where it was.
 */
static void contention(const struct cluster_spec *c, int tier, double bytes, double write_s,
		       struct run_model *m, struct run_result *out)
{
	const struct storage_spec *st = &c->storage[tier].spec;
	double nic_bps = c->has_nic ? c->nic.bw_bytes_per_s * c->nics_per_node : 0;
	double transfer_s = write_s - st->latency_s;
	double exposed = c->nodes > 1 ? m->br.comm_dp : 0;
	if (st->kind == STORAGE_LOCAL_NVME || !(nic_bps > 0) || !(transfer_s > 0) || !(m->step_s > 0))
		return;
	double share = fmin(bytes / c->nodes / transfer_s / nic_bps, 0.5);
	double extra_s = exposed * share / (1 - share);
	out->ckpt_nic_share = share;
	m->slow_s = out->ckpt_contention_s = write_s * extra_s / (m->step_s + extra_s);
}

/* The candidate's first file system tier (parallel-fs or managed-lustre), or -1. */
int run_storage_file_system_tier(const struct cluster_spec *c)
{
	for (int i = 0; i < c->n_storage; i++) {
		enum storage_kind k = c->storage[i].spec.kind;
		if (k == STORAGE_PARALLEL_FS || k == STORAGE_MANAGED_LUSTRE)
			return i;
	}
	return -1;
}

/*
 * The checkpoints of a run that is interrupted (failures or preemptions)
 * and gives no workload.checkpoint: without any, every interruption would
 * restart it from its first step. Taken: synchronous checkpoints (the
 * DGX SuperPOD reference architecture: checkpoints "are typically written
 * synchronously") to the candidate's parallel file system at Daly's
 * interval ("auto"). False, with the note saying what to write, when the
 * candidate has no file system tier.
 */
static bool default_checkpoint(const struct cluster_spec *c, struct checkpoint_spec *cs, struct run_result *out)
{
	int k = run_storage_file_system_tier(c);
	if (k < 0) {
		char tiers[160] = "";
		const char *hint = c->n_storage > 0 ? c->storage[0].tier : "pfs";
		for (int i = 0; i < c->n_storage; i++) {
			size_t used = strlen(tiers);
			snprintf(tiers + used, sizeof tiers - used, "%s\"%s\"", i ? ", " : "", c->storage[i].tier);
			if (c->storage[i].spec.kind == STORAGE_OBJECT)
				hint = c->storage[i].tier;  /* durable, unlike node-local disks */
		}
		char msg[sizeof out->note];
		snprintf(msg, sizeof msg, "failures or preemptions need checkpoints and workload.checkpoint is not "
			 "given, and this candidate has no parallel file system tier to assume (its tiers: %s): write "
			 "\"checkpoint\": {\"tier\": \"%s\", \"interval_s\": \"auto\"} with a tier it has, or give "
			 "it a parallel-fs tier", c->n_storage > 0 ? tiers : "none", hint);
		return fail_note(out, msg);
	}
	memset(cs, 0, sizeof *cs);
	cs->enabled = true;
	cs->interval_s = -1;
	text_copy(cs->tier, sizeof cs->tier, c->storage[k].tier);
	out->ckpt_assumed = true;
	return true;
}

/* The checkpoint part of m from the run spec and the candidate. */
bool run_storage_checkpoints(const struct run_spec *run, const struct train_spec *w, const struct cluster_spec *c,
			     const struct train_result *r, struct run_model *m, struct run_result *out)
{
	const struct checkpoint_spec *cs = &run->checkpoint;
	struct checkpoint_spec assumed;
	if (!cs->enabled) {
		if (cs->given || !(run_storage_interrupt_mtbf_s(m) > 0))
			return true;
		if (!default_checkpoint(c, &assumed, out))
			return false;
		cs = &assumed;
	}
	int tier = ckpt_tier_index(c, cs->tier);
	if (tier < 0) {
		char msg[200];
		text_setf(msg, sizeof msg, "checkpoint tier \"%s\" is not a storage tier of this candidate", cs->tier);
		return fail_note(out, msg);
	}
	double bytes = ckpt_bytes(w, &r->plan);
	double write_s = ckpt_transfer_s(c, tier, c->nodes, bytes, true);
	out->ckpt_bytes = bytes;
	out->ckpt_write_s = write_s;
	out->ckpt_read_s = m->read_s = ckpt_transfer_s(c, tier, c->nodes, bytes, false);
	if (cs->async) {
		double d2h = ckpt_d2h_s(c, bytes);
		if (d2h < 0)
			return fail_note(out, "an asynchronous checkpoint needs the GPU's host link (PCIe) rate");
		m->stall_s = d2h;
		m->write_s = write_s;
		contention(c, tier, bytes, write_s, m, out);
	} else {
		m->stall_s = write_s;
		m->write_s = 0;
	}
	out->ckpt_stall_s = m->stall_s;
	/* a whole checkpoint, taken in a spot notice: the stall, then the write;
	 * none to node-local disks, which leave with the instance */
	m->local_ckpt = out->ckpt_local = c->storage[tier].spec.kind == STORAGE_LOCAL_NVME;
	m->save_s = out->ckpt_save_s = m->local_ckpt ? 0 : m->stall_s + m->write_s;
	double interval = cs->interval_s;
	if (cs->interval_steps > 0)
		interval = (double)cs->interval_steps * m->step_s;
	else if (interval < 0)  /* "auto": Daly, or the whole run when nothing fails */
		interval = run_storage_interrupt_mtbf_s(m) > 0 ? ckpt_daly_s(m->stall_s, run_storage_interrupt_mtbf_s(m)) : m->steps * m->step_s;
	/* a background write must end before the next checkpoint starts */
	if (cs->async && interval < write_s)
		interval = write_s;
	m->interval_s = whole_steps(interval, m->step_s);
	out->ckpt_interval_s = m->interval_s;
	text_copy(out->ckpt_tier, sizeof out->ckpt_tier, c->storage[tier].tier);
	return true;
}

/* Bytes a training token takes on the data tier: the scenario's, else
 * pre-tokenized ids as the smallest unsigned integer that holds the
 * vocabulary (uint16 up to 65,536 ids, else uint32). */
static double data_bytes_per_token(const struct data_spec *d, const struct train_spec *w)
{
	if (d->bytes_per_token > 0)
		return d->bytes_per_token;
	return w->model->arch.vocab <= 65536 ? 2 : 4;
}

/*
 * The step's wait for its data: every node reads its share of the step's
 * tokens from the data tier, as flows over the same storage paths as a
 * checkpoint read (the node's client rate, then the tier's aggregate).
 * The loader prefetches the next batch while the step runs, so only a
 * read longer than the step stalls it: stall = max(0, read - step).
 * The tier's latency is hidden by the prefetch and left out.
 */
bool run_storage_data(const struct run_spec *run, const struct train_spec *w, const struct cluster_spec *c,
		      struct run_model *m, struct run_result *out)
{
	const struct data_spec *d = &run->data;
	if (!d->enabled)
		return true;
	int tier = ckpt_tier_index(c, d->tier);
	if (tier < 0) {
		char msg[200];
		text_setf(msg, sizeof msg, "data tier \"%s\" is not a storage tier of this candidate", d->tier);
		return fail_note(out, msg);
	}
	double bytes = w->global_batch_tokens * data_bytes_per_token(d, w);
	out->data_modelled = true;
	out->data_read_s = ckpt_transfer_s(c, tier, c->nodes, bytes, false) - c->storage[tier].spec.latency_s;
	out->data_stall_s = m->data_stall_s = fmax(0, out->data_read_s - m->step_s);
	m->step_s += m->data_stall_s;
	return true;
}

/* Add a footprint to tier `label`'s (a no-op for a tier the candidate lacks). */
static void add_footprint(const struct cluster_spec *c, const char *label, double bytes, double *fp, bool *used)
{
	int k = ckpt_tier_index(c, label);
	if (k < 0 || !(bytes > 0))
		return;
	fp[k] += bytes;
	used[k] = true;
}

/*
 * Storage and data dollars, after the trials: each tier's footprint (the
 * checkpoints kept, checkpoint.keep x the checkpoint's bytes, on the
 * checkpoint tier; data.size_gb on the data tier) held for the run's held
 * time (P50, P90) at the tier's usd_per_tb_month, managed Lustre for its
 * provisioned capacity (cost/storage_cost.h); plus checkpoint.downloads
 * checkpoints moved out at the checkpoint tier's egress_usd_per_gb. The
 * footprint is held from the start (an upper bound: the kept checkpoints
 * fill up over the first intervals). Unpriced when a tier charged has no
 * price; storage_note says which.
 */
void run_storage_dollars(const struct run_spec *run, const struct cluster_spec *c, struct run_result *out)
{
	double fp[CAT_STORAGE_MAX] = { 0 };
	bool used[CAT_STORAGE_MAX] = { false };
	const struct checkpoint_spec *cs = &run->checkpoint;
	int64_t keep = cs->enabled && cs->keep > 1 ? cs->keep : 1;
	if (out->ckpt_tier[0])
		add_footprint(c, out->ckpt_tier, (double)keep * out->ckpt_bytes, fp, used);
	if (run->data.enabled)
		add_footprint(c, run->data.tier, run->data.size_gb * 1e9, fp, used);
	out->storage_priced = true;
	out->storage_usd_p50 = out->storage_usd_p90 = out->storage_footprint_bytes = 0;
	text_setf(out->storage_note, sizeof out->storage_note, "nothing held");
	for (int k = 0; k < c->n_storage; k++) {
		const struct storage_spec *s = &c->storage[k].spec;
		if (!used[k])
			continue;
		if (s->usd_per_tb_month < 0) {
			out->storage_priced = false;
			text_setf(out->storage_note, sizeof out->storage_note, "tier %s (%s) has no usd_per_tb_month",
				  c->storage[k].tier, s->id.name);
			return;
		}
		double billed = storage_cost_billed_bytes(s, fp[k]);
		out->storage_footprint_bytes += billed;
		out->storage_usd_p50 += storage_cost_hold_usd(billed, s->usd_per_tb_month, out->held_p50_s);
		out->storage_usd_p90 += storage_cost_hold_usd(billed, s->usd_per_tb_month, out->held_p90_s);
	}
	if (out->storage_footprint_bytes > 0)
		text_setf(out->storage_note, sizeof out->storage_note, "%.3g TB held", out->storage_footprint_bytes / 1e12);
	int k = out->ckpt_tier[0] ? ckpt_tier_index(c, out->ckpt_tier) : -1;
	if (cs->enabled && cs->downloads > 0 && k >= 0) {
		const struct storage_spec *s = &c->storage[k].spec;
		if (s->egress_usd_per_gb < 0) {
			out->storage_priced = false;
			text_setf(out->storage_note, sizeof out->storage_note, "tier %s (%s) has no egress_usd_per_gb",
				  c->storage[k].tier, s->id.name);
			return;
		}
		double e = storage_cost_egress_usd((double)cs->downloads * out->ckpt_bytes, s->egress_usd_per_gb);
		out->storage_usd_p50 += e;
		out->storage_usd_p90 += e;
		text_appendf(out->storage_note, sizeof out->storage_note, ", %lld checkpoint download%s",
			     (long long)cs->downloads, cs->downloads == 1 ? "" : "s");
	}
}
