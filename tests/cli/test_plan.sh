#!/bin/sh
# clustersim plan: the answer first (the cheapest and the fastest shape that
# meet the objective, and why), a summary of what was searched on standard
# error, the front's rows for scripts; the pruned search writes the same
# front as the unpruned one; the front is non-dominated; the command line's
# deadline and budget; bad search blocks and options exit 2; spot and
# on-demand in one search; --show all gives every shape's fate and reason;
# a shape under 1% faster and dearer is not named the fastest.
#
# The quick set (make check) leaves to the full one (CHECK=full): the
# unpruned search over the whole market (quick: 10 shapes), a
# second identical plan for determinism (test_determinism covers run and
# sweep), the micro_batch check on every front shape (quick: the
# cheapest), the serving front checked against runs of 4 and 8 nodes too
# (quick: 1 and 2, where the cheapest shapes are), and the bound on the
# shapes of a search with 100,000 node counts (quick: 25,000, as far over
# the bound of 20,000). The checks whose answer does not depend on the
# market (a deadline nothing meets, --top 1, a mix asked of a training plan,
# the not-ok line of --show all, a serving plan with search.mix false) search
# one instance type or two in the quick set ($narrow), the whole market in
# the full. Columns of the front are read from the front written with -o
# (lib.sh: columns) rather than by planning again.
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples/llama3-70b-plan.json"
# The prices these checks were written for (tests/fixtures/prices/README.md).
pin="$TOP/tests/fixtures/prices/before-2026-12.json"

# The answer on standard output before the table.
status_is 0 "$CLUSTERSIM" plan "$ex" --format table && ok || fail "plan table"
head -1 "$TMP/out" | grep -q '^cheapest that meets the deadline of 720 h: ' && ok || fail "first line: $(head -3 "$TMP/out")"
sed -n 2p "$TMP/out" | grep -q '^fastest that meets the deadline of 720 h: ' && ok || fail "second line: $(head -3 "$TMP/out")"
sed -n 3p "$TMP/out" | grep -q '^  1\. .* finishes in .* h for \$[0-9,]*, the cheapest; the next faster' && ok ||
	fail "why line: $(sed -n 3p "$TMP/out")"
grep -q '^plan: 168 shapes, [0-9]* evaluated ([0-9]* ok), .* dominated; [0-9]* on the front; ' "$TMP/err" && ok ||
	fail "summary: $(cat "$TMP/err")"

# CSV for scripts: the front's rows, run's columns then the plan's.
status_is 0 "$CLUSTERSIM" plan "$ex" --format csv -o "$TMP/front.csv" && ok || fail "plan -o"
head -1 "$TMP/front.csv" | grep -q ',meets_budget_p90,t_data_stall_s,frac_data_stall,t_straggler_s,expert_tp,recompute_modules,global_batch_tokens,pipeline_split,free_stage_input,numerics,provider,storage_usd_p50,storage_usd_p90,storage_tb,total_usd_p50,total_usd_p90,usd_per_gpu_hour_p10,usd_per_gpu_hour_p90,front,plan_rank,why,price_type,fate,fate_reason,candidate_json$' && ok ||
	fail "header: $(head -1 "$TMP/front.csv")"
head -1 "$TMP/out" | grep -q '^cheapest that meets' && ok || fail "-o keeps the answer on stdout: $(cat "$TMP/out")"
n=$(sed -n 's/.* \([0-9]*\) on the front.*/\1/p' "$TMP/err")
[ "$(($(wc -l <"$TMP/front.csv") - 1))" -eq "$n" ] && ok || fail "rows $(wc -l <"$TMP/front.csv") vs $n on the front"

