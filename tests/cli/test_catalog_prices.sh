#!/bin/sh
# The catalog's prices as a run sees them: every preset is priced or its
# dry-run row says there is no price and where one was looked for; a price
# older than a year before the catalog's as_of (or undated) is used but said
# on standard error only, so the rows do not depend on it.
. "$TOP/tests/cli/lib.sh"

# One candidate per preset in the built-in catalog.
"$CLUSTERSIM" catalog presets --format csv | sed 1d | cut -d, -f1 >"$TMP/presets"
[ -s "$TMP/presets" ] && ok || fail "catalog presets lists nothing"
{
	printf '{"name": "all", "seed": 1, "workload": {"kind": "training", "model": "llama3-8b", '
	printf '"precision": "bf16", "seq_len": 4096, "global_batch_tokens": 4194304, "tokens": 1e11, '
	printf '"parallelism": {"tp": 1, "pp": 1, "dp": "auto"}}, "candidates": ['
	sep=""
	while read -r p; do
		printf '%s{"name": "%s", "preset": "%s", "nodes": 1}' "$sep" "$p" "$p"
		sep=", "
	done <"$TMP/presets"
	printf ']}\n'
} >"$TMP/all.json"
status_is 0 "$CLUSTERSIM" run "$TMP/all.json" --dry-run --format csv --columns candidate,usd_per_gpu_hour,reason && ok ||
	fail "dry run of every preset"
cp "$TMP/out" "$TMP/rows.csv"
cp "$TMP/err" "$TMP/warnings"
n_presets=$(wc -l <"$TMP/presets")
[ "$(sed 1d "$TMP/rows.csv" | wc -l)" -eq "$n_presets" ] && ok || fail "one row per preset"
# A row without a price says so in plain words.
sed 1d "$TMP/rows.csv" | while IFS=, read -r name price reason; do
	if [ -z "$price" ]; then
		case "$reason" in
		*"no price in the catalog for $name"*"source checked:"*) ;;
		*"no price: give candidates[].price"*) ;;
		*) echo "FAIL: $name has no price and no plain reason: $reason" ;;
		esac
	fi
done >"$TMP/bad"
[ ! -s "$TMP/bad" ] && ok || { cat "$TMP/bad"; fail "unpriced presets without a plain reason"; }
# p6-b200 is priced on-demand (instance $113.9328/h / 8); Crusoe publishes no B200 price.
grep -q '^aws-p6-b200.48xlarge,14.2416,$' "$TMP/rows.csv" && ok || fail "p6-b200's on-demand price"
grep -q '^crusoe-8x-b200,,.*no price in the catalog for crusoe-8x-b200 .*contact sales' "$TMP/rows.csv" &&
	ok || fail "crusoe b200: unpublished, said so"
# A price's history: the newest row comes first and is the one a run takes.
grep -q '^aws-p4de.24xlarge,3.43088,$' "$TMP/rows.csv" && ok || fail "p4de took an older price"
# p5e has only a capacity-block price: it is not priced with p5en's on-demand price.
grep -q '^aws-p5e.48xlarge,,.*no price in the catalog for aws-p5e.48xlarge' "$TMP/rows.csv" && ok || fail "p5e took another type's price"
grep -q '^aws-p5en.48xlarge,7.912,' "$TMP/rows.csv" && ok || fail "p5en's price"

# Old and undated prices: warned on standard error, the rows unchanged.
grep -q "^clustersim: warning: the runpod MI300X on-demand price (S36) was observed 2025-05-29, over a year before the catalog's as_of 2026-12-01 (candidate 'runpod-8x-mi300x'\\( and [0-9]* more\\)\\?)$" "$TMP/warnings" &&
	ok || fail "old price warning"
! grep -q "has no observation date" "$TMP/warnings" && ok || fail "an undated catalog price"
# A row without a date was removed, not kept undated: its preset says what was checked.
grep -q '^azure-nd-a100-v4,,.*no price in the catalog for azure-nd-a100-v4 .*source checked: S31 (undated snapshot, removed); X46' "$TMP/rows.csv" &&
	ok || fail "azure nd a100 v4: unpriced, the check said"
