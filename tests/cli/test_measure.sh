#!/bin/sh
# validate on a user's measurement files (docs/reference/measurements.md):
# each real fixture of tests/fixtures/measure, with its --on scenario, gives
# rows whose published column is the fixture's figures; a measured run's
# file too; bad measurement files are one line naming the file and the line,
# exit 2, nothing written; -o never replaces the --on scenario.
. "$TOP/tests/cli/lib.sh"

fix="$TOP/tests/fixtures/measure"
cd "$TOP" || exit 1

# published ID: the published column of row ID in $TMP/out
published() {
	awk -F, -v id="$1" '$1 == id { print $3 }' "$TMP/out"
}

# check_row ID VALUE: row ID's published figure is VALUE exactly
check_row() {
	got=$(published "$1")
	[ "$got" = "$2" ] && ok || fail "$1: published '$got', wanted $2"
}

# nccl-tests: 31 rows; the busbw rows carry the file's out-of-place busbw.
"$CLUSTERSIM" validate "$fix/nccl-tests-a3mega-h100x16-all_reduce.txt" --on "$fix/on-a3mega-h100x16.json" \
	--format csv --columns id,metric,published,status >"$TMP/out" 2>"$TMP/err"
[ "$(wc -l <"$TMP/out")" -eq 32 ] && ok || fail "nccl-tests: $(wc -l <"$TMP/out") lines, wanted 32"
s=nccl-tests-a3mega-h100x16-all_reduce_all_reduce
check_row "${s}_8" 135.8
check_row "${s}_134217728" 152.32
check_row "${s}_8589934592" 338.82

# vLLM --save-result JSON: every figure as written (shortest round trip)
"$CLUSTERSIM" validate "$fix/vllm-bench-llama32-3b-l40s-10qps.json" --on "$fix/on-llama32-3b-l40s-x4.json" \
	--format csv --columns id,metric,published >"$TMP/out" 2>"$TMP/err"
s=vllm-bench-llama32-3b-l40s-10qps
check_row "${s}_request_per_s" 8.32541
check_row "${s}_ttft_mean_ms" 54.5771
check_row "${s}_itl_p99_ms" 34.2104

# trtllm-bench's report
"$CLUSTERSIM" validate "$fix/trtllm-bench-llama31-8b-fp8-throughput.txt" --on "$fix/on-llama31-8b-h100-trtllm.json" \
	--format csv --columns id,metric,published >"$TMP/out" 2>"$TMP/err"
s=trtllm-bench-llama31-8b-fp8-throughput
check_row "${s}_request_per_s" 221.8
check_row "${s}_output_tok_s" 28390.4

# a measured run: a scenario with a measured block; id and family from the file's name
cat >"$TMP/my-h100-step.json" <<'JSON'
{ "workload": { "kind": "collective", "collective": { "op": "all_reduce", "bytes": 1073741824 } },
  "candidates": [ { "preset": "dgx-h100" } ],
  "measured": { "metric": "busbw_GBps", "value": 480.5, "with": "nccl-tests 2.13 all_reduce_perf -g 8" } }
JSON
"$CLUSTERSIM" validate "$TMP/my-h100-step.json" --format csv --columns id,metric,published,source >"$TMP/out" 2>"$TMP/err"
check_row my-h100-step 480.5
grep -q "measured with nccl-tests 2.13 all_reduce_perf -g 8; $TMP/my-h100-step.json" "$TMP/out" && ok ||
	fail "measured run: source: $(cat "$TMP/out")"

# bad files: exit 2, one line naming the file (and line), nothing written
bad() {
	name=$1 expect=$2
	shift 2
	rm -f "$TMP/rows.csv"
	if status_is 2 "$CLUSTERSIM" validate "$@" -o "$TMP/rows.csv" && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -qF "$expect" "$TMP/err" && [ ! -e "$TMP/rows.csv" ] && [ ! -s "$TMP/out" ]; then
		ok
	else
		fail "$name: wanted exit 2 and one line with '$expect': $(head -2 "$TMP/err")"
	fi
}
{ head -39 "$fix/nccl-tests-a3mega-h100x16-all_reduce.txt"; sed -n 40p "$fix/nccl-tests-a3mega-h100x16-all_reduce.txt" |
	cut -c1-75; } >"$TMP/cut.txt"
bad truncated "cut.txt': line 40: a row of 8 fields, 13 expected" "$TMP/cut.txt" --on "$fix/on-a3mega-h100x16.json"
head -31 "$fix/nccl-tests-a3mega-h100x16-all_reduce.txt" >"$TMP/norows.txt"
bad "no rows" "norows.txt': line 30: a column header with no rows" "$TMP/norows.txt" --on "$fix/on-a3mega-h100x16.json"
bad "no --on" "give the cluster's (and deployment's) scenario with --on" "$fix/nccl-tests-a3mega-h100x16-all_reduce.txt"
bad "GPU count" "the run was on 16 GPUs, but the --on scenario's cluster" \
	"$fix/nccl-tests-a3mega-h100x16-all_reduce.txt" --on "$fix/on-llama31-8b-h100-trtllm.json"
printf '{"request_throughput": {"avg": 3.1}, "output_token_throughput": {"avg": 100}}\n' >"$TMP/genai-perf.json"
bad "another tool's JSON" "genai-perf.json': not a measurement file of a known format (read: measured-runs, nccl-tests" \
	"$TMP/genai-perf.json" --on "$fix/on-llama32-3b-l40s-x4.json"
bad "serving file on a cluster scenario" "needs --on the deployment's scenario" \
	"$fix/vllm-bench-llama32-3b-l40s-10qps.json" --on "$fix/on-a3mega-h100x16.json"
sed 's/"busbw_GBps"/"bus_bw"/' "$TMP/my-h100-step.json" >"$TMP/badmetric.json"
bad "unknown metric" "measured.metric" "$TMP/badmetric.json"
sed 's/"value": 480.5, //' "$TMP/my-h100-step.json" >"$TMP/novalue.json"
bad "missing value" "measured.value" "$TMP/novalue.json"
{ tr -d '\n' <"$TMP/my-h100-step.json"; echo; echo '{"measured": '; } >"$TMP/runs.jsonl"
bad "JSONL line not JSON" "runs.jsonl': line 2: not JSON" "$TMP/runs.jsonl"
# a rate under a max_concurrency cap is no arrival process the model has: refused, not
# predicted as if uncapped
sed 's/"max_concurrency": null/"max_concurrency": 32/' "$fix/vllm-bench-llama32-3b-l40s-10qps.json" >"$TMP/capped.json"
bad "rate with a concurrency cap" "max_concurrency 32 with request_rate 10: arrivals at a rate under a cap" \
	"$TMP/capped.json" --on "$fix/on-llama32-3b-l40s-x4.json"

# -o never replaces the --on scenario
cp "$fix/on-a3mega-h100x16.json" "$TMP/on.json"
status_is 2 "$CLUSTERSIM" validate "$fix/nccl-tests-a3mega-h100x16-all_reduce.txt" --on "$TMP/on.json" -o "$TMP/on.json" &&
	cmp -s "$TMP/on.json" "$fix/on-a3mega-h100x16.json" && ok || fail "-o the --on scenario: not refused"

[ "$fails" -eq 0 ] || { echo "$fails of $((checks + fails)) checks failed"; exit 1; }
echo "$checks checks passed"