# Pruning drops no front point: the unpruned search writes the same bytes.
# Full set: the whole market but the GB200 NVL72 racks (with them the
# unpruned search passes the most work one search may do, 1e7, since the
# 2026-12 price review priced more shapes); quick set: 2 instance types x 5
# node counts, where memory, the deadline and dominance each rule shapes out
# (the unpruned search evaluates every priced shape).
if full; then
	set -- --set 'search.presets=["aws-p5.48xlarge","aws-p5en.48xlarge","azure-nd-h100-v5","gcp-a3-megagpu-8g","coreweave-8x-h100","coreweave-8x-h200","coreweave-8x-b200","lambda-8x-h100","nebius-8x-h100","nebius-8x-h200","oracle-bm-gpu-h100-8","oracle-bm-gpu-h200-8","oracle-bm-gpu-b200-8"]'
	status_is 0 "$CLUSTERSIM" plan "$ex" "$@" --format csv -o "$TMP/pruned.csv" && ok || fail "pruned subset"
else
	set -- --set 'search.presets=["coreweave-8x-b200","aws-p5.48xlarge"]' --set 'search.nodes=[1,16,32,64,128]'
	status_is 0 "$CLUSTERSIM" plan "$ex" "$@" --format csv -o "$TMP/pruned.csv" && ok || fail "pruned subset"
fi
status_is 0 "$CLUSTERSIM" plan "$ex" "$@" --format csv --no-prune -o "$TMP/all.csv" && ok || fail "no-prune"
cmp -s "$TMP/pruned.csv" "$TMP/all.csv" && ok || fail "pruned and unpruned fronts differ"
grep -q '^plan: [0-9]* shapes, [0-9]* evaluated' "$TMP/err" && ! grep -q dominated "$TMP/err" && ok ||
	fail "no-prune summary: $(cat "$TMP/err")"
set --

# The P50 front is non-dominated, cost rises with rank, and every row meets the deadline.
columns "$TMP/front.csv" plan_rank,wall_time_p50_h,cost_usd_p50,front,meets_deadline_p50 >"$TMP/out" && ok ||
	fail "columns"
awk -F, 'NR > 1 && $1 != "" { t[NR] = $2; c[NR] = $3; r[NR] = $1; if ($5 != "true") bad = 1 }
	END { for (i in t) for (j in t) if (i != j && t[i] <= t[j] && c[i] <= c[j] && (t[i] < t[j] || c[i] < c[j])) bad = 1
	      for (i in t) for (j in t) if (r[i] < r[j] && c[i] > c[j]) bad = 1
	      exit bad }' "$TMP/out" && ok || fail "front dominated or unordered: $(cat "$TMP/out")"

# The same seed gives the same bytes (as the -o run above). Full set only.
if full; then
	"$CLUSTERSIM" plan "$ex" --format csv >"$TMP/a.csv" 2>/dev/null
	cmp -s "$TMP/a.csv" "$TMP/front.csv" && ok || fail "two plans differ"
fi

# A deadline nothing meets: says so, and gives the front of all shapes
# (quick set: 3 node counts, as every shape is evaluated).
narrow="--set search.presets=[\"aws-p5.48xlarge\"]"
full && narrow=""
nodes3="--set search.nodes=[1,16,128]"
full && nodes3=""
# shellcheck disable=SC2086
status_is 0 "$CLUSTERSIM" plan "$ex" $narrow $nodes3 --format table --deadline-h 1 && ok || fail "deadline 1 h"
head -1 "$TMP/out" | grep -qx 'no shape meets the deadline of 1 h; the front of all shapes follows' && ok ||
	fail "unmet deadline: $(head -2 "$TMP/out")"

# A budget: the fastest within it costs at most that.
status_is 0 "$CLUSTERSIM" plan "$ex" --catalog "$pin" --format table --budget-usd 900000 && ok || fail "budget"
line=$(grep -E '^(cheapest and )?fastest that meets the deadline of 720 h and the budget of \$900,000: ' "$TMP/out")
[ -n "$line" ] && ok || fail "budget verdict: $(head -3 "$TMP/out")"
usd=$(echo "$line" | sed 's/.*h, \$\([0-9,]*\) (P50).*/\1/' | tr -d ,)
[ "$usd" -le 900000 ] && ok || fail "fastest within budget costs $usd"

