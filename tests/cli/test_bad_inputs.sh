#!/bin/sh
# Every file in tests/bad must be rejected: exit status 2, exactly one line on
# standard error that starts with "clustersim: " and contains the text listed
# in tests/bad/EXPECTED, nothing on standard output, no result file written
# (and no temporary file left beside it), and never a crash.
. "$TOP/tests/cli/lib.sh"

bad="$TOP/tests/bad"
n=0
while IFS="	" read -r file expect; do
	case "$file" in "#"*|"") continue ;; esac
	n=$((n + 1))
	out="$TMP/result-$n.csv"
	"$CLUSTERSIM" run "$bad/$file" -o "$out" >"$TMP/out" 2>"$TMP/err"
	status=$?
	if [ "$status" -ne 2 ]; then
		fail "$file: exit $status, wanted 2"
		head -3 "$TMP/err"
		continue
	fi
	lines=$(wc -l <"$TMP/err")
	if [ "$lines" -ne 1 ]; then
		fail "$file: $lines lines on stderr, wanted 1"
		head -3 "$TMP/err"
		continue
	fi
	if ! grep -q '^clustersim: ' "$TMP/err"; then
		fail "$file: message lacks the program prefix: $(cat "$TMP/err")"
		continue
	fi
	if ! grep -qF -- "$expect" "$TMP/err"; then
		fail "$file: message does not contain '$expect': $(cat "$TMP/err")"
		continue
	fi
	if [ -s "$TMP/out" ] || [ -e "$out" ] || ls "$TMP"/result-$n.csv.tmp.* >/dev/null 2>&1; then
		fail "$file: wrote output despite the error"
		continue
	fi
	ok
done <"$bad/EXPECTED"

# Every file in the corpus is listed, so none is silently skipped.
for f in "$bad"/*; do
	b=$(basename "$f")
	[ "$b" = EXPECTED ] && continue
	grep -q "^$b	" "$bad/EXPECTED" || fail "$b is not listed in tests/bad/EXPECTED"
done
[ "$n" -ge 30 ] || fail "only $n bad inputs; the corpus must hold at least 30"
finish
