#!/bin/sh
# No silent answers: what a scenario asks for that is read but not modelled
# yet gives a row with status unsupported and a reason naming it, without
# the figures that would depend on it; run exits 1 when no row is ok.
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples/llama3-70b-pretrain.json"
whole="$TOP/scenarios/examples/llama3-70b-whole-run.json"
cols=candidate,status,reason,step_time_s,mfu,wall_time_p50_h,cost_usd_p50,ettr,frac_compute

# The whole-run example asks for checkpoints, failures and trials, which are
# simulated: its on-demand rows are ok with run figures; the spot row is
# unsupported, names spot, keeps the step's figures and leaves out the run's.
status_is 0 "$CLUSTERSIM" run "$whole" --format csv --columns "$cols" && ok || fail "whole run exit status"
[ "$(tail -n +2 "$TMP/out" | grep -c ',ok,')" -eq 4 ] && ok || fail "4 ok rows: $(cat "$TMP/out")"
grep '^16 x p5en spot,unsupported,' "$TMP/out" | grep -q 'price type spot' && ok || fail "spot candidate not named"
grep '^16 x p5en spot,' "$TMP/out" | awk -F'"' '{ print $1 $3 }' | awk -F, '$4 == "" || $5 == "" || $6 != "" || $7 != "" || $8 != "" || $9 != "" { bad = 1 } END { exit bad }' &&
	ok || fail "spot: step figures kept, run figures left out: $(cat "$TMP/out")"
grep ',ok,' "$TMP/out" | grep -q 'job MTBF' && ok || fail "ok rows say the checkpoint and MTBF: $(cat "$TMP/out")"
# With a preemption rate and a capacity wait the spot row is simulated: ok, with run figures.
status_is 0 "$CLUSTERSIM" run "$whole" --format csv --columns "$cols" \
	--set 'candidates[1].price={"type":"spot","preemptions_per_instance_h":0.01,"capacity_wait_s":1800}' && ok ||
	fail "spot with a rate: exit status"
grep '^16 x p5en spot,ok,' "$TMP/out" | grep -q 'preemptions per instance-hour' && ok ||
	fail "spot with a rate: ok, the preemptions said: $(cat "$TMP/out")"
grep '^16 x p5en spot,' "$TMP/out" | awk -F'"' '{ print $1 $3 }' | awk -F, '$6 == "" || $7 == "" || $8 == "" { bad = 1 } END { exit bad }' &&
	ok || fail "spot with a rate: run figures given: $(cat "$TMP/out")"

# Failures (Weibull ones too), checkpoints and trials alone leave the on-demand rows ok.
for set in 'workload.failures={"gpu_mtbf_h":50000,"distribution":"weibull","shape":0.7}' 'workload.failures="llama3"' 'workload.checkpoint={"interval_s":3600,"tier":"pfs"}' \
	   'monte_carlo={"trials":10}'; do
	expect_status 0 "$CLUSTERSIM" run "$ex" --format csv --columns candidate,status --set "$set" || continue
	[ "$(grep -c ',ok$' "$TMP/out")" -eq 4 ] && ok || fail "--set $set: $(cat "$TMP/out")"
done
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --columns candidate,status && ok || fail "example"
[ "$(grep -c ',ok$' "$TMP/out")" -eq 4 ] && grep -q '^16 x p5en spot,unsupported$' "$TMP/out" && ok ||
	fail "4 ok rows, the spot one unsupported: $(cat "$TMP/out")"

# Serving is simulated, but failures during serving are not: an inference
# workload that asks for them is an unsupported row naming them, with the
# inference columns and no latency or throughput, exit 1.
cat >"$TMP/inf.json" <<'JSON'
{ "workload": { "kind": "inference", "model": "llama3-8b", "failures": "llama3",
    "serving": { "arrival": { "process": "poisson", "rate_per_s": 5 }, "prompt_tokens": 1000,
                 "output_tokens": 200, "duration_s": 60 } },
  "candidates": [ { "name": "one", "preset": "dgx-h100", "nodes": 1 } ] }
JSON
status_is 1 "$CLUSTERSIM" run "$TMP/inf.json" --format csv && ok || fail "inference exit status"
head -1 "$TMP/out" | grep -q '^scenario,candidate,row_id,seed,status,reason,gpu,gpus,replicas,tp,pp,rate_per_s,throughput_tok_s' &&
	ok || fail "inference columns: $(head -1 "$TMP/out")"