# --top K why lines.
# shellcheck disable=SC2086
status_is 0 "$CLUSTERSIM" plan "$ex" $narrow --format table --top 1 && ok || fail "top 1"
[ "$(grep -c '^  [0-9]*\. ' "$TMP/out")" -eq 1 ] && ok || fail "top 1: $(head -5 "$TMP/out")"

# 12 nodes of H100 for Llama 3 70B (96 = 3 x 32 GPUs): the search puts the
# factor 3 in the pipeline, so 2,048 sequences divide and nothing is rounded
# (1e12 tokens in 59,605 steps of 16,777,216).
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --columns status,pp,steps,reason \
	--set 'candidates[0].nodes=12' && ok || fail "12 nodes"
grep -q '^ok,[0-9]*,59605,' "$TMP/out" && [ $(( $(sed -n 2p "$TMP/out" | cut -d, -f2) % 3 )) -eq 0 ] &&
	! grep -q 'global batch rounded' "$TMP/out" && ok || fail "12 nodes, pp a multiple of 3: $(cat "$TMP/out")"
# with pp and cp held at 1, dp keeps the 3: the rounded batch gives a real answer,
# the stated one an invalid row naming the nearest batch that divides
flat='workload.parallelism={"pp": 1, "cp": 1}'
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --columns status,reason --set 'candidates[0].nodes=12' \
	--set "$flat" && ok || fail "12 nodes flat"
grep -q '^ok,.*global batch rounded from 2048 to' "$TMP/out" && ok || fail "12 nodes rounded: $(cat "$TMP/out")"
status_is 1 "$CLUSTERSIM" run "$ex" --format csv --columns status,reason --set 'candidates[0].nodes=12' \
	--set "$flat" --set workload.global_batch_tokens=16777216 && ok || fail "12 nodes unrounded"
grep -q '^invalid,"2048 sequences per step split over no plan.s dp x micro_batch on 96 GPUs: the nearest batch that divides is 2052 sequences' "$TMP/out" &&
	ok || fail "12 nodes reason: $(cat "$TMP/out")"

# Serving: each shape gets the fewest replicas that meet the SLO; the answer is the cheapest per
# hour, every front row meets the SLO, and the front is non-dominated in (TTFT P99, $/h).
# (the answer and the mix line on standard output, the front's rows in the file)
sv="$TOP/scenarios/examples/llama3-70b-serve-plan.json"
status_is 0 "$CLUSTERSIM" plan "$sv" --catalog "$pin" --format csv -o "$TMP/sv.csv" && ok || fail "serving plan"
cp "$TMP/out" "$TMP/sv-table"
head -1 "$TMP/out" | grep -q '^cheapest that meets the SLO: .*/h, [0-9]* replicas\{0,1\} x tp 8' && ok ||
	fail "serving answer: $(head -3 "$TMP/out")"
columns "$TMP/sv.csv" plan_rank,ttft_p99_ms,usd_per_hour,slo_met >"$TMP/out" && ok || fail "serving csv"
awk -F, 'NR > 1 { t[NR] = $2; c[NR] = $3; if ($4 != "true") bad = 1 }
	END { for (i in t) for (j in t) if (i != j && t[i] <= t[j] && c[i] <= c[j] && (t[i] < t[j] || c[i] < c[j])) bad = 1
	      exit bad }' "$TMP/out" && ok || fail "serving front: $(cat "$TMP/out")"
