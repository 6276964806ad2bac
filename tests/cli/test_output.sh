#!/bin/sh
# Output for people and for scripts: the table's default columns and units,
# --columns help and all, JSON types, JSONL (run and a streamed sweep), and
# CSV/JSON keeping every column. (The exact tables are golden files:
# tests/golden/*-table.args.)
. "$TOP/tests/cli/lib.sh"
cd "$TOP" || exit 1
ex=scenarios/examples/llama3-70b-pretrain.json
whole=scenarios/examples/llama3-70b-whole-run.json
sw=scenarios/examples/sweep-nccl.json

# a table: the short default set, with dollars, percents and days
expect_status 0 "$CLUSTERSIM" run "$ex" --format table &&
	head -1 "$TMP/out" | grep -q '^candidate  *status  *gpus  *tp  *pp  *dp  *step_time_s  *tokens_per_s  *mfu  *wall_time_p50_h  *cost_usd_p50  *reason$' &&
	grep -q '^16 x p5 on-demand .* 40\.3%  *109\.1 d  *\$2,306,829 *$' "$TMP/out" && ok || fail "default table columns and units"
# a status other than ok stays visible, with its reason
grep -q '16 x p5en spot  *unsupported .*spot preemptions' "$TMP/out" && ok || fail "unsupported row in the default table"
expect_status 0 "$CLUSTERSIM" run "$whole" --format table &&
	grep -q '16 x p5en spot  *unsupported .*spot preemptions' "$TMP/out" && ok || fail "whole-run table shows the spot row unsupported"

# --columns all: every column, the same as CSV's header
"$CLUSTERSIM" run "$ex" --format csv >"$TMP/all.csv" 2>/dev/null
ncsv=$(head -1 "$TMP/all.csv" | tr ',' '\n' | wc -l)
expect_status 0 "$CLUSTERSIM" run "$ex" --format table --columns all &&
	[ "$(head -1 "$TMP/out" | wc -w)" -eq "$ncsv" ] && ok || fail "--columns all"
# CSV (piped), JSON and -o FILE keep every column
expect_status 0 "$CLUSTERSIM" run "$ex" && cmp -s "$TMP/out" "$TMP/all.csv" && ok || fail "piped output is the full CSV"
expect_status 0 "$CLUSTERSIM" run "$ex" -o "$TMP/o.csv" && cmp -s "$TMP/o.csv" "$TMP/all.csv" && ok || fail "-o FILE is the full CSV"
expect_status 0 "$CLUSTERSIM" run "$ex" --format table -o "$TMP/o.txt" &&
	[ "$(head -1 "$TMP/o.txt" | wc -w)" -eq "$ncsv" ] && ok || fail "-o FILE table keeps every column"
tail -1 "$TMP/all.csv" | grep -q ',bf16,448,48\.109,141,2594,,,,,,,4\.47249,,core_attn$' && ok || fail "mem_per_gpu_gib and gpu_memory_gib, then billed_h, then the objective's four (empty), then the data wait's two (empty, no data block), then t_straggler_s, then expert_tp (empty: a dense model), then recompute_modules (the default, core_attn), at the end"

