# Helpers for the command-line tests; sourced with $CLUSTERSIM and $TOP set.
set -u
fails=0
checks=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

ok() {
	checks=$((checks + 1))
}

# expect_status WANT CMD...: run, keep stdout/stderr in $TMP/out, $TMP/err
expect_status() {
	want=$1
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "exit $got, wanted $want: $*"
		sed 's/^/  stderr: /' "$TMP/err" | head -5
		return 1
	fi
	ok
	return 0
}

finish() {
	if [ "$fails" -gt 0 ]; then
		echo "$fails of $checks checks failed"
		exit 1
	fi
	echo "$checks checks passed"
	exit 0
}
