#!/bin/sh
# The objective: each training row says whether it meets the deadline and
# the budget at P50 and P90; a bound the objective does not give, or a row
# without run figures, leaves its cells empty. An objective no longer makes
# a row unsupported.
. "$TOP/tests/cli/lib.sh"
ex="$TOP/scenarios/examples/llama3-70b-pretrain.json"
# The prices these checks were written for (tests/fixtures/prices/README.md).
pin="$TOP/tests/fixtures/prices/before-2026-12.json"
cols=candidate,status,meets_deadline_p50,meets_deadline_p90,meets_budget_p50,meets_budget_p90

# The 32-node Nebius H100 run takes about 1,247 h and $941,734 (P50 = P90:
# nothing random is simulated); the 16-node ones about 2,460 h and $1.1M or more.
status_is 0 "$CLUSTERSIM" run "$ex" --catalog "$pin" --format csv --columns "$cols" \
	--set 'objective={"deadline_h":2000,"budget_usd":1000000}' && ok || fail "objective run"
grep -qx '32 x Nebius H100,ok,true,true,true,true' "$TMP/out" && ok || fail "under both: $(cat "$TMP/out")"
grep -qx '16 x p5 on-demand,ok,false,false,false,false' "$TMP/out" && ok || fail "over both: $(cat "$TMP/out")"
grep -qx '16 x Nebius H200,ok,false,false,false,false' "$TMP/out" && ok || fail "over both: $(cat "$TMP/out")"
# the spot row is unsupported without run figures: no verdicts
grep -qx '16 x p5en spot,unsupported,,,,' "$TMP/out" && ok || fail "spot row: $(cat "$TMP/out")"
grep -q 'objective' "$TMP/out" && fail "an objective is named as unsupported: $(cat "$TMP/out")" || ok

# A deadline alone: the budget cells are empty.
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --columns "$cols" --set 'objective={"deadline_h":3000}' && ok ||
	fail "deadline only"
grep -qx '16 x p5 on-demand,ok,true,true,,' "$TMP/out" && ok || fail "deadline only: $(cat "$TMP/out")"

# No objective: every verdict is empty.
status_is 0 "$CLUSTERSIM" run "$ex" --format csv --columns "$cols" && ok || fail "no objective"
grep -qx '16 x p5 on-demand,ok,,,,' "$TMP/out" && ok || fail "no objective: $(cat "$TMP/out")"

# JSON: booleans, null when not checked.
status_is 0 "$CLUSTERSIM" run "$ex" --catalog "$pin" --format json --columns "$cols" --set 'objective={"budget_usd":1000000}' && ok ||
	fail "json"
tr -d ' \n' <"$TMP/out" | grep -q '"candidate":"32xNebiusH100","status":"ok","meets_deadline_p50":null,"meets_deadline_p90":null,"meets_budget_p50":true,"meets_budget_p90":true' &&
	ok || fail "json verdicts: $(cat "$TMP/out")"
finish