# the cheapest on the front is the cheapest of every shape that meets the SLO (run on each)
cheap=$(sed -n 2p "$TMP/out" | cut -d, -f3)
# "mix": the cheapest mix of two GPU types, cheaper than the cheapest single type.
# (the serving plan's answer above)
mix=$(grep '^cheaper as a mix: ' "$TMP/sv-table")
[ -n "$mix" ] && ok || fail "no mix line: $(head -8 "$TMP/sv-table")"
musd=$(echo "$mix" | sed 's/^cheaper as a mix: \$\([0-9,]*\)\/h.*/\1/' | tr -d ,)
[ "$musd" -lt "${cheap%.*}" ] && ok || fail "mix \$$musd/h is not below \$$cheap/h"
# without search.mix, no mix; quick set: the two instance types of the
# market's mix (a market where one is found)
svnarrow="--set search.presets=[\"lambda-8x-h100\",\"lambda-8x-a100\"]"
full && svnarrow=""
echo "$mix" | grep -q '(as in [0-9]* x lambda-8x-h100, .*(as in [0-9]* x lambda-8x-a100, ' && ok ||
	fail "the market's mix is no longer of lambda-8x-h100 and lambda-8x-a100 (the quick set's market for search.mix=false): $mix"
# shellcheck disable=SC2086
status_is 0 "$CLUSTERSIM" plan "$sv" $svnarrow --format table --set search.mix=false && ok || fail "no mix"
grep -q 'mix' "$TMP/out" && fail "a mix without search.mix: $(cat "$TMP/out")" || ok
# shellcheck disable=SC2086
status_is 0 "$CLUSTERSIM" plan "$ex" $narrow --format table --set search.mix=true && ok || fail "training mix"
grep -q '^mixes of GPU types: not searched: mixes are for serving$' "$TMP/out" && ok || fail "training mix: $(head -8 "$TMP/out")"
status_is 2 "$CLUSTERSIM" plan "$sv" --budget-usd 100 && ok || fail "serving budget"
grep -q 'objective is its serving.slo' "$TMP/err" && ok || fail "serving budget: $(cat "$TMP/err")"
svnodes="1 2"
full && svnodes="1 2 4 8"
for n in $svnodes; do
	"$CLUSTERSIM" run "$sv" --format csv --columns usd_per_hour,slo_met \
		--set "candidates=[{\"preset\":\"lambda-8x-h100\",\"nodes\":$n},{\"preset\":\"nebius-8x-h200\",\"nodes\":$n},{\"preset\":\"coreweave-8x-b200\",\"nodes\":$n},{\"preset\":\"coreweave-8x-h100\",\"nodes\":$n},{\"preset\":\"coreweave-8x-h200\",\"nodes\":$n},{\"preset\":\"aws-p5.48xlarge\",\"nodes\":$n},{\"preset\":\"oracle-bm-gpu-mi300x-8\",\"nodes\":$n},{\"preset\":\"lambda-8x-a100\",\"nodes\":$n}]" 2>/dev/null |
		sed 1d
done | awk -F, -v cheap="$cheap" '$2 == "true" && $1 < cheap - 1e-9 { bad = 1 } END { exit bad }' && ok ||
	fail "a shape meeting the SLO is cheaper than $cheap"

# Spot and on-demand in one search: the block's preemption rate gives every
# spot shape its preemptions (Monte Carlo P50/P90), the answer says what spot
# saves at P50 and at P90, and the front has shapes of both price types.
sp="$TOP/scenarios/examples/llama3-8b-spot-plan.json"
status_is 0 "$CLUSTERSIM" plan "$sp" --format table && ok || fail "spot plan"
grep -q '^spot saves [0-9]*% at P50: .*, spot takes .* on the cheapest on-demand shape, .*, on-demand; at P90 (0.01 preemptions an instance-hour, 20 trials) .*: [0-9]*% less, ' "$TMP/out" &&
	ok || fail "spot line: $(cat "$TMP/out")"
