#!/bin/sh
# The whole run is simulated: the same seed gives the same bytes, another
# seed another P90; ETTR below 1 with failures; the split sums to 1.
. "$TOP/tests/cli/lib.sh"
whole="$TOP/scenarios/examples/llama3-70b-whole-run.json"
cols=candidate,status,wall_time_p50_h,wall_time_p90_h,ettr,frac_compute,frac_comm_exposed,frac_bubble,frac_checkpoint,frac_lost_to_failures,frac_idle
expect_status 0 "$CLUSTERSIM" run "$whole" --format csv --columns "$cols" || fail "run"
cp "$TMP/out" "$TMP/a"
expect_status 0 "$CLUSTERSIM" run "$whole" --format csv --columns "$cols" || fail "run again"
cmp -s "$TMP/out" "$TMP/a" && ok || fail "same seed, different bytes"
expect_status 0 "$CLUSTERSIM" run "$whole" --format csv --columns "$cols" --set seed=7 || fail "seed 7"
[ "$(grep '^16 x p5 on-demand' "$TMP/a" | cut -d, -f4)" != "$(grep '^16 x p5 on-demand' "$TMP/out" | cut -d, -f4)" ] &&
	ok || fail "another seed, the same P90: $(cat "$TMP/out")"
grep ',ok,' "$TMP/a" | awk -F, '{ s = $6 + $7 + $8 + $9 + $10 + $11; if ($5 >= 1 || $5 < 0.9 || s < 0.9999 || s > 1.0001 || $4 < $3) bad = 1 } END { exit bad }' &&
	ok || fail "ETTR in (0.9, 1), split sums to 1, P90 >= P50: $(cat "$TMP/a")"
finish
