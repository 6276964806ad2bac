#!/bin/sh
# The price band in run's costs and plan's answer, against closed forms
# (docs/explanation/catalog.md, "Price uncertainty: the band"): a catalog
# price observed t years before as_of, with no band, has ln F ~ N(0, s^2 t),
# s = 0.2584; a one-trial run's cost P50 is the catalog cost and its P90 the
# cost x exp(1.2816 s sqrt(t)); two shapes on independent rows swap places
# with probability Phi(ln(a / b) / sqrt(sa^2 + sb^2)).
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples/rent-llama3-70b.json"
# CoreWeave B200 observed 2026-09-20 and Nebius H100 2026-09-25: 72 and 67 days before 2026-12-01
cw=$(awk 'BEGIN { printf "%.10f", 0.2584 * sqrt(72 / 365.25) }')
nb=$(awk 'BEGIN { printf "%.10f", 0.2584 * sqrt(67 / 365.25) }')

# one trial: P50 = usd_per_hour x billed_h, P90 / P50 = exp(1.2816 x sigma)
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --set monte_carlo.trials=1 \
	--columns candidate,usd_per_hour,billed_h,cost_usd_p50,cost_usd_p90 && ok || fail "run one trial"
awk -F, -v s="$cw" '$1 == "32 x CoreWeave B200" { d = $4 / ($2 * $3) - 1; r = $5 / $4 / exp(1.2815516 * s) - 1
	if (d < 0) d = -d; if (r < 0) r = -r; found = 1; exit !(d < 1e-5 && r < 0.01) } END { if (!found) exit 1 }' "$TMP/out" &&
	ok || fail "one trial, age band: $(cat "$TMP/out")"
# a price the scenario gives has no band: P90 = P50 at one trial
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --set monte_carlo.trials=1 --columns candidate,cost_usd_p50,cost_usd_p90 \
	--set 'candidates=[{"name":"own price","preset":"coreweave-8x-b200","nodes":32,"price":{"usd_per_gpu_hour":8.6}}]' &&
	ok || fail "run scenario price"
awk -F, '$1 == "own price" { found = 1; exit !($2 == $3) } END { if (!found) exit 1 }' "$TMP/out" && ok ||
	fail "scenario price, no band: $(cat "$TMP/out")"

# the band's own percentiles: CoreWeave's age alone, P10 x P90 = price^2
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --set monte_carlo.trials=1 \
	--columns candidate,gpus,usd_per_hour,usd_per_gpu_hour_p10,usd_per_gpu_hour_p90 && ok || fail "run band columns"
awk -F, -v s="$cw" '$1 == "32 x CoreWeave B200" { p = $3 / $2; r = $5 / p / exp(1.2815516 * s) - 1; q = $4 * $5 / (p * p) - 1
	if (r < 0) r = -r; if (q < 0) q = -q; found = 1; exit !(r < 1e-4 && q < 1e-4) } END { if (!found) exit 1 }' "$TMP/out" &&
	ok || fail "age band columns: $(cat "$TMP/out")"
# Vast's H100 marketplace row: 2.67 with low 2.40 (its 10th percentile), high 2.67, observed 2026-10-24
# (38 days before as_of): P10 = 2.67 exp(-1.2816 sqrt((ln(2.67/2.40)/1.2816)^2 + s^2 t)), P90 = 2.67 exp(1.2816 s sqrt(t))
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --set monte_carlo.trials=1 \
	--set 'candidates=[{"name":"vast","preset":"nebius-8x-h100","nodes":32,"price":{"provider":"vast"}}]' \
	--columns candidate,usd_per_gpu_hour_p10,usd_per_gpu_hour_p90 && ok || fail "run vast"
awk -F, '$1 == "vast" { t = 38 / 365.25; a = 0.2584 * 0.2584 * t; b = log(2.67 / 2.40) / 1.2815516
	lo = 2.67 * exp(-1.2815516 * sqrt(b * b + a)); hi = 2.67 * exp(1.2815516 * sqrt(a))
	d = $2 / lo - 1; e = $3 / hi - 1; if (d < 0) d = -d; if (e < 0) e = -e; found = 1; exit !(d < 1e-4 && e < 1e-4) }
	END { if (!found) exit 1 }' "$TMP/out" && ok || fail "vast band: $(cat "$TMP/out")"

# plan: the cheapest's band, and the shape likeliest to take its place
status_is 0 "$CLUSTERSIM" plan "$ex" -o "$TMP/plan.csv" && ok || fail "plan"
grep -q '^cheapest that meets .*: 32 x CoreWeave B200: 449 h, \$[0-9,]* (P50, price band \$[0-9,]*-\$[0-9,]*);' "$TMP/out" &&
	ok || fail "cheapest with its band: $(cat "$TMP/out")"
