#!/bin/sh
# clustersim trace: each plan's trace is checked against the Trace Event
# Format and its time accounting against the run row of the same plan
# (tests/cli/trace_check.py says what and with which tolerances): 1F1B,
# interleaved, ZB-H1, GPipe, an MoE plan with expert parallelism, context
# parallelism, ZeRO-3, userbuffers overlap, and the full mode. The checker
# runs once for all the plans (a Python start is dear next to a plan).
. "$TOP/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
check="$TOP/tests/cli/trace_check.py"

# plan NAME MODEL NODES BATCH PARALLELISM [MODE]: trace and run the plan;
# its pair joins $pairs, for check_plans
pairs=""
names=""
plan() {
	cat >"$TMP/$1.json" <<JSON
{ "name": "$1", "workload": { "kind": "training", "model": "$2", "seq_len": ${SEQ:-4096}, "global_batch_tokens": $4,
    "mode": "${6:-representative}", "parallelism": $5 },
  "candidates": [ { "name": "c", "preset": "dgx-h100", "nodes": $3 } ] }
JSON
	expect_status 0 "$CLUSTERSIM" trace "$TMP/$1.json" -o "$TMP/$1.trace.json" || return
	expect_status 0 "$CLUSTERSIM" run "$TMP/$1.json" --format csv -o "$TMP/$1.csv" || return
	pairs="$pairs $TMP/$1.trace.json $TMP/$1.csv"
	names="$names $1"
}

# check_plans: trace_check.py on every pair at once; one check per plan
check_plans() {
	# shellcheck disable=SC2086
	python3 "$check" $pairs >"$TMP/checks" 2>&1
	for n in $names; do
		grep -F "$TMP/$n.trace.json: " "$TMP/checks" | sed "s|^$TMP/$n.trace.json: |$n: |" >"$TMP/$n.check"
		if [ "$(tail -1 "$TMP/$n.check")" = "$n: ok" ]; then
			ok
			sed '$d' "$TMP/$n.check"
		else
			fail "$n: $(cat "$TMP/$n.check") $(grep -v '^/' "$TMP/checks")"
		fi
	done
}

base='"cp": 1, "ep": 1, "micro_batch": 1, "recompute": "selective", "sequence_parallel": true'
plan 1f1b llama3-8b 2 32768 "{ \"tp\": 8, \"pp\": 2, \"vpp\": 1, \"zero\": 1, \"schedule\": \"1f1b\", $base }"
plan interleaved llama3-70b 8 262144 "{ \"tp\": 8, \"pp\": 4, \"vpp\": 5, \"zero\": 1, \"schedule\": \"interleaved\", $base }"
plan zb llama3-8b 4 131072 "{ \"tp\": 4, \"pp\": 4, \"vpp\": 1, \"zero\": 0, \"schedule\": \"zb-h1\", $base }"
plan gpipe llama3-8b 2 65536 "{ \"tp\": 4, \"pp\": 2, \"vpp\": 1, \"zero\": 0, \"schedule\": \"gpipe\", \"recompute\": \"full\", \"cp\": 1, \"ep\": 1, \"micro_batch\": 1, \"sequence_parallel\": false }"
plan moe mixtral-8x7b 4 262144 "{ \"tp\": 2, \"pp\": 2, \"vpp\": 1, \"zero\": 1, \"schedule\": \"1f1b\", \"cp\": 1, \"ep\": 4, \"micro_batch\": 1, \"recompute\": \"selective\", \"sequence_parallel\": true }"
SEQ=32768 plan cp llama3-8b 4 524288 "{ \"tp\": 4, \"pp\": 2, \"vpp\": 1, \"zero\": 1, \"schedule\": \"1f1b\", \"cp\": 2, \"ep\": 1, \"micro_batch\": 1, \"recompute\": \"selective\", \"sequence_parallel\": true }"
plan zero3 llama3-8b 2 65536 "{ \"tp\": 2, \"pp\": 1, \"vpp\": 1, \"zero\": 3, \"schedule\": \"1f1b\", $base }"
plan overlap llama3-70b 4 131072 "{ \"tp\": 8, \"pp\": 4, \"vpp\": 1, \"zero\": 1, \"schedule\": \"1f1b\", \"tp_comm_overlap\": true, $base }"
plan full llama3-8b 4 131072 "{ \"tp\": 4, \"pp\": 2, \"vpp\": 1, \"zero\": 1, \"schedule\": \"1f1b\", $base }" full
check_plans

# What the trace holds: TP collectives nested in the operations, transfers
# as sends and receives with a flow each, DP buckets, args on operations.
t="$TMP/interleaved.trace.json"
python3 - "$t" <<'PY' && ok || fail "interleaved trace contents"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
x = [e for e in ev if e["ph"] == "X"]
cats = {e["cat"] for e in x}
assert {"compute", "comm_tp", "pp_send", "pp_recv", "dp_bucket", "optimizer", "straggler"} <= cats, cats
assert any(e["name"] == "gradient-norm all-reduce" for e in x)
op = next(e for e in x if e["name"] == "F mb0 chunk1")
assert {"layer_first", "layer_last", "flops", "micro_batch", "virtual_stage"} <= set(op["args"]), op
assert op["args"]["virtual_stage"] == 4 and op["args"]["layer_first"] == 16, op
names = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
assert {"GPU 0 compute", "GPU 0 comm", "GPU 8 compute"} <= names, names
assert any(e["ph"] == "M" and e["name"] == "process_name" and e["args"]["name"] == "node 1" for e in ev)
assert sum(e["ph"] == "s" for e in ev) == sum(e["ph"] == "f" for e in ev) > 0
PY

# A trace holds at most 1,000,000 events: a step of 2,048 micro-batches over 8 stages logs
# more (it was a 334 MB file, with 3.9 GB held in memory to write it); refused as soon as
# the step has logged that many spans (exit 2, nothing written).
cat >"$TMP/big.json" <<'JSON'
{ "name": "big", "workload": { "kind": "training", "model": "llama3-70b", "seq_len": 4096, "global_batch_tokens": 67108864,
    "parallelism": { "tp": 8, "pp": 8, "vpp": 1, "dp": 2, "zero": 1, "schedule": "1f1b", "cp": 1, "ep": 1, "micro_batch": 1,
                     "recompute": "selective", "sequence_parallel": true } },
  "candidates": [ { "name": "c", "preset": "dgx-h100", "nodes": 16 } ] }
JSON
status_is 2 "$CLUSTERSIM" trace "$TMP/big.json" -o "$TMP/big.trace.json" && ok || fail "a trace of more than 1e6 events"
grep -q "^clustersim: trace: candidate 'c': the step logs more than 1000000 spans, the most a trace holds; trace a smaller step" "$TMP/err" &&
	[ ! -e "$TMP/big.trace.json" ] && ok || fail "a trace of more than 1e6 events: $(cat "$TMP/err")"
finish
