#!/bin/sh
# The whole run is simulated: the same seed gives the same bytes, another
# seed another P90; ETTR below 1 with failures; the split sums to 1.
. "$TOP/tests/cli/lib.sh"
whole="$TOP/scenarios/examples/llama3-70b-whole-run.json"
cols=candidate,status,wall_time_p50_h,wall_time_p90_h,ettr,frac_compute,frac_comm_exposed,frac_bubble,frac_checkpoint,frac_lost_to_failures,frac_idle
status_is 0 "$CLUSTERSIM" run "$whole" --format csv --columns "$cols" && ok || fail "run"
cp "$TMP/out" "$TMP/a"
status_is 0 "$CLUSTERSIM" run "$whole" --format csv --columns "$cols" && ok || fail "run again"
cmp -s "$TMP/out" "$TMP/a" && ok || fail "same seed, different bytes"
status_is 0 "$CLUSTERSIM" run "$whole" --format csv --columns "$cols" --set seed=7 && ok || fail "seed 7"
[ "$(grep '^16 x p5 on-demand' "$TMP/a" | cut -d, -f4)" != "$(grep '^16 x p5 on-demand' "$TMP/out" | cut -d, -f4)" ] &&
	ok || fail "another seed, the same P90: $(cat "$TMP/out")"
grep ',ok,' "$TMP/a" | awk -F, '{ s = $6 + $7 + $8 + $9 + $10 + $11; if ($5 >= 1 || $5 < 0.9 || s < 0.9999 || s > 1.0001 || $4 < $3) bad = 1 } END { exit bad }' &&
	ok || fail "ETTR in (0.9, 1), split sums to 1, P90 >= P50: $(cat "$TMP/a")"

# The README's Llama 3 8B sweep: 6 points x 6 candidates, every row ok. With
# checkpoints on managed Lustre a spot row costs less than its on-demand
# row; on 16 nodes Lustre's fixed aggregate makes checkpoints a larger share
# than node-local NVMe's, which scales with the nodes; checkpoints on local
# NVMe leave with a preempted instance, so spot on local NVMe has the lower
# ETTR. Columns: candidate,nodes,tier,status,ettr,cost_usd_p50,frac_checkpoint.
sw="$TOP/scenarios/examples/sweep-llama3-8b.json"
status_is 0 "$CLUSTERSIM" sweep "$sw" --format csv \
	--columns candidate,nodes,set:workload.checkpoint.tier,status,ettr,cost_usd_p50,frac_checkpoint && ok || fail "sweep-llama3-8b"
sed 1d "$TMP/out" >"$TMP/s8"
[ "$(wc -l <"$TMP/s8")" -eq 36 ] && [ "$(grep -c ',ok,' "$TMP/s8")" -eq 36 ] && ok || fail "sweep-llama3-8b: 36 ok rows: $(head -3 "$TMP/s8")"
val() { awk -F, -v c="$1" -v n="$2" -v t="$3" -v f="$4" '$1 == c && $2 == n && $3 == t { print $f }' "$TMP/s8"; }
for g in p5 p5en a3-high; do
	for n in 1 4 16; do
		awk -v s="$(val "$g spot" $n lustre 6)" -v o="$(val "$g on-demand" $n lustre 6)" 'BEGIN { exit !(s < o) }' &&
			ok || fail "$g on $n nodes: spot on Lustre not cheaper than on-demand"
		awk -v l="$(val "$g spot" $n local 5)" -v m="$(val "$g spot" $n lustre 5)" 'BEGIN { exit !(l < m) }' &&
			ok || fail "$g on $n nodes: spot ETTR on local NVMe not below Lustre's"
	done
	awk -v m="$(val "$g on-demand" 16 lustre 7)" -v l="$(val "$g on-demand" 16 local 7)" 'BEGIN { exit !(m > 2 * l) }' &&
		ok || fail "$g on 16 nodes: Lustre checkpoints not slower than local NVMe"
done

# Failures without workload.checkpoint: the row is ok and its reason names
# the assumption (synchronous checkpoints to the candidate's "pfs" at
# Daly's interval); a candidate with no file system tier is invalid and its
# reason says what to write.
cat >"$TMP/nockpt.json" <<'JSON'
{"workload": {"kind": "training", "model": "llama3-8b", "precision": "bf16", "seq_len": 4096,
  "global_batch_tokens": 4194304, "tokens": 2e10, "parallelism": {"tp": 1, "pp": 1, "dp": "auto"},
  "failures": "llama3"},
 "candidates": [{"name": "dgx", "preset": "dgx-h100", "nodes": 4},
                {"name": "gcp", "preset": "gcp-a3-highgpu-8g", "nodes": 4}],
 "monte_carlo": {"trials": 2}}
JSON
status_is 0 "$CLUSTERSIM" run "$TMP/nockpt.json" --format csv --columns candidate,status,reason && ok || fail "no checkpoint"
grep -q '^dgx,ok,"no workload.checkpoint: assumed synchronous checkpoints to ""pfs"" at Daly' "$TMP/out" &&
	ok || fail "no checkpoint: the assumption is not in the reason: $(cat "$TMP/out")"
grep -q '^gcp,invalid,.*workload.checkpoint is not given.*{""tier"": ""object"", ""interval_s"": ""auto""}' "$TMP/out" &&
	ok || fail "no checkpoint, no file system: $(cat "$TMP/out")"
finish