line=$(grep '^price band: 64 x Nebius H100 is cheaper than 32 x CoreWeave B200 in [0-9]*% of the price band' "$TMP/out")
[ -n "$line" ] && ok || fail "swap line: $(cat "$TMP/out")"
# Phi by Abramowitz and Stegun 7.1.26 (error below 1.5e-7)
printf '%s\n' "$line" | awk -v sa="$cw" -v sb="$nb" '
function phi(x,   t, y, s) { s = x < 0 ? -1 : 1; x = (x < 0 ? -x : x) / sqrt(2); t = 1 / (1 + 0.3275911 * x)
	y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-x * x)
	return 0.5 * (1 + s * y) }
{ match($0, /in [0-9]+%/); pct = substr($0, RSTART + 3, RLENGTH - 4)
  match($0, /32 x CoreWeave B200 P50 \$[0-9,]+/); a = substr($0, RSTART + 25, RLENGTH - 25); gsub(",", "", a); a += 0
  match($0, /64 x Nebius H100 P50 \$[0-9,]+/); b = substr($0, RSTART + 22, RLENGTH - 22); gsub(",", "", b); b += 0
  want = 100 * phi(log(a / b) / sqrt(sa * sa + sb * sb)); d = pct - want; if (d < 0) d = -d
  exit !(a > 0 && b > a && d <= 0.7) }' && ok || fail "swap probability against Phi: $line"
# two sizes of one offering share a price row: one draw, never a swap
status_is 0 "$CLUSTERSIM" plan "$ex" -o "$TMP/plan2.csv" --set 'candidates=[{"name":"a","preset":"coreweave-8x-b200","nodes":32},{"name":"b","preset":"coreweave-8x-b200","nodes":64}]' &&
	ok || fail "plan one row"
grep -q '^price band:' "$TMP/out" && fail "one row swapped: $(cat "$TMP/out")" || ok
# the longest names a scenario may give (255 bytes) appear whole in the swap line, each twice
# (about 1,200 bytes in all): never cut, silently or with a mark
a=$(awk 'BEGIN { while (n++ < 255) printf "A" }'); b=$(awk 'BEGIN { while (n++ < 255) printf "B" }')
status_is 0 "$CLUSTERSIM" plan "$ex" -o "$TMP/plan3.csv" --set "candidates=[{\"name\":\"$a\",\"preset\":\"coreweave-8x-b200\",\"nodes\":32},{\"name\":\"c64\",\"preset\":\"coreweave-8x-b200\",\"nodes\":64},{\"name\":\"$b\",\"preset\":\"nebius-8x-h100\",\"nodes\":64}]" &&
	ok || fail "plan long names"
line=$(grep '^price band: ' "$TMP/out")
want="price band: $b is cheaper than $a in 44% of the price band ($a P50 \$988,078, band \$852,978-\$1,144,576; $b P50 \$1,010,352, band \$876,751-\$1,164,311)"
[ "$line" = "$want" ] && ok || fail "long names cut: $(printf '%s' "$line" | wc -c) bytes: $line"

# serving: the hour's band and the output tokens' cost in it (linear in the price), and the swap
# line on hourly prices: Lambda's 8x H100 and CoreWeave's B200 node, both observed 2026-09-20
sv="$TOP/scenarios/examples/llama3-70b-serve-plan.json"
status_is 0 "$CLUSTERSIM" plan "$sv" -o "$TMP/serve.csv" && ok || fail "serving plan"
grep -q '^cheapest that meets the SLO: 2 x lambda-8x-h100: \$64/h (price band \$55-\$74/h), ' "$TMP/out" &&
	ok || fail "serving cheapest with its band: $(cat "$TMP/out")"
awk -f "$TOP/tools/csv.awk" -f /dev/stdin -v s="$cw" "$TMP/serve.csv" <<'AWK' && ok || fail "serving band columns"
	{ n = split_csv($0, v) }
	NR == 1 { for (i = 1; i <= n; i++) col[v[i]] = i; next }
	v[col["candidate"]] == "2 x lambda-8x-h100" {
		f = exp(1.2815516 * s); m = v[col["usd_per_mtok_output"]]; p = v[col["usd_per_hour"]] / 16
		d1 = v[col["usd_per_mtok_output_p90"]] / (m * f) - 1; d2 = v[col["usd_per_mtok_output_p10"]] * f / m - 1
		d3 = v[col["usd_per_gpu_hour_p90"]] / (p * f) - 1
		if (d1 < 0) d1 = -d1; if (d2 < 0) d2 = -d2; if (d3 < 0) d3 = -d3
		found = 1; exit !(d1 < 1e-4 && d2 < 1e-4 && d3 < 1e-4) }
	END { if (!found) exit 1 }
AWK
line=$(grep '^price band: 1 x coreweave-8x-b200 is cheaper than 2 x lambda-8x-h100 in [0-9]*% of the price band' "$TMP/out")
[ -n "$line" ] && ok || fail "serving swap line: $(cat "$TMP/out")"
# 2 x 8 H100 at 3.99 against 8 B200 at 8.60, both spread by the same age: Phi(ln(a / b) / (sqrt(2) s))
awk -v s="$cw" -v line="$line" '
function phi(x,   t, y, g) { g = x < 0 ? -1 : 1; x = (x < 0 ? -x : x) / sqrt(2); t = 1 / (1 + 0.3275911 * x)
	y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-x * x)
	return 0.5 * (1 + g * y) }
BEGIN { match(line, /in [0-9]+%/); pct = substr(line, RSTART + 3, RLENGTH - 4)
	want = 100 * phi(log(16 * 3.99 / (8 * 8.60)) / (sqrt(2) * s)); d = pct - want; if (d < 0) d = -d
	exit !(d <= 0.7) }' && ok || fail "serving swap probability against Phi: $line"
finish