status_is 0 "$CLUSTERSIM" plan "$sp" --format csv --columns price_type,plan_rank && ok || fail "spot front"
grep -q '^spot,[0-9]' "$TMP/out" && grep -q '^on-demand,[0-9]' "$TMP/out" && ok || fail "front of one price type: $(cat "$TMP/out")"
# a spot-priced candidate as the base: its on-demand shapes are priced from the catalog, not lost
status_is 0 "$CLUSTERSIM" plan "$sp" --show all --format csv --columns price_type,status,fate \
	--set 'candidates=[{"name":"p5 spot","preset":"aws-p5.48xlarge","price":{"type":"spot","preemptions_per_instance_h":0.01,"capacity_wait_s":1800}}]' \
	--set 'search={"price_types":["on-demand","spot"],"nodes":[8,16]}' && ok || fail "spot base"
[ "$(grep -c '^on-demand,ok,evaluated$' "$TMP/out")" -eq 2 ] && [ "$(grep -c '^spot,ok,evaluated$' "$TMP/out")" -eq 2 ] && ok ||
	fail "spot base: $(cat "$TMP/out")"

# --show all: one row per shape (the front's first), every row off the front
# with its reason and none on it; the counts on standard error add up to the
# shapes and match the rows' fates and statuses.
# (RunPod in CoreWeave's place: a provider with no H100 spot price in the catalog, so that
# its spot shapes are counted not in the catalog; Nebius has no H200 spot price either.)
status_is 0 "$CLUSTERSIM" plan "$sp" --show all --format csv --columns fate,price_type,status,front,row_id,fate_reason \
	--set 'search.presets=["aws-p5.48xlarge","aws-p5en.48xlarge","nebius-8x-h100","nebius-8x-h200","runpod-8x-h100"]' && ok ||
	fail "show all"
sum=$(grep '^plan: [0-9]* shapes, ' "$TMP/err")
n=$(echo "$sum" | sed 's/^plan: \([0-9]*\) shapes.*/\1/')
[ "$n" -eq 50 ] && [ "$(($(wc -l <"$TMP/out") - 1))" -eq "$n" ] && [ "$(sed 1d "$TMP/out" | cut -d, -f5 | sort -un | wc -l)" -eq "$n" ] &&
	ok || fail "show all rows: $(wc -l <"$TMP/out") for $n shapes"
[ "$(echo "$sum" | sed 's/^plan: [0-9]* shapes, //; s/;.*//; s/([^)]*)//g' | tr , '\n' | awk '{ s += $1 } END { print s }')" -eq "$n" ] &&
	ok || fail "counts do not add up to $n: $sum"
for pair in "evaluated:evaluated" "unresolved:not in the catalog" "past_deadline:past the deadline" "dominated:dominated"; do
	want=$(echo "$sum" | sed -n "s/.* \([0-9]*\) ${pair#*:}[,;( ].*/\1/p")
	[ -n "$want" ] && [ "$(grep -c "^${pair%%:*}," "$TMP/out")" -eq "$want" ] && ok || fail "${pair%%:*} rows vs '$sum'"
done
[ "$(grep -c '^unresolved,spot,.*from runpod;' "$TMP/out")" -eq 5 ] && ok || fail "runpod's spot shapes: $(grep '^unresolved' "$TMP/out")"
# Nebius's H200 preemptible price was an undated snapshot, removed on 2026-12-06: its spot shapes too.
[ "$(grep -c '^unresolved,spot,.*for H200-SXM from nebius;' "$TMP/out")" -eq 5 ] &&
	[ "$(grep -c '^unresolved,' "$TMP/out")" -eq 10 ] && ok || fail "nebius h200 spot shapes: $(grep '^unresolved' "$TMP/out")"
awk -F, 'NR > 1 && (($4 == "") != ($6 != "")) { bad = 1 } END { exit bad }' "$TMP/out" && ok ||
	fail "a row off the front without a reason, or one on it with one: $(cat "$TMP/out")"
grep -q '^unresolved,spot,,,[0-9]*,price: the catalog has no spot price for H100-SXM from runpod' "$TMP/out" && ok ||
	fail "unresolved reason: $(grep '^unresolved' "$TMP/out" | head -1)"
