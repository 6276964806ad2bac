#!/bin/sh
# The gemm workload kind from the command line: the example's rows (one per
# shape and candidate, each with its bound), a precision a GPU lacks as
# unsupported rows, and validate on gemm rows: a figure equal to the model's
# own prediction (as run prints it) is 0% off under metric gemm_tflops and
# time_us, in the kind "gemm".
. "$TOP/tests/cli/lib.sh"
C=$CLUSTERSIM
ex="$TOP/scenarios/examples/gemm-bf16-shapes.json"

expect_status 0 "$C" run "$ex" --format csv || finish
cp "$TMP/out" "$TMP/rows.csv"
# 4 shapes x 4 candidates, every one ok
[ "$(sed 1d "$TMP/rows.csv" | wc -l)" -eq 16 ] && ok || fail "wanted 16 rows: $(cat "$TMP/rows.csv")"
[ "$(sed 1d "$TMP/rows.csv" | cut -d, -f5 | sort -u)" = ok ] && ok || fail "a row is not ok"
# the tall-skinny shape (m 16) is bound by HBM on every GPU, 8192^3 by compute
[ "$(awk -F, '$9 == 16 { print $17 }' "$TMP/rows.csv" | sort -u)" = hbm ] && ok || fail "m 16 is not HBM-bound"
[ "$(awk -F, '$9 == 8192 { print $17 }' "$TMP/rows.csv" | sort -u)" = compute ] && ok || fail "8192^3 is not compute-bound"
# gemm_tflops = 2 m n k / time_us / 1e6, to the 6 digits printed
awk -F, 'NR > 1 { want = 2 * $9 * $10 * $11 / $12 / 1e6; d = want - $13; if (d < 0) d = -d;
	if (d > 1e-5 * want) { print "row " NR ": " $13 " vs " want; bad = 1 } } END { exit bad }' "$TMP/rows.csv" &&
	ok || fail "gemm_tflops is not 2mnk / time"

# FP4 on H100 (no FP4 rate): unsupported, naming it
expect_status 0 "$C" run "$ex" --set 'workload.precision="fp4"' --format csv || finish
grep -q '^gemm-bf16-shapes,H100 SXM,0,0,unsupported,H100-SXM has no fp4 tensor rate in the catalog,' "$TMP/out" &&
	ok || fail "fp4 on H100 is not unsupported: $(sed -n 2p "$TMP/out")"

# validate: the model's own figure back is 0% off
tf=$(awk -F, 'NR == 2 { print $13 }' "$TMP/rows.csv")
us=$(awk -F, 'NR == 2 { print $12 }' "$TMP/rows.csv")
for mv in "gemm_tflops $tf" "time_us $us"; do
	set -- $mv
	printf '{ "name": "v", "workload": { "kind": "gemm", "gemm": { "m": 8192, "n": 8192, "k": 8192 } },
  "candidates": [ { "name": "h100", "gpu": "H100-SXM", "nodes": 1, "gpus_per_node": 1 } ],
  "validation": { "id": "gemm_bf16_8192", "metric": "%s", "published": %s } }\n' "$1" "$2" >"$TMP/v.json"
	expect_status 0 "$C" validate "$TMP/v.json" --format csv --columns id,metric,error_pct,kind || continue
	# run prints 6 digits: the error is below their rounding
	awk -F, -v m="$1" 'NR == 2 { e = $3 < 0 ? -$3 : $3; exit !($2 == m && e < 1e-3 && $4 == "gemm") }' "$TMP/out" &&
		ok || fail "validate $1: $(cat "$TMP/out")"
done

# a calibrated GPU (an overlay's "calibration") is named in the row's reason: the
# GPU only, a gemm uses no fabric; the overlay's rate is the one used
printf '{ "gpus": [ { "name": "H100-SXM", "mamf_bf16": 0.4, "calibration": "calibrate from t on 2026-01-01" } ] }\n' >"$TMP/cal.json"
expect_status 0 "$C" run "$ex" --catalog "$TMP/cal.json" --format csv \
	--columns gpu,mamf,reason || true
awk -F, 'NR == 2 { exit !($1 == "H100-SXM" && $2 == 0.4 && $3 == "calibrated: H100-SXM (calibrate from t on 2026-01-01)") }' \
	"$TMP/out" && ok || fail "gemm reason names the calibration: $(head -2 "$TMP/out")"

# a cell longer than the reader's buffer is refused whole, never read as its
# cut start (16777216.000...0001 is not the whole number 16777216)
printf 'm,n,k,dtype,tflops\n16777216.%s1,8192,8192,bf16,500\n' "$(printf '%070d' 0)" >"$TMP/long.csv"
expect_status 2 "$C" validate "$TMP/long.csv" --on "$TOP/tests/fixtures/measure/on-a3mega-h100x16.json" || true
grep -q "line 2, column m: expected a whole number" "$TMP/err" && [ ! -s "$TMP/out" ] && ok ||
	fail "a long cell: $(cat "$TMP/err")"
finish
