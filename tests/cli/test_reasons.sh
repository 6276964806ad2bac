#!/bin/sh
# Reasons are whole. A sweep row whose reason has many clauses (the whole
# run's notes, the plan search, the rounded batch: about 680 bytes) keeps
# its last clause (it was cut at 511 bytes, in half the rows of a sweep of
# such points); a fleet's reason keeps the whole candidate name (it was cut
# at 60 bytes); a message past its bound ends with the cut mark
# ("... [cut: N more bytes]", tests/unit/test_text.c), never cut silently.
. "$TOP/tests/cli/lib.sh"
C=$CLUSTERSIM

# reason_of FILE ROW_ID: the reason of the first row with that row_id in a results CSV
reason_of() {
	python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    if r["row_id"] == sys.argv[2]:
        sys.stdout.write(r["reason"])
        break
' "$1" "$2"
}

# Llama 3 8B on 3 and 6 p5 nodes at a spot price with a preemption rate:
# data read from a tier, asynchronous checkpoints, failures with a spare
# node, the plan searched, the batch of 488 sequences rounded to split.
cat >"$TMP/long.json" <<'EOF'
{ "name": "long-reason", "seed": 42,
  "workload": { "kind": "training", "model": "llama3-8b", "precision": "bf16", "seq_len": 8192,
    "global_batch_tokens": { "target": 3997696, "round": true }, "tokens": 1e11, "parallelism": "auto",
    "checkpoint": { "interval_s": "auto", "tier": "lustre", "async": true },
    "data": { "tier": "lustre" },
    "failures": { "gpu_mtbf_h": 50000, "node_mtbf_h": 20000, "restart_s": 600, "spare_nodes": 1 } },
  "candidates": [ { "name": "p5 spot", "preset": "aws-p5.48xlarge", "nodes": 3,
    "storage": [ "local-nvme-p5", { "tier": "lustre", "preset": "fsx-lustre-persistent2-1000", "capacity_tib": 9.6 } ],
    "price": { "type": "spot", "preemptions_per_instance_h": 0.01, "capacity_wait_s": 1800 } } ],
  "monte_carlo": { "trials": 10 } }
EOF
printf '{ "base": "long.json", "axes": { "candidates[0].nodes": [3, 6] } }\n' >"$TMP/sweep.json"
status_is 0 "$C" sweep "$TMP/sweep.json" -o "$TMP/long.csv" && ok || fail "long-reason sweep"
for p in "0 24" "1 48"; do
	set -- $p
	r=$(reason_of "$TMP/long.csv" "$1")
	last="; global batch rounded from 488 to 480 sequences (3932160 tokens) to split over dp $2 x micro_batch 1"
	[ "${#r}" -gt 511 ] && [ "${r%"$last"}" != "$r" ] && ok ||
		fail "point $1: the reason (${#r} bytes) does not end with '$last': $r"
	case $r in
	*"; 1 spare nodes billed idle: \$"*"; fastest of "*" plans searched ("*) ok ;;
	*) fail "point $1: clauses lost: $r" ;;
	esac
	case $r in *"[cut:"*) fail "point $1: cut: $r" ;; *) ok ;; esac
done

# A fleet whose class does not fit on its node: the reason names the
# candidate whole (a 163-byte name), then the class's reason whole.
name="an H100 cluster whose name is long because the team that wrote this sweep names each shape by its site, its row, its rack, its fabric and its price plan"
cat >"$TMP/fleet.json" <<EOF
{ "name": "fleet-long", "seed": 7,
  "workload": { "kind": "fleet", "fleet": { "duration_h": 48, "warmup_h": 0, "scheduler": { "policy": "fifo" },
    "jobs": [ { "name": "pretrain-405b", "team": "research", "arrival": { "process": "poisson", "rate_per_h": 0.1 },
      "gpus": 8, "workload": { "kind": "training", "model": "llama3-405b", "precision": "bf16", "seq_len": 8192,
        "global_batch_tokens": 16777216, "tokens": 1e9, "parallelism": { "tp": 8, "pp": 1, "dp": "auto" } } } ] } },
  "candidates": [ { "name": "$name", "preset": "crusoe-8x-h100", "nodes": 4 } ] }
EOF
status_is 1 "$C" run "$TMP/fleet.json" --format csv -o "$TMP/fleet.csv" && ok || fail "fleet run"
r=$(reason_of "$TMP/fleet.csv" 0)
case $r in
"jobs[0] \"pretrain-405b\": its workload is oom on 8 GPUs of \"$name\": needs "*" GiB per GPU ("*") but one H100-SXM has 80.0 GiB ("*" GB of 85.9 GB); none of the "*" plans searched ("*") fits: this one needs the least") ok ;;
*) fail "fleet: the candidate's whole name and the class's whole reason: $r" ;;
esac

# A point that does not load (point 1, -1 nodes), its message past the
# 1023 bytes an error holds (its base's path is 1000 bytes): the row's
# reason is the message's start and the cut mark, with the count of bytes
# left out.
deep=$TMP
while [ $((${#deep} + 10)) -lt 1000 ]; do
	n=$((1000 - ${#deep} - 11))
	[ "$n" -gt 200 ] && n=200
	deep=$deep/$(printf "%0${n}d" 0)
done
mkdir -p "$deep" && cp "$TMP/long.json" "$deep/" || fail "deep directory"
[ "$(printf %s "$deep/long.json" | wc -c)" -eq 1000 ] && ok || fail "deep: the base's path is not 1000 bytes: $deep"
printf '{ "base": "long.json", "axes": { "candidates[0].nodes": [3, -1] } }\n' >"$deep/sweep.json"
status_is 0 "$C" sweep "$deep/sweep.json" -o "$TMP/deep.csv" && ok || fail "deep sweep"
r=$(reason_of "$TMP/deep.csv" 1)
case $r in
"scenario '$TMP/"*"... [cut: "*" more bytes]") [ "${#r}" -eq 1023 ] && ok || fail "deep: ${#r} bytes: $r" ;;
*) fail "deep: the message's start and the cut mark: $r" ;;
esac
finish