# the evaluated shapes that are not ok, by status, on a line of their own
# (quick set: 64 and 128 nodes of lambda-8x-h100, invalid, and of nebius-8x-h100, ok)
lambda="--set search.presets=[\"lambda-8x-h100\",\"nebius-8x-h100\"] --set search.nodes=[64,128]"
full && lambda=""
# shellcheck disable=SC2086
status_is 0 "$CLUSTERSIM" plan "$ex" $lambda --show all --format csv --columns status,fate && ok || fail "show all 70B"
bad=$(grep -c '^invalid,evaluated$' "$TMP/out")
grep -q "^plan: $bad of the [0-9]* evaluated are not ok: $bad invalid; --show all gives each shape's reason$" "$TMP/err" &&
	[ "$bad" -gt 0 ] && ok || fail "not-ok line for $bad invalid: $(cat "$TMP/err")"
# candidate_json: clustersim run with it as the only candidate gives the shape's figures
status_is 0 "$CLUSTERSIM" plan "$sp" --format csv --columns plan_rank,wall_time_p50_h,wall_time_p90_h,cost_usd_p90,candidate_json && ok ||
	fail "candidate_json"
j=$(sed -n 2p "$TMP/out" | cut -d, -f5- | sed 's/^"//; s/"$//; s/""/"/g')
want=$(sed -n 2p "$TMP/out" | cut -d, -f2-4)
"$CLUSTERSIM" run "$sp" --set "candidates=[$j]" --format csv --columns wall_time_p50_h,wall_time_p90_h,cost_usd_p90 >"$TMP/one" 2>/dev/null
[ "$(sed -n 2p "$TMP/one")" = "$want" ] && ok || fail "run with $j: $(cat "$TMP/one") against $want"

# The front holds every shape that priced right would be on it: each front
# shape run alone with micro_batch fixed to 1, 2 and 4 (the other fields
# searched) gives a point that dominates no point of the front (the auto
# plan of a shape is never beaten by a stated one). Full set: every front
# shape; quick set: the cheapest. The P50 front's points only: a point on the
# P90 front alone may be dominated at P50.
columns "$TMP/front.csv" wall_time_p50_h,cost_usd_p50,front,candidate_json >"$TMP/out" && ok ||
	fail "front for the micro_batch check"
tail -n +2 "$TMP/out" | awk -F, '$3 ~ /p50/' | cut -d, -f1,2,4- >"$TMP/front3"
shapes=1
full && shapes=$(wc -l <"$TMP/front3")
head -n "$shapes" "$TMP/front3" | while IFS= read -r row; do
	j=$(printf '%s\n' "$row" | cut -d, -f3- | sed 's/^"//; s/"$//; s/""/"/g')
	for mb in 1 2 4; do
		"$CLUSTERSIM" run "$ex" --set "candidates=[$j]" --set "workload.parallelism={\"micro_batch\": $mb}" \
			--format csv --columns status,wall_time_p50_h,cost_usd_p50 2>/dev/null | sed -n 2p
	done
done >"$TMP/mbpoints"
[ -s "$TMP/mbpoints" ] && awk -F, 'NR == FNR { t[NR] = $1; c[NR] = $2; n = NR; next }
	$1 == "ok" { for (i = 1; i <= n; i++)
		if ($2 <= t[i] * (1 + 1e-9) && $3 <= c[i] * (1 + 1e-9) && ($2 < t[i] * (1 - 1e-9) || $3 < c[i] * (1 - 1e-9))) {
			print "dominates front point " i ": " $0; bad = 1 } }
	END { exit bad }' "$TMP/front3" "$TMP/mbpoints" && ok || fail "a micro_batch 1/2/4 plan beats the front: $(cat "$TMP/mbpoints")"