# --columns help: every column, each with a unit and a meaning; exits 0
expect_status 0 "$CLUSTERSIM" run "$ex" --columns help && ok || fail "--columns help status"
head -1 "$TMP/all.csv" | tr ',' '\n' >"$TMP/cols"
n=0
while read -r c; do
	line=$(grep "^$c  " "$TMP/out")
	set -- $line
	if [ $# -ge 3 ] && [ "$2" != "-" ]; then n=$((n + 1)); else fail "--columns help: '$c' has no unit"; fi
done <"$TMP/cols"
[ "$n" -eq "$ncsv" ] && ok || fail "--columns help lists $n of $ncsv columns"
grep -q '^mem_per_gpu_gib  *GiB (2^30 bytes)' "$TMP/out" && grep -q '^mfu  *fraction' "$TMP/out" &&
	grep -q '^cost_usd_p50  *USD' "$TMP/out" && ok || fail "--columns help units"
expect_status 0 "$CLUSTERSIM" run "$whole" --columns help && ok || fail "--columns help exits 0 when no row would be ok"
expect_status 0 "$CLUSTERSIM" run scenarios/examples/nccl-allreduce.json --columns help &&
	grep -q '^busbw_GBps  *GB/s' "$TMP/out" && ok || fail "--columns help for a collective"

# JSON: booleans, integers, reals
expect_status 0 "$CLUSTERSIM" run "$ex" --format json &&
	python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
r = rows[0]
assert r["sequence_parallel"] is True, r["sequence_parallel"]
for k in ("steps", "micro_batches", "gpus", "tp", "pp", "dp", "row_id", "seed", "plans_tried"):
    assert type(r[k]) is int, (k, r[k])
for k in ("mfu", "step_time_s", "mem_per_gpu_gib", "gpu_memory_gib"):
    assert type(r[k]) is float, (k, r[k])
assert rows[1]["wall_time_p50_h"] is None
' "$TMP/out" && ok || fail "JSON types"

# JSONL: one object a line, the same rows as JSON
expect_status 0 "$CLUSTERSIM" run "$ex" --format json && mv "$TMP/out" "$TMP/run.json"
expect_status 0 "$CLUSTERSIM" run "$ex" --format jsonl &&
	python3 -c '
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "ends with a newline"
rows = [json.loads(l) for l in lines[:-1]]
assert all(isinstance(r, dict) for r in rows)
assert rows == json.load(open(sys.argv[2]))
' "$TMP/out" "$TMP/run.json" && ok || fail "run --format jsonl"

# sweep: JSONL streams one object a line, the CSV's rows; --columns
"$CLUSTERSIM" sweep "$sw" >"$TMP/sw.csv" 2>/dev/null
expect_status 0 "$CLUSTERSIM" sweep "$sw" --format jsonl --jobs 2 &&
	python3 -c '
import csv, json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
want = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(want) > 0, (len(rows), len(want))
for r, w in zip(rows, want):
    assert list(r) == list(w)
    assert r["sweep_fingerprint"] == w["sweep_fingerprint"] and str(r["row_id"]) == w["row_id"]
' "$TMP/out" "$TMP/sw.csv" && ok || fail "sweep --format jsonl"
mv "$TMP/out" "$TMP/stdout.jsonl"
expect_status 0 "$CLUSTERSIM" sweep "$sw" --format jsonl -o "$TMP/sw.jsonl" &&
	cmp -s "$TMP/sw.jsonl" "$TMP/stdout.jsonl" && ok || fail "sweep jsonl -o FILE"
expect_status 0 "$CLUSTERSIM" sweep "$sw" --columns 'row_id,set:candidates[0].preset,bytes,busbw_GBps,sweep_fingerprint' &&
	head -1 "$TMP/out" | grep -qx 'row_id,set:candidates\[0\].preset,bytes,busbw_GBps,sweep_fingerprint' &&
	[ "$(wc -l <"$TMP/out")" -eq "$(wc -l <"$TMP/sw.csv")" ] && ok || fail "sweep --columns"
expect_status 0 "$CLUSTERSIM" sweep "$sw" --columns help &&
	grep -q '^sweep_fingerprint  *hex' "$TMP/out" && grep -q '^set:candidates\[0\].nodes ' "$TMP/out" &&
	ok || fail "sweep --columns help"
expect_status 2 "$CLUSTERSIM" sweep "$sw" --columns row_id,nope && grep -q "no column named 'nope'" "$TMP/err" &&
	ok || fail "sweep --columns with an unknown column"
expect_status 2 "$CLUSTERSIM" sweep "$sw" --columns row_id -o "$TMP/r.csv" --resume && ok || fail "--resume refuses --columns"
expect_status 0 "$CLUSTERSIM" sweep "$sw" --columns all && cmp -s "$TMP/out" "$TMP/sw.csv" && ok || fail "sweep --columns all"

# an oom reason in GiB with both numbers, and in GB
expect_status 1 "$CLUSTERSIM" run "$ex" --set workload.parallelism.tp=1 --set workload.parallelism.pp=1 \
	--columns candidate,status,reason &&
	grep -q '^16 x p5 on-demand,oom,"needs [0-9.]* GiB per GPU (.*) but one H100-SXM has 80.0 GiB ([0-9.]* GB of 85.9 GB)"' "$TMP/out" &&
	ok || fail "oom reason in GiB"
# a searched plan says what was searched
expect_status 0 "$CLUSTERSIM" run "$ex" --set 'workload.parallelism="auto"' --columns reason --format csv &&
	grep -q 'fastest of [0-9]* plans searched (tp, pp, vpp, zero, micro-batch, recompute); [0-9]* of them did not fit in memory' "$TMP/out" &&
	ok || fail "search reason"
finish
