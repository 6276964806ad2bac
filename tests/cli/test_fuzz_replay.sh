#!/bin/sh
# The fuzz targets as regression tests: every file of tests/bad/ (where the
# inputs that once crashed a target live), scenarios/ and the golden CSV goes
# through each target built as a plain program (BUILD/fuzz-replay/, made by
# `make check`), under ASan and UBSan in a SANITIZE build; none may crash.
# Then the command-line forms of the crashes the fuzzers found.
. "$TOP/tests/cli/lib.sh"
C=$CLUSTERSIM
dir=$(dirname "$C")/fuzz-replay

[ -d "$dir" ] || skip "no $dir (built by make check-run)"
count=0
for t in "$dir"/fuzz_*; do
	[ -x "$t" ] || continue
	count=$((count + 1))
	# shellcheck disable=SC2086
	"$t" "$TOP"/tests/bad/* "$TOP"/scenarios/*/*.json "$TOP"/tests/golden/*.out "$TOP"/tests/fixtures/*/* >"$TMP/out" 2>"$TMP/err"
	st=$?
	nfiles=$(ls "$TOP"/tests/bad/* "$TOP"/scenarios/*/*.json "$TOP"/tests/golden/*.out "$TOP"/tests/fixtures/*/* | wc -l)
	if [ "$st" -eq 0 ] && grep -qx "replay: $nfiles inputs" "$TMP/out"; then
		ok
	else
		fail "$(basename "$t"): exit $st on the corpus"
		head -20 "$TMP/err"
	fi
done
want=$(ls "$TOP"/tests/fuzz/fuzz_*.c | wc -l)
[ "$count" -eq "$want" ] && ok || fail "$count replay programs in $dir, wanted one per tests/fuzz/fuzz_*.c ($want)"

# fuzz_scenario found: a --set key that is not UTF-8 made jansson free the
# object being built, which was then used (a crash or garbage); a last key
# that is not UTF-8 was dropped without a word. Both are bad input now.
ex="$TOP/scenarios/examples/nccl-allreduce.json"
status_is 2 "$C" run "$ex" --set "$(printf '\377.x=1')" &&
	grep -q -- "--set ?.x: the key is not valid UTF-8 text" "$TMP/err" && ok || fail "--set with a non-UTF-8 inner key"
status_is 2 "$C" run "$ex" --set "$(printf 'name\377=1')" &&
	grep -q -- "--set name?: the key is not valid UTF-8 text" "$TMP/err" && ok || fail "--set with a non-UTF-8 last key"
finish