# Ties: B is under 1% faster than A and dearer; A is named the fastest,
# and with --tie 0 (no tolerance; no failures, so no noise) B is.
cat >"$TMP/tie.json" <<'EOF'
{"name": "tie", "seed": 3,
 "workload": {"kind": "training", "model": "llama3-8b", "precision": "bf16", "seq_len": 8192,
  "global_batch_tokens": 4194304, "tokens": 1e11, "parallelism": "auto", "failures": "none",
  "checkpoint": {"interval_s": 600, "tier": "pfs", "async": false}},
 "candidates": [
  {"name": "A", "preset": "hgx-h100", "nodes": 4, "price": {"usd_per_gpu_hour": 2},
   "storage": [{"tier": "pfs", "kind": "parallel-fs", "aggregate_GBps": 20}]},
  {"name": "B", "preset": "hgx-h100", "nodes": 4, "price": {"usd_per_gpu_hour": 2.05},
   "storage": [{"tier": "pfs", "kind": "parallel-fs", "aggregate_GBps": 40}]}],
 "monte_carlo": {"trials": 1}}
EOF
status_is 0 "$CLUSTERSIM" plan "$TMP/tie.json" --format table && ok || fail "tie"
head -1 "$TMP/out" | grep -q '^cheapest and fastest: A: ' && sed -n 2p "$TMP/out" |
	grep -q '^  (B is 0\.[0-9]* h (0\.[0-9]*%) faster for 2% more than A (a tie: within the 1% tolerance), and a tie goes to the cheaper shape)$' &&
	ok || fail "tie: $(head -3 "$TMP/out")"
status_is 0 "$CLUSTERSIM" plan "$TMP/tie.json" --format table --tie 0 && ok || fail "--tie 0"
sed -n 2p "$TMP/out" | grep -q '^fastest: B: ' && ok || fail "--tie 0: $(head -3 "$TMP/out")"
status_is 0 "$CLUSTERSIM" plan "$TMP/tie.json" --format table --set 'search={"tie_tolerance":0.001}' && ok || fail "search.tie_tolerance"
sed -n 2p "$TMP/out" | grep -q '^fastest: B: ' && ok || fail "tie_tolerance 0.001: $(head -3 "$TMP/out")"

# Bad input: the file, the JSON path and the value; exit 2.
status_is 2 "$CLUSTERSIM" plan "$ex" --set 'search.presets=["dgx-h1000"]' && ok || fail "unknown preset"
grep -q "search.presets\[0\]" "$TMP/err" && grep -q 'dgx-h1000' "$TMP/err" && ok || fail "unknown preset: $(cat "$TMP/err")"
status_is 2 "$CLUSTERSIM" plan "$ex" --set 'search.nodes={"min":5,"max":2}' && ok || fail "nodes range"
grep -q 'search.nodes.max' "$TMP/err" && ok || fail "nodes range: $(cat "$TMP/err")"
status_is 2 "$CLUSTERSIM" plan "$ex" --set 'search.price_types=["cheap"]' && ok || fail "price type"
grep -q 'search.price_types\[0\]' "$TMP/err" && ok || fail "price type: $(cat "$TMP/err")"
status_is 2 "$CLUSTERSIM" plan "$ex" --set 'search.gpu=["H100"]' && ok || fail "unknown key"
status_is 2 "$CLUSTERSIM" plan "$ex" --set 'search.spot={"preemptions_per_instance_h":0.01}' && ok || fail "spot without a wait"
grep -q 'search.spot' "$TMP/err" && grep -q 'capacity_wait_s' "$TMP/err" && ok || fail "spot without a wait: $(cat "$TMP/err")"
status_is 2 "$CLUSTERSIM" plan "$ex" --set 'search.tie_tolerance=0.9' && ok || fail "tie_tolerance 0.9"
grep -q 'search.tie_tolerance' "$TMP/err" && ok || fail "tie_tolerance 0.9: $(cat "$TMP/err")"
status_is 2 "$CLUSTERSIM" plan "$ex" --tie 0.9 && ok || fail "--tie 0.9"
status_is 2 "$CLUSTERSIM" plan "$ex" --show some && ok || fail "--show some"
status_is 2 "$CLUSTERSIM" plan "$ex" --top x && ok || fail "--top x"
status_is 2 "$CLUSTERSIM" plan "$ex" --deadline-h -3 && ok || fail "--deadline-h -3"
status_is 2 "$CLUSTERSIM" plan "$TOP/scenarios/examples/nccl-allreduce.json" && ok || fail "collective"
grep -q 'plan needs a training' "$TMP/err" && ok || fail "collective: $(cat "$TMP/err")"

