#!/bin/sh
# clustersim calibrate: the overlay it writes is what validate then
# predicts with (the "after" column), rows name the calibration, the same
# input gives the same bytes, a bound holds with a warning, and bad input
# (no validation block, -o over an input, no files) exits 2 writing nothing.
. "$TOP/tests/cli/lib.sh"
V="$TOP/scenarios/validation"
files="$V/nccl_h100_16m.json $V/nccl_h100_128m.json $V/nccl_h100_256m.json $V/nccl_h100_ring_2g.json $V/mpt_7b_h100_512.json $V/mpt_13b_h100_512.json"
export SOURCE_DATE_EPOCH=1767225600  # 2026-01-01

# shellcheck disable=SC2086
expect_status 0 "$CLUSTERSIM" calibrate $files -o "$TMP/ov.json" --format csv
cp "$TMP/out" "$TMP/report.csv"
cp "$TMP/err" "$TMP/summary"
grep -q '^calibrate: fitted [1-9][0-9]* constants' "$TMP/summary" && grep -q 'held out$' "$TMP/summary" && ok ||
	fail "summary: $(cat "$TMP/summary")"
grep -q '"calibration": "calibrate from 6 files (the first .*) on 2026-01-01"' "$TMP/ov.json" && ok ||
	fail "overlay's calibration: $(cat "$TMP/ov.json")"
grep -q 'mamf_fp8' "$TMP/ov.json" && fail "an unfitted constant in the overlay" || ok

# every fitted constant has its posterior sd (factor_sd); an unfitted one none
columns "$TMP/report.csv" kind,status,factor_sd | awk -F, 'NR > 1 && $1 == "constant" && (($2 == "fitted") != ($3 != "")) { bad = 1 } END { exit bad }' &&
	ok || fail "factor_sd: $(columns "$TMP/report.csv" id,status,factor_sd)"

# validate --catalog OVERLAY predicts the measurements' "after" values
# shellcheck disable=SC2086
status_is 0 "$CLUSTERSIM" validate $files --catalog "$TMP/ov.json" --format csv --columns id,predicted && ok || fail "validate with the overlay"
tail -n +2 "$TMP/out" | sort >"$TMP/validate.txt"
columns "$TMP/report.csv" kind,id,after | awk -F, '$1 != "constant" && NR > 1 { print $2 "," $3 }' | sort >"$TMP/after.txt"
cmp -s "$TMP/validate.txt" "$TMP/after.txt" && ok || fail "validate --catalog overlay differs from calibrate's after: $(diff "$TMP/validate.txt" "$TMP/after.txt" | head -4)"

# run names the calibration in the reason of a row computed on it
status_is 0 "$CLUSTERSIM" run "$V/mpt_7b_h100_512.json" --catalog "$TMP/ov.json" --format csv --columns reason &&
	grep -q 'calibrated: H100-SXM, nvlink4 (calibrate from 6 files' "$TMP/out" && ok || fail "run's reason: $(cat "$TMP/out")"

# same input, same bytes
# shellcheck disable=SC2086
status_is 0 "$CLUSTERSIM" calibrate $files -o "$TMP/ov2.json" --format csv && cmp -s "$TMP/ov.json" "$TMP/ov2.json" &&
	cmp -s "$TMP/out" "$TMP/report.csv" && ok || fail "a second run gives other bytes"

# three training runs faster than the datasheet: mamf_bf16 held at 1, said so
for m in 7b 13b 30b; do
	sed 's/"published": *[0-9.]*/"published": 800/' "$V/mpt_${m}_h100_512.json" >"$TMP/fast_$m.json"
done
status_is 0 "$CLUSTERSIM" calibrate "$TMP/fast_7b.json" "$TMP/fast_13b.json" "$TMP/fast_30b.json" \
	-o "$TMP/fast_ov.json" --format csv &&
	grep -q '"mamf_bf16": 1.0,' "$TMP/fast_ov.json" && grep -q 'warning: H100-SXM.mamf_bf16 held at its physical bound 1' "$TMP/err" &&
	ok || fail "bound: $(cat "$TMP/fast_ov.json" "$TMP/err")"

# bad input: exit 2, one line naming the file, nothing written
sed '/"validation"/,$d' "$V/mpt_7b_h100_512.json" | sed '$s/,$//' >"$TMP/noval.json"
echo '}' >>"$TMP/noval.json"
status_is 2 "$CLUSTERSIM" calibrate "$TMP/noval.json" -o "$TMP/bad_ov.json" && [ ! -e "$TMP/bad_ov.json" ] &&
	[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q 'noval.json' "$TMP/err" && ok || fail "no validation block: $(cat "$TMP/err")"
cp "$V/nccl_h100_16m.json" "$TMP/in.json"
status_is 2 "$CLUSTERSIM" calibrate "$TMP/in.json" -o "$TMP/in.json" && cmp -s "$TMP/in.json" "$V/nccl_h100_16m.json" && ok ||
	fail "-o over an input"
expect_status 2 "$CLUSTERSIM" calibrate
status_is 2 "$CLUSTERSIM" calibrate "$V/nccl_h100_16m.json" --error 0 -o "$TMP/bad_ov.json" && [ ! -e "$TMP/bad_ov.json" ] &&
	grep -q -- "--error expects a percentage" "$TMP/err" && ok || fail "--error 0: $(cat "$TMP/err")"
printf '{"name": "x", "validation": ' >"$TMP/trunc.json"
status_is 2 "$CLUSTERSIM" calibrate "$TMP/trunc.json" -o "$TMP/bad_ov.json" && [ ! -e "$TMP/bad_ov.json" ] && ok ||
	fail "truncated JSON"

finish
