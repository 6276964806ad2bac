/* plan_disagg_out: the split search's answer lines and row columns. */
#include "plan_disagg_out.h"
#include "util/text.h"

#include <string.h>

const char *const plan_disagg_out_columns[] = {
	"disagg_prefill_replicas", "disagg_decode_replicas", "disagg_prefill_tp", "disagg_decode_tp",
	"disagg_gpus", "disagg_usd_per_hour", "disagg_usd_per_mtok", "disagg_ttft_p99_ms",
	"disagg_tpot_p99_ms", "disagg_kv_transfer_p99_ms", "disagg_colocated_replicas", "disagg_colocated_tp",
	"disagg_colocated_usd_per_hour", "disagg_saving", NULL,
};

/* "$1,234" (whole dollars), "$191.36" below $1,000. */
static void say_usd(double usd, char *buf, size_t size)
{
	text_usd_cents(usd, 1000, buf, size);
}

/* "3 x aws-p5.48xlarge", or "3 nodes of 'NAME'" for a candidate's type */
static void say_where(FILE *f, const struct plan_disagg_base *b, long instances)
{
	if (b->candidate)
		fprintf(f, "%ld node%s of '%s'", instances, instances == 1 ? "" : "s", b->instance);
	else
		fprintf(f, "%ld x %s", instances, b->instance);
}

static const char *provider_name(const char *p)
{
	return p[0] ? p : "(no provider)";
}

/* "2P3D (prefill tp 8, decode tp 8; 40 GPUs) on 5 x nebius-8x-h100, $X/h, $Y per million output tokens (TTFT P99 .., TPOT P99 ..,
 * KV transfer P99 .. over ..)" */
static void say_split(FILE *f, const struct plan_disagg_base *b)
{
	const struct plan_disagg_deploy *d = &b->split;
	char usd[48], mtok[48];
	say_usd(d->usd_per_hour, usd, sizeof usd);
	say_usd(d->usd_per_mtok, mtok, sizeof mtok);
	fprintf(f, "%dP%dD (prefill tp %d, decode tp %d; %ld GPUs) on ", d->prefill_replicas, d->decode_replicas,
		d->prefill_tp, d->decode_tp, d->gpus);
	say_where(f, b, d->instances);
	fprintf(f, ", %s/h, %s per million output tokens (TTFT P99 %.0f ms, TPOT P99 %.0f ms, KV transfer P99 "
		"%.1f ms over %s)", usd, mtok, d->ttft_p99_ms, d->tpot_p99_ms, d->kv_transfer_p99_ms, b->interconnect);
}

/* "colocated: 3 replicas x tp 8 (24 GPUs) on 3 x aws-p5.48xlarge, $X/h, $Y per million output tokens (TTFT P99 .., TPOT P99 ..)" */
static void say_colocated(FILE *f, const struct plan_disagg_base *b)
{
	const struct plan_disagg_deploy *d = &b->colocated;
	char usd[48], mtok[48];
	say_usd(d->usd_per_hour, usd, sizeof usd);
	say_usd(d->usd_per_mtok, mtok, sizeof mtok);
	fprintf(f, "colocated %d replica%s x tp %d (%ld GPUs) on ", d->replicas, d->replicas == 1 ? "" : "s", d->decode_tp,
		d->gpus);
	say_where(f, b, d->instances);
	fprintf(f, ", %s/h, %s per million output tokens (TTFT P99 %.0f ms, TPOT P99 %.0f ms)", usd, mtok,
		d->ttft_p99_ms, d->tpot_p99_ms);
}

/* Why a provider has no split: the simulations on its bases. */
static void say_none(FILE *f, const struct plan_disagg *d, const char *provider)
{
	int simulated = 0;
	long most = 0;
	size_t types = 0, unsupported = 0;
	for (size_t b = 0; b < d->n_bases; b++)
		if (strcmp(d->bases[b].provider, provider) == 0) {
			types++;
			unsupported += d->bases[b].unsupported;
			simulated += d->bases[b].splits_simulated;
			if (d->bases[b].tp_pairs > 0 && d->bases[b].max_instances > most)
				most = d->bases[b].max_instances;
		}
	if (unsupported == types)
		fprintf(f, "not searched: its shapes are unsupported (their reason says why: a spot price, failures)");
	else if (most == 0)
		fprintf(f, "no two replicas fit on fewer instances than colocated serving takes, so no split can cost less");
	else
		fprintf(f, "no split on fewer instances than colocated serving meets the SLO (%d split%s simulated)",
			simulated, simulated == 1 ? "" : "s");
}

