#!/bin/sh
# Odd but valid scenarios (tests/odd/): tiny and huge models, 1 GPU and
# 131,072 GPUs, sequences of one token, enormous batches, more expert
# parallelism than experts, precisions a GPU lacks. Each must give, within
# a bounded time, rows whose status is the expected one (tests/odd/EXPECTED),
# with a reason for every row that is not ok and no NaN or infinity; exit
# 0 or 1 (never 2: the input is valid; never a crash). Every build runs
# them, the sanitizer builds included.
. "$TOP/tests/cli/lib.sh"
limit_s=${ODD_TIME_LIMIT_S:-60}

grep -v '^#' "$TOP/tests/odd/EXPECTED" | while read -r file want; do
	[ -n "$file" ] || continue
	f="$TOP/tests/odd/$file"
	timeout "$limit_s" "$CLUSTERSIM" run "$f" --format csv >"$TMP/out" 2>"$TMP/err"
	rc=$?
	case $rc in
	0 | 1) ;;
	124) echo "FAIL: $file: took more than $limit_s s"; continue ;;
	*) echo "FAIL: $file: exit $rc: $(head -3 "$TMP/err")"; continue ;;
	esac
	if tail -n +2 "$TMP/out" | grep -qiE '(^|,)(-?nan|-?inf)(,|$)'; then
		echo "FAIL: $file: a non-finite number: $(cat "$TMP/out")"
		continue
	fi
	# status, then the reason (the rest of the line: it may hold commas)
	"$CLUSTERSIM" run "$f" --format csv --columns status,reason 2>/dev/null | tail -n +2 |
		awk -v want="^($want)\$" -v file="$file" '
		{ i = index($0, ","); status = substr($0, 1, i - 1); reason = substr($0, i + 1) }
		status !~ want { print "FAIL: " file ": status " status ", wanted " want ": " reason; next }
		status != "ok" && (reason == "" || reason == "\"\"") { print "FAIL: " file ": no reason: " $0 }
		END { if (NR == 0) print "FAIL: " file ": no rows" }'
	echo "checked $file"
done >"$TMP/log"
while read -r line; do
	case $line in
	FAIL:*) fail "${line#FAIL: }" ;;
	checked*) ok ;;
	esac
done <"$TMP/log"
finish
