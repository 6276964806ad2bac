#!/bin/sh
# clustersim plan: the answer first (the cheapest and the fastest shape that
# meet the objective, and why), a summary of what was searched on standard
# error, the front's rows for scripts; the pruned search writes the same
# front as the unpruned one; the front is non-dominated; the command line's
# deadline and budget; bad search blocks and options exit 2.
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples/llama3-70b-plan.json"

# The answer on standard output before the table.
expect_status 0 "$CLUSTERSIM" plan "$ex" --format table || fail "plan table"
head -1 "$TMP/out" | grep -q '^cheapest that meets the deadline of 720 h: ' && ok || fail "first line: $(head -3 "$TMP/out")"
sed -n 2p "$TMP/out" | grep -q '^fastest that meets the deadline of 720 h: ' && ok || fail "second line: $(head -3 "$TMP/out")"
sed -n 3p "$TMP/out" | grep -q '^  1\. .* finishes in .* h for \$[0-9,]*, the cheapest; the next faster' && ok ||
	fail "why line: $(sed -n 3p "$TMP/out")"
grep -q '^plan: 168 shapes, [0-9]* evaluated ([0-9]* ok), .* dominated; [0-9]* on the front; ' "$TMP/err" && ok ||
	fail "summary: $(cat "$TMP/err")"

# CSV for scripts: the front's rows, run's columns then the plan's.
expect_status 0 "$CLUSTERSIM" plan "$ex" --format csv -o "$TMP/front.csv" || fail "plan -o"
head -1 "$TMP/front.csv" | grep -q ',meets_budget_p90,t_data_stall_s,frac_data_stall,t_straggler_s,expert_tp,recompute_modules,global_batch_tokens,pipeline_split,free_stage_input,numerics,front,plan_rank,why$' && ok ||
	fail "header: $(head -1 "$TMP/front.csv")"
head -1 "$TMP/out" | grep -q '^cheapest that meets' && ok || fail "-o keeps the answer on stdout: $(cat "$TMP/out")"
n=$(sed -n 's/.* \([0-9]*\) on the front.*/\1/p' "$TMP/err")
[ "$(($(wc -l <"$TMP/front.csv") - 1))" -eq "$n" ] && ok || fail "rows $(wc -l <"$TMP/front.csv") vs $n on the front"

# Pruning drops no front point: the unpruned search writes the same bytes.
expect_status 0 "$CLUSTERSIM" plan "$ex" --format csv --no-prune -o "$TMP/all.csv" || fail "no-prune"
cmp -s "$TMP/front.csv" "$TMP/all.csv" && ok || fail "pruned and unpruned fronts differ"
grep -q '^plan: 168 shapes, [0-9]* evaluated' "$TMP/err" && ! grep -q dominated "$TMP/err" && ok ||
	fail "no-prune summary: $(cat "$TMP/err")"

# The P50 front is non-dominated, cost rises with rank, and every row meets the deadline.
expect_status 0 "$CLUSTERSIM" plan "$ex" --format csv --columns plan_rank,wall_time_p50_h,cost_usd_p50,front,meets_deadline_p50 ||
	fail "columns"
awk -F, 'NR > 1 && $1 != "" { t[NR] = $2; c[NR] = $3; r[NR] = $1; if ($5 != "true") bad = 1 }
	END { for (i in t) for (j in t) if (i != j && t[i] <= t[j] && c[i] <= c[j] && (t[i] < t[j] || c[i] < c[j])) bad = 1
	      for (i in t) for (j in t) if (r[i] < r[j] && c[i] > c[j]) bad = 1
	      exit bad }' "$TMP/out" && ok || fail "front dominated or unordered: $(cat "$TMP/out")"

# The same seed gives the same bytes.
"$CLUSTERSIM" plan "$ex" --format csv >"$TMP/a.csv" 2>/dev/null
"$CLUSTERSIM" plan "$ex" --format csv >"$TMP/b.csv" 2>/dev/null
cmp -s "$TMP/a.csv" "$TMP/b.csv" && ok || fail "two plans differ"

# A deadline nothing meets: says so, and gives the front of all shapes.
expect_status 0 "$CLUSTERSIM" plan "$ex" --format table --deadline-h 1 || fail "deadline 1 h"
head -1 "$TMP/out" | grep -qx 'no shape meets the deadline of 1 h; the front of all shapes follows' && ok ||
	fail "unmet deadline: $(head -2 "$TMP/out")"