void plan_disagg_out_print(FILE *f, const struct plan_disagg *d, const struct plan_outcome *o)
{
	(void)o;
	if (!d->searched) {
		fprintf(f, "disaggregated prefill and decode: not searched: %s\n", d->why_not);
		return;
	}
	if (d->stopped) {
		fprintf(f, "disaggregated prefill and decode: not answered: the search stopped %s\n", d->stop_reason);
		return;
	}
	for (size_t k = 0; k < d->n_providers; k++) {
		const struct plan_disagg_provider *pv = &d->providers[k];
		const char *name = provider_name(pv->provider);
		if (pv->split >= 0 && pv->colocated >= 0) {
			const struct plan_disagg_base *b = &d->bases[pv->split], *c = &d->bases[pv->colocated];
			double saving = 1 - b->split.usd_per_hour / c->colocated.usd_per_hour;
			if (saving > 0)
				fprintf(f, "disaggregated saves %.0f%% on %s: ", saving * 100, name);
			else
				fprintf(f, "disaggregated not worth it on %s: its cheapest split, ", name);
			say_split(f, b);
			if (saving > 0) {
				fprintf(f, "; the cheapest ");
			} else {
				char more[48];
				snprintf(more, sizeof more, saving < 0 ? "%.0f%% more than the cheapest" : "the same as the cheapest",
					 -saving * 100);
				fprintf(f, ", costs %s ", more);
			}
			say_colocated(f, c);
		} else if (pv->split >= 0) {
			fprintf(f, "disaggregated meets the SLO on %s where no colocated deployment does: ", name);
			say_split(f, &d->bases[pv->split]);
		} else if (pv->colocated >= 0) {
			fprintf(f, "disaggregated not worth it on %s: ", name);
			say_none(f, d, pv->provider);
			fprintf(f, "; the cheapest ");
			say_colocated(f, &d->bases[pv->colocated]);
		} else {
			fprintf(f, "disaggregated on %s: ", name);
			say_none(f, d, pv->provider);
			fprintf(f, ", nor does any colocated deployment");
		}
		fputc('\n', f);
	}
	int pairs = 0;
	for (size_t b = 0; b < d->n_bases; b++)
		pairs += d->bases[b].tp_pairs;
	fprintf(f, "disaggregated prefill and decode: %d simulation%s on %zu instance type%s (colocated replicas at "
		"every tp size, %d tp pair%s of splits), each on fewer instances than the cheapest colocated "
		"deployment found before it\n", d->simulated, d->simulated == 1 ? "" : "s", d->n_bases,
		d->n_bases == 1 ? "" : "s", pairs, pairs == 1 ? "" : "s");
}

void plan_disagg_out_row(rowset *rs, const struct plan_disagg *d, const struct plan_outcome *o, size_t i)
{
	(void)o;
	if (!d->searched || d->stopped || d->base_of == NULL || d->base_of[i] < 0)
		return;
	const struct plan_disagg_base *b = &d->bases[d->base_of[i]];
	const struct plan_disagg_deploy *c = &b->colocated, *s = &b->split;
	if (c->found) {
		rowset_int(rs, "disagg_colocated_replicas", c->replicas);
		rowset_int(rs, "disagg_colocated_tp", c->decode_tp);
		rowset_real(rs, "disagg_colocated_usd_per_hour", c->usd_per_hour);
	}
	if (!s->found)
		return;
	rowset_int(rs, "disagg_prefill_replicas", s->prefill_replicas);
	rowset_int(rs, "disagg_decode_replicas", s->decode_replicas);
	rowset_int(rs, "disagg_prefill_tp", s->prefill_tp);
	rowset_int(rs, "disagg_decode_tp", s->decode_tp);
	rowset_int(rs, "disagg_gpus", s->gpus);
	rowset_real(rs, "disagg_usd_per_hour", s->usd_per_hour);
	rowset_real(rs, "disagg_usd_per_mtok", s->usd_per_mtok);
	rowset_real(rs, "disagg_ttft_p99_ms", s->ttft_p99_ms);
	rowset_real(rs, "disagg_tpot_p99_ms", s->tpot_p99_ms);
	rowset_real(rs, "disagg_kv_transfer_p99_ms", s->kv_transfer_p99_ms);
	if (c->found)
		rowset_real(rs, "disagg_saving", 1 - s->usd_per_hour / c->usd_per_hour);
}