# The CoreWeave RTX PRO 6000 offering: its own GPU and its own price (P06, 2026-09-20).
grep -q '^coreweave-8x-rtx-pro-6000,2.5,$' "$TMP/rows.csv" && ok || fail "coreweave rtx pro 6000 price"
# One offering name for several GPUs (Vultr's "cloud GPU"): each preset its own GPU's price.
grep -q '^vultr-8x-mi300x,1.85,$' "$TMP/rows.csv" && ok || fail "vultr mi300x price"
! grep -q "(candidate 'coreweave-8x-h100'" "$TMP/warnings" && ok || fail "a re-dated price was warned about"
! grep -q "(candidate 'aws-p5en.48xlarge'" "$TMP/warnings" && ok || fail "a 2026 price was warned about"
! grep -qi "warning" "$TMP/rows.csv" && ok || fail "warnings in the rows"
# The reference date is the catalog's, not the clock's: a catalog file moves it.
printf '{"as_of": "2026-03-01"}\n' >"$TMP/asof.json"
status_is 0 "$CLUSTERSIM" run "$TMP/all.json" --dry-run --format csv --catalog "$TMP/asof.json" && ok || fail "as_of override"
! grep -q "(candidate 'runpod-8x-mi300x'" "$TMP/err" && ok || fail "as_of 2026-03-01 still warns about 2025-05-29"
# A price given in the scenario is never warned about.
printf '{"name": "s", "workload": {"kind": "training", "model": "llama3-8b", "precision": "bf16", "seq_len": 4096, "global_batch_tokens": 4194304, "tokens": 1e11, "parallelism": {"tp": 1, "pp": 1, "dp": "auto"}}, "candidates": [{"name": "c", "preset": "coreweave-8x-h100", "nodes": 1, "price": {"usd_per_gpu_hour": 2}}]}\n' >"$TMP/own.json"
status_is 0 "$CLUSTERSIM" run "$TMP/own.json" --dry-run --format csv && [ ! -s "$TMP/err" ] && ok || fail "scenario price warned about"
# Every catalog price date is ISO (YYYY-MM-DD, YYYY-MM) or empty, so a script can filter.
"$CLUSTERSIM" catalog prices --format json >"$TMP/prices.json" && ok || fail "catalog prices"
"$CLUSTERSIM" catalog prices --format csv --columns observed | sed 1d | grep -vE '^([0-9]{4}-[0-9]{2}(-[0-9]{2})?)?$' >"$TMP/baddates"
[ ! -s "$TMP/baddates" ] && ok || { head -3 "$TMP/baddates"; fail "non-ISO observed dates"; }
# Every row names a source; every row has a date or says it has none; an
# on-demand row observed over a year before as_of (cutoff 2025-12-01 for as_of
# 2026-12-01) says so in its status, unless a newer row of its history
# supersedes it.
"$CLUSTERSIM" catalog prices --format csv --columns type,observed,source,status >"$TMP/status.csv" && ok || fail "catalog prices status"
head -1 "$TMP/status.csv" | grep -qx 'type,observed,source,status' && ok || fail "status column"
sed 1d "$TMP/status.csv" | awk -F, '$3 == "" { print }' >"$TMP/nosource"
[ ! -s "$TMP/nosource" ] && ok || { head -3 "$TMP/nosource"; fail "rows without a source"; }
sed 1d "$TMP/status.csv" | awk -F, '$2 == "" || $4 == "undated" { print }' >"$TMP/nodate"
[ ! -s "$TMP/nodate" ] && ok || { head -3 "$TMP/nodate"; fail "rows without an observation date"; }
as_of=$(sed -n 's/.*"as_of": *"\([0-9-]*\)".*/\1/p' "$TOP/scenarios/catalog/prices.json")
[ "$as_of" = 2026-12-01 ] && ok || fail "as_of $as_of: the cutoff below assumes 2026-12-01"
sed 1d "$TMP/status.csv" | awk -F, '$1 == "on-demand" && $2 != "" && substr($2 "-01", 1, 10) < "2025-12-01" && substr($2, 1, 7) < "2025-12" && $4 == "" { print }' >"$TMP/old"
[ ! -s "$TMP/old" ] && ok || { head -3 "$TMP/old"; fail "on-demand rows over a year old, unmarked"; }
"$CLUSTERSIM" catalog prices --format csv --columns provider,offering,usd_per_gpu_hour,observed,status >"$TMP/hist.csv" && ok || fail "catalog prices history"
grep -q '^aws,p4de.24xlarge,5.121,2025-05,superseded$' "$TMP/hist.csv" && ok || fail "p4de's pre-cut price kept as history"
grep -q '^aws,p4d.24xlarge,4.097,2025-05,over a year$' "$TMP/hist.csv" && ok || fail "p4d's old price marked"
# A marketplace price is a band: Vast H100 2.40-2.67 around 2.67.
"$CLUSTERSIM" catalog prices --format csv --columns provider,gpu,usd_per_gpu_hour,usd_per_gpu_hour_low,usd_per_gpu_hour_high,status >"$TMP/band.csv" && ok || fail "catalog prices band"
grep -q '^vast,H100-SXM,2.67,2.4,2.67,$' "$TMP/band.csv" && ok || fail "vast h100 band"
# Billing: granularity and minimum per price, from the provider's record.
"$CLUSTERSIM" catalog prices --format csv --columns provider,offering,type,term,billing_s,minimum_s,billing_source >"$TMP/billing.csv" && ok || fail "catalog prices billing"
grep -q '^aws,p5.48xlarge,on-demand,,1,60,X37$' "$TMP/billing.csv" && ok || fail "aws p5 on-demand: per second, 60 s minimum"
grep -q '^aws,p5.48xlarge,capacity-block,,86400,0,B01$' "$TMP/billing.csv" && ok || fail "aws capacity block: whole days"
grep -q '^gcp,a4-highgpu-8g,capacity-block,,86400,0,B02$' "$TMP/billing.csv" && ok || fail "gcp calendar mode: whole days"
grep -q '^gcp,a3-highgpu-8g,on-demand,,1,60,X38$' "$TMP/billing.csv" && ok || fail "gcp on-demand: per second, 60 s minimum"
# A spot price's preemption notice: AWS 2 min, GCP 30 s, none known elsewhere.
"$CLUSTERSIM" catalog prices --format csv --columns provider,offering,type,spot_notice_s,spot_notice_source >"$TMP/notice.csv" && ok || fail "catalog prices notice"
grep -q '^aws,p5.48xlarge,spot,120,X44$' "$TMP/notice.csv" && ok || fail "aws spot notice 120 s"
grep -q '^gcp,a3-highgpu-8g,spot,30,X45$' "$TMP/notice.csv" && ok || fail "gcp spot notice 30 s"
grep -q '^nebius,gpu-h100-sxm 8gpu-128vcpu-1600gb,spot,,$' "$TMP/notice.csv" && ok || fail "nebius spot: no notice known"
grep -q '^aws,p5.48xlarge,on-demand,,$' "$TMP/notice.csv" && ok || fail "on-demand: no notice"
grep -q '^lambda,.*,60,0,B04$' "$TMP/billing.csv" && ok || fail "lambda: per minute"
grep -q '^coreweave,.*,60,0,B03$' "$TMP/billing.csv" && ok || fail "coreweave: per minute"
grep -q '^nebius,.*,on-demand,,1,0,B05$' "$TMP/billing.csv" && ok || fail "nebius: per second"
grep -q '^crusoe,.*,3600,0,$' "$TMP/billing.csv" && ok || fail "crusoe: no record, hourly assumed"
finish
