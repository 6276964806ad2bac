#!/bin/sh
# run.sh BUILD: run every test: the cmocka unit tests, then the command-line
# tests in tests/cli (each a shell script given $CLUSTERSIM). Prints one line
# per test binary or script and a summary; exits 1 if anything failed.
set -u
build=${1:-build}
CLUSTERSIM=$(cd "$(dirname "$build/clustersim")" && pwd)/clustersim
export CLUSTERSIM
top=$(cd "$(dirname "$0")/.." && pwd)
export TOP="$top"
failed=0
passed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	if "$t" >"$log" 2>&1; then
		printf '%-36s %s\n' "$name" "$(grep -E '^\[  PASSED  \]' "$log" | tail -1)"
		passed=$((passed + 1))
	else
		printf '%-36s FAILED\n' "$name"
		cat "$log"
		failed=$((failed + 1))
	fi
done

for t in "$top"/tests/cli/test_*.sh; do
	name=$(basename "$t")
	if sh "$t" >"$log" 2>&1; then
		printf '%-36s %s\n' "$name" "$(tail -1 "$log")"
		passed=$((passed + 1))
	else
		printf '%-36s FAILED\n' "$name"
		cat "$log"
		failed=$((failed + 1))
	fi
done

echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
