#!/bin/sh
# The owned price basis: node power x PUE x electricity price plus the
# purchase amortized over its life, per GPU-hour, billed per second.
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples/llama3-70b-pretrain.json"
own='{"type":"owned","pue":1.3,"usd_per_kwh":0.08,"purchase_usd":270000,"life_years":4,"node_power_kw":10.2}'

# (10.2 x 1.3 x 0.08 + 270000 / 35064) / 8 = 1.095126 per GPU-hour; 16 nodes x 8 GPUs = $140.176/h
status_is 0 "$CLUSTERSIM" run "$ex" --dry-run --format csv --columns candidate,usd_per_gpu_hour,usd_per_hour \
	--set "candidates[4].price=$own" && ok || fail "owned dry run"
grep -qx 'custom H200 NDR,1.09513,140.176' "$TMP/out" && ok || fail "owned price: $(cat "$TMP/out")"
grep -q 'owned: 10.2 kW x PUE 1.3' "$TMP/out" && fail "basis in the wrong column" || ok
status_is 0 "$CLUSTERSIM" run "$ex" --dry-run --format csv --columns candidate,price_basis --set "candidates[4].price=$own" && ok ||
	fail "owned basis"
grep -q '^custom H200 NDR,"owned: 10.2 kW x PUE 1.3 x \$0.08/kWh' "$TMP/out" && ok || fail "owned basis: $(cat "$TMP/out")"
# billed per second: billed_h is the wall time
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --columns candidate,status,wall_time_p50_h,billed_h --set "candidates[4].price=$own" && ok ||
	fail "owned run"
grep -qx 'custom H200 NDR,ok,2593.31,2593.31' "$TMP/out" && ok || fail "owned billed_h: $(cat "$TMP/out")"
# a preset without node power and no node_power_kw: exit 2 naming the path
status_is 2 "$CLUSTERSIM" run "$ex" --set 'candidates[2].price={"type":"owned","pue":1.3,"usd_per_kwh":0.08,"purchase_usd":270000,"life_years":4}' && ok ||
	fail "owned without power"
grep -q "candidates\[2\].price: an owned price needs the node's power: nebius-8x-h100" "$TMP/err" && ok || fail "message: $(cat "$TMP/err")"
finish
