#!/bin/sh
# Odd but valid scenarios (tests/odd/): tiny and huge models, 1 GPU and
# 131,072 GPUs, sequences of one token, enormous batches, more expert
# parallelism than experts, precisions a GPU lacks. Each must give, within
# a bounded time, rows whose status is the expected one (tests/odd/EXPECTED),
# with a reason for every row that is not ok and no NaN or infinity; exit
# 0 or 1 (never 2: the input is valid; never a crash). Every build runs
# them, the sanitizer builds included. One check per scenario.
#
# Quick set (make check) and full set (CHECK=full): a scenario marked
# "full" in tests/odd/EXPECTED (batch-2-to-33, the slowest by far; the
# enormous batch stays covered by batch-2-to-39) runs only in the full set.
. "$TOP/tests/cli/lib.sh"
limit_s=${ODD_TIME_LIMIT_S:-60}

# every scenario of the corpus is listed, so none is silently left out
for f in "$TOP"/tests/odd/*.json; do
	grep -q "^$(basename "$f") " "$TOP/tests/odd/EXPECTED" && ok || fail "$(basename "$f") is not listed in tests/odd/EXPECTED"
done

grep -v '^#' "$TOP/tests/odd/EXPECTED" | while read -r file want set; do
	[ -n "$file" ] || continue
	[ "$set" = full ] && ! full && continue
	f="$TOP/tests/odd/$file"
	timeout "$limit_s" "$CLUSTERSIM" run "$f" --format csv >"$TMP/out" 2>"$TMP/err"
	rc=$?
	case $rc in
	0 | 1) ;;
	124) echo "FAIL: $file: took more than $limit_s s"; continue ;;
	*) echo "FAIL: $file: exit $rc: $(head -3 "$TMP/err" | tr '\n' ' ')"; continue ;;
	esac
	if tail -n +2 "$TMP/out" | grep -qiE '(^|,)(-?nan|-?inf)(,|$)'; then
		echo "FAIL: $file: a non-finite number: $(tr '\n' ' ' <"$TMP/out")"
		continue
	fi
	# status and reason from the same rows (RFC 4180 fields: a quoted one
	# may hold commas and doubled quotes: tools/csv.awk), found by the
	# header's names; the first wrong row speaks for the scenario
	awk -v want="$want" -f "$TOP/tools/csv.awk" -f /dev/stdin "$TMP/out" <<'AWK' >"$TMP/why"
		NR == 1 { n = split_csv($0, h); for (k = 1; k <= n; k++) col[h[k]] = k; next }
		{ split_csv($0, v); status = v[col["status"]]; reason = v[col["reason"]] }
		status != want { print "status " status ", wanted " want ": " reason; exit }
		status != "ok" && reason == "" { print "no reason: " $0; exit }
		END { if (NR < 2) print "no rows" }
AWK
	if [ -s "$TMP/why" ]; then
		echo "FAIL: $file: $(head -1 "$TMP/why")"
	else
		echo "checked $file"
	fi
done >"$TMP/log"
while read -r line; do
	case $line in
	FAIL:*) fail "${line#FAIL: }" ;;
	checked*) ok ;;
	esac
done <"$TMP/log"
finish