# The work of a search is bounded (docs/explanation/planning.md, "Bounds"): 1 to 100,000 nodes of one
# preset are 100,000 shapes, more than the 20,000 one search evaluates (it would have run
# for weeks without a word), and a shape of 100,000 nodes has 800,000 GPUs, more than the
# 65,536 a shape may have; both are refused before anything is evaluated, with the figures
# and how to narrow the search (exit 2, nothing written). Quick set: 1 to 25,000 nodes.
wide=25000 left='249[0-9][0-9]'
full && wide=100000 left='999[0-9][0-9]'
status_is 2 "$CLUSTERSIM" plan "$ex" --set "search.nodes={\"min\":1,\"max\":$wide}" --set 'search.presets=["aws-p5.48xlarge"]' \
	-o "$TMP/wide.csv" && ok || fail "$wide shapes"
grep -q "^clustersim: plan: '.*llama3-70b-plan.json': $left of the $wide shapes are left to evaluate once the catalog, the prices, memory, the deadline and the budget have ruled the others out, more than the 20000 one search may evaluate; narrow the search: fewer node counts (search.nodes)" "$TMP/err" &&
	[ ! -e "$TMP/wide.csv" ] && [ ! -s "$TMP/out" ] && ok || fail "$wide shapes: $(cat "$TMP/err")"
status_is 2 "$CLUSTERSIM" plan "$ex" --set 'search.nodes=[100000]' --set 'search.presets=["aws-p5.48xlarge"]' && ok ||
	fail "a shape of 800,000 GPUs"
grep -q "shape '100000 x aws-p5.48xlarge' has 800000 GPUs, more than the 65536 a shape may have to be evaluated" "$TMP/err" &&
	ok || fail "a shape of 800,000 GPUs: $(cat "$TMP/err")"
# A rounded batch: plans run different batches, so the search compares time
# per token, never step time. On 96 x nebius-8x-h100 the search must do at
# least as well per token as the plan with micro_batch 1 stated (tp 4 pp 4
# dp 48, 692k tokens/s; comparing step times picked tp 1 dp 768 mb 2, whose
# batch rounded down 25%: 638k tokens/s, 436 h against 402 h).
n96="--set candidates[0].preset=nebius-8x-h100 --set candidates[0].nodes=96"
# shellcheck disable=SC2086
"$CLUSTERSIM" run "$ex" $n96 --format csv --columns tokens_per_s,wall_time_p50_h >"$TMP/auto96" 2>/dev/null
# shellcheck disable=SC2086
"$CLUSTERSIM" run "$ex" $n96 --set 'workload.parallelism={"micro_batch": 1}' --format csv \
	--columns tokens_per_s,wall_time_p50_h >"$TMP/mb96" 2>/dev/null
a=$(sed -n 2p "$TMP/auto96"); m=$(sed -n 2p "$TMP/mb96")
[ -n "$a" ] && [ -n "$m" ] && awk -v a="$a" -v m="$m" 'BEGIN { split(a, x, ","); split(m, y, ",");
	exit !(x[1] >= y[1] * (1 - 1e-9) && x[2] <= y[2] * (1 + 1e-9)) }' && ok ||
	fail "auto on 96 nodes ($a) is slower than micro_batch 1 stated ($m)"
finish