# A budget: the fastest within it costs at most that.
expect_status 0 "$CLUSTERSIM" plan "$ex" --format table --budget-usd 900000 || fail "budget"
line=$(grep -E '^(cheapest and )?fastest that meets the deadline of 720 h and the budget of \$900,000: ' "$TMP/out")
[ -n "$line" ] && ok || fail "budget verdict: $(head -3 "$TMP/out")"
usd=$(echo "$line" | sed 's/.*h, \$\([0-9,]*\) (P50).*/\1/' | tr -d ,)
[ "$usd" -le 900000 ] && ok || fail "fastest within budget costs $usd"

# --top K why lines.
expect_status 0 "$CLUSTERSIM" plan "$ex" --format table --top 1 || fail "top 1"
[ "$(grep -c '^  [0-9]*\. ' "$TMP/out")" -eq 1 ] && ok || fail "top 1: $(head -5 "$TMP/out")"

# 12 nodes of H100 for Llama 3 70B (96 = 3 x 32 GPUs): the search puts the
# factor 3 in the pipeline, so 2,048 sequences divide and nothing is rounded
# (1e12 tokens in 59,605 steps of 16,777,216).
expect_status 0 "$CLUSTERSIM" run "$ex" --format csv --columns status,pp,steps,reason \
	--set 'candidates[0].nodes=12' || fail "12 nodes"
grep -q '^ok,[0-9]*,59605,' "$TMP/out" && [ $(( $(sed -n 2p "$TMP/out" | cut -d, -f2) % 3 )) -eq 0 ] &&
	! grep -q 'global batch rounded' "$TMP/out" && ok || fail "12 nodes, pp a multiple of 3: $(cat "$TMP/out")"
# with pp and cp held at 1, dp keeps the 3: the rounded batch gives a real answer,
# the stated one an invalid row naming the nearest batch that divides
flat='workload.parallelism={"pp": 1, "cp": 1}'
expect_status 0 "$CLUSTERSIM" run "$ex" --format csv --columns status,reason --set 'candidates[0].nodes=12' \
	--set "$flat" || fail "12 nodes flat"
grep -q '^ok,.*global batch rounded from 2048 to' "$TMP/out" && ok || fail "12 nodes rounded: $(cat "$TMP/out")"
expect_status 1 "$CLUSTERSIM" run "$ex" --format csv --columns status,reason --set 'candidates[0].nodes=12' \
	--set "$flat" --set workload.global_batch_tokens=16777216 || fail "12 nodes unrounded"
grep -q '^invalid,"2048 sequences per step split over no plan.s dp x micro_batch on 96 GPUs: the nearest batch that divides is 2052 sequences' "$TMP/out" &&
	ok || fail "12 nodes reason: $(cat "$TMP/out")"

# Serving: each shape gets the fewest replicas that meet the SLO; the answer is the cheapest per
# hour, every front row meets the SLO, and the front is non-dominated in (TTFT P99, $/h).
sv="$TOP/scenarios/examples/llama3-70b-serve-plan.json"
expect_status 0 "$CLUSTERSIM" plan "$sv" --format table || fail "serving plan"
head -1 "$TMP/out" | grep -q '^cheapest that meets the SLO: .*/h, [0-9]* replicas\{0,1\} x tp 8' && ok ||
	fail "serving answer: $(head -3 "$TMP/out")"
expect_status 0 "$CLUSTERSIM" plan "$sv" --format csv --columns plan_rank,ttft_p99_ms,usd_per_hour,slo_met || fail "serving csv"
awk -F, 'NR > 1 { t[NR] = $2; c[NR] = $3; if ($4 != "true") bad = 1 }
	END { for (i in t) for (j in t) if (i != j && t[i] <= t[j] && c[i] <= c[j] && (t[i] < t[j] || c[i] < c[j])) bad = 1
	      exit bad }' "$TMP/out" && ok || fail "serving front: $(cat "$TMP/out")"
