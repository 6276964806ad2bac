#!/bin/sh
# Storage and data dollars and buy vs rent, against their closed forms
# (docs/explanation/whole-run.md "Storage dollars", docs/explanation/catalog.md
# "Owned hardware"):
#   storage_usd_p50 = storage_tb x usd_per_tb_month x held h / 730.5 (+ downloads x GB x egress)
#   break-even u*   = fixed / (R - energy), R = rented P50 cost / owned GPU-hours
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples/buy-vs-rent-b200.json"

# CoreWeave's tier: coreweave-dfs at 0.070 / 1.073741824 x 1000 = 65.19 USD/TB-month; no spot, so held = wall time
status_is 0 "$CLUSTERSIM" run "$ex" --format csv -o "$TMP/runs.csv" && ok || fail "run buy-vs-rent"
columns "$TMP/runs.csv" candidate,storage_tb,storage_usd_p50,wall_time_p50_h,cost_usd_p50,total_usd_p50 >"$TMP/cw"
awk -F, '$1 == "4 x CoreWeave B200" { want = $2 * 65.19 * $4 / 730.5; d = $3 / want - 1
	t = $6 - $5 - $3; if (d < 0) d = -d; if (t < 0) t = -t; exit !(d < 1e-4 && t <= 1) } ' "$TMP/cw" && ok || fail "storage closed form: $(cat "$TMP/cw")"
# an unpriced tier (the DGX's ddn-exascaler): the column is empty, not 0
grep -q '^"4 x DGX B200, owned",,,' "$TMP/cw" && ok || fail "unpriced tier: $(cat "$TMP/cw")"
# and the row's reason says why
columns "$TMP/runs.csv" candidate,reason | grep -q '^4 x Nebius B200,.*storage unpriced: tier pfs (parallel-fs) has no usd_per_tb_month' &&
	ok || fail "unpriced reason: $(columns "$TMP/runs.csv" candidate,reason)"
# checkpoint.keep scales the footprint: 4 kept hold twice what 2 do
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --columns candidate,storage_tb --set workload.checkpoint.keep=4 && ok ||
	fail "keep 4"
awk -F, -v two="$(awk -F, '$1 == "4 x CoreWeave B200" { print $2 }' "$TMP/cw")" \
	'$1 == "4 x CoreWeave B200" { d = $2 / (2 * two) - 1; if (d < 0) d = -d; exit !(d < 1e-5) }' "$TMP/out" && ok || fail "keep 4: $(cat "$TMP/out")"
# one download at $0.09/GB adds storage_tb / 2 x 1000 x 0.09 (one of the two kept checkpoints)
tier='[{"tier":"pfs","preset":"coreweave-dfs","egress_usd_per_gb":0.09}]'
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --columns candidate,storage_tb,storage_usd_p50 \
	--set workload.checkpoint.downloads=1 --set "candidates[1].storage=$tier" && ok || fail "download"
base=$(awk -F, '$1 == "4 x CoreWeave B200" { print $3 }' "$TMP/cw")
awk -F, -v base="$base" '$1 == "4 x CoreWeave B200" { want = base + $2 / 2 * 1000 * 0.09; d = $3 - want
	if (d < 0) d = -d; exit !(d < 1e-3) }' "$TMP/out" && ok || fail "egress: base $base, $(cat "$TMP/out")"
# a download from a tier without an egress price: unpriced, and the reason says so
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --columns candidate,storage_usd_p50,reason --set workload.checkpoint.downloads=1 \
	--set 'candidates[2].storage=[{"tier":"pfs","preset":"parallel-fs","usd_per_tb_month":10}]' && ok || fail "no egress price"
grep -q '^4 x Nebius B200,,.*storage unpriced: tier pfs (parallel-fs) has no egress_usd_per_gb' "$TMP/out" && ok ||
	fail "no egress price: $(cat "$TMP/out")"
# bad prices: exit 2 naming the path and the value, nothing written
expect_status 2 "$CLUSTERSIM" run "$ex" -o "$TMP/bad.csv" --set 'candidates[1].storage=[{"tier":"pfs","preset":"coreweave-dfs","usd_per_tb_month":-1}]'
grep -q 'candidates\[1\].storage\[0\].usd_per_tb_month' "$TMP/err" && [ ! -e "$TMP/bad.csv" ] && ok ||
	fail "negative price: $(cat "$TMP/err")"
expect_status 2 "$CLUSTERSIM" run "$ex" --set workload.checkpoint.keep=0

# buy vs rent: plan's line, from the catalog's DGX B200 list price ($485,000 over 4 years, 14.3 kW)
status_is 0 "$CLUSTERSIM" plan "$ex" --format csv -o "$TMP/plan.csv" && ok || fail "plan"
grep -q '^buy vs rent: 4 x DGX B200, owned (\$1.73/GPU-h fixed, \$0.25/GPU-h energy) breaks even' "$TMP/out" && ok ||
	fail "buy vs rent line: $(cat "$TMP/out")"
# u* for each rented shape from the rows: F / (R - E), R = its cost / the owned job's GPU-hours
# (every shape's row from run: plan's rows are the front's, with the same draws)
columns "$TMP/runs.csv" candidate,cost_usd_p50 | sed 1d >"$TMP/c"
for who in "4 x Nebius B200" "4 x CoreWeave B200"; do
	u=$(awk -F, -v who="$who" '{ sub(/^"/, "", $1); sub(/"$/, "", $2) } $1 == "4 x DGX B200" { own = $3 } $1 == who { rent = $2 }
		END { f = 485000 / 35064 / 8; e = 14.3 * 1.56 * 0.0892 / 8; gh = own / (f + e)
		      printf "%.0f%%", 100 * f / (rent / gh - e) }' "$TMP/c")
	grep -q -e "$u against $who" "$TMP/out" && ok || fail "break-even against $who: want $u, $(grep 'buy vs rent' "$TMP/out")"
done
finish