tail -n +2 "$TMP/out" | grep -q '^[^,]*,one,0,[0-9]*,unsupported,failures during serving (workload.failures) are not modelled' && ok ||
	fail "inference row: $(cat "$TMP/out")"
tail -n +2 "$TMP/out" | awk -F, '{ for (i = 9; i <= 22; i++) if ($i != "") bad = 1 } END { exit bad }' &&
	ok || fail "inference row has figures: $(cat "$TMP/out")"
# A served model with multi-token-prediction modules and no
# serving.speculative serves without them (neither loaded nor run, as vLLM
# without a speculative config): the same row as with mtp_layers 0.
sed 's/"model": "llama3-8b", "failures": "llama3",/"model": { "preset": "llama3-8b", "mtp_layers": 1 },/' "$TMP/inf.json" >"$TMP/mtp.json"
cols=candidate,status,tpot_p50_ms,kv_capacity_tokens,weights_gb_per_gpu
status_is 0 "$CLUSTERSIM" run "$TMP/mtp.json" --format csv --columns $cols && cp "$TMP/out" "$TMP/mtp.out" &&
	grep -q '^one,ok,' "$TMP/mtp.out" && ok || fail "mtp modules without speculative: $(cat "$TMP/out")"
status_is 0 "$CLUSTERSIM" run "$TMP/mtp.json" --format csv --columns $cols --set workload.model.mtp_layers=0 &&
	cmp -s "$TMP/out" "$TMP/mtp.out" && ok || fail "serving without the modules differs: $(cat "$TMP/out")"
# Speculative decoding on disaggregated replicas is read but not modelled:
# unsupported, without figures.
status_is 1 "$CLUSTERSIM" run "$TMP/mtp.json" --format csv \
	--set 'workload.serving.speculative={"method":"mtp","num_speculative_tokens":1,"acceptance_rate":0.8}' \
	--set 'workload.serving.disaggregated={"prefill_replicas":1,"decode_replicas":1}' && ok ||
	fail "speculative disaggregated exit status"
tail -n +2 "$TMP/out" | grep -q '^[^,]*,one,0,[0-9]*,unsupported,speculative decoding (serving.speculative) with disaggregated' &&
	ok || fail "speculative disaggregated row: $(cat "$TMP/out")"
tail -n +2 "$TMP/out" | awk -F, '{ for (i = 9; i <= 22; i++) if ($i != "") bad = 1 } END { exit bad }' &&
	ok || fail "speculative disaggregated row has figures: $(cat "$TMP/out")"
# --dry-run still shows the shape and price, with status ok and exit 0.
status_is 0 "$CLUSTERSIM" run "$TMP/inf.json" --dry-run --format csv --columns candidate,status,gpus && ok || fail "dry run"
grep -qx 'one,ok,8' "$TMP/out" && ok || fail "dry-run row: $(cat "$TMP/out")"
# A fleet with spare nodes or on spot capacity: neither is modelled, so
# every row (fleet, teams, classes) is unsupported with no dollars.
fl=scenarios/examples/fleet-three-teams.json
one='candidates=[{"name":"48 x H100","preset":"crusoe-8x-h100","nodes":48}]'
status_is 1 "$CLUSTERSIM" run "$fl" --format csv --columns candidate,status,reason,usd_total --set "$one" \
	--set 'workload.failures={"node_mtbf_h":5000,"spare_nodes":2}' && ok || fail "fleet spares exit status"
[ "$(tail -n +2 "$TMP/out" | grep -c ',unsupported,spare nodes beside a fleet (workload.failures.spare_nodes) are not modelled.*figures,$')" -eq "$(($(wc -l <"$TMP/out") - 1))" ] &&
	ok || fail "fleet spares: $(cat "$TMP/out")"
status_is 1 "$CLUSTERSIM" run "$fl" --format csv --columns candidate,status,reason,usd_total \
	--set 'candidates=[{"name":"48 spot","preset":"crusoe-8x-h100","nodes":48,"price":{"type":"spot","usd_per_gpu_hour":1.5}}]' && ok ||
	fail "fleet spot exit status"
[ "$(tail -n +2 "$TMP/out" | grep -c ',unsupported,spot preemptions of a fleet.s instances (price type spot) are not modelled: no fleet figures,$')" -eq "$(($(wc -l <"$TMP/out") - 1))" ] &&
	ok || fail "fleet spot: $(cat "$TMP/out")"
finish