# the cheapest on the front is the cheapest of every shape that meets the SLO (run on each)
cheap=$(sed -n 2p "$TMP/out" | cut -d, -f3)
# "mix": the cheapest mix of two GPU types, cheaper than the cheapest single type.
expect_status 0 "$CLUSTERSIM" plan "$sv" --format table || fail "serving mix"
mix=$(grep '^cheaper as a mix: ' "$TMP/out")
[ -n "$mix" ] && ok || fail "no mix line: $(head -8 "$TMP/out")"
musd=$(echo "$mix" | sed 's/^cheaper as a mix: \$\([0-9,]*\)\/h.*/\1/' | tr -d ,)
[ "$musd" -lt "${cheap%.*}" ] && ok || fail "mix \$$musd/h is not below \$$cheap/h"
expect_status 0 "$CLUSTERSIM" plan "$sv" --format table --set search.mix=false || fail "no mix"
grep -q 'mix' "$TMP/out" && fail "a mix without search.mix: $(cat "$TMP/out")" || ok
expect_status 0 "$CLUSTERSIM" plan "$ex" --format table --set search.mix=true || fail "training mix"
grep -q '^mixes of GPU types: not searched: mixes are for serving$' "$TMP/out" && ok || fail "training mix: $(head -8 "$TMP/out")"
expect_status 2 "$CLUSTERSIM" plan "$sv" --budget-usd 100 || fail "serving budget"
grep -q 'objective is its serving.slo' "$TMP/err" && ok || fail "serving budget: $(cat "$TMP/err")"
for n in 1 2 4 8; do
	"$CLUSTERSIM" run "$sv" --format csv --columns usd_per_hour,slo_met \
		--set "candidates=[{\"preset\":\"lambda-8x-h100\",\"nodes\":$n},{\"preset\":\"nebius-8x-h200\",\"nodes\":$n},{\"preset\":\"coreweave-8x-b200\",\"nodes\":$n},{\"preset\":\"coreweave-8x-h100\",\"nodes\":$n},{\"preset\":\"coreweave-8x-h200\",\"nodes\":$n},{\"preset\":\"aws-p5.48xlarge\",\"nodes\":$n},{\"preset\":\"oracle-bm-gpu-mi300x-8\",\"nodes\":$n},{\"preset\":\"lambda-8x-a100\",\"nodes\":$n}]" 2>/dev/null |
		sed 1d
done | awk -F, -v cheap="$cheap" '$2 == "true" && $1 < cheap - 1e-9 { bad = 1 } END { exit bad }' && ok ||
	fail "a shape meeting the SLO is cheaper than $cheap"

# Bad input: the file, the JSON path and the value; exit 2.
expect_status 2 "$CLUSTERSIM" plan "$ex" --set 'search.presets=["dgx-h1000"]' || fail "unknown preset"
grep -q "search.presets\[0\]" "$TMP/err" && grep -q 'dgx-h1000' "$TMP/err" && ok || fail "unknown preset: $(cat "$TMP/err")"
expect_status 2 "$CLUSTERSIM" plan "$ex" --set 'search.nodes={"min":5,"max":2}' || fail "nodes range"
grep -q 'search.nodes.max' "$TMP/err" && ok || fail "nodes range: $(cat "$TMP/err")"
expect_status 2 "$CLUSTERSIM" plan "$ex" --set 'search.price_types=["cheap"]' || fail "price type"
grep -q 'search.price_types\[0\]' "$TMP/err" && ok || fail "price type: $(cat "$TMP/err")"
expect_status 2 "$CLUSTERSIM" plan "$ex" --set 'search.gpu=["H100"]' || fail "unknown key"
expect_status 2 "$CLUSTERSIM" plan "$ex" --top x || fail "--top x"
expect_status 2 "$CLUSTERSIM" plan "$ex" --deadline-h -3 || fail "--deadline-h -3"
expect_status 2 "$CLUSTERSIM" plan "$TOP/scenarios/examples/nccl-allreduce.json" || fail "collective"
grep -q 'plan needs a training' "$TMP/err" && ok || fail "collective: $(cat "$TMP/err")"

# The work of a search is bounded (docs/plan.md, "Bounds"): 1 to 100,000 nodes of one
# preset are 100,000 shapes, more than the 20,000 one search evaluates (it would have run
# for weeks without a word), and a shape of 100,000 nodes has 800,000 GPUs, more than the
# 65,536 a shape may have; both are refused before anything is evaluated, with the figures
# and how to narrow the search (exit 2, nothing written).
expect_status 2 "$CLUSTERSIM" plan "$ex" --set 'search.nodes={"min":1,"max":100000}' --set 'search.presets=["aws-p5.48xlarge"]' \
	-o "$TMP/wide.csv" || fail "100,000 shapes"
grep -q "^clustersim: plan: '.*llama3-70b-plan.json': 999[0-9][0-9] of the 100000 shapes are left to evaluate once the catalog, the prices, memory, the deadline and the budget have ruled the others out, more than the 20000 one search may evaluate; narrow the search: fewer node counts (search.nodes)" "$TMP/err" &&
	[ ! -e "$TMP/wide.csv" ] && [ ! -s "$TMP/out" ] && ok || fail "100,000 shapes: $(cat "$TMP/err")"
expect_status 2 "$CLUSTERSIM" plan "$ex" --set 'search.nodes=[100000]' --set 'search.presets=["aws-p5.48xlarge"]' ||
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
